"""Lowering: a checked effect's AST into the typed IR (compiler/ir.py).

The last step of the check stage (``Checker.check`` calls it on the effects it accepts): it reads
the checker's resolution of each selector and turns it, with the statement around it, into IR
nodes: typed owners, amounts, filters and quantities, the resolved verb, menus with their English
labels, triggers with their event kinds. Each node keeps its AST node as ``syntax`` for the words
the designer chose. After this, nothing downstream looks at the resolution table.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from dataclasses import dataclass
from typing import Any

from runtime.events import EVENT_VERBS

from . import ast as A
from . import ir
from .printer import fmt
from .visitor import Visitor

_WHO = {w.value: w for w in ir.Who}


@dataclass(frozen=True)
class Sel:
    """The checker's working form of a resolved selector, turned into an ``ir.Query`` here and never
    seen past lowering. ``owner`` is ``you``, ``enemy``, … or ``var:<name>``; ``filters`` are
    ``(kind, value)`` pairs (``("icon", ("green",))``, ``("matching", "var:i")``). Still to go
    (issue 22): the checker building the IR directly."""

    category: str
    noun: str
    amount: Any = None  # on a per-selector: its "every" ("per 10 cards")
    owner: str | None = None
    filters: tuple = ()
    of: "Sel | None" = None
    place: "Sel | None" = None
    per: "Sel | None" = None


def lower(effect: A.Effect, resolved: dict, labeller: Callable | None = None) -> ir.Effect:
    """The IR of an effect the checker accepted, from the checker's resolutions (``resolved``, its
    working table). ``labeller`` renders a menu option's lowered statements in English."""
    low = _Lower(resolved, labeller)
    statements = tuple(low.visit(st) for st in effect.statements)
    return ir.Effect(statements, low.computed, effect)


def lower_condition(effect: A.Effect, resolved: dict) -> ir.Cond:
    """The IR of a bare-condition slot (parsed as ``requires <condition>``)."""
    return _Lower(resolved, None).cond(effect.statements[0].condition)


class _Lower(Visitor):
    def __init__(self, resolved: dict, labeller: Callable | None):
        self.resolved = resolved
        self.labeller = labeller
        self.triggers = 0
        self.computed = False  # a filter bound computed at run time: codegen binds it first

    def body(self, stmts) -> tuple:
        return tuple(self.visit(s) for s in stmts)

    # --- statements ------------------------------------------------------------------------------
    def visit_Action(self, a: A.Action, strict: bool = False) -> ir.Act:
        phrases = []
        for p in a.phrases:
            if isinstance(p, A.Until):
                phrases.append(("until", ir.Phase(p.phase.text.replace(" ", "_"))))
            else:
                phrases.append((p.prep, self.query(p.target)))
        return ir.Act(a.verb.text, tuple(self.query(o) for o in a.objects), tuple(phrases),
                      a.name.text if a.name is not None else None, strict, ir.Origin(a.span.start, a.span.end), a)

    def visit_Requires(self, r: A.Requires) -> ir.Require:
        return ir.Require(self.cond(r.condition), fmt(r), r)

    def visit_Let(self, s: A.Let) -> ir.LetX:
        return ir.LetX(self.expr(s.value), s.minimum, fmt(s), s)

    def visit_Choose(self, c: A.Choose) -> ir.Choose:
        return ir.Choose(self.query(c.selector), c.name.text, c)

    def visit_ForEach(self, f: A.ForEach) -> ir.ForEach:
        return ir.ForEach(self.query(f.selector), f.name.text if f.name else "it", self.body(f.body), f)

    def visit_If(self, s: A.If) -> ir.If:
        return ir.If(self.cond(s.condition), self.body(s.body),
                     self.body(s.otherwise) if s.otherwise is not None else None, s)

    def visit_Cost(self, c: A.Cost) -> ir.Cost:
        return ir.Cost(self.visit_Action(c.action, strict=True), self.body(c.body), c)

    def visit_Menu(self, m: A.Menu) -> ir.Menu:
        options = tuple(self.body(o) for o in m.options)
        labels = tuple(self._label(o, lowered) for o, lowered in zip(m.options, options))
        return ir.Menu(m.count, options, labels, m)

    def _label(self, option, lowered: tuple) -> str:
        if self.labeller is not None:
            try:
                return self.labeller(lowered)
            except Exception:  # noqa: BLE001 - a label is a courtesy; the canonical text always works
                pass
        return "; ".join(fmt(o) for o in option)

    def visit_Acting(self, a: A.Acting) -> ir.Acting:
        return ir.Acting(a.who, self.body(a.body), a)

    def visit_RepeatUntil(self, r: A.RepeatUntil) -> ir.Repeat:
        return ir.Repeat(self.cond(r.condition), self.body(r.body), r)

    def visit_Trigger(self, t: A.Trigger) -> ir.Trigger:
        index = self.triggers
        self.triggers += 1
        if t.form == "at":
            return ir.Trigger(f"{t.period.text} {t.moment.text}", "you" if t.owner == "your" else "any", None,
                              None, index, self.body(t.body), t)
        return ir.Trigger(EVENT_VERBS[t.verb.text], subject_key(t.subject), self.query(t.selector),
                          t.period.text if t.form == "first" else None, index, self.body(t.body), t)

    # --- conditions and quantities -----------------------------------------------------------------
    def cond(self, c) -> ir.Cond:
        if isinstance(c, A.Compare):
            return ir.Compare(self.expr(c.left), c.op, self.expr(c.right), c)
        return ir.Exists(self.query(c.selector), c)

    def expr(self, q) -> ir.Expr:
        if isinstance(q, A.Num):
            return ir.Lit(int(q.value))
        if isinstance(q, A.X):
            return ir.XValue()
        if isinstance(q, A.BinOp):
            return ir.Arith(q.op, self.expr(q.left), self.expr(q.right), q)
        if isinstance(q, A.Count):
            return ir.CountOf(self.query(q.selector, counted=True), q)
        if isinstance(q, A.FieldOf):
            return ir.FieldOf(q.field.text.replace(" ", "_"), ir.Bound(q.of.text), q)
        if isinstance(q, A.History):
            return ir.History(EVENT_VERBS[q.verb.text], subject_key(q.subject), self.query(q.selector),
                              q.period.text, q)
        raise TypeError(type(q).__name__)

    # --- queries ------------------------------------------------------------------------------------
    def query(self, node: A.Selector, counted: bool = False) -> ir.Query:
        base: Sel = self.resolved[id(node)]
        if counted or node.amount is None:
            return self.from_sel(base, node)
        return self.from_sel(base, node, self.amount(node.amount))

    def amount(self, a) -> ir.Amount:
        if isinstance(a, A.UpTo):
            return ir.UpToN(a.value)
        if isinstance(a, A.All):
            return ir.Every()
        if isinstance(a, A.One):
            return ir.Exactly(1)
        if isinstance(a, A.Num):
            return ir.Exactly(int(a.value))
        return ir.Computed(self.expr(a))

    def from_sel(self, s: Sel, node, amount: ir.Amount = ir.Default()) -> ir.Query:
        """A resolved Sel (the checker's) as a typed query, keeping ``node`` (a Selector, a Ref or a
        Per) as its syntax; ``node``'s filters give computed bounds ("costing up to (x + 1)")."""
        exprs = _bound_exprs(node, self)
        syntax = node.ref if isinstance(node, A.Per) else node
        filters = _filters(s.filters) if not exprs else tuple(_filter(f, exprs) for f in s.filters)
        return _query(
            s.category, s.noun, owner_of(s.owner), filters, amount,
            self.from_sel(s.of, syntax.of) if s.of is not None else None,
            self.from_sel(s.place, node.place) if s.place is not None else None,
            self.from_sel(s.per, node.per) if s.per is not None else None,
            s.amount if isinstance(s.amount, int) else None, syntax)


