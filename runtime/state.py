"""Game state shared by every game: players, Goods, zones, cards, the seeded RNG and the trace.

Invariant (checked by ``check_conservation``): every card instance is in exactly one zone. All
movement goes through ``move``, which keeps the card→zone index in step with the zone lists, so the
invariant cannot drift. A zone's list runs bottom→top: ``cards[-1]`` is the top card.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Iterable

from .agents import Agent, FirstLegal
from .budget import Budget
from .errors import RulesError
from .events import Narrated, Told
from .model import model_of
from .shuffle import shuffle
from .statecopy import copy_state, peek, peek_all, peek_items, same

ZoneKey = tuple  # (zone name, owner index or None)


@dataclass
class CardInst:
    """One physical card in play. ``card_id`` points at its record in the compiled card table."""

    uid: int
    card_id: str
    face: str = "front"  # game-defined faces: "front", "hacked", "ruins", "machine"…
    goods: Counter = field(default_factory=Counter)  # Goods placed on the card
    owner: int | None = None
    props: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.card_id}#{self.uid}"


@dataclass
class Player:
    index: int
    name: str
    goods: Counter = field(default_factory=Counter)
    flags: dict = field(default_factory=dict)
    out: bool = False  # eliminated

    def __str__(self) -> str:
        return self.name


@dataclass
class Line:
    """One line of the trace: the typed event told (runtime/events.py ``Told``), the name of the
    player it is about, and its words, rendered from the event when it was told (the stable,
    snapshot-tested text). Tests read ``event``; ``verb`` and ``data`` are the event's."""

    event: Told
    player: str | None
    text: str

    @property
    def verb(self) -> str:
        return self.event.verb

    @property
    def data(self) -> dict:
        return dict(self.event.data) if isinstance(self.event, Narrated) else {}

    def __str__(self) -> str:
        who = f"{self.player}: " if self.player else ""
        return f"{who}{self.text}"


