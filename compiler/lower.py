"""Lowering: a checked effect's AST into the typed IR (compiler/ir.py).

Runs only on effects the checker accepted; it reads the checker's resolution of each selector and
turns it, with the statement around it, into IR nodes: typed owners, amounts, filters and
quantities, the resolved verb, menus with their English labels, triggers with their event kinds.
After this, nothing downstream (codegen, ``explain``) looks at the AST or at the resolution table.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from runtime.events import EVENT_VERBS
from runtime.refs import Sel

from . import ast as A
from . import ir
from .printer import fmt
from .visitor import Visitor

_WHO = {w.value: w for w in ir.Who}


def lower(checked, labeller: Callable | None = None) -> ir.Effect:
    """The IR of a checked effect. ``labeller`` renders a menu option's statements in English."""
    low = _Lower(checked.resolved, labeller)
    statements = tuple(low.visit(st) for st in checked.effect.statements)
    return ir.Effect(statements, low.computed)


def lower_condition(checked) -> ir.Cond:
    """The IR of a bare-condition slot (parsed as ``requires <condition>``)."""
    return _Lower(checked.resolved, None).cond(checked.effect.statements[0].condition)


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
                      a.name.text if a.name is not None else None, strict, ir.Origin(a.span.start, a.span.end))

    def visit_Requires(self, r: A.Requires) -> ir.Require:
        return ir.Require(self.cond(r.condition), fmt(r))

    def visit_Let(self, s: A.Let) -> ir.LetX:
        return ir.LetX(self.expr(s.value), s.minimum, fmt(s))

    def visit_Choose(self, c: A.Choose) -> ir.Choose:
        return ir.Choose(self.query(c.selector), c.name.text)

    def visit_ForEach(self, f: A.ForEach) -> ir.ForEach:
        return ir.ForEach(self.query(f.selector), f.name.text if f.name else "it", self.body(f.body))

    def visit_If(self, s: A.If) -> ir.If:
        return ir.If(self.cond(s.condition), self.body(s.body),
                     self.body(s.otherwise) if s.otherwise is not None else None)

    def visit_Cost(self, c: A.Cost) -> ir.Cost:
        return ir.Cost(self.visit_Action(c.action, strict=True), self.body(c.body))

    def visit_Menu(self, m: A.Menu) -> ir.Menu:
        labels = tuple(self._label(o) for o in m.options)
        return ir.Menu(m.count, tuple(self.body(o) for o in m.options), labels)

    def _label(self, option) -> str:
        if self.labeller is not None:
            try:
                return self.labeller(option)
            except Exception:  # noqa: BLE001 - a label is a courtesy; the canonical text always works
                pass
        return "; ".join(fmt(o) for o in option)

    def visit_Acting(self, a: A.Acting) -> ir.Acting:
        return ir.Acting(a.who, self.body(a.body))

    def visit_RepeatUntil(self, r: A.RepeatUntil) -> ir.Repeat:
        return ir.Repeat(self.cond(r.condition), self.body(r.body))

    def visit_Trigger(self, t: A.Trigger) -> ir.Trigger:
        index = self.triggers
        self.triggers += 1
        if t.form == "at":
            return ir.Trigger(f"{t.period.text} {t.moment.text}", "you" if t.owner == "your" else "any", None,
                              None, index, self.body(t.body))
        return ir.Trigger(EVENT_VERBS[t.verb.text], subject_key(t.subject), self.query(t.selector),
                          t.period.text if t.form == "first" else None, index, self.body(t.body))

    # --- conditions and quantities -----------------------------------------------------------------
    def cond(self, c) -> ir.Cond:
        if isinstance(c, A.Compare):
            return ir.Compare(self.expr(c.left), c.op, self.expr(c.right))
        return ir.Exists(self.query(c.selector))

    def expr(self, q) -> ir.Expr:
        if isinstance(q, A.Num):
            return ir.Lit(int(q.value))
        if isinstance(q, A.X):
            return ir.XValue()
        if isinstance(q, A.BinOp):
            return ir.Arith(q.op, self.expr(q.left), self.expr(q.right))
        if isinstance(q, A.Count):
            return ir.CountOf(self.query(q.selector, counted=True))
        if isinstance(q, A.FieldOf):
            return ir.FieldOf(q.field.text.replace(" ", "_"), ir.Bound(q.of.text))
        if isinstance(q, A.History):
            return ir.History(EVENT_VERBS[q.verb.text], subject_key(q.subject), self.query(q.selector),
                              q.period.text)
        raise TypeError(type(q).__name__)

    # --- queries ------------------------------------------------------------------------------------
    def query(self, node: A.Selector, counted: bool = False) -> ir.Query:
        base: Sel = self.resolved[id(node)]
        q = self.from_sel(base, node)
        if counted or node.amount is None:
            return q
        return _with_amount(q, self.amount(node.amount))

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

    def from_sel(self, s: Sel, node=None) -> ir.Query:
        """A resolved Sel (the checker's) as a typed query; ``node``'s filters give computed bounds."""
        exprs = _bound_exprs(node, self) if node is not None else {}
        if not exprs and not _computed_anywhere(s):
            return _plain_query(s)  # the usual case: the same Sel always lowers the same way
        return self._query(s, exprs, node)

    def _query(self, s: Sel, exprs: dict, node) -> ir.Query:
        return ir.Query(
            s.category, s.noun, owner_of(s.owner), tuple(_filter(f, exprs) for f in s.filters), ir.Default(),
            self.from_sel(s.of) if s.of is not None else None,
            self.from_sel(s.place) if s.place is not None else None,
            self.from_sel(s.per, getattr(node, "per", None)) if s.per is not None else None,
            s.amount if isinstance(s.amount, int) else None)


