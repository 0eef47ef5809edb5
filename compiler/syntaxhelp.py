"""Syntax errors in the designer's words: a catalogue of common mistakes, consulted only on error.

The parser (compiler/parser.py) calls :func:`explain` when Lark rejects an effect text. Three
tables decide what to say, tried in this order:

1. ``NOT_YET`` — constructs designers write that the language does not have yet ("if 1 fuel and
   1 gun: …"). One row a construct: when a construct lands in the grammar,
   deleting its row is the whole change here. ``REWRITES``, in the same form, holds constructs the
   language has but spells otherwise than designers first try ("choose one: …, or …" for
   "…; or …", "each opponent discards …" for "each opponent: discard …").
2. ``TEXT_RULES`` — mistakes best seen in the text itself (unbalanced parentheses, an ``if``
   without ``:``, ``choose`` without ``as NAME``, a comma where ``;`` was meant, a missing ``;``
   before ``if`` …).
3. ``EXAMPLES`` — malformed examples, each with its message, matched the way Lark's
   ``UnexpectedInput.match_examples`` does (same parser state, same acceptable next tokens, then
   the same offending token). Lark's own function re-parses every example on every error; here the
   examples are parsed once, on the first error of the process, into an index keyed by parser
   state, so each later error is one dictionary look-up. The error-free parse never touches this
   module.

Whatever none of them explains gets a sentence built from what the parser would have accepted,
said in words ("a number", "a word naming a Good, card or zone"), never as grammar terminals.

Each answer carries where the caret goes: on the offending word, or on an earlier word that is
really the one at fault (the ``if`` whose ``:`` is missing, the comma that should be ``;``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .grammar import _lark


@dataclass(frozen=True)
class Help:
    message: str
    offset: int
    length: int = 1


# --- 1. constructs the language does not have yet, or spells otherwise ----------------------------


@dataclass(frozen=True)
class NotYet:
    construct: str  # what the designer tried, as the subject of "… is not in the language yet"
    pattern: str  # a regular expression over the lower-cased text; its group "at" takes the caret
    hint: str  # what to write today instead
    leads: tuple[str, ...] = ()  # first words that Lark happily reads as a verb (see not_yet_lead)


# Delete a row when its construct lands in grammar/effects.lark: tests/test_syntaxhelp.py holds one
# text a row that must fail with the row's hint, so a stale row shows up as a failing test.
NOT_YET: tuple[NotYet, ...] = (
    # "or" between conditions is in the language (issue 28): only "and" is not
    NotYet("joining conditions with 'and'",
           r"\bif\b[^:;]*?\s(?P<at>and)\s+(?:\d|number\b|x\b)[^:;]*:",
           "put one 'if' inside the other: 'if 1 fuel: (if 1 gun: gain 1 vp)'"),
)


@dataclass(frozen=True)
class Rewrite:
    """A construct the language has, written the way designers often try first."""
    pattern: str  # as NotYet.pattern
    message: str  # how the language says it
    leads: tuple[str, ...] = ()  # as NotYet.leads


REWRITES: tuple[Rewrite, ...] = (
    # issue 28: everyone passing at once is an acting clause around 'pass'
    Rewrite(r"(?:(?:^|[;:(])\s*)(?P<at>each|every|all)\s+(?:other\s+)?(?:opponent|player)s?\s+pass(?:es)?\b",
            "everyone passing at once is an acting clause with 'pass': e.g. 'each player: pass 1 card from your "
            "hand to left neighbour's hand' (each player chooses first, then the cards move together)"),
    Rewrite(r"(?:(?:^|[;:(])\s*)(?P<at>each|every)\s+(?:other\s+)?(?:opponent|player)s?\s+[a-z]",
            "the acting player takes ':' before what they do, e.g. 'each opponent: discard 1 card'"),
    Rewrite(r"\bchoose\s+(?:one|two|three)\s*:[^;]*?(?P<at>,)\s*or\b",
            "a menu's options are separated by '; or', e.g. 'choose one: draw 3 cards; or gain 2 fuel'"),
    # any statement with a head and ':' of its own, inside another body (issue 28 added heads: the
    # acting clauses 'target opponent:', abilities' 'once per turn:', durations' 'at the start of …:')
    Rewrite(r":\s*(?P<at>if|for\s+each|until|each\s+(?:other\s+)?(?:opponent|player)|the\s+player\s+to\s+your"
            r"\s+(?:left|right)|target\s+(?:opponent|player)|once\s+per\s+(?:turn|round)|at\s+the\s+(?:start|end)"
            r"\s+of)\b[^;:()]*:",
            "a body that holds a statement with a ':' of its own ('if', 'for each', 'until', an acting player "
            "such as 'each opponent', a duration) goes in parentheses, e.g. 'if 1 fuel: (if 1 gun: gain 1 vp)' "
            "or 'target opponent: (each player: gain 1 coin)'"),
    Rewrite(r"\buntil\s+(?P<at>you|there|your)\b",
            "repetition comes first, with a condition, "
            "e.g. 'until number of cards in your hand >= 7: draw 1 card'"),
    Rewrite(r"\b(?:reveal|look\s+at)\s+(?P<at>the\s+top)\b",
            "'reveal' and 'look at' take the cards and their pile, "
            "e.g. 'reveal 3 cards from your deck as r'"),
    # not after 'if'/'requires'/'until': there "or" joins conditions (issue 28)
    Rewrite(r"(?:^|[;:(])\s*(?!if\b|requires\b|until\b)[a-z]\w*\s+(?:\d+|an?)\s[^;:]*?\s(?P<at>or)\s+(?:\d+|an?)\s",
            "a choice between two things is a menu, e.g. 'choose one: gain 1 fuel; or gain 1 gun'"),
    Rewrite(r"(?P<at>\bthen)\s+[a-z]",
            "statements follow one another with ';', e.g. 'draw 2 cards; discard 1 card'"),
    Rewrite(r"\bif\s+(?P<at>you\s+have)\b",
            "a condition names what must be there, e.g. 'if 2 fuel: gain 1 vp' (you have at least 2 Fuel)"),
    Rewrite(r";\s*(?P<at>otherwise)\b",
            "'otherwise' continues its 'if' with no ';' before it, "
            "e.g. 'if 1 fuel: gain 1 gun otherwise: gain 1 fuel'", leads=("otherwise",)),
    # abilities and copying (issue 28): the shapes designers try first
    Rewrite(r"(?:^|[;(])\s*(?P<at>ally)\s*:",
            "an ally ability says its limit and its condition, in a slot of kind ability, e.g. "
            "'once per turn while a card with icon horde other than this card in your play area: gain 2 combat'",
            leads=("ally",)),
    Rewrite(r"\b(?P<at>once\s+(?:each|every|a))\s+(?:turn|round)\b",
            "an ability's limit reads 'once per turn' (or 'once per round'), e.g. 'once per turn: gain 2 combat'"),
    Rewrite(r"\bonce\s+per\s+(?:turn|round)\s*(?P<at>,|you\b|(?!while\b)[a-z]+)",
            "an ability's limit ends with ':' before what it does, e.g. 'once per turn: gain 2 combat' "
            "or 'once per turn while …: …'"),
    Rewrite(r"\bwhile\s+(?P<at>you\s+have)\b",
            "a 'while' condition names what must be there, e.g. 'while a card with icon horde other than "
            "this card in your play area: …'"),
    Rewrite(r"(?:^|[\s(:;])(?P<at>another)\s+(?!player\b|opponent\b)[a-z][a-z0-9_]*\b(?!'s)",
            "'another' is for players ('another player's hand'); another card is 'a card other than this "
            "card', e.g. 'copy a ship other than this card in your play area'"),
    # issue 28 (h28b): "any number of", "you may …" as designers first write them
    Rewrite(r"\bup\s+to\s+(?P<at>any)\b",
            "'any number of' stands alone, e.g. 'discard any number of cards from your hand'"),
    Rewrite(r"\bany\s+(?P<at>number)\s+(?!of\b)[a-z]",
            "'any number' takes 'of', e.g. 'discard any number of cards from your hand'"),
    Rewrite(r"\b(?:you|they)\s+may\s*(?P<at>:)",
            "'you may' is followed by what you may do, without ':', e.g. 'you may trash a card from your hand'; "
            "a cost goes in parentheses: 'you may (discard 1 card from your hand: gain 2 coin)'"),
    Rewrite(r"\b(?:you|they)\s+may\s+(?P<at>choose\s+to)\b",
            "'you may' is followed by the action itself, e.g. 'you may trash a card from your hand'"),
    Rewrite(r"(?:^|[;:(])\s*(?P<at>may|optionally)\s+[a-z]",
            "an optional statement says who may: 'you may trash a card from your hand' (in a trigger's body, "
            "'they may …' for the player the event is about)", leads=("may", "optionally")),
)

# First words of a statement that mean a row of NOT_YET or REWRITES (see ``not_yet_lead``).
NOT_YET_LEADS: frozenset[str] = frozenset(w for row in (*NOT_YET, *REWRITES) for w in row.leads)


@lru_cache(maxsize=1)
def _not_yet_compiled() -> tuple[tuple[str, re.Pattern], ...]:
    """(message, pattern) of every row of NOT_YET, then of REWRITES."""
    rows = [(f"{row.construct} is not in the language yet: {row.hint}", row.pattern) for row in NOT_YET]
    rows += [(row.message, row.pattern) for row in REWRITES]
    return tuple((message, re.compile(pattern)) for message, pattern in rows)


def _not_yet(text: str, at: int) -> Help | None:
    """A construct the language lacks, or writes otherwise, at or before where the parser stopped."""
    for message, rx in _not_yet_compiled():
        for m in rx.finditer(text):
            if m.start("at") > at:
                break
            return Help(message, m.start("at"), m.end("at") - m.start("at"))
    return None


def not_yet_lead(text: str, verb: str, offset: int) -> Help | None:
    """A text that parsed, but only because Lark took a construct's first word for a verb ("…;
    otherwise: …" reads as the cost of a verb "otherwise"). None when ``verb`` is a real verb of
    some engine, or when no row of NOT_YET or REWRITES explains the text there."""
    if verb not in NOT_YET_LEADS or verb in _known_verbs():
        return None
    return _not_yet(text, offset)


# --- 2. mistakes seen in the text ------------------------------------------------------------------

_WORD = re.compile(r"[a-z][a-z0-9_]*|\d+|'s|<=|>=|!=|\S")
_WORD_OR_NUMBER = re.compile(r"[a-z0-9]")


@dataclass(frozen=True)
class Statement:
    text: str  # the whole effect
    start: int  # where this statement starts (after its ';' and spaces)
    end: int  # where it ends (its ';' or the end of the text)

    @property
    def body(self) -> str:
        return self.text[self.start:self.end]



def _tokens_before(text: str, at: int) -> list[re.Match]:
    return list(_WORD.finditer(text, 0, at))


def _statement_at(text: str, at: int) -> Statement:
    start = text.rfind(";", 0, at) + 1 if at > 0 else 0
    while start < len(text) and text[start].isspace():
        start += 1
    end = text.find(";", at)
    return Statement(text, start, len(text) if end < 0 else end)


def _parens(text: str, at: int, st: Statement) -> Help | None:
    opened: list[int] = []
    for i, ch in enumerate(text):
        if ch == "(":
            opened.append(i)
        elif ch == ")":
            if not opened:
                return Help("this ')' closes a '(' that was never opened", i)
            opened.pop()
    if opened:
        return Help("this '(' is never closed: add the ')' that ends it", opened[-1])
    return None


def _head_needs_colon(keyword: str, example: str) -> Callable[[str, int, Statement], Help | None]:
    """`if …` / `for each …` with no ':' before its body. ``at`` is where the parser stopped."""
    def rule(text: str, at: int, st: Statement) -> Help | None:
        body = st.body
        before = _tokens_before(text, at)
        # only when the parser stopped at a word or number after one: past the condition, where the
        # ':' belongs ("if 3 fuel gain 1 gun"); a mistake inside the condition is the examples' job
        if not (at < len(text) and _WORD_OR_NUMBER.fullmatch(text[at]) and before
                and _WORD_OR_NUMBER.match(before[-1].group())):
            return None
        if re.match(keyword + r"\b", body) and ":" not in body:
            return Help(f"'{keyword}' needs ':' after its {'condition' if keyword == 'if' else 'selection'}, "
                        f"before what happens, e.g. '{example}'", st.start, len(keyword))
        return None
    return rule


def _choose_without_as(text: str, at: int, st: Statement) -> Help | None:
    body = st.body
    if re.match(r"choose\s+(?:one|two|three)\b", body):
        return None  # a menu: "choose one: …; or …"
    if body.startswith("choose") and not re.search(r"\bas\b", body):
        return Help("'choose' names what is chosen: add 'as' and a name, then use the name, "
                    "e.g. 'choose 1 card in your hand as c; discard c'", st.start, len("choose"))
    return None


# Words that begin a selector or a quantity: a name bound "as a" can never be used afterwards,
# since "discard a" reads "a" as the article of a noun that does not follow.
RESERVED_NAMES = ("a", "an", "all", "up", "the", "your", "enemy", "another", "any", "each", "number", "x")


def _reserved_name(text: str, at: int, st: Statement) -> Help | None:
    """"choose 1 card as a; discard a": the name is a word the language already reads otherwise."""
    for m in re.finditer(r"\bas\s+([a-z]+)\b", text[:at + 1]):
        if m.group(1) in RESERVED_NAMES:
            return Help(f"'{m.group(1)}' cannot name a choice: the language reads it as the word "
                        f"'{m.group(1)}' wherever the name is used; pick another name, e.g. 'as c'",
                        m.start(1), len(m.group(1)))
    return None


def _with_field_at_least(text: str, at: int, st: Statement) -> Help | None:
    """"with power at least 3": after "with FIELD", "at" starts a phrase ("at the bottom of …"), so
    the language writes the bound after the number."""
    m = re.search(r"\bwith\s+([a-z][a-z_ ]*?)\s+at\s+least\s+(\S+)", text[st.start:st.end])
    if m is None or st.start + m.start() > at:
        return None
    field, value = m.group(1), m.group(2).rstrip(";:")
    return Help(f"after 'with {field}', write the bound after the number: 'with {field} {value} or more' "
                "('at' there would start a phrase; 'costing at least …' works for the cost)",
                st.start + m.start(0) + len("with ") + len(field) + 1, len("at least"))


@lru_cache(maxsize=1)
def _known_verbs() -> frozenset[str]:
    from runtime.verbs import REGISTRY, verbs_for

    verbs_for("core")  # importing the engines registers their verbs
    return frozenset(name for table in REGISTRY.values() for name in table)


def _comma_for_semicolon(text: str, at: int, st: Statement) -> Help | None:
    """"gain 2 fuel, draw 1 card": the comma lists objects; a new statement needs ';'."""
    for m in re.finditer(r",\s*([a-z][a-z0-9_]*)", text[st.start:st.end]):
        if m.start() + st.start > at:
            break
        if m.group(1) in _known_verbs():
            return Help(f"a comma lists the objects of one verb ('spend 1 gun, 1 worker'); "
                        f"to start another statement with '{m.group(1)}', write ';' instead",
                        st.start + m.start())
    return None


def _statement_without_semicolon(text: str, at: int, st: Statement) -> Help | None:
    """"gain 1 fuel if 1 gun: …": a statement keyword inside another statement, where ';' is missing
    before it (Lark reads such a word as part of a noun, "fuel if", and stops later)."""
    m = re.compile(r"(?<![:\s])\s+(?P<kw>if|for\s+each|requires)\b").search(text, st.start, at + 1)
    if m is None or m.start() <= st.start:
        return None
    kw = m.group("kw")
    return Help(f"'{kw}' starts a new statement: put ';' before it", m.start("kw"), len(kw))


def _amount_after_colon(text: str, at: int, st: Statement) -> Help | None:
    """"if 1 fuel: 2 gun": the verb of what happens is missing (in any body, whatever its state)."""
    before = _tokens_before(text, at)
    if before and before[-1].group() == ":" and at < len(text) and text[at].isdigit():
        return Help("after ':' comes what happens, starting with its verb, e.g. 'if 3 fuel: gain 1 gun'", at,
                    len(re.match(r"\d+", text[at:]).group()))
    return None


# English prepositions that begin no phrase of the language (grammar/effects.lark's ``prep`` and the
# fixed "instead of", "on top of", "at the bottom of", "until" do). Lark reads such a word as one more
# word of the noun before it ("fuel under") and stops at the word after it, where "put ';' before it"
# would only mislead (issue 26, item 7): the preposition is the mistake, and is named.
_STRAY_PREPS = frozenset({"under", "over", "beneath", "below", "above", "behind", "beside", "between", "by",
                          "through", "across", "toward", "towards", "within", "inside", "upon", "off",
                          "out", "near", "beyond", "underneath", "atop"})
_PHRASE_WORDS = "'from', 'to', 'onto', 'into', 'on', 'at', 'instead of' or 'until'"


def _stray_preposition(text: str, at: int, st: Statement) -> Help | None:
    """"gain 1 fuel under 1 of your locations": 'under' is no preposition of the language."""
    words = [m for m in _tokens_before(text, at) if m.start() >= st.start]
    if len(words) < 2 or words[-1].group() not in _STRAY_PREPS or not re.match(r"[a-z]", words[-2].group()):
        return None
    word = words[-1].group()
    return Help(f"'{word}' is not a word of effect text here: the phrases a verb takes after its objects begin "
                f"with {_PHRASE_WORDS} (read as it is, '{words[-2].group()} {word}' would be one name)",
                words[-1].start(), len(word))


# --- players by position and by choice, as designers first write them (issue 28, item 4) ---------
_TARGET_HEAD = re.compile(r"target\s+(opponent|player|other\s+player)s?\b(?!\s*:)")
_NEIGHBOUR_HEAD = re.compile(r"the\s+player\s+to\s+(?:your|their|the)\s+(left|right)\b(?!\s*:)(?!'s)")
_NEIGHBOUR_OWNER = re.compile(r"(?:the\s+)?player\s+to\s+(?:your|their|the)\s+(left|right)'s"
                              r"|of\s+the\s+player\s+to\s+(?:your|their|the)\s+(left|right)\b")


def _players_by_position(text: str, at: int, st: Statement) -> Help | None:
    """"target opponent discards a card", "the player to your left discards a card", "the player to
    your left's hand": name the forms the language has."""
    body = st.body
    m = _NEIGHBOUR_OWNER.search(body)
    if m is not None:
        side = m.group(1) or m.group(2)
        return Help(f"whose zone it is by seat is written '{side} neighbour's': e.g. 'gain 1 coin per card in "
                    f"{side} neighbour's tableau'; to have that player act, write 'the player to your {side}: …'",
                    st.start + m.start(), len(m.group()))
    m = _TARGET_HEAD.match(body)
    if m is not None:
        return Help("one chosen opponent acts in a clause: write 'target opponent: ' and what they do as "
                    "'you' would, e.g. 'target opponent: discard 1 card from your hand' ('your' is theirs)",
                    st.start, len(m.group()))
    m = _NEIGHBOUR_HEAD.match(body)
    if m is not None:
        return Help(f"a neighbour acts in a clause: write 'the player to your {m.group(1)}: ' and what they do "
                    f"as 'you' would, e.g. 'the player to your {m.group(1)}: discard 1 card from your hand'",
                    st.start, len(m.group()))
    return None


