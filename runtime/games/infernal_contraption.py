"""Infernal Contraption: the machine, the turn, elimination — rulebook 003_19ce964aacf02a21.txt.

What lives here is what the rules need beyond single card effects (DESIGN §5):
- the machine's geometry (main line, plugs, terminals), placement legality and power (I01–I09);
- setup order, the attach step and its moves, activation order, Upgrades, one-shot cards,
  requirements, elimination and the winner (I10–I18);
- legal-move enumeration, so that agents (seeded random, greedy) can play whole games.

What does NOT live here: the turn steps that are plain sequences of effects — the opening hand, the
mulligan, the draw step (I13) and the cleanup (I19) are effect-language rules in
``data/infernal_contraption/rules.yaml``, compiled to ``RULES`` and run by this engine.

Geometry (the rulebook's pictures are not in the text; decided here, see docs/decisions.md):
each card has four sockets, left/right/top/bottom, and keeps its printed orientation. Main-line
neighbours touch by the left card's right socket and the right card's left socket; a plug above a
main-line card touches by its bottom socket that card's top socket, a plug below by its top socket
that card's bottom socket. Plugs touch nothing else (nothing attaches to a plug, I01).
"""
from __future__ import annotations

from dataclasses import replace
from collections import Counter
from typing import Callable, NamedTuple

from ..agents import Agent
from ..context import Ctx
from ..engine import CompiledGame, Engine, Outcome, register
from ..errors import Halt, Refused, RulesError
from ..refs import CARD, THING, VAR, ZONE, AllOf, Sel, UpTo
from ..state import GameState
from ..events import TurnEnded, TurnStarted
from ..protocol import Move as ProtocolMove
from ..protocol import Result, refuse_unless_legal
from ..verbs import AMOUNTS, Slot, verb, verbs_for

NAME = "infernal_contraption"
SIDES = ("left", "right", "top", "bottom")
_SOCKET_INDEX = {"left": 0, "right": 1, "top": 2, "bottom": 3}
# the socket of the NEW card that touches the anchor when it is attached at `side` of the anchor
_FACING = {"left": 1, "right": 0, "top": 3, "bottom": 2}
_ANCHOR = {"left": 0, "right": 1, "top": 2, "bottom": 3}

MAIN_KINDS = frozenset({"power_source", "contraption", "upgrade"})  # may go in the main line
POWER_KINDS = frozenset({"power_core", "power_source"})  # a Power Core counts as a Power Source (I03)
ONE_SHOT = frozenset({"consumable", "sabotage"})  # removed from the game after resolving (I17)

HAND_LIMIT = 10  # cleanup scraps down to this (I19); the invariant tests check it


class Stop(Halt):
    """Control flow, not an error: elimination ended what was resolving (I12).

    ``reason`` is "out" (the acting player is out), "alone" (no opponents left: the machine stops at
    once) or "opponent" (the chosen opponent is out but others remain: the card that was resolving
    stops, the acting player chooses a new opponent for the rest of the activation).
    """


# --- the machine ------------------------------------------------------------------------------


class Machine:
    """One player's machine: the main line left→right and the plugs above/below its cards."""

    __slots__ = ("main", "top", "bottom", "base")

    def __init__(self) -> None:
        self.main: list[int] = []
        self.top: dict[int, int] = {}  # main-line uid -> plug above it
        self.bottom: dict[int, int] = {}  # main-line uid -> plug below it
        self.base: dict[int, tuple[int, str]] = {}  # plug uid -> (main-line uid, "top"|"bottom")

    def cards(self) -> list[int]:
        out = list(self.main)
        out += self.top.values()
        out += self.bottom.values()
        return out

    def neighbours(self, uid: int) -> list[int]:
        """The cards attached to ``uid``, in activation order (left, top, bottom, right)."""
        b = self.base.get(uid)
        if b is not None:
            return [b[0]]
        main = self.main
        i = main.index(uid)
        out = []
        if i > 0:
            out.append(main[i - 1])
        t = self.top.get(uid)
        if t is not None:
            out.append(t)
        t = self.bottom.get(uid)
        if t is not None:
            out.append(t)
        if i + 1 < len(main):
            out.append(main[i + 1])
        return out

    def attach(self, uid: int, anchor: int | None, side: str) -> None:
        if anchor is None:  # the first card: the Power Core
            self.main.append(uid)
        elif side == "left":
            self.main.insert(0, uid)
        elif side == "right":
            self.main.append(uid)
        else:
            (self.top if side == "top" else self.bottom)[anchor] = uid
            self.base[uid] = (anchor, side)

    def detach(self, uid: int) -> None:
        b = self.base.pop(uid, None)
        if b is not None:
            del (self.top if b[1] == "top" else self.bottom)[b[0]]
            return
        if uid not in self.main:
            return
        if uid in self.top or uid in self.bottom or uid not in (self.main[0], self.main[-1]):
            raise RulesError(f"card #{uid} is not a terminal: it cannot leave the machine")
        self.main.remove(uid)

    def clear(self) -> None:
        self.main.clear()
        self.top.clear()
        self.bottom.clear()
        self.base.clear()

    def layout(self) -> dict:
        return {"main": list(self.main), "top": dict(sorted(self.top.items())),
                "bottom": dict(sorted(self.bottom.items()))}


