"""Engines: a game's procedures beyond single effects, and the registry of engines.

An engine turns a compiled game (the ``generated/<game>`` package) into a playable ``GameState``
and runs what the rules need beyond one card's effect: setup, phases, turn steps, actions a player
may take, refusals. The ``core`` engine knows only what every game shares; each game's engine
subclasses it in ``runtime/games/<engine>.py``. The registry is a fixed table of Python classes:
a data file names an engine, it never supplies code.
"""
from __future__ import annotations

import copy

import importlib
import importlib.util
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Callable

from .agents import Agent
from .budget import FIRINGS, OverBudget
from .context import ABILITY_USE, Ctx
from .errors import Halt, Refused, RulesError, Unmet
from .events import (EffectRefused, EffectUnmet, MoveMade, Reshuffled, RoundEnded, RoundStarted, TurnEnded,
                     TurnStarted, Used)
from .fieldtypes import FieldType
from .model import model_of
from .options import check_seats
from .registry import ENGINES, engine_of, load_engines, register  # noqa: F401  (their home: runtime/registry.py)
from .shuffle import shuffle
from .state import GameState
from .tables import statement_place
from .verbs import verbs_for


@dataclass
class CompiledGame:
    """The tables of a compiled game package."""

    game: str
    engine: str
    vocab: dict
    cards: dict
    rules: dict
    tables: dict
    maps: dict
    flow: dict | None = None  # game.yaml's flow, compiled (generated/<game>/flow.py); None without one
    modules: list = field(default_factory=list)  # each module's MODULE table (name, source, stand_in…)
    bots: dict = field(default_factory=dict)  # game.yaml's bots, compiled (its greedy heuristic)

    @classmethod
    def from_package(cls, pkg) -> "CompiledGame":
        # FLOW and BOTS are written only for a game with a flow or bots (the other games' packages
        # stay as they were)
        return cls(pkg.GAME, pkg.ENGINE, pkg.VOCAB, pkg.CARDS, pkg.RULES, pkg.TABLES, pkg.MAPS,
                   getattr(pkg, "FLOW", None), [getattr(pkg, m).MODULE for m in pkg.MODULES],
                   getattr(pkg, "BOTS", None) or {})

    def table(self, name: str) -> Any:
        """A table by name, from whichever module defines it (later modules win)."""
        found = None
        for t in self.tables.values():
            if name in t:
                found = t[name]
        if found is None:
            found = model_of(self.vocab).table(name)
        return found


@dataclass
class Outcome:
    """What happened when an effect or an action ran: done, unmet (nothing happened) or refused."""

    status: str  # "done" | "unmet" | "refused"
    reason: str = ""
    halt: Halt | None = field(default=None, compare=False)  # set when an engine's Halt stopped the effect
    where: str | None = field(default=None, compare=False)  # a refusal: the YAML place of the refused statement

    @property
    def ok(self) -> bool:
        return self.status == "done"


