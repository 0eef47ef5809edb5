"""The effect language's constructs (issue 17 item 2), each run through the real pipeline on the
truth fixture game (a small deck-builder) with its outcome asserted."""
from __future__ import annotations

import pytest

from compiler.parser import parse_effect
from compiler.printer import print_effect
from runtime.agents import Scripted
from runtime.context import MenuOption
from runtime.events import CardsShown, Chose, GoodsGained
from tests.test_truthful import _english, _errors, _game, _run, truth  # noqa: F401 (fixture)


@pytest.mark.parametrize("hand, coin, drawn", [(3, 1, 0), (2, 0, 1)])
def test_otherwise_runs_when_the_condition_fails(truth, hand, coin, drawn):
    game, out = _run(truth, "if number of cards in your hand >= 3: gain 1 coin otherwise: draw 1 card",
                     hand=["copper"] * hand, deck=["mill"])
    assert out.ok and game.players[0].goods["coin"] == coin and len(game.zone("deck", 0)) == 1 - drawn



def _told(game, cls) -> list:
    """The trace's typed events of one class, in order (the trace is rendered from them)."""
    return [line.event for line in game.log if isinstance(line.event, cls)]

def test_nested_block(truth):
    text = "if number of cards in your hand >= 3: (draw 1 card; if number of cards in your hand >= 4: gain 1 coin)"
    game, out = _run(truth, text, hand=["copper"] * 3, deck=["mill"])
    assert out.ok and game.players[0].goods["coin"] == 1 and len(game.zone("hand", 0)) == 4
    effect, _ = parse_effect(text)
    assert parse_effect(print_effect(effect))[0] == effect  # the canonical text reparses to the same AST


def test_menu_offers_english_labels_and_runs_the_choice(truth):
    seen = {}

    class Picky:
        def choose(self, game, player, options, k=1, low=None, prompt=""):
            seen["labels"] = [str(o) for o in options]
            return [options[1]]

    engine, game = _game(truth, deck=["mill"] * 3)
    game.agents[0] = Picky()
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    fn = effect_function(explain_effect("choose one: draw 2 cards; or gain 2 coin", model_of(truth.vocab)))
    assert engine.run(game, fn, 0).ok
    assert seen["labels"] == ["Draw 2 cards.", "Gain 2 Coins."]
    assert game.players[0].goods["coin"] == 2 and len(game.zone("hand", 0)) == 0


def test_menu_choose_two_runs_two_distinct_options_in_printed_order(truth):
    game, out = _run(truth, "choose two: gain 1 ore; or gain 1 coin; or gain 1 vp",
                     answers=[["Gain 1 Victory Point.", "Gain 1 Ore."]])
    assert out.ok
    assert (game.players[0].goods["ore"], game.players[0].goods["coin"], game.players[0].goods["vp"]) == (1, 0, 1)
    # the trace's typed events (runtime/events.py): ore first, the printed order
    assert [e.good for e in _told(game, GoodsGained)] == ["ore", "vp"]
    assert [e.options for e in _told(game, Chose)] == [("Gain 1 Ore.", "Gain 1 Victory Point.")]


def test_menu_with_too_few_options_is_an_error(truth):
    assert [e[0] for e in _errors(truth, "choose two: gain 1 ore; or gain 1 coin")] == ["E307"]
    assert [e[0] for e in _errors(truth, "choose one: gain 1 ore; or gain 1 ore")] == ["E307"]


def test_each_opponent_acts_with_their_own_zones_and_agent(truth):
    engine, game = _game(truth, others_hand=["copper", "mill"])
    from compiler.explain import effect_function, explain_effect
    from runtime.agents import Scripted
    from runtime.model import model_of
    game.agents[1] = Scripted(["mill"])  # Bob chooses his own card
    fn = effect_function(explain_effect("each opponent: discard 1 card from your hand",
                                        model_of(truth.vocab)))
    assert engine.run(game, fn, 0).ok
    assert [game.instances[u].card_id for u in game.zone("discard", 1)] == ["mill"]
    assert not game.zone("discard", 0)


def test_each_player_starts_with_you_and_the_neighbour_is_the_next_seat(truth):
    engine, game = _game(truth)
    game.players.append(type(game.players[0])(2, "Cy"))
    for z in ("hand", "deck", "discard", "tableau"):
        game.zones[(z, 2)] = []
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    v = model_of(truth.vocab)
    engine.run(game, effect_function(explain_effect("the player to your left: gain 1 coin", v)), 0)
    assert [p.goods["coin"] for p in game.players] == [0, 1, 0]
    engine.run(game, effect_function(explain_effect("the player to your right: gain 1 coin", v)), 0)
    assert [p.goods["coin"] for p in game.players] == [0, 1, 1]
    engine.run(game, effect_function(explain_effect("each player: gain 1 vp", v)), 1)
    assert [p.goods["vp"] for p in game.players] == [1, 1, 1]
    gains = [e.player for e in _told(game, GoodsGained) if e.good == "vp"]
    assert gains == [1, 2, 0]  # Bob, Cy, Ann: seat order from the acting player


