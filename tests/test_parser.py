"""Stage 3: the effect grammar, the AST and the canonical printer (round trip)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiler import ast as A
from compiler.parser import parse_effect
from compiler.printer import print_effect

EXAMPLES = [
    "gain 2 fuel",
    "spend 1 gun, 1 worker: gain 1 vp",
    "raze 1 of your locations with icon green or worker",
    "draw 1 hacked",
    "choose enemy production location without feature as target; gain goods of target instead of owner",
    "block 1 action on your faction board until cleanup",
    "requires 1 card in your hand",
    "give 1 card from your hand to opponent; draw 2 cards from opponent's parts pile",
    "x is the number of deployed machines (min 1); gain x fuel",
    "for each of up to 3 of your ruins as r: place 1 resource on r",
    "if number of cards in your hand = 0: draw 7 cards",
    "draw (7 - number of cards in your hand) cards",
    "lose 2 vp per deployed machine",
    "choose 1 icon of top card of another player's discard pile as i; spend 1 good matching i: gain 1 vp",
    "if x >= 2: gain 1 fuel and gain 1 gun",
    "draw a card",
    "discard all cards in your hand",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_examples_parse_and_round_trip(text):
    effect, problem = parse_effect(text)
    assert problem is None, problem
    printed = print_effect(effect)
    again, problem2 = parse_effect(printed)
    assert problem2 is None and again == effect


def test_case_insensitive_like_printed_cards():
    a, _ = parse_effect("Gain 2 Fuel")
    b, _ = parse_effect("gain 2 fuel")
    assert a == b


def test_spans_point_into_the_text():
    text = "gain 2 fuel; raze 1 of your locations with icon green or worker"
    effect, _ = parse_effect(text)
    act = effect.statements[1]
    icon = act.objects[0].filters[0].icons[1]
    assert text[icon.span.start:icon.span.end] == "worker"


def test_syntax_error_has_offset_and_says_what_is_wrong_in_words():
    _, problem = parse_effect("gain 2 fuel;; draw 1 card")
    assert problem.offset == 12 and problem.length == 1
    assert problem.message.startswith("';' with no statement before it")  # more in tests/test_syntaxhelp.py


def test_structure_of_a_cost():
    effect, _ = parse_effect("spend 1 gun, 1 worker: gain 1 vp")
    cost = effect.statements[0]
    assert isinstance(cost, A.Cost)
    assert [o.noun.text for o in cost.action.objects] == ["gun", "worker"]


# --- property: printing any AST the grammar can produce and reparsing gives the same AST -----------

WORD = st.sampled_from(["fuel", "gun", "card", "cards", "location", "hand", "parts", "pile", "target", "machine",
                        "deployed", "worker", "production", "feature"])
VERB = st.sampled_from(["gain", "spend", "draw", "raze", "give", "place", "block", "lose", "discard"])
NAMEV = st.sampled_from(["target", "t", "chosen", "r"])
words = st.lists(WORD, min_size=1, max_size=3).map(lambda ws: A.Words(tuple(ws)))
owner = st.one_of(st.none(), st.just(A.Owner("your")), st.just(A.Owner("enemy")),
                  st.just(A.Owner("possessive", "opponent")), st.just(A.Owner("possessive", "player", "another")))
ref = st.builds(A.Ref, owner, words, st.none())
filt = st.one_of(
    st.builds(lambda ns: A.WithIcon(tuple(A.Name(n) for n in ns)), st.lists(st.sampled_from(["green", "red", "worker"]),
                                                                           min_size=1, max_size=3)),
    st.builds(A.Without, words), st.builds(A.With, words), st.builds(A.Matching, NAMEV.map(A.Name)))


def quantities(depth=2):
    base = st.one_of(st.integers(0, 20).map(A.Num), st.just(A.X()))
    if depth == 0:
        return base
    sub = quantities(depth - 1)
    return st.one_of(base, st.builds(A.BinOp, st.sampled_from(["+", "-", "*"]), sub, sub),
                     st.builds(lambda s: A.Count(s), simple_selectors()))


def simple_selectors():
    return st.builds(A.Selector, st.one_of(st.none(), st.integers(0, 9).map(A.Num)), owner, words,
                     st.lists(filt, max_size=2).map(tuple), st.none(), st.one_of(st.none(), ref), st.none())


amount = st.one_of(st.none(), st.integers(0, 9).map(A.Num), st.just(A.X()), st.builds(A.UpTo, st.integers(0, 9)),
                   st.just(A.All()), st.sampled_from(["a", "an"]).map(A.One),
                   st.builds(A.BinOp, st.sampled_from(["+", "-"]), st.integers(0, 9).map(A.Num), quantities(1)))
per = st.one_of(st.none(), st.builds(A.Per, ref, st.just(()), st.none()))


@st.composite
def selectors(draw):
    of_form = draw(st.booleans())
    amt = draw(amount)
    if of_form and not isinstance(amt, (A.Num, A.X, A.UpTo, A.All)):
        of_form = False
    return A.Selector(amt, draw(owner), draw(words), tuple(draw(st.lists(filt, max_size=2))),
                      draw(st.one_of(st.none(), ref)), draw(st.one_of(st.none(), ref)), draw(per), of_form)


phrase = st.one_of(st.builds(A.Phrase, st.sampled_from(["from", "to", "on", "onto", "into", "at", "instead of"]),
                             selectors()),
                   st.builds(A.Until, words))
action = st.builds(A.Action, VERB.map(A.Name), st.lists(selectors(), max_size=2).map(tuple),
                   st.lists(phrase, max_size=2).map(tuple))
cond = st.one_of(st.builds(A.Compare, quantities(1), st.sampled_from(["=", "!=", "<", ">", "<=", ">="]),
                           quantities(1)),
                 st.builds(A.Exists, selectors()))
body = st.lists(st.one_of(action, st.builds(A.Choose, selectors(), NAMEV.map(A.Name))), min_size=1,
                max_size=2).map(tuple)
stmt = st.one_of(
    action,
    st.builds(A.Requires, cond),
    st.builds(A.Let, quantities(1), st.one_of(st.none(), st.integers(0, 5)), st.booleans()),
    st.builds(A.Choose, selectors(), NAMEV.map(A.Name)),
    st.builds(A.ForEach, selectors(), st.one_of(st.none(), NAMEV.map(A.Name)), body, st.booleans()),
    st.builds(A.If, cond, body),
    st.builds(A.Cost, action, body),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(stmt, min_size=1, max_size=3))
def test_print_then_parse_is_identity(stmts):
    effect = A.Effect(tuple(stmts))
    text = print_effect(effect)
    again, problem = parse_effect(text)
    assert problem is None, (text, problem)
    assert again == effect, text


# --- the same property over the constructs of effect language 2 (issue 17) ------------------------

_BOUNDS = [("=", ""), ("=", "exactly"), ("<=", "up to"), ("<=", "or less"), (">=", "or more"),
           (">=", "at least"), (">", "more than"), ("<", "less than")]
_BARE = {("=", ""), ("<=", "or less"), (">=", "or more")}  # written before any keyword: a plain value


@st.composite
def field_compares(draw):
    op, form = draw(st.sampled_from(_BOUNDS))
    costing = form == "at least" or draw(st.booleans())
    if (op, form) in _BARE:
        value = draw(st.one_of(st.integers(0, 9).map(A.Num), st.just(A.X())))
    else:
        value = draw(st.one_of(st.integers(0, 9).map(A.Num), quantities(1),
                               st.builds(A.FieldOf, st.just(A.Name("cost")), NAMEV.map(lambda n: A.Words((n,))))))
    return A.FieldCompare(None if costing else A.Words(("cost",)), op, value, form)


filt2 = st.one_of(filt, field_compares(), st.builds(A.OtherThan, words), st.builds(A.Not, filt))
subject = st.one_of(st.just(A.Subject("you")), st.just(A.Subject("a", "opponent", "an")),
                    st.just(A.Subject("a", "player", "a")), st.just(A.Subject("another", "player")))
card_sel = st.builds(A.Selector, st.sampled_from([None, A.One("a")]), st.none(), words,
                     st.lists(filt2, max_size=2).map(tuple), st.none(), st.none(), st.none())
quantity2 = st.one_of(quantities(1),
                      st.builds(A.BinOp, st.just("/"), quantities(0), quantities(0)),
                      st.builds(A.History, card_sel, subject, st.sampled_from(["played", "gain", "trashes"]).map(A.Name),
                                st.sampled_from(["turn", "round"]).map(A.Name)))
sel2 = st.builds(A.Selector, st.one_of(st.none(), st.integers(0, 9).map(A.Num)), owner, words,
                 st.lists(filt2, max_size=2).map(tuple), st.none(), st.one_of(st.none(), ref),
                 st.one_of(st.none(), st.builds(A.Per, ref, st.just(()), st.none(), st.integers(1, 9))))
phrase2 = st.builds(A.Phrase, st.sampled_from(["from", "into", "on top of", "at the bottom of"]), sel2)
action2 = st.builds(A.Action, VERB.map(A.Name), st.lists(sel2, max_size=1).map(tuple),
                    st.lists(phrase2, max_size=2).map(tuple), st.one_of(st.none(), NAMEV.map(A.Name)))
cond2 = st.one_of(st.builds(A.Compare, quantity2, st.sampled_from(["=", "<", ">="]), quantities(0)),
                  st.builds(A.Exists, sel2))


def bodies(inner):
    simple = st.lists(st.one_of(action2, st.builds(A.Choose, sel2, NAMEV.map(A.Name))), min_size=1, max_size=2)
    return st.one_of(simple, st.lists(inner, min_size=1, max_size=2)).map(tuple)


def stmts2(depth=2):
    leaf = st.one_of(action2, st.builds(A.Choose, sel2, NAMEV.map(A.Name)))
    if depth == 0:
        return leaf
    inner = stmts2(depth - 1)
    body = bodies(inner)
    return st.one_of(
        leaf,
        st.builds(A.If, cond2, body, st.one_of(st.none(), body)),
        st.builds(lambda opts, word: A.Menu({"one": 1, "two": 2}[word], tuple(opts), word),
                  st.lists(body, min_size=3, max_size=3), st.sampled_from(["one", "two"])),
        st.builds(lambda who, b: A.Acting(who[0], A.Words((who[1],)), b, who[2]),
                  st.sampled_from([("opponent", "opponent", False), ("each", "player", False),
                                   ("other", "player", True), ("left", "player", False)]), body),
        st.builds(A.RepeatUntil, cond2, body),
        st.builds(A.ForEach, sel2, st.one_of(st.none(), NAMEV.map(A.Name)), body, st.just(False)),
        st.builds(A.Cost, action2, body),
    )


triggers = st.one_of(
    st.builds(lambda w, s, v, sel, b: A.Trigger(w, b, s, A.Name(v), sel), st.sampled_from(["when", "whenever"]),
              subject, st.sampled_from(["play", "plays", "gains", "trash"]), card_sel, bodies(stmts2(1))),
    st.builds(lambda m, o, p, b: A.Trigger("at", b, moment=A.Name(m), owner=o, period=A.Name(p)),
              st.sampled_from(["start", "end"]), st.sampled_from(["your", "each"]), st.sampled_from(["turn", "round"]),
              bodies(stmts2(1))),
    st.builds(lambda p, s, v, sel, b: A.Trigger("first", b, s, A.Name(v), sel, period=A.Name(p)),
              st.sampled_from(["turn", "round"]), subject, st.sampled_from(["play", "trashes"]), card_sel,
              bodies(stmts2(1))),
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(stmts2(), min_size=1, max_size=2), st.lists(triggers, min_size=1, max_size=2)))
def test_print_then_parse_is_identity_for_the_new_constructs(stmts):
    effect = A.Effect(tuple(stmts))
    text = print_effect(effect)
    again, problem = parse_effect(text)
    assert problem is None, (text, problem)
    assert again == effect, text
