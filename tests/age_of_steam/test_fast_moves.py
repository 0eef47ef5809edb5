"""The Moon's legal moves and the track index (runtime/games/age_of_steam/index.py) against the slow
originals kept as the reference (tests/age_of_steam/reference_moves.py), at every move of seeded
random games, in copies too: a stale index or a listing that differs from the engine's own checks
shows here as the first move where they part."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from runtime.agents import SeededRandom
from runtime.engine import engine_for
from tests.age_of_steam import reference_moves as reference

from .helpers import compiled


def match(seed: int, n: int):
    c = compiled()
    agents = {i: SeededRandom(random.Random(seed * 31 + i)) for i in range(n)}
    return engine_for(c).new_match(c, [f"P{i + 1}" for i in range(n)], seed=seed, agents=agents)


def reference_moves(m) -> list:
    p = m.to_act()
    if p is None or m.t.stage == "actions":
        return [(mv.key, mv.label) for mv in m.legal_moves()]  # not listed from the index
    listing = reference.build_moves if m.t.stage == "build" else reference.move_moves
    return [(mv.key, mv.label) for mv in listing(m.game, p)]


def index_problems(g) -> list[str]:
    """Where the engine's indexed answers differ from the reference's, on every hex and hex side."""
    e, m = g.engine, g.moon
    out = []
    if e.complete_links_graph(g) != reference.complete_links_graph(g):
        out.append("complete_links_graph")
    if e.connected(g) != reference.connected(g):
        out.append("connected")
    for h in m.map.hexes:
        if e.sections_at_town(g, h) != reference.sections_at_town(g, h):
            out.append(f"sections_at_town {h}")
        for _, n in m.map.neighbours(h):
            if e.side_taken(g, h, n) != reference.side_taken(g, h, n):
                out.append(f"side_taken {h} {n}")
    nodes = sorted(set(reference.complete_links_graph(g)) | {m.map.landing})
    complete = sorted(lid for lid, ln in m.links.items() if ln.complete)
    for a in nodes:
        for b in nodes + [n for _, n in m.map.neighbours(a)]:
            # no borrowed link, each link joining the two, and one that does not
            joining = [lid for lid in complete if {m.links[lid].start, m.links[lid].end} == {a, b}]
            for seat in range(len(g.players)):
                for borrow in [None] + joining + [lid for lid in complete if lid not in joining][:1]:
                    fast = e.link_between(g, seat, a, b, borrow)
                    if fast is not reference.link_between(g, seat, a, b, borrow):
                        out.append(f"link_between {a} {b} {seat} {borrow}")
    from runtime.games.age_of_steam.playout import routes

    for src in sorted(h for h, c in m.cubes.items() if c):
        for cube in m.colours:
            if routes(g, src, cube) != reference.routes(g, src, cube):
                out.append(f"routes {src} {cube}")
    # what the bots' heuristic keeps in the index's memo
    for seat in range(len(g.players)):
        if e._deliverable(g, seat) != reference.deliverable(g, seat):
            out.append(f"deliverable {seat}")
    for ln in m.links.values():
        if not ln.complete and ln.hexes and (e._hexes_to_city(g, ln.tip(), ln.start, 3)
                                             != reference.hexes_to_city(g, ln.tip(), ln.start, 3)):
            out.append(f"hexes_to_city {ln.id}")
    return out


def play_checked(m, rng: random.Random, seen: Counter, moves: int | None = None) -> None:
    """Play random moves, checking the listing and the index before each."""
    n = 0
    while not m.terminal() and (moves is None or n < moves):
        listed = [(mv.key, mv.label) for mv in m.legal_moves()]
        assert listed == reference_moves(m), (m.game.moon.turn, m.t.stage, n)
        assert index_problems(m.game) == [], (m.game.moon.turn, m.t.stage, n)
        e, g = m.game.engine, m.game
        for key, label in listed:
            seen[key[0]] += 1
            seen["new city"] += "New City" in label
            if key[0] in ("build", "extend"):
                seen["town"] += e.node_kind(g, e.hex_of(g, key[2])) == "town"
                seen["complete"] += label.startswith("Complete")
            if key[0] == "deliver":
                seen["borrow"] += key[4] is not None
                src = e.hex_of(g, key[2])
                seen["from track"] += e.node_kind(g, src) is None
                # Low Gravitation on the link whose track the cube lies on (seeds 1 and 2 reach it)
                seen["borrow own track"] += key[4] is not None and g.moon.track.get(src) == key[4]
        m.apply(rng.choice(m.legal_moves()))
        n += 1


@pytest.mark.slow
def test_listing_and_index_equal_the_reference_at_every_move_and_in_copies():
    seen: Counter = Counter()
    for seed in range(8):
        rng = random.Random(seed)
        m = match(seed, 3 + seed % 2)
        while not m.terminal():
            play_checked(m, rng, seen, moves=25)
            # a copy shares the index of its version: playing on in it must leave the original's answers
            # right, and the copy's own
            c = m.copy()
            play_checked(c, random.Random(seed * 1000 + m.game.moon.turn), seen, moves=15)
            assert index_problems(m.game) == []
            assert [(mv.key, mv.label) for mv in m.legal_moves()] == reference_moves(m)
    # the random games reached every kind of answer the listing gives
    assert all(seen[k] for k in ("build", "extend", "deliver", "borrow", "town", "complete", "from track",
                                   "borrow own track")), seen


def test_new_cities_are_listed_as_the_engine_names_them():
    """A New City (placed by a scenario's game_state) is a City for the listing and the routes: the
    same moves as the reference with one on a Town next to the Landing hex."""
    seen: Counter = Counter()
    m = match(3, 3)
    g = m.game
    towns = sorted(h for h, rec in g.moon.map.hexes.items() if rec.get("town"))
    for i, h in enumerate(towns):
        g.moon.place_new_city(h, {"id": f"N{i}", "colour": g.moon.colours[i % len(g.moon.colours)], "number": 6})
    play_checked(m, random.Random(3), seen)
    assert seen["new city"], seen