def test_until_stops_when_the_condition_holds_or_nothing_changes(truth):
    game, out = _run(truth, "until number of cards in your hand >= 4: draw 1 card", deck=["copper"] * 6)
    assert out.ok and len(game.zone("hand", 0)) == 4
    game, out = _run(truth, "until number of cards in your hand >= 4: draw 1 card", deck=["copper"] * 2)
    assert out.ok and len(game.zone("hand", 0)) == 2  # the deck ran out: a round changed nothing


@pytest.mark.parametrize("text, discarded", [
    ("discard 1 card costing up to 2 from your hand", "mill"),
    ("discard 1 card costing at least 3 from your hand", "smithy"),
    ("discard 1 card costing exactly 0 from your hand", "copper"),
    ("discard 1 card other than this card from your hand", "copper"),
    ("discard 1 card other than smithy from your hand", "copper"),
    ("discard 1 card not with icon action from your hand", "copper"),
])
def test_card_field_and_negative_filters(truth, text, discarded):
    engine, game = _game(truth, hand=["smithy", "copper", "mill"])
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    smithy = game.zone("hand", 0)[0]
    fn = effect_function(explain_effect(text, model_of(truth.vocab)))
    # the first matching card in hand order is the default agent's pick; mill sits on top
    game.agents[0] = type(game.agents[0])([discarded])
    assert engine.run(game, fn, 0, card=smithy).ok
    assert [game.instances[u].card_id for u in game.zone("discard", 0)] == [discarded]


def test_a_computed_bound(truth):
    game, out = _run(truth, "choose 1 card in your hand as t; discard 1 card costing more than (the cost of t) "
                     "from your hand", answers=["mill", "smithy"], hand=["smithy", "copper", "mill"])
    assert out.ok and [game.instances[u].card_id for u in game.zone("discard", 0)] == ["smithy"]


def test_a_comparison_on_a_field_that_is_not_a_number_is_an_error(truth):
    assert [e[0] for e in _errors(truth, "discard 1 card with icons 3 or more from your hand")] == ["E205"]
    assert [e[0] for e in _errors(truth, "discard 1 card with power 3 or more from your hand")] == ["E201"]


@pytest.mark.parametrize("text, coin", [
    ("gain (number of cards in your hand / 2) coin", 2),
    ("gain 1 coin per 2 cards in your hand", 2),
    ("gain (number of cards in your hand / (2 - 2)) coin", 0),
])
def test_division_rounds_down(truth, text, coin):
    game, out = _run(truth, text, hand=["copper"] * 5)
    assert out.ok and game.players[0].goods["coin"] == coin


def test_this_card_is_not_in_rules(truth):
    from compiler.check import Checker
    from runtime.model import model_of
    from runtime.verbs import verbs_for
    effect, _ = parse_effect("discard 1 card other than this card from your hand")
    problems = []
    Checker(model_of(truth.vocab), verbs_for("core")).check(
        effect, lambda *a: problems.append(a), has_card=False)
    assert problems and problems[0][0] == "E201"


@pytest.mark.parametrize("text, english", [
    ("if number of cards in your hand >= 3: gain 1 coin otherwise: draw 1 card",
     "If you have at least 3 cards in your Hand, gain 1 Coin; otherwise, draw 1 card."),
    ("choose one: draw 2 cards; or gain 2 coin", "Choose one: draw 2 cards; or gain 2 Coins."),
    ("each opponent: discard 1 card from your hand", "Each opponent, in seat order: discard 1 card from their Hand."),
    ("gain 1 vp per 2 cards in your hand", "Gain 1 Victory Point for every 2 cards in your Hand."),
    ("discard 1 card not with icon action from your hand", "Discard 1 card without an Action icon from your Hand."),
    ("until number of cards in your hand >= 4: draw 1 card",
     "Repeat until you have at least 4 cards in your Hand: draw 1 card."),
])
def test_english_of_each_construct(truth, text, english):
    assert _english(truth, text) == english


def test_menu_option_is_a_labelled_value():
    assert str(MenuOption(1, "Gain 2 Coins.")) == "Gain 2 Coins." and MenuOption(1, "x") == MenuOption(1, "y")


