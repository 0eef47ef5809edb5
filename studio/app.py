"""The studio's web application: routes over the workspace, the printed matter, the balance runs and
the tables in play. A thin layer: every page is made by a function of compiler/, runtime/ or the
studio's own modules, and every route only looks things up and renders a template.

Two kinds of document are served, with two policies:

- the studio's **pages** (templates under studio/templates/), which run the vendored htmx and nothing
  else (studio/guard.py ``PAGE_CSP``); every value from the data is escaped by jinja2's autoescape;
- the **printed matter** (card faces, references, simulation reports), cardwright's own documents,
  served with the printed pages' policy (no script, nothing fetched: compiler/reference.py ``CSP``)
  and shown in ``<iframe sandbox>`` frames without scripts, so a designer's card template can write
  any HTML and none of it runs.
"""
from __future__ import annotations

import asyncio
import os
from pathlib import Path
from urllib.parse import quote

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from . import cardpage, printed
from .guard import Guard
from .workspace import Workspace

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
# the studio's own assets: a fixed list, so no request names a file of its own choosing here
ASSETS = {"htmx.min.js": "text/javascript", "htmx-ext-sse.min.js": "text/javascript",
          "studio.css": "text/css", "LICENSE-htmx.txt": "text/plain"}
MM = 96 / 25.4  # CSS pixels per millimetre


class Hub:
    """Fans the workspace's events (and the balance runs' and tables') out to every open page."""

    def __init__(self):
        self._queues: set = set()

    def publish(self, names: list[str]) -> None:
        for loop, queue in list(self._queues):
            loop.call_soon_threadsafe(queue.put_nowait, names)

    def subscribe(self):
        entry = (asyncio.get_running_loop(), asyncio.Queue())
        self._queues.add(entry)
        return entry

    def unsubscribe(self, entry) -> None:
        self._queues.discard(entry)


