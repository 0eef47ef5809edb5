"""Stage 6a: effects rendered as card-style English from their checked IR (compiler/english.py)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler import ast as A
from compiler.build import compile_tree, discover_games
from compiler.check import Checker
from compiler.diagnostics import Diagnostics
from compiler.english import fill_template, render_effect, render_marked, split_icons
from compiler.loader import load_file
from compiler.parser import parse_effect
from compiler.printer import print_effect
from runtime.model import GameModel, model_of
from runtime.verbs import REGISTRY, verbs_for
from tests.conftest import MINI, ROOT
from tests.snapshots_text import TextSnapshot
from tests.test_parser import EXAMPLES, stmt

BUNDLED = ROOT / "data"
GAMES = [p.name for p in discover_games(BUNDLED)]


def vocab_of(game_dir: Path) -> GameModel:
    doc = load_file(game_dir / "game.yaml", Diagnostics())
    return model_of(doc.data)


MINI_VOCAB = vocab_of(MINI / "mini")


def verbs_of(vocab: GameModel) -> dict:
    # the mini fixture is a small 51st State-shaped game: its texts use that engine's verbs (raze, …)
    return verbs_for("fifty_first_state" if vocab is MINI_VOCAB else vocab.engine)


def checked_ir(text: str, vocab: GameModel = MINI_VOCAB, kind: str = "effect"):
    """English renders what the checker accepted: its IR (a text it rejects has no English)."""
    effect, problem = parse_effect(("requires " if kind == "condition" else "") + text)
    assert problem is None, problem
    problems = []
    checked = Checker(vocab, verbs_of(vocab)).check(effect, lambda *a: problems.append(a), kind=kind)
    assert checked.ok, problems
    return checked.ir


def english(text: str, vocab: GameModel = MINI_VOCAB, kind: str = "effect") -> str:
    return render_effect(checked_ir(text, vocab, kind), vocab, verbs_of(vocab), kind=kind)


def every_slot(game: str):
    """(card id, face, slot, slot kind, text) for every effect slot of every card of a bundled game."""
    result = compile_tree(BUNDLED, only={game})
    assert result.ok, [d.render() for d in result.diags.errors]
    gb = result.games[game]
    vocab = gb.vocab
    for stem, doc in gb.modules.items():
        for card in doc.data.get("cards") or []:
            # read from game.yaml as written, not through the model: an oracle of its own
            spec = vocab.source["card_kinds"].get(card["kind"]) or {}
            slots = spec.get("slots") or {}
            for slot, sspec in slots.items():
                if isinstance(card.get(slot), str):
                    yield card["id"], None, slot, (sspec or {}).get("kind", "effect"), card[slot]
            for face, fspec in (spec.get("faces") or {}).items():
                for slot, sspec in ((fspec or {}).get("slots") or {}).items():
                    text = (card.get(face) or {}).get(slot)
                    if isinstance(text, str):
                        yield card["id"], face, slot, (sspec or {}).get("kind", "effect"), text
        for name, text in (doc.data.get("rules") or {}).items():
            yield f"rule {stem}", None, name, "effect", text


@pytest.fixture
def text_snapshot(snapshot):
    return snapshot.use_extension(TextSnapshot)


@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_effect_in_english(game, text_snapshot):
    """One snapshot file per game, so a game that changes its cards updates only its own file."""
    vocab = vocab_of(BUNDLED / game)
    lines = []
    for card, face, slot, kind, text in every_slot(game):
        out = english(text, vocab, kind)
        assert out and "{" not in out and "}" not in out and "[" not in out, (card, slot, out)
        assert out[0].isupper() and out.endswith("."), out
        where = f"{card}.{face}.{slot}" if face else f"{card}.{slot}"
        lines.append(f"{where}: {out}")
    assert lines, f"{game} has no effects"
    assert "\n".join(lines) + "\n" == text_snapshot


def mini_english(text: str) -> str | None:
    """The English of a text, or None when the mini game's checker rejects it (no IR, no English)."""
    effect, problem = parse_effect(text)
    assert problem is None, problem
    checked = Checker(MINI_VOCAB, verbs_of(MINI_VOCAB)).check(effect, lambda *a: None)
    return render_effect(checked.ir, MINI_VOCAB, verbs_of(MINI_VOCAB)) if checked.ok else None


