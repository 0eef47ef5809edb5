"""The canonical printer: AST back to effect text.

Canonical means: one space between words, ``; `` between statements, no optional words. Parsing
the printed text gives an AST equal to the original (tests/test_roundtrip.py holds this property).
"""
from __future__ import annotations

from functools import singledispatch

from . import ast as A


def print_effect(effect: A.Effect) -> str:
    return "; ".join(fmt(s) for s in effect.statements)


@singledispatch
def fmt(node) -> str:  # pragma: no cover - every node type has a case below
    raise TypeError(f"cannot print {type(node).__name__}")


@fmt.register
def _(n: A.Requires) -> str:
    return f"requires {fmt(n.condition)}"


@fmt.register
def _(n: A.Let) -> str:
    the = "the " if n.the else ""
    tail = f" (min {n.minimum})" if n.minimum is not None else ""
    return f"x is {the}{fmt(n.value)}{tail}"


@fmt.register
def _(n: A.Choose) -> str:
    return f"choose {fmt(n.selector)} as {n.name.text}"


def _body(body) -> str:
    """Simple statements join with "and"; a body holding any other statement is a block."""
    if len(body) == 1 and (isinstance(body[0], (A.Optional, A.Immune)) or isinstance(body[0], A.Acting) and body[0].who == "they"):
        return fmt(body[0])  # "you may …" / "they …" lead a body of their own (grammar: may_body, they_body)
    if all(isinstance(s, (A.Action, A.Choose)) for s in body):
        return " and ".join(fmt(s) for s in body)
    return "(" + "; ".join(fmt(s) for s in body) + ")"


@fmt.register
def _(n: A.Menu) -> str:
    return f"choose {n.word}: " + "; or ".join(_body(o) for o in n.options)


@fmt.register
def _(n: A.Acting) -> str:
    if n.who == "they":  # the player the trigger's event is about (h28b)
        if len(n.body) == 1 and isinstance(n.body[0], A.Optional):
            return f"they may {_body(n.body[0].body)}"
        return f"they {_body(n.body)}"
    if n.who in ("left", "right"):
        return f"the {n.noun.text} to your {n.who}: {_body(n.body)}"
    if n.who in ("target", "chosen"):
        return f"target {n.noun.text}: {_body(n.body)}"
    return f"each {'other ' if n.other else ''}{n.noun.text}: {_body(n.body)}"


def _subject(s: A.Subject) -> str:
    if s.kind == "you":
        return "you"
    return f"{s.article} {s.noun}" if s.kind == "a" else f"another {s.noun}"


@fmt.register
def _(n: A.Trigger) -> str:
    if n.form == "at":
        return f"at the {n.moment.text} of {n.owner} {n.period.text}: {_body(n.body)}"
    head = f"the first time each {n.period.text}" if n.form == "first" else n.form
    return f"{head} {_subject(n.subject)} {n.verb.text} {fmt(n.selector)}: {_body(n.body)}"


@fmt.register
def _(n: A.Ability) -> str:  # issue 28
    head = f"once per {n.once.text}" if n.once is not None else ""
    if n.condition is not None:
        head = f"{head} while {fmt(n.condition)}".strip()
    return f"{head}: {_body(n.body)}"


@fmt.register
def _(n: A.History) -> str:
    return f"number of {fmt(n.selector)} {_subject(n.subject)} {n.verb.text} this {n.period.text}"


@fmt.register
def _(n: A.RepeatUntil) -> str:
    return f"until {fmt(n.condition)}: {_body(n.body)}"


@fmt.register
def _(n: A.ForEach) -> str:
    of = "of " if n.of_form else ""
    name = f" as {n.name.text}" if n.name else ""
    return f"for each {of}{fmt(n.selector)}{name}: {_body(n.body)}"


@fmt.register
def _(n: A.If) -> str:
    tail = f" otherwise: {_body(n.otherwise)}" if n.otherwise is not None else ""
    return f"if {fmt(n.condition)}: {_body(n.body)}{tail}"


@fmt.register
def _(n: A.Cost) -> str:
    return f"{fmt(n.action)}: {_body(n.body)}"


@fmt.register
def _(n: A.Action) -> str:
    parts = [n.verb.text]
    if n.objects:
        parts.append(", ".join(fmt(o) for o in n.objects))
    parts += [fmt(p) for p in n.phrases]
    if n.name is not None:
        parts.append(f"as {n.name.text}")
    return " ".join(parts)


@fmt.register
def _(n: A.Phrase) -> str:
    return f"{n.prep} {fmt(n.target)}"


@fmt.register
def _(n: A.Until) -> str:
    return f"until {n.phase.text}"


@fmt.register
def _(n: A.Selector) -> str:
    parts = []
    if n.amount is not None:
        parts.append(_amount(n.amount))
        if n.of_form:
            parts.append("of")
    if n.owner is not None:
        parts.append(n.owner.text)
    parts.append(n.noun.text)
    parts += [fmt(f) for f in n.filters]
    if n.of is not None:
        parts.append(f"of {fmt(n.of)}")
    if n.place is not None:
        parts.append(f"in {fmt(n.place)}")
    if n.per is not None:
        parts.append(fmt(n.per))
    return " ".join(parts)


