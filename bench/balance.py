"""Benchmark: balance runs — games per CPU-second per game and bot, and what a second core gives.

    python bench/balance.py            # the figures of issue 16 item 5, in one run
    python bench/balance.py --quick    # fewer games (a smoke run; the figures are then rough)

Reports, with the load average beside each figure (the machine is shared: read ratios, not seconds):
- games per CPU-second of one job, random agents, for each bundled game and the YAML-only
  deck-builder of the tests, and with the flat Monte Carlo bot (mcts:2) in one seat;
- what running on other processes costs besides the games: starting a pool of two processes, and
  a game's record sent back (bytes, time to pickle and unpickle);
- the wall-clock speed-up over one job of ``--jobs 2`` (the standard library's process pool) and of
  a 2-worker Dask ``LocalCluster`` (separate processes), on the same Infernal Contraption run.
No test asserts on time.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = (("infernal_contraption", None, 2), ("fifty_first_state", None, 2), ("age_of_steam", None, 3),
         ("deckbuild", str(ROOT / "tests" / "fixtures" / "flow"), 2))


def load() -> str:
    return "load %.1f" % os.getloadavg()[0]


def cpu_rate(cfg) -> float:
    from compiler.build import load_game_folder
    from runtime.simulate import simulate

    t = time.process_time()
    simulate(cfg)
    return cfg.games / (time.process_time() - t)


def wall(cfg) -> float:
    from runtime.simulate import simulate

    t = time.perf_counter()
    simulate(cfg)
    return time.perf_counter() - t


def overheads() -> str:
    """What running on other processes costs besides the games: starting (and stopping) a process
    pool of two, and sending a game's record back (its pickled size, the time to pickle and unpickle)."""
    import multiprocessing as mp
    import pickle

    from runtime.simulate import play_one

    methods = mp.get_all_start_methods()
    t = time.perf_counter()
    with mp.get_context("fork" if "fork" in methods else "spawn").Pool(2) as pool:
        pool.map(abs, [1, 2])
    start = time.perf_counter() - t
    records = [play_one(("infernal_contraption", None, 2, 0, i, "random", 200, False, None, (), False))
               for i in range(64)]
    blob = pickle.dumps(records)
    t = time.perf_counter()
    for _ in range(20):
        pickle.loads(pickle.dumps(records))
    each = (time.perf_counter() - t) / 20 / len(records)
    return (f"process pool of 2: {start * 1e3:.0f} ms to start and stop; a game's record {len(blob) / len(records):.0f} "
            f"bytes, {each * 1e6:.0f} µs to pickle and unpickle [{load()}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    from runtime.simulate import SimConfig, simulate

    n_random, n_mcts, n_speed = (40, 2, 200) if args.quick else (300, 6, 2000)
    print(f"games per CPU-second, one job ({'quick' if args.quick else 'full'} run)")
    for game, data, players in GAMES:
        base = SimConfig(game, games=n_random, players=players, data=data, loader=load_game_folder)
        simulate(dataclasses.replace(base, games=2))  # warm: compile the data folder, import the engine
        r = cpu_rate(base)
        m = cpu_rate(dataclasses.replace(base, games=n_mcts, agent="mcts:2," + ",".join(["random"] * (players - 1))))
        print(f"  {game:22} random {r:8.1f}   mcts:2 in seat 1 {m:8.2f}   [{load()}]")
    ic = SimConfig("infernal_contraption", games=n_speed)
    simulate(dataclasses.replace(ic, games=4))
    print(overheads())
    one = wall(ic)
    l1 = load()
    two = wall(dataclasses.replace(ic, jobs=2))
    l2 = load()
    line = f"Infernal Contraption, {n_speed} random games, wall: 1 job {one:.2f} s [{l1}]; --jobs 2 {two:.2f} s " \
           f"(speed-up {one / two:.2f}) [{l2}]"
    try:
        from distributed import LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
            wall(dataclasses.replace(ic, games=4, executor="dask", scheduler=cl.scheduler_address))  # warm workers
            dask = wall(dataclasses.replace(ic, executor="dask", scheduler=cl.scheduler_address))
        line += f"; Dask LocalCluster, 2 workers {dask:.2f} s (speed-up {one / dask:.2f}) [{load()}]"
    except ImportError:
        line += "; Dask not installed"
    print(line)


if __name__ == "__main__":
    main()