def test_mini_fixture_effects(text_snapshot):
    rendered = [(t, mini_english(t)) for t in EXAMPLES]
    lines = [f"{t}\n  → {out if out is not None else '(rejected by the checker: no English)'}" for t, out in rendered]
    assert sum(out is not None for _, out in rendered) >= len(EXAMPLES) // 2  # most parser examples are valid cards
    assert "\n".join(lines) + "\n" == text_snapshot


# --- the style the reference promises ---------------------------------------------------------------


def test_printed_names_not_yaml_keys():
    assert english("gain 2 vp") == "Gain 2 Victory Points."
    assert english("spend 1 gun, 1 worker: gain 1 vp") == "Spend 1 Gun and 1 Worker to gain 1 Victory Point."


def test_mass_noun_kept_as_the_text_spells_it():
    assert english("gain 2 fuel") == "Gain 2 Fuel."
    assert english("draw 2 cards") == "Draw 2 cards."


def test_choose_then_pronoun_and_possessive_owner():
    # the design card's Conflagrator example, in the mini vocabulary (no 'feature' slot there)
    out = english("choose enemy production location as target; gain goods of target instead of owner")
    assert out == "Choose an enemy Production Location; gain the Goods it provides instead of its owner."


def test_two_choices_are_named_not_pronouns():
    out = english("choose production location as p; choose location as q; place 1 gun on p")
    assert out.endswith("place 1 Gun on the chosen Production Location.")


def test_icons_carry_their_printed_name_and_a_marker_for_badges():
    marked = render_marked(checked_ir("raze 1 of your locations with icon green or worker"), MINI_VOCAB,
                           verbs_of(MINI_VOCAB))
    assert ("icon", "green") in split_icons(marked) and ("icon", "worker") in split_icons(marked)
    assert english("raze 1 of your locations with icon green or worker") == \
        "Raze 1 of your Locations with a Green or Worker figure icon."


def test_conditions_and_quantities_in_words():
    assert english("1 card in your hand", kind="condition") == "You have at least 1 card in your Hand."
    assert english("if number of cards in your hand = 0: draw 7 cards") == "If you have no cards in your Hand, draw 7 cards."
    assert english("if number of cards in your hand < 4: draw 4 cards") == \
        "If you have fewer than 4 cards in your Hand, draw 4 cards."
    assert english("if 1 <= number of fuel: gain 1 vp") == "If you have at least 1 Fuel, gain 1 Victory Point."
    assert english("x is number of fuel; if number of cards in your hand = x: draw 1 card") == \
        "X is the amount of Fuel you have. If the number of cards in your Hand is X, draw 1 card."
    assert english("draw (3 - number of cards in your hand) cards") == \
        "Draw a number of cards equal to 3 minus the number of cards in your Hand."
    assert english("requires 2 fuel; gain 1 vp") == "Requirement: you have at least 2 Fuel. Gain 1 Victory Point."


def test_for_each_and_per():
    assert english("for each production location: gain 1 fuel") == "For each Production Location, gain 1 Fuel."
    assert english("gain 1 fuel per location with icon green") == "Gain 1 Fuel for each Location with a Green icon."
    # per a chosen name: "for it", "for each of them" (it read "for each it", "for each the …")
    assert english("choose 1 of your locations as t; gain 1 fuel per t") == \
        "Choose 1 of your Locations; gain 1 Fuel for it."
    assert english("choose 2 of your locations as t; gain 1 fuel per t") == \
        "Choose 2 of your Locations; gain 1 Fuel for each of them."


def test_an_existence_test_on_your_own_things_says_you_have_them():
    assert english("requires 1 of your locations; gain 1 vp") == \
        "Requirement: you have at least 1 Location. Gain 1 Victory Point."
    assert english("if 2 of your locations: gain 1 vp") == "If you have at least 2 Locations, gain 1 Victory Point."


