"""Syntax errors in the designer's words (compiler/syntaxhelp.py, issue 17 item 4).

Each case is a malformed text, the word the caret must sit on, and words the message must say.
Every message is also held to never show the grammar's terminal names.
"""
from __future__ import annotations

import re

import pytest
from lark.exceptions import UnexpectedInput

from compiler import syntaxhelp as H
from compiler.parser import _lark, parse_effect

# (text, the word under the caret, a phrase the message must contain)
CASES = [
    # a missing number / noun
    ("gain 2", "2", "must be followed by what it counts"),
    ("gain 2; draw 1 card", "2", "must be followed by what it counts"),
    ("gain up to fuel", "fuel", "'up to' needs a number"),
    ("draw up to 2", "2", "must be followed by what it counts"),
    # if / for each without ':'
    ("if 3 fuel gain 1 gun", "if", "'if' needs ':' after its condition"),
    ("if x > 1 gain 1 fuel", "if", "'if' needs ':'"),
    ("if 3 fuel", "fuel", "'if' needs a condition and ':'"),
    ("for each location gain 1 fuel", "for each", "'for each' needs ':'"),
    ("for each location", "location", "'for each' needs ':'"),
    # a comma where ';' was meant, 'and' between top-level statements
    ("gain 2 fuel, draw 1 card", ",", "write ';' instead"),
    ("scrap 1 card from your hand, scrap 3 cards", ",", "to start another statement with 'scrap', write ';'"),
    ("gain 1 fuel; gain 2 fuel, draw 1 card", ",", "write ';' instead"),
    ("gain 2 fuel and draw 1 card", "and", "between statements write ';'"),
    ("gain 1 fuel 2 gun", "2", "cannot follow 'fuel'"),
    ("gain 1 fuel if 1 gun: gain 1 vp", "if", "'if' starts a new statement: put ';' before it"),
    ("gain 2 fuel with icon green red", "red", "comes after a complete statement"),
    ("1 fuel", "1", "a statement starts with its verb"),
    ("if 1 fuel: : gain 1 gun", ":", "after ':' comes what happens"),
    ("block up 1 card", "1", "expected 'to'"),
    ("choose one one: draw 2 cards; or gain 2 fuel", "one", "does not fit here"),
    ("choose 1 icon as i; for each of your locations matching i: 1 fuel", "1",
     "after ':' comes what happens"),
    # a trailing operator, unbalanced parentheses
    ("x is 2 +", "+", "'+' needs a number"),
    ("draw (2 +) cards", "+", "'+' needs a number"),
    ("if number of cards in your hand >", ">", "'>' needs a number"),
    ("draw (2 + 1 cards", "(", "never closed"),
    ("draw 2 + 1) cards", ")", "never opened"),
    # choose without 'as NAME'
    ("choose 1 card in your hand; discard it", "choose", "add 'as' and a name"),
    ("choose 1 card as", "as", "'as' needs the name"),
    # a name the language reads as one of its words; a bound written the way only 'costing' takes
    ("choose 1 card in your hand as a; discard a", "a", "'a' cannot name a choice"),
    ("choose 1 card with cost at least 3 as c; discard c", "at least", "'with cost 3 or more'"),
    # punctuation and characters
    ("gain 2 fuel;; gain 1 gun", ";", "';' with no statement before it"),
    ("spend 1 gun:", ":", "a cost needs what it pays for"),
    ("gain 2 fuel!", "!", "effect text has no '!'"),
    ('gain 2 fuel"); import os #', '"', "no quotes"),
    ("gain 2 fuel & draw 1 card", "&", "not '&'"),
    # phrases missing their noun
    ("gain 2 fuel from your", "your", "'your' needs what it names"),
    ("raze 1 location with icon", "icon", "needs an icon name"),
    ("raze 1 location with icon green or", "or", "another icon name"),
    ("gain 2 fuel instead", "instead", "'instead of …'"),
    ("gain 1 vp per", "per", "'per' needs what it counts"),
    ("requires", "requires", "'requires' needs a condition"),
    ("x is", "is", "'x is' needs a quantity"),
    ("if number > 2: gain 1 fuel", ">", "'number of' needs what to count"),
    ("gain 1 good matching", "matching", "'matching' needs a name"),
    ("draw 1 card from opponent's", "'s", "'s needs the thing"),
]