class ICGame(GameState):
    """GameState plus the machines' layout and the turn's bookkeeping."""

    SHARED = GameState.SHARED + ("card_info", "socket_codes")  # per compiled game: never changed by play

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.machines = [Machine() for _ in self.players]
        self.kind_of: dict[int, str] = {}
        self.sock_of: dict[int, tuple[int, int, int, int]] = {}
        self.socket_codes = _socket_codes(self.vocab)
        self.card_info: dict[str, tuple] = {}  # card id -> (kind, socket codes); shared per compiled game
        self.turn = 0  # turns begun
        self.first_player: int | None = None
        self.winner: int | None = None
        self.over = False
        self.capped = False  # the turn cap ended the game (simulation): a finding, not a hang
        self.step = "attach"  # setup → "start"; then "attach" during the attach step; "over"
        self.plays = 0  # cards attached this turn
        self.refitted = False  # scrapped-and-drew instead of playing this turn
        self.stats: dict | None = None  # {"plays": Counter, "activations": Counter} when recording
        self.observer: Callable | None = None  # observer(game, event, player) at step boundaries (tests)
        self._eliminating = False

    def create(self, card_id, zone, face="front", owner=None):
        inst = super().create(card_id, zone, face, owner)
        info = self.card_info.get(card_id)
        if info is None:  # computed once per card id (a hot path in simulations)
            rec = self.cards[card_id]
            s = rec.get("sockets") or {}
            codes = self.socket_codes
            info = self.card_info[card_id] = (rec["kind"], tuple(codes.get(s.get(k), -1) for k in SIDES))
        self.kind_of[inst.uid] = info[0]
        self.sock_of[inst.uid] = info[1]
        return inst

    def move(self, uid, to, bottom=False):
        src = self.where[uid]
        if src[0] == "machine" and src != to:
            m = self.machines[src[1]]
            if not self._eliminating:
                # any verb (a core one too: "draw 1 card from your machine") meets the machine's rules
                if self.kind_of[uid] == "power_core":
                    raise Refused("the Power Core can never be destroyed, scrapped or moved (I03)")
                if uid not in m.base and len(m.neighbours(uid)) > 1:
                    raise Refused("only a terminal (a card attached at one socket) can leave a machine (I01)")
            m.detach(uid)
        super().move(uid, to, bottom)

    def snapshot(self) -> dict:
        s = super().snapshot()
        s["machines"] = [m.layout() for m in self.machines]
        s["turn"] = (self.turn, self.turn_player, self.first_player, self.step, self.plays, self.refitted,
                     self.winner, self.over)
        return s

    def check_conservation(self) -> list[str]:
        problems = super().check_conservation()
        for p, m in enumerate(self.machines):
            laid = m.cards()
            zone = self.zones[("machine", p)]
            if sorted(laid) != sorted(zone) or len(set(laid)) != len(laid):
                problems.append(f"machine of {self.players[p]}: layout {sorted(laid)} != zone {sorted(zone)}")
        return problems


def _socket_codes(vocab: dict) -> dict[str, int]:
    """Socket names as small ints; Universal is 0, which matches anything."""
    names = sorted((vocab.get("tables") or {}).get("sockets") or {})
    codes = {"universal": 0}
    for n in names:
        if n != "universal":
            codes[n] = len(codes)
    return codes


def sockets_match(a: int, b: int) -> bool:
    """I09: the touching sockets match, or at least one of the two is Universal (code 0)."""
    return a == b or a == 0 or b == 0


# --- thing filters the vocabulary names (game.yaml `engine_filter`) --------------------------------


def is_terminal(game: ICGame, uid: int) -> bool:
    """I01: a terminal is a card attached at only one socket."""
    owner = game.where[uid][1]
    return len(game.machines[owner].neighbours(uid)) == 1


def is_plug(game: ICGame, uid: int) -> bool:
    return uid in game.machines[game.where[uid][1]].base


# --- moves -----------------------------------------------------------------------------------------


class Move(NamedTuple):
    """A decision in the attach step (I14). ``cost``: the card scrapped to pay for an extra play."""

    kind: str  # "play" | "refit" | "end"
    card: int = 0
    machine: int = -1  # whose machine the card goes into
    anchor: int = 0  # the main-line card it attaches to
    side: str = ""
    cost: int = 0
    cards: tuple = ()  # refit: the cards to scrap (empty: the agent chooses)

    def __str__(self) -> str:
        if self.kind == "play":
            return f"play #{self.card} {self.side} of #{self.anchor} in machine {self.machine}"
        return self.kind


END = Move("end")
REFIT = Move("refit")


# --- the engine ------------------------------------------------------------------------------------