# --- moving cards between declared zones -------------------------------------------------------

def _ids(game, zone, owner=0):
    return [game.instances[u].card_id for u in game.zone(zone, owner)]


def test_put_on_top_of_and_at_the_bottom_of_a_pile(truth):
    game, out = _run(truth, "put 1 card from your hand on top of your deck", answers=["smithy"],
                     hand=["smithy", "copper"], deck=["mill"])
    assert out.ok and _ids(game, "deck") == ["mill", "smithy"]  # bottom → top
    game, out = _run(truth, "put 1 card from your hand at the bottom of your deck", answers=["smithy"],
                     hand=["smithy", "copper"], deck=["mill"])
    assert out.ok and _ids(game, "deck") == ["smithy", "mill"]


def test_put_needs_exactly_one_destination(truth):
    assert [e[0] for e in _errors(truth, "put 1 card from your hand")] == ["E303"]
    assert [e[0] for e in _errors(truth, "put 1 card from your hand into your deck onto your deck")] == ["E303"]


def test_trash_goes_to_the_declared_trash(truth):
    game, out = _run(truth, "trash 1 card with icon treasure from your hand", hand=["smithy", "copper"])
    assert out.ok and [game.instances[u].card_id for u in game.zones[("trash", None)]] == ["copper"]


def test_a_verb_needing_an_undeclared_rule_is_an_error():
    from compiler.build import load_game
    from compiler.diagnostics import Diagnostics
    from compiler.explain import explain_effect
    from tests.conftest import MINI

    vocab = load_game(MINI / "mini" / "game.yaml", Diagnostics())[1]
    assert [d.code for d in explain_effect("trash 1 card from your hand", vocab).diags.errors] == ["E309"]
    assert [d.code for d in explain_effect("gain 1 card", vocab).diags.errors] == ["E309"]
    assert not explain_effect("gain 1 fuel", vocab).diags.errors  # Goods need no supply zone


def test_gain_a_card_from_the_supply(truth):
    engine, game = _game(truth)
    for cid in ("smithy", "mill", "copper"):
        game.create(cid, game.zone_key("supply", None))
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    v = model_of(truth.vocab)
    game.agents[0] = type(game.agents[0])(["mill"])
    assert engine.run(game, effect_function(explain_effect("gain 1 card costing up to 3", v)), 0).ok
    assert _ids(game, "discard") == ["mill"]  # rules.gain_to is not declared: the discard pile
    assert engine.run(game, effect_function(explain_effect("gain 1 card with icon action into your hand", v)), 0).ok
    assert _ids(game, "hand") == ["smithy"]


def test_play_a_card_runs_its_play_slot(truth):
    game, out = _run(truth, "play 1 card with icon action from your hand", hand=["mill", "copper"])
    assert out.ok and _ids(game, "play_area") == ["mill"] and game.players[0].goods["ore"] == 1


def test_this_card_moves(truth):
    engine, game = _game(truth, hand=["mill"])
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    uid = game.zone("hand", 0)[0]
    fn = effect_function(explain_effect("put this card on top of your deck", model_of(truth.vocab)))
    assert engine.run(game, fn, 0, card=uid).ok and _ids(game, "deck") == ["mill"]


# --- reveal / look at, names bound by actions, supply piles, signed Goods ------------------------

def test_reveal_keep_one_the_rest_to_discard(truth):
    text = ("reveal 3 cards from your deck as r; choose 1 of r as k; put k into your hand; "
            "put r into your discard pile")
    game, out = _run(truth, text, answers=["mill"], deck=["copper", "mill", "smithy", "copper"])
    assert out.ok
    assert _ids(game, "hand") == ["mill"]
    assert sorted(_ids(game, "discard")) == ["copper", "smithy"]  # the rest: the revealed cards still there
    assert _ids(game, "deck") == ["copper"]
    shown = [e for e in _told(game, CardsShown) if e.revealed]
    assert [[game.instances[u].card_id for u in e.cards] for e in shown] == [["copper", "smithy", "mill"]]  # top first


def test_revealed_cards_are_set_aside_and_what_the_text_leaves_goes_back_on_top(truth):
    # a draw in the same effect takes the next card, not a revealed one; the two the text leaves
    # return on top of the deck in their order when the effect ends; nothing is lost
    text = "reveal 3 cards from your deck as r; choose 1 of r as k; put k into your hand; draw 1 card"
    game, out = _run(truth, text, answers=["mill"], deck=["herald", "mill", "smithy", "copper"])  # bottom → top
    assert out.ok
    assert _ids(game, "hand") == ["mill", "herald"]  # the drawn card is the one under the three revealed
    assert _ids(game, "deck") == ["smithy", "copper"]  # the rest back on top as they were: copper on top
    assert not game.check_conservation() and not game.set_aside_from
    assert not any(k[0] == game.SET_ASIDE for k in game.zones)