class Engine:
    name = "core"
    # The effect-language constructs whose timing this engine runs (issue 28, h28b): durations run by
    # begin_turn/end_turn, reactions heard from the core play verb, cost changes ended by end_turn, extra
    # turns given by the flow (runtime/flow.py). The checker refuses them in a game whose engine does
    # not list them (E309), since they would be accepted and never happen. A subclass — a game engine
    # with turns and plays of its own — lists none unless it says so in its own class.
    timed_constructs: frozenset = frozenset({"durations", "reactions", "cost changes", "extra turns"})

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "timed_constructs" not in cls.__dict__:
            cls.timed_constructs = frozenset()
    # the GameState class this engine's games use (a game's own fields live on its subclass, never
    # patched onto a GameState from outside); the core engine plays plain GameStates
    state_class: type = GameState
    # scenario step handlers: step key -> method name; engines extend this table
    steps: dict[str, str] = {"effect": "step_effect", "card": "step_card", "phase": "step_phase",
                             "rule": "step_rule", "turn": "step_turn", "round": "step_round",
                             "move": "step_move"}

    def new_game(self, compiled: CompiledGame, players: list[str], seed: int = 0,
                 agents: dict[int, Agent] | None = None, options: dict | None = None,
                 setup: bool = True, tracing: bool = True) -> GameState:
        """A new game. ``setup=False`` starts from empty zones (scenarios then lay out the state).
        ``tracing=False``: the set-up writes no trace either (a simulation that keeps no log)."""
        game = self.state_class(compiled.vocab, compiled.cards, players, seed=seed, agents=agents, options=options)
        game.tracing = tracing
        game.engine = self
        game.compiled = compiled
        game.verbs = verbs_for(self.name)
        if setup:
            self.setup(game)
        return game

    # predicates a game's vocabulary may name in a thing's ``engine_filter`` (name -> fn(game, uid))
    thing_filters: dict[str, Callable] = {}

    def thing_filter(self, name: str) -> Callable:
        fn = self.thing_filters.get(name)
        if fn is None:
            raise RulesError(f"the {self.name} engine has no thing filter {name!r}")
        return fn

    def setup(self, game: GameState) -> None:
        """Game-specific setup. The core engine runs the setup steps of the game's flow, when it has
        one (runtime/flow.py); without a flow it starts from empty zones (scenarios fill them)."""
        if game.compiled.flow is not None:
            from .flow import run_setup

            run_setup(self, game, game.compiled.flow)

    # --- draw piles (hooks with neutral defaults; Ctx.draw_cards calls them) ----------------------
    def refill(self, game: GameState, zone) -> None:
        """An empty draw pile is refilled where the rules say so. The core engine's rule is data:
        ``rules.reshuffle: {deck: discard}`` shuffles the owner's discard pile into the empty deck."""
        src = game.model.rules.reshuffle.get(zone[0])
        if src is None:
            return
        from_key = game.zone_key(src, zone[1])
        if not game.zones[from_key]:
            return
        for uid in list(game.zones[from_key]):
            game.move(uid, zone)
        game.shuffle(zone)
        game.tell(Reshuffled(zone[1], source=from_key, into=zone))

    def drawable(self, game: GameState, zone) -> int | None:
        """How many cards a draw from ``zone`` can take, refills included, so that a draw that is a
        cost refuses before a card moves; None when an engine's own refill cannot be counted ahead."""
        if type(self).refill is not Engine.refill:
            return None
        n = len(game.zones[zone])
        src = game.model.rules.reshuffle.get(zone[0])
        if src is not None:
            n += len(game.zones[game.zone_key(src, zone[1])])
        return n

    def after_draw(self, game: GameState, zone) -> None:
        """Called after every draw from ``zone``; nothing by default."""

    # --- the game protocol (runtime/protocol.py) -----------------------------------------------
    # the bots a seat may be given by name (``--agents``); engines extend or override the table
    agents: dict[str, str] = {"first": "runtime.agents:FirstLegal", "random": "runtime.agents:SeededRandom",
                              "greedy": "runtime.bots:Greedy", "mcts": "runtime.bots:UCT",
                              "flat": "runtime.bots:FlatMonteCarlo"}

    # how many moves a Monte Carlo playout plays below the tree before the heuristic scores the
    # position (None: the bot's own default); a game whose moves are costly to list and whose
    # heuristic reads the position well plays shorter playouts (the Moon: none)
    playout_depth: int | None = None
    # the tree search's exploration constant (None: the bot's own, for rewards spread over [0, 1] as
    # wins and losses are); a game whose leaves are scored by a heuristic whose moves differ by
    # little explores less, or the search spreads its budget evenly and learns nothing
    uct_exploration: float | None = None
    # the heuristic margin the tree search scores as about three quarters of a win at a cut-off leaf
    # (None: the bot's own, 5 points); a game whose heuristic counts in finer units says how many
    uct_scale: float | None = None

    def playout_agent(self, rng) -> Agent:
        """The agent that plays every seat in a Monte Carlo playout (runtime/bots.py), seeded with
        ``rng``: uniform random by default; an engine whose random play says little about a position
        (a game random players rarely finish) names a cheap better one."""
        from .agents import SeededRandom

        return SeededRandom(rng)

    def playable(self, compiled: CompiledGame) -> str | None:
        """Why ``compiled`` cannot be played through the protocol, or None when it can: a game whose
        flow is data always can; otherwise only an engine that writes its own ``new_match``."""
        if compiled.flow is not None or type(self).new_match is not Engine.new_match:
            return None
        return (f"{compiled.game} cannot be played through yet: its game.yaml has no flow and the "
                f"{self.name} engine has no match of its own")

    def new_match(self, compiled: CompiledGame, players: list[str], seed: int = 0, agents=None,
                  turn_cap: int = 10_000, options: dict | None = None, tracing: bool = True):
        """A new game through the one protocol. The core engine plays the game's flow (game.yaml
        ``flow:``, runtime/flow.py); a game without one cannot be played through. ``turn_cap`` is a
        safety bound of the flow (a flow with no end and no decisions would otherwise run for ever);
        the simulator applies its own, smaller cap between moves. ``options`` (game.yaml's, resolved by
        ``match_options``) are kept in ``game.options``; no flow step reads them yet. ``tracing=False``:
        no trace from the start, set-up included (tracing changes nothing of a game's course)."""
        if compiled.flow is None:
            raise RulesError(f"{compiled.game} has no flow in its game.yaml, so it cannot be played "
                             "through (see docs/authoring.md, Game flow)")
        from .flow import FlowMatch

        # an engine whose own new_game does not take ``tracing`` traces its set-up, as before
        quiet = {} if tracing or not takes_keyword(type(self).new_game, "tracing") else {"tracing": False}
        game = self.new_game(compiled, players, seed=seed, agents=agents, options=options, **quiet)
        if not tracing:
            game.tracing = False
        return FlowMatch.start(game, turn_cap)

    def evaluate(self, game: GameState, seat: int) -> float:
        """The heuristic the greedy and Monte Carlo bots maximise for ``seat``: the quantity
        game.yaml's ``bots.greedy`` declares (data, any game), else the engine's own ``heuristic``."""
        fn = game.compiled.bots.get("greedy")
        if fn is not None:
            from .flow import quantity

            return float(quantity(game, fn, seat))
        return float(self.heuristic(game, seat))

    def determinize(self, game: GameState, seat: int, rng) -> None:
        """Before a Monte Carlo playout, on the copy it plays: redraw what ``seat`` cannot know, so
        that the bot does not read the order of face-down piles. The default shuffles every zone
        game.yaml declares ``hidden`` (a deck, a parts pile), each pile on its own so that what it
        holds stays (a count a player may know); a card lying face up on such a pile (a prop
        ``revealed``, like 51st State's Yellow Connection at Lookout) keeps its place. Decision: what
        other players hold in hand is not redrawn — the bot knows it (docs/decisions.md)."""
        redrawn = self.face_down_zones(game)
        for key in sorted(k for k in game.zones if k[0] in redrawn):
            pile = game.zones[key]
            if len(pile) < 2:
                continue
            free = [i for i, u in enumerate(pile) if not game.instances[u].props.get("revealed")]
            # from a canonical order, so that the redrawn order cannot depend on the real one
            cards = sorted((pile[i] for i in free), key=lambda u: (game.instances[u].card_id, u))
            shuffle(rng, cards)  # rng.shuffle's draws (runtime/shuffle.py)
            for i, u in zip(free, cards):
                pile[i] = u

    def face_down_zones(self, game: GameState) -> set[str]:
        """The zones whose order nobody sees (``determinize`` redraws them): those game.yaml declares
        ``hidden``. An engine whose hidden zone is face up but uncountable says otherwise."""
        return {name for name, z in game.model.zones.items() if z.hidden}

    # --- what a player at the table sees (runtime/tableview.py, drawn by `cardwright play`) --------
    def name_of(self, game: GameState, uid: int) -> str:
        """A card's printed name as a player sees it (engines add faces: a Ruins, a Hacked card)."""
        return str(game.record(uid).get("name", game.instances[uid].card_id))

    def may_count(self, game: GameState, zone: str) -> bool:
        """Whether a player may count the cards of a face-down zone (Infernal Contraption: nobody may)."""
        return True

    def seat_sections(self, game: GameState, player: int, seat: int) -> list:
        """What ``seat`` sees in front of ``player``: by default every zone the player has, the hand
        aside (an engine lays out its own: a State's rows, a Machine)."""
        from .tableview import default_seat_sections

        return default_seat_sections(game, player, seat)

    def board_sections(self, game: GameState, seat: int) -> list:
        """What ``seat`` sees of the shared board: by default the game's shared zones (an engine adds
        its own board: the Moon's hex map)."""
        from .tableview import default_board_sections

        return default_board_sections(game, seat)

    def board_svg(self, game: GameState, seat: int) -> str | None:
        """The shared board drawn as SVG for the studio's table, or None (the default: no drawing; the
        board's sections are shown as text). The Moon draws its hex map with the track on it."""
        return None

    def heuristic(self, game: GameState, seat: int) -> float:
        """The engine's own heuristic, when game.yaml declares none: for a game whose flow is data,
        its score's points; 0 otherwise (engines override)."""
        flow = game.compiled.flow
        if flow is None:
            return 0.0
        from .flow import quantity

        return float(quantity(game, flow["score"]["points"], seat))

    def make_agent(self, spec: str) -> Agent:
        """A bot by name from the ``agents`` table; ``mcts:N`` gives the tree search N descents a
        decision (``flat:N`` the flat Monte Carlo bot N playouts a move)."""
        name, _, arg = spec.partition(":")
        path = self.agents.get(name)
        if path is None:
            raise ValueError(f"unknown agent {spec!r} (agents: {', '.join(sorted(self.agents))})")
        module, _, cls = path.partition(":")
        factory = getattr(importlib.import_module(module), cls)
        if arg:
            if not arg.isdigit() or not 1 <= int(arg) <= 1000:
                raise ValueError(f"agent {spec!r}: write {name}:N with N from 1 to 1000")
            return factory(int(arg))
        return factory()

    # settings an engine's scenarios may give under ``options:`` besides the options game.yaml declares
    scenario_settings: frozenset = frozenset()

    def match_options(self, compiled: CompiledGame, given: dict | None, fill: bool = True) -> dict:
        """The options a game is played with: ``given`` checked against game.yaml ``options``
        (runtime/options.py) and, with ``fill``, the defaults of the rest. Raises OptionError (a
        ValueError) naming the option and what it allows."""
        from .options import resolve

        return resolve(dict(model_of(compiled.vocab).options), given, self.scenario_settings, fill=fill)
    # --- invariants: what the rules imply must hold in every state (``simulate --check-moves``) ----
    # name -> method(game) returning the problems found (empty when it holds). Every game is held to
    # these two; an engine extends the table with the ones its own rules imply (the Moon's track
    # geometry, 51st State's Deployed Machines, …), as ``steps`` is extended.
    invariants: dict[str, str] = {"card conservation": "invariant_cards",
                                  "Goods never negative unless signed": "invariant_goods"}

    def check_invariants(self, game: GameState) -> list[str]:
        """Every declared invariant on ``game`` now: the problems, each named by its invariant."""
        out: list[str] = []
        for name, method in self.invariants.items():
            found = getattr(self, method)(game)
            if found:  # almost always empty (a simulation checks each game at its end): no list made for it
                out += [f"{name}: {p}" for p in found]
        return out

    def invariant_cards(self, game: GameState) -> list[str]:
        """Every card instance is in exactly one zone (engines extend ``GameState.check_conservation``)."""
        return game.check_conservation()

    def invariant_goods(self, game: GameState) -> list[str]:
        """No player and no card holds fewer than zero of a Good, unless game.yaml declares it
        ``signed`` (a debt); an engine's own counters kept as Goods are held to the same rule."""
        signed = game.model.signed_goods
        out = [f"{p.name} has {n} {k}" for p in game.players for k, n in sorted(p.goods.items())
               if n < 0 and k not in signed]
        # only cards holding Goods can hold fewer than zero (most hold none): sort those alone
        holding = [(uid, c) for uid, c in game.instances.items() if c.goods]
        out += [f"{c} holds {n} {k}" for uid, c in sorted(holding) for k, n in sorted(c.goods.items())
                if n < 0 and k not in signed]
        return out

    def check_players(self, compiled: CompiledGame, players: int) -> None:
        """Raise RulesError when the game cannot seat ``players`` (game.yaml ``seats``, the game's one
        declaration of it; an engine may narrow it further, as a map for 3 to 4 players does)."""
        why = check_seats(model_of(compiled.vocab).seats, players)
        if why:
            raise RulesError(why)

    def reported_cards(self, compiled: CompiledGame) -> set[str]:
        """The cards a simulation report lists (every card; an engine leaves out what never enters play)."""
        return set(compiled.cards)

    def cards_left_out(self, compiled: CompiledGame, options: dict) -> set[str]:
        """The cards the chosen options leave out of the game (an expansion not played): a simulation
        report does not list them. None by default."""
        return set()


    def peer_key(self, card: dict) -> tuple:
        """The cards a simulation report compares a card with (``card_effects``: its peers share this
        key): the same kind and cost — the card record's ``kind`` and its ``cost`` field, when the
        game's cards have one. An engine whose cards differ in another way that goes with winning
        says so here."""
        return (card.get("kind"), card.get("cost"))

    # per-card comparisons a simulation report must not read as a card's effect: kind ("played",
    # "drawn", "tableau") -> why it is confounded with how the game ends (shown as a caveat; such a
    # comparison is never a finding)
    confounded_effects: dict[str, str] = {}

    def count_stats(self, game: GameState) -> None:
        """Start counting what ``stats`` reports; the core engine counts from the typed events."""

    def tableau(self, game: GameState, player: int) -> list[int]:
        """The cards (uids) in ``player``'s tableau at the end, as the simulation report's "in the
        final tableau" reads them: what lies in its own zones of those game.yaml's ``rules.tableau``
        names (none declared: no tableau). An engine whose players can leave before the end says
        what a player left with (Infernal Contraption: the Machine when it went out)."""
        uids: list[int] = []
        for z in game.model.rules.tableau:
            key = game.zone_key(z, player)
            if key[1] == player:  # only a player's own zones are its tableau
                uids += game.zones.get(key, ())
        return uids

    def stats(self, game: GameState) -> dict:
        """What a simulation reports per game: card id -> how often it was played (and more, by engine)."""
        plays: dict = {}
        uses: dict = {}
        for ev in game.events:
            if ev.kind in ("play", "use") and ev.card in game.instances:
                cid = game.instances[ev.card].card_id
                into = plays if ev.kind == "play" else uses
                into[cid] = into.get(cid, 0) + 1
        if not uses:
            return {"plays": plays}
        # a game whose cards also act where they lie: an activation is a play or a use
        return {"plays": plays, "activations": {c: plays.get(c, 0) + uses.get(c, 0) for c in {*plays, *uses}}}

    # --- what an engine adds to the compiler and the reference (neutral defaults: nothing) --------
    # card field types this engine adds to its games' vocabulary (runtime/fieldtypes.py): their
    # schema, their pictures in the reference and on card sheets, their legend. name -> FieldType
    field_types: dict[str, FieldType] = {}

    def check_map(self, data, game_data: dict, report) -> None:
        """Check a module's ``map:`` value beyond its JSON Schema (a game's own map format: the
        Moon's geometry, E601), reporting through ``report(message, *path inside the map, hint=…)``
        (the compiler's PathReporter). The core engine plays no map: nothing to check."""

    def render_map_svg(self, map_data: dict, vocab, coords: bool = False, legend: bool = True) -> str | None:
        """A module's map drawn as SVG for the rules reference (``legend=False``: without its key, for
        the board print); None: this engine draws no map."""
        return None

    def map_hex_px(self) -> float | None:
        """The radius in px of one hex in the SVG ``render_map_svg`` draws, by which ``cardwright
        board`` scales a hex map to board size; None: this engine's maps are not printed as boards."""
        return None

    # --- running effects ---------------------------------------------------------------------
    def run(self, game: GameState, fn: Callable, player: int, card: int | None = None,
            opponent: int | None = None, bindings: dict | None = None) -> Outcome:
        """Run one compiled effect function. ``Unmet`` and ``Refused`` become outcomes, logged."""
        ctx = Ctx(game, player, card, opponent, bindings)
        if not game.running:  # the outermost effect: its budget starts here (runtime/budget.py)
            game.budget.new_effect()
        game.running += 1
        try:
            fn(ctx)
        except Unmet as exc:
            game.tell(EffectUnmet(player, reason=exc.reason))
            return Outcome("unmet", exc.reason)
        except Refused as exc:
            game.tell(EffectRefused(player, reason=exc.reason))
            return Outcome("refused", exc.reason, where=where_from(exc))
        except Halt as exc:  # what ran so far stands (an elimination mid-effect, I12)
            return Outcome("done", f"stopped: {exc.reason}", exc)
        except Exception as exc:  # not a refusal: name the YAML place of the card text that was running
            where = where_from(exc)
            if where and not any(n.startswith("while running the effect at") for n in getattr(exc, "__notes__", ())):
                exc.add_note(f"while running the effect at {where}")
            raise
        finally:
            game.running -= 1
            if not game.running and game.set_aside_from:
                game.return_set_aside()
        return Outcome("done")

    def run_slot(self, game: GameState, uid: int, slot: str, player: int | None = None,
                 opponent: int | None = None, face: str | None = None) -> Outcome:
        rec = game.record(uid)
        inst = game.instances[uid]
        face = face or (inst.face if inst.face in rec.get("faces", {}) else None)
        slots = rec["faces"][face]["slots"] if face else rec["slots"]
        fn = slots.get(slot)
        if fn is None:
            raise RulesError(f"card {rec['id']!r} has no {slot!r} effect" + (f" on its {face} face" if face else ""))
        who = player if player is not None else (inst.owner if inst.owner is not None else 0)
        return self.run(game, fn, who, uid, opponent)

    # --- the event bus (runtime/events.py) ----------------------------------------------------
    def trigger_slots(self, game: GameState) -> tuple[dict, list[str]]:
        """(card kind -> [(slot, zones it listens in)], every listening zone in slot order) for the
        slots the game declares ``kind: trigger``; built once per game."""
        if game.listening is None:
            m = game.model
            by_kind: dict[str, list] = {}
            for kind, spec in m.kinds.items():
                for slot in spec.slots:
                    if slot.kind == "trigger":
                        by_kind.setdefault(kind, []).append((slot.key, slot.listens_in or m.rules.in_play))
            zone_order: list[str] = []
            for entries in by_kind.values():
                for _, zones in entries:
                    zone_order += [z for z in zones if z not in zone_order and z in m.zones]
            game.listening = (by_kind, zone_order)
        return game.listening

    def dispatch(self, game: GameState, event) -> None:
        """Offer ``event`` to every listening trigger slot, in the documented order: the event's own
        card first when it lies outside its slots' zones (it hears events about itself wherever it
        is: "when you gain this card" fires in the discard pile, "when you trash this card" in the
        trash — only those triggers, see Ctx.triggered); then the acting player's cards, then the
        other players' in seat order; zones in the slot's order; bottom to top within a zone. A slot
        already resolving is skipped (no re-entry)."""
        by_kind, zone_order = game.listening or self.trigger_slots(game)
        if not by_kind:
            return  # no card of this game listens: nothing to offer
        n = len(game.players)
        first = event.player if event.player is not None else game.turn_player
        offers = [(seat, uid, slot, False) for seat in ((first + k) % n for k in range(n))
                  for uid, slot in self._listeners(game, by_kind, zone_order, seat)]
        about = getattr(event, "card", None)
        if about is not None and about in game.instances:
            inst = game.instances[about]
            listening = {(uid, slot) for _, uid, slot, _ in offers}
            seat = inst.owner if inst.owner is not None else first
            kind = game.cards[inst.card_id].get("kind")
            offers[:0] = [(seat, about, slot, True) for slot, _ in by_kind.get(kind, ())
                          if (about, slot) not in listening]
        for seat, uid, slot, about_self in offers:
            key = (uid, slot)
            if key in game.resolving or uid not in game.instances:
                continue
            fn = game.cards[game.instances[uid].card_id]["slots"].get(slot)
            if fn is None:
                continue
            ctx = Ctx(game, seat, uid)
            ctx.event = event
            ctx.about_self = about_self
            if not game.running:  # an event the engine published between effects starts an effect
                game.budget.new_effect()
            # every firing is charged, the skipped ones too would be free: twelve copies of a trigger
            # that answers its own event would otherwise fire 12! times before any statement ran
            game.budget.spend(FIRINGS, game, fn)
            game.resolving.add(key)
            game.running += 1
            try:
                if game.slot_runner is None:
                    fn(ctx)
                else:
                    game.slot_runner(game, seat, uid, slot, event, about_self)
            except OverBudget:
                raise  # not this trigger's refusal: the whole effect stops (Engine.run reports it)
            except (Unmet, Refused) as exc:
                game.tell(EffectRefused(seat, reason=exc.reason,
                                        trigger_of=str(game.cards[game.instances[uid].card_id].get("name"))))
            finally:
                game.resolving.discard(key)
                game.running -= 1
                if not game.running and game.set_aside_from:
                    game.return_set_aside()

    @staticmethod
    def _listeners(game: GameState, by_kind: dict, zone_order: list[str], seat: int) -> list[tuple[int, str]]:
        out = []
        for zname in zone_order:
            key = game.zone_key(zname, seat)
            if key not in game.zones or (key[1] is None and seat != first_seat(game)):
                continue
            for uid in list(game.zones[key]):
                kind = game.cards[game.instances[uid].card_id].get("kind")
                out += [(uid, slot) for slot, zones in by_kind.get(kind, ()) if zname in zones]
        return out

    # --- turns and rounds: the boundaries triggers and "this turn" count from -------------------
    def begin_turn(self, game: GameState, player: int) -> None:
        game.turn_player = player
        game.turn_number += 1
        game.publish(TurnStarted(player, turn=game.turn_number, round=game.round))
        self.run_pending(game, "start")  # after the turn-start triggers (docs/decisions.md)

    def end_turn(self, game: GameState) -> None:
        self.run_pending(game, "end")  # "at the end of this turn": before the turn-end triggers
        game.publish(TurnEnded(game.turn_player, turn=game.turn_number, round=game.round))
        game.cost_changes = []  # "this turn, cards cost 1 less" ends with the turn

    def run_pending(self, game: GameState, moment: str) -> None:
        """Run the durations due at this moment of the turn (runtime/context.py Pending), each once, in
        the order they were set aside; one set aside while they run waits for its own moment. Each runs
        as its player, with its card and names, and is refused on its own (its refusal is logged)."""
        due = [p for p in game.pending if p.due(moment, game)]
        if not due:
            return
        game.pending = [p for p in game.pending if not any(p is d for d in due)]
        for p in due:
            bindings = {k: copy.copy(v) if isinstance(v, list) else v for k, v in p.bindings}  # a Revealed stays one
            self.run(game, p.fn, p.player, p.card if p.card in game.instances else None, bindings=bindings)

    def begin_round(self, game: GameState) -> None:
        game.publish(RoundStarted(None, turn=game.turn_number, round=game.round))

    def end_round(self, game: GameState) -> None:
        game.publish(RoundEnded(None, turn=game.turn_number, round=game.round))
        game.round += 1

    def refuse(self, game: GameState, player: int, reason: str) -> Outcome:
        game.tell(EffectRefused(player, reason=reason))
        return Outcome("refused", reason)

    def phase(self, game: GameState, name: str) -> None:
        """Run one phase. The core engine knows none; game engines override."""
        raise RulesError(f"the {self.name} engine has no phase {name!r}")

    # --- scenario steps ----------------------------------------------------------------------
    # the words a scenario step may use besides its action key; scenarios check every step's keys
    # against step_words() before they run, so a misspelt key is a located error, never ignored
    step_options: frozenset = frozenset({"player", "opponent", "expect", "slot", "face", "note", "use"})

    def step_words(self) -> tuple[set[str], set[str]]:
        """(action keys, option keys) a scenario step of this engine may use."""
        return set(self.steps), set(self.step_options)

    def step(self, game: GameState, step: dict, scenario) -> Outcome | None:
        for key, method in self.steps.items():
            if key in step:
                return getattr(self, method)(game, step, scenario)
        raise RulesError(f"unknown step {sorted(step)}")

    def step_effect(self, game, step, scenario) -> Outcome:
        fn = scenario.effect_fn(step["effect"])
        return self.run(game, fn, scenario.player_index(step.get("player")),
                        opponent=scenario.opt_player(step.get("opponent")))

    def step_card(self, game, step, scenario) -> Outcome:
        uid = scenario.card_uid(step["card"])
        kind = game.model.kinds.get(game.record(uid).get("kind"))
        spec = kind.slot(step["slot"]) if kind is not None else None
        if spec is not None and spec.kind == "ability":
            # an ability slot runs as the use of one of its abilities: `use: N` (the first by default),
            # its limits kept as when the flow offers it (issue 28)
            return self.use_ability(game, uid, step["slot"], int(step.get("use", 1)) - 1,
                                    scenario.opt_player(step.get("player")))
        return self.run_slot(game, uid, step["slot"], scenario.opt_player(step.get("player")),
                             scenario.opt_player(step.get("opponent")), step.get("face"))

    def use_ability(self, game, uid: int, slot: str, index: int, player: int | None = None) -> Outcome:
        """Use ability ``index`` (from 0) of the card's ability slot: its limits, then its body
        (runtime/context.py ``ability_gate``); the flow's moves come here too (runtime/flow.py)."""
        inst = game.instances[uid]
        fn = game.record(uid)["slots"].get(slot)
        if fn is None:
            raise RulesError(f"card {inst.card_id!r} has no {slot!r} ability")
        who = player if player is not None else (inst.owner if inst.owner is not None else 0)
        outcome = self.run(game, fn, who, uid, bindings={ABILITY_USE: (slot, index, None)})
        if outcome.status != "unmet" and uid in game.instances:  # its limits let it run: the card was used
            game.publish(Used(who, card=uid, turn=game.turn_number, round=game.round))
        return outcome

    def step_rule(self, game, step, scenario) -> Outcome:
        fn = game.compiled.rules[step["rule"]]
        return self.run(game, fn, scenario.player_index(step.get("player")),
                        opponent=scenario.opt_player(step.get("opponent")))

    def step_phase(self, game, step, scenario) -> Outcome:
        self.phase(game, step["phase"])
        return Outcome("done")

    def step_turn(self, game, step, scenario) -> Outcome:
        """``{turn: start, player: Ann}`` / ``{turn: end}``: a turn boundary (triggers listen)."""
        if step["turn"] == "start":
            self.begin_turn(game, scenario.player_index(step.get("player")))
        else:
            self.end_turn(game)
        return Outcome("done")

    def step_move(self, game, step, scenario) -> Outcome:
        """``{move: "Buy a card: Silver", player: Ann}``: one move of the game's flow, by the label
        `cardwright play` shows (``pass`` for passing). The first such step begins the flow's match
        from the scenario's state; a move that is not legal now is refused, naming the legal ones."""
        if scenario.match is None:
            if game.compiled.flow is None:
                raise RulesError("a `move` step plays the game's flow, and this game.yaml has no flow")
            from .flow import FlowMatch

            scenario.match = FlowMatch.start(game)
        match = scenario.match
        if match.terminal():
            return self.refuse(game, 0, "the game is over")
        seat = match.to_act()
        if step.get("player") is not None and scenario.player_index(step["player"]) != seat:
            return self.refuse(game, seat, f"it is {game.players[seat].name}'s move, not {step['player']}'s")
        legal = match.legal_moves()
        want = str(step["move"])
        pick = next((m for m in legal if m.label == want or (want == "pass" and m.key == ("pass",))), None)
        if pick is None:
            return self.refuse(game, seat, f"'{want}' is not a legal move now (legal: "
                               + "; ".join(m.label for m in legal) + ")")
        game.tell(MoveMade(seat, label=pick.label))
        match.apply(pick)
        return Outcome("done")

    def step_round(self, game, step, scenario) -> Outcome:
        """``{round: start}`` / ``{round: end}``."""
        (self.begin_round if step["round"] == "start" else self.end_round)(game)
        return Outcome("done")


