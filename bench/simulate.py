"""Benchmark: Infernal Contraption games per second (seeded random agents), 2/3/4 players, 1 and 2 jobs.

    /work/venv/bin/python bench/simulate.py [--games N] [--agent random|greedy]

Reports wall-clock games/s and games per CPU-second (process time of this process and its worker
processes: what one core does even when the machine is shared with other work). Figures go to stdout and bench/results/simulate.json; nothing here is
asserted by the tests (speed targets are measured, not tested).
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.simulate import SimConfig, run_games  # noqa: E402


def measure(players: int, games: int, jobs: int, agent: str) -> dict:
    cfg = SimConfig("infernal_contraption", games, players, seed=1, agent=agent, jobs=jobs)
    run_games(SimConfig("infernal_contraption", 5, players, seed=99, agent=agent))  # warm the imports
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    w0, c0 = time.perf_counter(), time.process_time()
    records = run_games(cfg)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)  # worker processes
    turns = sum(r["turns"] for r in records) / len(records)
    out = {"players": players, "jobs": jobs, "games": games, "agent": agent, "wall_s": round(wall, 3),
           "games_per_s_wall": round(games / wall, 1), "mean_turns": round(turns, 2)}
    out["games_per_s_cpu"] = round(games / cpu, 1)  # per CPU-second, all processes together
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--agent", default="random", choices=["random", "greedy"])
    args = ap.parse_args()
    rows = [measure(p, args.games, 1, args.agent) for p in (2, 3, 4)]
    rows.append(measure(2, args.games, 2, args.agent))
    for r in rows:
        cpu = f", {r['games_per_s_cpu']:.0f} per CPU-second"
        print(f"{r['players']} players, {r['jobs']} job{'s' if r['jobs'] > 1 else ''}: "
              f"{r['games_per_s_wall']:.0f} games/s wall{cpu} (mean {r['mean_turns']} turns)")
    one = rows[0]["games_per_s_wall"]
    two = rows[-1]["games_per_s_wall"]
    eff = rows[-1]["games_per_s_cpu"] / rows[0]["games_per_s_cpu"]
    print(f"2 players: --jobs 2 runs {two / one:.2f}x the wall-clock rate of --jobs 1; per CPU-second it keeps "
          f"{eff:.0%} of the one-job rate (the scaling two free cores would give)")
    res = Path(__file__).resolve().parent / "results"
    res.mkdir(exist_ok=True)
    (res / "simulate.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
