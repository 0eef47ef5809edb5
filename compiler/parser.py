"""Stage 3 — parse: effect text into the AST of compiler/ast.py, with spans.

One Lark LALR parser in strict mode (no shift/reduce conflicts tolerated), built once per process
and cached. Syntax errors become diagnostics with the offset of the offending token, which the
caller maps back to the YAML file's line and column.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark import Token, Tree
from lark.exceptions import UnexpectedInput, VisitError

from . import ast as A
from .grammar import _lark
from .syntaxhelp import NOT_YET_LEADS, explain, not_yet_lead


@dataclass(frozen=True)
class SyntaxProblem:
    message: str
    offset: int
    length: int = 1
    code: str = "E301"


# The largest number an effect text may write. No printed card counts past a few dozen; a bigger
# literal is a typo, and a huge one would make one verb call run (or allocate) without end, or
# (4,301+ digits) not even convert. Refused where a number token becomes a number (E320), so the
# checker and the runtime never see one. docs/language.md and docs/diagnostics.md document it.
MAX_LITERAL = 999


class NumberTooLarge(Exception):
    def __init__(self, token: Token):
        super().__init__(str(token))
        self.token = token


def number(tok: Token) -> int:
    """An INT token as a number, refusing one past MAX_LITERAL (checked on the digits first, so a
    4,301-digit literal never reaches ``int()``)."""
    digits = str(tok).lstrip("0") or "0"
    if len(digits) > len(str(MAX_LITERAL)) or int(digits) > MAX_LITERAL:
        raise NumberTooLarge(tok)
    return int(digits)


def _too_large(exc: NumberTooLarge) -> SyntaxProblem:
    tok = exc.token
    shown = str(tok) if len(tok) <= 12 else f"{str(tok)[:8]}… ({len(tok)} digits)"
    return SyntaxProblem(f"the number {shown} is larger than {MAX_LITERAL}, the largest an effect may use",
                         tok.start_pos or 0, len(tok), "E320")


def _span(meta) -> A.Span:
    if getattr(meta, "empty", True):
        return A.NO_SPAN
    return A.Span(meta.start_pos, meta.end_pos)


def _tspan(tok: Token) -> A.Span:
    return A.Span(tok.start_pos, tok.end_pos)


class _ToAst:
    """Parse tree → AST. One method per rule (or alias), called as ``method(meta, *children)``.

    A small recursive walk of our own instead of ``lark.Transformer`` with ``v_args(meta=True)``: Lark
    builds a wrapper object for every callback it makes that way, which was a third of parse time.
    """

    def __init__(self, text: str = ""):
        self.text = text  # the text parsed: numbers are read from it (see _shape)

    def transform(self, tree):
        children = [self.transform(c) if type(c) is Tree else c for c in tree.children]
        method = getattr(self, tree.data, None)
        if method is None:  # pragma: no cover - every rule of the grammar has a method
            raise TypeError(f"no AST for grammar rule {tree.data!r}")
        return method(tree.meta, *children)

    def _digits(self, tok: Token) -> Token:
        """An INT token with the digits of the text itself (the tree may be its shape's)."""
        return tok.update(value=self.text[tok.start_pos:tok.end_pos]) if self.text else tok

    # statements
    def start(self, meta, *stmts):
        return A.Effect(tuple(stmts), _span(meta))

    def requires(self, meta, cond):
        return A.Requires(cond, _span(meta))

    def let(self, meta, *items):
        # items: [the?] quantity [min_clause] — "the" is an anonymous keyword filtered out by Lark,
        # so we recover it from the source span via the transformer-less token scan below.
        value, minimum = items[-2], items[-1]
        return A.Let(value, minimum, False, _span(meta))

    def min_clause(self, meta, n):
        return number(self._digits(n))

    def choose(self, meta, sel, name):
        return A.Choose(sel, A.Name(str(name), _tspan(name)), _span(meta))

    def foreach(self, meta, of, sel, name, body):
        nm = A.Name(str(name), _tspan(name)) if name is not None else None
        return A.ForEach(sel, nm, body, of is not None, _span(meta))

    def if_(self, meta, cond, body, otherwise):
        return A.If(cond, body, otherwise, _span(meta))

    def otherwise(self, meta, body):
        return body

    def menu(self, meta, word, *bodies):
        options = tuple(b for b in bodies if not isinstance(b, Token))  # drop the "; or" tokens
        return A.Menu(_MENU_COUNTS[word], options, word, _span(meta))

    def menu_count(self, meta, tok):
        return str(tok)

    def each_acting(self, meta, other, words, body):
        text = words.text
        who = "each" if text in ("player", "players") and other is None else \
            ("opponent" if text in ("opponent", "opponents") else "other")
        return A.Acting(who, words, body, other is not None, _span(meta))

    def neighbour_acting(self, meta, words, side, body):
        return A.Acting(str(side), words, body, False, _span(meta))

    def target_acting(self, meta, words, body):  # "target opponent: …", "target player: …" (issue 28)
        return A.Acting("chosen" if words.text == "player" else "target", words, body, False, _span(meta))

    def until_(self, meta, cond, body):
        return A.RepeatUntil(cond, body, _span(meta))

    def when_(self, meta, word, subject, verb, sel, _sep, body):
        return A.Trigger(word, body, subject, _name(verb), sel, span=_span(meta))

    def when(self, meta, tok):
        return str(tok)

    def at_time(self, meta, moment, owner, period, body):
        return A.Trigger("at", body, moment=_name(moment), owner=owner, period=_name(period), span=_span(meta))

    def period_owner(self, meta, tok):
        return str(tok)

    def trigger_sep(self, meta, *tok):  # h28b: ":" or "," (printed cards use a comma)
        return None

    def first_time(self, meta, period, subject, verb, sel, _sep, body):
        return A.Trigger("first", body, subject, _name(verb), sel, period=_name(period), span=_span(meta))

    def subject_you(self, meta):
        return A.Subject("you", span=_span(meta))

    def subject_a(self, meta, article, noun):
        return A.Subject("a", str(noun), article, _span(meta))

    def subject_another(self, meta, noun):
        return A.Subject("another", str(noun), span=_span(meta))

    # abilities (issue 28)
    def once_ability(self, meta, period, cond, body):
        return A.Ability(body, _name(period), cond, _span(meta))

    def while_ability(self, meta, cond, body):
        return A.Ability(body, None, cond, _span(meta))

    def ability_while(self, meta, cond):
        return cond

    def history(self, meta, sel, subject, verb, period):
        return A.History(sel, subject, _name(verb), _name(period), _span(meta))

    def block(self, meta, *stmts):
        return tuple(stmts)

    def cost(self, meta, action, body):
        return A.Cost(action, body, _span(meta))

    def body(self, meta, *stmts):
        return tuple(stmts)

    def action(self, meta, verb, objects, *rest):
        *phrases, name = rest
        bound = A.Name(str(name), _tspan(name)) if name is not None else None
        return A.Action(A.Name(str(verb), _tspan(verb)), objects or (), tuple(phrases), bound, _span(meta))

    def objects(self, meta, *sels):
        return tuple(sels)

    def phrase(self, meta, prep, sel):
        return A.Phrase(str(prep), sel, _span(meta))

    def prep(self, meta, tok):
        return str(tok)

    def instead_of(self, meta, sel):
        return A.Phrase("instead of", sel, _span(meta))

    def on_top_of(self, meta, sel):
        return A.Phrase("on top of", sel, _span(meta))

    def at_bottom_of(self, meta, sel):
        return A.Phrase("at the bottom of", sel, _span(meta))

    def until(self, meta, words):
        return A.Until(words, _span(meta))

    # --- h28b (issue 28): optional statements, the event's player, durations, cost changes ------
    def optional(self, meta, body):
        return A.Optional(body, _span(meta))

    def may_body(self, meta, body):
        return (A.Optional(body, _span(meta)),)

    def event_acting(self, meta, body):
        return A.Acting("they", A.Words(("they",), _span(meta)), body, False, _span(meta))

    def they_body(self, meta, body):
        return (self.event_acting(meta, body),)

    def event_acting_may(self, meta, body):  # "they may …": they decide (an optional body of theirs)
        return self.event_acting(meta, (A.Optional(body, _span(meta)),))

    def they_may_body(self, meta, body):
        return (self.event_acting_may(meta, body),)

    def any_number(self, meta):
        return A.AnyNumber(_span(meta))

    def delayed_next(self, meta, moment, period, body):
        return A.Delayed(_name(moment), _name(period), "next", body, _span(meta))

    def delayed_this(self, meta, moment, period, body):
        return A.Delayed(_name(moment), _name(period), "this", body, _span(meta))

    def own_cost(self, meta, n, per):
        return A.OwnCost(number(self._digits(n)), per, _span(meta))

    def extra_turn(self, meta, period, noun):
        return A.ExtraTurn(_name(period), _name(noun), _span(meta))

    def immune(self, meta):
        return A.Immune(_span(meta))

    def immune_body(self, meta, immune):
        return (immune,)

    def cost_change(self, meta, period, sel, n):
        return A.CostChange(_name(period), sel, number(self._digits(n)), _span(meta))

    # selectors
    def selector(self, meta, amount, owner, words, filters, of, place, per):
        return A.Selector(amount, owner, words, filters or (), of, place, per, False, _span(meta))

    def selector_of(self, meta, amount, owner, words, filters, of, place, per):
        return A.Selector(amount, owner, words, filters or (), of, place, per, True, _span(meta))

    def of_clause(self, meta, ref):
        return ref

    def place(self, meta, ref):
        return ref

    def ref(self, meta, owner, words, of):
        return A.Ref(owner, words, of, _span(meta))

    def per(self, meta, every, ref, filters, place):
        return A.Per(ref, filters or (), place, int(self._digits(every)) if every is not None else None,
                     _span(meta))

    def words(self, meta, *toks):
        return A.Words(tuple(str(t) for t in toks), _span(meta))

    def your(self, meta):
        return A.Owner("your", span=_span(meta))

    def enemy(self, meta):
        return A.Owner("enemy", span=_span(meta))

    def possessive(self, meta, qualifier, name, _s):
        return A.Owner("possessive", str(name), qualifier, _span(meta))

    def qualifier(self, meta, tok):
        return str(tok)

    def filters(self, meta, *fs):
        return tuple(fs)

    def with_icon(self, meta, *names):
        return A.WithIcon(tuple(A.Name(str(n), _tspan(n)) for n in names), _span(meta))

    def with_(self, meta, words):
        return A.With(words, _span(meta))

    def without(self, meta, words):
        return A.Without(words, _span(meta))

    def matching(self, meta, name):
        return A.Matching(A.Name(str(name), _tspan(name)), _span(meta))

    def with_field(self, meta, words, bound):
        op, value, form = bound
        return A.FieldCompare(words, op, value, form, _span(meta))

    def costing(self, meta, bound):
        op, value, form = bound
        return A.FieldCompare(None, op, value, form, _span(meta))

    def costing_at_least(self, meta, value):
        return A.FieldCompare(None, ">=", value, "at least", _span(meta))

    def other_than(self, meta, words):
        return A.OtherThan(words, _span(meta))

    def not_(self, meta, f):
        return A.Not(f, _span(meta))

    # cards by name (issue 28)
    def named(self, meta, name):
        return A.SameName(_name(name), "named", _span(meta))

    def same_name(self, meta, words):  # "… as t", "… as this card"
        return A.SameName(A.Name(words.text, words.span), "same", _span(meta))

    def distinct_names(self, meta, sel):
        return A.DistinctNames(sel, _span(meta))

    def either(self, meta, first, _or, second):  # "A or B" between conditions (issue 28)
        conds = first.conditions if isinstance(first, A.Either) else (first,)
        return A.Either(conds + (second,), _span(meta))

    # bounds: (op, value, how it was written — the canonical printing writes it back)
    def bound_eq(self, meta, value):
        return ("=", value, "")

    def bound_exactly(self, meta, value):
        return ("=", value, "exactly")

    def bound_le(self, meta, value):
        return ("<=", value, "up to")

    def bound_or_less(self, meta, value):
        return ("<=", value, "or less")

    def bound_gt(self, meta, value):
        return (">", value, "more than")

    def bound_lt(self, meta, value):
        return ("<", value, "less than")

    def bound_ge(self, meta, value):
        return (">=", value, "or more")

    def field_of(self, meta, name, words):
        return A.FieldOf(A.Name(str(name), _tspan(name)), words, _span(meta))

    # amounts and quantities
    def num(self, meta, tok):
        return A.Num(number(self._digits(tok)), _span(meta))

    def x(self, meta):
        return A.X(_span(meta))

    def up_to(self, meta, tok):
        return A.UpTo(number(self._digits(tok)), _span(meta))

    def all(self, meta):
        return A.All(_span(meta))

    def one(self, meta, article):
        return A.One(article, _span(meta))

    def article(self, meta, tok):
        return str(tok)

    def amount(self, meta, q):  # parenthesised expression
        return q

    def small_amount(self, meta, q):
        return q

    def add(self, meta, a, b):
        return A.BinOp("+", a, b, _span(meta))

    def sub(self, meta, a, b):
        return A.BinOp("-", a, b, _span(meta))

    def mul(self, meta, a, b):
        return A.BinOp("*", a, b, _span(meta))

    def div(self, meta, a, b):
        return A.BinOp("/", a, b, _span(meta))

    def count(self, meta, sel):
        return A.Count(sel, _span(meta))

    # conditions
    def compare(self, meta, a, op, b):
        return A.Compare(a, str(op), b, _span(meta))

    def exists(self, meta, sel):
        return A.Exists(sel, _span(meta))


_MENU_COUNTS = {"one": 1, "two": 2, "three": 3}


def _name(tok: Token) -> A.Name:
    return A.Name(str(tok), _tspan(tok))


# A number's digits, as the grammar's INT reads them: ASCII digits not inside a word.
_NUMBER = re.compile(r"\b[0-9]+\b", re.ASCII)


def _shape(text: str) -> str:
    """The text with every number's digits made 1s ("gain 3 fuel; draw 12 cards" → "gain 1 fuel;
    draw 11 cards"): the same length, so every token keeps its offsets.

    Texts of one shape parse to the same tree but for the values of their INT tokens: the lexer and
    the LALR parser decide on token *types*, and a run of ASCII digits not inside a word is an INT
    whatever its digits (NAME starts with a letter, no keyword holds a digit). The AST reads INT
    values only through ``_ToAst._digits``, from the text itself. So cards that differ only in their
    numbers — most of a big set — share one Lark parse; tests/test_parser_tables.py compares every
    corpus text's AST with a direct parse of it."""
    return _NUMBER.sub(lambda m: "1" * len(m[0]), text)


@lru_cache(maxsize=1 << 14)
def _shape_tree(shape: str) -> Tree:
    return _lark().parse(shape)  # raises on a syntax error (not cached then)


@lru_cache(maxsize=1 << 16)
def parse_effect(text: str) -> tuple[A.Effect | None, SyntaxProblem | None]:
    """Parse one effect text. Returns (ast, None) or (None, problem).

    Cached by text: the AST is immutable and its spans are offsets into the text, so cards that
    print the same effect ("gain 1 fuel") share one parse. ``parse_effect.__wrapped__`` parses afresh.
    """
    return _parse(text, shapes=True)


def _parse(text: str, shapes: bool) -> tuple[A.Effect | None, SyntaxProblem | None]:
    """``shapes``: take the parse tree of the text's shape (``_shape``), made once per shape; a text
    whose shape does not parse is parsed itself, so a syntax error is worded from its own words."""
    # Card text is case-insensitive ("Gain 2 Fuel" reads like the printed card); offsets are kept
    # because lower-casing is applied only when it does not change the length.
    low = text.lower()
    if len(low) == len(text):
        text = low
    too_deep = _too_deep(text)
    if too_deep is not None:
        return None, SyntaxProblem(f"parentheses are nested more than {MAX_PARENS} deep", too_deep)
    too_long = _too_many_operators(text)
    if too_long is not None:
        return None, SyntaxProblem(f"more than {MAX_OPERATORS} arithmetic operators in one effect", too_long)
    try:
        tree = None
        if shapes:
            try:
                tree = _shape_tree(_shape(text))
            except UnexpectedInput:
                tree = None
        if tree is None:
            tree = _lark().parse(text)
        effect = _ToAst(text).transform(tree)
    except UnexpectedInput as exc:
        return None, _problem(text, exc)
    except VisitError as exc:
        if isinstance(exc.orig_exc, NumberTooLarge):
            return None, _too_large(exc.orig_exc)
        return None, SyntaxProblem("the effect is too deeply nested to read; split it into statements", 0)
    except NumberTooLarge as exc:  # raised outside a callback (Lark calls some directly)
        return None, _too_large(exc)
    except RecursionError:  # e.g. thousands of '+': no card says that
        return None, SyntaxProblem("the effect is too deeply nested to read; split it into statements", 0)
    missing = _missing_construct(effect, text)
    if missing is not None:
        return None, missing
    return _restore_the(effect, text), None


def _missing_construct(effect: A.Effect, text: str) -> SyntaxProblem | None:
    """Lark's contextual lexer reads a word such as "when" as a verb where no keyword fits, so "when
    you play this card: gain 1 fuel" parses as a cost of the verb "when". Say the construct is
    missing instead of letting the checker report an unknown verb. A set look-up per statement."""
    if not NOT_YET_LEADS:
        return None
    for st in effect.statements:
        act = st.action if isinstance(st, A.Cost) else st
        if isinstance(act, A.Action) and act.verb.text in NOT_YET_LEADS:
            found = not_yet_lead(text, act.verb.text, act.verb.span.start)
            if found is not None:
                return SyntaxProblem(found.message, found.offset, found.length)
    return None


MAX_PARENS = 20  # no printed card nests deeper; far deeper would exhaust the stack of later stages


def _too_deep(text: str) -> int | None:
    """Offset of the first parenthesis nested deeper than MAX_PARENS, or None."""
    if text.count("(") <= MAX_PARENS:
        return None
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > MAX_PARENS:
                return i
        elif ch == ")":
            depth -= 1
    return None


MAX_OPERATORS = 64


def _too_many_operators(text: str) -> int | None:
    """Offset of the first arithmetic operator past MAX_OPERATORS ('+', '-', '*' are never in names)."""
    seen = 0
    for i, ch in enumerate(text):
        if ch in "+-*":
            seen += 1
            if seen > MAX_OPERATORS:
                return i
    return None


def _restore_the(effect: A.Effect, text: str) -> A.Effect:
    """``x is the …``: Lark drops the optional keyword; keep whether it was written, for printing."""
    stmts = []
    for st in effect.statements:
        if isinstance(st, A.Let):
            written = text[st.span.start:st.span.end].split()
            st = A.Let(st.value, st.minimum, len(written) > 2 and written[2] == "the", st.span)
        stmts.append(st)
    return A.Effect(tuple(stmts), effect.span)


def _problem(text: str, exc: UnexpectedInput) -> SyntaxProblem:
    """A syntax error in the designer's words (the catalogue: compiler/syntaxhelp.py, whose example
    index is built on the first error of a process, never on the error-free path)."""
    found = explain(text, exc)
    return SyntaxProblem(found.message, found.offset, found.length)
