"""Age of Steam (Moon) through the game protocol: the stand-in loop (runtime/games/age_of_steam/turn.py) plays whole
games to a winner. bench/games.py measures 1,000 seeded random games; here fewer, every invariant
checked after every move."""
from __future__ import annotations

import random

import pytest

from runtime.agents import SeededRandom
from runtime.engine import engine_for
from runtime.errors import Refused
from runtime.games.age_of_steam import check_invariants, cube_total
from runtime.protocol import Match, Move

from .helpers import compiled

STAND_INS = ("starting_money", "turn_order", "select_actions", "income", "game_length", "final_score")


def match(seed=1, n=3, **options):
    c = compiled()
    agents = {i: SeededRandom(random.Random(seed * 31 + i)) for i in range(n)}
    return engine_for(c).new_match(c, [f"P{i + 1}" for i in range(n)], seed=seed, agents=agents,
                                   options=options or None)


def invariants(m) -> list[str]:
    g = m.game
    out = check_invariants(g) + list(g.check_conservation())
    if cube_total(g) + m.t.delivered != m.t.cubes_at_start:
        out.append("a cube appeared or vanished (only deliveries take cubes off the board)")
    if m.terminal() != (m.to_act() is None) or (not m.terminal() and not m.legal_moves()):
        out.append("the seat to act and the legal moves disagree with terminal()")
    keys = [mv.key for mv in m.legal_moves()]
    if len(keys) != len(set(keys)):
        out.append("two legal moves share a key")
    return out


def play_out(m, rng) -> int:
    n = 0
    while not m.terminal():
        m.apply(rng.choice(m.legal_moves()))
        n += 1
        assert invariants(m) == [], (n, invariants(m))
    return n


@pytest.mark.slow
def test_seeded_random_games_play_to_a_winner_with_every_invariant_holding():
    for seed in range(6):
        m = match(seed, 3 + seed % 2)
        assert isinstance(m, Match)
        play_out(m, random.Random(seed))
        r = m.result()
        assert r.winners and all(r.scores[w] == max(r.scores) for w in r.winners)
        assert "8 turns were played (stand-in)" in r.reason
        assert m.game.moon.turn == 9


def test_same_seed_same_game_and_copies_are_independent():
    a, b = match(4), match(4)
    twin = a.copy()
    before = a.game.snapshot()
    play_out(twin, random.Random(2))
    assert a.game.snapshot() == before
    play_out(a, random.Random(7))
    play_out(b, random.Random(7))
    assert a.result() == b.result() and a.game.trace_text() == b.game.trace_text()


def test_an_illegal_move_is_refused_and_changes_nothing():
    m = match(2)
    before = m.game.snapshot()
    with pytest.raises(Refused):
        m.apply(Move("Build on the far side", ("build", "0,0", "9,9")))
    assert m.game.snapshot() == before


@pytest.mark.rule("A03")
@pytest.mark.rule("A04")
def test_build_moves_respect_the_build_rules():
    m = match(3)
    rng = random.Random(3)
    g = m.game
    while not m.terminal() and g.moon.turn <= 3:
        legal = m.legal_moves()
        if m.t.stage == "build":
            p = m.to_act()
            for mv in legal:
                if mv.key[0] == "build":  # from the Landing hex or a connected City only (A04)
                    start = g.engine.hex_of(g, mv.key[1])
                    assert start == g.moon.map.landing or start in g.engine.connected(g)
            if g.moon.built.get(p, 0) >= g.players[p].goods["track_tile"]:  # the allowance is spent (A03)
                assert all(mv.key[0] in ("stop", "extend") and "Complete" in mv.label or mv.key == ("stop",)
                           for mv in legal)
        m.apply(rng.choice(legal))


def test_stand_in_rules_are_marked_in_data():
    c = compiled()
    for name in STAND_INS:
        assert "Stand-in" in c.vocab["tables"][name]["stand_in"]["note"]


def test_a_simulation_measures_moon_games_in_turns_and_counts_the_action_tiles():
    # a Moon turn is a round (every player acts in it): the report's length is the stand-in's game
    # length, and taking the Engineer is its play (it was reported "never activated" before)
    from runtime.simulate import SimConfig, simulate

    r = simulate(SimConfig("age_of_steam", games=6, players=3))
    turns = int(compiled().vocab["tables"]["game_length"]["turns"])
    assert r["length"]["unit"] == "rounds" and r["length"]["min"] == r["length"]["max"] == turns
    plays = {c["id"]: c["plays"] for c in r["cards"]}
    assert plays["engineer"] > 0 and "engineer" not in r["never_activated"]
    assert "engineer" in r["card_effects"]["played"]
