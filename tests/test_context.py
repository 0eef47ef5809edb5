"""Runtime selection: filters on cards, driven through the real pipeline on the mini fixture game."""
from __future__ import annotations

import pytest

from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect
from runtime.agents import Scripted
from runtime.engine import engine_for, load_from_sources
from runtime.model import model_of
from tests.conftest import MINI


@pytest.fixture(scope="module")
def mini():
    result = compile_tree(MINI)
    assert result.ok
    return load_from_sources(result.outputs, "mini")


def _run(compiled, text, answers):
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False, agents={0: Scripted(answers)})
    for cid in ("oil_rig", "barracks"):  # icons: [green]; [red, worker]
        game.create(cid, game.zone_key("state", 0), owner=0)
    fn = effect_function(explain_effect(text, model_of(compiled.vocab)))
    before = game.snapshot()
    return game, engine.run(game, fn, 0), before


def test_cards_matching_a_chosen_icon_are_the_cards_carrying_it(mini):
    game, out, _ = _run(mini, "choose 1 icon as i; for each of your locations matching i: gain 1 vp", ["red"])
    assert out.ok and game.players[0].goods["vp"] == 1  # only the Barracks carries red


def test_matching_a_name_that_holds_a_card_is_a_check_time_error(mini):
    # it was accepted, read "matching the chosen card", and every run of it was refused (issue 22)
    ex = explain_effect("choose 1 of your locations as t; for each of your locations matching t: gain 1 vp",
                        model_of(mini.vocab))
    assert [(d.code, "needs an icon" in d.message) for d in ex.diags.errors] == [("E205", True)]


def test_a_card_nobody_owns_is_named_alone_in_the_trace(mini):
    # "chooses First Card (You)" of a card in the supply read as if it were the chooser's already
    # (issue 26's walkthrough): a card in a shared zone with no owner is named without one
    from runtime.context import Ctx

    game = engine_for(mini).new_game(mini, ["Ann", "Bob"], setup=False)
    shared = game.create("oil_rig", game.zone_key("deck", None)).uid
    owned = game.create("barracks", game.zone_key("state", 1), owner=1).uid
    ctx = Ctx(game, 0)
    assert ctx.describe(shared) == "Oil Rig"
    assert ctx.describe(owned) == "Barracks (Bob)"
    assert ctx.describe([shared, owned]) == "[Oil Rig, Barracks (Bob)]"