_KEYWORDS: dict = {}


def takes_keyword(fn: Callable, name: str) -> bool:
    """Whether ``fn`` (an engine method, a plain function) has a parameter ``name``, looked up once per
    function: a keyword added to the engines' protocol later (``new_match(tracing=…)``) is passed only
    to the engines whose methods take it yet."""
    key = (fn, name)
    known = _KEYWORDS.get(key)
    if known is None:
        import inspect

        known = _KEYWORDS[key] = name in inspect.signature(fn).parameters
    return known


def where_from(exc: BaseException) -> str | None:
    """The YAML place of the statement that was running in the innermost generated function of the
    traceback (``file:line:column card 'id' slot``; a rule's text: ``file:line …``), from its module's
    STATEMENTS and LINE_MAP (runtime/tables.py)."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        place = statement_place(frame.f_globals, frame.f_code.co_name, tb.tb_lineno - frame.f_code.co_firstlineno)
        if place is not None:
            found = place
        tb = tb.tb_next
    return found


def first_seat(game: GameState) -> int:
    """Shared (per-game) zones are offered once, with the turn player's cards."""
    return game.turn_player


register(Engine())  # the core engine, for games that name none
load_engines()  # importing the engine module makes every shipped engine available, as it always did


# --- loading compiled games ------------------------------------------------------------------------


