"""Moloch speed figures (reported, never asserted): efficient Assault and whole rounds.

Run from the checkout root: `python bench/moloch.py`. Prints one line per measure.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.agents import SeededRandom  # noqa: E402
from runtime.engine import engine_for, load_compiled  # noqa: E402


def timed(fn, n):
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    c = load_compiled("fifty_first_state")
    eng = engine_for(c)
    from runtime.games.fifty_first_state.moloch import MOLOCH as moloch

    # 1. one player's Assault with 6 Deployed raze Machines against a State of 12 Locations
    def assault_once():
        game = eng.new_game(c, ["Ann"], seed=1, setup=False)
        game.round = 2
        for cid in ["mother", "juggernaut", "stalker", "scorcher", "mother", "stalker"]:
            game.create(cid, game.zone_key("deployed", None))
        for cid in ["oil_rig", "iron_mine", "gun_shop", "brick_supplier", "brick_storage", "refugee_camp",
                    "oil_rig", "iron_mine", "gun_shop", "monument", "barracks", "foundry"]:
            inst = game.create(cid, game.zone_key("state", 0), owner=0)
            inst.props["row"] = eng.row_of(game, inst.uid)
        moloch.assault(eng, game, 0)

    print(f"assault: 6 raze Machines x 12 Locations: {timed(assault_once, 20) * 1000:.1f} ms per player")

    # 2. an Assault whose order matters: Leech and Shredder need what Mother's and Stalker's Razes give
    def interacting():
        game = eng.new_game(c, ["Ann"], seed=1, setup=False, options={"packs": ["moloch"]})
        game.round = 2
        game.players[0].goods["fuel"] = 1
        for cid in ["leech", "shredder", "tithe_engine", "mother", "stalker"]:
            game.create(cid, game.zone_key("deployed", None))
        for cid in ["oil_rig", "scrap_pile", "iron_mine", "gun_shop"]:
            inst = game.create(cid, game.zone_key("state", 0), owner=0)
            inst.props["row"] = eng.row_of(game, inst.uid)
        for cid in ["monument", "barracks"]:
            game.create(cid, game.zone_key("deck", None))
        moloch.assault(eng, game, 0)

    print(f"assault: 5 interacting Machines (order searched): {timed(interacting, 10) * 1000:.1f} ms per player")

    # 3. whole rounds with a seeded random agent, 4 players, Veteran
    def rounds():
        game = eng.new_game(c, ["A", "B", "C", "D"], seed=3, options={"difficulty": "veteran"})
        game.default_agent = SeededRandom()
        for p in game.active_players():
            for _ in range(4):
                eng.place_in_state(game, game.zone("deck")[-1], p)
        for _ in range(5):
            eng.play_round(game)

    print(f"rounds: 5 rounds, 4 players, Veteran: {timed(rounds, 5) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