def _computed_anywhere(s: Sel | None) -> bool:
    """Whether a filter of ``s`` or of its of/place/per references has a bound computed at run time."""
    if s is None:
        return False
    for f in s.filters:
        while f[0] == "not":
            f = f[1]
        if f[0] == "field" and isinstance(f[1][2], str):
            return True
    return _computed_anywhere(s.of) or _computed_anywhere(s.place) or _computed_anywhere(s.per)


@lru_cache(maxsize=1 << 14)
def _plain_query(s: Sel) -> ir.Query:
    """A Sel without computed bounds as a query (cached: texts repeat their selectors a lot)."""
    return ir.Query(
        s.category, s.noun, owner_of(s.owner), tuple(_filter(f, {}) for f in s.filters), ir.Default(),
        _plain_query(s.of) if s.of is not None else None,
        _plain_query(s.place) if s.place is not None else None,
        _plain_query(s.per) if s.per is not None else None,
        s.amount if isinstance(s.amount, int) else None)


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


def _with_amount(q: ir.Query, amount: ir.Amount) -> ir.Query:
    return ir.Query(q.category, q.key, q.owner, q.filters, amount, q.of, q.place, q.per, q.every)


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


@lru_cache(maxsize=1 << 14)
def to_sel(q: ir.Query) -> Sel:
    """The runtime's form of a query (runtime/refs.py): what generated code passes to the verbs.
    Amounts are applied by the caller (codegen), which alone knows which are computed at run time."""
    return Sel(q.category, q.key, q.every, _owner_text(q.owner), tuple(_filter_tuple(f) for f in q.filters),
               to_sel(q.of) if q.of is not None else None,
               to_sel(q.place) if q.place is not None else None,
               to_sel(q.per) if q.per is not None else None)


def _owner_text(owner: ir.Owner) -> str | None:
    if owner is None:
        return None
    if isinstance(owner, ir.Bound):
        return f"var:{owner.name}"
    return owner.value


def _filter_tuple(f: ir.Filter) -> tuple:
    if isinstance(f, ir.HasIcon):
        return ("icon", f.icons)
    if isinstance(f, ir.HasField):
        return ("with" if f.present else "without", f.field)
    if isinstance(f, ir.MatchingIcon):
        return ("matching", f"var:{f.bound.name}")
    if isinstance(f, ir.FieldCompare):
        return ("field", (f.field, f.op, f.key if f.key is not None else f.value))
    if isinstance(f, ir.OtherThan):
        return ("other", f"var:{f.card.name}" if isinstance(f.card, ir.Bound) else f"card:{f.card}")
    if isinstance(f, ir.Not):
        return ("not", _filter_tuple(f.filter))
    raise TypeError(type(f).__name__)


__all__ = ["lower", "lower_condition", "to_sel", "owner_of", "subject_key"]
