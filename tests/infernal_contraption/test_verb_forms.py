"""Infernal Contraption's card verbs honour every amount form they declare (issue 17 item 1):
"up to N" lets the player decide how many even from a pile or a hidden hand (Ctx.how_many), "all"
takes every one; filters are rejected at check time because _pick takes cards as the pile holds
them."""
from __future__ import annotations

import pytest

from compiler.explain import effect_function, explain_effect
from runtime.agents import Scripted
from runtime.model import model_of
from runtime.verbs import AMOUNTS, amounts_for, verbs_for
from tests.infernal_contraption.conftest import Table


def _fn(ic, text):
    ex = explain_effect(text, model_of(ic.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return effect_function(ex)


@pytest.mark.parametrize("verb", ["scrap", "take", "put"])
def test_every_amount_form_is_declared(verb):
    slot = verbs_for("infernal_contraption")[verb].signature.obj
    assert set(amounts_for(slot, "card")) == set(AMOUNTS)


@pytest.mark.parametrize("answer", [0, 1, 2])
def test_scrap_up_to_from_a_parts_pile_asks_how_many(eng, ic, answer):
    t = Table(eng, ic, agents={0: Scripted([answer])})
    t.pile(0, 5)
    t.pile(1, 4)
    out = eng.run(t.game, _fn(ic, "scrap up to 2 cards from opponent's parts pile"), 0, opponent=1)
    assert out.ok and len(t.game.zones[("parts_pile", 1)]) == 4 - answer
    assert len(t.game.zones[("scrap", None)]) == answer


def test_take_up_to_from_a_hidden_hand_asks_how_many_then_takes_at_random(eng, ic):
    t = Table(eng, ic, agents={0: Scripted([1])})
    t.pile(0, 5)
    t.pile(1, 5)
    t.hand(1, "steam_boiler", "steam_boiler", "steam_boiler")
    out = eng.run(t.game, _fn(ic, "take up to 2 cards from opponent's hand"), 0, opponent=1)
    assert out.ok and len(t.game.zones[("hand", 0)]) == 1 and len(t.game.zones[("hand", 1)]) == 2


def test_scrap_all_takes_every_card_of_your_hand(eng, ic):
    t = Table(eng, ic)
    t.pile(0, 5)
    t.pile(1, 5)
    t.hand(0, "steam_boiler", "steam_boiler", "steam_boiler")
    assert eng.run(t.game, _fn(ic, "scrap all cards from your hand"), 0, opponent=1).ok
    assert not t.game.zones[("hand", 0)] and len(t.game.zones[("scrap", None)]) == 3


def test_a_filter_on_a_pile_is_rejected(ic):
    ex = explain_effect("scrap 1 card with icon gears from your hand", model_of(ic.vocab))
    assert [d.code for d in ex.diags.errors][:1] in (["E306"], ["E201"])