def make_app(ws: Workspace, token: str, hosts: set[str]):
    """The ASGI application: the Guard (token, Host, Origin) in front of the routes."""
    from .balance import Runs
    from .play import Tables

    hub = Hub()
    ws.listen(hub.publish)
    runs = Runs(ws, hub.publish)
    tables = Tables(ws, hub.publish)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["q"] = lambda s: quote(str(s), safe="")
    env.filters["marked"] = printed.marked
    from compiler.cardsheet import SheetSpec

    pw, ph = SheetSpec().png_page
    env.globals["face_px"] = {"w": round(pw * MM), "h": round(ph * MM)}

    def page(request: Request, name: str, status: int = 200, **ctx) -> HTMLResponse:
        snap = ws.snapshot
        base = request.scope.get("root_path", "")
        html = env.get_template(name).render(base=base, faces=faces_base(request, base), snap=snap, ws=ws, **ctx)
        return HTMLResponse(html, status_code=status)

    def faces_base(request: Request, base: str) -> str:
        """Where the card faces are fetched from: the studio's other name (localhost for a page opened
        as 127.0.0.1, and the other way round). A browser opens at most six connections to one host;
        a gallery scrolled to new cards asks for a hundred faces at once, and the live updates (a
        tile, the status line) must not wait behind them. Both names are the same server, behind the
        same Guard; the page's policy lets it frame both (studio/guard.py)."""
        host = request.headers.get("host", "")
        name, _, port = host.rpartition(":")
        other = {"127.0.0.1": "localhost", "localhost": "127.0.0.1"}.get(name)
        return f"http://{other}:{port}{base}" if other else base

    def game_or_404(request: Request):
        """The game the path names in the current snapshot, or None (the route answers 404)."""
        return ws.snapshot.games.get(request.path_params["game"])

    def not_found(request: Request, what: str) -> HTMLResponse:
        return page(request, "missing.html.j2", status=404, what=what)

    async def index(request: Request):
        return page(request, "index.html.j2")

    async def asset(request: Request):
        name = request.path_params["name"]
        if name not in ASSETS:
            return PlainTextResponse("no such asset", status_code=404)
        return Response((STATIC / name).read_bytes(), media_type=ASSETS[name])

    async def events(request: Request):
        entry = hub.subscribe()

        async def stream():
            try:
                yield "retry: 1000\n\n"
                while True:
                    try:
                        names = await asyncio.wait_for(entry[1].get(), timeout=15)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
                        continue
                    gen = ws.snapshot.generation
                    yield "".join(f"event: {n}\ndata: {gen}\n\n" for n in names)
            finally:
                hub.unsubscribe(entry)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    async def status(request: Request):
        return page(request, "status.html.j2")

    async def gallery(request: Request):
        game = game_or_404(request)
        if game is None:
            return not_found(request, f"no game '{request.path_params['game']}'")
        return page(request, "gallery.html.j2", game=game)

    async def problems(request: Request):
        game = game_or_404(request)
        if game is None:
            return Response(status_code=404)
        return page(request, "problems.html.j2", game=game)

    async def tile(request: Request):
        game = game_or_404(request)
        card = game.cards.get(request.path_params["card"]) if game is not None else None
        if card is None:  # the card is gone: the tile replaces itself with nothing
            return HTMLResponse("")
        return page(request, "tile.html.j2", game=game, card=card)

    def _card_ctx(game, card):
        clean = ws.clean.get(game.id)
        view = printed.card_view(clean, game.id, card.id) if clean is not None else None
        details = cardpage.card_page(card, game.folder, clean, runs.last_report(game.id))
        return {"game": game, "card": card, "view": view, "details": details, "clean": clean}

    async def card(request: Request):
        game = game_or_404(request)
        card = game.cards.get(request.path_params["card"]) if game is not None else None
        if card is None:
            return not_found(request, f"no card '{request.path_params['card']}'")
        ctx = await asyncio.to_thread(_card_ctx, game, card)
        return page(request, "card.html.j2", **ctx)

    async def card_panel(request: Request):
        game = game_or_404(request)
        card = game.cards.get(request.path_params["card"]) if game is not None else None
        if card is None:
            return HTMLResponse('<p class="gone">This card is no longer in the data.</p>')
        ctx = await asyncio.to_thread(_card_ctx, game, card)
        return page(request, "card_panel.html.j2", **ctx)

    async def face(request: Request):
        game = game_or_404(request)
        clean = ws.clean.get(game.id) if game is not None else None
        if clean is None:
            return _printed("<p>This game has not built without errors yet: nothing to print.</p>", 404)
        try:
            html = await asyncio.to_thread(printed.face_document, clean, game.id, request.path_params["card"],
                                           request.query_params.get("side") == "back")
        except printed.NotRendered as exc:
            return _printed(f"<p>{jinja2.utils.markupsafe.escape(str(exc))}</p>", 404)
        return _printed(html)

    async def reference(request: Request):
        game = game_or_404(request)
        if game is None:
            return not_found(request, f"no game '{request.path_params['game']}'")
        audience = request.query_params.get("audience", "players")
        if audience not in printed.AUDIENCES:
            audience = "players"
        return page(request, "reference.html.j2", game=game, audience=audience)

    async def reference_doc(request: Request):
        game = game_or_404(request)
        clean = ws.clean.get(game.id) if game is not None else None
        if clean is None:
            return _printed("<p>This game has not built without errors yet.</p>", 404)
        try:
            html = await asyncio.to_thread(printed.reference_document, clean, game.id,
                                           request.path_params["audience"], ws.data_root)
        except printed.NotRendered as exc:
            return _printed(f"<p>{jinja2.utils.markupsafe.escape(str(exc))}</p>", 404)
        return _printed(html)

    async def game_file(request: Request):
        """A file of the game folder as text with line numbers (what a diagnostic points at)."""
        game = game_or_404(request)
        if game is None:
            return not_found(request, "no such game")
        path = inside(game.folder, request.path_params["path"])
        if path is None:
            return PlainTextResponse("refused: only files inside the game's folder are served", status_code=403)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return not_found(request, "no such file")
        rel = path.relative_to(os.path.realpath(game.folder)).as_posix()
        return page(request, "file.html.j2", game=game, rel=rel, lines=list(enumerate(text.splitlines(), 1)))

    routes = [
        Route("/", index),
        Route("/static/{name}", asset),
        Route("/events", events),
        Route("/status", status),
        Route("/game/{game}/", gallery),
        Route("/game/{game}/problems", problems),
        Route("/game/{game}/tile/{card}", tile),
        Route("/game/{game}/card/{card}", card),
        Route("/game/{game}/card/{card}/panel", card_panel),
        Route("/game/{game}/face/{card}", face),
        Route("/game/{game}/reference", reference),
        Route("/game/{game}/reference/{audience}.html", reference_doc),
        Route("/game/{game}/file/{path:path}", game_file),
        *runs.routes(page, game_or_404, not_found),
        *tables.routes(page, game_or_404, not_found),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub
    app.state.runs = runs
    app.state.tables = tables
    return Guard(app, token, hosts)


def _printed(html: str, status: int = 200) -> HTMLResponse:
    """cardwright's printed matter: the printed pages' policy, whatever the document says."""
    from compiler.reference import CSP

    return HTMLResponse(html, status_code=status, headers={"content-security-policy": CSP + "; sandbox"})


def inside(folder: Path, rel: str) -> Path | None:
    """``folder/rel`` when it resolves (links followed) to a regular file inside ``folder``, else None."""
    root = os.path.realpath(folder)
    target = os.path.realpath(os.path.join(root, rel))
    if not target.startswith(root + os.sep) or not os.path.isfile(target):
        return None
    return Path(target)

