"""Every core verb × every form its signature could be given: honoured on a real state, or rejected.

For each core verb (runtime/verbs.py) and each amount form, each filter form and each owner form
of its object, the text is compiled through the real pipeline. When the signature declares the form
honoured (``amounts_for`` / ``honoured``), the effect runs on a truth-fixture state and an oracle
checks the runtime did what that part says (how many cards moved, which ones, from whose zone);
when it does not, the checker must reject the text with E306 located on the part. One part varies at a
time against a base text that is valid for the verb (one-factor coverage, not the full product).
Engine verbs: Infernal Contraption's scrap/take/put in tests/infernal_contraption/test_verb_forms.py,
51st State's targeted verbs in tests/fifty_first_state/test_verb_forms.py (amount forms; their
owners and filters come from the shared selection code tested here). Age of Steam's `build` takes
only "up to N" (its bundled texts and test_rules.py).
"""
from __future__ import annotations

import pytest

from compiler.explain import effect_function, explain_effect
from runtime import verbs as V
from runtime.agents import FirstLegal, Scripted
from runtime.model import model_of
from runtime.refs import CARD, GOOD
from runtime.verbs import verbs_for
from tests.test_truthful import _game, truth  # noqa: F401 (fixture)

# verb -> (text with {sel} for the object, object category, where the moved cards come from, where they go)
CARD_VERBS = {
    "discard": ("discard {sel} from your hand", ("hand", 0), ("discard", 0)),
    "give": ("give {sel} from your hand to opponent", ("hand", 0), ("hand", 1)),
    "put": ("put {sel} from your hand on top of your deck", ("hand", 0), ("deck", 0)),
    "trash": ("trash {sel} from your hand", ("hand", 0), ("trash", None)),
    "move": ("move {sel} from your hand at the bottom of your deck", ("hand", 0), ("deck", 0)),
    "remove": ("remove {sel} from your hand", ("hand", 0), ("removed", None)),
    # issue 28: outside an acting clause a pass moves at once (inside one: tests/language namesake corpus)
    "pass": ("pass {sel} from your hand to left neighbour's hand", ("hand", 0), ("hand", 1)),
    "play": ("play {sel} from your hand", ("hand", 0), ("play_area", 0)),
    "gain": ("gain {sel}", ("supply", None), ("discard", 0)),
    "draw": ("draw {sel}", ("deck", 0), ("hand", 0)),
}
# what each amount form writes, how many cards it means when 5 match, and the script's answers
AMOUNT_TEXT = {V.ONE: ("a card", 1), V.NUMBER: ("2 cards", 2), V.X: ("x cards", 2), V.EXPR: ("(1 + 1) cards", 2),
               V.UP_TO: ("up to 3 cards", 1), V.ALL: ("all cards", 5), V.PER: ("1 card per 2 cards in your hand", 2)}
# filter form -> (text, predicate on the card id); the source holds cards that pass and cards that do not
FILTER_TEXT = {"icon": ("with icon action", lambda c: c in ("smithy", "mill", "herald", "echo")),
               "with": ("with reaction", lambda c: c in ("herald", "watchtower", "echo")),
               "without": ("without reaction", lambda c: c not in ("herald", "watchtower", "echo")),
               "field": ("costing up to 2", lambda c: c in ("copper", "mill", "echo")),
               "other than": ("other than copper", lambda c: c != "copper"),
               "not": ("not with icon action", lambda c: c not in ("smithy", "mill", "herald", "echo"))}
SOURCE = ["copper", "mill", "smithy", "watchtower", "copper"]  # bottom → top; 5 cards


def _prepare(compiled, src, answers):
    engine, game = _game(compiled)
    game.agents = {0: Scripted(answers, fallback=FirstLegal()), 1: FirstLegal()}
    zone = game.zone_key(src[0], src[1])
    for cid in SOURCE:
        game.create(cid, zone, owner=src[1])
    for cid in ("copper", "copper"):  # two cards in Ann's hand when it is not the source: for "per"
        if src != ("hand", 0):
            game.create(cid, game.zone_key("hand", 0), owner=0)
    return engine, game, zone


def _compile(compiled, text):
    return explain_effect(text, model_of(compiled.vocab))


def _moved(game, before, dest):
    return [u for u in game.zones[game.zone_key(dest[0], dest[1])] if before.get(u) != dest]


def _cases():
    for name, (template, src, dest) in sorted(CARD_VERBS.items()):
        slot = verbs_for("core")[name].signature.obj
        for form in V.AMOUNTS:
            yield pytest.param(name, "amount", form, id=f"{name}-amount-{form}")
        for form in FILTER_TEXT:
            yield pytest.param(name, "filter", form, id=f"{name}-filter-{form}")
        for form in ("enemy", "another", "each"):
            yield pytest.param(name, "owner", form, id=f"{name}-owner-{form}")
        assert slot is not None


