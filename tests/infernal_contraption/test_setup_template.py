"""A new game's deck made from its compiled game's template (``DeckTemplate``, taken from the first
game set up) is the deck the general way makes (``create_many`` card by card): same cards, uids,
zones, index, kinds and sockets, and the games set up from either play on identically."""
from __future__ import annotations

import pytest

from runtime.agents import SeededRandom
from runtime.games.infernal_contraption.engine import InfernalContraption


def _picture(g) -> tuple:
    return (g.snapshot(), dict(g.kind_of), dict(g.sock_of), g._next_uid, g.card_moves, g.rng.getstate(),
            [type(e).__name__ + repr(sorted(vars(e).items())) for e in g.events], g.trace_text())


def _general(ic, players, seed, options):
    """A game set up by an engine that has no template yet: its deck is made card by card."""
    return _setup(InfernalContraption(), ic, players, seed, options)


def _setup(eng, ic, players, seed, options):
    g = eng.new_game(ic, [f"P{i + 1}" for i in range(players)], seed=seed,
                     agents={i: SeededRandom() for i in range(players)}, options=options)
    eng.begin_turn(g)
    return g


@pytest.mark.parametrize("options", [None, {"deck": ["example_deck"]}, {"deck": "example_deck"}])
def test_a_deck_from_the_template_is_the_deck_made_card_by_card(ic, options):
    eng = InfernalContraption()
    _setup(eng, ic, 2, 0, options)  # the first game set up leaves the template
    assert len(eng._card_info[id(ic)][2]) == 1
    for players in (2, 3, 4):
        for seed in range(12):
            templated = _setup(eng, ic, players, seed, options)
            general = _general(ic, players, seed, options)
            assert _picture(templated) == _picture(general)
            for _ in range(25):  # and they play on alike
                if templated.over:
                    break
                eng.take_decision(templated)
                general.engine.take_decision(general)
                assert templated.snapshot() == general.snapshot()
            assert _picture(templated) == _picture(general)


def test_a_game_that_has_cards_already_makes_its_deck_card_by_card(ic):
    eng = InfernalContraption()
    _setup(eng, ic, 2, 0, None)
    g = eng.new_game(ic, ["A", "B"], seed=3, setup=False)
    g.create("steam_boiler", ("box", None))
    eng.setup(g)  # not fresh: the general way, one more card in the box than the deck
    assert len(g.instances) == len(eng._card_info[id(ic)][2][("modules", ())].uids) + 1
    assert g.check_conservation() == []
