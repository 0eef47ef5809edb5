"""Scavengers speed figures (reported, never asserted): the [symbol], icon matching, whole rounds.

Run from the checkout root: `python bench/scavengers.py`. Prints one line per measure.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from compiler.explain import effect_function, explain_effect  # noqa: E402
from runtime.agents import SeededRandom  # noqa: E402
from runtime.engine import engine_for, load_compiled  # noqa: E402
from runtime.model import model_of  # noqa: E402


def timed(fn, n):
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def main() -> None:
    c = load_compiled("fifty_first_state")
    eng = engine_for(c)
    vocab = model_of(c.vocab)
    scouring = c.cards["scouring_the_ruins"]["slots"]["action"]
    symbol = effect_function(explain_effect("draw 1 symbol card", vocab))
    names = ["A", "B", "C", "D"]

    def laid_out():
        game = eng.new_game(c, names, seed=1, setup=False, options={"packs": ["scavengers"]})
        for p in range(1, 4):
            for cid in ("oil_rig", "iron_mine", "school"):
                game.create(cid, game.zone_key("personal_discard", p), owner=p)
        game.players[0].goods.update({"worker": 1, "fuel": 1, "iron": 1})
        return game

    # 1. Scouring the Ruins (S10): choose an icon among 3 other players' top cards, pay, gain
    def scouring_once():
        eng.run(laid_out(), scouring, 0)

    base = timed(laid_out, 200)
    print(f"scouring the ruins (S10), 4 players: {(timed(scouring_once, 200) - base) * 1e6:.0f} us per use "
          f"(laying out the state: {base * 1e6:.0f} us, subtracted)")

    # 2. a lone [symbol] draw (S08)
    def symbol_once():
        eng.run(laid_out(), symbol, 0)

    print(f"lone [symbol] draw (S08), 4 players: {(timed(symbol_once, 200) - base) * 1e6:.0f} us per draw")

    # 3. whole rounds with both packs: setup, Lookout reveal + 2 drafting rounds, Cleanup
    def rounds():
        game = eng.new_game(c, names, seed=3, options={"difficulty": "veteran"})
        game.default_agent = SeededRandom()
        for _ in range(5):
            eng.play_round(game)

    print(f"rounds: setup + 5 rounds, 4 players, Moloch + Scavengers: {timed(rounds, 5) * 1000:.1f} ms")

    # 4. the checker on the pile rule (E207) — compile one effect
    t = timed(lambda: explain_effect("draw 1 card from your discard pile", vocab), 200)
    print(f"check an effect naming your own pile (E207): {t * 1e6:.0f} us")


if __name__ == "__main__":
    main()