# One text a row of NOT_YET: (text, caret word). When a construct lands, its text parses, this test
# fails, and the row (and this line) are deleted.
NOT_YET_CASES = {
    "joining conditions with 'and'": ("if 1 fuel and 1 gun: gain 1 vp", "and"),
}

# One text a row of REWRITES: (text, caret word, what the message must show).
REWRITE_CASES = [
    ("each opponent discards 1 card", "each", "'each opponent: discard 1 card'"),
    ("choose one: draw 3 cards, or gain 2 fuel", ",", "'; or'"),
    ("if 1 fuel: if 1 gun: gain 1 vp", "if", "'if 1 fuel: (if 1 gun: gain 1 vp)'"),
    # issue 28's heads nest the same way: an acting player, a chosen opponent, a duration
    ("target opponent: each player: gain 1 fuel", "each player", "'target opponent: (each player: gain 1 coin)'"),
    ("when you play this card: each opponent: discard 1 card", "each opponent", "goes in parentheses"),
    ("once per turn: at the start of your next turn: gain 1 fuel", "at the start of", "goes in parentheses"),
    ("draw 1 card until you have 7 cards in your hand", "you", "'until number of cards in your hand >= 7"),
    ("if 1 fuel: gain 1 gun; otherwise: gain 1 fuel", "otherwise", "no ';' before it"),
    ("reveal the top 3 cards of your deck", "the top", "'reveal 3 cards from your deck as r'"),
    ("gain 1 fuel or 1 gun", "or", "'choose one: gain 1 fuel; or gain 1 gun'"),
    ("draw 2 cards, then discard 1 card", "then", "'draw 2 cards; discard 1 card'"),
    ("if you have 2 fuel: gain 1 vp", "you have", "'if 2 fuel: gain 1 vp'"),
    # issue 28: abilities and copying
    ("ally: gain 2 combat", "ally", "'once per turn while a card with icon horde other than this card"),
    ("once each turn: gain 2 combat", "once each", "'once per turn'"),
    ("once per turn gain 2 combat", "gain", "'once per turn: gain 2 combat'"),
    ("while you have a card with icon horde in your play area: gain 2 combat", "you have",
     "'while a card with icon horde other than this card in your play area: …'"),
    ("copy another ship in your play area", "another", "'copy a ship other than this card in your play area'"),
    ("each player passes 1 card to the left", "each", "'each player: pass 1 card from your hand to left neighbour's hand'"),
    # issue 28 (h28b): "any number of" and "you may …" as designers first write them
    ("trash up to any number of cards from your hand", "any", "'discard any number of cards from your hand'"),
    ("discard any number cards from your hand", "number", "'any number' takes 'of'"),
    ("you may: trash a card from your hand", ":", "'you may trash a card from your hand'"),
    ("you may choose to trash a card", "choose to", "followed by the action itself"),
    ("may trash a card from your hand", "may", "'you may trash a card from your hand'"),
]

# Texts that Lark parses (its contextual lexer takes the first word for a verb) but that mean a
# construct the language spells otherwise: reported as that, not as an unknown verb.
PARSED_BUT_MISSING = [
    ("if 1 fuel: gain 1 gun; otherwise: gain 1 fuel", "otherwise", "'otherwise' continues its 'if'"),
    ("ally: gain 2 combat", "ally", "an ally ability says its limit"),
    ("optionally trash", "optionally", "an optional statement says who may"),  # h28b
]

# Terminal names of the grammar (NAME, INT, SEMICOLON, $END, …) must never reach a designer.
_TERMINAL = re.compile(r"\$END|\b[A-Z]{2,}(?:_[A-Z]+)*\b|__ANON")


def problem_of(text: str):
    effect, problem = parse_effect.__wrapped__(text)
    assert effect is None and problem is not None, f"{text!r} parsed"
    return problem


def caret_word(text: str, problem) -> str:
    return text[problem.offset:problem.offset + problem.length]


def assert_readable(message: str):
    assert not _TERMINAL.search(message), message
    assert "expected one of" not in message.lower(), message


@pytest.mark.parametrize("text,caret,phrase", CASES, ids=[c[0] for c in CASES])
def test_common_mistake_explained_with_caret_on_the_wrong_word(text, caret, phrase):
    problem = problem_of(text)
    assert phrase in problem.message, problem.message
    assert caret_word(text, problem) == caret, (problem.message, problem.offset, problem.length)
    assert_readable(problem.message)


def test_every_not_yet_row_has_a_case():
    assert set(NOT_YET_CASES) == {row.construct for row in H.NOT_YET}


