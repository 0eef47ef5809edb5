"""The effect language's AST: frozen dataclasses, each carrying its span in the effect text.

Spans are excluded from equality (``compare=False``) so that an AST parsed from the canonical
printing of another AST compares equal to it — the round-trip property the tests hold.
A node never holds resolved meaning (a Good, a zone): that is the checker's output, kept apart.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Span:
    start: int
    end: int


NO_SPAN = Span(0, 0)


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


# --- names and nouns -------------------------------------------------------------------------


@dataclass(frozen=True)
class Name:
    """One identifier: a verb, a bound variable, an icon."""

    text: str
    span: Span = _span()


@dataclass(frozen=True)
class Words:
    """A noun phrase of one or more words: "fuel", "production location", "faction board"."""

    words: tuple[str, ...]
    span: Span = _span()

    @property
    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True)
class Owner:
    """Whose thing: ``your``, ``enemy``, or a possessive ("another player's", "opponent's")."""

    kind: str  # "your" | "enemy" | "possessive"
    name: str | None = None  # for possessives: "player", "opponent", "owner", a bound variable
    qualifier: str | None = None  # "another" | "any" | "each" | "its"
    span: Span = _span()

    @property
    def text(self) -> str:
        if self.kind != "possessive":
            return self.kind
        return f"{self.qualifier + ' ' if self.qualifier else ''}{self.name}'s"


# --- quantities ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class X:
    """The card's X (bound by ``x is …``)."""

    span: Span = _span()


@dataclass(frozen=True)
class BinOp:
    op: str  # "+" | "-" | "*" | "/" (division rounds down)
    left: "Quantity"
    right: "Quantity"
    span: Span = _span()


@dataclass(frozen=True)
class Count:
    """``number of <selector>``: how many such things exist now."""

    selector: "Selector"
    span: Span = _span()


@dataclass(frozen=True)
class UpTo:
    """``up to N``: the chooser picks how many, 0..N."""

    value: int
    span: Span = _span()


@dataclass(frozen=True)
class All:
    span: Span = _span()


@dataclass(frozen=True)
class One:
    """``a`` / ``an``: exactly one; the article is kept so the printer writes it back."""

    article: str
    span: Span = _span()


@dataclass(frozen=True)
class FieldOf:
    """``the cost of t``: a numeric card field of a chosen card (or of ``this card``)."""

    field: Name
    of: Words
    span: Span = _span()


@dataclass(frozen=True)
class Subject:
    """Who does a trigger's or a history's action: ``you``, ``an opponent``, ``a player``,
    ``another player``; ``article`` keeps "a"/"an" for printing."""

    kind: str  # "you" | "a" | "another"
    noun: str | None = None  # "opponent" | "player"
    article: str | None = None
    span: Span = _span()


@dataclass(frozen=True)
class History:
    """``number of cards with icon action you played this turn``: events of this turn or round."""

    selector: "Selector"
    subject: Subject
    verb: Name
    period: Name  # "turn" | "round"
    span: Span = _span()


@dataclass(frozen=True)
class DistinctNames:
    """``number of differently named cards in your play area`` (issue 28): how many printed names."""

    selector: "Selector"
    span: Span = _span()


Quantity = Union[Num, X, BinOp, Count, FieldOf, History, DistinctNames]
Amount = Union[Num, X, BinOp, Count, FieldOf, UpTo, All, One, "AnyNumber"]


# --- selectors -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ref:
    """A flat reference inside a selector: "your hand", "top card of another player's discard pile"."""

    owner: Owner | None
    noun: Words
    of: "Ref | None" = None
    span: Span = _span()


@dataclass(frozen=True)
class WithIcon:
    icons: tuple[Name, ...]
    span: Span = _span()


@dataclass(frozen=True)
class With:
    noun: Words
    span: Span = _span()


@dataclass(frozen=True)
class Without:
    noun: Words
    span: Span = _span()


@dataclass(frozen=True)
class Matching:
    name: Name
    span: Span = _span()