def test_look_at_then_put_back_at_the_bottom(truth):
    game, out = _run(truth, "look at 2 cards as l; put l at the bottom of your deck",
                     deck=["copper", "mill", "smithy"])
    # one by one, in the order looked at (top first): the last one put goes lowest
    assert out.ok and _ids(game, "deck") == ["mill", "smithy", "copper"]


def test_draw_as_names_the_drawn_cards(truth):
    text = "draw 2 cards as d; if number of d with icon action >= 1: gain 1 coin"
    game, out = _run(truth, text, deck=["copper", "mill", "copper"])
    assert out.ok and game.players[0].goods["coin"] == 1
    game, out = _run(truth, text, deck=["mill", "copper", "copper"])
    assert out.ok and game.players[0].goods["coin"] == 0


def test_a_verb_that_binds_nothing_cannot_name_it(truth):
    assert [e[0] for e in _errors(truth, "gain 1 coin as g")] == ["E303"]


def test_number_of_empty_supply_piles(truth):
    engine, game = _game(truth)
    for cid in ("smithy", "mill", "mill", "copper"):
        game.create(cid, game.zone_key("supply", None))
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    v = model_of(truth.vocab)
    fn = effect_function(explain_effect("gain (number of empty supply piles) vp", v))
    assert engine.run(game, fn, 0).ok and game.players[0].goods["vp"] == 0
    for uid in [u for u in game.zones[("supply", None)] if game.instances[u].card_id in ("smithy", "copper")]:
        game.move(uid, game.zone_key("discard", 0))
    assert engine.run(game, fn, 0).ok and game.players[0].goods["vp"] == 2
    fn = effect_function(explain_effect("gain (number of supply piles) coin", v))
    assert engine.run(game, fn, 0).ok and game.players[0].goods["coin"] == 1


def test_a_signed_good_goes_below_zero_but_a_cost_needs_it(truth):
    game, out = _run(truth, "lose 2 debt; lose 2 coin")
    assert out.ok and game.players[0].goods["debt"] == -2 and game.players[0].goods["coin"] == 0
    game, out = _run(truth, "spend 1 debt: gain 1 vp")
    assert out.status == "refused" and game.players[0].goods["vp"] == 0


def _sifter_runs_dry(tmp_path, play: str):
    """Add a card 'sifter' whose play slot is ``play`` (YAML lines) to a copy of the truth game and run
    it with an empty script, so the discard in it must ask and fails: the exception and the card's
    first line."""
    import shutil

    from compiler.build import compile_tree
    from runtime.agents import ScriptRanDry
    from runtime.engine import engine_for, load_from_sources
    from tests.test_truthful import TRUTH

    shutil.copytree(TRUTH, tmp_path / "data")
    base = tmp_path / "data" / "truth" / "base.yaml"
    text = base.read_text()
    base.write_text(text + "  - id: sifter\n    name: Sifter\n    kind: card\n    cost: 2\n" + play)
    result = compile_tree(tmp_path / "data")
    assert result.ok
    compiled = load_from_sources(result.outputs, "truth")
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False, agents={0: Scripted([])})
    for cid in ("copper", "mill"):
        game.create(cid, game.zone_key("hand", 0), owner=0)
    sifter = game.create("sifter", game.zone_key("play_area", 0), owner=0)
    with pytest.raises(ScriptRanDry) as info:  # Ann's script is empty, and the discard must ask
        engine.run_slot(game, sifter.uid, "play", 0)
    return info.value, text.count("\n") + 1


def test_an_error_while_a_card_runs_names_its_yaml_line(tmp_path):
    exc, _ = _sifter_runs_dry(tmp_path, "    play: discard 1 card from your hand\n")
    notes = getattr(exc, "__notes__", [])
    assert any(n.startswith("while running the effect at data/truth/base.yaml:") and "card 'sifter' play" in n
               for n in notes), notes


def test_an_error_names_the_line_and_column_of_the_statement_that_was_running(tmp_path):
    # issue 22: the place of the statement, not only of the card's text — here the second statement,
    # on the second line of a block scalar
    exc, first = _sifter_runs_dry(tmp_path, "    play: |-\n      gain 1 coin;\n        discard 1 card from your hand\n")
    notes = getattr(exc, "__notes__", [])
    assert f"while running the effect at data/truth/base.yaml:{first + 6}:9 card 'sifter' play" in notes, notes


