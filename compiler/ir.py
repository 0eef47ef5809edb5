"""The typed IR between the checker and the back end (DESIGN §9).

The checker (``compiler/check.py``, one pass) builds this tree of frozen dataclasses from an
accepted AST: every noun resolved to a category and a vocabulary key, owners typed (:class:`Who` or
:class:`Bound`, never strings such as ``"var:t"``), amounts, filters and quantities typed, each
action with its resolved verb and the text's origin. ``Checked.ir`` is all that leaves the
checker: code generation, the English renderer (and through it the reference, card sheets and
menu labels), ``cardwright explain`` and ``cardwright diff`` read it. Each node keeps the AST node
it came from as ``syntax`` — outside equality, hashing and the visitor's children — for the words
the designer chose, which English needs and meaning does not.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

# The query leaves — owners, amounts, filters, queries — are the runtime's own types: generated code
# passes them to the verbs as they are (runtime/refs.py), so what the checker resolves is what runs.
from runtime.refs import (Bound, Default, Every, Exactly, FieldCompare, Filter, HasField, HasIcon,  # noqa: F401
                          DEFAULT, EVERY, MatchingIcon, Not, OtherThan, Owner, Phase, Query, UpToN, Who, backlink)
from runtime.refs import SameName  # noqa: F401 - cards by name (issue 28)


# Each node keeps the AST node it was lowered from (``syntax``), outside equality and hashing: the
# English renderer reads the designer's word choices there ("a card" or "1 card", "2 fuel" as
# written, "1 of your locations"), while what a node *means* is in its typed fields. Two texts
# that mean the same thing lower to equal IR whatever their wording (``cardwright diff`` relies
# on it).
_syntax = backlink


@dataclass(frozen=True)
class Origin:
    """Where a node was written: offsets in its effect text (the build maps them to YAML lines)."""

    start: int
    end: int


# --- quantities --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lit:
    value: int


@dataclass(frozen=True)
class XValue:
    """The card's X (``x is …``)."""


@dataclass(frozen=True)
class Arith:
    op: str  # "+" | "-" | "*" | "/" (rounds down; by zero gives 0)
    left: "Expr"
    right: "Expr"
    syntax: object = _syntax()


@dataclass(frozen=True)
class CountOf:
    query: "Query"
    syntax: object = _syntax()


@dataclass(frozen=True)
class FieldOf:
    field: str
    card: Bound
    syntax: object = _syntax()


@dataclass(frozen=True)
class History:
    """How many ``kind`` events ``who`` made this ``period`` with a card matching ``query``."""

    kind: str
    who: str  # "you" | "opponent" | "any"
    query: "Query"
    period: str
    syntax: object = _syntax()


@dataclass(frozen=True)
class DistinctNames:
    """``number of differently named …`` (issue 28): how many distinct printed names the cards have."""

    query: "Query"
    syntax: object = _syntax()


Expr = Union[Lit, XValue, Arith, CountOf, FieldOf, History, DistinctNames]


# --- amounts and filters -----------------------------------------------------------------------


@dataclass(frozen=True)
class Computed:
    expr: Expr


Amount = Union[Default, Exactly, UpToN, Every, Computed]


# --- conditions and statements -------------------------------------------------------------------


@dataclass(frozen=True)
class Compare:
    left: Expr
    op: str
    right: Expr
    syntax: object = _syntax()


@dataclass(frozen=True)
class Exists:
    query: Query
    syntax: object = _syntax()


@dataclass(frozen=True)
class Either:
    """``A or B`` (issue 28): holds when any of ``conds`` holds; they are tested in order and the
    first that holds ends the test."""

    conds: tuple
    syntax: object = _syntax()


Cond = Union[Compare, Exists, Either]


@dataclass(frozen=True)
class Act:
    verb: str  # resolved against the registry; the signature already matched
    objects: tuple[Query, ...] = ()
    phrases: tuple[tuple[str, Union[Query, Phase]], ...] = ()
    binds: str | None = None  # "… as r"
    strict: bool = False      # the left side of a cost: all or nothing
    origin: Origin | None = field(default=None, compare=False)
    syntax: object = _syntax()


@dataclass(frozen=True)
class Require:
    cond: Cond
    text: str
    syntax: object = _syntax()


