"""Balance from the page: a simulation run of a game's last clean build, with its progress pushed to
the page, its report (runtime/simulate.py ``render_html``) shown when done, and — given a git revision
(``REV:PATH``, as ``cardwright diff`` reads it) — the same seeds played on that revision's data and the
comparison page of ``simulate --compare`` (commands/simulating.py ``compare_runs``).

One run at a time per studio, in a thread of its own, with at most ``MAX_GAMES`` games: the machine's
time is the designer's, and a page left open should not queue up work. The form's values are checked
here (numbers in range, agents and options by the game's engine) before anything runs; a refusal is
said on the page.
"""
from __future__ import annotations

import itertools
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from .workspace import Workspace, event_name

MAX_GAMES = 10_000
MAX_PLAYERS = 8
AGENTS = ("random", "greedy", "first", "mcts")


@dataclass
class Run:
    id: int
    game: str
    games: int
    players: int
    agents: str
    seed: int
    options: dict
    compare_with: str
    generation: int  # the clean build it plays
    done: int = 0
    total: int = 0  # games to play in all (twice the games with a comparison)
    state: str = "running"  # running | done | failed
    problem: str = ""
    result: dict | None = None
    report: str = ""  # the report's HTML
    compare_report: str = ""
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)

    @property
    def event(self) -> str:
        return event_name("run", str(self.id))


class Refused(ValueError):
    """A run the form asks for that cannot start; said on the page."""


