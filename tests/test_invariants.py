"""Invariants engines declare (issue 24, item 3): ``Engine.invariants`` names what the rules imply in
every state; ``Engine.check_invariants`` checks them all and names each problem by its invariant;
``simulate --check-moves`` checks them after every move and the report names them. Each bundled game
declares the ones its rules imply; each invariant here is shown failing on a state that breaks it."""
from __future__ import annotations

import pytest

from runtime.engine import Engine, engine_for, load_compiled
from tests.test_truthful import _game, truth  # noqa: F401 (fixture)


def _new(game: str, players: int):
    c = load_compiled(game)
    return engine_for(c).new_match(c, [f"P{i + 1}" for i in range(players)], seed=3).game


@pytest.mark.parametrize("game, players, own", [
    ("age_of_steam", 3, {"track geometry", "cube conservation"}),
    ("fifty_first_state", 2, {"Deployed Machines Machine side up", "a hand or State holds its player's cards"}),
    ("infernal_contraption", 2, {"machine shape", "an eliminated player holds no cards"}),
])
def test_every_bundled_game_declares_its_own_invariants_and_starts_sound(game, players, own):
    g = _new(game, players)
    assert set(g.engine.invariants) == set(Engine.invariants) | own
    assert g.engine.check_invariants(g) == []


def test_goods_never_negative_unless_signed(truth):  # noqa: F811 (fixture)
    engine, game = _game(truth)
    game.players[0].goods["debt"] = -2  # signed (a debt): may go below zero
    assert engine.check_invariants(game) == []
    game.players[1].goods["coin"] = -1
    assert engine.check_invariants(game) == ["Goods never negative unless signed: Bob has -1 coin"]


def test_card_conservation_names_a_card_in_two_zones():
    g = _new("infernal_contraption", 2)
    uid = g.zones[("hand", 0)][0]
    g.zones[("hand", 1)].append(uid)
    assert any(p.startswith("card conservation: card ") and "is in ('hand', 0) and in ('hand', 1)" in p
               for p in g.engine.check_invariants(g))


def test_moon_cube_conservation_counts_delivered_cubes():
    g = _new("age_of_steam", 3)
    g.moon.cubes[g.moon.map.landing].pop()
    assert g.engine.check_invariants(g) == [
        f"cube conservation: {g.turn_state.cubes_at_start - 1} cubes in play + 0 delivered, but "
        f"{g.turn_state.cubes_at_start} at setup"]
    g.turn_state.delivered += 1
    assert g.engine.check_invariants(g) == []


@pytest.mark.rule("M06")
def test_fifty_a_deployed_machine_lies_machine_side_up():
    g = _new("fifty_first_state", 2)
    machines = [u for u, c in g.instances.items() if g.cards[c.card_id].get("kind") == "machine"]
    if not machines:
        pytest.skip("no Machine in the compiled 51st State")
    uid = machines[0]
    g.move(uid, g.zone_key("deployed", None))
    g.instances[uid].face = "back"
    assert any(p.startswith("Deployed Machines Machine side up: ") for p in g.engine.check_invariants(g))


@pytest.mark.rule("I03")
def test_infernal_contraption_power_core_stays_in_the_machine():
    g = _new("infernal_contraption", 2)
    core = g.machines[0].main[0]
    g.machines[0].main.remove(core)
    problems = g.engine.check_invariants(g)
    assert "machine shape: P1's machine has no Power Core in its main line" in problems


def test_simulate_reports_the_invariants_it_checked():
    from runtime.simulate import SimConfig, simulate

    r = simulate(SimConfig("infernal_contraption", games=3, players=2, check_moves=True))
    assert r["invariants"]["checked"] == "after every move" and r["invariants"]["games_broken"] == 0
    assert r["invariants"]["names"] == [*engine_for(load_compiled("infernal_contraption")).invariants,
                                        "a running game has a legal move"]