TEXT_RULES: tuple[Callable[[str, int, Statement], Help | None], ...] = (
    _players_by_position,
    _stray_preposition,
    _head_needs_colon("if", "if 1 gun: gain 2 fuel"),
    _head_needs_colon("for each", "for each of your locations: gain 1 fuel"),
    _choose_without_as,
    _reserved_name,
    _with_field_at_least,
    _comma_for_semicolon,
    _statement_without_semicolon,
    _amount_after_colon,
)


# --- 3. malformed examples, matched by parser state ------------------------------------------------


@dataclass(frozen=True)
class Example:
    message: str  # may use {tok} (the offending word), {prev} (the word before it), both quoted; {prev_word}
    texts: tuple[str, ...]  # malformed texts that fail the way this message explains
    caret: str = "here"  # "here": on the offending word; "prev": on the word before it


EXAMPLES: tuple[Example, ...] = (
    Example("'and' joins the statements inside an 'if', a 'for each' or a cost; between statements "
            "write ';' ('gain 2 fuel; draw 1 card')",
            ("gain 2 fuel and draw 1 card", "draw 1 card and", "x is 2 and gain x fuel")),
    Example("an amount must be followed by what it counts, e.g. 'gain 2 fuel', 'draw (x + 1) cards'",
            ("gain 2", "gain 2;", "if 1 fuel: gain 2", "gain 1 fuel, 2", "gain 2:", "gain 2 2 fuel",
             "gain x"),
            caret="prev"),
    Example("an amount must be followed by what it counts, e.g. 'draw up to 2 cards'",
            ("draw up to 2", "draw up to 2;", "raze 1 of", "raze up to 2 of;", "draw up to 2 2 cards"),
            caret="prev"),
    Example("{tok} cannot follow {prev}: list the objects of one verb with ',' ('spend 1 gun, 1 worker') "
            "and start another statement with ';'",
            ("gain 1 fuel 2 gun", "gain 1 fuel (x) gun")),
    Example("'per' needs what it counts, e.g. 'lose 1 vp per deployed machine'",
            ("gain 1 vp per", "gain 1 vp per ;")),
    Example("'up to' needs a number, e.g. 'draw up to 2 cards'",
            ("draw up to cards", "draw up to", "draw up to x cards", "draw up to (1) cards")),
    Example("{prev} needs a number or 'number of …' after it, e.g. '{prev_word} 2'",
            ("x is 2 +", "draw (2 +) cards", "if number of cards in your hand >", "x is 2 * ;",
             "draw (2 - ) cards", "if 2 >= : gain 1 fuel", "if 2 >= and", "x is (", "draw (", "draw ()"),
            caret="prev"),
    Example("';' with no statement before it: remove it, or write the statement that goes here",
            ("gain 2 fuel;; gain 1 gun", ";gain 1 fuel", ";")),
    Example("a statement starts with its verb, e.g. 'gain 2 fuel', 'draw 1 card'",
            ("2 fuel", "gain 1 fuel; 2 fuel", "(2) fuel", "spend 1 gun: 2 fuel")),
    Example("after ':' comes what happens, e.g. 'if 3 fuel: gain 1 gun'",
            ("if 1 fuel:", "if 1 fuel: ;", "if 1 fuel: : gain 1 gun", "for each location:",
             "for each location: ;", "for each location: : gain 1 fuel", "if 1 fuel: 2 gun",
             "for each location: 2 fuel")),
    Example("a cost needs what it pays for after ':', e.g. 'spend 1 gun: gain 1 vp'",
            ("spend 1 gun:", "spend 1 gun: ;", "spend 1 gun::")),
    Example("'if' needs a condition and ':' before what happens, e.g. 'if 3 ruins: gain 1 fuel'",
            ("if 3 fuel", "if 3 fuel;", "if number of cards in your hand >= 3", "if x > 1")),
    Example("'for each' needs ':' before what happens, e.g. 'for each of your locations: gain 1 fuel'",
            ("for each location", "for each location as l", "for each location;")),
    Example("'as' needs the name to call the choice by, e.g. 'choose 1 card in your hand as c'",
            ("choose 1 card as", "choose 1 card as ;", "for each location as: gain 1 fuel",
             "choose 1 card as 2")),
    Example("{prev} needs what it names after it: a zone, a player or a thing, e.g. 'from your hand'",
            ("gain 2 fuel from your", "gain 2 fuel from", "draw 1 card from", "gain 2 fuel to",
             "draw 1 card from another", "draw 1 card from each")),
    Example("'with icon' needs an icon name, e.g. 'with icon green'",
            ("raze 1 location with icon", "raze 1 location with icon ;")),
    Example("'or' needs another icon name after it, e.g. 'with icon green or red'",
            ("raze 1 location with icon green or", "raze 1 location with icon green or ;")),
    Example("'s needs the thing that belongs to it, e.g. 'opponent's hand'",
            ("draw 1 card from opponent's", "draw 1 card from opponent's ;", "gain 2 fuel's")),
    Example("'instead' is written 'instead of …', e.g. 'gain 2 fuel instead of its owner'",
            ("gain 2 fuel instead", "gain 2 fuel instead ;")),
    Example("'requires' needs a condition, e.g. 'requires 1 card in your hand'",
            ("requires", "requires ;")),
    Example("'x is' needs a quantity, e.g. 'x is number of cards in your hand'",
            ("x is", "x is ;")),
    Example("'(min' needs a number and ')', e.g. 'x is number of fuel (min 1)'",
            ("x is 2 (min", "x is 2 (min)", "x is 2 (min 1", "x is 2 (min 1 ;")),
    Example("'with' and 'without' need a word after them, e.g. 'without feature'",
            ("raze 1 location with", "raze 1 location without", "raze 1 location without ;")),
    Example("'number of' needs what to count, e.g. 'number of cards in your hand'",
            ("x is number of", "x is number", "x is number of ;", "if number > 2: gain 1 fuel")),
    Example("'matching' needs a name chosen before, "
            "e.g. 'choose 1 icon of symbol card as i; gain 1 good matching i'",
            ("gain 1 good matching", "gain 1 good matching ;")),
)


