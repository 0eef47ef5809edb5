"""Scenario steps and game_state/expect for Infernal Contraption (mixed into the engine).

The steps are thin adapters over the engine's own actions (``play``, ``refit``, ``apply``, ``activate``…
in engine.py).
"""
from __future__ import annotations

from runtime.engine import Outcome
from runtime.errors import RulesError

from .agents import Greedy
from .machine import sockets_match
from .moves import END, Move
from .state import Stop


class ICScenario:
    """The scenario side of the engine (mixed into ``InfernalContraption``)."""

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