class InfernalContraption(Engine):
    name = NAME
    steps = {**Engine.steps, "play": "step_play", "refit": "step_refit", "end_attach": "step_end_attach",
             "activate": "step_activate", "turn": "step_turn", "play_out": "step_play_out",
             "eliminate_check": "step_eliminate_check"}
    thing_filters = {"terminal": is_terminal, "plug": is_plug}
    agents = {**Engine.agents, "greedy": "runtime.games.infernal_contraption:Greedy"}
    step_options = Engine.step_options | {"machine", "scrap", "at", "side"}

    def __init__(self) -> None:
        self._verbs: dict | None = None
        self._card_info: dict[int, tuple] = {}  # id(compiled game) -> (compiled game, {card id: info})

    # --- games ---------------------------------------------------------------------------------
    def new_game(self, compiled: CompiledGame, players: list[str], seed: int = 0,
                 agents: dict[int, Agent] | None = None, options: dict | None = None,
                 setup: bool = True) -> ICGame:
        game = ICGame(compiled.vocab, compiled.cards, players, seed=seed, agents=agents, options=options)
        cache = self._card_info.get(id(compiled))
        if cache is None or cache[0] is not compiled:
            cache = self._card_info[id(compiled)] = (compiled, {})
        game.card_info = cache[1]
        game.engine = self
        game.compiled = compiled
        game.verbs = self.guarded_verbs()
        if setup:
            self.setup(game)
        return game

    def guarded_verbs(self) -> dict:
        """Every verb, followed by the elimination check: a parts pile that empties puts its
        player out at once (I12), whatever verb emptied it."""
        if self._verbs is None:
            self._verbs = {n: replace(v, fn=_guard(v.fn)) for n, v in verbs_for(self.name).items()}
        return self._verbs

    def deck(self, game: ICGame) -> list[str]:
        """Card ids of the deck, each repeated `count` times (default 1), in data order.

        ``options["deck"]`` may list the modules to use (default: every module of the game)."""
        modules = game.options.get("deck")
        out = []
        for cid, rec in game.cards.items():
            if modules and rec.get("at", "").split(":")[0].rsplit("/", 1)[-1].removesuffix(".yaml") not in modules:
                continue
            out += [cid] * int(rec.get("count", 1))
        return out

    def setup(self, game: ICGame) -> None:
        """I10: Power Cores dealt (extras out), the rest shuffled and dealt equally (extras out),
        opening hands, the one-time mulligan in seat order, a random first player."""
        n = len(game.players)
        box = ("box", None)
        for cid in self.deck(game):
            game.create(cid, box, owner=None)
        cores = [u for u in game.zones[box] if game.kind_of[u] == "power_core"]
        rest = [u for u in game.zones[box] if game.kind_of[u] != "power_core"]
        if len(cores) < n:
            raise RulesError(f"the deck has {len(cores)} Power Cores; {n} players need {n}")
        game.rng.shuffle(cores)
        for p in range(n):
            uid = cores[p]
            game.move(uid, ("machine", p))
            game.machines[p].attach(uid, None, "")
            game.instances[uid].owner = p
        game.rng.shuffle(rest)
        per = len(rest) // n
        for p in range(n):
            pile = ("parts_pile", p)
            for uid in rest[p * per:(p + 1) * per]:
                game.move(uid, pile)
                game.instances[uid].owner = p
        game.emit("setup", None, f"deals {per} cards to each parts pile; "
                  f"{len(game.zones[box])} cards stay out of the game")
        for p in range(n):
            self.run_rule(game, "opening_hand", p)
        for p in range(n):
            if not game.players[p].out:
                self.run_rule(game, "mulligan", p)
        game.first_player = game.rng.randrange(n)
        game.turn_player = game.first_player
        game.step = "start"
        game.emit("first", game.first_player, "goes first")
        self.check_eliminations(game)

    # --- rules from data ---------------------------------------------------------------------------
    def run_rule(self, game: ICGame, name: str, player: int) -> Outcome:
        fn = game.compiled.rules.get(name)
        if fn is None:
            raise RulesError(f"the game's data has no rule {name!r} (data/infernal_contraption/rules.yaml)")
        try:
            return self.run(game, fn, player)
        except Stop as s:
            return Outcome("done", f"stopped: {s.reason}")

    # --- elimination (I12) ---------------------------------------------------------------------------
    def check_eliminations(self, game: ICGame) -> None:
        for pl in game.players:
            if not pl.out and not game.zones[("parts_pile", pl.index)]:
                self.eliminate(game, pl.index)

    def eliminate(self, game: ICGame, p: int) -> None:
        """Out at once; the cards of the machine and hand are removed from the game. Sabotages this
        player put into other machines stay there: they are part of those machines now."""
        pl = game.players[p]
        pl.out = True
        game.machines[p].clear()
        removed = ("removed", None)
        game._eliminating = True
        try:
            n = 0
            for z in ("hand", "machine"):
                for uid in list(game.zones[(z, p)]):
                    game.move(uid, removed)
                    n += 1
        finally:
            game._eliminating = False
        game.emit("eliminated", p, f"has an empty parts pile and is out of the game ({n} cards removed)")
        alive = game.active_players()
        if len(alive) <= 1:
            game.over = True
            game.step = "over"
            game.winner = alive[0] if alive else None
            if alive:
                game.emit("wins", alive[0], "is the last player remaining and wins")
            else:
                game.emit("draw", None, "nobody remains: no winner")

    def after_verb(self, ctx: Ctx) -> None:
        game = ctx.game
        self.check_eliminations(game)
        if game.players[ctx.player].out:
            raise Stop("out")
        if not game.others(ctx.player):
            raise Stop("alone")
        if ctx.opponent is not None and game.players[ctx.opponent].out:
            raise Stop("opponent")

    # --- placement (I01, I03–I09) -------------------------------------------------------------------
    def placement_problem(self, game: ICGame, player: int, uid: int, owner: int, anchor: int,
                          side: str) -> str | None:
        """Why ``player`` may not attach ``uid`` at ``side`` of ``anchor`` in ``owner``'s machine."""
        kind = game.kind_of.get(uid)
        if kind == "power_core":
            return "a Power Core is never played: it starts in play (I03)"
        if side not in _FACING:
            return f"unknown side {side!r} (left, right, top or bottom)"
        if owner < 0 or owner >= len(game.players) or game.players[owner].out:
            return "no such machine"
        m = game.machines[owner]
        if anchor in m.base:
            return "nothing attaches to a plug (I01)"
        if anchor not in m.main:
            return "the anchor card is not in that machine's main line"
        if kind == "sabotage":
            if owner == player:
                return "a Sabotage is played into an opponent's machine (I08)"
        elif owner != player:
            return "only Sabotages go into an opponent's machine (I08)"
        if side == "left" or side == "right":
            if kind not in MAIN_KINDS:
                return f"a {kind.replace('_', ' ').title()} can only be played as a plug (I07, I08)"
            end = m.main[0] if side == "left" else m.main[-1]
            if anchor != end:
                return "the main line is extended only at its left or right end (I01)"
        else:
            if anchor in (m.top if side == "top" else m.bottom):
                return f"that card already has a plug on its {side}"
            if kind == "consumable" and game.kind_of[anchor] not in POWER_KINDS:
                return "a Consumable can only be attached to a Power Source (I07)"
        mine = game.sock_of[uid][_FACING[side]]
        theirs = game.sock_of[anchor][_ANCHOR[side]]
        if not sockets_match(mine, theirs):
            return "the touching sockets do not match and neither is Universal (I09)"
        return None

    def open_slots(self, game: ICGame, player: int) -> tuple[list, list, list]:
        """Free places: (ends of the player's main line, plug places in the player's machine, plug
        places in opponents' machines). Each is (owner, anchor, side, anchor's socket there, index
        of the new card's touching socket, anchor is a Power Source)."""
        kinds = game.kind_of
        socks = game.sock_of
        ends, own, opp = [], [], []
        for owner in game.active_players():
            m = game.machines[owner]
            main = m.main
            if not main:
                continue
            mine = owner == player
            if mine:
                ends.append((owner, main[0], "left", socks[main[0]][0], 1, False))
                ends.append((owner, main[-1], "right", socks[main[-1]][1], 0, False))
            out = own if mine else opp
            top, bottom = m.top, m.bottom
            for c in main:
                pw = kinds[c] in POWER_KINDS
                sc = socks[c]
                if c not in top:
                    out.append((owner, c, "top", sc[2], 3, pw))
                if c not in bottom:
                    out.append((owner, c, "bottom", sc[3], 2, pw))
        return ends, own, opp

    def legal_moves(self, game: ICGame) -> list[Move]:
        """Every legal decision of the attach step for the player whose turn it is (I14).

        Two copies of one card in hand have the same moves: only the first is listed."""
        if game.step != "attach" or game.over:
            return []
        p = game.turn_player
        moves = [END]
        if game.refitted:
            return moves
        hand = game.zones[("hand", p)]
        if game.plays == 0 and hand:
            moves.append(REFIT)
        if game.plays >= 1 and len(hand) < 2:  # an extra play needs another card to scrap first
            return moves
        ends, own, opp = self.open_slots(game, p)
        kinds = game.kind_of
        socks = game.sock_of
        instances = game.instances
        seen = set()
        add = moves.append
        for uid in hand:
            key = instances[uid].card_id
            if key in seen:
                continue
            seen.add(key)
            kind = kinds[uid]
            s = socks[uid]
            if kind == "sabotage":
                places = opp
            else:
                if kind in MAIN_KINDS:
                    for owner, anchor, side, need, f, _ in ends:
                        mine = s[f]
                        if mine == need or mine == 0 or need == 0:
                            add(Move("play", uid, owner, anchor, side))
                places = own
            consumable = kind == "consumable"
            for owner, anchor, side, need, f, power in places:
                if consumable and not power:
                    continue
                mine = s[f]
                if mine == need or mine == 0 or need == 0:
                    add(Move("play", uid, owner, anchor, side))
        return moves

    # --- the attach step (I14) -----------------------------------------------------------------
    def play(self, game: ICGame, move: Move) -> Outcome:
        """Attach a card; a play after the first costs scrapping another card from hand first."""
        p = game.turn_player
        problem = self._play_problem(game, p, move)
        if problem:
            return self.refuse(game, p, problem)
        hand = ("hand", p)
        cost = move.cost
        if game.plays >= 1:
            if not cost:
                options = [u for u in reversed(game.zones[hand]) if u != move.card]
                cost = Ctx(game, p).ask(options, 1, prompt="scrap a card to pay for this play")[0]
            game.move(cost, ("scrap", None))
            game.emit("scrap", p, f"scraps {self.name_of(game, cost)} to pay for another play")
        game.move(move.card, ("machine", move.machine))
        game.machines[move.machine].attach(move.card, move.anchor, move.side)
        inst = game.instances[move.card]
        inst.owner = move.machine
        inst.props["played_by"] = p
        game.plays += 1
        if game.stats is not None:
            game.stats["plays"][inst.card_id] += 1
        if game.tracing:
            where = "" if move.machine == p else f" in {game.players[move.machine].name}'s machine"
            game.emit("play", p, f"attaches {self.name_of(game, move.card)} {move.side} of "
                      f"{self.name_of(game, move.anchor)}{where}", card=inst.card_id)
        return Outcome("done")

    def _play_problem(self, game: ICGame, p: int, move: Move) -> str | None:
        if game.over:
            return "the game is over"
        if game.step != "attach":
            return "cards are attached only in the attach step (step 2)"
        hand = game.zones[("hand", p)]
        if move.card not in hand:
            return "that card is not in your hand"
        if game.refitted:
            return "you scrapped cards to draw instead of playing this turn (I14)"
        if game.plays >= 1:
            if move.cost:
                if move.cost == move.card or move.cost not in hand:
                    return "the card scrapped to pay must be another card from your hand"
            elif len(hand) < 2:
                return "each further play costs scrapping another card from your hand first (I14)"
        return self.placement_problem(game, p, move.card, move.machine, move.anchor, move.side)

    def refit(self, game: ICGame, move: Move) -> Outcome:
        """Instead of playing: scrap any number of cards from hand and draw that many (I14)."""
        p = game.turn_player
        hand = ("hand", p)
        if game.over or game.step != "attach":
            return self.refuse(game, p, "this is done only in the attach step (step 2)")
        if game.plays or game.refitted:
            return self.refuse(game, p, "scrapping to draw is instead of playing cards, once (I14)")
        cards = list(move.cards)
        if any(c not in game.zones[hand] for c in cards) or len(set(cards)) != len(cards):
            return self.refuse(game, p, "those cards are not all in your hand")
        if not game.zones[hand]:
            return self.refuse(game, p, "you have no card to scrap")
        if not cards:
            cards = Ctx(game, p).ask(list(reversed(game.zones[hand])), len(game.zones[hand]), low=1,
                                     prompt="choose cards to scrap and redraw")
            if not cards:
                return self.refuse(game, p, "choose at least one card to scrap")
        for uid in cards:
            game.move(uid, ("scrap", None))
        game.refitted = True
        game.emit("refit", p, f"scraps {len(cards)} cards to draw as many")
        fn = _DRAW_N
        try:
            ctx = Ctx(game, p)
            game.verbs["draw"].fn(ctx, (fn.with_amount(len(cards)),), {}, False)
        except Stop:
            pass
        return Outcome("done")

    def apply(self, game: ICGame, move: Move) -> Outcome:
        """Perform one decision; ``end`` runs activation, cleanup and the next turns' draw steps."""
        if move.kind == "play":
            return self.play(game, move)
        if move.kind == "refit":
            out = self.refit(game, move)
            if out.ok and game.players[game.turn_player].out:
                self.next_turn(game)
            return out
        if move.kind == "end":
            if game.over or game.step != "attach":
                return self.refuse(game, game.turn_player, "not in the attach step")
            self.finish_turn(game)
            return Outcome("done")
        return self.refuse(game, game.turn_player, f"unknown move {move.kind!r}")

    # --- turns ---------------------------------------------------------------------------------
    def begin_turn(self, game: ICGame) -> None:
        """Step 1, the draw step (I13), from data; a player it puts out passes the turn on."""
        while not game.over:
            p = game.turn_player
            game.turn += 1
            game.plays = 0
            game.refitted = False
            game.step = "attach"
            game.emit("turn", p, f"turn {game.turn}")
            game.turn_number += 1
            game.publish(TurnStarted(p, turn=game.turn_number, round=game.round))  # the event bus
            self.run_rule(game, "draw_step", p)
            if not game.players[p].out or game.over:
                return
            self._advance_player(game)

    def finish_turn(self, game: ICGame) -> None:
        """Step 3 (choose an opponent, activate, I15) and step 4 (cleanup, I19), then the next turn."""
        p = game.turn_player
        game.step = "activate"
        if game.others(p):
            self.activate(game, p, self.choose_opponent(game, p))
        if not game.over and not game.players[p].out:
            game.step = "cleanup"
            self.run_rule(game, "cleanup", p)
            if game.observer is not None:
                game.observer(game, "cleanup", p)
        game.publish(TurnEnded(p, turn=game.turn_number, round=game.round))
        self.next_turn(game)

    def next_turn(self, game: ICGame) -> None:
        if game.over:
            game.step = "over"
            return
        self._advance_player(game)
        self.begin_turn(game)

    def _advance_player(self, game: ICGame) -> None:
        n = len(game.players)
        p = game.turn_player
        for i in range(1, n + 1):
            q = (p + i) % n
            if not game.players[q].out:
                game.turn_player = q
                return

    def choose_opponent(self, game: ICGame, player: int) -> int:
        others = game.others(player)
        if len(others) == 1:
            return others[0]
        pick = game.agent(player).choose(game, player, [game.players[o] for o in others], 1, None,
                                         "choose an opponent")[0]
        return pick.index

    # --- activation (I15–I18) -------------------------------------------------------------------
    def activation_order(self, game: ICGame, player: int) -> list[int]:
        """Left to right along the main line; for each card its top plug, itself, its bottom plug."""
        m = game.machines[player]
        order = []
        for c in m.main:
            t = m.top.get(c)
            if t is not None:
                order.append(t)
            order.append(c)
            t = m.bottom.get(c)
            if t is not None:
                order.append(t)
        return order

    def activate(self, game: ICGame, player: int, opponent: int) -> None:
        """Turn the machine on. The order is fixed when it starts; a card that has left the machine
        meanwhile is skipped (decision: docs/decisions.md)."""
        if game.tracing:
            game.emit("activate", player, f"turns the machine on against {game.players[opponent].name}")
        here = ("machine", player)
        for uid in self.activation_order(game, player):
            if game.over:
                return
            if game.where.get(uid) != here:
                continue
            if game.tracing:
                game.emit("visit", player, f"{self.position_of(game, uid)}: {self.name_of(game, uid)}",
                          card=game.instances[uid].card_id)
            try:
                self.resolve(game, uid, player, opponent)
            except Stop as s:
                if s.reason == "opponent" and not game.players[player].out and game.others(player):
                    opponent = self.choose_opponent(game, player)
                    game.emit("opponent", player, f"chooses {game.players[opponent].name} as the new opponent")
                    continue
                game.emit("stop", player, "the machine stops: " + ("its owner is out" if s.reason == "out"
                                                                    else "no opponents are left"))
                return

    def powered(self, game: ICGame, player: int, uid: int) -> bool:
        """I04: attached to a Power Source (a Power Core counts as one)."""
        kinds = game.kind_of
        for n in game.machines[player].neighbours(uid):
            if kinds[n] in POWER_KINDS:
                return True
        return False

    def resolve(self, game: ICGame, uid: int, player: int, opponent: int) -> str:
        """Resolve one card of the machine. Returns what happened: done/unmet/unpowered/skip."""
        kind = game.kind_of[uid]
        if kind == "power_core" or kind == "upgrade":
            return "skip"  # Upgrades apply when an attached Contraption resolves (I16)
        rec = game.cards[game.instances[uid].card_id]
        slots = rec["slots"]
        if (kind == "contraption" or kind == "consumable") and not self.powered(game, player, uid):
            if game.tracing:
                game.emit("unpowered", player, f"{rec['name']} is not attached to a Power Source", card=rec["id"])
            return "unpowered"
        fn = slots.get("effect")
        req = slots.get("requires")
        if fn is None and req is None:
            return "skip"
        if req is not None and not req(Ctx(game, player, uid, opponent)):
            # I18: nothing of the card or its Upgrades; an unmet Consumable (or Sabotage) stays
            game.emit("unmet", player, f"{rec['name']}: requirement not met ({rec['texts']['requires']})")
            return "unmet"
        status = "done"
        try:
            if fn is not None:
                out = self.run(game, fn, player, uid, opponent)
                if out.halt is not None:
                    raise out.halt  # the activation loop decides what stops (activate)
                status = out.status
            if status == "done":
                if game.stats is not None:
                    game.stats["activations"][rec["id"]] += 1
                if kind == "contraption":
                    for u in game.machines[player].neighbours(uid):
                        if game.kind_of[u] == "upgrade":
                            self.apply_upgrade(game, u, uid, player, opponent)
        finally:
            if kind in ONE_SHOT and status == "done" and game.where.get(uid) == ("machine", player):
                game.move(uid, ("removed", None))  # I17: removed from the game, not scrapped
                game.emit("remove", player, f"{rec['name']} is removed from the game")
        return status

    def apply_upgrade(self, game: ICGame, uid: int, contraption: int, player: int, opponent: int) -> str:
        """I16: an attached Upgrade's effect applies when the Contraption resolves; no power needed."""
        rec = game.cards[game.instances[uid].card_id]
        slots = rec["slots"]
        if game.tracing:
            game.emit("upgrade", player, f"{rec['name']} upgrades {self.name_of(game, contraption)}", card=rec["id"])
        req = slots.get("requires")
        if req is not None and not req(Ctx(game, player, uid, opponent)):
            game.emit("unmet", player, f"{rec['name']}: requirement not met ({rec['texts']['requires']})")
            return "unmet"
        fn = slots.get("effect")
        if fn is None:
            return "skip"
        out = self.run(game, fn, player, uid, opponent, {"_contraption": contraption})
        if out.halt is not None:
            raise out.halt  # unwinds to the activation loop, as the Contraption's own effect would
        if out.ok and game.stats is not None:
            game.stats["activations"][rec["id"]] += 1
        return out.status

    # --- the game protocol (runtime/protocol.py) ----------------------------------------------
    def new_match(self, compiled: CompiledGame, players: list[str], seed: int = 0, agents=None,
                  turn_cap: int | None = None) -> "ICMatch":
        """A new game through the one protocol: set up, first turn's draw step done, the first
        player to decide. The moves are the attach step's decisions (``legal_moves``)."""
        game = self.new_game(compiled, players, seed=seed, agents=agents)
        if game.step == "start" and not game.over:
            self.begin_turn(game)
        return ICMatch(game, turn_cap)

    def reported_cards(self, compiled: CompiledGame) -> set[str]:
        """Power Cores are never played: they start in play (I03, I10)."""
        return {cid for cid, rec in compiled.cards.items() if rec.get("kind") != "power_core"}

    def count_stats(self, game: ICGame) -> None:
        game.stats = {"plays": Counter(), "activations": Counter()}

    def stats(self, game: ICGame) -> dict:
        return game.stats or super().stats(game)

    def move_label(self, game: ICGame, mv: Move) -> str:
        if mv.kind == "end":
            return "end the attach step (turn the machine on)"
        if mv.kind == "refit":
            return "scrap cards from your hand and draw as many, instead of playing (I14)"
        where = "" if mv.machine == game.turn_player else f" in {game.players[mv.machine].name}'s machine"
        return f"attach {self.name_of(game, mv.card)} {mv.side} of {self.name_of(game, mv.anchor)}{where}"

    # --- whole games (simulation, tests) -------------------------------------------------------
    def play_game(self, game: ICGame, turn_cap: int = 200) -> ICGame:
        """Play from the current state to a winner (or the turn cap) with the game's agents."""
        if game.step == "start":
            self.begin_turn(game)
        while not game.over:
            if game.turn > turn_cap:
                game.capped = True
                game.emit("cap", None, f"the turn cap ({turn_cap}) is reached: no winner")
                return game
            self.take_decision(game)
        return game

    def take_decision(self, game: ICGame) -> Outcome:
        p = game.turn_player
        moves = self.legal_moves(game)
        agent = game.agent(p)
        pick = getattr(agent, "choose_move", None)
        move = pick(game, p, moves) if pick else agent.choose(game, p, moves, 1, None, "choose a move")[0]
        out = self.apply(game, move)
        if game.observer is not None:
            game.observer(game, "decision", p)
        return out

    # --- helpers ----------------------------------------------------------------------------------
    def name_of(self, game: ICGame, uid: int) -> str:
        return game.cards[game.instances[uid].card_id].get("name", game.instances[uid].card_id)

    def position_of(self, game: ICGame, uid: int) -> str:
        z = game.where[uid]
        if z[0] != "machine":
            return z[0]
        m = game.machines[z[1]]
        if uid in m.base:
            b, side = m.base[uid]
            return f"{side} plug of main-line card {m.main.index(b) + 1}"
        return f"main-line card {m.main.index(uid) + 1}"

    # --- scenario steps ---------------------------------------------------------------------------
    def step(self, game, step, scenario):
        try:
            return super().step(game, step, scenario)
        except Stop as s:
            return Outcome("done", f"stopped: {s.reason}")

    def step_play(self, game, step, scenario) -> Outcome:
        p = scenario.player_index(step.get("player")) if step.get("player") else game.turn_player
        game.turn_player = p
        uid = scenario.card_uid(step["play"])
        owner = scenario.player_index(step["machine"]) if step.get("machine") else p
        cost = scenario.card_uid(step["scrap"]) if step.get("scrap") else 0
        return self.play(game, Move("play", uid, owner, scenario.card_uid(step["at"]), step.get("side", ""), cost))

    def step_refit(self, game, step, scenario) -> Outcome:
        if step.get("player"):
            game.turn_player = scenario.player_index(step["player"])
        cards = tuple(scenario.card_uid(n) for n in (step["refit"] or []))
        out = self.refit(game, Move("refit", cards=cards))
        return out

    def step_end_attach(self, game, step, scenario) -> Outcome:
        return self.apply(game, END)

    def step_activate(self, game, step, scenario) -> Outcome:
        p = scenario.player_index(step.get("player"))
        opp = scenario.opt_player(step.get("opponent"))
        self.activate(game, p, opp if opp is not None else self.choose_opponent(game, p))
        return Outcome("done")

    def step_turn(self, game, step, scenario) -> Outcome:
        """Play whole turns with the agents: draw step, decisions until `end`, activation, cleanup."""
        for _ in range(int(step["turn"]) if step["turn"] is not True else 1):
            if game.over:
                break
            if game.step == "start":
                self.begin_turn(game)
            start = game.turn
            while not game.over and game.turn == start:
                self.take_decision(game)
        return Outcome("done")

    def step_play_out(self, game, step, scenario) -> Outcome:
        spec = step["play_out"] if isinstance(step["play_out"], dict) else {}
        if spec.get("agent") == "greedy":
            game.default_agent = Greedy()
        self.play_game(game, int(spec.get("turn_cap", 200)))
        return Outcome("done")

    def step_eliminate_check(self, game, step, scenario) -> Outcome:
        self.check_eliminations(game)
        return Outcome("done")

    def scenario_state(self, game, spec: dict, scenario) -> None:
        """``game_state``: machines laid out by name, turn player, step.

        machines: {Ann: {main: [card|{card, as}], top: {<main name>: card|{card, as}}, bottom: {…}}}
        The layout is checked like a play: an illegal illustrative machine is an error."""
        for pname, mspec in (spec.get("machines") or {}).items():
            p = scenario.player_index(pname)
            m = game.machines[p]
            zone = ("machine", p)
            for entry in mspec.get("main") or []:
                uid = self._scenario_card(game, entry, zone, p, scenario)
                if m.main:
                    left = m.main[-1]
                    if not sockets_match(game.sock_of[left][1], game.sock_of[uid][0]):
                        raise RulesError(f"main line of {pname}: sockets of {entry} and the card to its left "
                                         "do not match")
                m.attach(uid, m.main[-1] if m.main else None, "right")
            for side in ("top", "bottom"):
                for anchor_name, entry in (mspec.get(side) or {}).items():
                    anchor = scenario.card_uid(anchor_name)
                    uid = self._scenario_card(game, entry, zone, p, scenario)
                    # a Sabotage was put there by another player (-1: "someone else")
                    placer = -1 if game.kind_of[uid] == "sabotage" else p
                    problem = self.placement_problem(game, placer, uid, p, anchor, side)
                    if problem:
                        raise RulesError(f"{side} plug {entry} of {pname}: {problem}")
                    m.attach(uid, anchor, side)
        if "turn_player" in spec:
            game.turn_player = scenario.player_index(spec["turn_player"])
        if "plays" in spec:
            game.plays = int(spec["plays"])
        if "step" in spec:
            game.step = spec["step"]

    def _scenario_card(self, game, entry, zone, p, scenario) -> int:
        entry = {"card": entry} if isinstance(entry, str) else entry
        inst = game.create(entry["card"], zone, owner=p)
        scenario.names.setdefault(entry.get("as") or entry["card"], inst.uid)
        return inst.uid

    def scenario_expect(self, game, spec: dict, scenario):
        """``expect.state``: machines (card ids), winner, over."""
        for pname, want in (spec.get("machines") or {}).items():
            p = scenario.player_index(pname)
            m = game.machines[p]
            ids = [game.instances[u].card_id for u in m.main]
            if "main" in want and ids != list(want["main"]):
                yield f"main line of {pname} is {ids}, expected {list(want['main'])}", ("machines", pname, "main")
            for side in ("top", "bottom"):
                if side in want:
                    got = {game.instances[a].card_id: game.instances[u].card_id
                           for a, u in (m.top if side == "top" else m.bottom).items()}
                    if got != dict(want[side] or {}):
                        yield f"{side} plugs of {pname} are {got}, expected {want[side]}", ("machines", pname, side)
        if "winner" in spec:
            got = game.players[game.winner].name if game.winner is not None else None
            if got != spec["winner"]:
                yield f"the winner is {got}, expected {spec['winner']}", ("winner",)
        if "over" in spec and game.over != spec["over"]:
            yield f"over is {game.over}, expected {spec['over']}", ("over",)