class GameState:
    def __init__(self, vocab: dict, cards: dict, players: Iterable[str], seed: int = 0,
                 agents: dict[int, Agent] | None = None, options: dict | None = None):
        self.vocab = vocab
        self.model = model_of(vocab)  # the typed reading of vocab (runtime/model.py): read it, not vocab
        self.cards = cards  # card id -> compiled card record (a dict with its fields and functions)
        self.players = [Player(i, n) for i, n in enumerate(players)]
        self.rng = random.Random(seed)
        self.seed = seed
        self.agents: dict[int, Agent] = dict(agents or {})
        self.default_agent: Agent = FirstLegal()
        self.options = dict(options or {})
        self.zones: dict[ZoneKey, list[int]] = {}
        self.where: dict[int, ZoneKey] = {}
        # uid -> CardInst; from the game's first copy on, an Instances shared with its copies until
        # touched (runtime/statecopy.py)
        self.instances: dict[int, CardInst] = {}
        self.log: list[Line] = []  # the trace: typed events told (runtime/events.py Told), with their words
        self.round = 1
        self.phase: str | None = None
        self.turn_player = 0
        self.starting_player = 0  # the current Starting Player (a flow passes it on, runtime/flow.py)
        self.until: list[tuple[str, Any]] = []  # (phase name, undo callback) for "until <phase>"
        self.tracing = True
        # a bot's what-if copy (runtime/bots.py): an engine may resolve a costly rule procedure of
        # its own approximately there (Moloch's Assault search, M04), never in the game being played
        self.imagined = False
        self.pile_ids: dict[str, set] = {}  # zones split by card id ("supply piles"): the ids stocked
        self.events: list = []        # typed events (runtime/events.py), in order
        self.turn_number = 0          # counts turns begun; events carry it ("this turn")
        self.fired: dict = {}         # (card uid, trigger index) -> turn/round it last fired ("the first time")
        self.resolving: set = set()   # trigger slots running now (no re-entry)
        self.pending: list = []       # durations set aside (runtime/context.py Pending), in the order set
        self.cost_changes: list = []  # this turn's cost changes (Ctx.cost_change): (query, n, player, names)
        self.immune: dict = {}        # card being played -> players unaffected by it (a reaction's immunity)
        self.extra_turns: list = []   # players owed an extra turn after the one under way, in the order earned
        self.playing: dict = {}       # uid -> player, for cards whose play effect is running ("play this
                                      # card" inside it; "cards you played this turn" counts them)
        self.listening = None         # the engine's table of trigger slots, built on the first event
        # who runs a trigger slot when an event is dispatched to it (Engine.dispatch): None, the slot's
        # compiled function; the differential test sets the reference interpreter here
        # (compiler/interpret.py ``reference_slot_runner``), so that triggers are compared too
        self.slot_runner = None
        self.running = 0              # effects running now (nested: a played card's, a trigger's)
        self.budget = Budget()        # the work the running effect and move may still do (runtime/budget.py)
        self.set_aside_from: dict = {}  # card set aside by reveal/look -> the pile it came from
        # the flow's own texts that were refused (runtime/flow.py): their YAML place -> [times, the
        # first reason]; simulate and play report them, since the flow goes on past a refusal
        self.flow_refusals: dict[str, list] = {}
        self.engine = None            # the engine playing this state, and the compiled game it plays:
        self.compiled = None          # set by Engine.new_game (a scenario's bare state has neither)
        self._next_uid = 1
        # cards created or moved so far: a cheap "has any card moved since?" for an engine that
        # keeps what it worked out from the zones (a Match's legal moves) until they change
        self.card_moves = 0
        for zname, z in self.model.zones.items():
            if z.per_player:
                for p in self.players:
                    self.zones[(zname, p.index)] = []
            else:
                self.zones[(zname, None)] = []

    # --- players and agents ------------------------------------------------------------------
    def agent(self, player: int) -> Agent:
        return self.agents.get(player, self.default_agent)

    def others(self, player: int) -> list[int]:
        return [p.index for p in self.players if p.index != player and not p.out]

    def active_players(self) -> list[int]:
        return [p.index for p in self.players if not p.out]

    # --- zones and cards ---------------------------------------------------------------------
    def zone_key(self, name: str, owner: int | None) -> ZoneKey:
        z = self.model.zones.get(name)
        if z is None:
            raise RulesError(f"unknown zone {name!r}")
        return (name, owner if z.per_player else None)

    def zone(self, name: str, owner: int | None = None) -> list[int]:
        return self.zones[self.zone_key(name, owner)]

    def create(self, card_id: str, zone: ZoneKey, face: str = "front", owner: int | None = None) -> CardInst:
        if card_id not in self.cards:
            raise RulesError(f"unknown card {card_id!r}")
        inst = CardInst(self._next_uid, card_id, face, owner=owner if owner is not None else zone[1])
        self._next_uid += 1
        self.instances[inst.uid] = inst
        self.zones[zone].append(inst.uid)
        if self.model.piled(zone[0]):
            self.pile_ids.setdefault(zone[0], set()).add(card_id)  # a supply pile exists once stocked
        self.where[inst.uid] = zone
        self.card_moves += 1
        return inst

    def create_many(self, card_ids: Iterable[str], zone: ZoneKey, owner: int | None = None) -> list[int]:
        """``create`` for each card id in order (a deck dealt at setup), with the zone looked up
        once; returns the new uids. The same state as that many ``create`` calls."""
        cards = self.cards
        owner = owner if owner is not None else zone[1]
        piles = self.model.piled(zone[0])
        into = self.zones[zone]
        instances, where = self.instances, self.where
        uids = []
        uid = self._next_uid
        new_counter = Counter.__new__  # an empty Counter without Counter.__init__'s update call
        for card_id in card_ids:
            if card_id not in cards:
                raise RulesError(f"unknown card {card_id!r}")
            instances[uid] = CardInst(uid, card_id, "front", new_counter(Counter), owner, {})
            into.append(uid)
            where[uid] = zone
            uids.append(uid)
            uid += 1
            if piles:
                self.pile_ids.setdefault(zone[0], set()).add(card_id)
        self._next_uid = uid
        self.card_moves += len(uids)
        return uids

    # Zones a card leaves by its engine's rules: ``move`` asks ``leaving`` before a card leaves one
    # (it may refuse, nothing moved, or keep the engine's own record of the zone in step). None by
    # default; Infernal Contraption's machines (only a terminal leaves, never the Power Core: I01, I03).
    # A class's own table (a subclass of GameState), read by every move: a game with none pays one look-up.
    ruled_zones: frozenset = frozenset()

    def leaving(self, uid: int, src: ZoneKey, to: ZoneKey) -> None:
        """Card ``uid`` is about to move from ``src`` (a zone of ``ruled_zones``) to ``to``."""

    def move_many(self, uids: list[int], to: ZoneKey) -> None:
        """``move`` each card onto ``to`` in order (the last ends on top), in one pass over each
        zone they leave: the same state as that many ``move`` calls, for dealing a deck."""
        where = self.where
        sources = set(map(where.__getitem__, uids))
        ruled = self.ruled_zones
        if ruled and any(z[0] in ruled for z in sources):  # the zone's rules, card by card
            for uid in uids:
                self.move(uid, to)
            return
        if len(sources) == 1:  # a deal from one pile: grouped at C speed
            leaving = {sources.pop(): set(uids)}
        else:
            leaving = {}
            for uid in uids:
                leaving.setdefault(where[uid], set()).add(uid)
        if sum(map(len, leaving.values())) != len(uids):  # a card listed twice: one move at a time
            for uid in uids:
                self.move(uid, to)
            return
        for src, gone in leaving.items():
            cards = self.zones[src]
            if len(gone) == 1:
                cards.remove(next(iter(gone)))
            else:
                cards[:] = [u for u in cards if u not in gone]  # in place: a verb may hold the list
        self.zones[to].extend(uids)
        where.update(dict.fromkeys(uids, to))
        self.card_moves += len(uids)

    def take_top(self, src: ZoneKey, n: int, to: ZoneKey) -> list[int]:
        """``n`` times (at most as many as ``src`` holds): ``move`` the top card of ``src`` onto ``to``;
        the cards moved, in that order. Made in one step (a draw of several cards), the state those
        moves leave; a zone whose cards leave by rules (``ruled_zones``), a move onto the same zone
        or a class with a ``move`` of its own goes card by card (tests/test_runtime_moves.py holds it
        to ``move``)."""
        cards = self.zones[src]
        if src[0] in self.ruled_zones or src == to or type(self).move is not GameState.move:
            taken = []
            for _ in range(min(n, len(cards))):
                taken.append(cards[-1])
                self.move(cards[-1], to)
            return taken
        taken = cards[-n:] if 0 < n else []
        taken.reverse()
        del cards[len(cards) - len(taken):]
        self.zones[to].extend(taken)
        self.where.update(dict.fromkeys(taken, to))
        self.card_moves += len(taken)
        return taken

    def move(self, uid: int, to: ZoneKey, bottom: bool = False) -> None:
        src = self.where[uid]
        if src[0] in self.ruled_zones:
            self.leaving(uid, src, to)
        cards = self.zones[src]
        if cards[-1] == uid:  # the top card (a draw, the card just played): no search from the bottom
            cards.pop()  # the same as remove: a card is in its zone once (check_conservation)
        else:
            cards.remove(uid)
        if bottom:
            self.zones[to].insert(0, uid)
        else:
            self.zones[to].append(uid)
        self.where[uid] = to
        self.card_moves += 1

    # Revealed and looked-at cards are set aside while the effect that revealed them runs (so a
    # draw in the same effect takes the next card, not one of them); the text puts them where it
    # says, and any it leaves go back on top of their pile, as they were, when the outermost
    # effect ends (docs/decisions.md).
    SET_ASIDE = "set aside"

    def set_aside(self, uid: int, player: int) -> ZoneKey:
        key = (self.SET_ASIDE, player)
        self.zones.setdefault(key, [])
        self.set_aside_from[uid] = self.where[uid]
        self.move(uid, key)
        return key

    def return_set_aside(self) -> None:
        for key in [k for k in self.zones if k[0] == self.SET_ASIDE]:
            for uid in reversed(self.zones[key]):  # the first revealed (the top card) goes back last
                self.move(uid, self.set_aside_from[uid])
            del self.zones[key]
        self.set_aside_from.clear()

    def card(self, uid: int) -> CardInst:
        return self.instances[uid]

    def record(self, uid: int) -> dict:
        held = self.instances  # a card's id never changes: read it without copying a shared card
        return self.cards[(held[uid] if type(held) is dict else held.peek(uid)).card_id]

    def top(self, zone: ZoneKey, n: int = 1) -> list[int]:
        cards = self.zones[zone]
        return list(reversed(cards[-n:])) if n > 0 else []

    def shuffle(self, zone: ZoneKey) -> None:
        shuffle(self.rng, self.zones[zone])  # rng.shuffle's draws, fewer calls (runtime/shuffle.py)

    # --- trace -------------------------------------------------------------------------------
    def publish(self, event) -> None:
        """Record a typed event and dispatch it to the trigger slots listening (the engine's bus)."""
        self.events.append(event)
        if self.engine is not None:
            listening = self.listening
            if listening is not None and not listening[0]:
                return  # no card of this game listens (Engine.trigger_slots): no call to offer it
            self.engine.dispatch(self, event)

    def unheard(self) -> bool:
        """Whether ``publish`` would only record an event now: no engine to offer it to, or no card
        of this game listens (``publish``'s own test). A caller that makes many events may then
        append them to ``events`` itself, in order. Before the first event the engine's trigger
        table is not built yet: it is built here, as the first ``publish`` would build it
        (``Engine.dispatch``; it reads only the game's model), so that a game's first draw — its
        set-up's opening hand — records its events without offering each to nobody."""
        engine = self.engine
        if engine is None:
            return True
        listening = self.listening
        if listening is None:
            listening = engine.trigger_slots(self)
        return not listening[0]

    def tell(self, event: Told) -> None:
        """Put a typed event on the trace (while tracing), its line rendered from it now."""
        if self.tracing:
            name = self.players[event.player].name if event.player is not None else None
            self.log.append(Line(event, name, event.words(self)))

    def emit(self, verb: str, player: int | None, text: str, **data) -> None:
        """A game engine's line in its own words (``Narrated``: typed by verb and data only)."""
        if self.tracing:
            self.tell(Narrated(player, action=verb, text=text, data=tuple(data.items())))

    def zone_words(self, key: ZoneKey, actor: int | None) -> str:
        """A zone as the trace names it, with whose it is: "the Deck", "their Parts pile" (the actor's
        own), "Ann's Hand" — the game's printed name, never the key."""
        name = self.model.zone_name(key[0])
        if key[1] is None:
            return f"the {name}"
        return "their " + name if key[1] == actor else f"{self.players[key[1]].name}'s {name}"

    def goods_words(self, good: str, n: int) -> str:
        """A number of a Good as the trace says it: the printed name, counted ("2 Coins", "2 Fuel")."""
        from .words import counted

        spec = self.model.goods.get(good)
        return counted(n, self.model.good_name(good), spec.printed.plural if spec is not None else None)

    def trace_text(self) -> str:
        return "\n".join(str(e) for e in self.log)

    # --- copies (Monte Carlo playouts, Match.copy) ------------------------------------------
    # what a copy shares with its original beyond runtime/statecopy.py's SHARED: a subclass names its
    # own per-compiled-game tables here (never changed by play)
    SHARED: tuple = ("observer", "slot_runner")
    # a subclass's own fields that a copy copies with a cheaper function than ``copy.deepcopy``
    # (field name -> function of the value); fields named in neither table are deep-copied
    COPIERS: dict = {}

    def copy(self) -> "GameState":
        """An independent copy, cheap enough for Monte Carlo playouts (runtime/statecopy.py
        ``copy_state``: what play changes is copied field by field, a subclass's own fields deep
        copied unless its ``COPIERS`` say how, the compiled game's tables shared; the copy does not
        trace)."""
        table = _COPY_TABLES.get(type(self))
        if table is None:  # once per class: copy_state keeps a plan per table (statecopy._PLANS)
            table = _COPY_TABLES[type(self)] = {**{name: same for name in self.SHARED}, **self.COPIERS}
        return copy_state(self, table)

    # --- invariants --------------------------------------------------------------------------
    def check_conservation(self) -> list[str]:
        """Every card instance in exactly one zone; returns the problems found (empty when sound)."""
        if self._conserved():
            return []
        problems = []
        seen: dict[int, ZoneKey] = {}
        for key, cards in self.zones.items():
            for uid in cards:
                if uid in seen:
                    problems.append(f"card {peek(self.instances, uid)} is in {seen[uid]} and in {key}")
                seen[uid] = key
                if self.where.get(uid) != key:
                    problems.append(f"card {peek(self.instances, uid)} index says {self.where.get(uid)}, found in {key}")
        missing = {uid for uid, _ in peek_items(self.instances)} - set(seen)
        for uid in sorted(missing):
            problems.append(f"card {peek(self.instances, uid)} is in no zone")
        return problems

    def _conserved(self) -> bool:
        """Whether ``check_conservation`` finds nothing, decided in one pass for a game holding its
        cards in a plain dict (a simulation checks every game, ``--check-moves`` every move): the
        zones, read as uid -> zone, hold each card once (as many uids as places), agree with the
        ``where`` index entry for entry, and hold every card instance. False sends the check the
        slow way, which names each problem."""
        if type(self.instances) is not dict:
            return False
        placed: dict = {}
        n = 0
        for key, cards in self.zones.items():
            for uid in cards:
                placed[uid] = key
            n += len(cards)
        return n == len(placed) and placed == self.where and placed.keys() == self.instances.keys()

    def fingerprint(self) -> tuple:
        """A cheap comparable summary of what effects change (Goods, zone contents, faces), so that a
        repetition can stop when a round changed nothing."""
        # lists, not generators: the same tuples (51st State's Assault search fingerprints often)
        return (tuple([tuple(sorted([(k, v) for k, v in p.goods.items() if v])) for p in self.players]),
                tuple([(k, tuple(v)) for k, v in self.zones.items()]),
                _faces(peek_all(self.instances)))

    def snapshot(self) -> dict:
        """A comparable picture of the state (for 'state unchanged after a refusal' tests)."""
        return {
            "players": [(p.name, dict(sorted(p.goods.items())), dict(sorted(p.flags.items())), p.out)
                        for p in self.players],
            "zones": {f"{k[0]}/{k[1]}": list(v) for k, v in sorted(self.zones.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))},
            "cards": {uid: (c.card_id, c.face, dict(sorted(c.goods.items())), c.owner, sorted(c.props.items(), key=str))
                      for uid, c in sorted(peek_items(self.instances))},
            "round": self.round,
            "phase": self.phase,
        }



# state class -> what its copies share and copy (``GameState.copy``): one table per class, so that
# copy_state's plan for it is found by the table's identity
_COPY_TABLES: dict[type, dict] = {}


_face = attrgetter("face")


def _faces(cards: dict) -> tuple:
    """Every card's face, keyed by the cards in order: as comparable as ((uid, face), …), built at C
    speed (the Assault search fingerprints thousands of states a game)."""
    return tuple(cards), tuple(map(_face, cards.values()))
