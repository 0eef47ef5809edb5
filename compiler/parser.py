"""Stage 3 — parse: effect text into the AST of compiler/ast.py, with spans.

One Lark LALR parser in strict mode (no shift/reduce conflicts tolerated), built once per process
and cached. Syntax errors become diagnostics with the offset of the offending token, which the
caller maps back to the YAML file's line and column.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast as A
from .resources import GRAMMAR_DIR

# Human names for the grammar's terminals, for "expected …" messages a designer can read.
_TERMINAL_WORDS = {
    "NAME": "a word", "INT": "a number", "SEMICOLON": "';'", "COLON": "':'", "COMMA": "','",
    "LPAR": "'('", "RPAR": "')'", "CMP": "a comparison (=, <, >, <=, >=, !=)", "PLUS": "'+'",
    "MINUS": "'-'", "STAR": "'*'", "POSSESSIVE": "'s", "$END": "the end of the effect",
}


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (GRAMMAR_DIR / "effects.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=True,
                cache=False)


@dataclass(frozen=True)
class SyntaxProblem:
    message: str
    offset: int
    length: int = 1


def _span(meta) -> A.Span:
    if getattr(meta, "empty", True):
        return A.NO_SPAN
    return A.Span(meta.start_pos, meta.end_pos)


def _tspan(tok: Token) -> A.Span:
    return A.Span(tok.start_pos, tok.end_pos)


@v_args(meta=True, inline=True)
class _ToAst(Transformer):
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
        return int(n)

    def choose(self, meta, sel, name):
        return A.Choose(sel, A.Name(str(name), _tspan(name)), _span(meta))

    def foreach(self, meta, of, sel, name, body):
        nm = A.Name(str(name), _tspan(name)) if name is not None else None
        return A.ForEach(sel, nm, body, of is not None, _span(meta))

    def if_(self, meta, cond, body):
        return A.If(cond, body, _span(meta))

    def cost(self, meta, action, body):
        return A.Cost(action, body, _span(meta))

    def body(self, meta, *stmts):
        return tuple(stmts)

    def action(self, meta, verb, objects, *phrases):
        return A.Action(A.Name(str(verb), _tspan(verb)), objects or (), tuple(phrases), _span(meta))

    def objects(self, meta, *sels):
        return tuple(sels)

    def phrase(self, meta, prep, sel):
        return A.Phrase(str(prep), sel, _span(meta))

    def prep(self, meta, tok):
        return str(tok)

    def instead_of(self, meta, sel):
        return A.Phrase("instead of", sel, _span(meta))

    def until(self, meta, words):
        return A.Until(words, _span(meta))

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

    def per(self, meta, ref, filters, place):
        return A.Per(ref, filters or (), place, _span(meta))

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

    # amounts and quantities
    def num(self, meta, tok):
        return A.Num(int(tok), _span(meta))

    def x(self, meta):
        return A.X(_span(meta))

    def up_to(self, meta, tok):
        return A.UpTo(int(tok), _span(meta))

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

    def count(self, meta, sel):
        return A.Count(sel, _span(meta))

    # conditions
    def compare(self, meta, a, op, b):
        return A.Compare(a, str(op), b, _span(meta))

    def exists(self, meta, sel):
        return A.Exists(sel, _span(meta))


_TRANSFORMER = _ToAst()


def parse_effect(text: str) -> tuple[A.Effect | None, SyntaxProblem | None]:
    """Parse one effect text. Returns (ast, None) or (None, problem)."""
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
        tree = _lark().parse(text)
        effect = _TRANSFORMER.transform(tree)
    except UnexpectedInput as exc:
        return None, _problem(text, exc)
    except (RecursionError, VisitError):  # e.g. thousands of '+': no card says that
        return None, SyntaxProblem("the effect is too deeply nested to read; split it into statements", 0)
    return _restore_the(effect, text), None


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


def _expected(exc) -> str:
    names = sorted({_TERMINAL_WORDS.get(t, f"'{t.lower()}'") for t in (getattr(exc, "expected", None) or [])
                    if not t.startswith("__")})
    if not names:
        return ""
    if len(names) > 6:
        names = names[:6] + ["…"]
    return "; expected " + ", ".join(names)


def _problem(text: str, exc: UnexpectedInput) -> SyntaxProblem:
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        off = len(text.rstrip())
        return SyntaxProblem("the effect ends too early" + _expected(exc), max(0, off - 1))
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        hint = ""
        if ch.isupper():
            hint = " (effect text is written in lower case)"
        return SyntaxProblem(f"unexpected character {ch!r}{hint}", exc.pos_in_stream)
    tok = exc.token
    return SyntaxProblem(f"unexpected '{tok}'" + _expected(exc), tok.start_pos, max(1, len(str(tok))))
