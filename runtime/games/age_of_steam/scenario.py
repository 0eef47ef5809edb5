"""Scenario steps and game_state/expect for the Moon: thin typed adapters over the engine's actions.

Each step's value is read into a typed dataclass first (``BuildStep``, ``MoveStep``…); a malformed step
is a ``RulesError`` naming what the step needs — reported by the scenario runner at the step's file,
line and column — never a ``KeyError`` or an ``AttributeError`` from deep inside the engine.
"""
from __future__ import annotations

from dataclasses import dataclass

from runtime.engine import Outcome
from runtime.errors import Refused, RulesError

from ..stepspec import kind_of, mapping, number, text, texts
from .state import MoonGame


HEX = "a hex: coordinates \"q,r\", a City or Town name, or Landing"


@dataclass(frozen=True)
class BuildStep:
    """``build: {from: NODE, hexes: [...]}`` or ``build: {continue: L3, hexes: [...]}``."""

    hexes: tuple
    start: str | None
    cont: str | None

    @classmethod
    def read(cls, value) -> "BuildStep":
        spec = mapping("build", value, {"from": HEX, "hexes": "the hexes built, in order",
                                        "continue": "your unfinished link, e.g. L3"}, required=("hexes",))
        if spec.get("from") is not None and spec.get("continue") is not None:
            raise RulesError("step 'build' names either 'from' (a new link) or 'continue' (your link), not both")
        return cls(texts("build", "hexes", spec["hexes"], HEX), text("build", "from", spec.get("from"), HEX, True),
                   text("build", "continue", spec.get("continue"), "a link id such as L3", True))


@dataclass(frozen=True)
class MoveStep:
    """``move: {cube: red, from: HEX, path: [NODE, ...], borrow: L1}``."""

    cube: str
    frm: str
    path: tuple
    borrow: str | None

    @classmethod
    def read(cls, value) -> "MoveStep":
        spec = mapping("move", value, {"cube": "a cube colour", "from": HEX, "path": "the nodes the cube travels to",
                                       "borrow": "an opponent's link used as yours (Low Gravitation)"},
                       required=("cube", "from", "path"))
        return cls(text("move", "cube", spec["cube"], "a cube colour"), text("move", "from", spec["from"], HEX),
                   texts("move", "path", spec["path"], HEX),
                   text("move", "borrow", spec.get("borrow"), "a link id such as L1", True))


@dataclass(frozen=True)
class SatelliteStep:
    """``satellite: {cube: red, hex: "1,-4"}`` (both optional: the chooser's agent decides)."""

    cube: str | None
    hex: str | None

    @classmethod
    def read(cls, value) -> "SatelliteStep":
        spec = mapping("satellite", value if value is not None else {}, {"cube": "a cube colour on the Satellite",
                                                                         "hex": HEX})
        return cls(text("satellite", "cube", spec.get("cube"), "a cube colour", True),
                   text("satellite", "hex", spec.get("hex"), HEX, True))


@dataclass(frozen=True)
class PhaseStep:
    """``phase: NAME`` with ``dice: [...]`` (Goods Growth) or ``cube:`` and ``hex:`` (end of turn)."""

    phase: str
    dice: tuple | None
    cube: str | None
    hex: str | None

    @classmethod
    def read(cls, step: dict) -> "PhaseStep":
        dice = step.get("dice")
        if dice is not None:
            if not isinstance(dice, list):
                raise RulesError(f"step 'phase': 'dice' is a list of numbers 1 to 6, not {kind_of(dice)}")
            dice = tuple(number("phase", "dice", d, "a die's number, 1 to 6", least=1) for d in dice)
        return cls(text("phase", "phase", step["phase"], "a phase name"), dice,
                   text("phase", "cube", step.get("cube"), "a cube colour", True),
                   text("phase", "hex", step.get("hex"), HEX, True))

    def options(self) -> dict:
        out = {"dice": list(self.dice) if self.dice is not None else None, "cube": self.cube, "hex": self.hex}
        return {k: v for k, v in out.items() if v is not None}