def _query(category, key, owner, filters, amount, of, place, per, every, syntax, _new=object.__new__) -> ir.Query:
    """``ir.Query(...)`` without the frozen dataclass's per-field ``object.__setattr__`` calls: a
    query per selector is lowering's most frequent node, and this halves its cost. The result is an
    ordinary ir.Query (same fields, equality and hash)."""
    q = _new(ir.Query)
    q.__dict__.update(category=category, key=key, owner=owner, filters=filters, amount=amount, of=of, place=place,
                      per=per, every=every, syntax=syntax)
    return q


@lru_cache(maxsize=1 << 14)
def _filters(filters: tuple) -> tuple:
    """Filters without computed bounds (cached: texts repeat their selectors a lot)."""
    return tuple(_filter(f, {}) for f in filters)


def owner_of(owner: str | None) -> ir.Owner:
    if owner is None:
        return None
    if owner.startswith("var:"):
        return ir.Bound(owner[4:])
    return _WHO["you" if owner == "your" else owner]


def subject_key(subject: A.Subject) -> str:
    """you | opponent | any — relative to the player whose card it is (Ctx.triggered)."""
    if subject.kind == "you":
        return "you"
    if subject.kind == "another" or subject.noun == "opponent":
        return "opponent"
    return "any"


def _bound_exprs(node, low: _Lower) -> dict:
    """Computed bounds of a selector's filters ("costing up to (x + 1)"), by their binding key."""
    out = {}
    for f in getattr(node, "filters", ()) or ():
        while isinstance(f, A.Not):
            f = f.filter
        if isinstance(f, A.FieldCompare) and not isinstance(f.value, A.Num):
            out["q:" + fmt(f.value)] = low.expr(f.value)
            low.computed = True
    return out


def _filter(f: tuple, exprs: dict) -> ir.Filter:
    kind, value = f
    if kind == "icon":
        return ir.HasIcon(tuple(value))
    if kind in ("with", "without"):
        return ir.HasField(value, kind == "with")
    if kind == "matching":
        return ir.MatchingIcon(ir.Bound(value[4:] if value.startswith("var:") else value))
    if kind == "field":
        name, op, bound = value
        if isinstance(bound, str):
            return ir.FieldCompare(name, op, exprs[bound], bound)
        return ir.FieldCompare(name, op, bound)
    if kind == "other":
        return ir.OtherThan(ir.Bound(value[4:]) if value.startswith("var:") else value[5:])
    if kind == "not":
        return ir.Not(_filter(value, exprs))
    raise TypeError(f"unknown filter {kind!r}")


__all__ = ["lower", "lower_condition", "owner_of", "subject_key", "Sel"]
