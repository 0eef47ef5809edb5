"""Benchmark: what search costs — random-agent moves per CPU-second, copies, and Monte Carlo decisions.

    python bench/search.py                     # this checkout, the default sizes
    python bench/search.py --before DIR        # this checkout and the one in DIR, in turn (A B A B …)
    python bench/search.py --scale 0.5 --decisions 6 --mcts 200 --rounds 2
    python bench/search.py --uno .bench-venv/bin/python   # with RLCard's UNO (bench/uno.py) in the same run
    python bench/search.py --game age_of_steam --before DIR   # one game only (repeat --game for more)

For each bundled game (Infernal Contraption 2 players, 51st State 2 players, the Moon 3 players):

- random agents: seeded games (300 of Infernal Contraption, 8 of 51st State, 30 of the Moon, times
  ``--scale``) (seed 27, ``runtime.simulate.play_one``, the simulator's
  own loop): moves and games per CPU-second of this process, and how many game copies were made
  (``Match.copy`` for legal-move trials, the Assault search…) and the CPU time spent in them;
- the Monte Carlo bot: ``--decisions`` decisions taken from one seeded random game (every position
  with more than one legal move, spread evenly over the game), each answered by ``mcts:N`` (``UCT``
  with ``--mcts`` descents) on that position: CPU-seconds per decision (mean and worst).

With ``--uno PYTHON`` each round also runs bench/uno.py (RLCard's UNO, random agents) under that
interpreter (a separate environment with rlcard installed: not a dependency of cardwright), so that
the yardstick's moves per CPU-second come from the same run.

The load average (1 minute) is printed beside every figure: the machine is shared, so ratios between
two checkouts measured in one run (``--before``) mean more than any single figure. The figures are
printed and saved to bench/results/search.json (gitignored); the reported ones are in
docs/benchmarks.md. No test asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
# (game, players, random games at --scale 1): sizes that take a few CPU-seconds each
GAMES = (("infernal_contraption", 2, 300), ("fifty_first_state", 2, 8), ("age_of_steam", 3, 30))
SEED = 27


def load() -> float:
    return round(os.getloadavg()[0], 2)


def counting_copies():
    """Wrap every engine's ``copy`` of a game state so that copies are counted and timed (process
    time). Returns the counter dict, filled as the games run."""
    from runtime import state as state_mod

    seen = {"copies": 0, "cpu": 0.0}
    classes = {state_mod.GameState, *_subclasses(state_mod.GameState)}
    for cls in classes:
        if "copy" not in cls.__dict__:
            continue
        original = cls.__dict__["copy"]

        def timed(self, *a, _original=original, **k):
            t = time.process_time()
            try:
                return _original(self, *a, **k)
            finally:
                seen["copies"] += 1
                seen["cpu"] += time.process_time() - t

        setattr(cls, "copy", timed)
    return seen


def _subclasses(cls):
    import importlib

    for pkg in ("fifty_first_state", "age_of_steam", "infernal_contraption"):
        importlib.import_module(f"runtime.games.{pkg}")
    out, todo = set(), [cls]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in out:
                out.add(sub)
                todo.append(sub)
    return out


def random_rate(game: str, players: int, games: int, seen: dict) -> dict:
    from runtime.simulate import play_one

    def one(i, seed=SEED):
        return play_one((game, None, players, seed, i, "random", 200, False, None, (), False))

    one(0, seed=SEED + 1)  # warm: compile, import the engine
    c0, k0 = seen["copies"], seen["cpu"]
    t = time.process_time()
    moves = sum(one(i)["moves"] for i in range(games))
    cpu = time.process_time() - t
    return {"games": games, "moves": moves, "cpu_s": round(cpu, 3),
            "moves_per_cpu_s": round(moves / cpu, 1), "games_per_cpu_s": round(games / cpu, 3),
            "copies": seen["copies"] - c0, "copy_cpu_s": round(seen["cpu"] - k0, 3), "load": load()}


def positions(game: str, players: int, decisions: int):
    """``decisions`` positions of one seeded random game (seed SEED) with more than one legal move,
    spread evenly over the game; each is a copy of the match as it stood."""
    from runtime.agents import SeededRandom
    from runtime.engine import engine_for, load_compiled

    c = load_compiled(game)
    eng = engine_for(c)
    agents = {i: SeededRandom(random.Random(SEED * 1009 + i)) for i in range(players)}
    m = eng.new_match(c, [f"P{i + 1}" for i in range(players)], seed=SEED, agents=agents)
    m.game.tracing = False
    rng = random.Random(SEED)
    found = []
    while not m.terminal() and len(found) < 400:
        legal = m.legal_moves()
        if not legal:
            break
        if len(legal) > 1:
            found.append(m.copy())
        m.apply(rng.choice(legal))
    if not found:
        return []
    step = max(1, len(found) // decisions)
    return found[::step][:decisions]


def mcts_cost(game: str, players: int, decisions: int, iterations: int) -> dict:
    from runtime.bots import UCT

    spots = positions(game, players, decisions)
    costs = []
    for m in spots:
        bot = UCT(iterations)
        legal = m.legal_moves()
        t = time.process_time()
        bot.pick(m, legal)
        costs.append(time.process_time() - t)
    return {"mcts": iterations, "decisions": len(costs),
            "cpu_s_per_decision": round(statistics.mean(costs), 4) if costs else None,
            "worst_cpu_s": round(max(costs), 4) if costs else None, "load": load()}


def measure(scale: float, decisions: int, iterations: int, only: list[str] | None = None) -> dict:
    seen = counting_copies()
    out = {}
    for game, players, games in GAMES:
        if only and game not in only:
            continue
        games = max(1, round(games * scale))
        out[game] = {"players": players, "random": random_rate(game, players, games, seen)}
        out[game]["mcts"] = mcts_cost(game, players, decisions, iterations)
    return out


def show(label: str, res: dict) -> None:
    for game, r in res.items():
        a, m = r["random"], r["mcts"]
        share = a["copy_cpu_s"] / a["cpu_s"] if a["cpu_s"] else 0
        print(f"{label:8} {game:22} {r['players']}p random: {a['moves_per_cpu_s']:9.0f} moves/CPU-s, "
              f"{a['games_per_cpu_s']:8.2f} games/CPU-s ({a['games']} games, {a['moves']} moves; "
              f"{a['copies']} copies, {share:.0%} of the CPU) [load {a['load']}]; "
              f"mcts:{m['mcts']} {m['cpu_s_per_decision']} CPU-s/decision (worst {m['worst_cpu_s']}, "
              f"{m['decisions']} decisions) [load {m['load']}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="times the random games of each game")
    ap.add_argument("--decisions", type=int, default=6, help="Monte Carlo decisions per game")
    ap.add_argument("--mcts", type=int, default=200, help="descents per decision (mcts:N)")
    ap.add_argument("--before", help="another checkout: measured in turn with this one, same sizes")
    ap.add_argument("--rounds", type=int, default=1, help="with --before: rounds of A B")
    ap.add_argument("--uno", metavar="PYTHON", help="an interpreter with rlcard: RLCard UNO in the same run")
    ap.add_argument("--uno-games", type=int, default=300)
    ap.add_argument("--game", action="append", choices=[g for g, _, _ in GAMES],
                    help="measure only this game (repeatable; default: every bundled game)")
    ap.add_argument("--root", help=argparse.SUPPRESS)  # the checkout a child process measures
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    root = Path(args.root).resolve() if args.root else HERE.parent.parent
    sys.path.insert(0, str(root))
    os.chdir(root)
    if args.json:
        print(json.dumps(measure(args.scale, args.decisions, args.mcts, args.game)))
        return
    sizes = ["--scale", str(args.scale), "--decisions", str(args.decisions), "--mcts", str(args.mcts)]
    sizes += [a for g in args.game or () for a in ("--game", g)]
    roots = [("after", root)] + ([("before", Path(args.before).resolve())] if args.before else [])
    results = {label: [] for label, _ in roots}
    results["uno"] = []
    for _ in range(args.rounds if args.before else 1):
        if args.uno:
            p = subprocess.run([args.uno, str(HERE.parent / "uno.py"), "--games", str(args.uno_games)],
                               capture_output=True, text=True, check=True)
            u = json.loads(p.stdout.strip().splitlines()[-1])
            results["uno"].append(u)
            print(f"{'yardstick':8} {'RLCard UNO':22} {u['players']}p random: {u['moves_per_cpu_s']:9.0f} moves/CPU-s, "
                  f"{u['games_per_cpu_s']:8.2f} games/CPU-s ({u['games']} games, {u['moves']} moves) [load {u['load']}]")
        for label, where in roots:  # each checkout in a fresh process: nothing shared between them
            p = subprocess.run([sys.executable, str(HERE), "--json", "--root", str(where), *sizes],
                               capture_output=True, text=True, check=True)
            res = json.loads(p.stdout.strip().splitlines()[-1])
            results[label].append(res)
            show(label, res)
    out = HERE.parent / "results"
    out.mkdir(exist_ok=True)
    (out / "search.json").write_text(json.dumps({"sizes": sizes, "seed": SEED, **results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
