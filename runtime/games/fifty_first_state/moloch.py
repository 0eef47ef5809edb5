"""The Moloch State Pack (rulebook 000_3e37b2ec99b6decd.txt, clauses M01–M21).

Procedures that are rules rather than card effects: the Machine deck and Deploy (M06), efficient
Assault (M04/M05), Hack (M07) and Destroy (M08) with RAGE (M09), the Collaboration variant
(M20, ``options: {collaboration: true}``), Hacked cards' discard pile (M12) and the end-game
penalty (M10, written in data as the rule ``end_game_penalty``).

Decisions on cases the rulebook leaves open (also in docs/decisions.md):
- M09: RAGE is evaluated at the moment a Destroy is performed (or completed, in Collaboration),
  counting the Machine being destroyed among the Deployed Machines.
- M10: every player tied for the most Victory Points loses the penalty; VP never go below 0.
- M20: Goods left on a Machine that leaves play (Hacked, Destroyed) return to the supply; a
  completed Hack whose cost an opponent partly paid gives nobody the card: it is discarded.
"""
from __future__ import annotations

from collections import Counter

from runtime.context import Ctx, face_view
from runtime.engine import Outcome
from runtime.errors import Refused, RulesError
from runtime.refs import AllOf, UpTo, VAR

from .engine import FiftyFirstState, Pack, goods_text, register_pack
from .matching import Assignment, Demand, best_assignments

DEFAULT_DIFFICULTY = "recruit"


class AssaultPlan:
    """Targeted verbs consult this during an Assault.

    ``plan`` mode (on a sandbox copy of the game): record each targeted effect as a ``Demand``
    and act on nothing. ``execute`` mode (on the real game): act on the targets the chosen
    efficient ``Assignment`` gives that effect.
    """

    def __init__(self, mode: str, assignment: Assignment | None = None):
        self.mode = mode
        self.assignment = assignment
        self.demands: list[Demand] = []
        self.calls: Counter = Counter()

    def targets(self, ctx: Ctx, sel, verb_name: str) -> list[int]:
        key = (ctx.card, self.calls[ctx.card])
        self.calls[ctx.card] += 1
        options = ctx.options(sel)
        if self.mode == "plan":
            if sel.category == VAR or isinstance(sel.amount, AllOf):
                n = len(options)
            elif isinstance(sel.amount, UpTo):
                n = sel.amount.n
            else:
                n = ctx.amount(sel)
            name = ctx.game.engine.name_of(ctx.game, ctx.card)
            self.demands.append(Demand(key, tuple(options), n, f"{name} {verb_name}s"))
            return []
        assigned = self.assignment.targets(key) if self.assignment else ()
        return [t for t in assigned if t in options]


