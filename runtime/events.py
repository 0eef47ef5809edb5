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
class Playing(CardEvent):
    """A card put into play whose play effect is about to run (h28b): reactions hear it first ("you are
    unaffected by it"). No trigger phrase names it; a trigger whose body holds immunity listens to it."""

    kind = "before play"


BEFORE_PLAY = Playing.kind


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
    """A card's Action used where it lies (51st State's Locations and Faction board Actions), or an
    ability of a slot of kind ability used as a move (issue 28): its effect ran without the card being
    played. No trigger phrase names it yet; reports count it."""

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


def _fields_of(cls: type) -> tuple[dict, frozenset]:
    """(field defaults, field names) of an event class, worked out once per class."""
    known = _DEFAULTS.get(cls)
    if known is None:
        known = _DEFAULTS[cls] = ({f.name: f.default for f in fields(cls) if f.default is not MISSING},
                                  frozenset(f.name for f in fields(cls)))
    return known


def game_event(cls: type, player: int | None, turn: int, round: int) -> GameEvent:
    """``cls(player, turn=turn, round=round)`` for an event with no other field (``TurnStarted``,
    ``TurnEnded``…), made as ``card_event`` makes card events: an engine publishes two a turn."""
    if cls not in _TIMED_CLASSES:  # checked once per class (an engine publishes two such events a turn)
        if _fields_of(cls)[1] != _TIMED:
            raise TypeError(f"{cls.__name__} has fields beyond player, turn and round: "
                            "make it with its class")
        _TIMED_CLASSES.add(cls)
    ev = object.__new__(cls)
    d = ev.__dict__
    d["player"] = player
    d["turn"] = turn
    d["round"] = round
    return ev


_TIMED = frozenset({"player", "turn", "round"})
_TIMED_CLASSES: set = set()  # the classes game_event found to have no other field


def card_event(cls: type, player: int | None, card: int, turn: int, round: int, **extra) -> CardEvent:
    """``cls(player, card=card, turn=turn, round=round, **extra)``, the same frozen event, made
    without the frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field): a simulated
    game makes thousands of card events. An unknown field raises TypeError as the constructor would."""
    defaults, names = _DEFAULTS.get(cls) or _fields_of(cls)  # known after a class's first event
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


def card_events(cls: type, player: int | None, cards, turn: int, round: int) -> list[CardEvent]:
    """``[card_event(cls, player, card, turn, round) for card in cards]`` in one call, each event made
    as ``card_event`` makes it (the same fields, set in the same order): a draw of several cards
    records them at once (tests/test_card_events.py holds the two equal)."""
    defaults = (_DEFAULTS.get(cls) or _fields_of(cls))[0]
    new = object.__new__
    out = []
    add = out.append
    for card in cards:
        ev = new(cls)
        d = ev.__dict__
        d.update(defaults)
        d["player"] = player
        d["turn"] = turn
        d["round"] = round
        d["card"] = card
        add(ev)
    return out


# --- the trace: typed events the game tells as they happen (game.log) ---------------------------
# The bus events above are what triggers and history counts hear; a game's trace is the events it
# *tells*: a choice, a payment, a draw, a refusal, a move. Each is told as a typed event (``GameState
# .tell``) and its line is rendered from it, in the game's printed names, when it is told (a card's
# name or a zone's owner is read then, as the player saw it). Tests assert on these events, never on
# the line's words. Only while tracing: a simulated game that does not trace tells nothing.


@dataclass(frozen=True)
class Told(GameEvent):
    """Base of the trace's events. ``verb`` is what the line is about ("gain", "choose"…)."""

    kind = "told"
    verb = "note"

    def words(self, game) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class GoodsGained(Told):
    good: str = field(kw_only=True)
    n: int = field(kw_only=True)
    verb = "gain"

    def words(self, game) -> str:
        return f"gains {self.n} {self.good}"


@dataclass(frozen=True)
class GoodsPaid(Told):
    good: str = field(kw_only=True)
    n: int = field(kw_only=True)
    verb = "spend"

    def words(self, game) -> str:
        return f"pays {self.n} {self.good}"


