"""The core engine's player of a game flow written as data (game.yaml ``flow:``, issue 13).

The compiled ``FLOW`` table (compiler/flow.py) says how a game goes; this module plays it through
the game protocol (runtime/protocol.py), with no Python of the game's own:

- setup steps (make cards into zones, shuffle, effects), the first Starting Player;
- rounds: the round's phases in order. A phase runs its steps, then offers its actions; a phase with
  ``turns`` gives each player in turn order (from the Starting Player) a turn made of its phases;
- actions: ``order: in turn`` — one player acts until passing, then the next; ``alternate`` — one
  action each in turn order until every player has passed. Inside a turn only the turn player acts;
- after each turn or round the end condition is checked (it ends the game when it holds for any
  player), and ``end.rounds`` ends it after that round at the latest; then ``score.final`` runs and
  the winner is found by points and the tie-breaks in order (a tie surviving them all is shared).

The flow's position is plain data (``FlowRun``, kept by the match beside the game state), never a
suspended call stack, so a Match copies with the state (Monte Carlo playouts) and resumes anywhere.
The game state is whatever the engine makes: any engine may play a flow (the core engine does; a game
engine inherits ``Engine.new_match`` and runs ``run_setup`` from its setup, or the core's setup).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .context import MOVE_CHOICE, PROBE, ChoiceOptions, Ctx
from .errors import Refused, RulesError, Unmet
from .events import ActionTaken, CapReached, GameOver, Passed, SetUp, StartingPlayer, TurnBegun
from .protocol import Move, Result, refuse_unless_legal
from .state import GameState
from .words import has

PASS = ("pass",)
ANYONE = -1  # the seat a limit `by: anyone` counts under (all players' uses together)
# One player's actions in one phase are bounded: a repeatable action that changes nothing would
# otherwise let a bot act for ever. Past the bound only passing is legal (docs/decisions.md).
MAX_ACTIONS_PER_PHASE = 100


@dataclass
class FlowPos:
    """Where the flow is: the round's phase, the turn inside it, the phase of that turn."""

    phase: int = 0  # index into the round's phases
    order: list = field(default_factory=list)  # this round's seats in turn order, from the Starting Player
    turn: int = -1  # index into ``order`` of the player whose turn it is (-1: no turn running)
    sub: int = 0  # index into the turn's phases
    started: bool = False  # the current phase's steps have run
    passed: set = field(default_factory=set)  # seats that passed in the current phase
    actor: int = 0  # index into ``order`` of the seat to act (round-level phases)
    next_turn: int = 0  # index into ``order`` of the next turn to begin (a phase with ``turns``)


@dataclass
class FlowRun:
    """What the match keeps beside the game state: the flow's position, the actions' counts, the end.
    Copied with the match (``FlowMatch.copy``); the game state stays whatever its engine makes it."""

    pos: FlowPos = field(default_factory=FlowPos)
    counts: dict = field(default_factory=dict)  # (action id, seat, "turn"|"phase"|"round") -> times taken
    over: bool = False
    capped: bool = False
    turn_cap: int = 10_000  # a safety bound (turns or rounds); the simulator keeps its own cap
    result: Result | None = None
    # during an extra turn (h28b, "after this turn, take an extra turn"): the index in the round's order
    # of the turn that comes after it, as it would have without the extra turn; None otherwise
    resume: int | None = None


def _flow(game: GameState) -> dict:
    return game.compiled.flow


# --- setup --------------------------------------------------------------------------------------


