"""The context an effect function runs in, and the selector resolution every verb relies on.

Generated code calls only a handful of methods: ``call`` (a verb), ``count``/``test`` (quantities
and conditions), ``choose``/``each`` (bindings), ``require`` and ``let_x``. Everything else here
serves the verbs. All selection is driven by the game's vocabulary (its ``things``, ``zones``,
``goods``, ``icons``), never by names hard-coded for one game.
"""
from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import Any

from .budget import ROUNDS, STATEMENTS, OverBudget
from .errors import Nowhere, Refused, RulesError, Unmet
from .events import (CardsDrawn, CardsMoved, CardsShown, Chose, Discarded, Drawn, EffectRefused, Gained,
                     GoodsGained, GoodsPaid, GoodsPlaced, Moved, RepeatStopped, Trashed, card_event,
                     card_events)
from .model import ThingSpec
from .statecopy import peeker
from .refs import (CARD, DEFAULT, EVERY, GOOD, MANY, PILE, PLAYER, THING, VAR, ZONE, Bound, Every, Exactly,
                   FieldCompare, HasField, HasIcon, MatchingIcon, Not, OtherThan, Query, SameName, UpToN, Who)

# What one verb call can do is bounded by what a state can hold (issue 11). The checker refuses
# literals past 999 (compiler/parser.py MAX_LITERAL), but an expression can still multiply them
# ("(999 * 999 * 999) fuel per card in your hand"), and verbs loop once per unit (a Ruins per
# unit, a choice per "resource"). No amount can mean more than every card of the game or more
# than MAX_HELD of one Good, which is also the most of one Good a player or a card holds.
MAX_HELD = 9_999