class MoonScenario:
    """The scenario side of the engine (mixed into ``AgeOfSteam``)."""

    def step_phase(self, game, step, scenario) -> Outcome:
        st = PhaseStep.read(step)
        self.phase(game, st.phase, **st.options())
        return Outcome("done")

    def step_build(self, game, step, scenario) -> Outcome:
        st = BuildStep.read(step["build"])
        self.build(game, scenario.player_index(step.get("player")), list(st.hexes), start=st.start, cont=st.cont)
        return Outcome("done")

    def step_action(self, game, step, scenario) -> Outcome:
        action = text("action", "action", step["action"], "the id of a special action tile")
        return self.take_action(game, scenario.player_index(step.get("player")), action)

    def step_move(self, game, step, scenario) -> Outcome:
        st = MoveStep.read(step["move"])
        self.move(game, scenario.player_index(step.get("player")), st.cube, st.frm, list(st.path), st.borrow)
        return Outcome("done")

    def step_satellite(self, game, step, scenario) -> Outcome:
        st = SatelliteStep.read(step["satellite"])
        self.satellite(game, st.cube, st.hex)
        return Outcome("done")

    def scenario_state(self, game: MoonGame, data: dict, scenario) -> None:
        """Lay out engine state from a scenario's ``game_state``; a bad entry is a located scenario error."""
        try:
            self._scenario_state(game, data, scenario)
        except Refused as exc:  # e.g. an unknown hex: the runner reports RulesError as a scenario error
            raise RulesError(f"game_state: {exc.reason}") from None

    def _scenario_state(self, game: MoonGame, data: dict, scenario) -> None:
        m = game.moon
        if "turn_order" in data:
            m.turn_order = [scenario.player_index(n) for n in data["turn_order"]]
        if "turn" in data:
            m.turn = data["turn"]
        if "sun" in data:
            if data["sun"] not in m.map.sun_spaces:
                raise RulesError(f"unknown Sun space {data['sun']!r}")
            m.sun = data["sun"]
        for spec in data.get("new_cities") or []:
            h = self.hex_of(game, spec["hex"])
            m.place_new_city(h, {"id": spec["id"], "colour": spec["colour"], "number": spec["number"]})
            m.display.setdefault(spec["id"], [])
        for spec in data.get("links") or []:
            self.build(game, scenario.player_index(spec["owner"]), spec["hexes"], start=spec.get("from"),
                       free=True)
        for ref, cubes in (data.get("cubes") or {}).items():
            m.cubes[self.hex_of(game, ref)] = list(cubes)
        for col, cubes in (data.get("display") or {}).items():
            m.display[str(col)] = list(cubes)
        if "satellite" in data:
            sat = data["satellite"]
            m.satellite_at = sat.get("at", m.satellite_at)
            m.satellite_cubes = list(sat.get("cubes", m.satellite_cubes))
        if "move_round" in data:
            m.move_round = data["move_round"]

    def scenario_expect(self, game: MoonGame, data: dict, scenario):
        """(problem, path) for each expectation of ``expect.state`` that does not hold."""
        try:
            yield from self._scenario_expect(game, data, scenario)
        except Refused as exc:  # an unknown hex named in the expectations
            yield f"cannot check the expectations: {exc.reason}", []

    def _scenario_expect(self, game: MoonGame, data: dict, scenario):
        m = game.moon
        for ref, want in (data.get("cubes") or {}).items():
            have = sorted(m.cubes.get(self.hex_of(game, ref), []))
            if have != sorted(want):
                yield f"{ref} holds cubes {have}, expected {sorted(want)}", ["cubes", ref]
        if "sun" in data and m.sun != data["sun"]:
            yield f"the Sun is on {m.sun}, expected {data['sun']}", ["sun"]
        if "turn" in data and m.turn != data["turn"]:
            yield f"the turn marker is on {m.turn}, expected {data['turn']}", ["turn"]
        if "satellite" in data:
            sat = data["satellite"]
            if "at" in sat and m.satellite_at != sat["at"]:
                yield f"the Satellite is on {m.satellite_at}, expected {sat['at']}", ["satellite", "at"]
            if "cubes" in sat:
                have = len(m.satellite_cubes) if isinstance(sat["cubes"], int) else sorted(m.satellite_cubes)
                want = sat["cubes"] if isinstance(sat["cubes"], int) else sorted(sat["cubes"])
                if have != want:
                    yield f"the Satellite holds {have} cubes, expected {want}", ["satellite", "cubes"]
        for lid, want in (data.get("links") or {}).items():
            ln = m.links.get(lid)
            if ln is None:
                yield f"there is no link {lid}", ["links", lid]
                continue
            if "owner" in want and game.players[ln.owner].name != want["owner"]:
                yield f"{lid} belongs to {game.players[ln.owner].name}", ["links", lid, "owner"]
            if "complete" in want and ln.complete != want["complete"]:
                yield f"{lid} complete={ln.complete}, expected {want['complete']}", ["links", lid, "complete"]
        if "connected" in data:
            have = sorted(self.label(game, h) for h in self.connected(game) if self.node_kind(game, h) == "city")
            if have != sorted(data["connected"]):
                yield f"Cities connected to the Landing hex: {have}, expected {sorted(data['connected'])}", ["connected"]
        if "night_cities" in data:
            have = sorted(self.label(game, h) for h in self.cities(game) if not self.is_day(game, h))
            if have != sorted(data["night_cities"]):
                yield f"night-side Cities: {have}, expected {sorted(data['night_cities'])}", ["night_cities"]
        for col, want in (data.get("display") or {}).items():
            have = len(m.display.get(str(col), []))
            if have != want:
                yield f"Goods Display column {col} holds {have} cubes, expected {want}", ["display", col]