class ICMatch:
    """One game of Infernal Contraption behind the game protocol: it wraps the engine's own
    ``legal_moves`` and ``apply`` (the rules are the engine's; nothing is decided here). A move's
    key is the engine's move as a tuple. ``turn_cap`` (optional; the simulator keeps its own): a
    game still running when more turns than that have begun ends without a winner."""

    def __init__(self, game: ICGame, turn_cap: int | None = None):
        self.game = game
        self.turn_cap = turn_cap

    def to_act(self) -> int | None:
        return None if self.terminal() else self.game.turn_player

    def terminal(self) -> bool:
        return self.game.over or self.game.capped

    def legal_moves(self) -> list[ProtocolMove]:
        if self.terminal():
            return []
        g = self.game
        eng = g.engine
        return [ProtocolMove(eng.move_label(g, m), tuple(m)) for m in eng.legal_moves(g)]

    def apply(self, move: ProtocolMove) -> None:
        legal = refuse_unless_legal(move, self.legal_moves())
        g = self.game
        out = g.engine.apply(g, Move(*legal.key))
        if out.status == "refused":  # pragma: no cover - legal_moves lists only legal moves
            raise Refused(out.reason)
        if not g.over and self.turn_cap is not None and g.turn > self.turn_cap:
            g.capped = True
            g.emit("cap", None, f"the turn cap ({self.turn_cap}) is reached: no winner")

    def result(self) -> Result:
        g = self.game
        if not self.terminal():
            raise RulesError("the game is not over")
        scores = tuple(int(i == g.winner) for i in range(len(g.players)))
        if g.capped:
            return Result(scores, (), f"turn cap ({self.turn_cap} turns) reached without a winner")
        if g.winner is None:
            return Result(scores, (), "nobody remains: no winner")
        return Result(scores, (g.winner,), f"{g.players[g.winner].name} is the last player remaining")

    def copy(self) -> "ICMatch":
        return ICMatch(self.game.copy(), self.turn_cap)