@dataclass(frozen=True)
class GoodsPlaced(Told):
    """Goods put on a card (``place 2 fuel on t``); ``shown``: the card as the player saw it."""

    good: str = field(kw_only=True)
    n: int = field(kw_only=True)
    card: int = field(kw_only=True)
    shown: str = field(kw_only=True)
    verb = "place"

    def words(self, game) -> str:
        return f"places {self.n} {self.good} on {self.shown}"


@dataclass(frozen=True)
class CardsDrawn(Told):
    """``n`` cards drawn from ``zone`` (fewer than ``wanted`` when it ran out)."""

    n: int = field(kw_only=True)
    wanted: int = field(kw_only=True)
    zone: tuple = field(kw_only=True)
    verb = "draw"

    def words(self, game) -> str:
        return (f"draws {self.n} card{'s' if self.n != 1 else ''} from {game.zone_words(self.zone, self.player)}"
                + (f" (of {self.wanted})" if self.n < self.wanted else ""))


@dataclass(frozen=True)
class CardsShown(Told):
    """The top cards of ``zone`` revealed to everyone, or looked at by the player alone."""

    revealed: bool = field(kw_only=True)
    cards: tuple = field(kw_only=True)  # uids, top first
    zone: tuple = field(kw_only=True)

    @property
    def verb(self) -> str:  # type: ignore[override]
        return "reveal" if self.revealed else "look"

    def words(self, game) -> str:
        n = len(self.cards)
        names = ", ".join(str(game.record(u).get("name", game.instances[u].card_id)) for u in self.cards)
        return (f"{'reveals' if self.revealed else 'looks at'} {n} card{'s' if n != 1 else ''} of "
                f"{game.zone_words(self.zone, self.player)}" + (f": {names}" if self.revealed and names else ""))


@dataclass(frozen=True)
class CardsMoved(Told):
    """Cards a verb moved (``discard``, ``trash``, ``put``, ``gain``…) to ``to`` (None: nowhere)."""

    action: str = field(kw_only=True)  # the verb, as the text says it
    n: int = field(kw_only=True)
    to: tuple | None = field(kw_only=True)

    @property
    def verb(self) -> str:  # type: ignore[override]
        return self.action

    def words(self, game) -> str:
        where = game.zone_words(self.to, self.player) if self.to is not None else "nowhere"
        return f"{self.action}s {self.n} card{'s' if self.n != 1 else ''} to {where}"


@dataclass(frozen=True)
class Chose(Told):
    """A choice made: ``shown`` is what was chosen as the player saw it (cards with their owners,
    a player, a Good), or ``options`` the menu options picked, as printed."""

    shown: str = field(default="", kw_only=True)
    options: tuple = field(default=(), kw_only=True)
    verb = "choose"

    def words(self, game) -> str:
        if self.options:
            return "chooses " + " and ".join(f"“{o}”" for o in self.options)
        return f"chooses {self.shown}"


@dataclass(frozen=True)
class EffectRefused(Told):
    """An effect (or one player's part of it, or a trigger of ``trigger_of``) ended, refused."""

    reason: str = field(kw_only=True)
    trigger_of: str | None = field(default=None, kw_only=True)
    verb = "refused"

    def words(self, game) -> str:
        if self.trigger_of is not None:
            return f"trigger of {self.trigger_of}: {self.reason}"
        return f"refused: {self.reason}"


@dataclass(frozen=True)
class EffectUnmet(Told):
    """An effect whose ``requires`` did not hold: nothing happened."""

    reason: str = field(kw_only=True)
    verb = "unmet"

    def words(self, game) -> str:
        return f"nothing happens: {self.reason}"


@dataclass(frozen=True)
class RepeatStopped(Told):
    verb = "repeat"

    def words(self, game) -> str:
        return "stops repeating: nothing changed"


@dataclass(frozen=True)
class Reshuffled(Told):
    """A pile shuffled into an empty draw pile (``rules.reshuffle``)."""

    source: tuple = field(kw_only=True)
    into: tuple = field(kw_only=True)
    verb = "reshuffle"

    def words(self, game) -> str:
        return f"shuffles {game.zone_words(self.source, self.player)} into {game.zone_words(self.into, self.player)}"


