"""Infernal Contraption's engine: the rules beyond single card effects — rulebook 003_19ce964aacf02a21.txt.

What lives here (DESIGN §5):
- placement legality and power over the machine's geometry (I01–I09; the geometry itself is
  machine.py);
- setup order, the attach step and its moves, activation order, Upgrades, one-shot cards,
  requirements, elimination and the winner (I10–I18);
- legal-move enumeration, so that agents (seeded random, greedy) can play whole games.

What does NOT live here: the turn steps that are plain sequences of effects — the opening hand, the
mulligan, the draw step (I13) and the cleanup (I19) are effect-language rules in
``data/infernal_contraption/rules.yaml``, compiled to ``RULES`` and run by this engine. The scenario
steps are scenario.py (a mixin of the engine); the game's verbs are verbs.py.
"""
from __future__ import annotations

from dataclasses import replace
from collections import Counter
from typing import Callable

from runtime.agents import Agent
from runtime.context import Ctx
from runtime.engine import CompiledGame, Engine, Outcome
from runtime.errors import RulesError
from runtime.events import CapReached, Played, TurnBegun, TurnEnded, TurnStarted, card_event, game_event
from runtime.refs import CARD, Query
from runtime.shuffle import shuffle
from runtime.verbs import verbs_for

from .machine import _ANCHOR, _FACING, MAIN_KINDS, ONE_SHOT, POWER_KINDS, is_plug, is_terminal, sockets_match
from .fields import SOCKETS
from .match import ICMatch
from .moves import END, REFIT, Move
from .scenario import ICScenario
from .state import NAME, DeckTemplate, ICGame, Stop


