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
    ("fifty_first_state", 2, {"Deployed Machines Machine side up", "a hand or State holds its player's cards",
                               "a State holds Locations and Ruins; the Deck no Connection"}),
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


def _slow_conservation(g) -> list[str]:
    """check_conservation the slow way (card by card), whatever its quick test says."""
    from runtime.state import GameState

    quick = GameState._conserved
    GameState._conserved = lambda self: False
    try:
        return g.check_conservation()
    finally:
        GameState._conserved = quick


@pytest.mark.parametrize("game, players", [("infernal_contraption", 2), ("age_of_steam", 3),
                                           ("fifty_first_state", 2)])
def test_the_quick_conservation_test_agrees_with_the_card_by_card_one(game, players):
    """GameState._conserved (the zones read as one uid -> zone dict) never says sound when the
    card-by-card check finds a problem, and check_conservation lists the same problems either way:
    on a sound state and on states broken each way it names (a stale index entry of a card in no
    zone and no instance is no problem to either: the quick test just leaves it to the slow one)."""
    from runtime.state import CardInst

    g = _new(game, players)
    assert g._conserved() and _slow_conservation(g) == [] and g.check_conservation() == []
    zone, cards = next((k, v) for k, v in g.zones.items() if len(v) >= 2)
    other = next(k for k in g.zones if k != zone)
    breaks = {
        "twice in one zone": lambda: cards.append(cards[0]),
        "in two zones": lambda: g.zones[other].append(cards[0]),
        "index disagrees": lambda: g.where.__setitem__(cards[0], other),
        "in no zone": lambda: cards.pop(),
        "index of a card nowhere": lambda: g.where.__setitem__(10**6, zone),
        "an instance nowhere": lambda: g.instances.__setitem__(10**6, CardInst(10**6, "any")),
    }
    for name, spoil in breaks.items():
        g = _new(game, players)
        zone_cards = g.zones[zone]
        cards = zone_cards
        spoil()
        slow = _slow_conservation(g)
        assert g.check_conservation() == slow, name
        assert slow != [] or name == "index of a card nowhere", name
        assert not g._conserved(), name


def test_the_quick_conservation_test_holds_through_random_games():
    """After every move of seeded random games, both ways of checking agree (sound states)."""
    from runtime.agents import SeededRandom

    c = load_compiled("infernal_contraption")
    eng = engine_for(c)
    for seed in range(6):
        match = eng.new_match(c, ["A", "B", "C"], seed=seed, agents={i: SeededRandom() for i in range(3)})
        g = match.game
        while not match.terminal() and g.turn < 60:
            match.apply(match.game.agent(match.to_act()).pick(match, match.legal_moves()))
            assert g._conserved() and g.check_conservation() == _slow_conservation(g) == []