def _guard(fn: Callable) -> Callable:
    def guarded(ctx, objs, ph, strict):
        result = fn(ctx, objs, ph, strict)
        ctx.engine.after_verb(ctx)
        return result

    guarded.__doc__ = fn.__doc__
    guarded.__wrapped__ = fn
    return guarded


_DRAW_N = Sel(CARD, "card")

ENGINE = register(InfernalContraption())


# --- verbs of this game ------------------------------------------------------------------------------

# _pick honours every amount ("up to" asks how many) but no filters: it takes cards as the pile or
# hand holds them (the top of a pile, at random from a hidden hand)
_OBJ = Slot((CARD, THING, VAR), required=True, amounts=frozenset(AMOUNTS), filters=frozenset())
_PILE = Slot((ZONE, VAR))


def _amount(ctx: Ctx, sel: Sel) -> tuple[int, int]:
    """(most, least) to pick: "up to 3" lets the chooser pick 0..3; "all" takes every one."""
    a = sel.amount
    if isinstance(a, UpTo):
        return ctx.amount(sel), 0
    if isinstance(a, AllOf):
        return 10**9, 10**9
    n = ctx.amount(sel)
    return n, n


def _pick(ctx: Ctx, sel: Sel, src: Sel | None, verb_name: str, strict: bool, one_at_a_time: bool = False):
    """The cards a scrap/take/put takes, as much as possible (DESIGN §3), without moving them.

    - from a parts pile or the scrap pile: the top cards (I11);
    - from your own hand: you choose; from another player's hand: at random (you cannot see it);
    - from a machine: only terminals (I01), never a Power Core (I03), never the card resolving.
    Returns (zone kind, list of uids or a generator for machines, wanted)."""
    g = ctx.game
    if src is not None:
        sel = Sel(sel.category, sel.noun, sel.amount, sel.owner, sel.filters, sel.of, src, sel.per)
    most, least = _amount(ctx, sel)
    if sel.category == CARD:
        zone = ctx.zone_for(sel.place) if sel.place is not None else (ctx.hand_zone(), ctx.player)
        cards = g.zones[zone]
        if zone[0] == "machine":
            opts = [u for u in reversed(cards) if _removable(g, u, ctx.card)]
        elif zone[0] == "hand":
            if zone[1] != ctx.player:
                # at random (nobody sees another's hand); "up to" lets you decide how many first
                k = ctx.how_many(min(most, len(cards)), min(least, len(cards)), verb_name)
                picks = g.rng.sample(cards, k) if k < len(cards) else list(reversed(cards))
                return zone, picks, most
            opts = list(reversed(cards))
        else:  # a pile: from the top; "up to" lets you decide how many first
            k = ctx.how_many(min(most, len(cards)), min(least, len(cards)), verb_name)
            return zone, list(reversed(cards[-k:])) if k > 0 else [], most
    else:
        opts = [u for u in ctx.options(sel) if isinstance(u, int) and _removable(g, u, ctx.card)]
        zone = None
    if not opts or most <= 0:
        return zone, [], most
    if least >= len(opts) and most >= len(opts):
        return zone, opts, most
    picks = ctx.ask(opts, min(most, len(opts)), low=least if least < most else None, prompt=f"{verb_name} {sel.noun}")
    return zone, picks, most