@dataclass(frozen=True)
class MoveMade(Told):
    """A move taken through the game protocol, by its label."""

    label: str = field(kw_only=True)
    verb = "move"

    def words(self, game) -> str:
        return self.label


@dataclass(frozen=True)
class PlayedAgain(Told):
    """``play c`` of a card this effect already played: played again where it lies."""

    shown: str = field(kw_only=True)
    verb = "play"

    def words(self, game) -> str:
        return f"plays {self.shown} again where it lies"


# the game flow's own events (runtime/flow.py: a game whose flow is data)
@dataclass(frozen=True)
class SetUp(Told):
    """A setup step: ``made`` cards put into ``zone`` (None: the zone shuffled)."""

    zone: str = field(kw_only=True)
    made: int | None = field(kw_only=True)
    per_player: bool = field(kw_only=True)
    verb = "setup"

    def words(self, game) -> str:
        what = "shuffles" if self.made is None else f"puts {self.made} cards into"
        return f"{what} {self.zone.replace('_', ' ')}" + (" (each player's)" if self.per_player else "")


@dataclass(frozen=True)
class StartingPlayer(Told):
    """``player`` is the Starting Player: ``when`` "first" (at setup), "now" (passed on at a round's
    end) or "next round" (an action's marker, from the next round)."""

    when: str = field(kw_only=True)

    @property
    def verb(self) -> str:  # type: ignore[override]
        return "first" if self.when == "first" else "starting player"

    def words(self, game) -> str:
        return {"first": "is the Starting Player", "now": "is the Starting Player now",
                "next round": "becomes the Starting Player (from the next round)"}[self.when]


@dataclass(frozen=True)
class ActionTaken(Told):
    name: str = field(kw_only=True)
    cost: tuple = field(default=(), kw_only=True)  # (good, n) pairs paid first
    verb = "action"

    def words(self, game) -> str:
        paid = ", ".join(f"{n} {good}" for good, n in self.cost)
        return f"takes the action {self.name}" + (f" paying {paid}" if paid else "")


@dataclass(frozen=True)
class AbilityUsed(Told):
    """A player uses an ability of a card of theirs as a move of the game flow (issue 28)."""

    card: int = field(kw_only=True)
    name: str = field(kw_only=True)  # the card's printed name and the slot's: "Blob Wheel (Ally)"
    verb = "ability"

    def words(self, game) -> str:
        return f"uses {self.name}"


@dataclass(frozen=True)
class Passed(Told):
    """A player passes: by choice, or because no action is open to them (``forced``)."""

    forced: bool = field(default=False, kw_only=True)
    verb = "pass"

    def words(self, game) -> str:
        return "passes (no action is open)" if self.forced else "passes"


@dataclass(frozen=True)
class TurnBegun(Told):
    number: int = field(kw_only=True)
    verb = "turn"

    def words(self, game) -> str:
        return f"turn {self.number}"


@dataclass(frozen=True)
class CapReached(Told):
    cap: int = field(kw_only=True)
    verb = "cap"

    def words(self, game) -> str:
        return f"the turn cap ({self.cap}) is reached: no winner"


@dataclass(frozen=True)
class GameOver(Told):
    reason: str = field(kw_only=True)
    winners: tuple = field(default=(), kw_only=True)
    verb = "game over"

    def words(self, game) -> str:
        return self.reason


@dataclass(frozen=True)
class Narrated(Told):
    """A line a game engine tells in its own words (its phases, Assaults, track building…): typed by
    its ``verb`` and ``data`` only. The engines' lines are the part of the trace not yet told as
    events of their own (issue 22: partial)."""

    action: str = field(kw_only=True)
    text: str = field(kw_only=True)
    data: tuple = field(default=(), kw_only=True)  # (key, value) pairs

    @property
    def verb(self) -> str:  # type: ignore[override]
        return self.action

    def words(self, game) -> str:
        return self.text
