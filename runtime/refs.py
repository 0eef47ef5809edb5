"""Typed queries: what an effect selects, as the checker resolved it, in one form from the checker to
the runtime (issue 22, DESIGN §9).

The checker resolves each noun of an effect text against the game model into a :class:`Query`: a
category (below), a key in the model, whose (:class:`Who` or a :class:`Bound` name), typed filters
and an amount. These classes are the typed IR's leaves (``compiler/ir.py`` re-exports them), the
literals generated code passes to the verbs, and what ``Ctx`` selects with: a filter the checker
accepts is the same object the runtime tests, one method per filter kind (``Ctx._filter``). They are
frozen dataclasses of builtin values, which lets the code generator emit them as constructor calls.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Union

# Categories a noun can resolve to. A verb's signature lists the categories it accepts per slot.
GOOD = "good"          # a Good: fuel, vp, red contact; or the generic "good"/"goods" of a thing
THING = "thing"        # cards selected from zones by the vocabulary's `things` (location, machine…)
ZONE = "zone"          # a zone or pile: hand, deck, parts pile, personal discard pile
PLAYER = "player"      # you, opponent, owner, another player…
PHASE = "phase"        # a phase or step: cleanup, production
ICON = "icon"          # a type icon
VAR = "var"            # a name bound by `choose … as NAME` or `for each … as NAME`
CARD = "card"          # cards as such ("card", "cards") or a card source ("hacked")
PILE = "pile"          # the piles of a zone declared `piles: card` ("supply piles", "empty supply piles")
CATEGORIES = (GOOD, THING, ZONE, PLAYER, PHASE, ICON, VAR, CARD, PILE)


class Who(Enum):
    """Whose: the owners an effect can name, relative to the player the effect runs for."""

    YOU = "you"
    ENEMY = "enemy"          # "enemy locations": every other player's
    ANOTHER = "another"      # "another player's": one other player, chosen
    ANY = "any"              # "any player's"
    EACH = "each"            # "each player's"
    OPPONENT = "opponent"    # "opponent's": the effect's opponent (or one chosen)
    OWNER = "owner"          # "its owner's": the owner of the card whose effect runs
    LEFT = "left"            # "left neighbour's": the player to your left (the next seat still in), issue 28
    RIGHT = "right"          # "right neighbour's": the player to your right (the previous seat still in)


@dataclass(frozen=True)
class Bound:
    """A name bound by ``choose … as t``, ``for each … as t``, ``… as r`` or ``this card``."""

    name: str


Owner = Union[Who, Bound, None]

# Whose that stands for more than one player: "another player's pile" asks whose, "each player's
# hand" is every such zone.
MANY = frozenset({Who.ENEMY, Who.ANOTHER, Who.ANY, Who.EACH})


def backlink():
    """A field outside equality, hashing, code generation and the visitor's children: an IR node's
    ``syntax``, the AST node it was lowered from, for the words the designer chose (English needs
    them, meaning does not)."""
    return field(default=None, compare=False, hash=False, repr=False, metadata={"backlink": True})


# --- amounts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Default:
    """No amount written: one, or "the" thing (each verb decides; a chosen name means all it holds)."""


@dataclass(frozen=True)
class Exactly:
    n: int


@dataclass(frozen=True)
class UpToN:
    """An amount the chooser picks, from 0 to ``n``."""

    n: int


# "any number of cards" (issue 28): up to every such thing there is. It is ``UpToN(ANY_NUMBER)``: more
# than any literal may write (999), and every verb that honours it picks among the things that exist,
# so the choice is bounded by what is there (the checker refuses it where a verb would count instead).
ANY_NUMBER = 9_999


@dataclass(frozen=True)
class Every:
    """``all``: every matching thing."""


DEFAULT = Default()
EVERY = Every()
_EXACTLY = tuple(Exactly(n) for n in range(64))  # Query.with_amount's exact amounts of a few

# --- filters -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HasIcon:
    icons: tuple[str, ...]


@dataclass(frozen=True)
class HasField:
    field: str
    present: bool = True  # False: "without FIELD"


@dataclass(frozen=True)
class MatchingIcon:
    bound: Bound


@dataclass(frozen=True)
class FieldCompare:
    """``costing up to 3``. A bound computed at run time ("costing up to (x + 1)") has ``key``: the
    binding the generated code fills just before the statement; ``value`` then holds the IR
    expression it is computed from (the checker's; generated code carries ``None`` there)."""

    field: str
    op: str  # "=" | "<=" | ">=" | "<" | ">"
    value: object  # int, or the IR expression of a computed bound
    key: str | None = None


@dataclass(frozen=True)
class OtherThan:
    card: Union[str, Bound]  # a card id, or a bound card ("this card", "t")


@dataclass(frozen=True)
class Not:
    filter: "Filter"


@dataclass(frozen=True)
class SameName:
    """``named n`` / ``with the same name as t`` (issue 28): the card's printed name is the name ``bound``
    holds — one named by ``name a card as n`` (a ``("name", text)`` value) or a chosen card's."""

    bound: Bound


Filter = Union[HasIcon, HasField, MatchingIcon, FieldCompare, OtherThan, Not, SameName]


# --- queries -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Query:
    """A resolved selector: what kind of thing (``category``), which (``key`` in the game model, or
    the bound name), whose, narrowed how, and how many (``amount``: :class:`Default`,
    :class:`Exactly`, :class:`UpToN`, :class:`Every`; the IR's ``Computed`` never reaches the
    runtime: generated code computes it and calls :meth:`with_amount`). ``of``: "the top card of
    <zone>", "the goods of <card>"; ``place``: "… in <zone>"; ``per``: "… per <query>", counting
    whole ``every``s ("1 vp per 10 cards")."""

    category: str
    key: str
    owner: Owner = None
    filters: tuple[Filter, ...] = ()
    amount: object = DEFAULT
    of: "Query | None" = None
    place: "Query | None" = None
    per: "Query | None" = None
    every: int | None = None
    syntax: object = backlink()

    def with_amount(self, amount, _new=object.__new__) -> "Query":
        """This query with another amount (an int is exact): computed amounts make one per statement run
        ("draw (7 - number of cards in your hand) cards"), so it is ``_with(amount=…)`` without the
        keywords, and an exact amount from 0 to 63 is a shared ``Exactly`` (frozen and compared by
        value: sharing one is making one; tests/test_refs_amounts.py holds both to ``_with``)."""
        if type(amount) is int:
            amount = _EXACTLY[amount] if 0 <= amount < len(_EXACTLY) else Exactly(amount)
        q = _new(Query)
        d = q.__dict__
        d.update(self.__dict__)
        d["amount"] = amount
        return q

    def at(self, place: "Query | None") -> "Query":
        """This query selecting in another place ("… from <zone>" given to the verb)."""
        return self._with(place=place)

    def _with(self, _new=object.__new__, **changed) -> "Query":
        """A copy with ``changed`` fields, built without the frozen dataclass's per-field ``__setattr__``."""
        q = _new(Query)
        q.__dict__.update(self.__dict__, **changed)
        return q


@dataclass(frozen=True)
class Phase:
    """``until <phase>``."""

    name: str