def _removable(g: ICGame, uid: int, resolving: int | None) -> bool:
    z = g.where[uid]
    if z[0] != "machine":
        return True
    return uid != resolving and g.kind_of[uid] != "power_core" and is_terminal(g, uid)


def _move_all(ctx: Ctx, picks: list[int], to: tuple, owner: int | None) -> int:
    g = ctx.game
    n = 0
    for uid in picks:
        z = g.where[uid]
        if z[0] == "machine" and not _removable(g, uid, ctx.card):
            continue  # an earlier pick changed the machine: stays (as much as possible)
        g.move(uid, to)
        if owner is not None:
            g.instances[uid].owner = owner
        n += 1
    return n


def _strict_check(picks, most, verb_name, strict):
    if strict and len(picks) < most:
        raise Refused(f"cannot {verb_name} {most}: only {len(picks)} available")


@verb("scrap", template="scrap {obj}[ from {from}]", example="scrap 2 cards from opponent's parts pile",
      obj=_OBJ, phrases={"from": _PILE}, engine=NAME)
def scrap(ctx, objs, ph, strict):
    """Put cards face up on top of the scrap pile (I11): from your hand (you choose), another player's
    hand (at random), the top of a parts pile, or terminals of a machine (never a Power Core)."""
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "scrap", strict)
    _strict_check(picks, most, "scrap", strict)
    if zone is None and picks:
        zone = ctx.game.where[picks[0]]
    n = _move_all(ctx, picks, ("scrap", None), None)
    g = ctx.game
    if g.tracing:
        src = f" from {zone[0].replace('_', ' ')}" if zone else ""
        whose = f" of {g.players[zone[1]].name}" if zone and zone[1] is not None and zone[1] != ctx.player else ""
        g.emit("scrap", ctx.player, f"scraps {n} card{'s' if n != 1 else ''}{src}{whose}", n=n)