class Ctx:
    __slots__ = ("game", "player", "card", "opponent", "bindings", "x", "verbs", "engine", "event", "about_self",
                 "played", "passing")

    def __init__(self, game, player: int, card: int | None = None, opponent: int | None = None,
                 bindings: dict | None = None):
        self.game = game
        self.player = player
        self.card = card  # uid of the card whose effect runs, when there is one
        self.opponent = opponent
        # "this card": the card whose effect runs, unless the bindings given name it already (made as
        # a literal when none are given: a context is made for every effect and requirement run)
        if bindings:
            self.bindings: dict[str, Any] = dict(bindings)
            if card is not None:
                self.bindings.setdefault(THIS_CARD, card)
        else:
            self.bindings = {} if card is None else {THIS_CARD: card}
        self.x: int | None = None
        self.event = None  # the event a trigger slot is being asked about (runtime/events.py)
        self.about_self = False  # the card hears it only because the event is about it (Engine.dispatch)
        self.played: set = set()  # cards this effect has played ("play c; play c" plays c again in place)
        self.passing: list | None = None  # cards passed inside an acting clause, moved when it ends (issue 28)
        self.engine = game.engine
        self.verbs = game.verbs

    # --- what generated code calls -----------------------------------------------------------
    def call(self, name: str, objs: tuple = (), ph: dict | None = None, strict: bool = False):
        v = self.verbs.get(name)
        if v is None:  # the checker makes this impossible for compiled content
            raise RulesError(f"verb {name!r} is not available in this game")
        self.game.budget.spend(STATEMENTS, self.game)  # every statement an effect runs is a verb call
        try:
            return v.fn(self, objs, ph or {}, strict)
        except Nowhere:
            if strict:  # a cost with nowhere to be paid from cannot be paid
                raise
            return []  # nothing done, nothing named ("… as d" holds nothing)

    def _rounds(self, items):
        """Every round of every loop an effect runs is charged (runtime/budget.py): nested loops
        multiply, so a per-loop cap alone does not bound the work."""
        spend, game = self.game.budget.spend, self.game
        for item in items:
            spend(ROUNDS, game)
            yield item

    def require(self, ok: bool, what: str) -> None:
        if not ok:
            raise Unmet(f"requirement not met: {what}")

    def let_x(self, value: int, minimum: int | None, what: str) -> int:
        if minimum is not None and value < minimum:
            raise Unmet(f"needs {what} to be at least {minimum} (it is {value})")
        self.x = value
        return value

    def choose(self, sel: Query, name: str) -> Any:
        options = self.options(sel)
        made = self.bindings.pop(MOVE_CHOICE, None)
        if made is not None:  # this choice was made as a move of the game flow (runtime/flow.py)
            if made is PROBE:
                raise ChoiceOptions(options)
            if made not in options:
                raise Refused(f"{self.describe(made)} is not a {sel.key} to choose now")
            self.bindings[name] = made
            if self.game.tracing:  # the name a text binds ("as c") is the designer's, not the player's
                self.game.tell(Chose(self.player, shown=self.describe(made)))
            return made
        n = self.amount(sel, default=1)
        if isinstance(sel.amount, UpToN):
            picks = self.ask(options, sel.amount.n, low=0, prompt=f"choose {sel.key}")
        else:
            # Nothing (or too little) to choose does not end the effect (issue 22, docs/decisions.md):
            # the name holds what there was — possibly nothing — and every later statement does as
            # much as it can with it; one that does not use the name runs as written.
            picks = self.ask(options, n, prompt=f"choose {sel.key}")
        value = picks[0] if len(picks) == 1 and not isinstance(sel.amount, UpToN) else picks
        self.bindings[name] = value
        if self.game.tracing:
            self.game.tell(Chose(self.player, shown=self.describe(value)))
        return value

    def each(self, sel: Query) -> list:
        options = self.options(sel)
        if isinstance(sel.amount, UpToN):
            return self._rounds(self.ask(options, sel.amount.n, low=0, prompt=f"for each {sel.key}"))
        if type(sel.amount) is not Exactly:  # no amount, or "all": every one
            return self._rounds(options)
        return self._rounds(self.ask(options, min(sel.amount.n, len(options)), prompt=f"for each {sel.key}"))

    def bind(self, name: str, value: Any) -> None:
        self.bindings[name] = value

    # --- menus, acting players, repetition ---------------------------------------------------
    def menu(self, count: int, labels: tuple[str, ...]) -> list[int]:
        """``choose one: A; or B``: the player picks ``count`` distinct options, offered with their
        English labels; they run in the order printed."""
        options = [MenuOption(i, label) for i, label in enumerate(labels)]
        picks = self.ask(options, min(count, len(options)), prompt=f"choose {count} of: " + " / ".join(labels))
        chosen = sorted(p.index for p in picks)
        self.game.tell(Chose(self.player, options=tuple(labels[i] for i in chosen)))
        return self._rounds(chosen)

    def acting(self, who: str) -> list[int]:
        """The players an acting-player clause runs for, in seat order starting after the acting
        player: "each opponent" / "each other player" (every other player still in the game),
        "each player" (you first, then the others in that order), "the player to your left/right"
        (the next seat / the previous seat in turn order), "target opponent" (the effect's opponent,
        chosen by the acting player when there are several: Ctx.the_opponent), "target player" (one
        player still in, you included, chosen by the acting player). A player unaffected by this card
        (a reaction's "you are unaffected by it") is left out.

        Cards passed inside the clause ("each player: pass 1 card from your hand to left neighbour's
        hand") move when the clause ends, all at once: each player chooses first, so no card is passed
        twice (issue 28). A nested clause's passes wait for the outermost one."""
        outer = self.passing is None
        if outer:
            self.passing = []
        try:
            yield from self._rounds(self.reachable(self._acting(who)))
            if outer and self.passing:
                self._move_passed(self.passing)
        finally:
            if outer:
                self.passing = None

    def _acting(self, who: str) -> list[int]:
        g = self.game
        if who == "they":  # h28b: the player the event being dispatched is about, while still in the game
            p = getattr(self.event, "player", None)
            return [p] if p is not None and not g.players[p].out else []
        others = self._others_in_turn_order()
        if who in ("opponent", "other"):
            return others
        if who == "each":
            return [self.player] + others
        if who == "chosen":  # "target player: …": any player still in, you included, in seat order from you
            return [self.ask([("player", p) for p in [self.player] + others], 1, prompt="choose a player")[0][1]]
        if not others:
            return []
        if who == "target":  # "target opponent: …": the effect's one opponent (issue 28)
            return [self.the_opponent()]
        return [others[0]] if who == "left" else [others[-1]]

    def _others_in_turn_order(self) -> list[int]:
        """The other players still in the game, in seat order starting after the acting player: the
        first is the player to the left, the last the player to the right."""
        g = self.game
        n = len(g.players)
        return [p for p in ((self.player + k) % n for k in range(1, n)) if not g.players[p].out]

    def neighbour(self, side: str) -> int:
        """The player to your left (the next seat still in the game) or right (the previous one)."""
        others = self._others_in_turn_order()
        if not others:
            raise Refused("there is no other player")
        return others[0] if side == "left" else others[-1]

    def _move_passed(self, passing: list) -> None:
        """The cards passed inside an acting clause, moved together in the order they were chosen; a
        card no longer where it was passed from (moved again by its passer's own text) stays put."""
        g = self.game
        for player, uid, src, dest in passing:
            if g.where.get(uid) != src:
                continue
            g.move(uid, dest)
            g.instances[uid].owner = dest[1] if dest[1] is not None else g.instances[uid].owner
            g.publish(card_event(Moved, player, uid, g.turn_number, g.round, to=dest[0]))
            if g.tracing:
                g.tell(CardsMoved(player, action="pass", n=1, to=dest))

    @contextmanager
    def as_player(self, player: int):
        """Run a clause as ``player``: "you", "your" and "opponent" are theirs, and their agent chooses.

        "opponent" inside the clause is one of the acting player's opponents: the effect's own opponent
        for the card's player, and for anyone else chosen by them when there are several (the English
        reads "their opponent"). Each player's part is their own: a refusal in it (a cost they cannot
        pay, a pile of theirs that is not there) ends that part only, and the next player acts
        (issue 22, docs/decisions.md)."""
        saved = self.player, self.opponent
        self.player = player
        self.opponent = saved[1] if player == saved[0] else None
        try:
            yield
        except OverBudget:
            raise  # not this player's refusal: the whole effect stops (runtime/budget.py)
        except Refused as exc:
            self.game.tell(EffectRefused(player, reason=exc.reason))
        finally:
            chosen = self.opponent
            self.player, self.opponent = saved
            if player == saved[0] and saved[1] is None:
                # the card's own player chose the effect's opponent inside the clause: it holds for
                # the rest of the effect too (an effect has one opponent, Ctx.the_opponent)
                self.opponent = chosen

    MAX_REPEATS = 100

    def repeat(self):
        """``until C: body``: yields while rounds change something, at most MAX_REPEATS times (a body
        that changes nothing would otherwise loop for ever)."""
        last = None
        g = self.game
        for _ in range(self.MAX_REPEATS):
            self.game.budget.spend(ROUNDS, self.game)  # nested untils multiply their caps: all are charged
            # what a round can change: GameState.fingerprint (players' Goods, zones, faces) and the Goods
            # on cards — a round that placed Goods on a card changed something (docs/language.md;
            # the differential test found rounds of "place 1 vp on t" stopped after the first)
            now = (g.fingerprint(), tuple((uid, tuple(sorted((k, n) for k, n in c.goods.items() if n)))
                                          for uid, c in g.instances.items() if any(c.goods.values())))
            if now == last:
                self.game.tell(RepeatStopped(self.player))
                return
            last = now
            yield

    # --- triggers and turn history ----------------------------------------------------------
    def _subject_ok(self, who: str, player: int | None) -> bool:
        """Whether ``player`` did it, as the trigger's subject says, seen from this card's player."""
        if who == "any":
            return True
        if who == "you":
            return player == self.player
        return player is not None and player != self.player  # "an opponent", "another player"

    def _event_card_ok(self, sel: Query | None, uid: int | None) -> bool:
        if sel is None:
            return True
        if uid is None or uid not in self.game.instances:
            return False
        if sel.category == VAR:
            bound = self.bindings.get(sel.key)
            return uid in (bound if isinstance(bound, list) else [bound])
        # An event's card is matched as printed (its front), not as it lies now: a razed Location is
        # a Ruins by the time the event is dispatched, yet "you raze a location" is what happened.
        inst = self.game.instances[uid]
        rec = self.game.cards[inst.card_id]
        # "a location": the card is what the thing declares, by the same test as selection (is_thing),
        # as printed: where it lies now and its face now are not asked — it has just moved or turned
        if sel.category == THING and not self.is_thing(self.game.model.things[sel.key], uid, inst, rec,
                                                       as_printed=True):
            return False
        return all(self._filter(f, rec, inst) for f in sel.filters)

    def triggered(self, index: int, kind: str, who: str, sel: Query | None, once: str | None) -> bool:
        """Whether the event being dispatched fires trigger ``index`` of this card's slot."""
        ev, g = self.event, self.game
        if ev is None or ev.kind != kind or not self._subject_ok(who, ev.player):
            return False
        if not self._event_card_ok(sel, getattr(ev, "card", None)):
            return False
        if self.about_self and not (sel is not None and sel.category == VAR and sel.key == THIS_CARD):
            return False  # outside its slot's zones a card hears only "… this card" triggers
        card = getattr(ev, "card", None)
        if card is not None:  # h28b: "it" in the body is the event's card ("you may put it onto your deck")
            self.bindings[EVENT_CARD] = card
        if once is not None:  # "the first time each turn/round": once per card instance
            now = g.turn_number if once == "turn" else g.round
            key = (self.card, index)
            if g.fired.get(key) == (once, now):
                return False
            g.fired[key] = (once, now)
        return True

    # --- abilities (issue 28): used as moves of the game flow ----------------------------------
    def using(self, index: int) -> bool:
        """Whether this run of an ability slot is the use of its ability ``index`` (the flow binds
        ``ABILITY_USE`` to (slot, index, mode) when the player picks the move; any other run of the
        slot uses no ability and does nothing)."""
        use = self.bindings.get(ABILITY_USE)
        return use is not None and use[1] == index

    def ability_gate(self, once: str | None, holds: bool, costs: bool) -> None:
        """The ability's limits, before anything of it happens: its ``while`` condition holds, and a
        ``once per turn|round`` ability was not used by this card in this turn (round). The use is
        kept per card, slot and place in ``GameState.fired`` (as "the first time each turn" is).
        ``PROBE_GATE``: stops here, raising ``AbilityUsable`` (the flow asks whether to offer it)."""
        slot, index, mode = self.bindings[ABILITY_USE]
        if not holds:
            raise Unmet("the ability's 'while' condition does not hold")
        g = self.game
        key = now = None
        if once is not None:
            now = g.turn_number if once == "turn" else g.round
            key = (self.card, slot, index)
            if g.fired.get(key) == (once, now):
                raise Unmet(f"the ability was already used this {once}")
        if mode == PROBE_GATE:
            raise AbilityUsable(costs)
        if key is not None:
            g.fired[key] = (once, now)

    def ability_paid(self) -> None:
        """The ability's cost is paid. ``PROBE_COST`` (on a copy of the game): stops here, usable."""
        if self.bindings[ABILITY_USE][2] == PROBE_COST:
            raise AbilityUsable(True)

    # --- h28b (issue 28): optional statements, the event's player, durations, cost changes ----------
    def may(self, label: str) -> bool:
        """``you may …``: the acting player says yes or no (offered in that order, so the default agent
        does as much as it may)."""
        pick = self.ask([MenuOption(0, "yes"), MenuOption(1, "no")], 1, prompt=f"you may {label}")[0]
        self.game.tell(Chose(self.player, options=(f"{'' if pick.index == 0 else 'not '}{label}",)))
        return pick.index == 0

    def later(self, moment: str, when: str, fn) -> None:
        """``at the start of your next turn: …`` / ``at the end of this turn: …``: set the body aside for
        the acting player, with this card and the names bound so far (Engine.begin_turn / end_turn run
        it). Each run of the text sets one aside: a card played three times has three."""
        g = self.game
        g.pending.append(Pending(moment, when, self.player, g.turn_number, self.card,
                                 tuple((k, _frozen(v)) for k, v in self.bindings.items()), fn))

    def extra_turn(self) -> None:
        """``after this turn, take an extra turn``: owed to the acting player; the game flow gives it
        after the turn under way (runtime/flow.py FlowMatch._end_turn), never two extra turns in a row."""
        if self.player not in self.game.extra_turns:
            self.game.extra_turns.append(self.player)

    def immune(self) -> None:
        """``you are unaffected by it``: while the event's card resolves, its acting-player clauses skip
        this player (Ctx._acting); the play verb forgets it when the effect is done."""
        card = self.bindings.get(EVENT_CARD)
        if card is not None:
            self.game.immune.setdefault(card, set()).add(self.player)

    def cost_change(self, sel: Query, n: int) -> None:
        """``this turn, cards cost 1 less``: until this turn ends (Engine.end_turn), every cost read of a
        card ``sel`` names is ``n`` lower, never below 0 (docs/decisions.md)."""
        self.game.cost_changes.append((sel, n, self.player, tuple(self.bindings.items())))

    def changed_cost(self, uid: int, printed: int, rec: dict) -> int:
        """A card's cost as this turn's cost changes make it (each that names the card lowers it) and as
        its own "this costs 1 less per …" makes it for the player reading it; never below 0."""
        cut = 0
        for sel, n, player, bindings in self.game.cost_changes:
            ctx = Ctx(self.game, player, bindings=dict(bindings))
            if ctx._event_card_ok(sel, uid):  # matched as printed, wherever the card is
                cut += n
        model = self.game.model
        kind = model.kinds.get(rec.get("kind")) if model.cost_slots else None  # most games declare none
        for slot in (kind.slots if kind is not None else ()):
            fn = (rec.get("slots") or {}).get(slot.key) if slot.kind == "cost" else None
            if fn is not None:  # a slot of kind cost: its text sets X to how much less (compiler/ir.py OwnCost)
                ctx = Ctx(self.game, self.player, uid)
                fn(ctx)
                cut += int(ctx.x or 0)
        return max(0, printed - cut) if cut else printed

    def history(self, kind: str, who: str, sel: Query, period: str) -> int:
        """``number of cards you played this turn``: this turn's (or round's) events of that kind."""
        g = self.game
        now = g.turn_number if period == "turn" else g.round
        done = sum(1 for ev in g.events
                   if ev.kind == kind and (ev.turn if period == "turn" else ev.round) == now
                   and self._subject_ok(who, ev.player) and self._event_card_ok(sel, getattr(ev, "card", None)))
        if kind != "play":
            return done
        # A card is played when its play starts; its Played event is published when its effect is done
        # (so that "whenever you play …" sees it resolved). A card still resolving — this one, or the
        # card that played it — has been played this turn all the same (issue 22).
        return done + sum(1 for uid, p in g.playing.items() if self._subject_ok(who, p) and self._event_card_ok(sel, uid))

    def publish_card(self, cls, uid: int, **extra) -> None:
        g = self.game
        g.publish(card_event(cls, self.player, uid, g.turn_number, g.round, **extra))

    # --- quantities --------------------------------------------------------------------------
    @staticmethod
    def div(a: int, b: int) -> int:
        """Division rounds down; dividing by zero gives 0 (a count of nothing)."""
        return a // b if b else 0

    def field_of(self, name: str, bound: str) -> int:
        """``the cost of t``: a numeric field of a chosen card (or of this card)."""
        uid = self.bindings.get(bound)
        if isinstance(uid, list) and len(uid) == 1:
            uid = uid[0]
        if isinstance(uid, list) and not uid:
            return 0  # a choice that found nothing: the field of nothing counts 0 (docs/decisions.md)
        if not (isinstance(uid, int) and uid in self.game.instances):
            raise Refused(f"{bound!r} is not a card")
        inst = self.game.instances[uid]
        value = face_view(self.game.cards[inst.card_id], inst).get(name)
        if value is None and name in self.game.model.quantity_slots:
            return self.slot_quantity(uid, name)
        if value is None:
            return 0  # a card that prints no such number counts 0, as at the table (docs/decisions.md)
        if not isinstance(value, int) or isinstance(value, bool):
            raise Refused(f"the {name.replace('_', ' ')} of {self.describe(uid)} is not a whole number")
        if name == COST_FIELD:  # "the cost of c": as buying reads it (h28b)
            value = self.changed_cost(uid, value, face_view(self.game.cards[inst.card_id], inst))
        return value

    def slot_quantity(self, uid: int, slot: str) -> int:
        """``the worth of b`` where ``worth`` is a slot of kind quantity (issue 28): the card's slot,
        run for the card's owner ("you" in it is whose card it is, whoever reads it; a card nobody owns:
        the reader) with the card as "this card". A card without that slot counts 0; a slot that asks
        for itself while it is being worked out (directly or through other cards) is refused, not an
        endless loop."""
        inst = self.game.instances[uid]
        fn = face_view(self.game.cards[inst.card_id], inst).get("slots", {}).get(slot)
        if fn is None:
            return 0
        key = (uid, slot)
        if key in self.game.resolving:
            raise Refused(f"the {slot} of {self.describe(uid)} depends on itself")
        self.game.resolving.add(key)
        try:
            inner = Ctx(self.game, inst.owner if inst.owner is not None else self.player, uid)
            fn(inner)
        finally:
            self.game.resolving.discard(key)
        return int(inner.x or 0)

    def count(self, sel: Query) -> int:
        """How many: Goods a player holds, cards in a zone, matching things."""
        if sel.category == GOOD:
            try:
                good = self.good_of(sel)
            except Nowhere:  # "number of goods matching i" of an i that found no icon: none
                return 0
            goods = self.group_members(good) or [good]  # "number of resources": every Good of the group
            return sum(self.game.players[p].goods[k] for p in self.players_for(sel.owner) for k in goods)
        if sel.category == PILE:  # "number of empty supply piles": one pile per card id the zone started with
            empty = sel.key.startswith("empty:")
            zone = self.game.zone_key(sel.key.split(":")[-1], self.player)
            left = Counter(self.game.instances[u].card_id for u in self.game.zones[zone])
            ids = self.game.pile_ids.get(zone[0], set())
            return sum(1 for cid in ids if (left[cid] == 0) == empty)
        if sel.category == ZONE:  # "number of cards in each player's hand" counts every such zone
            return sum(len(self.game.zones[z]) for z in self.ref_zones(sel))
        if sel.category == CARD and not sel.filters:  # "number of cards in your hand": the zones' sizes
            if sel.place is None:
                return len(self.game.zones[self.game.zone_key(self.hand_zone(), self.player)])
            return sum(len(self.game.zones[z]) for z in self.ref_zones(sel.place))
        return len(self.options(sel))

    def test(self, sel: Query) -> bool:
        """``requires 1 card in your hand``: at least the selector's amount of such things exist."""
        need = self.amount(sel, default=1)
        return self.count(sel.with_amount(DEFAULT)) >= need

    # --- amounts -----------------------------------------------------------------------------
    def amount(self, sel: Query, default: int = 1) -> int:
        a = sel.amount
        t = type(a)
        if t is Exactly or t is UpToN:
            n = a.n if a.n > 0 else 0
        elif t is Every:
            n = 10**9
        else:  # Default: one, or "the" thing — the verb says which
            n = default
        if sel.per is not None:
            every = sel.per.every if sel.per.every is not None and sel.per.every > 0 else 1
            n *= self.count(sel.per) // every  # "1 vp per 10 cards": whole tens
        if n <= MAX_HELD:  # within every cap below: most amounts (a statement's few cards), no calls
            return n
        return min(n, max(MAX_HELD, len(self.game.instances)))

    # --- players -----------------------------------------------------------------------------
    def players_for(self, owner: Who | Bound | None) -> list[int]:
        if owner is None or owner is Who.YOU:
            return [self.player]
        if type(owner) is Bound:
            value = self.bindings[owner.name]
            if isinstance(value, list):  # a choice of cards: their owners (none when it found nothing)
                return sorted({self.player_of_value(v) for v in value})
            return [self.player_of_value(value)]
        if owner is Who.ENEMY or owner is Who.ANOTHER:
            return self.reachable(self.game.others(self.player))
        if owner is Who.OPPONENT:
            return [self.the_opponent()]
        if owner is Who.ANY or owner is Who.EACH:
            return self.reachable(self.game.active_players())
        if owner is Who.OWNER:
            return [self.owner_of_card(self.card)]
        if owner is Who.LEFT or owner is Who.RIGHT:  # "left neighbour's hand" (issue 28)
            return self.reachable([self.neighbour(owner.value)])  # an unaffected neighbour is passed by
        raise RulesError(f"unknown owner {owner!r}")

    def player_of(self, sel: Query) -> int:
        if sel.category == VAR:
            return self.player_of_value(self.bindings[sel.key])
        who = sel.key
        if who in ("you",):
            return self.player
        if who == "opponent":
            return self.the_opponent()
        if who == "owner":
            return self.owner_of_card(self.card)
        raise RulesError(f"unknown player {who!r}")

    def the_opponent(self) -> int:
        """The effect's opponent: one player for the whole effect. An effect run without one (a 3-player
        game, an acting player other than the card's) has the acting player choose among the others the
        first time "opponent" is needed, and keeps that choice: "give 1 card from your hand to opponent;
        draw 2 cards from opponent's parts pile" is one opponent. It was chosen anew by each 'to
        opponent', and "opponent's pile" silently took the first other player, or every other player
        for "opponent's cards" (found by the differential test, issue 22; docs/decisions.md)."""
        if self.opponent is None:
            others = self.reachable(self.game.others(self.player))
            if not others:
                raise Refused("there is no opponent")
            self.opponent = self.ask([("player", p) for p in others], 1, prompt="choose an opponent")[0][1]
        elif not self.reachable([self.opponent]):
            raise Refused("the opponent is unaffected by this card")
        return self.opponent

    def reachable(self, players: list[int]) -> list[int]:
        """``players`` less those unaffected by the card resolving (a reaction's "you are unaffected by
        it"): the card's owners (``opponent's hand``, ``enemy``, ``any player's``) and its opponent never
        name them, as its acting-player clauses skip them (``acting``) — the whole card passes them by,
        so the English's "unaffected" is the whole truth (issue 28; docs/decisions.md)."""
        immune = self.game.immune.get(self.card) if self.game.immune else None
        return [p for p in players if p not in immune] if immune else players

    def player_of_value(self, value: Any) -> int:
        if isinstance(value, int) and value in self.game.instances:
            return self.owner_of_card(value)
        if isinstance(value, tuple) and value and value[0] == "player":
            return value[1]
        raise RulesError(f"{value!r} has no owner")

    def owner_of_card(self, uid: int | None) -> int:
        if uid is None:
            return self.player
        inst = self.game.instances[uid]
        if inst.owner is not None:
            return inst.owner
        return self.game.where[uid][1] if self.game.where[uid][1] is not None else self.player

    # --- zones -------------------------------------------------------------------------------
    def zone_for(self, sel: Query, default_owner: int | None = None):
        owner = sel.owner
        if (owner is None or owner is Who.YOU or owner is Who.OPPONENT) and sel.category != VAR:
            # one player's zone, named by the model, any player's to use (most places effects name):
            # the steps below, without their calls — the player (the opponent asked for as
            # ``players_for`` asks), no ``access: others`` to apply, nobody to choose among, and
            # ``zone_key``'s key (tests/test_zone_for.py holds this to ``zone_for_by_steps``)
            z = self.game.model.zones.get(sel.key)
            if z is not None and not z.others_only:
                if owner is None:
                    p = default_owner if default_owner is not None else self.player
                elif owner is Who.YOU:
                    p = self.player
                else:
                    p = self.the_opponent()
                return (sel.key, p if z.per_player else None)
        return self.zone_for_by_steps(sel, default_owner)

    def zone_for_by_steps(self, sel: Query, default_owner: int | None = None):
        """``zone_for`` step by step: whose (``players_for``), ``access: others``, whose of several, the
        zone's key. Every place ``zone_for`` does not answer at once comes here."""
        if sel.category == VAR:
            value = self.bindings[sel.key]
            if isinstance(value, tuple) and value and value[0] == "zone":
                return value[1]
            raise RulesError(f"{sel.key} is not a zone")
        owners = self.players_for(sel.owner) if sel.owner else [default_owner if default_owner is not None
                                                                 else self.player]
        if self.others_only(ZONE, sel.key):
            owners = self._not_mine(owners, sel.key)
        if sel.owner in MANY and sel.owner is not Who.EACH and len(owners) > 1:
            # "another player's discard pile": the acting player picks whose, each time it resolves
            options = [o for o in owners if o != self.player] if sel.owner is not Who.ANY else owners
            owners = self.ask(options, 1, prompt=f"choose whose {sel.key}")
        if not owners:
            if type(sel.owner) is Bound:  # "t's hand" of a t that found nothing
                raise Nowhere(f"{sel.owner.name} holds nothing, so there is no {sel.key}")
            raise Refused(f"there is no {sel.key} to use")
        return self.game.zone_key(sel.key, owners[0])

    def others_only(self, category: str, noun: str) -> bool:
        """``access: others`` on a zone (or a thing, or a thing's zone): an effect may use only
        ANOTHER player's one (Scavengers S07/S08). The checker rejects naming your own (E207);
        this is the run-time half, for owners only known then (a chosen player)."""
        return self.game.model.others_only(category, noun)

    def _not_mine(self, owners: list, what: str) -> list:
        """Drop the acting player from ``owners``; refuse (nothing changed yet) if only they were meant."""
        rest = [o for o in owners if o != self.player]
        if owners and not rest:
            m = self.game.model
            spec = m.zones.get(what) or m.things.get(what)
            raise Refused(f"you may never use your own {spec.name if spec else what.replace('_', ' ')}")
        return rest

    def ref_zones(self, ref: Query) -> list:
        """Every zone a reference names: "another player's discard pile" is each other player's."""
        if ref.category == ZONE and ref.owner in MANY \
                and self.game.model.zones[ref.key].per_player:
            owners = self.players_for(ref.owner)
            if self.others_only(ZONE, ref.key):
                owners = self._not_mine(owners, ref.key)
            return [self.game.zone_key(ref.key, o) for o in owners]
        if ref.category == ZONE and type(ref.owner) is Bound \
                and not self.players_for(ref.owner):
            return []  # "cards in t's hand" of a t that found nothing: no zone, no cards
        return [self.zone_for(ref)]

    def hand_zone(self) -> str:
        return self.game.model.rules.hand

    def discard_zone_for(self, player: int | None = None):
        return self.game.zone_key(self.game.model.rules.discard_to, self.player if player is None else player)

    # --- things ------------------------------------------------------------------------------
    def options(self, sel: Query) -> list:
        """The legal candidates for a selector, in a deterministic order."""
        g = self.game
        if sel.category == VAR:
            v = self.bindings.get(sel.key)
            values = list(v) if isinstance(v, list) else ([] if v is None else [v])
            if isinstance(v, Revealed):  # "r" after some revealed cards left the pile: the rest
                values = [u for u in values if g.where.get(u) == v.zone]
            if sel.filters:  # "g with icon action": the filter narrows the chosen cards
                values = [u for u in values if self._card_passes(u, sel.filters)]
            return values
        if sel.category == CARD:
            zones = self.ref_zones(sel.place) if sel.place is not None else \
                [g.zone_key(self.hand_zone(), self.player)]
            out = [u for z in zones for u in reversed(g.zones[z])]
            if sel.filters:  # every value here is a card of a zone: _card_passes without its check
                # read without copying: a filter never writes the card (runtime/statecopy.py ``peeker``;
                # a game never copied keeps a plain dict, read by subscription as before)
                filters, held, cards, test = sel.filters, g.instances, g.cards, self._filter
                peek = peeker(held)
                kept = []
                for u in out:
                    inst = held[u] if peek is None else peek(u)
                    rec = face_view(cards[inst.card_id], inst)
                    for f in filters:
                        if not test(f, rec, inst):
                            break
                    else:
                        kept.append(u)
                out = kept
            return out
        if sel.category == ZONE:
            return [("zone", self.zone_for(sel))]
        if sel.category == PLAYER:
            if sel.key == "player" or sel.key == "players":
                return [("player", p) for p in self.players_for(sel.owner or Who.ANY)]
            return [("player", self.player_of(sel))]
        if sel.category == "icon":
            if sel.of is not None:
                out = []
                for uid in self.options(sel.of):
                    out += [i for i in g.record(uid).get("icons", ()) if i not in out]
                return out
            return list(g.model.icons)
        if sel.category == THING:
            return self.things(sel)
        if sel.category == GOOD:
            group = g.model.good_groups.get(sel.key)
            return list(group) if group else [sel.key]  # "choose 1 resource": one of the group's Goods
        raise RulesError(f"cannot select {sel.category}")

    def _card_passes(self, uid, filters) -> bool:
        """A chosen value passes a selector's filters: it is a card and every filter holds for it."""
        g = self.game
        if not (isinstance(uid, int) and uid in g.instances):
            raise Refused("a filter can only narrow cards, and the chosen value is not a card")
        inst = g.instances[uid]
        rec = face_view(g.cards[inst.card_id], inst)
        test = self._filter
        for f in filters:
            if not test(f, rec, inst):
                return False
        return True

    def thing_zones(self, sel: Query) -> list:
        """The zones a THING selector's candidates are listed from, in listing order (``things``; the
        Assault search's read sets, moloch.py, name the same zones)."""
        g = self.game
        spec = g.model.things[sel.key]
        mine_barred = spec.others_only
        ref = sel.place if sel.place is not None else (sel.of if sel.of is not None and sel.of.category == ZONE
                                                       else None)
        if ref is not None:  # "in your hand", "top card of another player's discard pile"
            return [z for z in self.ref_zones(ref) if z[0] in spec.zones or not mine_barred]
        owner = sel.owner or (Who.ANOTHER if mine_barred else None)
        owners = self.players_for(owner) if spec.per_player else [None]
        if mine_barred and spec.per_player:
            owners = self._not_mine(owners, sel.key)
        return [g.zone_key(z, o) for z in spec.zones for o in owners]

    def things(self, sel: Query) -> list[int]:
        g = self.game
        spec = g.model.things[sel.key]
        zones = self.thing_zones(sel)
        top_only = spec.top_only
        out = []
        held, cards = g.instances, g.cards
        peek = peeker(held)  # the candidates are read, never written: none is copied
        # looked up once: this loop runs per card of the zones at every listing (a search lists thousands)
        filters, test, is_thing = sel.filters, self._filter, self.is_thing
        for key in zones:
            for uid in g.top(key, 1) if top_only else reversed(g.zones[key]):
                inst = held[uid] if peek is None else peek(uid)
                rec = face_view(cards[inst.card_id], inst)
                if not is_thing(spec, uid, inst, rec):
                    continue
                for f in filters:  # ``all`` of them, in order, without a generator per card
                    if not test(f, rec, inst):
                        break
                else:
                    out.append(uid)
        return out

    def is_thing(self, spec: ThingSpec, uid: int, inst, rec: dict, as_printed: bool = False) -> bool:
        """Whether a card is the thing ``spec`` declares, whatever zone it is in: its face, its kind,
        the fields its ``where`` names, and the engine's filter. The one home of that rule: selection
        (``things``) and triggers and turn history ("whenever you play a silver", ``_event_card_ok``)
        both ask here. ``as_printed``: an event's card is judged by its printed record — its kind and
        fields —, not by its face or place now (a razed Location is a Ruins by the time its event is
        dispatched, yet "you raze a location" is what happened)."""
        if not as_printed and spec.faces is not None and inst.face not in spec.faces:
            return False
        if spec.kinds is not None and rec.get("kind") not in spec.kinds:
            return False
        for k, values in spec.where:
            if not _field_has(rec, inst, k, values):
                return False
        # a predicate only the game's engine can compute (e.g. Infernal Contraption's "terminal":
        # a card attached at one socket), named in the vocabulary, never code from the data; it asks
        # where the card lies now, so not of an event's card
        return as_printed or spec.engine_filter is None or self.engine.thing_filter(spec.engine_filter)(self.game, uid)

    def _filter(self, f, rec: dict, inst) -> bool:
        """Whether a card (its record as its face shows it, and its instance) passes one typed filter:
        one method per filter kind, the runtime's one implementation of each (issue 22)."""
        return _FILTER_TESTS[type(f)](self, f, rec, inst)

    def _has_icon(self, f: HasIcon, rec: dict, inst) -> bool:
        icons = rec.get("icons", ())  # any of the icons named (no sets built: this runs per card per filter)
        return any(i in icons for i in f.icons)

    def _has_field(self, f: HasField, rec: dict, inst) -> bool:
        has = bool(rec.get(f.field)) or bool(rec.get("slots", {}).get(f.field))
        return has if f.present else not has

    def _not(self, f: Not, rec: dict, inst) -> bool:
        return not self._filter(f.filter, rec, inst)

    def _field_compare(self, f: FieldCompare, rec: dict, inst) -> bool:
        # a computed bound was bound by the generated code just before the statement
        bound = self.bindings[f.key] if f.key is not None else f.value
        got = rec.get(f.field)
        if not isinstance(got, int) or isinstance(got, bool):
            return False  # a card without the field never meets a comparison on it
        if f.field == COST_FIELD:  # "costing …" sees this turn's cost changes and the card's own (h28b)
            got = self.changed_cost(inst.uid, got, rec)
        return _COMPARE[f.op](got, bound)

    def _other_than(self, f: OtherThan, rec: dict, inst) -> bool:
        if type(f.card) is Bound:
            bound = self.bindings.get(f.card.name)
            return inst.uid not in (bound if isinstance(bound, list) else [bound])
        return inst.card_id != f.card

    def _matching_icon(self, f: MatchingIcon, rec: dict, inst) -> bool:
        # "your locations matching i": the card carries the icon chosen as i. Matching only means
        # something for an icon; any other bound value is refused rather than ignored.
        name = f.bound.name
        bound = self.bindings.get(name)
        if bound == []:  # a choice of an icon that found none (a card without icons): matches nothing
            return False
        if not isinstance(bound, str) or bound not in self.game.model.icons:
            raise Refused(f"'matching {name}' needs an icon chosen as {name}")
        return bound in rec.get("icons", ())

    def printed_name(self, uid: int) -> str:
        """A card's printed name as its face shows it (its id when it prints none)."""
        inst = self.game.instances[uid]
        return face_view(self.game.cards[inst.card_id], inst).get("name", inst.card_id)

    def _same_name(self, f: SameName, rec: dict, inst) -> bool:
        """"named n" / "with the same name as t" (issue 28): the card's printed name (as its face shows
        it) is one the name holds — a named card name, or a chosen card's name."""
        return rec.get("name", inst.card_id) in self.names_held(f.bound.name)

    def names_held(self, name: str) -> set:
        """The card names a bound name holds: the name itself ("name a card as n"), or its cards' names."""
        g = self.game
        bound = self.bindings.get(name)
        out = set()
        for v in (bound if isinstance(bound, list) else [bound]):
            if isinstance(v, tuple) and len(v) == 2 and v[0] == "name":
                out.add(v[1])
            elif isinstance(v, int) and v in g.instances:
                out.add(self.printed_name(v))
        return out

    def distinct_names(self, sel: Query) -> int:
        """``number of differently named …`` (issue 28): how many printed names the selected cards have."""
        g = self.game
        return len({self.printed_name(uid) for uid in self.options(sel) if isinstance(uid, int) and uid in g.instances})

    def card_names(self) -> list:
        """Every card name of the game, sorted: what "name a card" offers (issue 28)."""
        return sorted({rec.get("name", cid) for cid, rec in self.game.cards.items()})

    def one_card(self, sel: Query) -> int:
        opts = self.options(sel)
        if not opts:  # nothing to place on: the action does nothing, the effect goes on (a cost: refused)
            raise Nowhere(f"there is no {sel.key}")
        return opts[0] if len(opts) == 1 else self.ask(opts, 1, prompt=f"choose {sel.key}")[0]

    # --- goods -------------------------------------------------------------------------------
    def good_of(self, sel: Query) -> str:
        """The Good a selector names: a Good, a Good chosen as a name, or the Good matching a chosen icon."""
        if sel.category == VAR:
            value = self.bindings.get(sel.key)
            if not isinstance(value, str) or value not in self.game.model.goods:
                raise Refused(f"{sel.key!r} does not hold a Good")
            return value
        for f in sel.filters:
            if type(f) is MatchingIcon:
                bound = self.bindings[f.bound.name]
                if bound == []:  # an icon choice that found none: no Good, so nothing is gained or paid
                    raise Nowhere(f"{f.bound.name} holds no icon")
                icon = self.game.model.icons.get(bound) if isinstance(bound, str) else None
                if icon is None or not icon.good:
                    raise Refused(f"icon {bound!r} matches no Good")
                return icon.good
        return sel.key

    def group_members(self, good: str) -> list[str] | None:
        """The Goods of a group ("1 resource": one of ore, energy…), or None for a plain Good."""
        group = self.game.model.good_groups.get(good)
        return list(group) if group else None

    def gain_goods(self, sel: Query) -> None:
        good = self.good_of(sel)
        goods = self.game.players[self.player].goods
        n = self.amount(sel)
        members = self.group_members(good)
        if members is not None:  # "gain 2 resource": the player picks which, one at a time
            for _ in range(n):
                pick = self.ask(members, 1, prompt=f"choose a {good} to gain")[0]
                self.gain_goods(Query(GOOD, pick, amount=Exactly(1)))
            return
        n = min(n, max(0, MAX_HELD - goods[good]))  # never more than a player holds
        goods[good] += n
        if self.game.tracing:
            self.game.tell(GoodsGained(self.player, good=good, n=n))

    def pay_goods(self, objs, strict: bool, below_zero: bool = True) -> None:
        """Lose or spend Goods: as a cost (``strict``) all of it or refused first; otherwise what the
        player has — a signed Good (a debt) goes below zero when lost (``below_zero``), never when spent,
        since paying is giving what you have."""
        me = self.game.players[self.player]
        need = Counter()
        everything = set()  # "lose all debt": what the player has, never below zero
        for sel in objs:
            good, n = self.good_of(sel), self.amount(sel)
            members = self.group_members(good)
            if members is not None:  # "spend 1 resource": the player picks among those they have
                for _ in range(n):
                    options = [m for m in members if me.goods[m] - need[m] > 0]
                    if not options:
                        if strict:
                            raise Refused(f"not enough {good}")
                        break
                    need[self.ask(options, 1, prompt=f"which {good}")[0]] += 1
                continue
            need[good] += n
            if type(sel.amount) is Every:
                everything.add(good)
        if strict:
            short = {g: n - me.goods[g] for g, n in need.items() if me.goods[g] < n}
            if short:
                raise Refused("not enough " + ", ".join(f"{g} (needs {need[g]}, has {me.goods[g]})"
                                                         for g in sorted(short)))
        signed = self.game.model.signed_goods
        for g in sorted(need):
            # a signed Good (a debt) is lost in full, below zero; a cost (strict) was checked above
            n = need[g] if g in signed and below_zero and not strict and g not in everything \
                else min(need[g], max(0, me.goods[g]))
            me.goods[g] -= n
            if self.game.tracing:
                self.game.tell(GoodsPaid(self.player, good=g, n=n))

    def place_goods(self, sel: Query, uid: int) -> None:
        good = self.good_of(sel)
        n = self.amount(sel)
        self.game.instances[uid].goods[good] += n
        if self.game.tracing:
            self.game.tell(GoodsPlaced(self.player, good=good, n=n, card=uid, shown=self.describe(uid)))

    # --- cards -------------------------------------------------------------------------------
    def draw_cards(self, sel: Query, src: Query | None, strict: bool) -> list[int]:
        g = self.game
        n = self.amount(sel)
        source = g.model.card_sources.get(sel.key)
        if src is not None:
            zone = self.zone_for(src)
            bottom, face = False, None
        elif source is not None:
            if self.others_only(ZONE, source.zone):  # a source on such a pile would be your own
                self._not_mine([self.player], source.zone)
            zone = g.zone_key(source.zone, self.player)
            bottom, face = source.bottom, source.face
        else:
            zone = g.zone_key(g.model.rules.draw_from, self.player)
            bottom, face = False, None
        hand = g.zone_key(self.hand_zone(), self.player)
        if isinstance(sel.amount, UpToN):  # "draw up to 2 cards": the player decides how many
            n = self.how_many(n, 0, "draw")
        available = self.engine.drawable(g, zone) if strict else None
        if available is not None and available < n:
            # a cost ("draw 2 cards: …") is all or nothing: refuse before a card moves
            raise Refused(f"{zone[0]} has only {available} cards")
        drawn = []
        zones, instances, move, player = g.zones, g.instances, g.move, self.player
        # nobody listens: no trigger runs during the draw, so the turn and round stay as they are
        unheard, turn, round_ = g.unheard(), g.turn_number, g.round
        if unheard and not bottom and n <= len(zones[zone]) and zone[0] not in g.ruled_zones:
            # every card is on the pile already (no refill between two), nobody hears a draw and no
            # rule of the zone can refuse a card half-way: the top n taken in one step
            # (GameState.take_top), then each turned, owned and recorded as the loop below does
            # (tests/infernal_contraption/test_fast_play.py holds it to the loop)
            drawn = g.take_top(zone, n, hand)
            for uid in drawn:
                inst = instances[uid]
                if face:
                    inst.face = face
                inst.owner = player
            # their Drawn events, in the order drawn (nobody hears them: none is read in between)
            g.events.extend(card_events(Drawn, player, drawn, turn, round_))
        else:
            for _ in range(n):
                if not zones[zone]:
                    self.engine.refill(g, zone)
                pile = zones[zone]
                if not pile:
                    if strict:
                        raise Refused(f"{zone[0]} has only {len(drawn)} cards")
                    break
                uid = pile[0] if bottom else pile[-1]
                move(uid, hand)
                if face:
                    instances[uid].face = face
                instances[uid].owner = player
                drawn.append(uid)
                if unheard:  # recorded, as publish would, without offering it to nobody
                    g.events.append(card_event(Drawn, player, uid, turn, round_))
                else:
                    self.publish_card(Drawn, uid)
        if g.tracing:
            g.tell(CardsDrawn(self.player, n=len(drawn), wanted=n, zone=zone))
        self.engine.after_draw(g, zone)
        return drawn

    def top_cards(self, sel: Query, src: Query | None, verb: str) -> "Revealed":
        """The top N cards of a pile: revealed ones are set aside while the effect runs
        (GameState.set_aside: what the text leaves goes back on top when the effect ends); looked-at
        ones stay where they are."""
        g = self.game
        zone = self.zone_for(src) if src is not None else \
            g.zone_key(g.model.rules.draw_from, self.player)
        n = self.amount(sel)
        if 0 < n and len(g.zones[zone]) < n:
            self._refill_under(zone)
        uids = list(reversed(g.zones[zone][-n:])) if n > 0 else []
        g.tell(CardsShown(self.player, revealed=verb == "reveals", cards=tuple(uids), zone=zone))
        if verb != "reveals":  # looking moves nothing: the cards stay on top of the pile
            return Revealed(uids, zone)
        aside = (g.SET_ASIDE, self.player)
        for uid in uids:
            aside = g.set_aside(uid, self.player)
        return Revealed(uids, aside)

    def _refill_under(self, zone) -> None:
        """"The top 3 cards of your deck" with fewer there: as a draw would, the pile's refill (a
        reshuffled discard pile) goes under the cards still there, so the top N are those cards and
        then the refill's top cards (issue 22). The cards still there keep their order on top."""
        g = self.game
        pile = g.zones[zone]
        kept = pile[:]
        del pile[:]  # off the pile for the refill's shuffle; they stay in it (g.where) throughout
        self.engine.refill(g, zone)
        pile.extend(kept)  # back on top, in their order

    def move_cards(self, sel: Query, src: Query | None, to, strict: bool, verb: str, bottom: bool = False,
                   defer: list | None = None) -> list[int]:
        g = self.game
        if src is not None:
            sel = sel.at(src)
        options = self.options(sel)
        if verb in _TO_A_PLACE:
            # a card already where the verb sends it cannot go there again: "trash this card" of a card
            # in the trash moves nothing, and as a cost it cannot be paid (issue 22)
            there = [u for u in options if g.where.get(u) == (to(u) if callable(to) else to)]
            if there:
                if strict and sel.category == VAR:  # a cost names these very cards: it cannot be paid
                    raise Refused(f"{self.describe(there)} is already where '{verb}' would put it")
                options = [u for u in options if u not in there]
        if sel.category == VAR and sel.amount == DEFAULT:  # "put r into …": every card the name holds
            sel = sel.with_amount(EVERY)
        n = min(self.amount(sel), len(options))
        if strict and n < self.amount(sel) and not isinstance(sel.amount, (UpToN, Every)):
            raise Refused(f"not enough {sel.key} to {verb}")
        if isinstance(sel.amount, UpToN):
            picks = self.ask(options, n, low=0, prompt=f"{verb} up to {n} {sel.key}")
        else:
            picks = self.ask(options, n, prompt=f"{verb} {sel.key}") if n < len(options) else options[:n]
        if defer is not None:  # passed inside an acting clause: moved when it ends (Ctx.acting)
            defer.extend((self.player, uid, g.where[uid], to(uid) if callable(to) else to) for uid in picks)
            return picks
        event = _MOVE_EVENTS.get(verb)
        for uid in picks:
            dest = to(uid) if callable(to) else to
            g.move(uid, dest, bottom=bottom)
            g.instances[uid].owner = dest[1] if dest[1] is not None else g.instances[uid].owner
            if event is Moved:
                self.publish_card(Moved, uid, to=dest[0])
            elif event is not None:
                self.publish_card(event, uid)
        if callable(to):
            to = to(picks[0]) if picks else (None, None)
        if g.tracing:
            g.tell(CardsMoved(self.player, action=verb, n=len(picks), to=to if to[0] is not None else None))
        return picks

    # --- choices and descriptions ------------------------------------------------------------
    def ask(self, options, k: int, low: int | None = None, prompt: str = "") -> list:
        options = list(options)
        if not options or k <= 0:
            return []
        if low is None and k >= len(options):
            return options
        picks = self.game.agent(self.player).choose(self.game, self.player, options, k, low, prompt)
        # an agent's answer is checked, never trusted: distinct legal options, as many as the rule says
        if k == 1 and low is None and len(picks) == 1 and picks[0] in options:
            return picks  # one of several, as most choices are: the checks below, answered at once
        least = min(k, len(options)) if low is None else low
        if not least <= len(picks) <= k or any(p not in options for p in picks) or _has_repeats(picks):
            raise RulesError(f"the agent answered {len(picks)} option(s) for '{prompt}': it must pick "
                             + (f"{least}" if least == k else f"{least} to {k}") + " distinct legal options")
        return picks

    def how_many(self, most: int, least: int, verb: str) -> int:
        """The player picks a number from ``least`` to ``most`` ("draw up to 2 cards"). Offered from
        the most down, so the default agent does as much as it may."""
        if most <= least:
            return most
        counts = [HowMany(k) for k in range(most, least - 1, -1)]
        return self.ask(counts, 1, prompt=f"how many to {verb} (up to {most})")[0].n

    def describe(self, value: Any) -> str:
        g = self.game
        if isinstance(value, list):
            if not value:
                return "nothing"
            return "[" + ", ".join(self.describe(v) for v in value) + "]"
        if isinstance(value, int) and value in g.instances:
            inst = g.instances[value]
            name = g.cards[inst.card_id].get("name", inst.card_id)
            owner = inst.owner if inst.owner is not None else g.where[value][1]
            # a card nobody owns (in the supply, a shared pile) is named alone: "(You)" after a supply
            # card read as if it were yours already (issue 26's walkthrough)
            return name if owner is None else f"{name} ({g.players[owner].name})"
        if isinstance(value, tuple) and value and value[0] == "player":
            return g.players[value[1]].name
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "name":  # a named card name
            return str(value[1])
        return str(value)


