"""The stand-in base turn of 51st State, played through the game protocol (runtime/protocol.py).

The base game's rulebook is not among the project's rulebooks; the State Packs' rulebooks describe
only what they change. To play whole games to a winner this module plays the smallest base turn the
packs need, every part of it a table of game.yaml marked ``stand_in`` with its note (shown as such in
the reference and in simulation reports):

    Lookout   the stand-in draft (``lookout_draft``), each pick a move; Scavengers reveals its Yellow
              Connection card (S03) and takes the left-over into the Starting Player's pile
    Production, Assault (Moloch, M04, skipped in round 1), Deploy (Moloch, M06): automatic
    Action    from the Starting Player on, one action at a time until every player has passed
              (``action_phase``): construct (``construct_cost``), make a Deal, raze a card from hand or
              a Location (yours or another player's), use a Location's or a Faction board Action (once
              per round each), hack or destroy a Deployed Machine (M07, M08) — with the Collaboration
              variant also pay part of either, one Good a move (M20) —, take or play a Yellow
              Connection (S05)
    Cleanup   as the engine's; then the Starting Player passes on (``starting_player``)
    End       after a round in which someone reached ``game_end.vp`` VP, or after ``game_end.rounds``
              rounds, or when the Deck ran out (``deck_out``); Moloch's penalty (M10), then each
              Location scores ``final_scoring.vp_per_location``; ties by ``final_scoring.tie_breaks``

The turn's progress lives in the game (``FiftyGame.turn``), so ``Match.copy`` is a copy of the game.
An action is offered only when it would be taken: costs are checked before anything changes, and an
Action of a Location (whose effect may ask for choices) is tried on copies first — with the first
option of each choice, then with the other options of its single choices (up to 6 trials). When the
seat's agent then chooses an option that does not work, the Action is refused, nothing changes, and it
counts as the seat's action.
"""
from __future__ import annotations

from collections import Counter
from functools import partial

from runtime.agents import Agent
from runtime.context import Ctx, face_view
from runtime.errors import Refused
from runtime.events import GoodsPaid, MoveMade
from runtime.protocol import Move, Result, refuse_unless_legal
from runtime.refs import CARD, GOOD, Exactly
from runtime.statecopy import counter, peek
from runtime.tables import verbs_only

from .state import FiftyGame, goods_text
from .verbs import paid_with_first_choices

PASS = ("pass",)


class _Refused(Exception):
    """A cost check found the cost unpayable."""


class _Undecided(Exception):
    """A cost check cannot tell: the trial on a copy decides."""