@dataclass(frozen=True)
class LetX:
    expr: Expr
    minimum: int | None
    text: str
    syntax: object = _syntax()


@dataclass(frozen=True)
class Choose:
    query: Query
    name: str
    syntax: object = _syntax()


@dataclass(frozen=True)
class ForEach:
    query: Query
    name: str
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


@dataclass(frozen=True)
class If:
    cond: Cond
    body: tuple["Stmt", ...]
    otherwise: tuple["Stmt", ...] | None = None
    syntax: object = _syntax()


@dataclass(frozen=True)
class Cost:
    pay: Act
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


@dataclass(frozen=True)
class Menu:
    count: int
    options: tuple[tuple["Stmt", ...], ...]
    labels: tuple[str, ...] = ()
    syntax: object = _syntax()


@dataclass(frozen=True)
class Acting:
    who: str  # "opponent" | "other" | "each" | "left" | "right" | "target" (the effect's chosen opponent)
    #         | "chosen" ("target player": any player still in, you included, chosen by the acting player)
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


@dataclass(frozen=True)
class Repeat:
    until: Cond
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


@dataclass(frozen=True)
class Trigger:
    kind: str            # an event kind (runtime/events.py): "play", "turn start", …
    who: str             # "you" | "opponent" | "any"
    card: Query | None   # the event's card, for card events
    once: str | None     # "turn" | "round": "the first time each …"
    index: int           # its place in the slot ("the first time" is kept per trigger)
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


# --- abilities (issue 28) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """An ability of a slot of kind ``ability``: a move its player may make (runtime/flow.py). Its body
    runs when the player uses it, at most once per ``once`` ("turn" | "round") and only while
    ``cond`` holds; a cost first in its body is paid in full or nothing happens. ``index`` is its
    place in the slot (uses are kept per card, slot and place)."""

    index: int
    once: str | None
    cond: Cond | None
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


# --- h28b (issue 28): optional statements, durations, cost changes -----------------------------


@dataclass(frozen=True)
class Optional:
    """``you may <body>``: the acting player decides (yes or no, offered as ``label``) whether the
    body happens."""

    body: tuple["Stmt", ...]
    label: str = ""
    syntax: object = _syntax()


@dataclass(frozen=True)
class Delayed:
    """``at the start of your next turn: …`` / ``at the end of this turn: …``: the body is set aside
    for the acting player (with this card and the names bound so far) and runs once at that moment
    (runtime/state.py ``Pending``; Engine.begin_turn / end_turn fire it)."""

    moment: str  # "start" | "end"
    when: str    # "next" (the acting player's next turn) | "this" (the turn under way)
    body: tuple["Stmt", ...]
    syntax: object = _syntax()


@dataclass(frozen=True)
class CostChange:
    """``this turn, cards cost 1 less``: until this turn ends, every cost read of a card ``query``
    names (buying, ``costing`` filters, ``the cost of``) is ``amount`` lower, never below 0."""

    query: Query
    amount: int
    syntax: object = _syntax()


@dataclass(frozen=True)
class Immune:
    """``you are unaffected by it``: the acting player is left out of the acting-player clauses of the
    card the reaction's event is about, while that card's play effect resolves (its trigger is heard
    before the effect: kind "before play")."""

    syntax: object = _syntax()


@dataclass(frozen=True)
class ExtraTurn:
    """``after this turn, take an extra turn``: the acting player is owed a turn after the one under way
    (runtime/flow.py gives it; at most one extra turn in a row)."""

    syntax: object = _syntax()


@dataclass(frozen=True)
class OwnCost:
    """``this costs N less per …``: the whole text of a ``cost`` slot. Run when the card's cost is read,
    for the player reading it, it sets X to how much less (``amount`` × how many ``per`` counts, in whole
    ``every``s); runtime/context.py ``changed_cost`` takes it off, never below 0."""

    amount: int
    per: Query
    syntax: object = _syntax()


Stmt = Union[Act, Require, LetX, Choose, ForEach, If, Cost, Menu, Acting, Repeat, Trigger, Optional, Delayed,
             CostChange, Immune, ExtraTurn, OwnCost, Ability]


@dataclass(frozen=True)
class Effect:
    statements: tuple[Stmt, ...]
    computed_bounds: bool = False  # some filter compares with a value computed at run time
    syntax: object = _syntax()