THIS_CARD = "this card"
EVENT_CARD = "it"  # h28b: in a trigger's body, the card its event is about
COST_FIELD = "cost"  # the card field "costing …" compares and cost changes lower (h28b)


class Pending:
    """A duration set aside (``Ctx.later``): its body ``fn`` runs once for ``player`` at the ``moment``
    ("start" | "end") of their next turn (``when`` "next", after turn ``turn``) or of the turn under way
    ("this"), with the card ``card`` and the names ``bindings`` it had when it was set aside. Immutable:
    a game's copy shares it. The reference interpreter makes its own, with its IR body as ``fn``."""

    __slots__ = ("moment", "when", "player", "turn", "card", "bindings", "fn")

    def __init__(self, moment, when, player, turn, card, bindings, fn):
        self.moment, self.when, self.player, self.turn = moment, when, player, turn
        self.card, self.bindings, self.fn = card, bindings, fn

    def due(self, moment: str, game) -> bool:
        """Whether it runs at this ``moment`` of the turn ``game`` is in (its player's next turn, or the
        turn under way)."""
        if moment != self.moment:
            return False
        if self.when == "this":
            return True
        return game.turn_player == self.player and game.turn_number > self.turn


def _frozen(value):
    """A bound value as a duration keeps it: a list of cards copied (the effect's list may change); a
    revealed set stays one (it holds the cards still set aside: none, once its effect is over)."""
    if isinstance(value, Revealed):
        return Revealed(list(value), value.zone)
    return list(value) if isinstance(value, list) else value