class Runs:
    def __init__(self, ws: Workspace, publish):
        self.ws = ws
        self.publish = publish
        self.runs: dict[int, Run] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def last_report(self, game: str) -> dict | None:
        done = [r for r in self.runs.values() if r.game == game and r.state == "done"]
        return done[-1].result if done else None

    def running(self) -> Run | None:
        return next((r for r in self.runs.values() if r.state == "running"), None)

    # --- starting -----------------------------------------------------------------------------------
    def start(self, game: str, form: dict) -> Run:
        from commands.common import given_options
        from runtime.simulate import SimConfig, check_config

        clean = self.ws.clean.get(game)
        if clean is None or not self.ws.snapshot.games.get(game, None) or game not in clean.result.games:
            raise Refused("this game has not built without errors: fix its errors first")
        games = _int(form, "games", 1, MAX_GAMES, 200)
        players = _int(form, "players", 2, MAX_PLAYERS, 2)
        seed = _int(form, "seed", -(2 ** 31), 2 ** 31 - 1, 0)
        agents = str(form.get("agents") or "random").strip()
        if not all(a.split(":")[0] in AGENTS for a in agents.split(",")):
            raise Refused(f"agents: one of {', '.join(AGENTS)} per seat, separated by commas")
        pairs = [p.strip() for p in str(form.get("options") or "").replace("\n", ",").split(",") if p.strip()]
        try:
            options = given_options(pairs, ())
        except Exception as exc:  # noqa: BLE001 - click's UsageProblem: its words are the refusal
            raise Refused(str(getattr(exc, "message", exc))) from None
        compare_with = str(form.get("compare") or "").strip()
        if compare_with and ":" not in compare_with:
            raise Refused("compare with: a git revision and the data's path in it, REV:PATH (e.g. HEAD:data)")
        result = clean.result
        # the build's generation names the data: runtime/simulate.py keeps a compiled game per name
        cfg = SimConfig(game, games, players, seed, agents, data=f"{self.ws.data_root}#studio-build-{clean.generation}",
                        loader=_from_build(result),
                        options=tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(options.items())))
        try:
            check_config(cfg)
        except ValueError as exc:
            raise Refused(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - the game's own setup refused (RulesError, Refused)
            raise Refused(f"{game} cannot be played so: {exc}") from None
        with self._lock:
            if self.running() is not None:
                raise Refused("a simulation is running already: wait for it to finish")
            run = Run(next(self._ids), game, games, players, agents, seed, options, compare_with, clean.generation,
                      total=games * (2 if compare_with else 1))
            self.runs[run.id] = run
        threading.Thread(target=self._play, args=(run, cfg), name=f"studio-run-{run.id}", daemon=True).start()
        return run

    def _play(self, run: Run, cfg) -> None:
        from runtime.simulate import render_html, simulate

        last = [0.0]

        def step(n: int) -> None:
            run.done += n
            now = time.perf_counter()
            if now - last[0] > 0.2 or run.done == run.total:  # a few updates a second, not one a game
                last[0] = now
                self.publish([run.event])

        try:
            run.result = simulate(cfg, progress=step)
            run.report = render_html(run.result)
            if run.compare_with:
                run.compare_report = self._compare(run, cfg, step)
            run.state = "done"
        except Refused as exc:
            run.state, run.problem = "failed", str(exc)
        except Exception as exc:  # noqa: BLE001 - a run that fails says why on the page, never kills the studio
            run.state, run.problem = "failed", f"{type(exc).__name__}: {exc}"
        run.seconds = time.perf_counter() - run.started
        self.publish([run.event])

    def _compare(self, run: Run, cfg, step) -> str:
        from commands.simulating import compare_runs
        from compiler.carddiff import git_tree

        with tempfile.TemporaryDirectory(prefix="cardwright-studio-compare-") as tmp:
            other_root = git_tree(run.compare_with, self.ws.workdir, Path(tmp) / "other")
            if isinstance(other_root, str):
                raise Refused(other_root)
            _, page = compare_runs(cfg, run.result, other_root, self.ws.data_root, run.compare_with, progress=step)
        return page

    # --- routes -------------------------------------------------------------------------------------
    def routes(self, page, game_of, not_found):
        from .app import _printed

        async def balance(request: Request):
            game = game_of(request)
            if game is None:
                return not_found(request, "no such game")
            runs = [r for r in self.runs.values() if r.game == game.id]
            return page(request, "balance.html.j2", game=game, runs=list(reversed(runs)), limits=_limits())

        async def start(request: Request):
            game = game_of(request)
            if game is None:
                return not_found(request, "no such game")
            try:
                run = self.start(game.id, await small_form(request))
            except Refused as exc:
                return page(request, "refused.html.j2", status=200, problem=str(exc))
            return page(request, "run.html.j2", game=game, run=run)

        def run_of(request: Request) -> Run | None:
            run = self.runs.get(int(request.path_params["run"]))
            return run if run is not None and run.game == request.path_params["game"] else None

        async def run_fragment(request: Request):
            run = run_of(request)
            game = game_of(request)
            if run is None or game is None:
                return HTMLResponse("", status_code=404)
            return page(request, "run.html.j2", game=game, run=run)

        async def report(request: Request):
            run = run_of(request)
            if run is None or not run.report:
                return _printed("<p>No such report.</p>", 404)
            return _printed(run.compare_report if request.path_params["which"] == "compare" else run.report)

        return [Route("/game/{game}/balance", balance),
                Route("/game/{game}/balance/run", start, methods=["POST"]),
                Route("/game/{game}/balance/run/{run:int}", run_fragment),
                Route("/game/{game}/balance/run/{run:int}/{which}.html", report)]


async def small_form(request: Request, limit: int = 16_384) -> dict:
    """An urlencoded form (what htmx posts) of at most ``limit`` bytes, as {name: first value}: no
    multipart parser is needed for a handful of short fields, and a bigger body is not read further."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused("the form is too large")
    form: dict = {}
    for k, v in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
        form.setdefault(k, v)
    return form


def _limits() -> dict:
    return {"games": MAX_GAMES, "players": MAX_PLAYERS, "agents": AGENTS}


def _int(form: dict, key: str, low: int, high: int, default: int) -> int:
    raw = str(form.get(key, "") or "").strip()
    if not raw:
        return default
    try:
        v = int(raw)
    except ValueError:
        raise Refused(f"{key}: a whole number, not '{raw[:40]}'") from None
    if not low <= v <= high:
        raise Refused(f"{key}: from {low} to {high}")
    return v


def _from_build(result):
    """A SimConfig loader that plays the studio's clean build (compiled in memory, as the studio saw it)."""
    def load(game: str, data: str):
        from runtime.engine import load_from_sources

        return load_from_sources(result.outputs, game)

    return load
