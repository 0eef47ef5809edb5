"""The shortcuts of the Moon's move listing held to the slow path on seeded random games, in copies too:

- a track index derived from the last one (``TrackIndex.derived``: a link started or extended without
  being completed) says what one built anew from the links says, at every move;
- the start nodes' one-tile builds it keeps from that index (``TrackIndex.start_builds``) are those the
  listing works out anew at its version;
- a move's label made lazily (``Move.lazy``) says, when read moves later — after more track, a New
  City, another Sun — what it said when its move was listed.
"""
from __future__ import annotations

import random

from runtime.games.age_of_steam.index import TrackIndex
from runtime.hexgrid import fmt

from .test_fast_moves import match, reference_moves


# how often an index held start builds when first seen (kept from the index it was derived from); the
# indexes seen, by id (held, so that no id is reused)
KEPT = {"start builds": 0}
SEEN: dict = {}


def assert_index_fresh(m) -> None:
    moon = m.game.moon
    ix = moon.index()
    assert ix.same_as(TrackIndex(moon, moon.version)), (moon.turn, m.t.stage)
    if ix.start_builds is not None:  # kept from an earlier version (derived) or listed at this one
        assert start_builds(ix.start_builds) == start_builds(m._start_builds(moon.tables(), ix)), \
            (moon.turn, m.t.stage)
        KEPT["start builds"] += id(ix) not in SEEN
    SEEN[id(ix)] = ix


def start_builds(builds) -> list:
    return [(h, pair, cost, mv.key, mv.label) for h, pair, cost, mv in builds]


def play(m, rng: random.Random, moves: int | None = None, kept: list | None = None) -> int:
    """Random moves, checking the index before each; ``kept`` collects (move, its label as the
    reference listing words it now) of every third listing, whose own labels are not read now."""
    m.game.tracing = False  # as a simulation plays: no label is read by apply either
    n = 0
    while not m.terminal() and (moves is None or n < moves):
        assert_index_fresh(m)
        legal = m.legal_moves()
        if kept is not None and n % 3 == 0:
            ref = reference_moves(m)  # reference_moves.py's listing, labels made at once
            assert [mv.key for mv in legal] == [key for key, _ in ref]
            kept += [(mv, label) for mv, (_, label) in zip(legal, ref)]
        m.apply(rng.choice(legal))
        n += 1
    return n


def test_a_derived_index_equals_one_built_anew_at_every_move_and_in_copies():
    """... and the start nodes' builds it keeps from the index it was derived from equal those
    listed anew (``TrackIndex.start_builds``)."""
    derived = 0
    KEPT["start builds"] = 0
    SEEN.clear()
    for seed in range(6):
        rng = random.Random(seed)
        m = match(seed, 3 + seed % 2)
        while not m.terminal():
            before = m.game.moon.index()
            play(m, rng, moves=20)
            derived += m.game.moon.index() is not before
            c = m.copy()
            play(c, random.Random(seed * 1000 + m.game.moon.turn), moves=12)
            assert_index_fresh(m)  # the copy's play left the original's index right
    assert derived
    assert KEPT["start builds"]
    SEEN.clear()


def test_lazy_labels_read_later_say_what_they_said_when_listed():
    kept: list = []
    for seed in range(4):
        m = match(seed, 3)
        play(m, random.Random(seed), kept=kept)
    assert len(kept) > 300
    assert any(mv.key[0] == "build" for mv, _ in kept) and any(mv.key[0] == "deliver" for mv, _ in kept)
    assert all(mv.label == label for mv, label in kept)


def test_lazy_labels_keep_the_names_of_their_version_when_a_new_city_is_placed():
    """Towns become New Cities mid-game (by hand, as a scenario's game_state places them): labels
    listed before still name the Towns, labels listed after name the New Cities."""
    m = match(3, 3)
    g = m.game
    towns = sorted(h for h, rec in g.moon.map.hexes.items() if rec.get("town"))
    town_names = {g.engine.label(g, h) for h in towns}
    before: list = []
    play(m, random.Random(3), moves=40, kept=before)
    for i, h in enumerate(towns):
        colour = g.moon.colours[i % len(g.moon.colours)]
        g.moon.place_new_city(h, {"id": f"N{i}", "colour": colour, "number": 6})
    m._legal = None  # the state was changed by hand, not by a move: list anew
    after: list = []
    play(m, random.Random(4), kept=after)
    assert all(mv.label == label for mv, label in before + after)
    assert any(name in label for _, label in before for name in town_names)
    assert any("New City" in label for _, label in after)


def test_a_start_build_into_a_town_is_priced_anew_when_a_link_completes_into_it():
    """The start builds kept across a completed link (``TrackIndex.derived``): a link completed into
    a Town next to the Landing hex adds a section to the Town, so the build from the Landing hex
    straight into it costs $1 more — the second time with the Town connected already (the first
    connects it, which lists the start builds anew anyway). Listed as the reference lists them."""
    m = match(0, 3)
    g = m.game
    g.tracing = False
    while m.t.stage == "actions":
        m.apply(m.legal_moves()[0])  # no special action
    landing, hadley = fmt(g.moon.map.landing), fmt(g.engine.hex_of(g, "Hadley"))
    prices = []
    for lid, via in (("L1", "1,0"), ("L2", "0,-1")):  # Landing -> via -> Hadley, a Complete Link
        prices += [mv.label for mv in m.legal_moves() if mv.key == ("build", landing, hadley)]
        m.apply(next(mv for mv in m.legal_moves() if mv.key == ("build", landing, via)))
        m.apply(next(mv for mv in m.legal_moves() if mv.key == ("extend", lid, hadley)))
        assert g.moon.links[lid].end == g.engine.hex_of(g, "Hadley")
        m.apply(m.legal_moves()[0])  # the seat stops; the next lists
        assert_index_fresh(m)
        assert [(mv.key, mv.label) for mv in m.legal_moves()] == reference_moves(m)
    prices += [mv.label for mv in m.legal_moves() if mv.key == ("build", landing, hadley)]
    assert prices == [f"Build track from Landing hex to Hadley (${n})" for n in (3, 4, 5)]
