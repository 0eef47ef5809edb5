"""Play from the page: a game against bots through the one game protocol (runtime/protocol.py), as
``cardwright play`` plays it in the terminal — the same engine calls (``new_match``, ``to_act``,
``legal_moves``, ``apply``), the same table (runtime/tableview.py ``table_view``), the same words for
options and questions (runtime/terminal.py ``option_label``, ``game_over``) — with the person's seat
taken by a ``BrowserAgent`` instead of the terminal's.

The game runs in a thread of its own. When it is the person's turn (a move, or a choice inside an
effect: "choose 1 card …"), the agent posts a ``Question`` and waits; the page shows it as buttons
(checkboxes where several are chosen), and the answer the page posts is checked against the question
(numbers in range, no repeats, as many as asked) before the game goes on. Each table is bounded: at
most ``MAX_TABLES`` at once, a person who does not answer within ``ANSWER_SECONDS`` leaves the game
stopped, and a finished or stopped table's thread ends.
"""
from __future__ import annotations

import base64
import itertools
import queue
import threading
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from runtime.agents import Agent

from .balance import Refused, small_form
from .workspace import Workspace, event_name

MAX_TABLES = 4
ANSWER_SECONDS = 3600
BOTS = ("random", "greedy", "first", "mcts")


class Stopped(Exception):
    """The person stopped the game (or never answered)."""


@dataclass
class Choice:
    label: str
    card: str | None = None  # card id: its text is shown beside it
    text: list[str] = field(default_factory=list)
    done: bool = False  # "choose no more" of an "up to" question


@dataclass
class Question:
    number: int  # the table's count of questions: an answer names the question it answers
    prompt: str
    choices: list[Choice]
    k: int = 1
    low: int = 1


class BrowserAgent(Agent):
    """The person in the browser: each decision is a Question on the table, answered from the page."""

    name = "browser"

    def __init__(self, table: "Table"):
        self.table = table

    def __deepcopy__(self, memo):  # a bot's trial copies the game, never the person
        return self

    def pick(self, match, moves):
        return self._ask(match.game, list(moves), "your move", 1, 1)[0]

    def choose_move(self, game, player, moves):
        return self._ask(game, list(moves), "your move", 1, 1)[0]

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        from runtime.terminal import _question

        return self._ask(game, list(options), _question(game, prompt), k, k if low is None else low)

    def _ask(self, game, values: list, prompt: str, k: int, low: int) -> list:
        from runtime.tableview import card_of, card_text
        from runtime.terminal import option_label

        seat = self.table.seat
        choices = []
        for v in values:
            card = card_of(game, v)
            choices.append(Choice(option_label(game, v, seat), card, card_text(game, card) if card else []))
        if low < k:
            choices.append(Choice("done (choose no more)", done=True))
        picks = self.table.ask(game, prompt, choices, k, low)
        return [values[i] for i in picks if not choices[i].done]


@dataclass
class Table:
    id: int
    game: str
    players: int
    bots: str
    seed: int
    seat: int = 0
    state: str = "starting"  # starting | waiting (for you) | playing | over | stopped | failed
    question: Question | None = None
    view: object = None  # runtime/tableview.TableView as the person last saw it
    board: str = ""  # the engine's drawing of the board (Engine.board_svg) as a data: URI, or ""
    trace: list[str] = field(default_factory=list)
    outcome: str = ""
    problem: str = ""
    stand_ins: list = field(default_factory=list)
    moves: int = 0
    _answers: queue.Queue = field(default_factory=queue.Queue)
    _numbers: itertools.count = field(default_factory=lambda: itertools.count(1))
    publish: object = None

    @property
    def event(self) -> str:
        return event_name("table", str(self.id))

    def snapshot(self, game, to_act: int | None) -> None:
        from runtime.tableview import table_view

        self.view = table_view(game, self.seat, to_act)
        self.trace = [str(ev) for ev in game.log]
        svg = game.engine.board_svg(game, self.seat) if game.engine is not None else None
        # as an image: an SVG in an <img> runs nothing and fetches nothing, whatever text it carries
        self.board = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode() if svg else ""

    def ask(self, game, prompt: str, choices: list[Choice], k: int, low: int) -> list[int]:
        self.snapshot(game, self.seat)
        self.question = Question(next(self._numbers), prompt, choices, k, low)
        self.state = "waiting"
        self.publish([self.event])
        try:
            answer = self._answers.get(timeout=ANSWER_SECONDS)
        except queue.Empty:
            answer = None
        self.question = None
        if answer is None:
            raise Stopped()
        self.state = "playing"
        return answer

    def answer(self, number: int, picks: list[int]) -> None:
        """The page's answer to question ``number``: Refused unless it answers the open question."""
        q = self.question
        if q is None or q.number != number or self.state != "waiting":
            raise Refused("that question is no longer asked (the game has moved on)")
        if len(set(picks)) != len(picks) or not all(0 <= i < len(q.choices) for i in picks):
            raise Refused("choose among the options shown, each once")
        done = [i for i in picks if q.choices[i].done]
        real = [i for i in picks if not q.choices[i].done]
        if done and (len(done) > 1 or not q.choices[picks[-1]].done):
            raise Refused("'done' is chosen alone or last")
        if not (q.low <= len(real) <= q.k):
            need = f"{q.k}" if q.low == q.k else f"{q.low} to {q.k}"
            raise Refused(f"choose {need}")
        self.state = "playing"
        self._answers.put(real)

    def stop(self) -> None:
        if self.state in ("over", "stopped", "failed"):
            return
        self.state = "stopped"
        self._answers.put(None)