@dataclass(frozen=True)
class _Entry:
    example: Example
    accepts: frozenset
    token: tuple[str, str]  # (type, value) of the example's offending token


def _signature(exc: UnexpectedInput) -> tuple | None:
    """The LALR state the parser stopped in. Lark's match_examples also compares the depth of the
    stack; leaving it out lets one example stand for the same mistake at any nesting ("gain 2" at
    the top and inside an 'if' body); the accepted tokens are still compared."""
    state = getattr(exc, "state", None)
    return None if state is None else state.position


def _index() -> dict[tuple, list[_Entry]]:
    """Every example parsed once, on the first error that needs them, then kept for the process."""
    return _index_for(_lark())


@lru_cache(maxsize=2)
def _index_for(parser) -> dict[tuple, list[_Entry]]:
    """The index of one parser instance: state numbers are the instance's own (a parser built afresh
    may number its LALR states differently from tables loaded from the cache file)."""
    index: dict[tuple, list[_Entry]] = {}
    for example in EXAMPLES:
        for text in example.texts:
            try:
                parser.parse(text)
            except UnexpectedInput as exc:
                key = _signature(exc)
                if key is None:
                    continue
                tok = getattr(exc, "token", None)
                accepts = frozenset(getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ())
                index.setdefault(key, []).append(
                    _Entry(example, accepts, (getattr(tok, "type", ""), str(tok) if tok is not None else "")))
            # an example that parses (the grammar grew) is simply not indexed; tests/test_syntaxhelp.py
            # fails on it so that the catalogue is brought up to date
    return index