class Moloch(Pack):
    name = "moloch"
    module = "moloch"
    phases = ("assault", "deploy")
    # "contribute" first: its steps also carry a "hack:"/"destroy:" key (what the payment is for)
    steps = {"contribute": "step_contribute", "hack": "step_hack", "destroy": "step_destroy",
             "deploy": "step_deploy", "assault": "step_assault"}

    # --- setup (M02) -------------------------------------------------------------------------
    def setup(self, engine: FiftyFirstState, game) -> None:
        """The Moloch cards are already in the Deck (their ``set``); the Machines form the
        Machine deck; a difficulty level is chosen (``options["difficulty"]``)."""
        level = self.difficulty(game)
        mdeck = game.zone_key("machine_deck", None)
        for cid, rec in sorted(game.cards.items()):
            if rec.get("kind") == "machine":
                for _ in range(rec.get("count", 1)):
                    game.create(cid, mdeck)
        game.shuffle(mdeck)
        game.emit("setup", None, f"the Machine deck holds {len(game.zones[mdeck])} Machines; difficulty {level}")

    def difficulty(self, game) -> str:
        level = game.options.get("difficulty", DEFAULT_DIFFICULTY)
        table = game.compiled.table("deploy") or {}
        if level not in table:
            raise RulesError(f"unknown difficulty {level!r} (levels: {', '.join(sorted(table))})")
        return level

    def deploy_count(self, game) -> int:
        """M06: Machines per round by difficulty and number of players."""
        row = game.compiled.table("deploy")[self.difficulty(game)]
        n = len(game.players)
        if not 1 <= n <= len(row):
            raise RulesError(f"the deploy table has no column for {n} players")
        return int(row[n - 1])

    # --- piles -------------------------------------------------------------------------------
    def discard_pile(self, engine, game, uid, player):
        """M12: a discarded Hacked card goes to the Machine discard pile (Machine side up)."""
        inst = game.instances[uid]
        if game.record(uid).get("kind") == "machine":
            self._leaves_play(game, uid)
            inst.face, inst.owner = "front", None
            return game.zone_key("machine_discard", None)
        return None

    def refill(self, engine, game, zone) -> None:
        """M06: when the Machine deck runs out, the Machine discard pile is shuffled into a new one."""
        if zone != game.zone_key("machine_deck", None):
            return
        pile = game.zone_key("machine_discard", None)
        if not game.zones[pile]:
            return
        for uid in list(game.zones[pile]):
            game.move(uid, zone)
            game.instances[uid].face = "front"
        game.shuffle(zone)
        game.emit("reshuffle", None, f"the Machine discard pile is shuffled into a new Machine deck "
                  f"({len(game.zones[zone])} Machines)")

    # --- phases ------------------------------------------------------------------------------
    def phase(self, engine, game, name) -> None:
        if name == "assault":
            for p in game.active_players():
                self.assault(engine, game, p)
        elif name == "deploy":
            self.deploy(engine, game, self.deploy_count(game))

    def deploy(self, engine, game, n: int) -> list[int]:
        """M06: take each Machine from the BOTTOM of the Machine deck, Machine side up."""
        deck = game.zone_key("machine_deck", None)
        out = []
        for _ in range(n):
            if not game.zones[deck]:
                self.refill(engine, game, deck)
            if not game.zones[deck]:
                game.emit("deploy", None, "no Machine left to deploy")
                break
            uid = game.zones[deck][0]
            game.move(uid, game.zone_key("deployed", None))
            inst = game.instances[uid]
            inst.face, inst.owner = "front", None
            out.append(uid)
            # Nobody looks at the Hacked side (M06): the trace names the Machine side only.
            game.emit("deploy", None, f"deploys {engine.name_of(game, uid)} from the bottom of the Machine deck")
        return out

    def assault(self, engine: FiftyFirstState, game, player: int) -> Assignment | None:
        """M04: ``player`` resolves the Assault of every Deployed Machine, efficiently.

        1. Plan: on a sandbox copy, run every Assault; targeted verbs record what they could hit.
        2. Solve: the assignments that resolve the most effects (maximum matching); the player's
           agent picks one when several are equally efficient.
        3. Execute: run every Assault on the real game, each targeted verb acting on its share.
        Effects that cannot be resolved are ignored.
        """
        machines = [u for u in game.zone("deployed") if "assault" in game.record(u).get("slots", {})]
        if not machines:
            game.emit("assault", player, "no Deployed Machine assaults")
            return None
        twin = engine.sandbox(game)
        twin.assault = AssaultPlan("plan")
        for uid in machines:
            engine.run(twin, twin.record(uid)["slots"]["assault"], player, uid)
        demands = twin.assault.demands
        choice = None
        if demands:
            options = best_assignments(demands, describe=lambda u: engine.name_of(game, u))
            choice = options[0] if len(options) == 1 else Ctx(game, player).ask(
                options, 1, prompt="equally efficient Assault assignments")[0]
            units = sum(d.n for d in demands)
            game.emit("assault", player, f"efficient Assault: {choice.size} of {units} targeted effects "
                      f"can resolve — {choice.label}")
        game.assault = AssaultPlan("execute", choice)
        try:
            for uid in machines:
                game.emit("assault", player, f"{engine.name_of(game, uid)} assaults")
                engine.run(game, game.record(uid)["slots"]["assault"], player, uid)
        finally:
            game.assault = None
        return choice

    # --- Hack (M07), Destroy (M08), RAGE (M09) -------------------------------------------------
    def _deployed(self, engine, game, player, uid) -> Refused | None:
        if game.where.get(uid) != game.zone_key("deployed", None):
            return Refused(f"{engine.name_of(game, uid)} is not a Deployed Machine")
        return None

    def defense(self, game, uid) -> int:
        """The Defense to break now. M09: RAGE adds +1 while the number of Deployed Machines is at
        most the number of players — evaluated at the moment of the Destroy (decision), with the
        Machine itself counted as Deployed."""
        rec = game.record(uid)
        base = int(rec["defense"])
        if rec.get("rage") and len(game.zone("deployed")) <= len(game.active_players()):
            return base + 1
        return base

    def _stores(self, game, player, purpose: str) -> list[int]:
        """Player's Locations whose Goods may pay for ``purpose`` (hack/destroy) only (M14)."""
        out = []
        for uid in game.zone("state", player):
            inst = game.instances[uid]
            if inst.face != "ruins" and purpose in (face_view(game.record(uid), inst).get("holds_for") or ()):
                out.append(uid)
        return out

    def _payment(self, game, player, need: Counter, purpose: str) -> list[tuple]:
        """How ``player`` pays ``need``: Goods stored for this purpose first (they can serve
        nothing else), then the player's own. Refused, listing what is missing, before any change."""
        plan, missing = [], Counter()
        stores = self._stores(game, player, purpose)
        for good, n in sorted(need.items()):
            left = n
            for uid in stores:
                take = min(left, game.instances[uid].goods[good])
                if take:
                    plan.append((uid, good, take))
                    left -= take
            take = min(left, game.players[player].goods[good])
            if take:
                plan.append((None, good, take))
                left -= take
            if left:
                missing[good] = left
        if missing:
            raise Refused(f"cannot {purpose}: missing {goods_text(missing)}")
        return plan

    def _pay(self, engine, game, player, plan) -> None:
        for uid, good, n in plan:
            if uid is None:
                game.players[player].goods[good] -= n
                game.emit("spend", player, f"pays {n} {good}", good=good, n=n)
            else:
                game.instances[uid].goods[good] -= n
                if not game.instances[uid].goods[good]:
                    del game.instances[uid].goods[good]
                game.emit("spend", player, f"pays {n} {good} stored on {engine.name_of(game, uid)}", good=good, n=n)

    def _paid(self, game, uid, purpose) -> dict:
        return dict(game.instances[uid].props.get(f"{purpose}_paid") or {})

    def _remaining(self, game, uid, purpose) -> Counter:
        paid = Counter()
        for goods in self._paid(game, uid, purpose).values():
            paid.update(goods)
        if purpose == "hack":
            need = Counter(game.record(uid)["code"])
        else:
            need = Counter({"red_contact": self.defense(game, uid)})
        need.subtract(paid)
        return +need

    def _others_paid(self, game, uid, purpose, player) -> list[str]:
        me = game.players[player].name
        return sorted(n for n, goods in self._paid(game, uid, purpose).items() if n != me and sum(goods.values()))

    def _leaves_play(self, game, uid) -> None:
        """M20 (decision): Goods left on a Machine that leaves play return to the supply."""
        inst = game.instances[uid]
        if sum(inst.goods.values()):
            game.emit("return", None, f"the Goods left on {game.record(uid).get('name')} "
                      f"({goods_text(inst.goods)}) return to the supply")
        inst.goods.clear()
        inst.props.pop("hack_paid", None)
        inst.props.pop("destroy_paid", None)

    def hack(self, engine, game, player: int, uid: int) -> Outcome:
        """M07: spend every Resource (and Worker) of the Code, then take the Machine into your
        hand Hacked side up."""
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        need = self._remaining(game, uid, "hack")
        try:
            plan = self._payment(game, player, need, "hack")
        except Refused as exc:
            return engine.refuse(game, player, f"{exc.reason} of the Code of {engine.name_of(game, uid)} "
                                 f"({goods_text(Counter(game.record(uid)['code']))})")
        name = engine.name_of(game, uid)
        self._pay(engine, game, player, plan)
        partners = self._others_paid(game, uid, "hack", player)
        self._leaves_play(game, uid)
        if partners:
            # M20: completing a Hack an opponent partly paid gives no card; the Machine leaves play.
            game.emit("hack", player, f"completes the Hack of {name} partly paid by {', '.join(partners)}: "
                      f"no card is gained")
            engine.discard_card(game, uid, None)
            return Outcome("done")
        game.move(uid, game.zone_key("hand", player))
        inst = game.instances[uid]
        inst.face, inst.owner = "hacked", player
        game.emit("hack", player, f"hacks {name} and takes it into hand, Hacked side up")
        return Outcome("done")

    def destroy(self, engine, game, player: int, uid: int) -> Outcome:
        """M08: spend Red Contacts equal to the Defense (M09 RAGE included), gain 1 VP, and
        discard the Machine to the Machine discard pile."""
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        defense = self.defense(game, uid)
        need = self._remaining(game, uid, "destroy")
        name = engine.name_of(game, uid)
        try:
            plan = self._payment(game, player, need, "destroy")
        except Refused as exc:
            return engine.refuse(game, player, f"{exc.reason}: the Defense of {name} is {defense}"
                                 + (" (RAGE +1)" if defense != game.record(uid)["defense"] else ""))
        self._pay(engine, game, player, plan)
        partners = self._others_paid(game, uid, "destroy", player)
        self._leaves_play(game, uid)
        game.emit("destroy", player, f"destroys {name} (Defense {defense})")
        if partners:
            game.emit("destroy", player, f"the Destroy was partly paid by {', '.join(partners)}: no Victory Point")
        else:
            game.players[player].goods["vp"] += 1
            game.emit("gain", player, "gains 1 vp", good="vp", n=1)
        game.move(uid, game.zone_key("machine_discard", None))
        return Outcome("done")

    def contribute(self, engine, game, player: int, uid: int, purpose: str, goods: Counter) -> Outcome:
        """M20 (Collaboration variant): as an Action, place part of a Hack cost (Goods matching
        the Code) or of a Destroy cost (Red Contacts) on a Machine."""
        if not game.options.get("collaboration"):
            return engine.refuse(game, player, "partial payments need the Collaboration variant")
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        if purpose not in ("hack", "destroy") or not goods or any(n <= 0 for n in goods.values()):
            return engine.refuse(game, player, "a partial payment names 'hack' or 'destroy' and some Goods")
        need = self._remaining(game, uid, purpose)
        name = engine.name_of(game, uid)
        extra = +(goods - need)
        if extra:
            return engine.refuse(game, player, f"{goods_text(extra)} does not match what the {purpose} of {name} "
                                 f"still needs ({goods_text(need)})")
        if not +(need - goods):
            return engine.refuse(game, player, f"that pays the whole {purpose} cost of {name}: {purpose} it instead")
        try:
            plan = self._payment(game, player, goods, purpose)
        except Refused as exc:
            return engine.refuse(game, player, exc.reason)
        self._pay(engine, game, player, plan)
        inst = game.instances[uid]
        paid = self._paid(game, uid, purpose)
        mine = Counter(paid.get(game.players[player].name) or {})
        mine.update(goods)
        paid[game.players[player].name] = dict(sorted(mine.items()))
        inst.props[f"{purpose}_paid"] = dict(sorted(paid.items()))
        inst.goods.update(goods)
        game.emit("contribute", player, f"places {goods_text(goods)} on {name} towards its {purpose} "
                  f"(still needed: {goods_text(self._remaining(game, uid, purpose))})")
        return Outcome("done")

    # --- end of game (M10) -------------------------------------------------------------------
    def end_game(self, engine, game) -> None:
        """Before Locations' VP are counted, the player with the most VP loses 2 VP per Deployed
        Machine (rule ``end_game_penalty`` in moloch.yaml). Decision: every player tied for the
        most loses it."""
        active = game.active_players()
        top = max(game.players[p].goods["vp"] for p in active)
        leaders = [p for p in active if game.players[p].goods["vp"] == top]
        game.emit("end", None, f"most Victory Points ({top}): {', '.join(game.players[p].name for p in leaders)}; "
                  f"{len(game.zone('deployed'))} Deployed Machines")
        for p in leaders:
            engine.run(game, game.compiled.rules["end_game_penalty"], p)

    # --- scenario steps ----------------------------------------------------------------------
    def machine_uid(self, game, scenario, name: str) -> int:
        """A Machine named in the scenario's state, else the first Deployed Machine with that card id
        (for scenarios that run the full setup and act on what was deployed)."""
        try:
            return scenario.card_uid(name)
        except RulesError:
            for uid in game.zone("deployed"):
                if game.instances[uid].card_id == name:
                    return uid
            raise RulesError(f"no Machine called {name!r} in the scenario's state or among the Deployed Machines")

    def step_hack(self, engine, game, step, scenario) -> Outcome:
        return self.hack(engine, game, scenario.player_index(step.get("player")),
                         self.machine_uid(game, scenario, step["hack"]))

    def step_destroy(self, engine, game, step, scenario) -> Outcome:
        return self.destroy(engine, game, scenario.player_index(step.get("player")),
                            self.machine_uid(game, scenario, step["destroy"]))

    def step_contribute(self, engine, game, step, scenario) -> Outcome:
        purpose = "hack" if "hack" in step else "destroy"
        goods = Counter(step.get("hack") or {}) if purpose == "hack" else Counter({"red_contact": int(step["destroy"])})
        return self.contribute(engine, game, scenario.player_index(step.get("player")),
                               self.machine_uid(game, scenario, step["contribute"]), purpose, goods)

    def step_deploy(self, engine, game, step, scenario) -> Outcome:
        n = step["deploy"]
        self.deploy(engine, game, self.deploy_count(game) if n in ("table", None) else int(n))
        return Outcome("done")

    def step_assault(self, engine, game, step, scenario) -> Outcome:
        self.assault(engine, game, scenario.player_index(step.get("assault") if isinstance(step.get("assault"), str)
                                                         else step.get("player")))
        return Outcome("done")


MOLOCH = register_pack(Moloch())
