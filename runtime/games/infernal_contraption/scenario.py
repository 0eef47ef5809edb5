"""Scenario steps and game_state/expect for Infernal Contraption (mixed into the engine).

The steps are thin adapters over the engine's own actions (``play``, ``refit``, ``apply``, ``activate``…
in engine.py). Each reads its value through runtime/games/stepspec.py: a malformed step is a
``RulesError`` in a designer's words, reported at the step's file, line and column — never a
``KeyError`` or a ``TypeError`` from inside the engine.
"""
from __future__ import annotations

from runtime.engine import Outcome
from runtime.errors import RulesError

from ..stepspec import kind_of, mapping, number, text, texts
from .agents import Greedy
from .machine import sockets_match
from .moves import END, Move
from .state import Stop


CARD = "a card (its card id or its `as:` name)"
SIDE = "a side: left, right, top or bottom"


class ICScenario:
    """The scenario side of the engine (mixed into ``InfernalContraption``)."""

    def step(self, game, step, scenario):
        try:
            return super().step(game, step, scenario)
        except Stop as s:
            return Outcome("done", f"stopped: {s.reason}")

    def _uid(self, scenario, key: str, value) -> int:
        """The card a step names under ``key``: its card id or its ``as:`` name in the scenario's state."""
        return scenario.card_uid(text(key, key, value, CARD))

    def step_play(self, game, step, scenario) -> Outcome:
        """``{play: CARD, at: CARD, side: SIDE, machine: PLAYER, scrap: CARD}``: the attach step's play."""
        p = scenario.player_index(step.get("player")) if step.get("player") else game.turn_player
        game.turn_player = p
        uid = self._uid(scenario, "play", step["play"])
        if step.get("at") is None:
            raise RulesError(f"step 'play' needs 'at': {CARD}, the main-line card it attaches to")
        owner = scenario.player_index(text("play", "machine", step["machine"], "a player's name")) \
            if step.get("machine") else p
        cost = scenario.card_uid(text("play", "scrap", step["scrap"], CARD)) if step.get("scrap") else 0
        at = scenario.card_uid(text("play", "at", step["at"], CARD))
        # no side is refused by the engine like a misspelt one ("unknown side"), as a play would be
        side = text("play", "side", step.get("side", ""), SIDE)
        return self.play(game, Move("play", uid, owner, at, side, cost))

    def step_refit(self, game, step, scenario) -> Outcome:
        """``{refit: [CARD, ...]}``, or ``refit: []`` to let the player's agent choose the cards."""
        if step.get("player"):
            game.turn_player = scenario.player_index(step["player"])
        names = texts("refit", "refit", step["refit"], CARD) if step["refit"] else ()
        cards = tuple(scenario.card_uid(n) for n in names)
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
        value = step["turn"]
        count = 1 if value is True else number("turn", "turn", value, "a number of whole turns (or true: one)", least=1)
        for _ in range(count):
            if game.over:
                break
            if game.step == "start":
                self.begin_turn(game)
            start = game.turn
            while not game.over and game.turn == start:
                self.take_decision(game)
        return Outcome("done")

    def step_play_out(self, game, step, scenario) -> Outcome:
        """``play_out: true`` or ``{agent: greedy, turn_cap: N}``: play to a winner (or the turn cap)."""
        value = step["play_out"]
        if value is True or value is None:
            value = {}
        spec = mapping("play_out", value, {"agent": "greedy, or left out for the scenario's agents",
                                           "turn_cap": "the most turns begun before the game stops"})
        agent = text("play_out", "agent", spec.get("agent"), "greedy (or left out: the scenario's agents)", True)
        if agent is not None and agent != "greedy":
            raise RulesError(f"step 'play_out': 'agent' is greedy (or left out: the scenario's agents), "
                             f"not {kind_of(agent)}")
        if agent == "greedy":
            game.default_agent = Greedy()
        turn_cap = spec.get("turn_cap")
        self.play_game(game, 200 if turn_cap is None else number("play_out", "turn_cap", turn_cap,
                                                                  "a number of turns", least=1))
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