# A binding no effect text can name (names are words): the option an action's first `choose` takes,
# because the player picked it as a move (runtime/flow.py); PROBE asks for the options instead.
MOVE_CHOICE = "\x00move choice"
PROBE = object()


# Abilities (issue 28): the binding the flow sets when a player uses an ability — (slot, index, mode),
# mode None for a use, PROBE_GATE to ask whether its limits allow it now, PROBE_COST (on a copy of the
# game) whether its cost can be paid. A name no effect text can write, like MOVE_CHOICE.
ABILITY_USE = "\x00ability use"
PROBE_GATE = "probe limits"
PROBE_COST = "probe cost"


class AbilityUsable(Exception):
    """Raised by a probed ability once its limits (and, probing the cost, its cost) allowed it."""

    def __init__(self, costs: bool):
        super().__init__("ability usable")
        self.costs = costs


class ChoiceOptions(Exception):
    """Raised by ``choose`` when probed: the options of an action's first choice, nothing done."""

    def __init__(self, options: list):
        super().__init__("choice options")
        self.options = options


def _has_repeats(picks) -> bool:
    try:
        return len(set(picks)) != len(picks)
    except TypeError:  # unhashable options: compared by identity
        return len(set(map(id, picks))) != len(picks)


# the typed event each card-moving verb publishes ("play" publishes Played itself, after the card's effect)
_MOVE_EVENTS = {"discard": Discarded, "trash": Trashed, "gain": Gained, "put": Moved, "pass": Moved}
# verbs whose destination is a place a card cannot be sent to again once it is there (put and move may
# reorder a pile — "put it on top of your deck" — so a card already in the zone still moves)
_TO_A_PLACE = frozenset({"discard", "trash", "remove", "gain", "give"})

