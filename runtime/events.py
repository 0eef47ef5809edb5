"""Typed game events and the event bus that trigger slots listen on (DESIGN §9).

Every verb that moves a card and every turn or round boundary records one event in
``game.events`` (tests assert on these, not on trace text) and then dispatches it:

1. Listeners are the cards with a trigger slot (a card-kind slot declared ``kind: trigger``) that
   sit in a zone the slot listens in (``listens_in``, default ``rules.in_play``).
2. They run in a fixed order: the acting player's cards first, then the other players' in seat
   order after them; within a player, in zone order as the slot lists them, bottom to top.
3. A trigger fires at most once per event per card, and never for an event its own effect caused
   while it is still resolving (no re-entry: an effect that triggers itself does not loop).
4. "the first time each turn/round …" is tracked per card instance, keyed by the turn/round number.

Dispatch happens after the event's change is complete, so a trigger sees the new state.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields


@dataclass(frozen=True)
class GameEvent:
    """Base of every typed event. ``player`` did it; ``turn`` and ``round`` say when."""

    player: int | None
    turn: int = field(default=0, kw_only=True)
    round: int = field(default=0, kw_only=True)

    kind = "event"


@dataclass(frozen=True)
class CardEvent(GameEvent):
    card: int = field(kw_only=True)  # the card instance's uid


@dataclass(frozen=True)
class Played(CardEvent):
    kind = "play"


@dataclass(frozen=True)
class Gained(CardEvent):
    kind = "gain"


@dataclass(frozen=True)
class Trashed(CardEvent):
    kind = "trash"


@dataclass(frozen=True)
class Drawn(CardEvent):
    kind = "draw"


@dataclass(frozen=True)
class Discarded(CardEvent):
    kind = "discard"


@dataclass(frozen=True)
class Razed(CardEvent):
    """A Location razed (51st State): it turned to its Ruins side, or a Hacked card left (M05, M12)."""

    kind = "raze"


@dataclass(frozen=True)
class Used(CardEvent):
    """A card's Action used where it lies (51st State's Locations and Faction board Actions): its
    effect ran without the card being played. No trigger phrase names it yet; reports count it."""

    kind = "use"


@dataclass(frozen=True)
class Moved(CardEvent):
    """A card put from one zone into another (``put``): ``to`` is the zone's name."""

    to: str = field(default="", kw_only=True)
    kind = "put"


@dataclass(frozen=True)
class TurnStarted(GameEvent):
    kind = "turn start"


@dataclass(frozen=True)
class TurnEnded(GameEvent):
    kind = "turn end"


@dataclass(frozen=True)
class RoundStarted(GameEvent):
    kind = "round start"


@dataclass(frozen=True)
class RoundEnded(GameEvent):
    kind = "round end"


# The verbs a trigger or a history count may name, in the words a card prints ("plays", "gain")
CARD_EVENTS = {"play": Played, "gain": Gained, "trash": Trashed, "draw": Drawn, "discard": Discarded,
               "put": Moved, "raze": Razed}
EVENT_VERBS = {**{k: k for k in CARD_EVENTS}, **{k + "s": k for k in CARD_EVENTS},
               "trashes": "trash", "discards": "discard", "draws": "draw", "gains": "gain", "plays": "play",
               "puts": "put", "played": "play", "gained": "gain", "trashed": "trash", "drew": "draw",
               "discarded": "discard", "razes": "raze", "razed": "raze"}
TIMES = {("start", "turn"): TurnStarted, ("end", "turn"): TurnEnded,
         ("start", "round"): RoundStarted, ("end", "round"): RoundEnded}


_DEFAULTS: dict[type, tuple[dict, frozenset]] = {}  # event class -> (field defaults, field names)


def card_event(cls: type, player: int | None, card: int, turn: int, round: int, **extra) -> CardEvent:
    """``cls(player, card=card, turn=turn, round=round, **extra)``, the same frozen event, made
    without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field): a simulated
    game makes thousands of card events. An unknown field raises TypeError as the constructor would."""
    known = _DEFAULTS.get(cls)
    if known is None:
        known = _DEFAULTS[cls] = ({f.name: f.default for f in fields(cls) if f.default is not MISSING},
                                  frozenset(f.name for f in fields(cls)))
    defaults, names = known
    ev = object.__new__(cls)
    d = ev.__dict__
    d.update(defaults)
    d["player"] = player
    d["turn"] = turn
    d["round"] = round
    d["card"] = card
    if extra:
        bad = set(extra) - names
        if bad:
            raise TypeError(f"{cls.__name__} has no field {sorted(bad)[0]!r}")
        d.update(extra)
    return ev