def run_setup(engine, game: GameState, flow: dict) -> None:
    """The flow's setup steps in order, then the first Starting Player."""
    n = len(game.players)
    for step in flow.get("setup") or []:
        do = step["do"]
        if do == "effect":
            for seat in _seats_for(game, step.get("for", "each player")):
                engine.run(game, step["fn"], seat)
            continue
        zname = step["shuffle"] if do == "shuffle" else step["into"]
        per_player = game.model.zones[zname].per_player
        made = 0
        for owner in (range(n) if per_player else [None]):
            key = game.zone_key(zname, owner)
            if do == "shuffle":
                game.shuffle(key)
                continue
            wanted = step["create"]
            ids = ({cid: int(rec.get("count", 1)) for cid, rec in game.cards.items()} if wanted == "all"
                   else wanted)
            for cid, copies in ids.items():
                for _ in range(int(copies)):
                    game.create(cid, key, owner=owner)
                    made += 1
        game.tell(SetUp(None, zone=zname, made=None if do == "shuffle" else made, per_player=per_player))
    first = game.rng.randrange(n) if flow.get("first_player") == "random" else 0
    game.starting_player = first
    game.turn_player = first
    game.tell(StartingPlayer(first, when="first"))


def quantity(game: GameState, fn, seat: int) -> int:
    """A compiled quantity of the flow (``x is …``), counted for ``seat``."""
    ctx = Ctx(game, seat)
    fn(ctx)
    return int(ctx.x or 0)


def _order(game: GameState, first: int) -> list[int]:
    """Seats still in the game, in turn order from ``first``."""
    n = len(game.players)
    return [(first + k) % n for k in range(n) if not game.players[(first + k) % n].out]


def _seats_for(game: GameState, who: str) -> list[int]:
    start = game.starting_player
    if who == "each player":
        return _order(game, start)
    if who == "starting player":
        return [start]
    return [game.turn_player]


# --- the match ----------------------------------------------------------------------------------


def _note_refusal(g, step: dict, outcome) -> None:
    """A flow text (a step, an action, final scoring) that was refused did nothing from the refused
    statement on, and the flow went on: counted by its YAML place, with the first reason, for
    simulate's report and play's terminal (a silent failure otherwise: issue 26)."""
    if outcome.status != "refused":
        return
    place = outcome.where or f"the flow text '{step.get('text', '?')}'"
    seen = g.flow_refusals.get(place)
    if seen is None:
        g.flow_refusals[place] = [1, outcome.reason]
    else:
        seen[0] += 1