@dataclass(frozen=True)
class FieldCompare:
    """``costing up to 4``, ``with power 3 or more``: a numeric card field against a bound.

    ``field`` is None for ``costing`` (the game's ``cost`` field); ``form`` keeps how the bound was
    written ("exactly", "up to", "or more"…) so that the canonical text prints it back.
    """

    field: Words | None
    op: str  # "=" | "<=" | ">=" | "<" | ">"
    value: "Quantity"
    form: str = ""
    span: Span = _span()


@dataclass(frozen=True)
class OtherThan:
    """``other than copper`` / ``other than this card`` / ``other than t``."""

    noun: Words
    span: Span = _span()


@dataclass(frozen=True)
class Not:
    """``not with icon action``: the filter inverted."""

    filter: "Filter"
    span: Span = _span()


# --- cards by name (issue 28) ----------------------------------------------------------------


@dataclass(frozen=True)
class SameName:
    """``named n`` / ``with the same name as t``: the card's printed name is the one ``name`` holds —
    a name chosen by ``name a card as n``, or a chosen card's. ``form`` keeps how it was written."""

    name: Name
    form: str = "named"  # "named" | "same"
    span: Span = _span()


Filter = Union[WithIcon, With, Without, Matching, FieldCompare, OtherThan, Not, SameName]


@dataclass(frozen=True)
class Per:
    """``per <ref>``: multiplies the selector's amount by how many such things exist."""

    ref: Ref
    filters: tuple[Filter, ...] = ()
    place: Ref | None = None
    every: int | None = None  # "per 10 cards": whole tens only (rounded down)
    span: Span = _span()


@dataclass(frozen=True)
class Selector:
    """Names things: an amount, an owner, a noun, filters, ``of``/``in`` references, ``per``."""

    amount: Amount | None
    owner: Owner | None
    noun: Words
    filters: tuple[Filter, ...] = ()
    of: Ref | None = None
    place: Ref | None = None
    per: Per | None = None
    of_form: bool = False  # written "1 of your locations" rather than "1 your location"
    span: Span = _span()


# --- conditions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Compare:
    left: Quantity
    op: str
    right: Quantity
    span: Span = _span()


@dataclass(frozen=True)
class Exists:
    """A selector as a condition: at least its amount (default 1) of such things exist."""

    selector: Selector
    span: Span = _span()


@dataclass(frozen=True)
class Either:
    """``A or B`` between conditions (issue 28): holds when any of them holds."""

    conditions: tuple
    span: Span = _span()


Condition = Union[Compare, Exists, Either]


# --- statements ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    """A prepositional phrase of an action: ``from your hand``, ``instead of owner``."""

    prep: str  # "from" | "to" | "onto" | "into" | "on" | "at" | "instead of"
    target: Selector
    span: Span = _span()


@dataclass(frozen=True)
class Until:
    """``until <phase>``: how long the action's effect lasts."""

    phase: Words
    span: Span = _span()


@dataclass(frozen=True)
class Action:
    verb: Name
    objects: tuple[Selector, ...] = ()
    phrases: tuple[Union[Phrase, Until], ...] = ()
    name: Name | None = None  # "… as r": the cards the verb acted on (verbs that bind only)
    span: Span = _span()


@dataclass(frozen=True)
class Requires:
    """All-or-nothing guard: when it fails, nothing of the effect happens."""

    condition: Condition
    span: Span = _span()


@dataclass(frozen=True)
class Let:
    """``x is <quantity> (min N)``: binds X; below the minimum the effect cannot be used."""

    value: Quantity
    minimum: int | None = None
    the: bool = False
    span: Span = _span()


@dataclass(frozen=True)
class Choose:
    selector: Selector
    name: Name
    span: Span = _span()


@dataclass(frozen=True)
class ForEach:
    selector: Selector
    name: Name | None
    body: tuple["BodyStmt", ...]
    of_form: bool = False
    span: Span = _span()


@dataclass(frozen=True)
class If:
    condition: Condition
    body: tuple["Stmt", ...]
    otherwise: tuple["Stmt", ...] | None = None
    span: Span = _span()


@dataclass(frozen=True)
class Menu:
    """``choose one: A; or B`` — the player picks ``count`` distinct options; each runs in order."""

    count: int
    options: tuple[tuple["Stmt", ...], ...]
    word: str = "one"  # as written: "one" | "two" | "three"
    span: Span = _span()