@verb("take", template="take {obj} from {from}", example="take 1 card from opponent's hand",
      obj=_OBJ, phrases={"from": Slot((ZONE, VAR), required=True)}, engine=NAME)
def take(ctx, objs, ph, strict):
    """Put cards into your hand: the top of a pile (I11), or at random from another player's hand."""
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "take", strict)
    _strict_check(picks, most, "take", strict)
    if zone is None and picks:
        zone = ctx.game.where[picks[0]]
    n = _move_all(ctx, picks, ("hand", ctx.player), ctx.player)
    g = ctx.game
    if g.tracing:
        whose = f" of {g.players[zone[1]].name}" if zone and zone[1] is not None and zone[1] != ctx.player else ""
        g.emit("take", ctx.player, f"takes {n} card{'s' if n != 1 else ''} from {zone[0].replace('_', ' ') if zone else 'play'}{whose}", n=n)


@verb("put", template="put {obj}[ from {from}] onto {onto}", example="put 2 cards from your hand onto your parts pile",
      obj=_OBJ, phrases={"from": _PILE, "onto": Slot((ZONE, VAR), required=True)}, engine=NAME)
def put(ctx, objs, ph, strict):
    """Put cards on top of a pile (a parts pile or the scrap pile)."""
    dest = ctx.zone_for(ph["onto"])
    if dest[0] not in ("parts_pile", "scrap"):
        raise Refused("cards are put onto a parts pile or the scrap pile")
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "put", strict)
    _strict_check(picks, most, "put", strict)
    n = _move_all(ctx, picks, dest, dest[1])
    g = ctx.game
    if g.tracing:
        g.emit("put", ctx.player, f"puts {n} card{'s' if n != 1 else ''} onto {dest[0].replace('_', ' ')}"
               + (f" of {g.players[dest[1]].name}" if dest[1] is not None and dest[1] != ctx.player else ""), n=n)