def match_example(exc: UnexpectedInput) -> Example | None:
    """The example that fails like ``exc``: same state and accepted tokens, then the exact token,
    else a token of the same kind.

    The choice ``exc.match_examples(parse, …, token_type_match_fallback=True)`` makes, made from
    the cached index instead of parsing every example again, less its last resort (any example
    in the same state, whatever the token): "1 fuel" missing its verb fails in the state of
    "gain 1 fuel;; …", and the message for ';;' would be wrong for it.
    """
    key = _signature(exc)
    if key is None:
        return None
    accepts = frozenset(getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ())
    tok = getattr(exc, "token", None)
    tok_key = (getattr(tok, "type", ""), str(tok) if tok is not None else "")
    same = [e for e in _index().get(key, ()) if not isinstance(exc, UnexpectedToken) or e.accepts == accepts]
    for e in same:
        if e.token == tok_key:
            return e.example
    for e in same:
        if e.token[0] == tok_key[0]:
            return e.example
    return None


# --- what the parser would have accepted, in words --------------------------------------------------

_ACCEPT_WORDS = (  # (terminals, words), in the order a sentence lists them
    (("INT",), "a number"),
    (("X",), "x"),
    (("NUMBER",), "'number of …'"),
    (("NAME",), "a word"),
    (("YOUR", "ENEMY"), "an owner such as 'your'"),  # 'another', 'each' … are said as keywords
    (("CMP",), "a comparison such as '>=' or '<'"),
    (("PLUS", "MINUS", "STAR", "SLASH"), "an operator such as '+'"),
    (("AS",), "'as' and a name"),
    (("COLON",), "':'"),
    (("SEMICOLON",), "';' and the next statement"),
    (("SEMI_OR",), "'; or' and another option"),
    (("RPAR",), "')'"),
    (("$END",), "the end of the effect"),
)


