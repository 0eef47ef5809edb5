"""How 51st State games end, and after how many rounds, for every player count and pack choice.

Run from the checkout root: `python bench/fifty_first_state_end.py [GAMES [SEED [AGENT [PACKS [PLAYERS]]]]]`
(default 100 games a configuration, seed 0, random agents; PACKS, e.g. `scavengers`, keeps only the
configurations of exactly those packs, `all` every one; PLAYERS, e.g. `3,4`, only those player counts —
so that configurations can run in parallel processes). Each configuration is a real `cardwright simulate` run
(runtime/simulate.py ``SimConfig`` with the game's options, the same seeds as the command line): 2, 3
and 4 players; both State Packs, Moloch alone, each at the three difficulties, and Scavengers alone.
Prints per configuration: games, how they ended (the VP goal, the round limit, the Deck with nothing
left to reshuffle — the stand-ins of game.yaml `game_end` / `deck_out`), the share ended by play (the VP
goal or the round limit: not by the Deck running out) and the share ended by the VP goal — the end
condition the issue asks to be reached in 90 % of games; the round limit and the Deck are backstops
(docs/decisions.md) — and the rounds per game (mean, median, range and histogram `rounds×games`). The figures go to
docs/fifty_first_state.md; they are never asserted by tests.
"""
from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.simulate import SimConfig, run_games  # noqa: E402

CONFIGS = [(("moloch", "scavengers"), level) for level in ("recruit", "private", "veteran")] + \
          [(("moloch",), level) for level in ("recruit", "private", "veteran")] + [(("scavengers",), None)]


def reason(record: dict) -> str:
    why = record["reason"].split("the game ended: ")[-1]
    if "reached" in why:
        return "VP goal"
    if "rounds were played" in why:
        return "round limit"
    if "Deck ran out" in why:
        return "Deck out"
    return why or ("turn cap" if record["capped"] else "?")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    agent = sys.argv[3] if len(sys.argv) > 3 else "random"
    only = tuple(sys.argv[4].split(",")) if len(sys.argv) > 4 and sys.argv[4] != "all" else None
    counts = tuple(int(n) for n in sys.argv[5].split(",")) if len(sys.argv) > 5 else (2, 3, 4)
    print(f"{games} games a configuration, seed {seed}, agents {agent}")
    print("| players | packs | difficulty | VP goal | round limit | Deck out | by play | by the VP goal | "
          "rounds: mean, median [min–max] | rounds×games | s/game |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for players in counts:
        for packs, level in CONFIGS:
            if only is not None and packs != only:
                continue
            options = (("packs", packs),) + ((("difficulty", level),) if level else ())
            cfg = SimConfig("fifty_first_state", games=games, players=players, seed=seed, agent=agent,
                            options=options)
            start = time.perf_counter()
            records = run_games(cfg)
            took = (time.perf_counter() - start) / games
            ends = Counter(reason(r) for r in records)
            rounds = [r["rounds"] for r in records]
            by_goal = ends["VP goal"] / games
            by_end = (ends["VP goal"] + ends["round limit"]) / games
            print(f"| {players} | {' + '.join(packs)} | {level or '—'} | {ends['VP goal']} | {ends['round limit']} | "
                  f"{ends['Deck out']} | {by_end:.1%} | {by_goal:.1%} | {statistics.fmean(rounds):.1f}, {statistics.median(rounds):g} "
                  f"[{min(rounds)}–{max(rounds)}] | {' '.join(f'{k}×{v}' for k, v in sorted(Counter(rounds).items()))} | "
                  f"{took:.1f} |", flush=True)
            other = {k: v for k, v in ends.items() if k not in ("VP goal", "round limit", "Deck out")}
            if other:
                print(f"  other ends: {other}", flush=True)


if __name__ == "__main__":
    main()