class InfernalContraption(ICScenario, Engine):
    name = NAME
    steps = {**Engine.steps, "play": "step_play", "refit": "step_refit", "end_attach": "step_end_attach",
             "activate": "step_activate", "turn": "step_turn", "play_out": "step_play_out",
             "eliminate_check": "step_eliminate_check"}
    thing_filters = {"terminal": is_terminal, "plug": is_plug}
    field_types = {SOCKETS.name: SOCKETS}  # a card's four sockets (fields.py)
    agents = {**Engine.agents, "greedy": "runtime.games.infernal_contraption.agents:Greedy"}
    step_options = Engine.step_options | {"machine", "scrap", "at", "side"}
    # what the rules imply in every state, checked by `simulate --check-moves` (runtime/engine.py);
    # card conservation (Engine.invariants) includes each machine's layout matching its zone
    def playout_agent(self, rng):
        """Monte Carlo playouts follow the greedy agent, with one move in seven random: random play
        here is a poor model of any opponent (it rarely powers its machine), so a tree search whose
        playouts are random learns what beats random play, not what beats a player (issue 24)."""
        from runtime.bots import EpsilonGreedy

        from .agents import Greedy as ICGreedy

        return EpsilonGreedy(ICGreedy(), rng)

    confounded_effects = {
        "drawn": "a player draws from its own parts pile, and a player whose parts pile is empty is out "
                 "(I12): drawing more goes with going out, whatever the card drawn"}
    invariants = {**Engine.invariants, "machine shape": "invariant_machines",
                  "an eliminated player holds no cards": "invariant_out"}

    def invariant_out(self, game) -> list[str]:
        """I12: the cards of a player who is out leave the game: no hand, machine or parts pile left."""
        return [f"{pl.name} is out but has cards in {z}" for pl in game.players if pl.out
                for z in ("hand", "machine", "parts_pile") if game.zones[(z, pl.index)]]

    def invariant_machines(self, game) -> list[str]:
        """I01, I03: a player still in has its Power Core in its machine; a plug hangs above or below a
        main-line card and nothing hangs on a plug; no card is laid twice."""
        out = []
        for p, m in enumerate(game.machines):
            who = game.players[p].name
            if not game.players[p].out and not any(game.kind_of.get(u) == "power_core" for u in m.main):
                out.append(f"{who}'s machine has no Power Core in its main line")
            for plug, (anchor, side) in m.base.items():
                if anchor not in m.main or (m.top if side == "top" else m.bottom).get(anchor) != plug:
                    out.append(f"{who}'s plug #{plug} hangs on #{anchor}, not a main-line card holding it")
            laid = m.cards()
            if len(set(laid)) != len(laid):
                out.append(f"{who}'s machine lays a card twice")
        return out

    def __init__(self) -> None:
        self._verbs: dict | None = None
        # id(compiled game) -> (compiled game, {card id: info}, {deck choice: DeckTemplate})
        self._card_info: dict[int, tuple] = {}

    # --- games ---------------------------------------------------------------------------------
    def new_game(self, compiled: CompiledGame, players: list[str], seed: int = 0,
                 agents: dict[int, Agent] | None = None, options: dict | None = None,
                 setup: bool = True, tracing: bool = True) -> ICGame:
        game = ICGame(compiled.vocab, compiled.cards, players, seed=seed, agents=agents, options=options)
        game.tracing = tracing  # False: the set-up writes no trace either (Engine.new_game)
        cache = self._card_info.get(id(compiled))
        if cache is None or cache[0] is not compiled:
            cache = self._card_info[id(compiled)] = (compiled, {}, {})
        game.card_info = cache[1]
        game.deck_templates = cache[2]
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

    def create_deck(self, game: ICGame, box: tuple) -> tuple[list[int], list[int]]:
        """The deck's cards made in ``box``: (the Power Cores' uids, the others'), in deck order.
        A game with no card yet is made from its compiled game's template of that deck, taken from
        the first such game (``ICGame.create_deck``); any other makes them one by one."""
        modules = game.options.get("deck")  # deck() reads a string as well as a list
        choice = ("named", modules) if isinstance(modules, str) else ("modules", tuple(modules or ()))
        template = game.deck_templates.get(choice)
        fresh = game.no_card_yet(box)
        if template is not None and fresh:
            game.create_deck(template, box)
            return list(template.cores), list(template.rest)
        card_ids = self.deck(game)
        uids = game.create_many(card_ids, box)
        if fresh:
            game.deck_templates[choice] = DeckTemplate.taken_from(game, card_ids, uids)
        kinds = game.kind_of
        return ([u for u in game.zones[box] if kinds[u] == "power_core"],
                [u for u in game.zones[box] if kinds[u] != "power_core"])

    def setup(self, game: ICGame) -> None:
        """I10: Power Cores dealt (extras out), the rest shuffled and dealt equally (extras out),
        opening hands, the one-time mulligan in seat order, a random first player."""
        n = len(game.players)
        box = ("box", None)
        cores, rest = self.create_deck(game, box)
        if len(cores) < n:
            raise RulesError(f"the deck has {len(cores)} Power Cores; {n} players need {n}")
        shuffle(game.rng, cores)  # rng.shuffle's draws, fewer calls (runtime/shuffle.py)
        for p in range(n):
            uid = cores[p]
            game.move(uid, ("machine", p))
            game.machines[p].attach(uid, None, "")
            game.instances[uid].owner = p
        shuffle(game.rng, rest)
        per = len(rest) // n
        instances = game.instances
        for p in range(n):
            dealt = rest[p * per:(p + 1) * per]
            game.move_many(dealt, ("parts_pile", p))
            for uid in dealt:
                instances[uid].owner = p
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
        game.left_with[p] = tuple(game.zones[("machine", p)])  # what the report's final tableau reads
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
        """After every verb (``guarded_verbs``): the eliminations (I12), then whether the effect stops —
        its player is out, no opponent is left, or its opponent is out. Most verbs (about 30 a game)
        leave nothing to do, so the questions ``check_eliminations`` and ``GameState.others`` ask are
        asked here without calling them; ``check_eliminations`` runs, from the first player, as soon as
        a player still in has an empty parts pile (tests/infernal_contraption/test_fast_play.py holds
        this to the calls it replaced on seeded games)."""
        game = ctx.game
        players = game.players
        zones = game.zones
        for pl in players:
            if not pl.out and not zones[("parts_pile", pl.index)]:
                self.check_eliminations(game)
                break
        me = ctx.player
        if players[me].out:
            raise Stop("out")
        for pl in players:  # ``game.others(me)`` is not empty
            if pl.index != me and not pl.out:
                break
        else:
            raise Stop("alone")
        if ctx.opponent is not None and players[ctx.opponent].out:
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

    def open_slots(self, game: ICGame, player: int, opponents: bool = True) -> tuple[list, list, list]:
        """Free places: (ends of the player's main line, plug places in the player's machine, plug
        places in opponents' machines). Each is (anchor's socket there, index of the new card's
        touching socket, anchor is a Power Source, (owner, anchor, side, 0, ())): the last is the
        tail of a play's ``Move`` there, so that listing a play joins two tuples. ``opponents=False``
        leaves the opponents' places out (an empty list): only a Sabotage card goes there, and about
        two listings in five have none in hand."""
        kinds = game.kind_of
        socks = game.sock_of
        ends, own, opp = [], [], []
        for pl in game.players:  # ``game.active_players()``, read without its two calls (a listing a move)
            if pl.out:
                continue
            owner = pl.index
            mine = owner == player
            if not (mine or opponents):
                continue
            m = game.machines[owner]
            main = m.main
            if not main:
                continue
            if mine:
                ends.append((socks[main[0]][0], 1, False, (owner, main[0], "left", 0, ())))
                ends.append((socks[main[-1]][1], 0, False, (owner, main[-1], "right", 0, ())))
            out = own if mine else opp
            top, bottom = m.top, m.bottom
            for c in main:
                pw = kinds[c] in POWER_KINDS
                sc = socks[c]
                if c not in top:
                    out.append((sc[2], 3, pw, (owner, c, "top", 0, ())))
                if c not in bottom:
                    out.append((sc[3], 2, pw, (owner, c, "bottom", 0, ())))
        return ends, own, opp

    def legal_moves(self, game: ICGame) -> list[Move]:
        """Every legal decision of the attach step for the player whose turn it is (I14): end, refit,
        then each card in hand (in hand order) at the ends of the main line (cards that go there),
        then at each free plug place, in ``open_slots`` order. Two copies of one card in hand have
        the same moves: only the first is listed.

        A place fits when the touching sockets match or either is Universal (I09, code 0:
        ``not mine`` / ``not need``); a play is made at C speed from its place's tail
        (tests/infernal_contraption/test_fast_play.py holds this listing to the one it replaced,
        reference_listing.py, on seeded games)."""
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
        kinds = game.kind_of
        # the opponents' places are read by Sabotage cards alone: worked out only when one is in hand
        # (the same list either way: nothing changes while the moves are listed)
        sabotage = False
        for uid in hand:
            if kinds[uid] == "sabotage":
                sabotage = True
                break
        ends, own, opp = self.open_slots(game, p, sabotage)
        socks = game.sock_of
        instances = game.instances
        seen = set()
        new = _new_tuple
        add = moves.append
        for uid in hand:
            key = instances[uid].card_id
            if key in seen:
                continue
            seen.add(key)
            kind = kinds[uid]
            s = socks[uid]
            play = ("play", uid)
            if kind == "sabotage":
                places = opp
            else:
                if kind in MAIN_KINDS:
                    for need, f, _, tail in ends:
                        mine = s[f]
                        if mine == need or not mine or not need:
                            add(new(Move, play + tail))
                places = own
            if kind == "consumable":  # only on a Power Source (I07)
                for need, f, power, tail in places:
                    if power:
                        mine = s[f]
                        if mine == need or not mine or not need:
                            add(new(Move, play + tail))
            else:
                for need, f, _, tail in places:
                    mine = s[f]
                    if mine == need or not mine or not need:
                        add(new(Move, play + tail))
        return moves

    # --- the attach step (I14) -----------------------------------------------------------------
    def play(self, game: ICGame, move: Move, listed: bool = False) -> Outcome:
        """Attach a card; a play after the first costs scrapping another card from hand first.
        ``listed``: the move is one ``legal_moves`` listed for this very state (ICMatch knows), so
        the rules that listing applies are not asked again (``_play_problem``; test_machine.py holds
        the listing to ``placement_problem``)."""
        p = game.turn_player
        problem = None if listed else self._play_problem(game, p, move)
        if problem:
            return self.refuse(game, p, problem)
        hand = ("hand", p)
        cost = move.cost
        if game.plays >= 1:
            if not cost:
                options = [u for u in reversed(game.zones[hand]) if u != move.card]
                cost = Ctx(game, p).ask(options, 1, prompt="scrap a card to pay for this play")[0]
            game.move(cost, ("scrap", None))
            if game.tracing:
                game.emit("scrap", p, f"scraps {self.name_of(game, cost)} to pay for another play")
        game.move(move.card, ("machine", move.machine))
        game.machines[move.machine].attach(move.card, move.anchor, move.side)
        inst = game.instances[move.card]
        inst.owner = move.machine
        inst.props["played_by"] = p
        game.plays += 1
        if game.stats is not None:
            plays = game.stats["plays"]  # a Counter, counted as ``+= 1`` does without its __missing__ call
            plays[inst.card_id] = plays.get(inst.card_id, 0) + 1
        # attaching is this game's play (I14): a typed Played event, which the simulation report's
        # per-card "won when played" reads (no Infernal Contraption card listens for it)
        # Played(p, card=…, turn=…, round=…), made without the frozen dataclass's per-field __setattr__
        game.publish(card_event(Played, p, move.card, game.turn_number, game.round))
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

    def apply(self, game: ICGame, move: Move, listed: bool = False) -> Outcome:
        """Perform one decision; ``end`` runs activation, cleanup and the next turns' draw steps.
        ``listed``: ``legal_moves`` listed it for this very state (see ``play``)."""
        if move.kind == "play":
            return self.play(game, move, listed)
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
            if game.tracing:
                game.tell(TurnBegun(p, number=game.turn))
            game.turn_number += 1
            game.publish(game_event(TurnStarted, p, game.turn_number, game.round))  # the event bus
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
        game.publish(game_event(TurnEnded, p, game.turn_number, game.round))
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
        kinds = game.kind_of
        for uid in self.activation_order(game, player):
            if game.over:
                return
            if game.where.get(uid) != here:
                continue
            if game.tracing:
                game.emit("visit", player, f"{self.position_of(game, uid)}: {self.name_of(game, uid)}",
                          card=game.instances[uid].card_id)
            if kinds[uid] in _SKIPPED_KINDS:
                continue  # what ``resolve`` returns at once for them ("skip"), without its call
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
        """I04: attached to a Power Source (a Power Core counts as one): one of ``Machine.neighbours``
        is, asked of each neighbour in place without making their list (a Contraption or Consumable
        asks it each time it resolves; tests/infernal_contraption/test_fast_play.py holds it to the
        list)."""
        kinds = game.kind_of
        m = game.machines[player]
        b = m.base.get(uid)
        if b is not None:  # a plug touches its anchor alone
            return kinds[b[0]] in POWER_KINDS
        main = m.main
        i = main.index(uid)
        if i > 0 and kinds[main[i - 1]] in POWER_KINDS:
            return True
        t = m.top.get(uid)
        if t is not None and kinds[t] in POWER_KINDS:
            return True
        t = m.bottom.get(uid)
        if t is not None and kinds[t] in POWER_KINDS:
            return True
        return i + 1 < len(main) and kinds[main[i + 1]] in POWER_KINDS

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
            if game.tracing:
                game.emit("unmet", player, f"{rec['name']}: requirement not met ({rec['texts']['requires']})")
            return "unmet"
        status = "done"
        try:
            if fn is not None:
                out = self.run(game, fn, player, uid, opponent)
                if out.halt is not None:
                    _raise_halt(out)  # the activation loop decides what stops (activate)
                status = out.status
            if status == "done":
                if game.stats is not None:
                    done = game.stats["activations"]  # as ``+= 1`` counts, without __missing__'s call
                    done[rec["id"]] = done.get(rec["id"], 0) + 1
                if kind == "contraption":
                    for u in game.machines[player].neighbours(uid):
                        if game.kind_of[u] == "upgrade":
                            self.apply_upgrade(game, u, uid, player, opponent)
        finally:
            if kind in ONE_SHOT and status == "done" and game.where.get(uid) == ("machine", player):
                game.move(uid, ("removed", None))  # I17: removed from the game, not scrapped
                if game.tracing:
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
            _raise_halt(out)  # unwinds to the activation loop, as the Contraption's own effect would
        if out.ok and game.stats is not None:
            done = game.stats["activations"]  # as ``+= 1`` counts, without __missing__'s call
            done[rec["id"]] = done.get(rec["id"], 0) + 1
        return out.status

    # --- the game protocol (runtime/protocol.py) ----------------------------------------------
    def new_match(self, compiled: CompiledGame, players: list[str], seed: int = 0, agents=None,
                  turn_cap: int | None = None, options: dict | None = None,
                  tracing: bool = True) -> "ICMatch":
        """A new game through the one protocol: set up, first turn's draw step done, the first
        player to decide. The moves are the attach step's decisions (``legal_moves``). ``options``:
        game.yaml's (runtime/options.py; the game declares none yet). ``tracing=False``: no trace
        from the start (Engine.new_match)."""
        game = self.new_game(compiled, players, seed=seed, agents=agents, options=options, tracing=tracing)
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

    def face_down_zones(self, game: ICGame) -> set[str]:
        """The parts piles are face down (I10). The scrap pile is hidden only in that nobody may count
        it (I10): scrapped cards go face up on top (I11), so its order is what the players saw happen,
        and a Monte Carlo playout keeps it (Scrap Magnet takes its top cards)."""
        return super().face_down_zones(game) - {"scrap"}

    def tableau(self, game: ICGame, player: int) -> list[int]:
        """A player who went out left with the Machine it had then (elimination removes the cards
        from the game, I12): read at the end, every loser's Machine would be empty, and every card
        would seem to win whenever it is in a Machine."""
        if player in game.left_with:
            return list(game.left_with[player])
        return super().tableau(game, player)

    def move_label(self, game: ICGame, mv: Move, seat: int | None = None) -> str:
        """The English of a move of ``seat`` (default: the player whose turn it is)."""
        if mv.kind == "end":
            return "end the attach step (turn the machine on)"
        if mv.kind == "refit":
            return "scrap cards from your hand and draw as many, instead of playing"  # I14
        seat = game.turn_player if seat is None else seat
        where = "" if mv.machine == seat else f" in {game.players[mv.machine].name}'s machine"
        return f"attach {self.name_of(game, mv.card)} {mv.side} of {self.name_of(game, mv.anchor)}{where}"

    # --- whole games (simulation, tests) -------------------------------------------------------
    def play_game(self, game: ICGame, turn_cap: int = 200) -> ICGame:
        """Play from the current state to a winner (or the turn cap) with the game's agents."""
        if game.step == "start":
            self.begin_turn(game)
        while not game.over:
            if game.turn > turn_cap:
                game.capped = True
                game.tell(CapReached(None, cap=turn_cap))
                return game
            self.take_decision(game)
        return game

    def take_decision(self, game: ICGame) -> Outcome:
        p = game.turn_player
        moves = self.legal_moves(game)
        move = game.agent(p).choose_move(game, p, moves)  # Agent.choose_move: a neutral default
        out = self.apply(game, move)
        if game.observer is not None:
            game.observer(game, "decision", p)
        return out

    # --- helpers ----------------------------------------------------------------------------------
    # --- what a player at the table sees (runtime/tableview.py) ------------------------------------
    def may_count(self, game: ICGame, zone: str) -> bool:
        """Nobody may count a parts pile or the scrap pile (I10)."""
        return not game.model.zones[zone].hidden

    def seat_sections(self, game: ICGame, player: int, seat: int) -> list:
        """A player's Machine as it lies: the main line left to right, each card's plugs above and below
        it (I01); then the parts pile, face down and not counted (I10)."""
        from runtime.tableview import Section, zone_lines

        m = game.machines[player]
        out = []
        if m.main:
            def row(plugs: dict) -> tuple[str, ...]:
                return tuple(self.name_of(game, plugs[u]) if u in plugs else "" for u in m.main)

            rows = [row(m.top)] if m.top else []
            rows.append(tuple(self.name_of(game, u) for u in m.main))
            rows += [row(m.bottom)] if m.bottom else []
            out.append(Section("Machine", grid=tuple(rows)))
        if ("parts_pile", player) in game.zones:
            out.append(Section(game.model.zone_name("parts_pile"), zone_lines(game, ("parts_pile", player), seat)))
        return out

    def board_sections(self, game: ICGame, seat: int) -> list:
        """The scrap pile: its top card is face up (I11); nobody may count it (I10)."""
        from runtime.tableview import Section

        scrap = game.zones.get(("scrap", None), [])
        top = f"on top: {self.name_of(game, scrap[-1])}" if scrap else "empty"
        return [Section(game.model.zone_name("scrap"), (top + (" (not counted: the rules forbid it)" if scrap else ""),))]

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


