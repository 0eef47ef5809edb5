"""Seeded random games of 51st State and Age of Steam (Moon) through the game protocol, to a winner.

Run from the checkout root: `python bench/games.py [N [GAME…]]` (default 1000 games of each). Every game is played
by seeded random seats (moves chosen uniformly from ``legal_moves()``, choices inside effects by a
seeded random agent); after every move the game's invariants are checked (the same checks as the
tests). Prints, per game: games, how many ended with a winner, why they ended, moves, the time. The
figures go to docs/benchmarks.md; they are never asserted by tests.
"""
from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.agents import SeededRandom  # noqa: E402
from runtime.engine import engine_for, load_compiled  # noqa: E402


def play(game: str, seed: int, players: list[str], check) -> tuple:
    c = load_compiled(game)
    eng = engine_for(c)
    agents = {i: SeededRandom(random.Random(seed * 1009 + i)) for i in range(len(players))}
    m = eng.new_match(c, players, seed=seed, agents=agents)
    rng = random.Random(seed)
    moves = 0
    while not m.terminal():
        legal = m.legal_moves()
        if not legal:
            raise AssertionError(f"{game} seed {seed}: no legal move in an unfinished game")
        m.apply(rng.choice(legal))
        moves += 1
        problems = check(m)
        if problems:
            raise AssertionError(f"{game} seed {seed} move {moves}: {problems}")
    return m.result(), moves


def check_fifty(m) -> list[str]:
    g = m.game
    out = list(g.check_conservation())
    out += [f"{p.name} {k} {n}" for p in g.players for k, n in p.goods.items() if n < 0]
    return out


def check_moon(m) -> list[str]:
    from runtime.games.age_of_steam import check_invariants, cube_total

    g = m.game
    out = check_invariants(g) + list(g.check_conservation())
    t = g.turn_state
    if cube_total(g) + t.delivered != t.cubes_at_start:
        out.append(f"cubes {cube_total(g)} + {t.delivered} delivered != {t.cubes_at_start} at setup")
    return out


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    only = sys.argv[2:]  # optionally: the games to run
    for game, seats, check in (("fifty_first_state", (2, 3, 4), check_fifty),
                               ("age_of_steam", (3, 4), check_moon)):
        if only and game not in only:
            continue
        t = time.perf_counter()
        ended, winners, moves = Counter(), 0, 0
        for seed in range(n):
            k = seats[seed % len(seats)]
            r, mv = play(game, seed, [f"P{i + 1}" for i in range(k)], check)
            winners += bool(r.winners)
            moves += mv
            ended[r.reason.split("the game ended: ")[-1]] += 1
        dt = time.perf_counter() - t
        print(f"{game}: {n} games ({'/'.join(map(str, seats))} players), {winners} with a winner, "
              f"{moves / n:.0f} moves a game, {dt:.1f} s ({dt / n * 1000:.0f} ms a game); ended: "
              + "; ".join(f"{why} x{k}" for why, k in ended.most_common()))


if __name__ == "__main__":
    main()