@lru_cache(maxsize=1)
def _literals() -> dict[str, str]:
    """Terminal name → the literal text it stands for ("LPAR" → "("), from the grammar itself;
    a terminal made by a regular expression has no entry, and is never shown."""
    return {t.name: t.pattern.value for t in _lark().terminals if t.pattern.type == "str"}


def expected_in_words(accepts) -> str:
    """ "a number or a word": what may come here, in words (never the grammar's terminal names)."""
    names = set(accepts or ())
    said = [words for terms, words in _ACCEPT_WORDS if names.intersection(terms)]
    known = {t for terms, _ in _ACCEPT_WORDS for t in terms}
    # the other terminals are the grammar's literal words and signs ("to", "of", "("): say them
    literals = _literals()
    said += sorted(f"'{literals[t]}'" for t in names - known if t in literals)
    if not said:
        return ""
    if len(said) > 3:
        said = said[:3] + ["…"]
        return ", ".join(said)
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]


# --- the entry point ----------------------------------------------------------------------------


def explain(text: str, exc: UnexpectedInput) -> Help:
    """What to tell the designer about ``exc``, raised while parsing ``text``, and where.

    The most specific explanation wins: a construct the language lacks, then a character that is
    never part of effect text, unbalanced parentheses, the text rules, the examples; last, what
    the parser would have accepted there, in words.
    """
    stop, length, shown = _where(text, exc)  # where the parser stopped
    at = stop  # where the caret goes
    st = _statement_at(text, min(at, len(text)))
    before = _tokens_before(text, at)
    prev = before[-1] if before else None
    if shown is None and prev is not None:  # the text ends too early: the last word is the culprit
        at, length = prev.start(), len(prev.group())
    found = _not_yet(text, at)
    if found is None and isinstance(exc, UnexpectedCharacters):
        found = _bad_character(text, at)
    if found is None:
        found = _parens(text, at, st)
    for rule in TEXT_RULES:
        if found is None:
            found = rule(text, stop, st)
    if found is not None:
        return found
    example = match_example(exc)
    if example is not None:
        word = prev.group() if prev else ""
        values = {"tok": _quoted(shown or ""), "prev": _quoted(word), "prev_word": word}
        if example.caret == "prev" and prev is not None:
            return Help(example.message.format(**values), prev.start(), len(prev.group()))
        return Help(example.message.format(**values), at, length)
    accepts = set(getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ())
    if shown is not None and accepts & {"$END", "SEMICOLON"} and re.match(r"[a-z0-9(]", shown):
        # the statement could end just before: "gain 2 fuel with icon green red"
        return Help(f"{_quoted(shown)} comes after a complete statement: remove it, or put ';' before it "
                    "to start another statement", at, length)
    if shown == "'s" and prev is not None:
        return Help(f"'s cannot follow {_quoted(prev.group())} here: a possessive names whose zone or card "
                    "it is, "
                    "after 'of', 'from' or 'in' ('top card of another player's discard pile')", at, length)
    wanted = expected_in_words(accepts)
    if shown is None:
        where = f" after {_quoted(prev.group())}" if prev else ""
        return Help(f"the effect ends too early{where}" + (f": expected {wanted}" if wanted else ""),
                    at, length)
    return Help(f"{_quoted(shown)} does not fit here" + (f": expected {wanted}" if wanted else ""),
                at, length)


