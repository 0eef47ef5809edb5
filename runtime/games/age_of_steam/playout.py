"""Seeded random turns on the Moon, for property tests and bench/age_of_steam.py.

Not a strategy: each player tries random builds and random moves; illegal ones are refused by the
engine (and must leave the state unchanged, which the caller checks). Randomness comes only from the
``rng`` passed in (the tests and the bench seed it). The turn runs the engine's phases in order.
"""
from __future__ import annotations

import random

from runtime.errors import Refused


def _random_walk(game, rng: random.Random, origin: tuple, n: int) -> list:
    m = game.moon
    path, here = [], origin
    for _ in range(n):
        options = [h for _, h in m.map.neighbours(here) if h not in path and h != origin]
        if not options:
            break
        here = rng.choice(sorted(options))
        path.append(here)
        if game.engine.node_kind(game, here) is not None:
            break
    return path


def routes(game, src: tuple, cube: str, depth: int = 3) -> list[list]:
    """Node paths (up to ``depth`` links) along Complete Links from ``src`` to a City that takes ``cube``,
    shortest first. Worked out once per links, Sun, source and cube (the track index, index.py)."""
    return [list(path) for path in game.moon.index().routes(game, src, cube, depth)]


def random_turn(game, rng: random.Random, on_try=None) -> dict:
    """Play one turn with random attempts. ``on_try(kind, fn)`` wraps every attempt (for checks)."""
    e, m = game.engine, game.moon
    stats = {"actions": 0, "builds": 0, "moves": 0, "refused": 0}

    def attempt(kind, fn):
        try:
            (on_try(kind, fn) if on_try else fn())
            stats[kind + "s"] += 1
        except Refused:
            stats["refused"] += 1

    e.phase(game, "select_actions")
    for p in m.turn_order:
        if rng.random() < 0.5:
            attempt("action", lambda p=p: e.take_action(game, p, rng.choice(["engineer", "low_gravitation"])))
    e.phase(game, "build_track")
    for p in m.turn_order:
        for _ in range(3):
            starts = [("start", m.map.landing)] + [("start", c) for c in sorted(e.connected(game)) if c != m.map.landing]
            starts += [("cont", lid) for lid, ln in sorted(m.links.items()) if ln.owner == p and not ln.complete]
            kind, ref = rng.choice(starts)
            origin = ref if kind == "start" else m.links[ref].tip()
            path = _random_walk(game, rng, origin, rng.randint(1, 3))
            if kind == "start":
                attempt("build", lambda p=p, ref=ref, path=path: e.build(game, p, path, start=ref))
            else:
                attempt("build", lambda p=p, ref=ref, path=path: e.build(game, p, path, cont=ref))
    for _ in range(2):
        e.phase(game, "move_goods")
        for p in m.turn_order:
            sources = sorted(h for h, c in m.cubes.items() if c)
            if not sources:
                continue
            src = rng.choice(sources)
            cube = rng.choice(sorted(m.cubes[src]))
            found = routes(game, src, cube)
            if found and rng.random() < 0.8:
                path = rng.choice(found)
            else:  # sometimes a random (mostly illegal) route, to exercise refusals
                nodes = sorted({n for ln in m.links.values() if ln.complete for n in (ln.start, ln.end)})
                if not nodes:
                    continue
                path = rng.sample(nodes, min(len(nodes), rng.randint(1, 3)))
            borrow = None
            if e.holds(game, p, "low_gravitation"):
                other = sorted(lid for lid, ln in m.links.items() if ln.complete and ln.owner != p)
                borrow = rng.choice(other) if other and rng.random() < 0.5 else None
            attempt("move", lambda p=p, src=src, cube=cube, path=path, borrow=borrow:
                    e.move(game, p, cube, src, path, borrow))
    e.phase(game, "goods_growth")
    e.phase(game, "end_of_turn")
    return stats