class FlowMatch:
    """A game whose flow is data, behind the game protocol."""

    def __init__(self, game: GameState, run: FlowRun | None = None):
        self.game = game
        self.run = run if run is not None else FlowRun()
        self._moves: list[Move] | None = None  # the legal moves, found when the flow stopped for them

    @classmethod
    def start(cls, game: GameState, turn_cap: int = 10_000) -> "FlowMatch":
        match = cls(game, FlowRun(turn_cap=turn_cap))
        match._begin_round()
        match._advance()
        return match

    # --- the protocol ---------------------------------------------------------------------------
    def to_act(self) -> int | None:
        if self.terminal():
            return None
        return self._actor()

    def terminal(self) -> bool:
        return self.run.over

    def legal_moves(self) -> list[Move]:
        if self.terminal():
            return []
        if self._moves is None:
            self._moves = self._moves_of(self._actor(), self._phase())
        return list(self._moves)

    def _moves_of(self, seat: int, phase: dict) -> list[Move]:
        """The seat's actions open in ``phase`` (in the phase's order, then by option), then pass."""
        g = self.game
        moves: list[Move] = []
        if self.run.counts.get(("*", seat, "phase"), 0) < MAX_ACTIONS_PER_PHASE:
            for aid in phase.get("actions") or []:
                moves += self._action_moves(seat, _flow(g)["actions"][aid])
        if moves:
            moves.append(Move(f"pass (end your {phase.get('name', phase['id']).replace('_', ' ')})", PASS))
        return moves

    def apply(self, move: Move) -> None:
        legal = refuse_unless_legal(move, self.legal_moves(), self.game)
        self._moves = None
        g = self.game
        seat = self._actor()
        pos = self.run.pos
        if legal.key == PASS:
            pos.passed.add(seat)
            g.tell(Passed(seat))
        else:
            action = _flow(g)["actions"][legal.key[1]]
            self._take(seat, action, legal.key[2] if len(legal.key) > 2 else None)
        if not self.run.over and self._phase().get("order") == "alternate" and pos.turn < 0:
            pos.actor = (pos.actor + 1) % max(1, len(pos.order))
        self._advance()

    def result(self) -> Result:
        if not self.terminal():
            raise RulesError("the game is not over")
        return self.run.result

    def copy(self) -> "FlowMatch":
        twin = FlowMatch(self.game.copy(), copy.deepcopy(self.run))
        twin._moves = self._moves  # moves are frozen values: the copy's are the same until it moves
        return twin

    # --- actions --------------------------------------------------------------------------------
    def _limit_ok(self, seat: int, action: dict) -> bool:
        limit = action.get("limit")
        if not limit:
            return True
        who = ANYONE if limit.get("by") == "anyone" else seat
        return self.run.counts.get((action["id"], who, limit.get("per", "phase")), 0) < limit["times"]

    def _action_moves(self, seat: int, action: dict) -> list[Move]:
        g = self.game
        if not self._limit_ok(seat, action):
            return []
        goods = g.players[seat].goods
        cost = action.get("cost") or {}
        if any(goods.get(good, 0) < n for good, n in cost.items()):
            return []
        req = action.get("requires")
        if req is not None and not req(Ctx(g, seat)):
            return []
        if not action.get("per_choice"):
            return [Move(action["name"], ("action", action["id"]))]
        # one move per option of the action's first choice, listed as it stands once the cost is paid
        for good, n in cost.items():
            goods[good] -= n
        tracing, g.tracing = g.tracing, False
        try:
            action["fn"](Ctx(g, seat, bindings={MOVE_CHOICE: PROBE}))
            options = []  # pragma: no cover - the compiler makes the first statement a choice
        except ChoiceOptions as probe:
            options = probe.options
        except (Refused, Unmet):
            options = []
        finally:
            g.tracing = tracing
            for good, n in cost.items():
                goods[good] += n
        moves, seen = [], set()
        for opt in options:
            same = self._interchangeable(opt)
            if same in seen:
                continue  # two copies of one card lying alike are one decision
            seen.add(same)
            moves.append(Move(f"{action['name']}: {self._describe(opt)}", ("action", action["id"], opt)))
        return moves

    def _interchangeable(self, opt):
        g = self.game
        if isinstance(opt, int) and opt in g.instances:
            inst = g.instances[opt]
            return ("card", inst.card_id, g.where.get(opt), inst.face, tuple(sorted(inst.goods.items())))
        return opt

    def _describe(self, opt) -> str:
        g = self.game
        if isinstance(opt, int) and opt in g.instances:
            inst = g.instances[opt]
            return str(g.cards[inst.card_id].get("name", inst.card_id))
        if isinstance(opt, tuple) and len(opt) == 2 and opt[0] == "player":
            return g.players[opt[1]].name
        return str(opt)

    def _take(self, seat: int, action: dict, option) -> None:
        g = self.game
        cost = action.get("cost") or {}
        goods = g.players[seat].goods
        for good, n in cost.items():
            goods[good] -= n
        g.tell(ActionTaken(seat, name=action["name"], cost=tuple(cost.items())))
        for per in ("turn", "phase", "round"):
            for who in (seat, ANYONE):
                key = (action["id"], who, per)
                self.run.counts[key] = self.run.counts.get(key, 0) + 1
        self.run.counts[("*", seat, "phase")] = self.run.counts.get(("*", seat, "phase"), 0) + 1
        bindings = {MOVE_CHOICE: option} if action.get("per_choice") else None
        _note_refusal(g, action, g.engine.run(g, action["fn"], seat, bindings=bindings))
        if action.get("starting_player") and g.starting_player != seat:
            # the turn order of the round under way stays; the next round starts from this player
            g.starting_player = seat
            g.tell(StartingPlayer(seat, when="next round"))

    # --- where the flow is ----------------------------------------------------------------------
    def _round_phases(self) -> list:
        return _flow(self.game)["round"]

    def _phase(self) -> dict:
        pos = self.run.pos
        phase = self._round_phases()[pos.phase]
        if pos.turn >= 0:
            return phase["turns"][pos.sub]
        return phase

    def _actor(self) -> int:
        pos = self.run.pos
        if pos.turn >= 0:
            return pos.order[pos.turn]
        return pos.order[pos.actor]

    def _reset(self, per: str) -> None:
        self.run.counts = {k: v for k, v in self.run.counts.items() if k[2] != per}

    def _begin_round(self) -> None:
        g = self.game
        self.run.pos = FlowPos(order=_order(g, g.starting_player))
        self._reset("round")
        self._reset("turn")  # in a round without turns, "per turn" is per round
        g.engine.begin_round(g)

    def _run_steps(self, steps: list, default: str) -> None:
        g = self.game
        for step in steps:
            for seat in _seats_for(g, step.get("for", default)):
                if g.players[seat].out:
                    continue
                _note_refusal(g, step, g.engine.run(g, step["fn"], seat))

    def _advance(self) -> None:
        """Run the flow on until a player must decide, or the game ends."""
        g = self.game
        while not self.run.over:
            pos = self.run.pos
            phases = self._round_phases()
            if pos.phase >= len(phases):
                self._end_round()
                continue
            phase = phases[pos.phase]
            if "turns" in phase and pos.turn < 0:
                k = pos.next_turn
                if k >= len(pos.order) or not phase["turns"]:
                    pos.phase += 1
                    pos.next_turn = 0
                    pos.started = False
                    continue
                self._begin_turn(k)
                continue
            if pos.turn >= 0 and pos.sub >= len(phase["turns"]):
                if self._end_turn():
                    return
                continue
            current = self._phase()
            if not pos.started:
                g.phase = current["id"]
                pos.started = True
                pos.passed = set()
                self._reset("phase")
                if pos.turn < 0:
                    pos.actor = 0
                self._run_steps(current.get("steps") or [], "turn player" if pos.turn >= 0 else "each player")
                if self.run.over:
                    return
            if current.get("actions") and self._someone_to_act(current):
                return
            self._finish_phase()

    def _someone_to_act(self, phase: dict) -> bool:
        """Whether a seat is left to act in this phase; moves ``actor`` to it."""
        g = self.game
        pos = self.run.pos
        if pos.turn >= 0:
            candidates = [pos.turn]
        else:
            n = len(pos.order)
            candidates = [(pos.actor + k) % n for k in range(n)]
        for i in candidates:
            seat = pos.order[i]
            if seat in pos.passed or g.players[seat].out:
                continue
            moves = self._moves_of(seat, phase)
            if not moves:
                # nothing to do but pass: the player passes without being asked (docs/decisions.md)
                pos.passed.add(seat)
                g.tell(Passed(seat, forced=True))
                continue
            if pos.turn < 0:
                pos.actor = i
            self._moves = moves
            return True
        return False

    def _finish_phase(self) -> None:
        pos = self.run.pos
        pos.started = False
        if pos.turn >= 0:
            pos.sub += 1
        else:
            pos.phase += 1

    def _begin_turn(self, k: int) -> None:
        g = self.game
        pos = self.run.pos
        pos.turn = k
        pos.sub = 0
        pos.started = False
        self._reset("turn")
        g.engine.begin_turn(g, pos.order[k])
        g.tell(TurnBegun(pos.order[k], number=g.turn_number))

    def _end_turn(self) -> bool:
        """End the running turn; True when that ended the game."""
        g = self.game
        pos = self.run.pos
        g.engine.end_turn(g)
        pos.next_turn = self._after_turn(pos.turn)
        pos.turn = -1
        end = _flow(g).get("end") or {}
        if end.get("check") == "after each turn" and self._end_holds():
            self._finish("the end condition holds after a turn")
            return True
        if g.turn_number >= self.run.turn_cap:
            self._cap()
            return True
        return False

    def _after_turn(self, k: int) -> int:
        """The index in the round's order of the turn after turn ``k``: the next seat's, or first an extra
        turn owed ("after this turn, take an extra turn", the first player to earn one), after which the
        round goes on where it would have. Never two extra turns in a row: one earned during an extra turn
        is lost, so that no text can make turns without end (docs/decisions.md)."""
        g, run = self.game, self.run
        owed, g.extra_turns = g.extra_turns, []
        if run.resume is not None:  # this was an extra turn
            after, run.resume = run.resume, None
            return after
        order = self.run.pos.order
        for seat in owed:
            if seat in order and not g.players[seat].out:
                run.resume = k + 1
                return order.index(seat)
        return k + 1

    def _end_round(self) -> None:
        g = self.game
        flow = _flow(g)
        end = flow.get("end") or {}
        g.engine.end_round(g)  # the round number moves on
        # checked at the end of every round, also when it is checked after each turn: a round whose
        # last phases are not turns can make it hold, and a round without turns has no "after a turn"
        if self._end_holds():
            self._finish("the end condition holds at the end of a round")
            return
        if end.get("rounds") and g.round > end["rounds"]:
            n = end["rounds"]
            self._finish(f"{n} round{'s have' if n != 1 else ' has'} been played")
            return
        if g.round > self.run.turn_cap:
            self._cap()
            return
        if (flow.get("starting_player") or {}).get("passes") == "each round":
            order = _order(g, g.starting_player)  # from the current one (an action may have changed it)
            if len(order) > 1:
                g.starting_player = order[1]
                g.tell(StartingPlayer(g.starting_player, when="now"))
        self._begin_round()

    def _end_holds(self) -> bool:
        g = self.game
        when = (_flow(g).get("end") or {}).get("when")
        if when is None:
            return False
        return any(when(Ctx(g, seat)) for seat in _order(g, g.starting_player))

    # --- the end --------------------------------------------------------------------------------
    def _scores(self) -> tuple[int, ...]:
        """Every seat's points (``score.points``), out or not."""
        g = self.game
        points = _flow(g)["score"]["points"]
        return tuple(quantity(g, points, s) for s in range(len(g.players)))

    def _cap(self) -> None:
        g = self.game
        self.run.capped = True
        self.run.over = True
        g.tell(CapReached(None, cap=self.run.turn_cap))
        scores = self._scores()
        self.run.result = Result(scores, (), f"turn cap ({self.run.turn_cap}) reached without a winner",
                                 ended="the turn cap was reached")

    def _finish(self, why: str) -> None:
        g = self.game
        self.run.over = True
        g.phase = None
        score = _flow(g)["score"]
        self._run_steps(score.get("final") or [], "each player")
        seats = [s for s in range(len(g.players)) if not g.players[s].out]
        scores = self._scores()
        best = max((scores[s] for s in seats), default=0)
        winners = [s for s in seats if scores[s] == best]
        who = " and ".join(g.players[s].name for s in winners)
        reason = f"{who} {has(who, len(winners) > 1)} {best} points"
        for tb in score.get("tie_breaks") or []:
            if len(winners) < 2:
                break
            values = {s: quantity(g, tb["fn"], s) for s in winners}
            pick = max(values.values()) if tb["how"] == "most" else min(values.values())
            kept = [s for s in winners if values[s] == pick]
            if len(kept) < len(winners):
                reason += f"; tie broken by {tb['how']} {tb['text']}"
            winners = kept
        if len(winners) > 1:
            reason += "; the tie stands: they share the win"
        self.run.result = Result(scores, tuple(winners), f"{why}: {reason}", ended=why)
        g.tell(GameOver(None, reason=self.run.result.reason, winners=tuple(winners)))
