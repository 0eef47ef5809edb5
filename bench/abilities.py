"""Benchmark: do the bots use abilities as moves, and does using them pay? (issue 28)

    python bench/abilities.py                 # the table of docs/simulate.md ("Abilities as moves")
    python bench/abilities.py --games 8       # a smoke run (wide intervals)

Corsairs (tests/language/games/corsairs: ships and bases with ally, scrap and base abilities used as
moves of its flow), 2 players. For each pairing "A against B" A's seat alternates from game to game;
A's win share counts a shared win 1/2; the interval is Wilson's 95 %, rounded outward (as
bench/bots.py). For each side it counts the ability moves taken a game (the flow's moves keyed
"ability"), and the game length in turns. Every game is seeded (seed, i). CPU seconds are the
process's own (the machine is shared). No test asserts on any of this; tests/test_abilities.py holds
a small seeded check that greedy uses abilities and beats random.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ROOT / "tests" / "language" / "games"
PLAN = (("greedy", "random", 40), ("random", "random", 40), ("mcts:16", "random", 12), ("mcts:16", "greedy", 12))


def pairing(compiled, a: str, b: str, games: int, seed: int) -> dict:
    from runtime.engine import engine_for
    from runtime.simulate import game_seed
    from runtime.stats import down, interval_text, up, wilson

    eng = engine_for(compiled)
    credit, turns, uses_a, uses_b = 0.0, 0, 0, 0
    t = time.process_time()
    for i in range(games):
        seat = i % 2
        kinds = [a, b] if seat == 0 else [b, a]
        agents = {s: eng.make_agent(k) for s, k in enumerate(kinds)}
        match = eng.new_match(compiled, ["P1", "P2"], seed=game_seed(seed, i), agents=agents)
        while not match.terminal():
            actor = match.to_act()
            move = agents[actor].pick(match, match.legal_moves())
            if move.key[0] == "ability":
                if actor == seat:
                    uses_a += 1
                else:
                    uses_b += 1
            match.apply(move)
        winners = match.result().winners
        credit += (1 / len(winners)) if seat in winners else 0.0
        turns += match.game.turn_number
    cpu = time.process_time() - t
    low, high = wilson(credit, games)
    return {"share": credit / games, "interval": interval_text(down(low), up(high), 0.5),
            "beats": down(low) > 0.5, "uses_a": uses_a / games, "uses_b": uses_b / games,
            "turns": turns / games, "cpu": cpu / games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, help="games a pairing (default: the plan's)")
    ap.add_argument("--seed", type=int, default=28)
    args = ap.parse_args()
    from compiler.build import compile_tree
    from runtime.engine import load_from_sources

    result = compile_tree(GAMES)
    assert result.ok, [d.render() for d in result.diags.errors]
    compiled = load_from_sources(result.outputs, "corsairs")
    print(f"load {os.getloadavg()[0]:.1f}; seed {args.seed}")
    print("| A against B | games | A's win share | 95 % interval | A beats B? | ability moves a game (A / B) "
          "| turns a game | CPU s a game |")
    print("|---|---|---|---|---|---|---|---|")
    for a, b, n in PLAN:
        n = args.games or n
        r = pairing(compiled, a, b, n, args.seed)
        print(f"| {a} against {b} | {n} | {r['share']:.1%} | {r['interval']} | "
              f"{'yes' if r['beats'] else 'not shown'} | {r['uses_a']:.1f} / {r['uses_b']:.1f} | "
              f"{r['turns']:.1f} | {r['cpu']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
