"""Benchmark: do the bots play well? Monte Carlo tree search against greedy, greedy against random,
in every bundled game, seat-swapped, with 95 % intervals (issue 24, item 4).

    python bench/bots.py                      # the table of docs/simulate.md ("How well the bots play")
    python bench/bots.py --only age_of_steam  # one game
    python bench/bots.py --games 8            # fewer games a pairing (a smoke run: wide intervals)

For each game and pairing "A against B": A plays one seat and B every other seat; A's seat moves
round the table from game to game (game i puts A at seat i mod players), so no seat's advantage
favours either side. A's **win share** counts a win shared by k players as 1/k (runtime/simulate.py
``win_credit``); an even share is 1 / players. The interval is Wilson's 95 % interval of that share
over the games (a shared win is a fraction of a trial: the same formula), rounded outward; "beats"
only when the interval's low end is above the even share. Every game is seeded (game i of a pairing
from (seed, i), runtime/simulate.py ``game_seed``), so the table is reproducible. CPU seconds per game
are the process's own (the machine is shared: read them as costs, not speeds). No test asserts on
any of this; the figures are reported in docs/simulate.md.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# game, players, the Monte Carlo budget (descents a decision), games a pairing: the smallest counts
# that gave intervals clear of an even share in pilot runs (the machine's 2 cores are shared)
PLAN = (("infernal_contraption", 2, "mcts:200", 40, 40),
        ("age_of_steam", 3, "mcts:48", 60, 24),  # 24 games left the interval over an even third
        # 51st State on issue 24's whole-game data (88-card stand-in Base Set, both packs): 96 descents,
        # since 24 were no better than greedy (52.1 % of 120 games; docs/simulate.md); a game of mcts:96
        # costs about 15 CPU-s (the bots' what-ifs skip Moloch's Assault search, runtime/bots.py)
        ("fifty_first_state", 2, "mcts:96", 48, 24))


def pairing(game: str, players: int, a: str, b: str, games: int, seed: int) -> dict:
    from runtime.simulate import SimConfig, run_games, win_credit
    from runtime.stats import down, interval_text, up, wilson

    credit = 0.0
    lengths = 0
    t = time.process_time()
    for i in range(games):
        seat = i % players
        spec = ",".join(a if s == seat else b for s in range(players))
        # one game per config: game 0 of a run seeded (seed, i), so every game has its own seed
        (rec,) = run_games(SimConfig(game, games=1, players=players, seed=seed * 100_000 + i, agent=spec))
        credit += win_credit(rec, seat)
        lengths += rec["moves"]
    cpu = time.process_time() - t
    low, high = wilson(credit, games)
    even = 1 / players
    return {"game": game, "players": players, "a": a, "b": b, "games": games, "share": credit / games,
            "low": down(low), "high": up(high), "even": even, "beats": down(low) > even,
            "interval": interval_text(down(low), up(high), even), "cpu": cpu / games, "moves": lengths / games}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, help="games a pairing (default: the plan's)")
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--pair", choices=["mcts-greedy", "greedy-random", "both"], default="both")
    args = ap.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}; seed {args.seed}")
    print("| game | players | A against B (B in every other seat) | games | A's win share | 95 % interval "
          "| even share | A beats B? | CPU s a game |")
    print("|---|---|---|---|---|---|---|---|---|")
    for game, players, mcts, n_mcts, n_greedy in PLAN:
        if args.only and game not in args.only:
            continue
        todo = []
        if args.pair in ("mcts-greedy", "both"):
            todo.append((mcts, "greedy", args.games or n_mcts))
        if args.pair in ("greedy-random", "both"):
            todo.append(("greedy", "random", args.games or n_greedy))
        for a, b, n in todo:
            r = pairing(game, players, a, b, n, args.seed)
            print(f"| {game} | {players} | {a} against {b} | {n} | {r['share']:.1%} | {r['interval']} | "
                  f"{r['even']:.0%} | {'yes' if r['beats'] else 'not shown'} | "
                  f"{'< 0.01' if r['cpu'] < 0.01 else format(r['cpu'], '.2f')} |", flush=True)


if __name__ == "__main__":
    main()
