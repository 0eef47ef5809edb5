"""Truthful language (issue 17): what the checker accepts, the runtime does, and the English says.

The seven texts the issue found accepted-then-misbehaving each get a test here: rejected with a
located error, or doing what their English says. They run through the real pipeline (parse, check,
emit, compile) on small fixture games.
"""
from __future__ import annotations

import pytest

from compiler.build import compile_tree
from compiler.english import render_effect
from compiler.explain import effect_function, explain_effect
from runtime.agents import Scripted
from runtime.engine import engine_for, load_from_sources
from runtime.model import model_of
from tests.conftest import FIXTURES

TRUTH = FIXTURES / "truth"


@pytest.fixture(scope="module")
def truth():
    result = compile_tree(TRUTH)
    assert result.ok
    return load_from_sources(result.outputs, "truth")


def _game(compiled, answers=(), hand=(), deck=(), others_hand=()):
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False,
                           agents={0: Scripted(list(answers)), 1: Scripted([])})
    for cid in deck:
        game.create(cid, game.zone_key("deck", 0), owner=0)
    for cid in hand:
        game.create(cid, game.zone_key("hand", 0), owner=0)
    for cid in others_hand:
        game.create(cid, game.zone_key("hand", 1), owner=1)
    return engine, game


def _run(compiled, text, **kw):
    engine, game = _game(compiled, **kw)
    ex = explain_effect(text, model_of(compiled.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return game, engine.run(game, effect_function(ex), 0)


def _errors(compiled, text):
    ex = explain_effect(text, model_of(compiled.vocab))
    return [(d.code, d.column, d.message) for d in ex.diags.errors]


def _english(compiled, text):
    ex = explain_effect(text, model_of(compiled.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return render_effect(ex.ir, model_of(compiled.vocab))


# 1. "draw up to 2 cards" always drew 2.
@pytest.mark.parametrize("answer, drawn", [(2, 2), (1, 1), (0, 0)])
def test_draw_up_to_lets_the_player_choose_how_many(truth, answer, drawn):
    game, out = _run(truth, "draw up to 2 cards", answers=[answer], deck=["copper"] * 3)
    assert out.ok
    assert len(game.zone("hand", 0)) == drawn and len(game.zone("deck", 0)) == 3 - drawn


def test_discard_up_to_offers_zero_to_n(truth):
    game, out = _run(truth, "discard up to 2 cards from your hand", answers=[[]], hand=["copper", "mill"])
    assert out.ok and len(game.zone("hand", 0)) == 2 and not game.zone("discard", 0)


# 2. "choose 1 resource as g; gain 2 g" gained 2 of an undeclared Good 'g'.
def test_gain_a_chosen_good_gains_that_good(truth):
    game, out = _run(truth, "choose 1 resource as g; gain 2 g", answers=["ore"])
    assert out.ok
    assert game.players[0].goods["ore"] == 2 and "g" not in game.players[0].goods
    assert game.players[0].goods["coin"] == 0


def test_a_chosen_good_where_a_card_is_needed_is_an_error(truth):
    errs = _errors(truth, "choose 1 resource as g; discard g")
    assert errs and errs[0][0] == "E205" and "holds the good chosen earlier" in errs[0][2]


# 3. "scrap 1 card from each player's hand" scrapped only from your own.
def test_a_single_pile_phrase_naming_each_players_pile_is_an_error(truth):
    text = "discard 1 card from each player's hand"
    errs = _errors(truth, text)
    assert [e[0] for e in errs] == ["E306"]
    assert errs[0][1] == text.index("each player's") + 1  # the caret sits on the owner


def test_infernal_scrap_from_each_players_hand_is_an_error():
    from compiler.build import load_game
    from compiler.diagnostics import Diagnostics
    from compiler.resources import BUNDLED_DATA

    vocab = load_game(BUNDLED_DATA / "infernal_contraption" / "game.yaml", Diagnostics())[1]
    ex = explain_effect("scrap 1 card from each player's hand", vocab)
    assert [d.code for d in ex.diags.errors] == ["E306"]
    assert "each player: …" in ex.diags.errors[0].message + (ex.diags.errors[0].hint or "")


# 4. "choose 1 card in your hand as g; if number of g with icon action >= 1: …" ignored the filter.
@pytest.mark.parametrize("card, vp", [("smithy", 1), ("copper", 0)])
def test_a_filter_on_a_chosen_name_applies(truth, card, vp):
    game, out = _run(truth, "choose 1 card in your hand as g; if number of g with icon action >= 1: gain 1 vp",
                     answers=[card], hand=["smithy", "copper"])
    assert out.ok and game.players[0].goods["vp"] == vp


def test_a_filter_on_cards_in_a_zone_applies(truth):
    game, out = _run(truth, "discard 1 card with icon treasure from your hand", hand=["smithy", "copper"])
    assert out.ok
    assert [game.instances[u].card_id for u in game.zone("discard", 0)] == ["copper"]


# 5. "for each enemy player as p: discard 2 cards from p's hand" let you choose p's cards and put them
#    in your own discard pile.
def test_discarding_from_another_players_zone_is_an_error_with_a_way_out(truth):
    text = "for each enemy player as p: discard 2 cards from p's hand"
    errs = _errors(truth, text)
    assert [e[0] for e in errs] == ["E306"]
    assert errs[0][1] == text.index("p's") + 1


# 6. the core "gain … instead of PLAYER" accepted the phrase and ignored it.
def test_core_gain_instead_of_is_an_error(truth):
    errs = _errors(truth, "gain 1 coin instead of opponent")
    assert [e[0] for e in errs] == ["E303"]


# 7. "if 3 ruins:" counted only yours while the English said "there are at least 3 Ruins".
def test_a_thing_without_owner_reads_as_yours_and_counts_yours(truth):
    assert _english(truth, "if 2 buildings: gain 1 vp") == "If you have at least 2 Buildings, gain 1 Victory Point."
    engine, game = _game(truth)
    game.create("mill", game.zone_key("tableau", 1), owner=1)
    game.create("mill", game.zone_key("tableau", 1), owner=1)
    fn = effect_function(explain_effect("if 2 buildings: gain 1 vp", model_of(truth.vocab)))
    assert engine.run(game, fn, 0).ok and game.players[0].goods["vp"] == 0  # Bob's two are not yours
    game.create("mill", game.zone_key("tableau", 0), owner=0)
    game.create("mill", game.zone_key("tableau", 0), owner=0)
    assert engine.run(game, fn, 0).ok and game.players[0].goods["vp"] == 1


def test_a_discarded_card_goes_to_its_owners_discard_pile(truth):
    engine, game = _game(truth)
    b = game.create("mill", game.zone_key("tableau", 1), owner=1)
    fn = effect_function(explain_effect("discard 1 of enemy buildings", model_of(truth.vocab)))
    assert engine.run(game, fn, 0).ok
    assert game.where[b.uid] == ("discard", 1)


@pytest.mark.parametrize("text, fragment", [
    ("draw 1 card with icon action", "ignore the filter"),       # draw takes the top card, unfiltered
    ("gain 2 enemy coin", "ignore 'enemy'"),                      # a Good has no owner in gain
    ("for each 2 buildings per card in your hand: gain 1 vp", "'per …'"),
    ("if up to 2 buildings: gain 1 vp", "'up to'"),
    ("gain (number of 2 cards in your hand) coin", "a number"),
])
def test_parts_a_verb_would_ignore_are_located_errors(truth, text, fragment):
    errs = _errors(truth, text)
    assert errs and errs[0][0] == "E306" and fragment in errs[0][2], errs


# A chosen card's field is one card's: the checker sees every amount that reads one (it used to let
# "gain (the cost of zz) coin" through, with English about a "chosen Zz"), and a name that may hold
# several cards has no single cost (Ctx.field_of would refuse at run time).
@pytest.mark.parametrize("text, code, word", [
    ("gain (the cost of zz) coin", "E305", "zz"),
    ("choose up to 2 cards in your hand as t; gain (the cost of t) coin", "E205", "t"),
    ("draw 2 cards as d; gain (the cost of d) coin", "E205", "d"),
    ("choose 1 card in your hand as x; gain 1 coin", "E305", "x"),
])
def test_a_field_amount_needs_one_chosen_card(truth, text, code, word):
    (err,) = _errors(truth, text)
    assert err[0] == code and text[err[1] - 1:].startswith(word), err
    game, out = _run(truth, "choose 1 card in your hand as t; gain (the cost of t) coin", answers=["smithy"],
                     hand=["smithy"])
    assert out.ok and game.players[0].goods["coin"] == truth.cards["smithy"]["cost"]