class Tables:
    def __init__(self, ws: Workspace, publish):
        self.ws = ws
        self.publish = publish
        self.tables: dict[int, Table] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def open(self, game: str, form: dict) -> Table:
        from runtime.engine import engine_for, load_from_sources
        from runtime.simulate import agent_list

        from .balance import _int

        clean = self.ws.clean.get(game)
        if clean is None or game not in clean.result.games:
            raise Refused("this game has not built without errors: fix its errors first")
        compiled = load_from_sources(clean.result.outputs, game)
        eng = engine_for(compiled)
        why_not = eng.playable(compiled)
        if why_not:
            raise Refused(why_not)
        players = _int(form, "players", 2, 6, 2)
        seed = _int(form, "seed", 0, 2 ** 31 - 1, 0)
        bots = str(form.get("bots") or "greedy").strip()
        if not all(b.split(":")[0] in BOTS for b in bots.split(",")):
            raise Refused(f"bots: one of {', '.join(BOTS)} per seat, separated by commas")
        try:
            kinds = agent_list(bots, players - 1, eng)
            eng.check_players(compiled, players)
        except Exception as exc:  # noqa: BLE001 - ValueError, RulesError: the engine's words
            raise Refused(str(exc)) from None
        with self._lock:
            live = [t for t in self.tables.values() if t.state in ("starting", "waiting", "playing")]
            if len(live) >= MAX_TABLES:
                raise Refused(f"{MAX_TABLES} games are under way: stop one first")
            table = Table(next(self._ids), game, players, bots, seed, publish=self.publish)
            self.tables[table.id] = table
        threading.Thread(target=self._play, args=(table, compiled, eng, kinds), name=f"studio-table-{table.id}",
                         daemon=True).start()
        return table

    def _play(self, table: Table, compiled, eng, kinds: list[str]) -> None:
        from runtime.standins import stand_ins
        from runtime.terminal import game_over

        you = table.seat
        try:
            agents = {s: eng.make_agent(kinds[i]) for i, s in enumerate(x for x in range(table.players) if x != you)}
            agents[you] = BrowserAgent(table)
            names = ["You" if s == you else f"Bot {s + 1}" for s in range(table.players)]
            table.stand_ins = stand_ins(compiled)
            options = eng.match_options(compiled, {})
            match = eng.new_match(compiled, names, seed=table.seed, agents=agents, options=options)
            table.state = "playing"
            while not match.terminal():
                if table.state == "stopped":
                    raise Stopped()
                who = match.to_act()
                moves = match.legal_moves()
                move = agents[who].pick(match, moves)
                match.apply(move)
                table.moves += 1
            table.snapshot(match.game, None)
            table.outcome = game_over(match.game, match.result(), you)
            table.state = "over"
        except Stopped:
            table.state = "stopped"
        except Exception as exc:  # noqa: BLE001 - a game that fails says why on the page
            table.state, table.problem = "failed", f"{type(exc).__name__}: {exc}"
        self.publish([table.event])

    # --- routes -------------------------------------------------------------------------------------
    def routes(self, page, game_of, not_found):
        def table_of(request: Request) -> Table | None:
            t = self.tables.get(int(request.path_params["table"]))
            return t if t is not None and t.game == request.path_params["game"] else None

        async def lobby(request: Request):
            game = game_of(request)
            if game is None:
                return not_found(request, "no such game")
            tables = [t for t in self.tables.values() if t.game == game.id]
            return page(request, "play.html.j2", game=game, tables=list(reversed(tables)), bots=BOTS)

        async def open_table(request: Request):
            game = game_of(request)
            if game is None:
                return not_found(request, "no such game")
            try:
                table = self.open(game.id, await small_form(request))
            except Refused as exc:
                return page(request, "refused.html.j2", problem=str(exc))
            return HTMLResponse("", headers={"HX-Redirect": f"{request.scope['root_path']}/game/"
                                                            f"{request.path_params['game']}/play/{table.id}"})

        async def show(request: Request):
            game, table = game_of(request), table_of(request)
            if game is None or table is None:
                return not_found(request, "no such table")
            return page(request, "table.html.j2", game=game, table=table)

        async def fragment(request: Request):
            game, table = game_of(request), table_of(request)
            if game is None or table is None:
                return HTMLResponse("", status_code=404)
            return page(request, "table_body.html.j2", game=game, table=table)

        async def answer(request: Request):
            game, table = game_of(request), table_of(request)
            if game is None or table is None:
                return HTMLResponse("", status_code=404)
            try:
                form = await small_form_all(request)
                number = int((form.get("question") or ["0"])[0])
                picks = [int(v) for v in form.get("pick", [])]
                table.answer(number, picks)
            except ValueError as exc:  # Refused is a ValueError; int() of a non-number too
                return page(request, "refused.html.j2", problem=str(exc) if isinstance(exc, Refused)
                            else "answer with the options shown")
            return HTMLResponse("")  # the game's next state arrives as the table's event

        async def stop(request: Request):
            table = table_of(request)
            if table is None:
                return HTMLResponse("", status_code=404)
            table.stop()
            self.publish([table.event])
            return HTMLResponse("")

        return [Route("/game/{game}/play", lobby),
                Route("/game/{game}/play/new", open_table, methods=["POST"]),
                Route("/game/{game}/play/{table:int}", show),
                Route("/game/{game}/play/{table:int}/body", fragment),
                Route("/game/{game}/play/{table:int}/answer", answer, methods=["POST"]),
                Route("/game/{game}/play/{table:int}/stop", stop, methods=["POST"])]


async def small_form_all(request: Request, limit: int = 16_384) -> dict[str, list[str]]:
    """Like balance.small_form, keeping every value of a repeated field (the checked boxes)."""
    from urllib.parse import parse_qsl

    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused("the form is too large")
    form: dict[str, list[str]] = {}
    for k, v in parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True):
        form.setdefault(k, []).append(v)
    return form