def _raise_halt(out: Outcome) -> None:
    """Raise again the Halt that stopped an effect (``out.halt``: an elimination, I12), taking it out
    of the Outcome first. A traceback holds every frame it passes through, so a frame (or its
    Outcome) still holding the Halt would make a cycle — Halt, traceback, frame, Halt — and keep the
    whole game alive after play ended until the cyclic garbage collector found it (about one game in
    four; the collector's passes were ~5 % of a random game's time)."""
    halt, out.halt = out.halt, None
    try:
        raise halt
    finally:
        del halt


def _guard(fn: Callable) -> Callable:
    def guarded(ctx, objs, ph, strict):
        result = fn(ctx, objs, ph, strict)
        ctx.engine.after_verb(ctx)
        return result

    guarded.__doc__ = fn.__doc__
    guarded.__wrapped__ = fn
    return guarded


_DRAW_N = Query(CARD, "card")
# the kinds ``resolve`` skips at once (a Power Core does nothing of its own; an Upgrade applies when
# an attached Contraption resolves, I16): ``activate`` skips them without calling it (about a third
# of the cards an activation visits). ``resolve`` keeps its own check, which test_fast_play.py holds
# this to with the set emptied.
_SKIPPED_KINDS = frozenset({"power_core", "upgrade"})
# ``Move("play", uid, owner, anchor, side)`` made at C speed: a named tuple's ``__new__`` is a Python
# function, and listing the attach step's moves makes ~8 of them a decision (every field given, in
# Move's order, so the value is the one ``Move(...)`` makes)
_new_tuple = tuple.__new__
