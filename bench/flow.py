"""Benchmark: a game whose flow is data (tests/fixtures/flow/deckbuild), played by the core engine.

    .venv/bin/python bench/flow.py [--games N]

Reports games per CPU-second for each agent pairing (random, greedy, mcts:1 and the default mcts
against random) and the cost of ``Match.copy`` (what Monte Carlo playouts pay per sample), plus
Infernal Contraption's copy for comparison. Figures go to stdout and bench/results/flow.json;
nothing here is asserted by the tests (speed is measured, not tested).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.build import load_game_folder
from runtime.simulate import SimConfig, run_games  # noqa: E402

FLOW = str(ROOT / "tests" / "fixtures" / "flow")


def measure(agent: str, games: int) -> dict:
    run_games(SimConfig("deckbuild", 1, 2, seed=99, agent="random", data=FLOW, loader=load_game_folder))  # compile, warm imports
    c0 = time.process_time()
    records = run_games(SimConfig("deckbuild", games, 2, seed=1, agent=agent, data=FLOW, loader=load_game_folder))
    cpu = time.process_time() - c0
    wins = sum(1 for r in records if r["winners"] == [0])
    return {"agent": agent, "games": games, "cpu_s": round(cpu, 3), "games_per_cpu_s": round(games / cpu, 2),
            "mean_moves": round(sum(r["moves"] for r in records) / games, 1),
            "seat_1_wins": wins, "capped": sum(r["capped"] for r in records)}


def copy_cost() -> dict:
    from runtime.engine import engine_for, load_compiled
    from runtime.simulate import _compiled

    out = {}
    for name, compiled in (("deckbuild", _compiled("deckbuild", FLOW)),
                           ("infernal_contraption", load_compiled("infernal_contraption"))):
        match = engine_for(compiled).new_match(compiled, ["A", "B"], seed=1)
        t0 = time.process_time()
        for _ in range(500):
            match.copy()
        out[name] = round((time.process_time() - t0) / 500 * 1e3, 3)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args()
    rows = [measure("random", args.games * 5), measure("greedy,random", args.games),
            measure("mcts:1,random", max(2, args.games // 4)), measure("mcts,random", max(2, args.games // 10))]
    for r in rows:
        print(f"{r['agent']:>14}: {r['games_per_cpu_s']:8.2f} games per CPU-second, {r['mean_moves']} moves a game, "
              f"seat 1 won {r['seat_1_wins']} of {r['games']}")
    copies = copy_cost()
    for name, ms in copies.items():
        print(f"Match.copy of {name}: {ms} ms")
    res = Path(__file__).resolve().parent / "results"
    res.mkdir(exist_ok=True)
    (res / "flow.json").write_text(json.dumps({"runs": rows, "copy_ms": copies}, indent=2) + "\n")


if __name__ == "__main__":
    main()