@pytest.mark.parametrize("construct", sorted(NOT_YET_CASES))
def test_missing_construct_says_the_language_lacks_it(construct):
    text, caret = NOT_YET_CASES[construct]
    row = next(r for r in H.NOT_YET if r.construct == construct)
    problem = problem_of(text)
    assert problem.message == f"{construct} is not in the language yet: {row.hint}"
    assert caret_word(text, problem) == caret


def test_every_rewrite_row_has_a_case():
    messages = {problem_of(text).message for text, _caret, _shown in REWRITE_CASES}
    assert messages == {row.message for row in H.REWRITES}


@pytest.mark.parametrize("text,caret,shown", REWRITE_CASES, ids=[c[0] for c in REWRITE_CASES])
def test_construct_spelt_otherwise_shows_how_the_language_says_it(text, caret, shown):
    problem = problem_of(text)
    assert shown in problem.message, problem.message
    assert caret_word(text, problem) == caret
    assert_readable(problem.message)


@pytest.mark.parametrize("text,caret,phrase", PARSED_BUT_MISSING, ids=[c[0] for c in PARSED_BUT_MISSING])
def test_construct_read_as_a_verb_is_still_reported(text, caret, phrase):
    problem = problem_of(text)
    assert problem.message.startswith(phrase)
    assert caret_word(text, problem) == caret


def _error(text: str) -> UnexpectedInput:
    try:
        _lark().parse(text)
    except UnexpectedInput as exc:
        return exc
    raise AssertionError(f"{text!r} parses")


@pytest.mark.parametrize("example", H.EXAMPLES, ids=[e.message[:40] for e in H.EXAMPLES])
def test_every_example_is_malformed_and_matches_itself(example):
    """No example parses, and none is shadowed by an earlier one failing the same way."""
    for text in example.texts:
        assert H.match_example(_error(text)) is example, text


def test_cached_matching_agrees_with_lark_match_examples():
    """The index makes the choice Lark's own ``match_examples`` makes, for every example text."""
    parse = _lark().parse
    labelled = [(e, list(e.texts)) for e in H.EXAMPLES]
    for example in H.EXAMPLES:
        for text in example.texts:
            exc = _error(text)
            assert exc.match_examples(parse, labelled, token_type_match_fallback=True) is example, text


def test_the_example_index_is_built_once_and_only_on_error():
    H._index_for.cache_clear()
    parse_effect.__wrapped__("gain 2 fuel; draw 1 card")
    assert H._index_for.cache_info().currsize == 0  # the error-free path never builds it
    problem_of("gain 2")
    problem_of("gain 2 fuel from your")
    assert H._index_for.cache_info().misses == 1


@pytest.mark.parametrize("text", [
    "gain (", "gain )", "(", ":", ",", "gain 2 fuel,", "if", "for", "for each", "choose", "x",
    "gain 2 fuel; if", "draw 1 card from your hand to", "spend 1 gun, : gain 1 vp", "gain 1 fuel with",
    "gain 1 fuel 's", "gain up to 2 of", "if 2 fuel: gain 1 gun and", "gain 2 fuel; x is 1 (min x)",
    "gain 1 fuel = 2", "gain 2 fuel ; ; ;", "draw 1 card from 2", "gain ; ;",
])
def test_any_syntax_error_reads_in_words(text):
    problem = problem_of(text)
    assert_readable(problem.message)
    assert 0 <= problem.offset <= len(text) and problem.length >= 1


def test_what_would_fit_is_said_without_terminal_names():
    """Every terminal of the grammar, alone or with others, is said in words or as its literal."""
    terminals = _lark().terminals
    for t in terminals:
        said = H.expected_in_words({t.name})
        if t.pattern.type == "str":
            assert said, t.name  # a literal is always said
        else:  # NAME, INT, CMP, SEMI_OR…: said in words, never by name
            assert t.name not in said and t.name.lower() not in said, (t.name, said)
    assert_readable(H.expected_in_words({t.name for t in terminals}))


def test_bundled_texts_are_not_caught_by_the_catalogue():
    """The post-parse check for missing constructs must never reject a real card."""
    from tests.test_english import GAMES, every_slot

    for game in GAMES:
        for _card, _face, _slot, kind, text in every_slot(game):
            _effect, problem = parse_effect(("requires " if kind == "condition" else "") + text)
            assert problem is None, (text, problem)