def test_the_line_map_of_a_generated_module_names_the_yaml_line(truth):
    fn = truth.cards["herald"]["slots"]["reaction"]
    where = fn.__globals__["LINE_MAP"][fn.__name__]
    assert where.startswith("truth/truth/base.yaml:") and where.endswith("card 'herald' reaction")


def test_move_is_put_and_remove_goes_out_of_the_game(truth):
    game, out = _run(truth, "move 1 card from your hand at the bottom of your deck", answers=["mill"],
                     hand=["mill", "copper"], deck=["smithy"])
    assert out.ok and _ids(game, "deck") == ["mill", "smithy"]
    engine, game = _game(truth, hand=["mill"])
    uid = game.zone("hand", 0)[0]
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    fn = effect_function(explain_effect("remove this card", model_of(truth.vocab)))
    assert engine.run(game, fn, 0, card=uid).ok and game.where[uid] == ("removed", None)
    assert _english(truth, "remove 1 card from your hand") == "Remove 1 card in your Hand from the game."


def test_core_goods_verbs_ask_which_good_of_a_group(truth):
    game, out = _run(truth, "gain 2 resource", answers=["ore", "coin"])
    assert out.ok and (game.players[0].goods["ore"], game.players[0].goods["coin"]) == (1, 1)
    assert "resource" not in game.players[0].goods
    engine, game = _game(truth, answers=["ore"])
    game.players[0].goods.update({"ore": 1, "coin": 0})
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    v = model_of(truth.vocab)
    assert engine.run(game, effect_function(explain_effect("spend 1 resource: gain 1 vp", v)), 0).ok
    assert (game.players[0].goods["ore"], game.players[0].goods["vp"]) == (0, 1)
    game.players[0].goods.update({"ore": 2, "coin": 3})
    assert engine.run(game, effect_function(explain_effect("gain (number of resources) vp", v)), 0).ok
    assert game.players[0].goods["vp"] == 6


def test_lose_all_of_a_signed_good_loses_what_you_have(truth):
    game, out = _run(truth, "gain 3 debt; lose all debt")
    assert out.ok and game.players[0].goods["debt"] == 0


def test_a_draw_as_a_cost_refuses_before_a_card_moves(truth):
    game, out = _run(truth, "draw 2 cards: gain 1 vp", deck=["copper"])
    assert out.status == "refused" and len(game.zone("deck", 0)) == 1 and not game.zone("hand", 0)


def test_a_computed_bound_on_a_per_reference(truth):
    game, out = _run(truth, "gain 1 coin per card costing up to (number of cards in your hand) in your hand",
                     hand=["copper", "mill", "smithy"])
    assert out.ok and game.players[0].goods["coin"] == 2  # 3 in hand: Copper (0) and Mill (2), not Smithy (4)


def test_a_card_cannot_play_itself_while_its_effect_runs(truth):
    # the play does nothing and the rest of the effect happens (issue 22: it ended the whole effect)
    engine, game = _game(truth, hand=["mill"])
    uid = game.zone("hand", 0)[0]
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    fn = effect_function(explain_effect("play this card; gain 2 coin", model_of(truth.vocab)))
    game.playing[uid] = 0  # as if this card's play effect were resolving (played by Ann)
    out = engine.run(game, fn, 0, card=uid)
    assert out.ok and game.where[uid] == ("hand", 0) and game.players[0].goods["coin"] == 2
    game.playing.clear()
    assert engine.run(game, fn, 0, card=uid).ok and game.where[uid] == ("play_area", 0)


def test_an_agents_answer_is_checked_not_trusted(truth):
    from runtime.errors import RulesError

    engine, game = _game(truth, answers=[["copper"]], hand=["copper", "mill", "smithy"])
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    fn = effect_function(explain_effect("discard 2 cards from your hand", model_of(truth.vocab)))
    with pytest.raises(RulesError, match="must pick 2"):
        engine.run(game, fn, 0)


def test_per_empty_supply_pile(truth):
    engine, game = _game(truth)
    for cid in ("smithy", "mill", "copper"):
        game.create(cid, game.zone_key("supply", None))
    for uid in [u for u in game.zones[("supply", None)] if game.instances[u].card_id != "mill"]:
        game.move(uid, game.zone_key("discard", 0))
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of
    fn = effect_function(explain_effect("gain 1 vp per empty supply pile", model_of(truth.vocab)))
    assert engine.run(game, fn, 0).ok and game.players[0].goods["vp"] == 2
