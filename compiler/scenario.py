"""Scenarios: a designer's way to try cards without Python, and the game issues' test fixtures.

A scenario file (schema: data/schema/scenario.schema.json) gives players, a starting state,
scripted answers to choices, steps, and the expected outcome. Effect steps are compiled through
the real pipeline (compiler/explain.py); card steps run the committed generated code. Problems in
the file are located diagnostics; a failed expectation is an E702 diagnostic, not an exception.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runtime.agents import FirstLegal, Scripted
from runtime.engine import CompiledGame, Outcome, engine_for
from runtime.errors import Refused, RulesError
from runtime.events import EffectRefused
from runtime.model import model_of
from runtime.words import did_you_mean

from .diagnostics import Diagnostics
from .explain import effect_function, explain_effect
from .loader import Document, load_file, path_text
from .schema import validate


@dataclass
class ScenarioRun:
    name: str
    game: Any = None
    outcomes: list = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)

    @property
    def ok(self) -> bool:
        return not self.diags.errors

    def trace(self) -> str:
        return self.game.trace_text() if self.game is not None else ""


class Scenario:
    def __init__(self, doc: Document, compiled: CompiledGame, diags: Diagnostics):
        self.doc = doc
        self.data = doc.data
        self.compiled = compiled
        self.vocab = model_of(compiled.vocab)
        self.diags = diags
        self.names: dict[str, int] = {}  # "as" names and card ids -> uid
        self.players = list(self.data["players"])
        self._fns: dict[str, Any] = {}
        self._step_path: tuple = ()
        self.match = None  # the game flow's match, begun by the first `move` step (Engine.step_move)

    # helpers used by engines' step handlers
    def err(self, message: str, path: tuple, code: str = "E701") -> None:
        line, col, src = self.doc.where(path)
        self.diags.error(code, message, file=self.doc.file, line=line, column=col, source_line=src,
                         path=path_text(path))

    def player_index(self, name: str | None) -> int:
        if name is None:
            return 0
        if name not in self.players:
            raise RulesError(f"unknown player {name!r} (players: {', '.join(self.players)})")
        return self.players.index(name)

    def opt_player(self, name: str | None) -> int | None:
        return None if name is None else self.player_index(name)

    def card_uid(self, name: str) -> int:
        if name not in self.names:
            raise RulesError(f"no card called {name!r} in the scenario's state")
        return self.names[name]

    def effect_fn(self, text: str):
        if text not in self._fns:
            ex = explain_effect(text, self.vocab, where=self.doc.file)
            if ex.diags.errors:
                path = self._step_path + ("effect",)
                for d in ex.diags.errors:
                    line, col, src = self.doc.where(path, (d.column or 1) - 1)
                    self.diags.error(d.code, d.message, file=self.doc.file, line=line, column=col,
                                     length=d.length, hint=d.hint, source_line=src, path=path_text(path))
                raise _StepFailed()
            self._fns[text] = effect_function(ex)
        return self._fns[text]

    # running
    def run(self) -> ScenarioRun:
        run = ScenarioRun(self.data.get("scenario") or Path(self.doc.file).stem, diags=self.diags)
        engine = engine_for(self.compiled)
        answers = self.data.get("answers") or {}
        agents = {}
        for name, ans in answers.items():
            if name not in self.players:
                self.err(f"answers for unknown player '{name}'", ("answers", name))
                return run
            agents[self.players.index(name)] = Scripted(ans, fallback=None)
        try:  # the options the game declares (game.yaml ``options``) and the engine's own scenario settings
            engine.match_options(self.compiled, self.data.get("options") or {}, fill=False)
        except ValueError as exc:
            option = getattr(exc, "option", None)
            self.err(f"cannot start the game: {exc}", ("options", option) if option else ("options",))
            return run
        try:
            game = engine.new_game(self.compiled, self.players, seed=self.data.get("seed", 0), agents=agents,
                                   options=self.data.get("options") or {}, setup=bool(self.data.get("setup")))
        except (RulesError, KeyError, ValueError) as exc:  # e.g. an option the game's setup rejects
            self.err(f"cannot start the game: {exc}", ("options",) if self.data.get("options") else ("game",))
            return run
        game.default_agent = FirstLegal()
        run.game = game
        try:
            self._lay_out(game)
            if self.data.get("game_state") and hasattr(engine, "scenario_state"):
                engine.scenario_state(game, self.data["game_state"], self)
        except (RulesError, KeyError) as exc:
            self.err(f"cannot set up the state: {exc}", ("state",))
            return run
        for i, step in enumerate(self.data["steps"]):
            self._step_path = ("steps", i)
            game.budget.new_move()  # a step is a move: its run-time budget starts afresh
            try:
                out = engine.step(game, step, self) or Outcome("done")
            except _StepFailed:
                return run
            except Refused as exc:
                out = Outcome("refused", exc.reason)
                game.tell(EffectRefused(None, reason=exc.reason))
            except (RulesError, KeyError, ValueError) as exc:
                self.err(f"step {i + 1} cannot run: {exc}", ("steps", i))
                return run
            except Exception as exc:  # a scripted answer missing, etc.: located, never a traceback
                self.err(f"step {i + 1} failed: {type(exc).__name__}: {exc}", ("steps", i))
                return run
            run.outcomes.append(out)
            want = step.get("expect")
            if want is not None and want != out.status:
                self.err(f"step {i + 1} expected '{want}' but was '{out.status}'"
                         + (f" ({out.reason})" if out.reason else ""), ("steps", i), "E702")
            elif want is None and out.status == "refused":
                # a refusal nobody expected is the scenario failing, not a step to pass over: the
                # designer says `expect: refused` when the refusal is the point
                self.err(f"step {i + 1} was refused ({out.reason}); add `expect: refused` if that is meant",
                         ("steps", i), "E702")
        self._check_expect(game, engine)
        return run

    def _lay_out(self, game) -> None:
        for holder, spec in (self.data.get("state") or {}).items():
            owner = None if holder == "game" else self.player_index(holder)
            if owner is not None:
                for g, n in (spec.get("goods") or {}).items():
                    game.players[owner].goods[g] = n
                game.players[owner].flags.update(spec.get("flags") or {})
            for zone, cards in (spec.get("zones") or {}).items():
                key = game.zone_key(zone, owner)
                for entry in cards:
                    entry = {"card": entry} if isinstance(entry, str) else entry
                    inst = game.create(entry["card"], key, entry.get("face", "front"), owner=owner)
                    inst.goods.update(entry.get("goods") or {})
                    inst.props.update(entry.get("props") or {})
                    self.names.setdefault(entry.get("as") or entry["card"], inst.uid)

    def _check_expect(self, game, engine) -> None:
        exp = self.data.get("expect") or {}
        for name, spec in (exp.get("players") or {}).items():
            if name not in self.players:
                self.err(f"expectation for unknown player '{name}'", ("expect", "players", name))
                continue
            p = self.players.index(name)
            self._holder(game, p, spec, ("expect", "players", name))
        if exp.get("game"):
            self._holder(game, None, exp["game"], ("expect", "game"))
        log = game.trace_text()
        for i, text in enumerate(exp.get("log_contains") or []):
            if text not in log:
                self.err(f"the trace does not contain {text!r}", ("expect", "log_contains", i), "E702")
        if exp.get("state") and hasattr(engine, "scenario_expect"):
            for problem, path in engine.scenario_expect(game, exp["state"], self):
                self.err(problem, ("expect", "state") + tuple(path), "E702")

    def _holder(self, game, p, spec, path) -> None:
        if p is not None:
            for g, n in (spec.get("goods") or {}).items():
                have = game.players[p].goods[g]
                if have != n:
                    self.err(f"{self.players[p]} has {have} {g}, expected {n}", path + ("goods", g), "E702")
            if "out" in spec and game.players[p].out != spec["out"]:
                self.err(f"{self.players[p]} out={game.players[p].out}, expected {spec['out']}", path + ("out",), "E702")
            for k, v in (spec.get("flags") or {}).items():
                if game.players[p].flags.get(k) != v:
                    self.err(f"flag {k} is {game.players[p].flags.get(k)!r}, expected {v!r}", path + ("flags", k), "E702")
        for zone, want in (spec.get("zones") or {}).items():
            try:
                cards = game.zones[game.zone_key(zone, p)]
            except RulesError as exc:
                self.err(str(exc), path + ("zones", zone))
                continue
            if isinstance(want, int):
                if len(cards) != want:
                    self.err(f"{zone} holds {len(cards)} cards, expected {want}", path + ("zones", zone), "E702")
            else:
                ids = [game.instances[u].card_id for u in cards]
                if ids != list(want):
                    self.err(f"{zone} holds {ids}, expected {list(want)}", path + ("zones", zone), "E702")

    # checking names before anything runs --------------------------------------------------------
    def check(self) -> bool:
        """Every name of the scenario against the game (``check_names``). True when all are known."""
        return check_names(self.doc, model_of(self.compiled.vocab), set(self.compiled.cards),
                           engine_for(self.compiled), self.diags)


def check_names(doc: Document, model, cards, engine, diags: Diagnostics) -> bool:
    """Every name of the scenario — players, Goods, zones, cards, step keys — against the game, as
    located E201 errors with "did you mean". True when all are known. Without this an expectation on
    an undeclared Good would compare against a default 0 and pass. ``run`` calls it with the compiled
    game; ``validate``/``build`` (``check_scenarios``) and the language server with the game as
    checked (``cards``: compiler/cardids.py's ids, which accept any name while a module is broken)."""
    data = doc.data
    before = len(diags)
    goods, zones = set(model.goods), set(model.zones)
    players = set(data["players"])

    def err(message: str, path: tuple) -> None:
        line, col, src = doc.where(path)
        diags.error("E701", message, file=doc.file, line=line, column=col, source_line=src, path=path_text(path))

    def known(path: tuple, name, what: str, choices) -> bool:
        if name in choices:
            return True
        line, col, src = doc.where(path)
        kp = doc.key_positions.get(path)
        if kp is not None:  # a mapping key: point at the key itself
            line, col, src = kp.line + 1, kp.column + 1, doc.source_line(kp.line)
        diags.error("E201", f"unknown {what} '{name}'", file=doc.file, line=line, column=col,
                    length=len(str(name)), source_line=src, path=path_text(path),
                    hint=did_you_mean(str(name), [str(c) for c in choices]))
        return False

    def holder(path: tuple, spec: dict, player: bool) -> None:
        for g in (spec.get("goods") or {}) if player else ():
            known(path + ("goods", g), g, "good", goods)
        for z, entries in (spec.get("zones") or {}).items():
            known(path + ("zones", z), z, "zone", zones)
            for j, entry in enumerate(entries if isinstance(entries, list) else ()):
                card = entry if isinstance(entry, str) else \
                    entry.get("card") if isinstance(entry, dict) else None
                if isinstance(card, str):
                    where = path + ("zones", z, j) + (() if isinstance(entry, str) else ("card",))
                    known(where, card, "card", cards)

    for name, spec in (data.get("state") or {}).items():
        if known(("state", name), name, "player", players | {"game"}):
            holder(("state", name), spec, name != "game")
    for name in data.get("answers") or {}:
        known(("answers", name), name, "player", players)
    exp = data.get("expect") or {}
    for name, spec in (exp.get("players") or {}).items():
        if known(("expect", "players", name), name, "player", players):
            zones_named = {z: [] for z in spec.get("zones") or {}}  # a count or a list: only the names
            holder(("expect", "players", name), {**spec, "zones": zones_named}, True)
    if exp.get("game"):
        holder(("expect", "game"), {"zones": {z: [] for z in exp["game"].get("zones") or {}}}, False)
    actions, options = engine.step_words()
    for i, step in enumerate(data["steps"]):
        misspelt = [key for key in step if not known(("steps", i, key), key, "step key", actions | options)]
        if not misspelt and not any(k in actions for k in step):  # else it follows from the misspelt key
            err(f"step {i + 1} says nothing to do: it needs one of {', '.join(sorted(actions))}", ("steps", i))
        for key in ("player", "opponent"):
            if isinstance(step.get(key), str):
                known(("steps", i, key), step[key], "player", players)
    return len(diags) == before


class _StepFailed(Exception):
    pass


def scenario_files(game_dir: Path) -> list[Path]:
    """The scenario files of a game folder, in name order (what ``watch`` re-runs, what ``validate``
    and ``build`` check)."""
    return sorted((game_dir / "scenarios").glob("*.yaml"))


def check_scenarios(game_dirs: list[Path], games: dict, failed: set[str], diags: Diagnostics) -> None:
    """``validate`` and ``build``: load every scenario file of every game folder and check its names
    with ``check_names`` — what ``run`` checks before it plays a scenario, against the game as this
    build checked it (``games``: id -> GameBuild; ``failed``: the folder names of games whose
    game.yaml could not be read, whose scenarios are not judged: that error is already reported).
    Playing them is ``run``'s (and ``watch``'s) job."""
    from runtime.engine import ENGINES

    for game_dir in game_dirs:
        for path in scenario_files(game_dir):
            doc = load_file(path, diags)
            if doc is None or not validate(doc, "scenario", diags):
                continue
            name = doc.data["game"]
            gb = games.get(name)
            if gb is None or gb.vocab is None:
                if name in failed or (name == game_dir.name and game_dir.name in failed):
                    continue
                line, col, src = doc.where(("game",))
                diags.error("E701", f"cannot load game '{name}': no such game in the data folder", file=doc.file,
                            line=line, column=col, source_line=src,
                            hint=did_you_mean(str(name), list(games)))
                continue
            check_names(doc, gb.vocab, gb.card_ids, ENGINES[gb.vocab.engine], diags)


def load_scenario(path: Path, compiled_for, diags: Diagnostics) -> Scenario | None:
    """Load and validate a scenario file; ``compiled_for(game)`` returns the CompiledGame."""
    doc = load_file(path, diags)
    if doc is None or not validate(doc, "scenario", diags):
        return None
    try:
        compiled = compiled_for(doc.data["game"])
    except LookupError as exc:
        line, col, src = doc.where(("game",))
        diags.error("E701", f"cannot load game '{doc.data['game']}': {exc}", file=doc.file, line=line,
                    column=col, source_line=src)
        return None
    if compiled is None:
        return None
    scenario = Scenario(doc, compiled, diags)
    return scenario if scenario.check() else None
