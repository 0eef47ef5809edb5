"""The 51st State engine: the shared model of the Master Set that the State Packs build on.

The base game's rulebook is not among the project's rulebooks, so this models only what the
expansions' clauses need (docs/decisions.md, "51st State — shared model"):

- the State: Locations in three rows (a card's row is ``props["row"]``, placed by its ``rows``
  field: the first listed, M15), Ruins (face ``ruins``), Deals (zone ``deals``);
- Production (each Production Location, then each Deal), Cleanup (``until cleanup`` markers);
- the Faction board's Actions (cards of kind ``faction_action``; blocked by markers);
- card movement with *hooks* a State Pack overrides instead of copying code:
  ``discard_pile(game, uid, player)`` (where a discarded card goes: Moloch sends Hacked cards to
  the Machine discard pile, Scavengers can send the rest to a Personal Discard pile),
  ``leave_state`` (Goods on a Location that leaves the State), ``setup``, phase handlers, steps.

A *State Pack* (``Pack``) contributes phases, steps, setup and hooks. Packs register themselves
with ``register_pack``; a game plays the packs named in ``options["packs"]`` (default: every
registered pack whose module is compiled into the game).
"""
from __future__ import annotations

from typing import Any

from runtime.context import Ctx, face_view
from runtime.engine import Engine, Outcome
from runtime.events import GoodsPaid, Played, RoundEnded, RoundStarted, Used
from runtime.errors import Refused, RulesError, Unmet
from runtime.state import GameState
from runtime.statecopy import peek

from .scenario import FiftyScenario
from .state import FiftyGame
from .turn import new_match as new_fifty_match


class Pack:
    """A State Pack: its module name, the phases it owns, its scenario steps and hooks."""

    name = "pack"
    module = "pack"          # the data module (data/fifty_first_state/<module>.yaml)
    phases: tuple = ()       # phases only this pack plays (e.g. Moloch's assault, deploy)
    steps: dict = {}         # scenario step key -> method name on the pack: fn(engine, game, step, scenario)

    def setup(self, engine: "FiftyFirstState", game: GameState) -> None:
        """Setup changes of the pack (after the base setup)."""

    def phase(self, engine: "FiftyFirstState", game: GameState, name: str) -> None:
        """Run the pack's part of a phase (its own phases, or additions to shared ones)."""

    def discard_pile(self, engine: "FiftyFirstState", game: GameState, uid: int, player: int | None):
        """Where a discarded card goes, or None to let the next pack / the base game decide."""
        return None

    def end_game(self, engine: "FiftyFirstState", game: GameState) -> None:
        """End-of-game scoring changes, before Locations' Victory Points are counted."""

    def refill(self, engine: "FiftyFirstState", game: GameState, zone) -> None:
        """Refill an empty pile the pack owns (Moloch: the Machine deck, M06); default: nothing."""

    def reshufflable(self, engine: "FiftyFirstState", game: GameState) -> int:
        """How many cards of the pack's piles a refill of the empty Deck would take; default: none."""
        return 0


PACKS: dict[str, Pack] = {}
# card kinds only a pack brings (a Location says its pack by its ``set``)
PACK_KINDS = {"machine": "moloch", "connection": "scavengers"}


def register_pack(pack: Pack) -> Pack:
    PACKS[pack.name] = pack
    return pack