_FILTER_TESTS = {HasIcon: Ctx._has_icon, HasField: Ctx._has_field, Not: Ctx._not, FieldCompare: Ctx._field_compare,
                 OtherThan: Ctx._other_than, MatchingIcon: Ctx._matching_icon, SameName: Ctx._same_name}

_COMPARE = {"=": lambda a, b: a == b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
            "<": lambda a, b: a < b, ">": lambda a, b: a > b}


class Revealed(list):
    """Cards revealed or looked at, set aside in ``zone``; as a bound name it holds those still there
    ("put r into your discard pile" after "choose 1 of r as k; play k": the rest)."""

    def __init__(self, uids, zone):
        super().__init__(uids)
        self.zone = zone


class MenuOption:
    """One option of a menu as the agent sees it: its index and its English label."""

    __slots__ = ("index", "label")

    def __init__(self, index: int, label: str):
        self.index, self.label = index, label

    def __eq__(self, other) -> bool:
        return isinstance(other, MenuOption) and other.index == self.index

    def __hash__(self) -> int:
        return hash(self.index)

    def __str__(self) -> str:
        return self.label


class HowMany(int):
    """A number offered as a choice ("draw up to 2": 2, 1 or 0); a script answers it with the number."""

    @property
    def n(self) -> int:
        return int(self)

    @property
    def label(self) -> str:
        return str(int(self))


def face_view(rec: dict, inst) -> dict:
    """A card's record as its current face shows it: the face's fields and slots over the card's.

    A double-sided card (a Machine and its Hacked side) is selected and filtered by what is face
    up: a Hacked card in a State has the Hacked side's icons and slots, not the Machine side's.
    """
    faces = rec.get("faces")
    if not faces:  # most cards have one face: no empty dict made to look it up in
        return rec
    face = faces.get(inst.face)
    if not face:
        return rec
    return {**rec, **face}


def _field_has(rec: dict, inst, key: str, wanted: tuple) -> bool:
    """A thing's ``where: {key: value}``: the card's field has that value. A list of values means any
    of them (``cost: [2, 3]`` reads "costing 2 or 3"; the model keeps every value as a tuple); a
    list-valued field (icons) has it when it holds any of them."""
    got = rec.get(key, inst.props.get(key))
    if isinstance(got, (list, tuple)):
        return any(w in got for w in wanted)
    return got in wanted
