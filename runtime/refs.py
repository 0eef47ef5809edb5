"""Resolved references: what the compiler emits and the verbs receive.

The checker resolves each noun of the effect text against the game's vocabulary into one of these
categories, so that at run time a verb never parses words. They are frozen dataclasses of builtin
values only, which lets the code generator emit them as plain constructor calls.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


@dataclass(frozen=True)
class UpTo:
    """An amount the chooser picks, from 0 to ``n``."""

    n: int


@dataclass(frozen=True)
class AllOf:
    """Every matching thing."""


ALL = AllOf()


@dataclass(frozen=True)
class Sel:
    """One resolved selector.

    ``noun`` is the vocabulary key the words resolved to (``"fuel"``, ``"production location"``,
    ``"hand"``); ``owner`` is one of ``you``, ``enemy``, ``another``, ``any``, ``each``,
    ``opponent``, ``owner`` or ``var:<name>``; ``filters`` are ``(kind, value)`` pairs:
    ``("icon", ("green", "worker"))``, ``("with", "feature")``, ``("without", "feature")``,
    ``("matching", "var:i")``.
    """

    category: str
    noun: str
    amount: Any = None  # int | UpTo | AllOf | None (None: one, or "the" thing)
    owner: str | None = None
    filters: tuple = ()
    of: "Sel | None" = None
    place: "Sel | None" = None
    per: "Sel | None" = None

    def with_amount(self, amount: Any) -> "Sel":
        return Sel(self.category, self.noun, amount, self.owner, self.filters, self.of, self.place, self.per)


@dataclass(frozen=True)
class Phase:
    """``until <phase>``."""

    name: str