def test_phrase_missing_from_a_template_is_appended_not_lost():
    # a game's verb whose template forgets one of the phrases its signature takes
    verbs = dict(verbs_of(MINI_VOCAB))
    verbs["gain"] = replace(verbs["gain"], template="gain {obj}")
    text = "choose enemy production location as t; gain goods of t instead of t's owner"
    effect, _ = parse_effect(text)
    checked = Checker(MINI_VOCAB, verbs).check(effect, lambda *a: None)
    assert render_effect(checked.ir, MINI_VOCAB, verbs) == \
        "Choose an enemy Production Location; gain the Goods it provides instead of its owner."


def test_template_mini_language():
    assert fill_template("give {obj}[ from {from}] to {to}", {"obj": "1 card", "to": "you"})[0] == "give 1 card to you"
    assert fill_template("give {obj}[ from {from}] to {to}", {"obj": "1 card", "from": "your Hand", "to": "you"})[0] \
        == "give 1 card from your Hand to you"
    assert fill_template("a[ b {x}[ c {y}]] d", {"x": "X"})[0] == "a b X d"
    assert fill_template("unbalanced [ {x}", {"x": "X"})[0] == "unbalanced X"


def test_every_core_verb_template_renders_its_own_example():
    # each example is written for some game: render it in the first whose checker accepts it
    vocabs = (MINI_VOCAB, *(vocab_of(BUNDLED / g) for g in GAMES), vocab_of(ROOT / "tests/fixtures/truth/truth"))
    for name, verb in REGISTRY["core"].items():
        effect, problem = parse_effect(verb.example)
        assert problem is None, (name, problem)
        for vocab in vocabs:
            checked = Checker(vocab, verbs_for("core")).check(effect, lambda *a: None)
            if checked.ok:
                out = render_effect(checked.ir, vocab, verbs_for("core"))
                assert "{" not in out and "[" not in out and name in out.lower(), (name, out)
                break
        else:
            pytest.fail(f"no test game accepts the example of core verb {name!r}: {verb.example!r}")


def test_render_never_copies_the_source_text():
    # the canonical text and the English differ: names come from the vocabulary, not the YAML
    assert english("lose 2 vp per location") == "Lose 2 Victory Points for each Location."
    assert print_effect(parse_effect("lose 2 vp per location")[0]) == "lose 2 vp per location"


# --- property: whatever the checker accepts renders, with no placeholder left --------------------


# the fixture game and every bundled game
PROPERTY_VOCABS = (MINI_VOCAB, *(vocab_of(BUNDLED / g) for g in GAMES))


@settings(max_examples=80, deadline=None)
@given(st.lists(stmt, min_size=1, max_size=3))
def test_every_statement_renders_without_placeholder(stmts):
    effect = A.Effect(tuple(stmts))
    again, problem = parse_effect(print_effect(effect))
    assert problem is None
    for vocab in PROPERTY_VOCABS:
        checked = Checker(vocab, verbs_of(vocab)).check(again, lambda *a: None)
        if not checked.ok:
            continue  # random names rarely check; what the checker accepts must render
        out = render_effect(checked.ir, vocab, verbs_of(vocab))
        assert out.strip(), print_effect(effect)
        for bad in ("{", "}", "[", "]", "None", "\x01", "\x02", "  "):
            assert bad not in out, (print_effect(effect), out)
        assert out[0].isupper() or out[0].isdigit(), out


# --- clumsy forms of the first English, each fixed (issue 17 item 5) ---------------------------------

FIFTY = vocab_of(BUNDLED / "fifty_first_state")