class FiftyFirstState(FiftyScenario, Engine):
    name = "fifty_first_state"
    state_class = FiftyGame
    steps = {**Engine.steps,
             "round": "step_round", "use": "step_use", "faction_action": "step_faction_action",
             "construct": "step_construct", "deal": "step_deal", "raze": "step_raze",
             "discard": "step_discard", "develop": "step_develop", "end_game": "step_end_game",
             "raze_location": "step_raze_location", "look": "step_look"}

    # --- the game protocol (runtime/protocol.py): the stand-in base turn, turn.py ---------------
    def new_match(self, compiled, players: list[str], seed: int = 0, agents=None, turn_cap: int | None = None,
                  options: dict | None = None, tracing: bool = True):
        """A whole game to a winner through the stand-in base turn (turn.py). ``turn_cap`` caps the
        rounds (below the stand-in ``game_end.rounds``); ``agents`` make the choices inside effects;
        ``tracing=False``: no trace from the start, the set-up's included (the core's ``new_game``)."""
        opts = dict(options or {})
        if turn_cap is not None:
            opts["round_cap"] = int(turn_cap)
        return new_fifty_match(self, compiled, players, seed, agents=agents, options=opts, tracing=tracing)

    def cards_left_out(self, compiled, options: dict) -> set[str]:
        """The cards of the packs not in play (``options["packs"]``): their Locations (``set``) and the
        cards of their own kinds (Moloch's Machines, Scavengers' Connection cards)."""
        names = options.get("packs")
        if names is None:
            return set()
        playing = {PACKS[n].module for n in names if n in PACKS}
        out = set()
        for cid, rec in compiled.cards.items():
            home = rec.get("set") if rec.get("kind") == "location" else PACK_KINDS.get(rec.get("kind"))
            if home not in (None, "base") and home not in playing:
                out.add(cid)
        return out

    # --- packs -------------------------------------------------------------------------------
    def packs(self, game: GameState) -> list[Pack]:
        """The packs in play: ``options["packs"]``, else every registered pack compiled into the game."""
        names = game.options.get("packs")
        if names is None:
            modules = set(game.compiled.tables) if game.compiled is not None else set()
            return [p for _, p in sorted(PACKS.items()) if p.module in modules]
        # Always in name order, however the option lists them: hooks are consulted in this order
        # (Moloch's Hacked-card discard before Scavengers' Personal Discard piles).
        return [PACKS[n] for n in sorted(set(names)) if n in PACKS]

    def new_game(self, compiled, players, seed=0, agents=None, options=None, setup=True, tracing=True):
        unknown = sorted(set((options or {}).get("packs") or []) - set(PACKS))
        if unknown:  # a scenario reports this as a located diagnostic (compiler/scenario.py)
            raise RulesError(f"unknown State Pack {', '.join(map(repr, unknown))} (packs: {', '.join(sorted(PACKS))})")
        return super().new_game(compiled, players, seed=seed, agents=agents, options=options, setup=setup,
                                tracing=tracing)

    step_options = Engine.step_options | {"with"}
    # a scenario's own settings besides the declared options (docs/fifty_first_state.md, Options)
    scenario_settings = frozenset({"start_player", "draft_rounds", "starting_hand"})

    # the Monte Carlo bot (runtime/bots.py UCT): no random playout below the tree — a playout runs
    # every effect of the cards and costs more than the few moves it adds; the leaves are scored by
    # the heuristic game.yaml declares, whose moves differ by little, so explore little (pilot: 4 of
    # 4 games won against greedy at 48 descents; with 60-move random playouts, 0 of 2 at 24, 45 s a game)
    playout_depth = 0
    uct_exploration = 0.01
    # game.yaml's heuristic (bots.greedy) counts a VP or a Location as 4: the bot's 5 points are 20
    uct_scale = 20.0

    # what the rules imply in every state, checked by `simulate --check-moves` (runtime/engine.py)
    invariants = {**Engine.invariants, "Deployed Machines Machine side up": "invariant_deployed",
                  "a hand or State holds its player's cards": "invariant_owners",
                  "a State holds Locations and Ruins; the Deck no Connection": "invariant_state_cards"}

    def invariant_deployed(self, game: GameState) -> list[str]:
        """M06: a Deployed Machine lies Machine side up."""
        return [f"{game.instances[u]} is Deployed but not Machine side up" for u in game.zone("deployed")
                if game.instances[u].face != "front"]

    def invariant_owners(self, game: GameState) -> list[str]:
        """A card in a player's hand or State belongs to that player."""
        return [f"{game.instances[u]} in {p.name}'s {z} belongs to seat {game.instances[u].owner}"
                for p in game.players for z in ("hand", "state") for u in game.zone(z, p.index)
                if game.instances[u].owner != p.index]

    def invariant_state_cards(self, game: GameState) -> list[str]:
        """M15/S12: a card face up in a State is a Location, placed in a row its face prints (a Ruins is
        face down); a Connection card is never a Deck card, so never drawn as a Ruins either."""
        out = [f"{game.instances[u]} in {p.name}'s State is face up but has no row: not a Location"
               for p in game.players for u in game.zone("state", p.index)
               if game.instances[u].face != "ruins" and not self.row_of(game, u)]
        out += [f"{game.instances[u]} is a Connection in the Deck" for u in game.zone("deck")
                if game.record(u).get("kind") == "connection"]
        return out

    def step_words(self) -> tuple[set[str], set[str]]:
        actions, options = super().step_words()
        for pack in PACKS.values():
            actions |= set(pack.steps)
        return actions, options

    def step(self, game, step, scenario):
        for pack in self.packs(game):
            for key, method in pack.steps.items():
                if key in step:
                    return getattr(pack, method)(self, game, step, scenario)
        return super().step(game, step, scenario)

    # --- setup -------------------------------------------------------------------------------
    def setup(self, game: GameState) -> None:
        """The base setup the packs need: the Deck, the Faction boards; then each pack's changes;
        then the starting hands, whichever packs are in play.

        The Deck holds every Location card of the base set and of the packs in play (``count``
        copies each; the Base Set's 88 are the examples of base.yaml and the stand-ins of
        base_stand_in.yaml, table ``base_set``). The starting hand is the stand-in table
        ``starting_hand``: each player draws that many cards and discards 2 (rule
        ``starting_discard``, S02) — to the central discard pile, or with Scavengers to their own
        Personal Discard pile (the packs' ``discard_pile`` hook). A scenario lays out its own hands
        (``setup: false``) or sets ``options.starting_hand: 0``."""
        packs = {p.module for p in self.packs(game)} | {"base"}
        deck = game.zone_key("deck", None)
        for cid, rec in sorted(game.cards.items()):
            if rec.get("kind") == "location" and rec.get("set", "base") in packs:
                for _ in range(rec.get("count", 1)):
                    game.create(cid, deck)
            if rec.get("kind") == "faction_action":
                for p in game.players:
                    game.create(cid, game.zone_key("faction_board", p.index), owner=p.index)
        game.shuffle(deck)
        game.emit("setup", None, f"the Deck holds {len(game.zones[deck])} cards")
        for pack in self.packs(game):
            pack.setup(self, game)
        self.deal_starting_hands(game)

    def deal_starting_hands(self, game: GameState) -> None:
        """Stand-in ``starting_hand`` (game.yaml): each player draws its ``cards`` from the Deck, then
        discards 2 of them (rule ``starting_discard``, printed in S02)."""
        spec = game.compiled.table("starting_hand") or {}
        size = int(game.options.get("starting_hand", spec.get("cards", 0)))
        rule = game.compiled.rules.get("starting_discard")
        deck = game.zone_key("deck", None)
        for p in game.active_players():
            if size <= 0:
                break
            hand = game.zone_key("hand", p)
            for _ in range(size):
                if not game.zones[deck]:
                    self.refill(game, deck)
                if not game.zones[deck]:
                    break
                uid = game.zones[deck][-1]
                game.move(uid, hand)
                game.instances[uid].owner = p
            game.emit("setup", p, f"draws a starting hand of {len(game.zones[hand])} cards (stand-in)")
            if rule is not None:
                self.run(game, rule, p)

    def refill(self, game: GameState, zone) -> None:
        """An empty pile is refilled where the rules say so: the packs' piles (the Machine deck, M06;
        the Yellow Connection pile), and the Deck by the stand-in ``deck_out``: the central discard
        pile — and what the packs add (Scavengers: each Personal Discard pile but its top card) — is
        shuffled into a new Deck."""
        for pack in self.packs(game):
            pack.refill(self, game, zone)
        deck = game.zone_key("deck", None)
        rule = game.compiled.table("deck_out") or {}
        if zone != deck or not rule.get("reshuffle"):
            return
        pile = game.zone_key(str(rule["reshuffle"]), None)
        for uid in list(game.zones.get(pile, ())):
            game.move(uid, deck)
        if not game.zones[deck]:
            return
        for uid in game.zones[deck]:
            inst = game.instances[uid]
            inst.face, inst.owner = "front", None
            inst.props.pop("revealed", None)
        game.shuffle(deck)
        game.emit("reshuffle", None, f"the Deck ran out: the discarded cards are shuffled into a new Deck of "
                  f"{len(game.zones[deck])} cards (stand-in)")

    def reshufflable(self, game: GameState) -> int:
        """How many cards a refill of the empty Deck would shuffle into it (stand-in ``deck_out``)."""
        rule = game.compiled.table("deck_out") or {}
        if not rule.get("reshuffle"):
            return 0
        return len(game.zones.get(game.zone_key(str(rule["reshuffle"]), None), ())) + sum(
            pack.reshufflable(self, game) for pack in self.packs(game))

    # --- phases ------------------------------------------------------------------------------
    def phase_order(self, game: GameState) -> list[str]:
        """The phases in game.yaml's order, without those of packs not in play (M03: Moloch adds
        Assault and Deploy between Production and Action; ``skip_in_round`` skips Assault in round 1)."""
        owned = {ph for p in PACKS.values() for ph in p.phases}
        playing = {ph for p in self.packs(game) for ph in p.phases}
        out = []
        for ph in game.model.phases:
            if ph.key in owned and ph.key not in playing:
                continue
            out.append(ph.key)
        return out

    def skipped(self, game: GameState, name: str) -> bool:
        return any(ph.key == name and game.round in ph.skip_in_round for ph in game.model.phases)

    # phase -> the method that plays the base rules of it; the packs' own rules follow (Pack.phase)
    phase_rules = {"lookout": "phase_lookout", "production": "phase_production", "cleanup": "phase_cleanup"}

    def phase(self, game: GameState, name: str) -> None:
        if name not in self.phase_order(game):
            raise RulesError(f"phase {name!r} is not played in this game")
        game.phase = name
        if self.skipped(game, name):
            game.emit("phase", None, f"round {game.round}: {name} phase skipped in round {game.round}")
            return
        game.emit("phase", None, f"round {game.round}: {name} phase")
        if name == self.phase_order(game)[0]:
            game.publish(RoundStarted(None, turn=game.turn_number, round=game.round))  # the event bus
        own = self.phase_rules.get(name)  # the base rules of this phase (a class table, below)
        if own is not None:
            getattr(self, own)(game)
        for pack in self.packs(game):
            pack.phase(self, game, name)
        if name == "cleanup":
            self.end_round(game)

    def play_round(self, game: GameState) -> None:
        for name in self.phase_order(game):
            self.phase(game, name)

    def phase_production(self, game: GameState) -> None:
        """Every Production Location produces, then every Deal gives its Goods.

        A Location whose Production takes another's output "instead of its owner" (field
        ``diverts``, e.g. the Hacked Conflagrator, M17) resolves first, so that the diverted
        Location then does not produce for its owner this round.
        """
        for early in (True, False):
            for p in game.active_players():
                for uid in list(game.zone("state", p)):
                    inst = game.instances[uid]
                    rec = face_view(game.record(uid), inst)
                    if inst.face == "ruins" or "production" not in (rec.get("rows") or ()):
                        continue
                    if bool(rec.get("diverts")) != early or "production" not in rec.get("slots", {}):
                        continue
                    if inst.props.get("diverted_round") == game.round:
                        game.emit("produce", p, f"{self.name_of(game, uid)} produces for another player this round")
                        continue
                    self.run_slot(game, uid, "production", player=p)
        if (game.compiled.table("features") or {}).get("when") == "production":
            # stand-in (table ``features``): each Feature resolves once, after the Production Locations
            for p in game.active_players():
                for uid in list(game.zone("state", p)):
                    inst = game.instances[uid]
                    rec = face_view(game.record(uid), inst)
                    if inst.face != "ruins" and "feature" in (rec.get("rows") or ()) and "feature" in rec.get("slots", {}):
                        self.run_slot(game, uid, "feature", player=p)
        for p in game.active_players():
            for uid in list(game.zone("deals", p)):
                rec = face_view(game.record(uid), game.instances[uid])
                if "deal" in rec.get("slots", {}):
                    self.run_slot(game, uid, "deal", player=p)

    def phase_cleanup(self, game: GameState) -> None:
        """Markers placed ``until cleanup`` are removed (the Conflagrator's gear, M18)."""
        keep = []
        for phase_name, undo in game.until:
            if phase_name == "cleanup":
                undo(game)
            else:
                keep.append((phase_name, undo))
        game.until = keep

    def end_round(self, game: GameState) -> None:
        game.publish(RoundEnded(None, turn=game.turn_number, round=game.round))
        game.round += 1
        game.phase = None
        self.pass_starting_player(game)

    # --- the Lookout draft and the Starting Player (stand-ins, game.yaml tables) --------------------
    def start_player(self, game: FiftyGame) -> int:
        """The current Starting Player (S03): ``options['start_player']`` (a name; it then stays),
        else ``game.start_player``, which passes on each round (stand-in ``starting_player``)."""
        name = game.options.get("start_player")
        if name is None:
            return game.start_player
        for p in game.players:
            if p.name == name:
                return p.index
        raise RulesError(f"unknown Starting Player {name!r}")

    def pass_starting_player(self, game: FiftyGame) -> None:
        """Stand-in (table ``starting_player``): at the end of each round the Starting Player passes
        to the next player still in the game. A scenario naming ``options.start_player`` fixes it."""
        rule = game.compiled.table("starting_player") or {}
        if rule.get("passes") != "each round" or "start_player" in game.options:
            return
        n = len(game.players)
        for k in range(1, n + 1):
            nxt = (game.start_player + k) % n
            if not game.players[nxt].out:
                break
        if nxt != game.start_player:
            game.start_player = nxt
            game.emit("start_player", nxt, "is the Starting Player now")

    def draft_rounds(self, game) -> int:
        """Drafting rounds per Lookout: stand-in table ``lookout_draft``, or ``options['draft_rounds']``
        (a scenario that looks only at the Yellow Connection pile sets 0)."""
        if "draft_rounds" in game.options:
            return int(game.options["draft_rounds"])
        return int((game.compiled.table("lookout_draft") or {}).get("rounds", 0))

    def draft_order(self, game) -> list[int]:
        first = self.start_player(game)
        return sorted(game.active_players(), key=lambda p: (p - first) % len(game.players))

    def deal_draft(self, game) -> list[int]:
        """One drafting round's offer: the top (players + 1) cards of the Deck, revealed."""
        deck = game.zone_key("deck", None)
        want = len(game.active_players()) + 1
        pile = game.zones[deck]
        if len(pile) < want:
            # the cards still there are dealt first; the reshuffled discards (stand-in deck_out) go under them
            kept = pile[:]
            del pile[:]  # off the pile for the refill's shuffle; they stay in it (game.where) throughout
            self.refill(game, deck)
            pile.extend(kept)
        shown = game.top(deck, want)
        if shown:
            game.emit("lookout", None, "reveals " + ", ".join(self.name_of(game, u) for u in shown))
        return shown

    def draft_pick(self, game, player: int, uid: int) -> None:
        game.move(uid, game.zone_key("hand", player))
        game.instances[uid].owner = player
        game.emit("draft", player, f"drafts {self.name_of(game, uid)}")

    def draft_leftover(self, game, shown: list[int]) -> None:
        """S03: the card left over goes to the current Starting Player's discard (with Scavengers:
        their Personal Discard pile)."""
        for uid in shown:
            self.discard_card(game, uid, self.start_player(game))

    def draft(self, game) -> list[int]:
        """One drafting round of the Lookout, every pick by the players' agents (scenarios): the
        stand-in base draft (table ``lookout_draft``) — (players + 1) cards, from the Starting
        Player on each takes one into hand, the left-over as ``draft_leftover``. A match
        (turn.py) deals the same draft but makes each pick a move."""
        shown = self.deal_draft(game)
        for p in self.draft_order(game):
            if not shown:
                break
            pick = Ctx(game, p).ask(shown, 1, prompt="draft a card")[0]
            shown.remove(pick)
            self.draft_pick(game, p, pick)
        self.draft_leftover(game, shown)
        return shown

    def phase_lookout(self, game: FiftyGame) -> None:
        """The stand-in draft, unless a match deals it as moves (``game.turn.moves``)."""
        if not game.turn.moves:
            for _ in range(self.draft_rounds(game)):
                self.draft(game)

    def end_game(self, game: GameState) -> None:
        game.emit("end", None, "end of the game")
        for pack in self.packs(game):
            pack.end_game(self, game)

    # --- the State ---------------------------------------------------------------------------
    def name_of(self, game: GameState, uid: int) -> str:
        inst = peek(game.instances, uid)  # a name is read, never written: a shared card is not copied
        return self.name_of_face(game, inst.card_id, inst.face)

    def name_of_face(self, game: GameState, card_id: str, face: str) -> str:
        """The name of a card with this id showing this face (what ``name_of`` says of a card now)."""
        if face == "ruins":
            return "a Ruins"
        name = game.cards[card_id].get("name", card_id)
        return f"{name} (Hacked)" if face == "hacked" else name

    def seat_sections(self, game: GameState, player: int, seat: int) -> list:
        """A player's State by its rows (M15), then the other zones as the default shows them."""
        from runtime.tableview import Section, card_name, default_seat_sections

        out = []
        for sec in default_seat_sections(game, player, seat):
            if sec.title != game.model.zone_name("state"):
                out.append(sec)
                continue
            rows: dict[str, list[str]] = {}
            for uid in game.zones.get(("state", player), []):
                row = game.instances[uid].props.get("row") or "no row"
                rows.setdefault(str(row).replace("_", " "), []).append(card_name(game, uid))
            out.append(Section(sec.title, tuple(f"{r}: {', '.join(names)}" for r, names in rows.items())
                               or ("empty",)))
        return out

    def row_of(self, game: GameState, uid: int) -> str | None:
        inst = peek(game.instances, uid)  # read only
        rows = face_view(game.record(uid), inst).get("rows") or []
        return rows[0] if rows else None

    def place_in_state(self, game: GameState, uid: int, player: int) -> None:
        """Construct/put a card into a State, in the row of the first of its ``rows`` (M15)."""
        game.move(uid, game.zone_key("state", player))
        inst = game.instances[uid]
        inst.owner = player
        row = self.row_of(game, uid)
        if row:
            inst.props["row"] = row

    def gain_ruins(self, game: GameState, player: int) -> int | None:
        """Draw the top card of the Deck and place it face down in the State (M11/S11)."""
        deck = game.zone_key("deck", None)
        if not game.zones[deck]:
            self.refill(game, deck)
        if not game.zones[deck]:
            game.emit("ruins", player, "gains no Ruins: the Deck is empty")
            return None
        uid = game.zones[deck][-1]
        game.move(uid, game.zone_key("state", player))
        inst = game.instances[uid]
        inst.face, inst.owner = "ruins", player
        inst.props.pop("row", None)
        game.emit("ruins", player, "gains a Ruins (a card from the Deck, face down in the State)")
        return uid

    def look_at_ruins(self, game: GameState, player: int, uid: int) -> str:
        """M11/S11: a player may look at the front of their OWN Ruins (only theirs)."""
        inst = game.instances[uid]
        if inst.face != "ruins":
            raise Refused(f"{self.name_of(game, uid)} is not a Ruins")
        if game.where[uid] != game.zone_key("state", player):
            raise Refused("you may look only at the front of your own Ruins")
        return inst.card_id

    def rebuild_ruins(self, game: GameState, uid: int, player: int) -> None:
        """Rebuild a Ruins (Scavengers S12; Moloch's Ruins too): flip it face up; it is a Location
        again, placed in the row its type requires, active at once — a Production Location
        produces immediately."""
        inst = game.instances[uid]
        if inst.face != "ruins" or game.where[uid] != game.zone_key("state", player):
            raise Refused(f"{self.name_of(game, uid)} is not a Ruins in your State")
        inst.face = "front"
        self.place_in_state(game, uid, player)
        rec = face_view(game.record(uid), inst)
        game.emit("rebuild", player, f"rebuilds a Ruins: it is {self.name_of(game, uid)} again, in the "
                  f"{inst.props.get('row', '?')} row")
        if "production" in (rec.get("rows") or ()) and "production" in rec.get("slots", {}):
            game.emit("produce", player, f"{self.name_of(game, uid)} produces at once")
            self.run_slot(game, uid, "production", player=player)

    def leave_state(self, game: GameState, uid: int, why: str) -> None:
        """A Location leaves its State (or flips): Goods limited to Hacking/Destroying go (M14).

        Other Goods on a Location stay with the card (the base game's rule is not in the
        rulebooks); only the ``holds_for`` Locations the Moloch rulebook clarifies lose theirs.
        """
        inst = game.instances[uid]
        rec = face_view(game.record(uid), inst)
        if rec.get("holds_for") and sum(inst.goods.values()):
            # the words only for a trace (the Assault search's trials run untraced)
            gone = ", ".join(f"{n} {g}" for g, n in sorted(inst.goods.items()) if n) if game.tracing else None
            inst.goods.clear()
            if gone is not None:
                game.emit("discard_goods", inst.owner, f"the Goods on {self.name_of(game, uid)} are discarded "
                          f"({gone}) as it is {why}")
        inst.props.pop("row", None)

    def raze_location(self, game: GameState, uid: int, by: str = "assault") -> None:
        """Raze a Location in a State: it flips to its Ruins side and its owner gains its Deal
        Goods (M05). A Hacked card has no Ruins side: it goes to the Machine discard pile and
        its owner gains a Ruins from the Deck instead (M12)."""
        inst = game.instances[uid]
        owner = inst.owner if inst.owner is not None else game.where[uid][1]
        rec = face_view(game.record(uid), inst)
        # the words only for a trace: the Assault search razes in thousands of untraced trials
        name = self.name_of(game, uid) if game.tracing else None
        self.leave_state(game, uid, "razed")
        if name is not None:
            game.emit("raze", owner, f"{name} is razed" + (f" by {by}" if by else ""))
        if inst.face == "hacked":
            self.discard_card(game, uid, owner)
            self.gain_ruins(game, owner)
        else:
            inst.face = "ruins"
        if "deal" in rec.get("slots", {}):
            if name is not None:
                game.emit("deal", owner, f"gains the Deal of {name}")
            self.run(game, rec["slots"]["deal"], owner, None)

    def discard_card(self, game: GameState, uid: int, player: int | None) -> None:
        """Discard a card; the packs' ``discard_pile`` hooks decide where it goes."""
        inst = game.instances[uid]
        name = None
        if game.tracing:  # named before it moves (a Hacked card flips back); words only for a trace
            name = self.name_of(game, uid) if inst.face != "ruins" else game.record(uid).get("name", inst.card_id)
        to = None
        for pack in self.packs(game):
            to = pack.discard_pile(self, game, uid, player)
            if to is not None:
                break
        if to is None:
            to = game.zone_key(game.model.rules.discard_to, player)
        game.move(uid, to)
        inst.props.pop("row", None)
        if name is not None:
            game.emit("discard", player, f"{name} goes to the {to[0].replace('_', ' ')}"
                      + (f" of {game.players[to[1]].name}" if to[1] is not None else ""))

    # --- blocking (Faction board markers) ----------------------------------------------------
    def blocked(self, game: GameState, uid: int) -> str | None:
        marks = peek(game.instances, uid).props.get("blocked") or []  # read only
        return marks[0] if marks else None

    def use_action(self, game: GameState, player: int, uid: int) -> Outcome:
        """Use the Action of a Location in your State (or of a Faction board Action)."""
        inst = game.instances[uid]
        where = game.where[uid]
        if where[1] != player or where[0] not in ("state", "faction_board"):
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not in your State or on your Faction board")
        mark = self.blocked(game, uid)
        if mark:
            return self.refuse(game, player, f"the {self.name_of(game, uid)} Action is blocked ({mark})")
        rec = face_view(game.record(uid), inst)
        fn = rec.get("slots", {}).get("action")
        if fn is None or inst.face == "ruins":
            return self.refuse(game, player, f"{self.name_of(game, uid)} has no Action")
        game.emit("use", player, f"uses the Action of {self.name_of(game, uid)}")
        out = self.run(game, fn, player, uid)
        if out.ok:
            game.publish(Used(player, card=uid, turn=game.turn_number, round=game.round))
        if out.status == "unmet":
            # An Action whose condition is not met cannot be taken: a refusal (nothing changed,
            # since guards come before actions, checker E304). M16: "x is the number of deployed
            # machines (min 1)" with no Deployed Machine is refused here.
            return Outcome("refused", out.reason)
        return out

    def _in_hand(self, game, player, uid) -> bool:
        return game.where[uid] == game.zone_key("hand", player)

    # --- player actions (engine methods; scenario steps and the stand-in turn call them) ----------
    def construct(self, game: GameState, player: int, uid: int) -> Outcome:
        """Construct a card from hand into the State; its Building Bonus and 'when played' run.

        The base game's construction cost is not in the rulebooks: a scenario step constructs for
        free; the stand-in turn (turn.py) first pays the stand-in ``construct_cost``."""
        if not self._in_hand(game, player, uid):
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not in your hand")
        if not (face_view(game.record(uid), game.instances[uid]).get("rows")):
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not a Location")
        self.place_in_state(game, uid, player)
        game.emit("construct", player, f"constructs {self.name_of(game, uid)} in the "
                  f"{game.instances[uid].props.get('row', '?')} row")
        # constructing is how a card is played from hand: triggers, turn history and the simulation
        # report's per-card plays read this event
        game.publish(Played(player, card=uid, turn=game.turn_number, round=game.round))
        rec = face_view(game.record(uid), game.instances[uid])
        for slot in ("building_bonus", "on_play"):
            fn = rec.get("slots", {}).get(slot)
            if fn is not None:
                self.run(game, fn, player, uid)
        return Outcome("done")

    def _distance(self, game, uid) -> int:
        return int(face_view(game.record(uid), peek(game.instances, uid)).get("distance") or 1)

    def contact_for(self, game: GameState, action: str) -> str:
        """The Contact paid (Distance many) to make a Deal / Raze from hand: table ``contact_costs``
        in game.yaml (provisional: the base game's rule is not in the rulebooks)."""
        return (game.model.table("contact_costs") or {}).get(action, f"{action}_contact")

    def _pay(self, game, player, good, n, what) -> None:
        have = game.players[player].goods[good]
        if have < n:
            raise Refused(f"{what} needs {n} {good.replace('_', ' ')} (has {have})")
        game.players[player].goods[good] -= n
        if game.tracing:
            game.tell(GoodsPaid(player, good=good, n=n))

    def make_deal(self, game: GameState, player: int, uid: int) -> Outcome:
        """Make a card in hand into a Deal: spend Contacts (``contact_costs.deal``) equal to its Distance."""
        if not self._in_hand(game, player, uid):
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not in your hand")
        try:
            self._pay(game, player, self.contact_for(game, "deal"), self._distance(game, uid), "a Deal")
        except Refused as exc:
            return self.refuse(game, player, exc.reason)
        game.move(uid, game.zone_key("deals", player))
        game.emit("deal", player, f"makes {self.name_of(game, uid)} into a Deal")
        return Outcome("done")

    def raze_card(self, game: GameState, player: int, uid: int) -> Outcome:
        """Raze a card from hand (Contacts ``contact_costs.raze`` = Distance; gain its Spoils) or a Location in your
        State (M12: a Razed Hacked card goes to the Machine discard pile and you gain a Ruins)."""
        inst = game.instances[uid]
        if self._in_hand(game, player, uid):
            try:
                self._pay(game, player, self.contact_for(game, "raze"), self._distance(game, uid), "Razing")
            except Refused as exc:
                return self.refuse(game, player, exc.reason)
            name = self.name_of(game, uid)
            game.emit("raze", player, f"razes {name} from hand")
            rec = face_view(game.record(uid), inst)
            if inst.face == "hacked":
                # M12: to the Machine discard pile, and a Ruins. The Hacked side's Spoils (3) are
                # printed but what they give is base-game knowledge the rulebooks lack: not gained.
                self.discard_card(game, uid, player)
                self.gain_ruins(game, player)
            else:
                self.discard_card(game, uid, player)
                if "spoils" in rec.get("slots", {}):
                    self.run(game, rec["slots"]["spoils"], player, None)
            return Outcome("done")
        if game.where[uid] == game.zone_key("state", player) and inst.face != "ruins":
            self.raze_location(game, uid, by=game.players[player].name)
            return Outcome("done")
        return self.refuse(game, player, f"{self.name_of(game, uid)} is neither in your hand nor in your State")

    def raze_cost(self, game: GameState, uid: int) -> tuple[str, int]:
        """The cost to Raze a Location in a State: by the row it is *placed* in (M15: a card with
        a Production and a Feature is placed in the Production row and costs its 3). The table
        ``row_raze_cost`` prints Production 3; the other rows and the Good paid are provisional."""
        table = game.model.table("row_raze_cost") or {}
        row = peek(game.instances, uid).props.get("row") or self.row_of(game, uid)
        return table.get("good", "red_contact"), int(table[row])

    def raze_enemy(self, game: GameState, player: int, uid: int) -> Outcome:
        """Raze a Location in another player's State, paying its row's cost."""
        where = game.where[uid]
        if where[0] != "state" or where[1] == player or game.instances[uid].face == "ruins":
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not a Location in another player's State")
        good, n = self.raze_cost(game, uid)
        row = game.instances[uid].props.get("row")
        try:
            self._pay(game, player, good, n, f"Razing a Location of the {row} row")
        except Refused as exc:
            return self.refuse(game, player, exc.reason)
        self.raze_location(game, uid, by=game.players[player].name)
        return Outcome("done")

    def discard(self, game: GameState, player: int, uid: int) -> Outcome:
        if not self._in_hand(game, player, uid):
            return self.refuse(game, player, f"{self.name_of(game, uid)} is not in your hand")
        self.discard_card(game, uid, player)
        return Outcome("done")

    def develop(self, game: GameState, player: int, old: int, new: int) -> Outcome:
        """Develop: a card from hand replaces a Location of your State, which is discarded.
        (The base game's Development rules are not in the rulebooks; only the replacement and
        M14's discarded Goods are modelled.)"""
        if game.where[old] != game.zone_key("state", player) or game.instances[old].face == "ruins":
            return self.refuse(game, player, f"{self.name_of(game, old)} is not a Location in your State")
        if not self._in_hand(game, player, new):
            return self.refuse(game, player, f"{self.name_of(game, new)} is not in your hand")
        self.leave_state(game, old, "developed")
        game.emit("develop", player, f"develops {self.name_of(game, old)} into {self.name_of(game, new)}")
        self.discard_card(game, old, player)
        self.place_in_state(game, new, player)
        return Outcome("done")


_ = (Any, Ctx, Unmet)
