"""The slow originals of what runtime/games/age_of_steam/index.py and turn.py's listing now answer from
tables: kept as the reference the fast answers are held to (tests/age_of_steam/test_fast_moves.py), used by
nothing else (so they live with the tests, not in the runtime package).

Each is the code as it was before the track index (issue 27): worked out from the links on every
call, and the legal moves listed by running the engine's own checks (``build`` / ``move`` with
``check_only``) on every candidate. Keep them unchanged unless the rules change; a rule change goes
into the engine, these and the fast path together.
"""
from __future__ import annotations

from collections import deque

from runtime.errors import Refused
from runtime.hexgrid import fmt
from runtime.protocol import Move


def complete_links_graph(game) -> dict:
    """node -> the nodes one Complete Link (of any owner) away."""
    adj: dict = {}
    for ln in game.moon.links.values():
        if ln.complete:
            adj.setdefault(ln.start, set()).add(ln.end)
            adj.setdefault(ln.end, set()).add(ln.start)
    return adj


def connected(game) -> set:
    """Nodes connected to the Landing hex by Complete Links (of any owner)."""
    m = game.moon
    adj = complete_links_graph(game)
    seen = {m.map.landing}
    todo = deque([m.map.landing])
    while todo:
        for n in sorted(adj.get(todo.popleft(), ())):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def sections_at_town(game, h: tuple) -> int:
    return sum((ln.start == h) + (ln.end == h) for ln in game.moon.links.values())


def side_taken(game, a: tuple, b: tuple) -> str | None:
    """The link whose track crosses the hex side between ``a`` and ``b``, or None."""
    e, m = game.engine, game.moon
    cands = {lid for lid in (m.track.get(a), m.track.get(b)) if lid is not None}
    if a not in m.track and b not in m.track:
        cands |= {lid for lid, ln in m.links.items() if not ln.hexes and {ln.start, ln.end} == {a, b}}
    key = e.side_key(game, a, b)
    for lid in sorted(cands):
        if any(e.side_key(game, x, y) == key for x, y in m.links[lid].sections() if {x, y} == {a, b}):
            return lid
    return None


def routes(game, src: tuple, cube: str, depth: int = 3) -> list[list]:
    """Node paths (up to ``depth`` links) along Complete Links from ``src`` to a City that takes ``cube``."""
    e, m = game.engine, game.moon
    adj = complete_links_graph(game)
    if e.node_kind(game, src) is None:
        ln = m.links.get(m.track.get(src))
        if ln is None or not ln.complete:
            return []
        firsts = [[ln.start], [ln.end]]
    else:
        firsts = [[n] for n in sorted(adj.get(src, ()))]
    out, todo = [], list(firsts)
    while todo:
        path = todo.pop(0)
        if e.accepts(game, path[-1]) == cube:
            out.append(path)
        if len(path) < depth:
            todo += [path + [n] for n in sorted(adj.get(path[-1], ())) if n not in path and n != src]
    return out


def _check(fn):
    try:
        return fn()
    except Refused:
        return None


def build_moves(game, p: int) -> list[Move]:
    """The Build Track moves of seat ``p``: every one-tile build tried with ``build(check_only=True)``."""
    g, e, m = game, game.engine, game.moon
    out = [Move("Stop building track", ("stop",))]
    starts = [m.map.landing] + sorted(h for h in connected(g) if e.node_kind(g, h) == "city")
    for start in starts:
        for _, h in sorted(m.map.neighbours(start)):
            cost = _check(lambda: e.build(g, p, [h], start=start, check_only=True))
            if cost is not None:
                out.append(Move(f"Build track from {e.label(g, start)} to {e.label(g, h)} (${cost})",
                                ("build", fmt(start), fmt(h))))
    for lid, ln in sorted(m.links.items(), key=lambda kv: int(kv[0][1:])):
        if ln.owner != p or ln.complete:
            continue
        for _, h in sorted(m.map.neighbours(ln.tip())):
            cost = _check(lambda: e.build(g, p, [h], cont=lid, check_only=True))
            if cost is not None:
                what = (f"Complete {lid} into {e.label(g, h)}" if e.node_kind(g, h) in ("city", "landing")
                        else f"Extend {lid} to {e.label(g, h)}")
                out.append(Move(f"{what} (${cost})", ("extend", lid, fmt(h))))
    return out


def move_moves(game, p: int) -> list[Move]:
    """The Move Goods moves of seat ``p``: every route tried with ``move(check_only=True)``."""
    g, e, m = game, game.engine, game.moon
    out = [Move("Move no cube this round", ("no_move",))]
    seen = set()
    borrowable = sorted(lid for lid, ln in m.links.items() if ln.complete and ln.owner != p) \
        if e.holds(g, p, "low_gravitation") else []
    for src in sorted(h for h, c in m.cubes.items() if c):
        for cube in sorted(set(m.cubes[src])):
            for path in routes(g, src, cube):
                for borrow in [None] + [b for b in borrowable if m.borrowed.get(p) in (None, b)]:
                    key = ("deliver", cube, fmt(src), tuple(fmt(n) for n in path), borrow)
                    if key in seen:
                        continue
                    links = _check(lambda: e.move(g, p, cube, src, list(path), borrow, check_only=True))
                    if links is None:
                        continue
                    seen.add(key)
                    via = f", {borrow} used as yours (Low Gravitation)" if borrow else ""
                    out.append(Move(f"Deliver a {cube} cube from {e.label(g, src)} to {e.label(g, path[-1])} "
                                    f"over {links} link{'s' * (links != 1)}{via}", key))
    return out


def hexes_to_city(game, tip: tuple, start: tuple, limit: int) -> int | None:
    """AgeOfSteam._hexes_to_city worked out afresh (the bots' heuristic)."""
    e, m = game.engine, game.moon
    seen, frontier = {tip}, [tip]
    for d in range(limit):
        nxt = []
        for h in frontier:
            for _, n in m.map.neighbours(h):
                if n in seen:
                    continue
                seen.add(n)
                if n != start and e.node_kind(game, n) == "city":
                    return d
                if n not in m.track and e.node_kind(game, n) is None:
                    nxt.append(n)
        frontier = nxt
    return None


def deliverable(game, seat: int) -> list[int]:
    """AgeOfSteam._deliverable worked out afresh (the bots' heuristic)."""
    e, m = game.engine, game.moon
    out = []
    for src in sorted(h for h, c in m.cubes.items() if c):
        for cube in sorted(set(m.cubes[src])):
            best = 0
            for path in routes(game, src, cube):
                here, own = src, 0
                if e.node_kind(game, src) is None:  # on a track tile: along its link first
                    ln = m.links.get(m.track.get(src))
                    own += ln is not None and ln.owner == seat
                    here, path = path[0], path[1:]
                for node in path:
                    ln = e.link_between(game, seat, here, node, None)
                    own += ln is not None and ln.owner == seat
                    here = node
                best = max(best, own)
            if best:
                out.append(best)
    return out


def link_between(game, player: int, a: tuple, b: tuple, borrow):
    """The Complete Link a cube moving from ``a`` to ``b`` travels: read from every link."""
    cands = [ln for ln in game.moon.links.values() if ln.complete and {ln.start, ln.end} == {a, b}]
    if not cands:
        return None
    cands.sort(key=lambda ln: (ln.id != borrow, ln.owner != player, int(ln.id[1:])))
    return cands[0]