@pytest.mark.parametrize("name, part, form", list(_cases()))
def test_every_form_of_every_core_card_verb_is_honoured_or_rejected(truth, name, part, form):
    """(Every core verb that moves cards is in CARD_VERBS: see the test below.)"""
    template, src, dest = CARD_VERBS[name]
    slot = verbs_for("core")[name].signature.obj
    if part == "amount":
        sel, want = AMOUNT_TEXT[form]
        honoured = form in V.amounts_for(slot, CARD)
    elif part == "filter":
        sel, want = f"a card {FILTER_TEXT[form][0]}", 1
        honoured = form in V.honoured(slot, CARD)[1]
    else:
        sel, want = f"a {form} player's card" if form != "enemy" else "an enemy card", 1
        honoured = "chosen" in V.honoured(slot, CARD)[0]  # a card's owner is never honoured on "card"
    prefix = "x is 2; " if form == V.X else ""
    text = prefix + template.format(sel=sel)
    ex = _compile(truth, text)
    if not honoured:
        codes = [d.code for d in ex.diags.errors]
        assert codes and codes[0] in ("E306", "E201"), (text, codes)
        if codes[0] == "E306":
            start = ex.diags.errors[0].column - 1
            assert text[start:start + 1] != " "  # the caret is on the part, not between words
        return
    assert not ex.diags.errors, (text, [d.message for d in ex.diags.errors])
    answers = []
    if form == V.UP_TO:  # the player takes fewer than the most: 1 of "up to 3"
        answers = [1] if name in ("draw",) else [[c for c in ("copper",)]]
    engine, game, zone = _prepare(truth, src, answers)
    before = dict(game.where)
    if form == V.PER:  # "1 card per 2 cards in your hand": whole pairs in hand, counted when it runs
        want = len(game.zone("hand", 0)) // 2
    out = engine.run(game, effect_function(ex), 0)
    assert out.ok, (text, out.reason)
    moved = _moved(game, before, dest)
    if name == "play":  # a played card's own effect may move further cards; count only the played ones
        moved = [u for u in moved if before.get(u) == zone]
    assert len(moved) == want, (text, [game.instances[u].card_id for u in moved])
    assert all(before[u] == zone for u in moved)  # from the named source, whoever's it is
    if part == "filter":
        assert all(FILTER_TEXT[form][1](game.instances[u].card_id) for u in moved), text


@pytest.mark.parametrize("verb", ["gain", "lose", "spend"])
@pytest.mark.parametrize("form", V.AMOUNTS)
def test_every_amount_form_of_the_goods_verbs_is_honoured_or_rejected(truth, verb, form):
    slot = verbs_for("core")[verb].signature.obj
    sel = {V.ONE: "a coin", V.NUMBER: "2 coin", V.X: "x coin", V.EXPR: "(1 + 1) coin", V.UP_TO: "up to 2 coin",
           V.ALL: "all coin", V.PER: "1 coin per 2 cards in your hand"}[form]
    text = ("x is 2; " if form == V.X else "") + f"{verb} {sel}"
    ex = _compile(truth, text)
    if form not in V.amounts_for(slot, GOOD):
        assert [d.code for d in ex.diags.errors][:1] == ["E306"], text
        return
    assert not ex.diags.errors, text
    engine, game = _game(truth, hand=["copper"] * 4)
    game.players[0].goods["coin"] = 5
    assert engine.run(game, effect_function(ex), 0).ok
    delta = game.players[0].goods["coin"] - 5
    want = 1 if form == V.ONE else 5 if form == V.ALL else 2  # "all": every one the player holds
    assert delta == (want if verb == "gain" else -want), text


def test_a_phrase_naming_another_players_zone_where_only_yours_is_honoured():
    for name, slot in sorted(verbs_for("core").items()):
        frm = slot.signature.phrases.get("from")
        if frm is None or frm.owners is None:
            continue
        assert "each" not in V.honoured(frm, "zone")[0], name  # one pile at a time, never every player's


def test_draw_from_an_opponents_pile_takes_from_that_pile(truth):
    ex = _compile(truth, "draw 2 cards from opponent's deck")
    assert not ex.diags.errors
    engine, game = _game(truth)
    game.agents = {}
    for cid in ("copper", "mill", "smithy"):
        game.create(cid, game.zone_key("deck", 1), owner=1)
    assert engine.run(game, effect_function(ex), 0, opponent=1).ok
    assert [game.instances[u].card_id for u in game.zone("hand", 0)] == ["smithy", "mill"]


def test_every_core_verb_is_enumerated():
    goods = {"gain", "lose", "spend"}
    # place: its Goods are gain's forms, its target one card (tests/test_context.py, 51st State scenarios);
    # reveal and look leave cards where they are: tests/test_constructs.py
    # copy moves nothing and runs one card's play effect: tests/test_abilities.py (issue 28)
    # name: it moves nothing and binds a card name (tests/test_names_and_neighbours.py, namesake corpus)
    covered = set(CARD_VERBS) | goods | {"place", "reveal", "look", "copy", "name"}
    assert set(verbs_for("core")) <= covered, set(verbs_for("core")) - covered