def _quoted(word: str) -> str:
    """'gain', and 's as it is (its apostrophe already marks it)."""
    return word if word.startswith("'") else f"'{word}'"


def _where(text: str, exc: UnexpectedInput) -> tuple[int, int, str | None]:
    """(offset, length, the offending word or None at the end of the text)."""
    if isinstance(exc, UnexpectedCharacters):
        return exc.pos_in_stream, 1, text[exc.pos_in_stream:exc.pos_in_stream + 1]
    tok = getattr(exc, "token", None)
    if tok is None or tok.type == "$END":
        end = len(text.rstrip())
        return end, 1, None
    return tok.start_pos, max(1, len(str(tok))), str(tok)


def _bad_character(text: str, at: int) -> Help:
    ch = text[at] if at < len(text) else ""
    if ch.isupper():
        return Help(f"unexpected capital '{ch}': effect text is written in lower case", at)
    if ch in "\"'`":
        return Help(f"effect text has no quotes: remove this {ch}", at)
    if ch in ".!?":
        return Help(f"effect text has no '{ch}': end the effect without it, and separate statements "
                    "with ';'", at)
    if ch == "&":
        return Help("write 'and' inside an 'if' or a cost, ';' between statements, not '&'", at)
    return Help(f"the character {ch!r} is not part of effect text (words, numbers, ';', ':', ',', "
                "'(', ')', '+', '-', '*' and comparisons)", at)