def load_compiled(game: str) -> CompiledGame:
    """Import ``generated.<game>`` (the committed, checked output of ``cardwright compile``)."""
    pkg = importlib.import_module(f"generated.{game}")
    return CompiledGame.from_package(pkg)


_INMEM = 0


def load_from_sources(outputs: dict[str, str], game: str) -> CompiledGame:
    """Load a game straight from a build's in-memory outputs (scenarios, explain, watch).

    The sources are the code generator's own output — never data text — executed as a fresh
    package with a unique name so that several builds can coexist in one process.
    """
    global _INMEM
    _INMEM += 1
    pkg_name = f"_cardwright_build_{_INMEM}_{game}"
    pkg = types.ModuleType(pkg_name)
    pkg.__path__ = []  # a package: lets the game __init__ do `from . import module`
    pkg.__package__ = pkg_name
    sys.modules[pkg_name] = pkg
    prefix = f"{game}/"
    for rel, src in sorted(outputs.items()):
        if rel.startswith(prefix) and rel != f"{game}/__init__.py":
            mname = rel[len(prefix):-3]
            mod = types.ModuleType(f"{pkg_name}.{mname}")
            mod.__package__ = pkg_name
            exec(compile(src, rel, "exec"), mod.__dict__)  # generated code, see docstring
            sys.modules[mod.__name__] = mod
            setattr(pkg, mname, mod)
    exec(compile(outputs[f"{game}/__init__.py"], f"{game}/__init__.py", "exec"), pkg.__dict__)
    return CompiledGame.from_package(pkg)


def engine_for(compiled: CompiledGame) -> Engine:
    return ENGINES[compiled.engine]