class _CostCheck(Ctx):
    """Runs an Action's effect without running a verb (``FiftyMatch._action_decided``). Its first
    verb, a cost: a ``spend`` that cannot be paid whatever is chosen raises ``_Refused``, and so does
    a ``discard`` of more cards than the hand holds; a ``spend`` its first choices pay, or a
    ``discard`` of cards the hand holds (not the card itself), goes on. Then only ``gain``s of Goods
    (named, a group — it asks, the first trial takes the first —, a card — drawn, never refused —)
    go on: the effect runs to its end and the Action's first trial would be taken. Anything else
    raises ``_Undecided``."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.verbs_seen = 0

    def call(self, name: str, objs: tuple = (), ph: dict | None = None, strict: bool = False):
        first = not self.verbs_seen
        self.verbs_seen += 1
        ph = ph or {}
        if first and strict and name == "spend":
            paid = paid_with_first_choices(self, objs)
            if paid is False:
                raise _Refused(name)
            if paid:
                return []
        elif first and strict and name == "discard" and set(ph) <= {"from"}:
            sel = objs[0].at(ph["from"]) if ph.get("from") is not None else objs[0]
            if sel.category == CARD and not sel.filters and type(sel.amount) is Exactly and sel.per is None:
                options = self.options(sel)  # the hand's cards, listed once for both questions
                if len(options) < self.amount(sel):
                    raise _Refused(name)  # ``pick_targets`` refuses it before a card moves
                if self.card not in options:
                    return []
        elif name == "gain" and not ph and _plain_gains(self, objs):
            return []
        raise _Undecided(name)


def _plain_gains(ctx: Ctx, objs) -> bool:
    """Whether gaining ``objs`` is gaining Goods only (``verbs.give_goods``: never refused)."""
    goods, groups = ctx.game.model.goods, ctx.game.model.good_groups
    for sel in objs:
        if sel.category != GOOD or sel.of is not None or sel.filters or not (
                sel.key in groups or sel.key == "card" or sel.key in goods):
            return False
    return True


def table(game, name: str) -> dict:
    return game.compiled.table(name) or {}


class FiftyMatch:
    """One 51st State game in progress (the protocol's ``Match``)."""

    def __init__(self, game: FiftyGame):
        self.game = game
        self._legal: list[Move] | None = None

    # --- the protocol -------------------------------------------------------------------------
    def to_act(self) -> int | None:
        t = self.game.turn
        if t.stage == "draft":
            return t.drafter
        if t.stage == "action":
            return t.seat
        return None

    def terminal(self) -> bool:
        return self.game.turn.stage == "over"

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            t = self.game.turn
            if t.stage == "draft":
                self._legal = self._draft_moves()
            elif t.stage == "action":
                self._legal = self._action_moves(t.seat)
            else:
                self._legal = []
        return list(self._legal)

    def apply(self, move: Move) -> None:
        move = refuse_unless_legal(move, self.legal_moves(), self.game)
        self._legal = None
        t = self.game.turn
        if t.stage == "draft":
            self._apply_draft(move)
        else:
            self._apply_action(move)
        self.advance()

    def result(self) -> Result:
        if not self.terminal():
            raise Refused("the game is not over")
        g = self.game
        scores = tuple(g.players[p.index].goods["vp"] for p in g.players)
        keys = {p.index: self._rank_key(p.index) for p in g.players if not p.out}
        best = max(keys.values())
        winners = tuple(sorted(p for p, k in keys.items() if k == best))
        names = ", ".join(g.players[w].name for w in winners)
        reason = f"{names} {'has' if len(winners) == 1 else 'share'} {scores[winners[0]]} VP"
        ties = [p for p, k in keys.items() if k[0] == best[0]]
        if len(ties) > 1 and len(winners) == 1:
            reason += " (tie broken by " + self._broken_by(ties) + ")"
        elif len(winners) > 1:
            reason += " (a tie that survives the tie-breaks)"
        return Result(scores, winners, f"{reason}; the game ended: {g.turn.ended}")

    def copy(self) -> "FiftyMatch":
        """An independent match on a copy of the game. The legal moves already worked out go with it:
        they name cards by uid and seats by number, which the copy shares, and working them out runs
        the legality trials (``_would_work``) a look-ahead would otherwise repeat at every step."""
        twin = FiftyMatch(self.game.copy())
        twin._legal = list(self._legal) if self._legal is not None else None
        return twin

    # --- running the automatic parts ------------------------------------------------------------
    def advance(self) -> None:
        """Run the automatic phases until a seat must decide or the game is over."""
        g, eng, t = self.game, self.game.engine, self.game.turn
        while True:
            if t.stage == "over":
                return
            if t.stage == "start":
                eng.phase(g, "lookout")  # packs' additions (Scavengers' Yellow Connection, S03)
                t.draft_left = eng.draft_rounds(g)
                t.stage = "draft"
                self._deal()
            if t.stage == "draft":
                if t.shown and t.drafter is not None:
                    return
                if t.draft_left > 0:
                    self._deal()
                    continue
                for name in eng.phase_order(g):
                    if name in ("production", "assault", "deploy"):
                        eng.phase(g, name)
                eng.phase(g, "action")  # its packs' additions, if any; the actions are moves
                t.stage, t.passed, t.actions = "action", set(), Counter()
                t.seat = self._next_seat(None)
            if t.stage == "action":
                if t.seat is not None:
                    return
                eng.phase(g, "cleanup")  # ends the round; the Starting Player passes on
                t.used = set()
                why = self._ended()
                if why:
                    self._finish(why)
                    return
                t.stage = "start"

    def _deal(self) -> None:
        g, eng, t = self.game, self.game.engine, self.game.turn
        while t.draft_left > 0:
            t.draft_left -= 1
            t.shown = eng.deal_draft(g)
            t.drafted = []
            if t.shown:
                t.drafter = eng.draft_order(g)[0]
                return
        t.shown, t.drafter = [], None

    def _next_seat(self, after: int | None) -> int | None:
        g, t = self.game, self.game.turn
        order = g.engine.draft_order(g)  # from the Starting Player, players still in
        if after is None:
            cands = order
        else:
            i = order.index(after)
            cands = order[i + 1:] + order[:i + 1]
        for p in cands:
            if p not in t.passed:
                return p
        return None

    # --- the draft ----------------------------------------------------------------------------
    def _draft_moves(self) -> list[Move]:
        g = self.game
        return [Move.lazy(("draft", u), partial(_said, g, "Draft {}", (_card(g, u),))) for u in g.turn.shown]

    def _apply_draft(self, move: Move) -> None:
        g, eng, t = self.game, self.game.engine, self.game.turn
        uid = move.key[1]
        t.shown.remove(uid)
        eng.draft_pick(g, t.drafter, uid)
        t.drafted.append(t.drafter)
        rest = [p for p in eng.draft_order(g) if p not in t.drafted]
        if rest and t.shown:
            t.drafter = rest[0]
            return
        eng.draft_leftover(g, t.shown)
        t.shown, t.drafter = [], None

    # --- the action phase -----------------------------------------------------------------------
    def _action_moves(self, p: int) -> list[Move]:
        g, eng = self.game, self.game.engine
        # the cards are read, never written, here: peeked, so that a game shared with its copies
        # does not copy them (and its next copy, for an Action trial, stays cheap)
        card = lambda u: peek(g.instances, u)  # noqa: E731
        out = [Move("Pass (end your Action phase)", PASS)]
        me = g.players[p]

        # labels are made when read (``Move.lazy``: a simulation reads none), from what they say as
        # listed now: each card's id and face (``_card``), the amounts (``_said``)
        def say(key: tuple, text: str, *parts) -> None:
            out.append(Move.lazy(key, partial(_said, g, text, parts)))

        cost = construct_cost(g)
        # the Locations in hand (cards with a row): what may be constructed, dealt or razed from hand
        in_hand = [uid for uid in g.zone("hand", p) if face_view(g.record(uid), card(uid)).get("rows")]
        if can_pay(g, p, cost):
            for uid in in_hand:
                say(("construct", uid), "Construct {} (pay {})", _card(g, uid), ("goods", cost))
        deal, raze = eng.contact_for(g, "deal"), eng.contact_for(g, "raze")
        for uid in in_hand:
            d = eng._distance(g, uid)
            if me.goods[deal] >= d:
                say(("deal", uid), "Make {} a Deal (pay {} {})", _card(g, uid), d, ("good", deal))
            if me.goods[raze] >= d:
                say(("raze", uid), "Raze {} from hand for its Spoils (pay {} {})", _card(g, uid), d,
                    ("good", raze))
        for q in g.active_players():
            if q == p:
                continue
            for uid in g.zone("state", q):
                if card(uid).face == "ruins":
                    continue
                good, n = eng.raze_cost(g, uid)
                if me.goods[good] >= n:
                    say(("raze_enemy", uid), "Raze {} of {} (pay {} {})", _card(g, uid), g.players[q].name, n,
                        ("good", good))
        for zone in ("state", "faction_board"):
            for uid in g.zone(zone, p):
                if uid in g.turn.used or card(uid).face == "ruins" or eng.blocked(g, uid):
                    continue
                if "action" not in face_view(g.record(uid), card(uid)).get("slots", {}):
                    continue
                decided = self._action_decided(p, uid)
                if decided is False:
                    continue
                if decided or self._would_work(lambda twin, uid=uid: twin.engine.use_action(twin, p, uid)):
                    say(("use", uid), "Use the Action of {}", _card(g, uid))
        moloch = pack(g, "moloch")
        if moloch is not None:
            # one state: a player's stores are listed once, not once per Deployed Machine
            stores = {purpose: moloch._stores(g, p, purpose) for purpose in ("hack", "destroy")}
            for uid in g.zone("deployed"):
                for purpose in ("hack", "destroy"):
                    if moloch.missing_any(g, p, uid, purpose, stores[purpose]):
                        continue  # something is missing
                    if purpose == "hack":
                        say((purpose, uid), "Hack {} (pay {})", _card(g, uid),
                            ("goods", Counter(g.record(uid)["code"])))
                    else:
                        say((purpose, uid), "Destroy {} (pay {} red contact, gain 1 VP)", _card(g, uid),
                            moloch.defense(g, uid))
                if g.options.get("collaboration"):  # M20: part of a Hack or a Destroy, one Good at a time
                    for purpose in ("hack", "destroy"):
                        need = moloch._remaining(g, uid, purpose)
                        if sum(need.values()) < 2:
                            continue  # paying the rest is the Hack / Destroy itself
                        for good in sorted(need):
                            try:
                                moloch._payment(g, p, Counter({good: 1}), purpose, stores[purpose])
                            except Refused:
                                continue
                            say(("contribute", uid, purpose, good),
                                "Place 1 {} on {} towards its {} (Collaboration)", ("good", good),
                                _card(g, uid), "Hack" if purpose == "hack" else "Destroy")
        scav = pack(g, "scavengers")
        if scav is not None:
            pile = g.zone("yellow_connections")
            if len(g.zone("hand", p)) >= 2 and (pile or g.zone("connection_discard")):
                out.append(Move("Discard 2 cards to take the top Yellow Connection card", ("take_connection",)))
            for uid in g.zone("hand", p):
                if g.record(uid).get("kind") == "connection" and self._would_work(
                        lambda twin, uid=uid: scav.play_connection(twin.engine, twin, p, uid)):
                    say(("play_connection", uid), "Play {}", _card(g, uid))
        return out

    def _cost_refused(self, p: int, uid: int) -> bool:
        """Whether the Action of ``uid`` is refused by its cost, read without a copy
        (``_action_decided`` is False)."""
        return self._action_decided(p, uid) is False

    def _action_decided(self, p: int, uid: int) -> bool | None:
        """Whether the Action of ``uid`` (in ``p``'s State or on its Faction board, not used, not
        blocked) would be taken, read without a copy when its text says so: an effect that only calls
        verbs (``runtime.tables.verbs_only``: the compiler's fact) and starts with a cost ``spend``
        that cannot be paid whatever is chosen (``verbs.paid_with_first_choices`` False) is refused there, before
        anything changed or was asked (False), and so is a cost no choice pays; one whose cost its
        first choices pay and then only ``gain``s of Goods is taken (True: ``_CostCheck``). None: the
        trial (``_would_work``) decides."""
        g = self.game
        fn = face_view(g.record(uid), peek(g.instances, uid)).get("slots", {}).get("action")
        if fn is None or not verbs_only(fn):
            return None
        try:
            fn(_CostCheck(g, p, uid))
        except _Refused:
            return False
        except Exception:  # noqa: BLE001 — _Undecided, or what the trial will meet and report itself
            return None
        # taken, unless a card listening to its events (a card drawn, the Action used) could refuse
        return None if g.engine.trigger_slots(g)[0] else True

    def _would_work(self, attempt, budget: int = 6) -> bool:
        """Would the action be taken? Tried on copies of the game: first with the first option of
        every choice it asks, then with the other options of its single choices, up to ``budget``
        trials (Scouring the Ruins can pay with the second icon when not with the first)."""
        p = self.to_act()
        todo = [()]
        while todo and budget > 0:
            script = todo.pop(0)
            budget -= 1
            explorer = Explorer(script)
            twin = self.game.copy(agents={p: explorer})
            try:
                if attempt(twin).status == "done":
                    return True
            except Refused:
                pass
            for i in range(len(script), len(explorer.points)):
                todo += [tuple(explorer.taken[:i]) + (j,) for j in range(1, explorer.points[i])]
        return False

    def _apply_action(self, move: Move) -> None:
        g, eng, t = self.game, self.game.engine, self.game.turn
        p = t.seat
        kind = move.key[0]
        if g.tracing:  # the label is made when read (``_said``): only for a trace
            g.tell(MoveMade(p, label=move.label))
        if kind == "pass":
            t.passed.add(p)
        else:
            uid = move.key[1] if len(move.key) > 1 else None
            if kind == "construct":
                pay_cost(g, p, construct_cost(g))
                eng.construct(g, p, uid)
            elif kind == "deal":
                eng.make_deal(g, p, uid)
            elif kind == "raze":
                eng.raze_card(g, p, uid)
            elif kind == "raze_enemy":
                eng.raze_enemy(g, p, uid)
            elif kind == "use":
                t.used.add(uid)
                eng.use_action(g, p, uid)  # a refusal here (another choice than the trial's) changes nothing
            elif kind == "hack":
                pack(g, "moloch").hack(eng, g, p, uid)
            elif kind == "destroy":
                pack(g, "moloch").destroy(eng, g, p, uid)
            elif kind == "contribute":
                pack(g, "moloch").contribute(eng, g, p, uid, move.key[2], Counter({move.key[3]: 1}))
            elif kind == "take_connection":
                pack(g, "scavengers").take_connection(eng, g, p)
            elif kind == "play_connection":
                pack(g, "scavengers").play_connection(eng, g, p, uid)
            t.actions[p] += 1
            if t.actions[p] >= int(table(g, "action_phase").get("actions_per_player", 8)):
                t.passed.add(p)
                g.emit("pass", p, "has taken the most actions a player may take this round: passes (stand-in)")
        t.seat = self._next_seat(p)

    # --- the end --------------------------------------------------------------------------------
    def _ended(self) -> str:
        g = self.game
        end = table(g, "game_end")
        goal = end.get("vp")
        if goal is not None:
            top = [g.players[p].name for p in g.active_players() if self.score_now(p) >= int(goal)]
            if top:
                return f"{', '.join(top)} reached {goal} VP (stand-in)"
        if table(g, "deck_out").get("ends_game") and not g.zone("deck") and not g.engine.reshufflable(g):
            return "the Deck ran out with nothing left to reshuffle (stand-in)"
        cap = g.options.get("round_cap")
        if cap is not None and g.round > int(cap) and (end.get("rounds") is None or int(cap) < int(end["rounds"])):
            return f"the round cap ({cap}) was reached"
        if end.get("rounds") is not None and g.round > int(end["rounds"]):
            return f"{end['rounds']} rounds were played (stand-in)"
        return ""

    def score_now(self, p: int) -> int:
        """The score the stand-in end (``game_end.counts: vp and locations``) reads during play: the VP
        the player has plus what its Locations will score at the end (``final_scoring``), so that the
        goal can be reached by play. Moloch's penalty (M10) is not anticipated: it is counted at the end
        only, as the rulebook says, and may bring the winner below the goal."""
        g = self.game
        vp = g.players[p].goods["vp"]
        if table(g, "game_end").get("counts") == "vp and locations":
            vp += int(table(g, "final_scoring").get("vp_per_location", 0)) * len(locations(g, p))
        return vp

    def _finish(self, why: str) -> None:
        """M10 first (before the Locations' VP), then each Location scores (stand-in)."""
        g, eng = self.game, self.game.engine
        g.turn.stage, g.turn.ended, g.turn.seat, g.turn.drafter = "over", why, None, None
        eng.end_game(g)
        per = int(table(g, "final_scoring").get("vp_per_location", 0))
        for p in g.active_players():
            n = len(locations(g, p))
            if per and n:
                g.players[p].goods["vp"] += per * n
                g.emit("score", p, f"scores {per * n} VP for {n} Locations (stand-in)")

    def _rank_key(self, p: int) -> tuple:
        g = self.game
        key = [g.players[p].goods["vp"]]
        for tb in table(g, "final_scoring").get("tie_breaks") or []:
            key.append(TIE_BREAKS[tb](g, p))
        return tuple(key)

    def _broken_by(self, tied: list[int]) -> str:
        g = self.game
        names = table(g, "final_scoring").get("tie_breaks") or []
        for i, tb in enumerate(names, start=1):
            if len({self._rank_key(p)[i] for p in tied}) > 1:
                return tb
        return "nothing"


class Explorer(Agent):
    """An agent for trials: answers a single choice by the script's index (the first option past the
    script's end) and records each choice point; several picks or "up to" take the first ones."""

    name = "explorer"

    def __init__(self, script: tuple):
        self.script = script
        self.points: list[int] = []
        self.taken: list[int] = []

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        i = len(self.points)
        if k == 1 and (low is None or low >= 1):
            j = self.script[i] if i < len(self.script) else 0
            self.points.append(len(options))
            self.taken.append(j)
            return [options[j]]
        self.points.append(1)
        self.taken.append(0)
        return list(options[:k])


def locations(game, p: int) -> list[int]:
    return [u for u in game.zone("state", p) if game.instances[u].face != "ruins"]


TIE_BREAKS = {
    "most locations": lambda g, p: len(locations(g, p)),
    "most goods": lambda g, p: sum(n for k, n in g.players[p].goods.items() if k != "vp"),
}


def pack(game, name: str):
    return next((k for k in game.engine.packs(game) if k.name == name), None)


def good_name(game, good: str) -> str:
    return game.model.good_name(good).lower()


def _card(game, uid: int) -> tuple:
    """A card in a move's label as it is when the move is listed: its id and face (``name_of``'s words)."""
    inst = peek(game.instances, uid)
    return "card", inst.card_id, inst.face


def _said(game, text: str, parts: tuple, key: tuple) -> str:
    """A move's label (``Move.lazy``'s labeller): ``text`` with each part in words — a card
    (``_card``), Goods (``("goods", Counter)``: ``goods_text``), a Good's name (``("good", good)``),
    or a number or a name as it is. What a part names was read when the move was listed; the words
    come from the game's tables, which play never changes."""
    words = []
    for part in parts:
        if type(part) is tuple:
            if part[0] == "card":
                part = game.engine.name_of_face(game, part[1], part[2])
            elif part[0] == "goods":
                part = goods_text(part[1])
            else:
                part = good_name(game, part[1])
        words.append(part)
    return text.format(*words)


def construct_cost(game) -> Counter:
    # Counter(dict) without Counter.update's Python loop (statecopy.counter): asked at every Action
    return counter({k: int(v) for k, v in table(game, "construct_cost").items() if k != "stand_in"})


def can_pay(game, p: int, cost: Counter) -> bool:
    """Goods or Good groups ("resource": any of its Goods) the player can pay in full."""
    goods = game.players[p].goods
    groups = game.model.good_groups
    left = counter(goods)  # Counter(goods), without Counter.update's Python loop
    for k, n in sorted(cost.items(), key=lambda kv: kv[0] in groups):  # plain Goods first
        if k in groups:
            have = sum(left[m] for m in groups[k])
            if have < n:
                return False
            for m in sorted(groups[k]):  # what is left is enough: which ones does not matter here
                take = min(n, left[m])
                left[m] -= take
                n -= take
        else:
            if left[k] < n:
                return False
            left[k] -= n
    return True


def pay_cost(game, p: int, cost: Counter) -> None:
    """Pay a stand-in cost; for a Good group the player's agent chooses which Goods."""
    if not can_pay(game, p, cost):
        raise Refused(f"cannot pay {goods_text(cost)}")
    goods = game.players[p].goods
    groups = game.model.good_groups
    for k, n in sorted(cost.items(), key=lambda kv: kv[0] in groups):
        for _ in range(n):
            good = k
            if k in groups:
                options = [m for m in sorted(groups[k]) if goods[m] > 0]
                good = Ctx(game, p).ask(options, 1, prompt=f"which {k} to pay")[0]
            goods[good] -= 1
            if game.tracing:
                game.tell(GoodsPaid(p, good=good, n=1))


def new_match(engine, compiled, players: list[str], seed: int, agents=None, options=None,
              tracing: bool = True) -> FiftyMatch:
    """A new 51st State game played through the stand-in base turn (every pack compiled in)."""
    game = engine.new_game(compiled, list(players), seed=seed, agents=agents, options=options, tracing=tracing)
    game.turn.moves = True
    start = {k: int(v) for k, v in table(game, "starting_goods").items() if k in game.model.goods}
    for p in game.players:
        p.goods.update(start)
    if start:
        game.emit("setup", None, "each player starts with " + goods_text(Counter(start)) + " (stand-in)")
    match = FiftyMatch(game)
    match.advance()
    return match