CLUMSY_FORMS = [
    # a thing whose name reads as a plural names one card as "<name> card"
    ("gain 1 ruins", FIFTY, "Gain 1 Ruins card."),
    ("raze 2 ruins", FIFTY, "Raze 2 Ruins."),
    ("rebuild 1 of your ruins", FIFTY, "Rebuild 1 of your Ruins."),
    ("raze 1 of your location", FIFTY, "Raze 1 of your Locations."),
    ("choose 1 ruins as r; raze r", FIFTY, "Choose 1 Ruins card; raze it."),
    # a card source names where cards come from; what is drawn is a card
    ("draw 1 hacked", FIFTY, "Draw 1 Hacked card."),
    ("draw 2 hacked", FIFTY, "Draw 2 Hacked cards."),
    ("draw 1 yellow connection", FIFTY, "Draw 1 Yellow Connection card."),
    # "card" stays lower case in a derived name, as everywhere else
    ("draw up to 1 symbol card", FIFTY, "Draw up to 1 Symbol card."),
    ("choose 1 icon of symbol card as i; gain 1 good matching i", FIFTY,
     "Choose 1 icon on the Symbol card; gain 1 Good matching it."),
    # "each" takes no owner and no article
    ("for each your location: gain 1 fuel", MINI_VOCAB, "For each of your Locations, gain 1 Fuel."),
    ("for each of your locations: gain 1 fuel", MINI_VOCAB, "For each of your Locations, gain 1 Fuel."),
    ("for each location: gain 1 fuel", MINI_VOCAB, "For each Location, gain 1 Fuel."),
    ("for each player: gain 1 vp", MINI_VOCAB, "For each player, gain 1 Victory Point."),
    ("for each player as p: gain 1 vp", MINI_VOCAB, "For each player, gain 1 Victory Point."),
    ("for each enemy player as p: gain 1 fuel", FIFTY, "For each enemy player, gain 1 Fuel."),
    # a name bound to several things is "them"
    ("choose 2 cards in your hand as d; discard all d", MINI_VOCAB, "Choose 2 cards in your Hand; discard them."),
    ("choose up to 2 cards in your hand as d; discard d", MINI_VOCAB,
     "Choose up to 2 cards in your Hand; discard them."),
    ("choose 1 card in your hand as d; discard d", MINI_VOCAB, "Choose 1 card in your Hand; discard it."),
    # arithmetic in an amount: "a number of … equal to …", said after the verb's phrases
    ("draw (7 - number of cards in your hand) cards", MINI_VOCAB,
     "Draw a number of cards equal to 7 minus the number of cards in your Hand."),
    ("discard (number of cards in your hand - 10) cards from your hand", MINI_VOCAB,
     "Discard a number of cards from your Hand equal to the number of cards in your Hand minus 10."),
    ("gain (2 * number of locations) fuel", MINI_VOCAB,
     "Gain an amount of Fuel equal to 2 times the number of Locations."),
    ("draw (number of locations) cards", MINI_VOCAB, "Draw cards equal to the number of Locations."),
]


@pytest.mark.parametrize("text,vocab,expected", CLUMSY_FORMS, ids=[c[0] for c in CLUMSY_FORMS])
def test_clumsy_forms_read_naturally(text, vocab, expected):
    assert english(text, vocab) == expected


TRUTH = vocab_of(ROOT / "tests/fixtures/truth/truth")


@pytest.mark.parametrize("text, expected", [
    # the noun agrees with the number compared with, not with how the count was spelt
    ("if number of cards in your hand >= 1: gain 1 coin", "If you have at least 1 card in your Hand, gain 1 Coin."),
    ("reveal 1 card from your deck as r; put r into your hand",
     "Reveal and set aside the top card of your Deck; put the remaining revealed cards into your Hand."),
    # a field of a chosen card is "its Cost"; as an amount it reads "equal to …", never "(the Cost of it) Coins"
    ("choose 1 card in your hand as t; gain (the cost of t) coin", "Choose 1 card in your Hand; gain Coins equal to its Cost."),
    # inside "each opponent: …" a condition is about that player
    ("each opponent: (until number of cards in your hand >= 3: draw 1 card)",
     "Each opponent, in seat order: repeat until they have at least 3 cards in their Hand: draw 1 card."),
])
def test_english_forms_of_language_2(text, expected):
    assert english(text, TRUTH) == expected
