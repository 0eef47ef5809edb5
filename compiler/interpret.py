"""The reference interpreter: the executable meaning of the typed IR (issue 22 item 3, DESIGN §9).

One ``visit_<IR class>`` method per node, written from docs/language.md and docs/decisions.md. It
shares no selection code with the runtime's fast path (runtime/context.py): it finds zones, owners,
things, filters, amounts and counts itself, and moves cards and Goods with ``GameState``'s own
primitives (``move``, ``set_aside``, ``publish``, ``engine.refill``, ``engine.run_slot``), and it
reads the game as the typed ``GameModel`` (``game.model``: zones, things, Goods, icons, rules). The
differential test (tests/test_differential.py) runs random texts through both and demands the
same state and the same typed events; a difference is a bug in one of them, settled in the docs.

Why here and not in ``runtime/``: it reads ``compiler.ir``, and ``runtime/`` never imports
``compiler/`` (DESIGN §9); ``compiler/`` may import ``runtime/``, so the interpreter lives on the
compiler's side and borrows only the state's primitives, the typed events, the errors and the
run-time budget.

Obvious, not fast: every selection is a fresh walk over the zones; nothing is cached.

Out of scope (``OutOfScope`` is raised): the verbs a game engine owns or replaces (51st State's
raze, block, demolish, rebuild, store and its own gain/spend/lose/draw/discard/place; Age of Steam's
build; Infernal Contraption's scrap, take, repeat and its own put), thing ``engine_filter``
predicates, card sources (``draw 1 hacked``), and trigger statements outside an event's dispatch.
Triggers inside a dispatch are in scope: ``reference_slot_runner`` lets the engine's dispatch (which
decides who hears an event, in which order, and charges each firing) run each trigger slot here.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from runtime.budget import ROUNDS, STATEMENTS, OverBudget
from runtime.context import Pending
from runtime.errors import Nowhere, Refused, RulesError, Unmet
from runtime.events import Discarded, Drawn, Gained, Moved, Played, Playing, Trashed
from runtime.model import GameModel

from . import ir
from .explain import explain_effect
from .visitor import Visitor

# The most one amount can mean: every card of the game, or this many of one Good (docs/language.md,
# Amounts: "an amount computed in play means at most every card of the game, or 9,999 of one Good").
MOST_OF_A_GOOD = 9_999
# "until C: BODY" runs at most this many rounds (docs/language.md, Repetition).
MOST_ROUNDS = 100
# The card a card's effect runs for, as a bound name ("this card").
THIS_CARD = "this card"


class OutOfScope(Exception):
    """A construct the reference does not define (a game engine's own verb): not a disagreement."""


@dataclass
class Result:
    status: str  # "done" | "unmet" | "refused" (as runtime.engine.Outcome)
    reason: str = ""


@dataclass
class Chosen:
    """What a name holds: cards (uids), a player, a zone, a Good or an icon. ``one`` is True when the
    text chose exactly one thing ("choose 1 card … as t"), so that ``t`` is that card."""

    values: list
    one: bool = False
    pile: tuple | None = None  # revealed or looked-at cards: the name holds those still in this zone


@dataclass
class Frame:
    """Who "you" is now, and the effect's opponent (docs/language.md, Acting player)."""

    player: int
    opponent: int | None


class Interpreter(Visitor):
    """Runs one effect's IR on ``game`` for ``player`` (and the card whose effect it is)."""

    def __init__(self, game, player: int, card: int | None = None, opponent: int | None = None):
        self.game = game
        self.me = Frame(player, opponent)
        self.card = card
        self.names: dict[str, Chosen] = {}
        if card is not None:
            self.names[THIS_CARD] = Chosen([card], one=True)
        self.x: int | None = None
        self.played: set = set()  # cards this effect played: "play c; play c" plays c again in place
        self.bounds: dict = {}  # computed filter bounds, worked out as each statement starts
        self.event = None  # the event dispatched to this trigger slot (``fire``), else None
        self.about_self = False  # the card hears the event only because it is about the card
        self.fired = 0  # triggers of the slot whose body ran
        self.use = None  # (slot, index): the ability its player uses in this run (issue 28), else None
        self.passing: list | None = None  # cards passed inside an acting clause: moved when it ends

    # --- running an effect -----------------------------------------------------------------------
    def run(self, effect: ir.Effect) -> Result:
        """The effect's statements in order; a refusal ends it (what ran stays done), an unmet
        ``requires`` means nothing happened (it comes before the actions)."""
        g = self.game
        if not g.running:  # the outermost effect: its run-time budget starts here (docs/security.md)
            g.budget.new_effect()
        g.running += 1
        try:
            self.visit(effect)
        except Unmet as exc:
            return Result("unmet", exc.reason)
        except Refused as exc:
            return Result("refused", exc.reason)
        finally:
            g.running -= 1
            if not g.running and g.set_aside_from:
                # what the text left of revealed cards goes back on top of its pile (docs/decisions.md)
                g.return_set_aside()
        return Result("done")

    def visit_Effect(self, e: ir.Effect) -> None:
        self.body(e.statements)

    def body(self, statements) -> None:
        for st in statements:
            self.fix_bounds(st)
            self.visit(st)

    def fix_bounds(self, node) -> None:
        """A statement's computed filter bounds ("costing up to (number of cards in opponent's hand)")
        are worked out when it starts, the innermost first, before anything else of it (its amounts,
        its choices); its bodies' statements work out their own when they run (docs/decisions.md)."""
        finder = _Bounds()
        finder.visit(node)
        for key, expr in finder.found.items():
            self.bounds[key] = self.value(expr)

    # --- statements ------------------------------------------------------------------------------
    def visit_Require(self, st: ir.Require) -> None:
        if not self.holds(st.cond):
            raise Unmet(f"requirement not met: {st.text}")

    def visit_LetX(self, st: ir.LetX) -> None:
        value = self.value(st.expr)
        if st.minimum is not None and value < st.minimum:
            raise Unmet(f"x is {value}, less than {st.minimum}")
        self.x = value

    def visit_Choose(self, st: ir.Choose) -> None:
        """The player chooses that many of the options (fewer when there are fewer: a choice that finds
        nothing binds nothing and the effect goes on, issue 22); "up to N" lets them choose 0..N."""
        q = st.query
        options = self.options(q)
        if isinstance(q.amount, ir.UpToN):
            picks = self.ask(options, q.amount.n, least=0)
            self.names[st.name] = Chosen(picks)
        else:
            picks = self.ask(options, self.amount(q, default=1))
            self.names[st.name] = Chosen(picks, one=len(picks) == 1)

    def visit_ForEach(self, st: ir.ForEach) -> None:
        """Once per selected thing: all of them, or the chosen N of them ("for each 2 cards …")."""
        q = st.query
        options = self.options(q)
        if isinstance(q.amount, ir.UpToN):
            picked = self.ask(options, q.amount.n, least=0)
        elif isinstance(q.amount, (ir.Default, ir.Every)):
            picked = options
        else:
            picked = self.ask(options, min(self.amount(q, default=1), len(options)))
        for value in picked:
            self.charge(ROUNDS)
            self.names[st.name] = Chosen([value], one=True)
            self.body(st.body)

    def visit_If(self, st: ir.If) -> None:
        if self.holds(st.cond):
            self.body(st.body)
        elif st.otherwise is not None:
            self.body(st.otherwise)

    def visit_Cost(self, st: ir.Cost) -> None:
        """The cost is paid in full or refused before anything changes; a refusal ends the effect."""
        self.visit(st.pay)
        self.body(st.body)

    # abilities (issue 28)
    def visit_Ability(self, st: ir.Ability) -> None:
        """An ability runs only when its player uses it (the flow's move names the card, the slot and
        the ability's place). Then, before anything happens: its "while" condition must hold, and a
        "once per turn/round" ability must not have been used by this card, slot and place in this
        turn (round) — else nothing happens (unmet). The use is kept, then the body runs; a cost first
        in it is paid in full or the rest is refused (docs/language.md, Abilities)."""
        if self.use is None or self.use[1] != st.index:
            return
        if st.cond is not None and not self.holds(st.cond):
            raise Unmet("the ability's 'while' condition does not hold")
        if st.once is not None:
            g = self.game
            now = g.turn_number if st.once == "turn" else g.round
            key = (self.card, self.use[0], st.index)
            if g.fired.get(key) == (st.once, now):
                raise Unmet(f"the ability was already used this {st.once}")
            g.fired[key] = (st.once, now)
        self.body(st.body)

    def visit_Menu(self, st: ir.Menu) -> None:
        """The player picks ``count`` distinct options (offered in printed order); they run in the
        order printed."""
        picks = self.ask(list(range(len(st.options))), min(st.count, len(st.options)))
        for i in sorted(picks):
            self.charge(ROUNDS)
            self.body(st.options[i])

    def visit_Acting(self, st: ir.Acting) -> None:
        """Each acting player in seat order after you ("each player": you first); inside, "you" is
        them and their agent chooses; "opponent" is the effect's opponent for the card's player and
        chosen for anyone else. Each player's part is refused on its own (issue 22). Cards passed
        inside move together when the outermost clause ends (issue 28: each player chooses first)."""
        first = self.passing is None
        if first:
            self.passing = []
        try:
            self.each_acting(st)
            if first:
                self.move_passed()
        finally:
            if first:
                self.passing = None

    def move_passed(self) -> None:
        """Passed cards, in the order chosen, into their zones; one no longer where it was passed from
        stays where it is."""
        g = self.game
        for player, uid, src, dest in self.passing:
            if g.where.get(uid) != src:
                continue
            g.move(uid, dest)
            if dest[1] is not None:
                g.instances[uid].owner = dest[1]
            g.publish(Moved(player, card=uid, turn=g.turn_number, round=g.round, to=dest[0]))

    def each_acting(self, st: ir.Acting) -> None:
        outer = self.me
        for p in self.acting_players(st.who):
            self.charge(ROUNDS)
            self.me = Frame(p, outer.opponent if p == outer.player else None)
            try:
                self.body(st.body)
            except OverBudget:  # not their refusal: the whole effect stops
                raise
            except Refused:  # their part ends; the next player acts
                pass
            finally:
                if p == outer.player and outer.opponent is None:
                    outer.opponent = self.me.opponent  # chosen inside: the effect's one opponent
                self.me = outer

    def acting_players(self, who: str) -> list[int]:
        return self.reachable(self._acting_players(who))

    def reachable(self, players: list[int]) -> list[int]:
        """A reaction's "you are unaffected by it": the card being resolved passes its immune players by
        — never acting for it, never among the players its owners or its opponent name."""
        unaffected = self.game.immune.get(self.card, ())
        return [p for p in players if p not in unaffected]

    def _acting_players(self, who: str) -> list[int]:
        g = self.game
        if who == "they":  # the player the dispatched event is about, while in the game (h28b)
            p = getattr(self.event, "player", None)
            return [p] if p is not None and not g.players[p].out else []
        n = len(g.players)
        others = [(self.me.player + k) % n for k in range(1, n)]
        others = [p for p in others if not g.players[p].out]
        if who in ("opponent", "other"):
            return others
        if who == "each":
            return [self.me.player] + others
        if who == "chosen":  # "target player: …": any player still in, you first, then in seat order
            return [self.ask([("player", p) for p in [self.me.player] + others], 1)[0][1]]
        if not others:
            return []
        if who == "target":  # "target opponent: …": the effect's opponent, chosen when there are several
            return [self.opponent()]
        return [others[0]] if who == "left" else [others[-1]]

    # --- h28b (issue 28): optional statements, durations, cost changes ----------------------------
    def visit_Optional(self, st: ir.Optional) -> None:
        """``you may …``: the acting player says yes (offered first) or no; yes runs the body."""
        if self.ask(["yes", "no"], 1)[0] == "yes":
            self.body(st.body)

    def visit_Delayed(self, st: ir.Delayed) -> None:
        """The body is set aside for the acting player with this card and the names bound so far; the
        engine runs it once at the start of their next turn or the end of this one (docs/language.md)."""
        g = self.game
        names = {k: Chosen(list(v.values), v.one, v.pile) for k, v in self.names.items()}
        card, body, x = self.card, st.body, self.x

        def later(ctx) -> None:  # run by Engine.run_pending, which catches refusals as for any effect
            interp = Interpreter(ctx.game, ctx.player, card if card in ctx.game.instances else None)
            interp.names.update(names)
            interp.x = x  # the card's X as it was when the body was set aside
            interp.body(body)

        g.pending.append(Pending(st.moment, st.when, self.me.player, g.turn_number, self.card, (), later))

    def visit_CostChange(self, st: ir.CostChange) -> None:
        """Until this turn ends, each card the query names costs ``amount`` less (never below 0)."""
        self.game.cost_changes.append((st.query, st.amount, self.me.player, dict(self.names)))

    def visit_ExtraTurn(self, st: ir.ExtraTurn) -> None:
        """The acting player is owed one turn after this one (the flow gives it, once in a row)."""
        if self.me.player not in self.game.extra_turns:
            self.game.extra_turns.append(self.me.player)

    def visit_OwnCost(self, st: ir.OwnCost) -> None:
        """A cost slot run on its own: X is how much less the card costs for the acting player."""
        n = self.count(st.per)
        self.x = st.amount * (n // st.per.every if st.per.every else n)

    def visit_Immune(self, st: ir.Immune) -> None:
        """The reaction's player is unaffected by the event's card: its acting clauses skip them."""
        chosen = self.names.get("it")
        if chosen is not None and chosen.values:
            self.game.immune.setdefault(chosen.values[0], set()).add(self.me.player)

    def cost_now(self, uid: int, printed: int, card: dict) -> int:
        """A card's cost with this turn's cost changes — each one naming the card (as printed, wherever it
        lies) takes its amount off — and with its own "this costs N less per …" (a slot of kind cost, read
        for the player asking); never below 0."""
        cut = 0
        for q, n, player, names in self.game.cost_changes:
            judge = Interpreter(self.game, player)
            judge.names.update(names if isinstance(names, dict) else {})
            if judge.event_card_is(q, uid):
                cut += n
        g = self.game
        kind = g.model.kinds.get(card.get("kind"))
        for slot in (kind.slots if kind is not None else ()):
            text = (card.get("texts") or {}).get(slot.key) if slot.kind == "cost" else None
            if text is not None:
                ex = explain_effect(text, g.model)  # the slot's own text, checked anew (as triggers are)
                if ex.ir is None or ex.diags.errors:
                    raise OutOfScope(f"the cost text {text!r} does not check")
                for st in ex.ir.statements:
                    n = Interpreter(g, self.me.player, uid).count(st.per)
                    cut += st.amount * (n // st.per.every if st.per.every else n)
        return max(0, printed - cut)

    def visit_Repeat(self, st: ir.Repeat) -> None:
        """Until the condition holds; a round that changes nothing stops it, as do 100 rounds."""
        before = None
        for _ in range(MOST_ROUNDS):
            self.charge(ROUNDS)
            now = self.picture()
            if now == before:
                return
            before = now
            self.fix_bounds(st.until)  # the condition's bounds, anew each round
            if self.holds(st.until):
                return
            self.body(st.body)

    def picture(self) -> tuple:
        """What a round of ``until`` can change: Goods (the players' and those on cards), zone contents
        and faces (docs/language.md: "it stops when a round changes nothing")."""
        g = self.game
        return (tuple(tuple(sorted((k, v) for k, v in p.goods.items() if v)) for p in g.players),
                tuple((k, tuple(v)) for k, v in g.zones.items()),
                tuple((uid, c.face, tuple(sorted((k, v) for k, v in c.goods.items() if v)))
                      for uid, c in g.instances.items()))

    def charge(self, kind: int) -> None:
        """Every statement and every loop round is charged to the run-time budget (docs/security.md):
        past it the effect stops, refused, with what ran standing."""
        self.game.budget.spend(kind, self.game)

    def visit_Trigger(self, st: ir.Trigger) -> None:
        """A trigger of the slot an event was dispatched to: its body runs when the event is of its
        kind, done by its subject, to a card its selector names (docs/language.md, Triggers)."""
        if self.event is None:
            raise OutOfScope("a trigger runs only when the engine dispatches an event to it")
        if self.fires(st):
            self.fired += 1
            self.body(st.body)

    def fires(self, st: ir.Trigger) -> bool:
        ev, g = self.event, self.game
        if ev.kind != st.kind:
            return False
        me = self.me.player
        if st.who == "you" and ev.player != me:
            return False
        if st.who == "opponent" and (ev.player is None or ev.player == me):
            return False  # "an opponent", "another player": someone else did it
        about_this = st.card is not None and st.card.category == "var" and st.card.key == THIS_CARD
        if self.about_self and not about_this:
            return False  # outside its slot's zones a card hears only "… this card" (docs/decisions.md)
        if st.card is not None and not self.event_card_is(st.card, getattr(ev, "card", None)):
            return False
        if st.once is not None:  # "the first time each turn/round": kept per card and trigger
            now = g.turn_number if st.once == "turn" else g.round
            if g.fired.get((self.card, st.index)) == (st.once, now):
                return False
            g.fired[(self.card, st.index)] = (st.once, now)
        if getattr(ev, "card", None) is not None:  # "it": the event's card (h28b)
            self.names["it"] = Chosen([ev.card], one=True)
        return True

    def event_card_is(self, q: ir.Query, uid) -> bool:
        """Whether the event's card is what the trigger names: a bound card ("this card"), or a card
        or thing with filters read as printed — its front, wherever it lies now (docs/decisions.md: a
        razed Location is a Ruins by the time the event is heard, yet a Location was razed)."""
        g = self.game
        if uid is None or uid not in g.instances:
            return False
        if q.category == "var":
            chosen = self.names.get(q.key)
            return chosen is not None and uid in chosen.values
        printed = g.cards[g.instances[uid].card_id]
        if q.category == "thing":
            spec = g.model.things[q.key]
            if spec.engine_filter:
                raise OutOfScope("an engine's thing filter")
            if spec.kinds is not None and printed.get("kind") not in spec.kinds:
                return False
            if not self.has_where(spec, uid, printed):
                return False
        return self.passes(uid, q.filters, printed)

    def fire(self, effect: ir.Effect, event, about_self: bool) -> None:
        """Run a trigger slot's effect for ``event`` as the engine's dispatch does (Engine.dispatch
        has charged the firing, counts it as running and catches its refusal)."""
        self.event, self.about_self = event, about_self
        self.visit(effect)

    # --- actions ---------------------------------------------------------------------------------
    def visit_Act(self, act: ir.Act) -> None:
        verb = self.game.verbs.get(act.verb)
        if verb is None or verb.engine != "core":
            raise OutOfScope(f"the verb {act.verb!r} belongs to the {getattr(verb, 'engine', '?')} engine")
        # An action's quantities are worked out when it starts, before any of its objects is done:
        # "gain 1 coin, (number of coin) debt" counts the coins held before this gain (docs/decisions.md,
        # found by the differential test)
        objects = tuple(self.fixed(q) for q in act.objects)
        phrases = {prep: (self.fixed(q) if isinstance(q, ir.Query) else q) for prep, q in act.phrases}
        self.charge(STATEMENTS)
        try:
            done = getattr(self, "verb_" + act.verb)(objects, phrases, act.strict)
        except Nowhere:  # "from t's hand" of a t that found nothing: nothing done (a cost: refused)
            if act.strict:
                raise
            done = Chosen([])
        if act.binds is not None:
            self.names[act.binds] = done

    def fixed(self, q: ir.Query | None) -> ir.Query | None:
        """``q`` with its computed amount replaced by its value now (its filter bounds were worked out
        as the statement started: ``fix_bounds``)."""
        if q is None:
            return None
        amount = q.amount
        if isinstance(amount, ir.Computed):
            amount = ir.Exactly(max(0, self.value(amount.expr)))
        return ir.Query(q.category, q.key, q.owner, q.filters, amount,
                        self.fixed(q.of), self.fixed(q.place), self.fixed(q.per), q.every)

    def verb_gain(self, objects, ph, strict):
        g = self.game
        rules = g.model.rules
        for q in objects:
            if q.category == "good" or (q.category == "var" and self.holds_good(q.key)):
                self.gain_good(self.good_of(q), self.amount(q))
                continue
            source = ph.get("from") or ir.Query("zone", rules.gain_from)
            dest = self.zone(ph["into"]) if "into" in ph else g.zone_key(rules.gain_into, self.me.player)
            self.move_cards(q, source, lambda uid: dest, strict, "gain")

    def verb_spend(self, objects, ph, strict):
        # all or nothing as a cost; elsewhere what the player has (DESIGN §3), never below zero
        self.pay(objects, strict, below_zero=False)

    def verb_lose(self, objects, ph, strict):
        self.pay(objects, strict)

    def verb_draw(self, objects, ph, strict):
        return self.draw(objects[0], ph.get("from"), strict)

    def verb_reveal(self, objects, ph, strict):
        return self.top_of(objects[0], ph.get("from"), set_aside=True)

    def verb_look(self, objects, ph, strict):
        return self.top_of(ph["at"], ph.get("from"), set_aside=False)

    def verb_discard(self, objects, ph, strict):
        # each card into its owner's discard pile
        self.move_cards(objects[0], ph.get("from"), lambda uid: self.discard_pile(self.owner_of(uid)),
                        strict, "discard")

    def verb_give(self, objects, ph, strict):
        to = self.game.zone_key(self.hand_name(), self.player_named(ph["to"]))
        self.move_cards(objects[0], ph.get("from"), lambda uid: to, strict, "give")

    def verb_place(self, objects, ph, strict):
        target = self.one_card(ph["on"])
        for q in objects:
            good, n = self.good_of(q), self.amount(q)
            self.game.instances[target].goods[good] += n

    def verb_put(self, objects, ph, strict):
        for prep in ("into", "onto", "on top of", "at the bottom of"):
            if prep in ph:
                dest = self.zone(ph[prep])
                self.move_cards(objects[0], ph.get("from"), lambda uid: dest, strict, "put",
                                bottom=prep == "at the bottom of")
                return

    verb_move = verb_put  # "move" is "put" under another word (docs/language.md)

    def verb_pass(self, objects, ph, strict):
        """Into the zone named; inside an acting clause the move waits for the clause's end (issue 28)."""
        dest = self.zone(ph["to"])
        self.move_cards(objects[0], ph.get("from"), lambda uid: dest, strict, "pass", defer=self.passing)

    def verb_name(self, objects, ph, strict):
        """The acting player names one card name of the game, offered sorted (issue 28)."""
        names = sorted({rec.get("name", cid) for cid, rec in self.game.cards.items()})
        if not names:
            return Chosen([])
        return Chosen([("name", self.ask(names, 1)[0])], one=True)

    def verb_trash(self, objects, ph, strict):
        dest = self.game.zone_key(self.game.model.rules.trash_to, self.me.player)
        self.move_cards(objects[0], ph.get("from"), lambda uid: dest, strict, "trash")

    def verb_remove(self, objects, ph, strict):
        dest = self.game.zone_key(self.game.model.rules.remove_to, self.me.player)
        self.move_cards(objects[0], ph.get("from"), lambda uid: dest, strict, "remove")

    def verb_play(self, objects, ph, strict):
        """Into the play zone, then the card's play effect, then its Played event (so "whenever you
        play …" sees it done). A card this effect already played is played again where it lies."""
        g = self.game
        rules = g.model.rules
        q = objects[0]
        options = self.options(q)
        if any(uid in g.playing for uid in options):
            raise Nowhere("a card cannot be played again while its effect is resolving")
        if q.category == "var" and options and all(uid in self.played for uid in options):
            picks = options
        else:
            dest = g.zone_key(rules.play_to, self.me.player)
            picks = self.move_cards(q, ph.get("from"), lambda uid: dest, strict, "play")
        for uid in picks:
            self.played.add(uid)
            if rules.play_slot in (g.record(uid).get("slots") or {}):
                self.publish(Playing, uid)  # reactions hear it before its effect (h28b)
                g.playing[uid] = self.me.player
                try:
                    g.engine.run_slot(g, uid, rules.play_slot, self.me.player, self.me.opponent)
                finally:
                    g.playing.pop(uid, None)
                    g.immune.pop(uid, None)
            self.publish(Played, uid)

    def verb_copy(self, objects, ph, strict):
        """Issue 28: one chosen card's play effect runs as this card's ("this card" is the copier);
        nothing moves and nothing is published; a copy inside a copy by the same card does nothing."""
        g = self.game
        picks = self.ask(self.options(objects[0]), 1)
        for uid in picks:
            fn = (g.record(uid).get("slots") or {}).get(g.model.rules.play_slot)
            if fn is None:
                continue
            if ("copy", self.card) in g.resolving:
                raise Nowhere("a copy cannot copy again while it resolves")
            g.resolving.add(("copy", self.card))
            try:
                g.engine.run(g, fn, self.me.player, self.card, self.me.opponent)
            finally:
                g.resolving.discard(("copy", self.card))

    # --- Goods -----------------------------------------------------------------------------------
    def holds_good(self, name: str) -> bool:
        chosen = self.names.get(name)
        return chosen is not None and chosen.one and isinstance(chosen.values[0], str) \
            and chosen.values[0] in self.game.model.goods

    def good_of(self, q: ir.Query) -> str:
        """The Good a query names: itself, a Good chosen as a name, or the Good of a chosen icon."""
        g = self.game
        if q.category == "var":
            if not self.holds_good(q.key):
                raise Refused(f"{q.key!r} does not hold a Good")
            return self.names[q.key].values[0]
        for f in q.filters:
            if isinstance(f, ir.MatchingIcon):
                chosen = self.names.get(f.bound.name)
                if chosen is not None and not chosen.values:  # no icon chosen: no Good to gain or pay
                    raise Nowhere(f"{f.bound.name} holds no icon")
                icon = self.chosen_icon(f.bound.name)
                good = g.model.icons[icon].good
                if not good:
                    raise Refused(f"icon {icon!r} matches no Good")
                return good
        return q.key

    def group(self, good: str) -> list[str] | None:
        members = self.game.model.good_groups.get(good)
        return sorted(members) if members else None

    def gain_good(self, good: str, n: int) -> None:
        members = self.group(good)
        if members is not None:  # "gain 2 resource": one at a time, the player picks which
            for _ in range(n):
                self.gain_good(self.ask(members, 1)[0], 1)
            return
        goods = self.game.players[self.me.player].goods
        goods[good] += min(n, max(0, MOST_OF_A_GOOD - goods[good]))

    def pay(self, objects, strict: bool, below_zero: bool = True) -> None:
        """Spend or lose Goods. As a cost all of it or nothing. Otherwise as much as the player has,
        except a signed Good (a debt), lost in full below zero — unless "all" of it is lost, or it is
        spent (paying is giving what you have)."""
        have = self.game.players[self.me.player].goods
        owed: Counter = Counter()
        lose_all = set()
        for q in objects:
            good, n = self.good_of(q), self.amount(q)
            members = self.group(good)
            if members is not None:
                for _ in range(n):
                    left = [m for m in members if have[m] - owed[m] > 0]
                    if not left:
                        if strict:
                            raise Refused(f"not enough {good}")
                        break
                    owed[self.ask(left, 1)[0]] += 1
                continue
            owed[good] += n
            if isinstance(q.amount, ir.Every):
                lose_all.add(good)
        if strict and any(have[k] < n for k, n in owed.items()):
            raise Refused("not enough Goods to pay")
        signed = self.game.model.signed_goods
        for k in sorted(owed):
            if k in signed and below_zero and not strict and k not in lose_all:
                have[k] -= owed[k]
            else:
                have[k] -= min(owed[k], max(0, have[k]))

    # --- cards -----------------------------------------------------------------------------------
    def draw(self, q: ir.Query, source: ir.Query | None, strict: bool) -> Chosen:
        """From the top of the pile (the game's draw pile by default) into your hand; an empty pile is
        refilled as its rules say; a cost draws all or refuses first."""
        g = self.game
        if q.category == "card" and q.key in g.model.card_sources:
            raise OutOfScope("card sources")
        pile = self.zone(source) if source is not None else \
            g.zone_key(g.model.rules.draw_from, self.me.player)
        n = self.amount(q)
        if isinstance(q.amount, ir.UpToN):
            n = self.how_many(n)
        if strict:
            can = g.engine.drawable(g, pile)
            if can is not None and can < n:
                raise Refused(f"{pile[0]} has only {can} cards")
        hand = g.zone_key(self.hand_name(), self.me.player)
        drawn = []
        for _ in range(n):
            if not g.zones[pile]:
                g.engine.refill(g, pile)
            if not g.zones[pile]:
                if strict:
                    raise Refused(f"{pile[0]} has only {len(drawn)} cards")
                break
            uid = g.zones[pile][-1]
            g.move(uid, hand)
            g.instances[uid].owner = self.me.player
            drawn.append(uid)
            self.publish(Drawn, uid)
        g.engine.after_draw(g, pile)
        return Chosen(drawn, one=len(drawn) == 1)

    def top_of(self, q: ir.Query, source: ir.Query | None, set_aside: bool) -> Chosen:
        """The top N cards of a pile, top first; a pile with fewer is refilled under them first, as a
        draw would (issue 22). Revealed cards are set aside while the effect runs; looked-at ones stay."""
        g = self.game
        pile = self.zone(source) if source is not None else \
            g.zone_key(g.model.rules.draw_from, self.me.player)
        n = self.amount(q)
        if 0 < n and len(g.zones[pile]) < n:
            there = list(g.zones[pile])
            g.zones[pile].clear()
            g.engine.refill(g, pile)
            g.zones[pile].extend(there)
        top = list(reversed(g.zones[pile]))[:n] if n > 0 else []
        if not set_aside:
            return Chosen(top, one=len(top) == 1, pile=pile)
        aside = (g.SET_ASIDE, self.me.player)
        for uid in top:
            aside = g.set_aside(uid, self.me.player)
        return Chosen(top, one=len(top) == 1, pile=aside)

    # verbs that send a card to a place it cannot be sent to again once there (issue 22); put and
    # move may reorder a pile, so a card already in their zone still moves
    TO_A_PLACE = ("discard", "trash", "remove", "gain", "give")
    EVENTS = {"discard": Discarded, "trash": Trashed, "gain": Gained, "put": Moved, "pass": Moved}

    def move_cards(self, q: ir.Query, source: ir.Query | None, dest, strict: bool, verb: str,
                   bottom: bool = False, defer: list | None = None) -> list[int]:
        """The chosen cards (all a name holds when no amount is written) into ``dest(uid)``. "up to N"
        lets the player choose how many; a cost moves all it says or refuses first."""
        g = self.game
        if source is not None:
            q = _with_place(q, source)
        options = self.options(q)
        if verb in self.TO_A_PLACE:
            there = [u for u in options if g.where[u] == dest(u)]
            if there and strict and q.category == "var":
                raise Refused(f"cannot {verb} a card that is there already")
            options = [u for u in options if u not in there]
        amount = q.amount
        if q.category == "var" and isinstance(amount, ir.Default):
            amount = ir.Every()
        wanted = self.amount(_with_amount(q, amount))
        n = min(wanted, len(options))
        if strict and n < wanted and not isinstance(amount, (ir.UpToN, ir.Every)):
            raise Refused(f"not enough to {verb}")
        if isinstance(amount, ir.UpToN):
            picks = self.ask(options, n, least=0)
        else:
            picks = self.ask(options, n) if n < len(options) else options[:n]
        if defer is not None:  # passed: moved when the acting clause ends (visit_Acting)
            defer.extend((self.me.player, uid, g.where[uid], dest(uid)) for uid in picks)
            return picks
        event = self.EVENTS.get(verb)
        for uid in picks:
            to = dest(uid)
            g.move(uid, to, bottom=bottom)
            if to[1] is not None:
                g.instances[uid].owner = to[1]
            if event is Moved:
                self.publish(Moved, uid, to=to[0])
            elif event is not None:
                self.publish(event, uid)
        return picks

    def one_card(self, q: ir.Query) -> int:
        options = self.options(q)
        if not options:  # nothing to place on: nothing done, the effect goes on (a cost: refused)
            raise Nowhere("there is no card to place on")
        return self.ask(options, 1)[0]

    def publish(self, cls, uid: int, **extra) -> None:
        g = self.game
        g.publish(cls(self.me.player, card=uid, turn=g.turn_number, round=g.round, **extra))

    # --- choices ---------------------------------------------------------------------------------
    def ask(self, options: list, k: int, least: int | None = None) -> list:
        """The acting player's agent picks ``k`` of ``options`` (``least``..``k`` for "up to"). The
        documented order of options: cards top of each pile first, piles in the order named, players in
        seat order. Nobody is asked when there is nothing to choose: no options, or "exactly k" of k."""
        if not options or k <= 0:
            return []
        if least is None and k >= len(options):
            return list(options)
        p = self.me.player
        picks = self.game.agent(p).choose(self.game, p, list(options), k, least, "choose")
        low = min(k, len(options)) if least is None else least
        distinct = len(set(map(repr, picks))) == len(picks)
        if not low <= len(picks) <= k or any(x not in options for x in picks) or not distinct:
            raise RulesError("the agent's answer is not a legal choice")
        return list(picks)

    def how_many(self, most: int) -> int:
        """"draw up to N": the player picks a number, offered from N down to 0."""
        if most <= 0:
            return most
        return self.ask(list(range(most, -1, -1)), 1)[0]

    # --- players and zones -----------------------------------------------------------------------
    def owner_of(self, uid: int | None) -> int:
        """A card's owner: its recorded owner, else the player whose zone holds it, else you."""
        if uid is None:
            return self.me.player
        inst = self.game.instances[uid]
        if inst.owner is not None:
            return inst.owner
        holder = self.game.where[uid][1]
        return holder if holder is not None else self.me.player

    def whose(self, owner: ir.Owner) -> list[int]:
        """The players an owner names, in seat order."""
        g = self.game
        if owner is None or owner is ir.Who.YOU:
            return [self.me.player]
        others = [p.index for p in g.players if p.index != self.me.player and not p.out]
        if owner in (ir.Who.ENEMY, ir.Who.ANOTHER):
            return self.reachable(others)
        if owner is ir.Who.OPPONENT:
            return [self.opponent()]
        if owner in (ir.Who.ANY, ir.Who.EACH):
            return self.reachable([p.index for p in g.players if not p.out])
        if owner is ir.Who.OWNER:
            return [self.owner_of(self.card)]
        if owner in (ir.Who.LEFT, ir.Who.RIGHT):  # "left neighbour's": the next seat still in (issue 28)
            n = len(g.players)
            after = [(self.me.player + k) % n for k in range(1, n)]
            after = [p for p in after if not g.players[p].out]
            if not after:
                raise Refused("there is no other player")
            return self.reachable([after[0] if owner is ir.Who.LEFT else after[-1]])
        chosen = self.names[owner.name]
        if chosen.one:
            return [self.player_of_value(chosen.values[0])]
        return sorted({self.player_of_value(v) for v in chosen.values})

    def opponent(self) -> int:
        """The effect's opponent: one player for the whole effect ("give 1 card to opponent; draw 2 cards
        from opponent's parts pile" is one opponent). An effect run without one has the acting player
        choose among the others the first time it is needed (nobody asked when there is one)."""
        if self.me.opponent is None:
            others = self.reachable([p.index for p in self.game.players if p.index != self.me.player and not p.out])
            if not others:
                raise Refused("there is no opponent")
            self.me.opponent = self.ask([("player", p) for p in others], 1)[0][1]
        elif not self.reachable([self.me.opponent]):
            raise Refused("the opponent is unaffected by this card")
        return self.me.opponent

    def player_of_value(self, value) -> int:
        if isinstance(value, int) and value in self.game.instances:
            return self.owner_of(value)
        if isinstance(value, tuple) and value[0] == "player":
            return value[1]
        raise RulesError(f"{value!r} has no owner")

    def player_named(self, q: ir.Query) -> int:
        """One player: you, the opponent (chosen among the others when the effect has none), the
        card's owner, or the player a name holds."""
        if q.category == "var":
            chosen = self.names[q.key]
            return self.player_of_value(chosen.values[0] if chosen.values else None)
        if q.key == "you":
            return self.me.player
        if q.key == "opponent":
            return self.opponent()
        if q.key == "owner":
            return self.owner_of(self.card)
        raise RulesError(f"unknown player {q.key!r}")

    def others_only(self, zone_names) -> bool:
        """``access: others``: an effect may use only another player's such zone."""
        return any(self.game.model.zones[z].others_only for z in zone_names)

    def not_mine(self, owners: list[int], what: str) -> list[int]:
        rest = [o for o in owners if o != self.me.player]
        if owners and not rest:
            raise Refused(f"you may never use your own {what}")
        return rest

    def zone(self, q: ir.Query):
        """ONE zone a phrase names: a chosen zone, or the zone of the one player the owner names —
        "another player's" asks whose when there are several."""
        g = self.game
        if q.category == "var":
            value = self.names[q.key].values[0]
            if isinstance(value, tuple) and value[0] == "zone":
                return value[1]
            raise RulesError(f"{q.key} is not a zone")
        owners = self.whose(q.owner)
        if self.others_only([q.key]):
            owners = self.not_mine(owners, q.key)
        if q.owner in (ir.Who.ANOTHER, ir.Who.ENEMY, ir.Who.ANY) and len(owners) > 1:
            if q.owner is not ir.Who.ANY:
                owners = [o for o in owners if o != self.me.player]
            owners = self.ask(owners, 1)
        if not owners:
            if isinstance(q.owner, ir.Bound):  # the zone of a choice that found nothing is nowhere
                raise Nowhere(f"{q.owner.name} holds nothing")
            raise Refused(f"there is no {q.key} to use")
        return g.zone_key(q.key, owners[0])

    def zones_in(self, q: ir.Query) -> list:
        """Every zone a reference names: "each player's hand", "another player's discard pile" (each
        other player's); any other reference is one zone."""
        g = self.game
        many = (ir.Who.ANOTHER, ir.Who.ENEMY, ir.Who.ANY, ir.Who.EACH)
        if q.category == "zone" and q.owner in many and g.model.zones[q.key].per_player:
            owners = self.whose(q.owner)
            if self.others_only([q.key]):
                owners = self.not_mine(owners, q.key)
            return [g.zone_key(q.key, o) for o in owners]
        if q.category == "zone" and isinstance(q.owner, ir.Bound) and not self.whose(q.owner):
            return []  # "cards in t's hand" of a t that found nothing: no cards
        return [self.zone(q)]

    def hand_name(self) -> str:
        return self.game.model.rules.hand

    def discard_pile(self, player: int):
        return self.game.zone_key(self.game.model.rules.discard_to, player)

    # --- selection -------------------------------------------------------------------------------
    def options(self, q: ir.Query) -> list:
        """What a query selects, in the documented order (top of each pile first)."""
        g = self.game
        if q.category == "var":
            chosen = self.names.get(q.key)
            values = [] if chosen is None else list(chosen.values)
            if chosen is not None and chosen.pile is not None:  # revealed: those still set aside
                values = [u for u in values if g.where.get(u) == chosen.pile]
            if q.filters:
                for v in values:
                    if not (isinstance(v, int) and v in g.instances):
                        raise Refused("a filter can only narrow cards")
                values = [u for u in values if self.passes(u, q.filters)]
            return values
        if q.category == "card":
            zones = self.zones_in(q.place) if q.place is not None else \
                [g.zone_key(self.hand_name(), self.me.player)]
            return [u for z in zones for u in reversed(g.zones[z]) if self.passes(u, q.filters)]
        if q.category == "zone":
            return [("zone", self.zone(q))]
        if q.category == "player":
            if q.key in ("player", "players"):
                return [("player", p) for p in self.whose(q.owner or ir.Who.ANY)]
            return [("player", self.player_named(q))]
        if q.category == "icon":
            if q.of is None:
                return list(g.model.icons)
            found = []
            for uid in self.options(q.of):
                found += [i for i in g.record(uid).get("icons", ()) if i not in found]
            return found
        if q.category == "thing":
            return self.things(q)
        if q.category == "good":
            return self.group(q.key) or [q.key]
        raise OutOfScope(f"selecting {q.category}")

    def things(self, q: ir.Query) -> list[int]:
        """A thing's cards: in the zones the thing lies in (of the players the owner names; yours when
        none is written), or in the zone referred to; of its faces, kinds and ``where``."""
        g = self.game
        spec = g.model.things[q.key]
        if spec.engine_filter:
            raise OutOfScope("an engine's thing filter")
        barred = spec.others_only  # declared so, or it lies in an ``access: others`` zone
        per_player = spec.per_player
        ref = q.place
        if ref is None and q.of is not None and q.of.category == "zone":
            ref = q.of
        if ref is not None:
            zones = [z for z in self.zones_in(ref) if z[0] in spec.zones or not barred]
        else:
            owners = self.whose(q.owner or (ir.Who.ANOTHER if barred else None)) if per_player else [None]
            if barred and per_player:
                owners = self.not_mine(owners, q.key)
            zones = [g.zone_key(z, o) for z in spec.zones for o in owners]
        found = []
        for z in zones:
            cards = list(reversed(g.zones[z]))
            if spec.top_only:
                cards = cards[:1]
            found += [u for u in cards if self.is_thing(spec, u) and self.passes(u, q.filters)]
        return found

    def is_thing(self, spec, uid: int) -> bool:
        """Whether a card is the thing ``spec`` declares (its faces, kinds and ``where``), as its face
        up side reads."""
        inst = self.game.instances[uid]
        card = self.face(uid)
        if spec.faces is not None and inst.face not in spec.faces:
            return False
        if spec.kinds is not None and card.get("kind") not in spec.kinds:
            return False
        return self.has_where(spec, uid, card)

    def has_where(self, spec, uid: int, card: dict) -> bool:
        """A thing's ``where: {field: value}``: the card's field has the value (a list: any of them)."""
        inst = self.game.instances[uid]
        for key, wanted in spec.where:
            got = card.get(key, inst.props.get(key))
            if isinstance(got, (list, tuple)):
                if not any(w in got for w in wanted):
                    return False
            elif got not in wanted:
                return False
        return True

    def face(self, uid: int) -> dict:
        """A card as its face up side shows it: the face's fields over the card's."""
        inst = self.game.instances[uid]
        rec = self.game.cards[inst.card_id]
        return {**rec, **((rec.get("faces") or {}).get(inst.face) or {})}

    def passes(self, uid: int, filters, card: dict | None = None) -> bool:
        card = self.face(uid) if card is None else card
        return all(self.visit(f, uid, card) for f in filters)

    # filters: each answers whether card ``uid``, reading as ``card``, passes
    def visit_HasIcon(self, f: ir.HasIcon, uid: int, card: dict) -> bool:
        return any(i in card.get("icons", ()) for i in f.icons)

    def visit_HasField(self, f: ir.HasField, uid: int, card: dict) -> bool:
        has = bool(card.get(f.field)) or bool((card.get("slots") or {}).get(f.field))
        return has if f.present else not has

    def visit_Not(self, f: ir.Not, uid: int, card: dict) -> bool:
        return not self.visit(f.filter, uid, card)

    def visit_FieldCompare(self, f: ir.FieldCompare, uid: int, card: dict) -> bool:
        got = card.get(f.field)
        if not isinstance(got, int) or isinstance(got, bool):
            return False  # a card without the field never meets a comparison on it
        if f.field == "cost":  # "costing …" reads the cost as this turn's cost changes make it
            got = self.cost_now(uid, got, card)
        bound = f.value if isinstance(f.value, int) else self.bounds[f.key]
        return _compare(got, f.op, bound)

    def visit_OtherThan(self, f: ir.OtherThan, uid: int, card: dict) -> bool:
        if isinstance(f.card, ir.Bound):
            chosen = self.names.get(f.card.name)
            return uid not in (chosen.values if chosen is not None else [])
        return self.game.instances[uid].card_id != f.card

    def visit_SameName(self, f: ir.SameName, uid: int, card: dict) -> bool:
        """"named n", "with the same name as t": the card's name, as its face shows it (issue 28)."""
        return card.get("name", self.game.instances[uid].card_id) in self.names_of(f.bound.name)

    def names_of(self, name: str) -> set:
        chosen = self.names.get(name)
        out = set()
        for v in (chosen.values if chosen is not None else []):
            if isinstance(v, tuple) and v[0] == "name":
                out.add(v[1])
            elif isinstance(v, int) and v in self.game.instances:
                out.add(self.face(v).get("name", self.game.instances[v].card_id))
        return out

    def visit_MatchingIcon(self, f: ir.MatchingIcon, uid: int, card: dict) -> bool:
        chosen = self.names.get(f.bound.name)
        if chosen is not None and not chosen.values:
            return False  # "choose 1 icon of t as i" of a card without icons: i matches nothing
        return self.chosen_icon(f.bound.name) in card.get("icons", ())

    def chosen_icon(self, name: str) -> str:
        chosen = self.names.get(name)
        icons = self.game.model.icons
        icon = chosen.values[0] if chosen is not None and chosen.one else None
        if not isinstance(icon, str) or icon not in icons:
            raise Refused(f"'matching {name}' needs an icon chosen as {name}")
        return icon

    # --- amounts, quantities, conditions ---------------------------------------------------------
    def amount(self, q: ir.Query, default: int = 1) -> int:
        """How many a query's amount means (times its ``per`` count, in whole ``every``s), at most
        every card of the game or 9,999."""
        n = self.visit(q.amount, default)
        if q.per is not None:
            every = q.per.every if q.per.every and q.per.every > 0 else 1
            n *= self.count(q.per) // every
        return min(n, max(MOST_OF_A_GOOD, len(self.game.instances)))

    # amounts: how many each form means ("a"/none: the verb's default; "all": every one there is)
    def visit_Default(self, a: ir.Default, default: int) -> int:
        return default

    def visit_Exactly(self, a: ir.Exactly, default: int) -> int:
        return a.n

    def visit_UpToN(self, a: ir.UpToN, default: int) -> int:
        return a.n

    def visit_Every(self, a: ir.Every, default: int) -> int:
        return 10**9  # capped below, like any amount

    def visit_Computed(self, a: ir.Computed, default: int) -> int:
        return max(0, self.value(a.expr))

    def count(self, q: ir.Query) -> int:
        """``number of …``: Goods held (a group counts all its Goods), cards in zones, things, piles."""
        g = self.game
        if q.category == "good":
            try:
                good = self.good_of(q)
            except Nowhere:  # Goods matching an icon choice that found none: there are none
                return 0
            goods = self.group(good) or [good]  # "number of resources": every Good of the group
            return sum(g.players[p].goods[k] for p in self.whose(q.owner) for k in goods)
        if q.category == "pile":
            empty = q.key.startswith("empty:")
            zone = g.zone_key(q.key.split(":")[-1], self.me.player)
            left = Counter(g.instances[u].card_id for u in g.zones[zone])
            return sum(1 for cid in g.pile_ids.get(zone[0], ()) if (left[cid] == 0) == empty)
        if q.category == "zone":
            return sum(len(g.zones[z]) for z in self.zones_in(q))
        return len(self.options(q))

    def holds(self, c: ir.Cond) -> bool:
        return self.visit(c)

    def visit_Compare(self, c: ir.Compare) -> bool:
        return _compare(self.value(c.left), c.op, self.value(c.right))

    def visit_Exists(self, c: ir.Exists) -> bool:
        """A selector as a condition: at least its amount (1 when none) of such things exist."""
        need = self.amount(c.query, default=1)
        return self.count(_with_amount(c.query, ir.Default())) >= need

    def value(self, e: ir.Expr) -> int:
        return self.visit(e)

    def visit_Lit(self, e: ir.Lit) -> int:
        return e.value

    def visit_XValue(self, e: ir.XValue) -> int:
        return self.x

    def visit_Arith(self, e: ir.Arith) -> int:
        a, b = self.value(e.left), self.value(e.right)
        if e.op == "+":
            return a + b
        if e.op == "-":
            return a - b
        if e.op == "*":
            return a * b
        return a // b if b else 0  # rounds down; by zero gives 0 (docs/language.md)

    def visit_CountOf(self, e: ir.CountOf) -> int:
        return self.count(e.query)

    def visit_DistinctNames(self, e: ir.DistinctNames) -> int:
        """How many different names the selected cards show (issue 28)."""
        g = self.game
        return len({self.face(u).get("name", g.instances[u].card_id) for u in self.options(e.query)
                    if isinstance(u, int) and u in g.instances})

    def visit_Either(self, c: ir.Either) -> bool:
        return any(self.holds(x) for x in c.conds)

    def visit_FieldOf(self, e: ir.FieldOf) -> int:
        """``the cost of t``: one chosen card's number field; a choice that found nothing counts 0,
        and so does a card that prints no such field."""
        chosen = self.names.get(e.card.name)
        if chosen is not None and not chosen.values:
            return 0
        if chosen is None or len(chosen.values) != 1 or chosen.values[0] not in self.game.instances:
            raise Refused(f"{e.card.name!r} is not a card")
        got = self.face(chosen.values[0]).get(e.field)
        if got is None and e.field in self.game.model.quantity_slots:
            return self.slot_quantity(chosen.values[0], e.field)
        if got is None:
            return 0
        if not isinstance(got, int) or isinstance(got, bool):
            raise Refused(f"the card's {e.field} is not a whole number")
        if e.field == "cost":  # "the cost of c" as buying reads it: this turn's cost changes count
            got = self.cost_now(chosen.values[0], got, self.face(chosen.values[0]))
        return got

    def slot_quantity(self, uid: int, slot: str) -> int:
        """``the worth of b``, ``worth`` a slot of kind quantity (issue 28): the card's slot text, read
        as "x is …" and run here for the card's owner (the reader when nobody owns it) with the card as
        "this card"; no such slot counts 0; a slot that needs its own value while it is worked out is
        refused."""
        g = self.game
        text = (self.face(uid).get("texts") or {}).get(slot)
        if text is None:
            return 0
        if (uid, slot) in g.resolving:
            raise Refused(f"the {slot} of the card depends on itself")
        ex = explain_effect("x is " + text, g.model)
        if ex.ir is None or ex.diags.errors:
            raise OutOfScope(f"the quantity text {text!r} does not check")
        owner = g.instances[uid].owner
        inner = Interpreter(g, owner if owner is not None else self.me.player, uid)
        g.resolving.add((uid, slot))
        try:
            inner.visit(ex.ir)
        finally:
            g.resolving.discard((uid, slot))
        return int(inner.x or 0)

    def visit_History(self, e: ir.History) -> int:
        """This turn's (round's) events of that kind by that player with such a card; a card still
        resolving its play has been played all the same (issue 22)."""
        g = self.game
        now = g.turn_number if e.period == "turn" else g.round
        n = 0
        for ev in g.events:
            when = ev.turn if e.period == "turn" else ev.round
            if ev.kind == e.kind and when == now and self.did(e.who, ev.player) \
                    and self.event_card(e.query, getattr(ev, "card", None)):
                n += 1
        if e.kind == "play":
            n += sum(1 for uid, p in g.playing.items()
                     if self.did(e.who, p) and self.event_card(e.query, uid))
        return n

    def did(self, who: str, player) -> bool:
        if who == "any":
            return True
        if who == "you":
            return player == self.me.player
        return player is not None and player != self.me.player

    def event_card(self, q: ir.Query, uid) -> bool:
        """An event's card as printed (wherever it lies now) is what the query names."""
        if uid is None or uid not in self.game.instances:
            return False
        if q.category == "var":
            chosen = self.names.get(q.key)
            return chosen is not None and uid in chosen.values
        # as printed: its kind and fields, not its face or place now (a razed Location is a Ruins by
        # the time its event is counted, yet "you razed a location" is what happened)
        printed = self.game.cards[self.game.instances[uid].card_id]
        if q.category == "thing":
            spec = self.game.model.things[q.key]
            if spec.kinds is not None and printed.get("kind") not in spec.kinds:
                return False
            if not self.has_where(spec, uid, printed):
                return False
        return self.passes(uid, q.filters, printed)


class _Bounds(Visitor):
    """The computed filter bounds of one statement's own queries, by their key, innermost first (a
    bound may count cards filtered by another); not those of the statements in its bodies."""

    skip = ("body", "otherwise", "options")

    def __init__(self):
        self.found: dict = {}

    def visit_FieldCompare(self, f: ir.FieldCompare) -> None:
        self.generic_visit(f)
        if f.key is not None:
            self.found.setdefault(f.key, f.value)


def _compare(a: int, op: str, b: int) -> bool:
    return {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]


def _with_place(q: ir.Query, place: ir.Query) -> ir.Query:
    return ir.Query(q.category, q.key, q.owner, q.filters, q.amount, q.of, place, q.per, q.every)


def _with_amount(q: ir.Query, amount: ir.Amount) -> ir.Query:
    return ir.Query(q.category, q.key, q.owner, q.filters, amount, q.of, q.place, q.per, q.every)


def reference_slot_runner(vocab: GameModel):
    """A ``GameState.slot_runner`` that runs each dispatched trigger slot by the reference semantics:
    the slot's text, as the card record keeps it, checked anew against ``vocab`` (the game's model).
    Its ``fired`` counts the triggers whose body ran (tests use it to know a comparison saw one fire)."""
    checked: dict[str, ir.Effect] = {}

    def run(game, seat: int, uid: int, slot: str, event, about_self: bool) -> None:
        rec = game.cards[game.instances[uid].card_id]
        text = (rec.get("texts") or {}).get(slot)
        if text is None:
            raise OutOfScope(f"the text of slot {slot!r} is not kept")
        if text not in checked:
            ex = explain_effect(text, vocab)
            if ex.ir is None or ex.diags.errors:
                raise OutOfScope(f"the trigger text {text!r} does not check")
            checked[text] = ex.ir
        interp = Interpreter(game, seat, uid)
        interp.fire(checked[text], event, about_self)
        run.fired += interp.fired

    run.fired = 0
    return run


def interpret(game, effect: ir.Effect, player: int, card: int | None = None,
              opponent: int | None = None, use: tuple | None = None) -> Result:
    """Run ``effect`` on ``game`` by the reference semantics (``use``: (slot, index) of the ability
    its player uses, for an ability slot)."""
    interp = Interpreter(game, player, card, opponent)
    interp.use = use
    return interp.run(effect)