@fmt.register
def _(n: A.Ref) -> str:
    s = f"{n.owner.text} {n.noun.text}" if n.owner else n.noun.text
    return f"{s} of {fmt(n.of)}" if n.of is not None else s


@fmt.register
def _(n: A.Per) -> str:
    parts = ["per"] + ([str(n.every)] if n.every is not None else []) + [fmt(n.ref)] + [fmt(f) for f in n.filters]
    if n.place is not None:
        parts.append(f"in {fmt(n.place)}")
    return " ".join(parts)


@fmt.register
def _(n: A.WithIcon) -> str:
    return "with icon " + " or ".join(i.text for i in n.icons)


@fmt.register
def _(n: A.With) -> str:
    return f"with {n.noun.text}"


@fmt.register
def _(n: A.Without) -> str:
    return f"without {n.noun.text}"


@fmt.register
def _(n: A.Matching) -> str:
    return f"matching {n.name.text}"


_BOUND_WORDS = {("=", ""): "{v}", ("=", "exactly"): "exactly {v}", ("<=", "up to"): "up to {v}",
                ("<=", "or less"): "{v} or less", (">=", "or more"): "{v} or more", (">=", "at least"): "at least {v}",
                (">", "more than"): "more than {v}", ("<", "less than"): "less than {v}"}


@fmt.register
def _(n: A.FieldCompare) -> str:
    value = fmt(n.value) if isinstance(n.value, (A.Num, A.X)) else f"({fmt(n.value)})"
    bound = _BOUND_WORDS[(n.op, n.form)].format(v=value)
    return f"costing {bound}" if n.field is None else f"with {n.field.text} {bound}"


@fmt.register
def _(n: A.OtherThan) -> str:
    return f"other than {n.noun.text}"


@fmt.register
def _(n: A.Not) -> str:
    return f"not {fmt(n.filter)}"


@fmt.register
def _(n: A.FieldOf) -> str:
    return f"the {n.field.text} of {n.of.text}"


@fmt.register
def _(n: A.Compare) -> str:
    return f"{fmt(n.left)} {n.op} {fmt(n.right)}"


@fmt.register
def _(n: A.Exists) -> str:
    return fmt(n.selector)


def _amount(a) -> str:
    """An amount in a selector: plain numbers, x, articles; anything else in parentheses."""
    if isinstance(a, A.AnyNumber):
        return "any number"  # always the "… of …" form: "any number of cards"
    if isinstance(a, A.UpTo):
        return f"up to {a.value}"
    if isinstance(a, A.All):
        return "all"
    if isinstance(a, A.One):
        return a.article
    if isinstance(a, (A.Num, A.X)):
        return fmt(a)
    return f"({fmt(a)})"


@fmt.register
def _(n: A.Num) -> str:
    return str(n.value)


@fmt.register
def _(n: A.X) -> str:
    return "x"


@fmt.register
def _(n: A.Count) -> str:
    return f"number of {fmt(n.selector)}"


_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}


@fmt.register
def _(n: A.BinOp) -> str:
    def side(q, right: bool) -> str:
        s = fmt(q)
        if isinstance(q, A.BinOp) and (_PREC[q.op] < _PREC[n.op] or (right and _PREC[q.op] == _PREC[n.op])):
            return f"({s})"
        # a count ends in a noun phrase; parenthesise it before an operator that follows it
        if isinstance(q, (A.Count, A.FieldOf, A.History)) and n.op in ("*", "/") and not right:
            return f"({s})"
        return s
    return f"{side(n.left, False)} {n.op} {side(n.right, True)}"


# --- cards by name, "or" between conditions (issue 28) -----------------------------------------

@fmt.register
def _(n: A.SameName) -> str:
    return f"named {n.name.text}" if n.form == "named" else f"with the same name as {n.name.text}"


@fmt.register
def _(n: A.DistinctNames) -> str:
    return f"number of differently named {fmt(n.selector)}"


@fmt.register
def _(n: A.Either) -> str:
    return " or ".join(fmt(c) for c in n.conditions)


# --- h28b (issue 28): optional statements, durations, cost changes -------------------------------
@fmt.register
def _(n: A.Optional) -> str:
    return f"you may {_body(n.body)}"


@fmt.register
def _(n: A.Delayed) -> str:
    when = "your next" if n.when == "next" else "this"
    return f"at the {n.moment.text} of {when} {n.period.text}: {_body(n.body)}"


@fmt.register
def _(n: A.OwnCost) -> str:
    return f"this costs {n.amount} less {fmt(n.per)}"


@fmt.register
def _(n: A.ExtraTurn) -> str:
    return f"after this {n.period.text}, take an extra {n.noun.text}"


@fmt.register
def _(n: A.Immune) -> str:
    return "you are unaffected by it"


@fmt.register
def _(n: A.CostChange) -> str:
    return f"this {n.period.text}, {fmt(n.selector)} cost {n.amount} less"