@dataclass(frozen=True)
class Acting:
    """``each opponent: …`` / ``each other player: …`` / ``each player: …`` / ``the player to your
    left: …`` — the body runs once per such player, as that player (their zones, Goods, agent)."""

    who: str  # "opponent" | "other" | "each" | "left" | "right" | "target" | "chosen" (target player)
    noun: Words
    body: tuple["Stmt", ...]
    other: bool = False  # written "each other …"
    span: Span = _span()


@dataclass(frozen=True)
class RepeatUntil:
    """``until <condition>: <body>`` — the body again and again until the condition holds (bounded)."""

    condition: Condition
    body: tuple["Stmt", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Cost:
    """``<action>: <body>`` — the action is paid in full, or nothing happens."""

    action: Action
    body: tuple["BodyStmt", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Trigger:
    """A trigger in a slot of kind ``trigger`` (runtime/events.py dispatches the events):

    - ``when``/``whenever`` SUBJECT VERB SELECTOR — a card event ("when you play this card");
    - ``at the start|end of your|each turn|round`` — a time (``time`` holds the words);
    - ``the first time each turn|round`` SUBJECT VERB SELECTOR — at most once per turn or round.
    """

    form: str  # "when" | "whenever" | "at" | "first"
    body: tuple["Stmt", ...]
    subject: Subject | None = None
    verb: Name | None = None
    selector: "Selector | None" = None
    moment: Name | None = None   # at: "start" | "end"
    owner: str | None = None     # at: "your" | "each"
    period: Name | None = None   # at/first: "turn" | "round"
    span: Span = _span()


# --- abilities (issue 28) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """An ability in a slot of kind ``ability``, a move its player may make (runtime/flow.py):
    ``once per turn|round [while <condition>]: <body>`` or ``while <condition>: <body>``. A cost on its
    own in an ability slot ("trash this card: gain 3 combat") is an ability too (``Cost``)."""

    body: tuple["Stmt", ...]
    once: Name | None = None            # "turn" | "round"
    condition: "Condition | None" = None  # "while …"
    span: Span = _span()


# --- h28b (issue 28): optional statements, "any number of", durations, cost changes -------------


@dataclass(frozen=True)
class AnyNumber:
    """``any number of cards``: the chooser picks how many, from none to every such thing there is."""

    span: Span = _span()


@dataclass(frozen=True)
class Optional:
    """``you may <body>``: the player decides whether the body happens."""

    body: tuple["Stmt", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Delayed:
    """``at the start of your next turn: …`` / ``at the end of this turn: …`` written on a card: the
    body waits until that moment and then runs once for the player it was set up for."""

    moment: Name       # "start" | "end"
    period: Name       # "turn"
    when: str          # "next" | "this"
    body: tuple["Stmt", ...]
    span: Span = _span()


@dataclass(frozen=True)
class CostChange:
    """``this turn, cards cost 1 less``: the cards the selector names cost less until the period ends."""

    period: Name       # "turn"
    selector: Selector
    amount: int
    span: Span = _span()


@dataclass(frozen=True)
class Immune:
    """``you are unaffected by it``: in a reaction, the played card's acting-player clauses skip you."""

    span: Span = _span()


@dataclass(frozen=True)
class ExtraTurn:
    """``after this turn, take an extra turn``."""

    period: Name  # "turn" (after this …)
    noun: Name    # "turn" (… an extra turn)
    span: Span = _span()


@dataclass(frozen=True)
class OwnCost:
    """``this costs 1 less per card with icon action in your play area`` (a slot of kind ``cost``)."""

    amount: int
    per: Per
    span: Span = _span()


BodyStmt = Union[Action, Choose]
Stmt = Union[Requires, Let, Choose, Menu, ForEach, If, Cost, Acting, RepeatUntil, Trigger, Action,
             Optional, Delayed, CostChange, Immune, ExtraTurn, OwnCost, Ability]


@dataclass(frozen=True)
class Effect:
    statements: tuple[Stmt, ...]
    span: Span = _span()