@verb("repeat", template="repeat the effect of the Contraption it is attached to", example="repeat",
      engine=NAME)
def repeat(ctx, objs, ph, strict):
    """An Upgrade's modification: the attached Contraption's effect happens once more (its
    requirement was met already; its Upgrades do not apply again)."""
    c = ctx.bindings.get("_contraption")
    if c is None:
        return  # not resolving as an Upgrade: nothing to repeat
    g = ctx.game
    fn = g.cards[g.instances[c].card_id]["slots"].get("effect")
    if fn is not None:
        g.emit("repeat", ctx.player, f"repeats {ctx.engine.name_of(g, c)}")
        ctx.engine.run(g, fn, ctx.player, c, ctx.opponent)


# --- agents ------------------------------------------------------------------------------------------

_KIND_VALUE = {"power_source": 3, "contraption": 4, "upgrade": 2, "consumable": 3, "sabotage": 3, "power_core": 0}


class Greedy(Agent):
    """A simple greedy player: takes the best-scoring play, pays for extra plays only when they are
    clearly good, scraps its least useful cards, turns its machine on the opponent holding most cards.
    It never counts a parts pile (I10)."""

    name = "greedy"

    def __init__(self) -> None:
        self._refit: tuple = ()  # the cards a refit it picked should scrap (asked right after)

    def pick(self, match, moves):
        """Through the game protocol: the same decision as ``choose_move`` on the engine's moves."""
        game = match.game
        mv = self.choose_move(game, game.turn_player, [Move(*m.key) for m in moves])
        if mv.kind == "refit":
            self._refit = mv.cards  # the protocol's refit lets the player choose the cards next
            mv = REFIT
        return next(m for m in moves if m.key == tuple(mv))

    def choose_move(self, game: ICGame, player: int, moves: list[Move]) -> Move:
        eng = game.engine
        best, best_score = END, 0.0
        for mv in moves:
            if mv.kind != "play":
                continue
            s = self.score(game, eng, player, mv)
            if s > best_score:
                best, best_score = mv, s
        if game.plays >= 1 and best_score < 5:
            return END  # an extra play costs a card: only for a strong one
        if best is END and game.plays == 0 and REFIT in moves:
            hand = game.zones[("hand", player)]
            dead = tuple(u for u in hand if not self._placeable(moves, u))
            if dead:
                return Move("refit", cards=dead)
        return best

    @staticmethod
    def _placeable(moves, uid) -> bool:
        return any(mv.kind == "play" and mv.card == uid for mv in moves)

    def score(self, game: ICGame, eng: InfernalContraption, player: int, mv: Move) -> float:
        kinds = game.kind_of
        kind = kinds[mv.card]
        if kind == "sabotage":
            return 4.0
        if kind == "consumable":
            return 4.5
        anchor_kind = kinds[mv.anchor]
        if kind == "contraption":
            return 6.0 if anchor_kind in POWER_KINDS else 2.0
        if kind == "power_source":
            # powers an unpowered Contraption it would touch
            return 5.5 if kinds[mv.anchor] == "contraption" and not eng.powered(game, player, mv.anchor) else 2.5
        if kind == "upgrade":
            return 5.0 if anchor_kind == "contraption" else 1.0
        return float(_KIND_VALUE.get(kind, 1))

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        options = list(options)
        if self._refit and prompt == "choose cards to scrap and redraw":
            picks, self._refit = [u for u in self._refit if u in options], ()
            if picks:
                return picks
        if prompt.startswith("choose an opponent"):
            best = max(options, key=lambda pl: (len(game.zones[("hand", pl.index)]), -pl.index))
            return [best]
        if low is not None and low == 0 and ("scrap" in prompt):
            return []  # mulligan / "up to": keep the hand
        if options and isinstance(options[0], int) and options[0] in game.instances:
            value = _KIND_VALUE.get
            theirs = game.where[options[0]][1] not in (player, None)
            # an opponent's cards: hit the most valuable; your own: give away or scrap the least
            ranked = sorted(options, key=lambda u: (value(game.kind_of.get(u, ""), 1) * (-1 if theirs else 1), u))
            return ranked[:k]
        return options[:k]


__all__ = ["InfernalContraption", "ICGame", "ICMatch", "Machine", "Move", "Greedy", "Stop", "ENGINE", "sockets_match",
           "is_terminal", "is_plug", "END", "REFIT"]
