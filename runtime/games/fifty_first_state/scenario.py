"""Scenario steps and game_state for 51st State: thin typed adapters over the engine's player actions.

Each step reads its value through runtime/games/stepspec.py: a malformed step is a ``RulesError`` in a
designer's words, reported at the step's file, line and column — never a ``KeyError``. The actions
themselves are engine methods (``construct``, ``make_deal``, ``raze_card``, … in engine.py); the State
Packs add their own steps (``Pack.steps``).
"""
from __future__ import annotations

from runtime.engine import Outcome
from runtime.errors import Refused, RulesError

from ..stepspec import number, text


class FiftyScenario:
    """The scenario side of the engine (mixed into ``FiftyFirstState``)."""

    def step_look(self, game, step, scenario) -> Outcome:
        player = scenario.player_index(step.get("player"))
        try:
            cid = self.look_at_ruins(game, player, self._uid(game, scenario, step["look"], "look"))
        except Refused as exc:
            return self.refuse(game, player, exc.reason)
        game.emit("look", player, f"looks at the front of a Ruins of theirs: {game.cards[cid].get('name', cid)}")
        return Outcome("done")

    def scenario_state(self, game, spec: dict, scenario) -> None:
        if "round" in spec:
            game.round = int(spec["round"])
        for key, value in spec.items():
            if key != "round":
                game.options[key] = value
        # cards laid out in a State are placed in their row
        for p in game.players:
            for uid in game.zone("state", p.index):
                if game.instances[uid].face != "ruins":
                    row = self.row_of(game, uid)
                    if row:
                        game.instances[uid].props.setdefault("row", row)

    def _uid(self, game, scenario, name, key: str = "card") -> int:
        """The card a step names: its card id or its ``as:`` name in the scenario's state."""
        return scenario.card_uid(text(key, key, name, "a card (its card id or its `as:` name)"))

    def step_round(self, game, step, scenario) -> Outcome:
        for _ in range(number("round", "round", step["round"], "a number of whole rounds", least=1)):
            self.play_round(game)
        return Outcome("done")

    def step_end_game(self, game, step, scenario) -> Outcome:
        self.end_game(game)
        return Outcome("done")

    def step_use(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "use", self.use_action)

    def step_faction_action(self, game, step, scenario) -> Outcome:
        player = scenario.player_index(step.get("player"))
        want = text("faction_action", "faction_action", step["faction_action"], "a Faction board Action's card id")
        for uid in game.zone("faction_board", player):
            if game.instances[uid].card_id == want:
                return self.use_action(game, player, uid)
        raise RulesError(f"no Faction board Action {want!r}")

    def _card_step(self, game, step, scenario, key: str, action) -> Outcome:
        return action(game, scenario.player_index(step.get("player")), self._uid(game, scenario, step[key], key))

    def step_construct(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "construct", self.construct)

    def step_deal(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "deal", self.make_deal)

    def step_raze(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "raze", self.raze_card)

    def step_raze_location(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "raze_location", self.raze_enemy)

    def step_discard(self, game, step, scenario) -> Outcome:
        return self._card_step(game, step, scenario, "discard", self.discard)

    def step_develop(self, game, step, scenario) -> Outcome:
        if step.get("with") is None:
            raise RulesError("step 'develop' needs 'with': the card from hand that replaces the Location")
        return self.develop(game, scenario.player_index(step.get("player")),
                            self._uid(game, scenario, step["develop"], "develop"),
                            self._uid(game, scenario, step["with"], "with"))
