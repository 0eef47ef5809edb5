"""The studio's server without a browser (issue 29): who it refuses, what it serves, what it escapes.

One studio serves a writable copy of the bundled games for the module; each test talks HTTP to it
over the loopback, as a browser (or another local program) would. The browser tests are in
tests/test_studio_browser.py.
"""
from __future__ import annotations

import re
import shutil
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from studio.server import Studio  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

HOSTILE = """\
  - id: hostile_card
    kind: consumable
    name: "<script>window.pwned=1</script><img src=x onerror=alert(1)>"
    source: example
    count: 1
    sockets: {left: steam_pipe, right: steam_pipe, top: universal, bottom: steam_pipe}
    effect: "draw 1 card"
"""


def _get(url: str, method: str = "GET", **headers) -> tuple[int, dict, str]:
    req = urllib.request.Request(url, method=method, headers=headers, data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    data = tmp_path_factory.mktemp("studio") / "data"
    shutil.copytree(ROOT / "data", data)
    cards = data / "infernal_contraption" / "example_deck.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").rstrip("\n") + "\n" + HOSTILE, encoding="utf-8")
    (data / "secret.txt").write_text("outside every game folder", encoding="utf-8")
    (data / "infernal_contraption" / "notes.txt").symlink_to(data / "secret.txt")
    s = Studio(data)
    s.start_in_thread()
    yield s
    s.stop()


def test_the_address_is_loopback_with_a_token(studio):
    assert re.fullmatch(r"http://127\.0\.0\.1:[0-9]+/[0-9a-f]{32}/", studio.url)
    status, _, body = _get(studio.url)
    assert status == 200 and "Infernal Contraption" in body


def test_bound_to_127_0_0_1_only(studio):
    """Another loopback address (127.0.0.2) reaches a server bound to 0.0.0.0 or to all of 127/8, not
    one bound to 127.0.0.1 alone."""
    with socket.socket() as s:
        s.settimeout(5)
        assert s.connect_ex(("127.0.0.2", studio.port)) != 0


@pytest.mark.parametrize("path", ["", "/", "/static/htmx.min.js", "/events", "/game/infernal_contraption/"])
def test_without_the_token_everything_is_refused(studio, path):
    status, _, body = _get(f"http://127.0.0.1:{studio.port}{path}")
    assert status == 403 and "token" in body
    wrong = "0" * len(studio.token)
    status, _, _ = _get(f"http://127.0.0.1:{studio.port}/{wrong}{path}")
    assert status == 403


def test_a_token_in_the_query_instead_of_the_path_is_refused(studio):
    status, _, _ = _get(f"http://127.0.0.1:{studio.port}/?token={studio.token}")
    assert status == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost", ""])
def test_a_foreign_host_header_is_refused(studio, host):
    """DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends Host: evil.example."""
    status, _, _ = _get(studio.url, Host=host.format(port=studio.port))
    assert status == 421
    status, _, _ = _get(studio.url, Host=f"localhost:{studio.port}")
    assert status == 200


def test_a_post_from_another_origin_is_refused(studio):
    status, _, body = _get(studio.url + "game/infernal_contraption/balance/run", method="POST",
                           Origin="https://evil.example")
    assert status == 403 and "another site" in body


def test_pages_carry_a_policy_that_runs_only_the_studios_own_scripts(studio):
    status, headers, body = _get(studio.url + "game/infernal_contraption/")
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-eval" not in csp and "unsafe-inline'" not in csp.split(
        "script-src")[1].split(";")[0]
    assert headers["referrer-policy"] == "no-referrer"
    # scripts only from the studio's own assets: no CDN, the page works offline
    srcs = re.findall(r'<script[^>]*src="([^"]+)"', body)
    assert srcs and all(s.startswith(f"/{studio.token}/static/") for s in srcs)
    assert not re.search(r"<script(?![^>]*src=)", body), "no inline script"
    # nothing from elsewhere: the only absolute addresses are the studio's own other name (the faces)
    assert "https://" not in body
    assert set(re.findall(r"http://[^/\"]+", body)) == {f"http://localhost:{studio.port}"}
    assert f"frame-src 'self' http://127.0.0.1:{studio.port} http://localhost:{studio.port};" in csp


def test_printed_matter_is_served_without_scripts_in_sandboxed_frames(studio):
    status, headers, body = _get(studio.url + "game/infernal_contraption/face/entropic_processor")
    assert status == 200 and "Entropic Processor" in body
    csp = headers["content-security-policy"]
    assert "default-src 'none'" in csp and "sandbox" in csp and "script-src" not in csp
    _, _, gallery = _get(studio.url + "game/infernal_contraption/")
    frames = re.findall(r"<iframe[^>]*>", gallery)
    assert frames and all('sandbox=""' in f for f in frames)


def test_only_the_studios_own_assets_are_served(studio):
    assert _get(studio.url + "static/htmx.min.js")[0] == 200
    for name in ["../app.py", "..%2Fapp.py", "guard.py", "studio.css.bak"]:
        assert _get(studio.url + "static/" + name)[0] == 404


@pytest.mark.parametrize("rel", ["..%2Fsecret.txt", "../secret.txt", "%2Fetc%2Fpasswd", "notes.txt",
                                 "..%2F..%2F..%2F..%2Fetc%2Fpasswd"])
def test_no_file_outside_the_game_folder_is_served(studio, rel):
    status, _, body = _get(studio.url + "game/infernal_contraption/file/" + rel)
    assert status in (403, 404)
    assert "outside every game folder" not in body and "root:" not in body


def test_a_file_of_the_game_folder_is_shown_with_line_numbers(studio):
    status, _, body = _get(studio.url + "game/infernal_contraption/file/cards.yaml")
    assert status == 200 and 'id="L1"' in body and "entropic_processor" in body


def test_every_card_has_a_tile_in_its_games_gallery(studio):
    ws = studio.workspace
    for game in ["infernal_contraption", "age_of_steam", "fifty_first_state"]:
        status, _, body = _get(studio.url + f"game/{game}/")
        assert status == 200
        shown = set(re.findall(r'data-card="([^"]+)"', body))
        result = ws.snapshot.result
        expected = {rec["id"] for doc in result.games[game].modules.values()
                    for rec in (doc.data.get("cards") or [])}
        assert expected and shown == expected, game


def test_data_text_is_escaped_never_markup(studio):
    """A card named with HTML: shown as its characters on the gallery, the card page and the face."""
    for path in ["game/infernal_contraption/", "game/infernal_contraption/card/hostile_card",
                 "game/infernal_contraption/face/hostile_card"]:
        status, _, body = _get(studio.url + path)
        assert status == 200, path
        assert "<script>window.pwned" not in body and "<img src=x" not in body, path
        assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in body, path


def test_the_card_page_shows_yaml_english_python_and_mentions(studio):
    status, _, body = _get(studio.url + "game/infernal_contraption/card/entropic_processor")
    assert status == 200
    assert re.search(r'<span class="ln">\s*5</span>\s+- id: entropic_processor', body)
    assert "Give 1 card from your Hand to your opponent" in body
    assert "def entropic_processor__effect(ctx):" in body
    assert "scenarios/entropic_processor_no_card.yaml" in body


def test_the_live_stream_says_which_card_changed(studio):
    """Server-Sent Events: after a save, the changed card's event (a hash, not its id) arrives."""
    ws = studio.workspace
    snap = ws.snapshot.games["infernal_contraption"]
    card = snap.cards["scrap_magnet"]
    seen: list[str] = []
    ws.listen(seen.extend)
    try:
        text = card.path.read_text(encoding="utf-8")
        card.path.write_text(text.replace('effect: "take 2 cards from scrap pile"',
                                          'effect: "take 2 cards from scarp pile"'), encoding="utf-8")
        deadline = time.time() + 20
        while card.event not in seen and time.time() < deadline:
            time.sleep(0.05)
        assert card.event in seen
        diags = ws.snapshot.games["infernal_contraption"].diags("scrap_magnet")
        assert diags and diags[0].code.startswith("E") and diags[0].line is not None
        status, _, tile = _get(studio.url + "game/infernal_contraption/tile/scrap_magnet")
        assert "scarp" in tile and 'role="alert"' in tile
        seen.clear()
        card.path.write_text(text, encoding="utf-8")
        deadline = time.time() + 20
        while card.event not in seen and time.time() < deadline:
            time.sleep(0.05)
        assert not ws.snapshot.games["infernal_contraption"].diags("scrap_magnet")
    finally:
        ws.unlisten(seen.extend)
        card.path.write_text(text, encoding="utf-8")
    assert all(re.fullmatch(r"status|e[0-9a-f]{16}", n) for n in seen)



def _post(url: str, fields: dict, port: int) -> tuple[int, str]:
    from urllib.parse import urlencode

    req = urllib.request.Request(url, method="POST", data=urlencode(fields, doseq=True).encode(),
                                 headers={"Origin": f"http://127.0.0.1:{port}",
                                          "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status, r.read().decode()


@pytest.mark.parametrize("fields, words", [
    ({"games": "0"}, "games: from 1 to 10000"),
    ({"games": "99999999"}, "games: from 1 to 10000"),
    ({"games": "ten"}, "games: a whole number"),
    ({"agents": "__import__('os')"}, "agents: one of"),
    ({"options": "nonsense"}, "declares no options"),
    ({"compare": "HEAD"}, "REV:PATH"),
])
def test_a_simulation_the_form_cannot_ask_for_is_refused_in_words(studio, fields, words):
    status, body = _post(studio.url + "game/infernal_contraption/balance/run", fields, studio.port)
    assert status == 200 and 'role="alert"' in body and words in body, body
    assert studio.workspace is not None and not any(
        r.state == "running" for r in _runs(studio).runs.values())


def _runs(studio):
    """The studio's balance runs (the application behind the Guard)."""
    return studio._server.config.app.app.state.runs


def _wait_done(studio, run_id: int, seconds: float = 120):
    deadline = time.time() + seconds
    run = _runs(studio).runs[run_id]
    while run.state == "running" and time.time() < deadline:
        time.sleep(0.1)
    return run


def test_a_simulation_against_a_git_revision_plays_the_same_seeds_on_both(tmp_path, monkeypatch):
    """The data committed, then a card changed: the comparison names the change and the same seeds."""
    import subprocess

    data = tmp_path / "data"
    shutil.copytree(ROOT / "data" / "infernal_contraption", data / "infernal_contraption")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "data"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "before"], cwd=tmp_path, check=True)
    deck = data / "infernal_contraption" / "example_deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace('effect: "draw 3 cards"', 'effect: "draw 1 card"'),
                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # REV:PATH is read from where the studio starts, as `simulate --compare` reads it
    s = Studio(data)
    s.start_in_thread()
    try:
        status, body = _post(s.url + "game/infernal_contraption/balance/run",
                             {"games": "40", "players": "2", "agents": "greedy,random", "seed": "3",
                              "compare": "HEAD:data"}, s.port)
        assert status == 200 and 'data-state="running"' in body, body
        run_id = int(re.search(r'id="run-([0-9]+)"', body).group(1))
        run = _wait_done(s, run_id)
        assert run.state == "done", run.problem
        assert run.done == run.total == 80  # both sides' games counted in the progress
        status, _, page = _get(s.url + f"game/infernal_contraption/balance/run/{run_id}/compare.html")
        assert status == 200
        assert "Spare Parts Crate" in page and "draw 1 card" in page.lower()
        assert "HEAD:data" in page
        status, _, report = _get(s.url + f"game/infernal_contraption/balance/run/{run_id}/report.html")
        assert "40 games" in report
        # a second run while none is running starts; the figures reach the card's page
        status, _, card = _get(s.url + "game/infernal_contraption/card/spare_parts_crate")
        assert "plays a game" in card and "40 games" in card
    finally:
        s.stop()


def test_an_answer_to_the_game_is_checked_against_the_open_question():
    from studio.balance import Refused
    from studio.play import Choice, Question, Table

    t = Table(1, "g", 2, "greedy", 0, publish=lambda names: None)
    t.question = Question(4, "discard", [Choice("a"), Choice("b"), Choice("c"), Choice("done", done=True)], k=2,
                          low=0)
    t.state = "waiting"
    for number, picks, words in [(3, [0], "no longer asked"), (4, [0, 0], "each once"), (4, [9], "each once"),
                                 (4, [-1], "each once"), (4, [0, 1, 2], "choose 0 to 2"),
                                 (4, [3, 0], "'done' is chosen alone or last")]:
        with pytest.raises(Refused, match=words):
            t.answer(number, picks)
    t.answer(4, [1, 3])
    assert t._answers.get_nowait() == [1]


def test_a_game_is_played_to_the_end_from_http_answers(studio):
    """The play routes without a browser: open a table, answer every question with its first choice."""
    status, body = _post(studio.url + "game/infernal_contraption/play/new", {"bots": "random", "seed": "3"},
                         studio.port)
    assert status == 200
    tables = studio._server.config.app.app.state.tables
    table = max(tables.tables.values(), key=lambda t: t.id)
    deadline = time.time() + 120
    while table.state not in ("over", "failed", "stopped") and time.time() < deadline:
        q = table.question
        if table.state == "waiting" and q is not None:
            picks = list(range(q.low)) if q.k > 1 or q.low != 1 else [0]
            _post(studio.url + f"game/infernal_contraption/play/{table.id}/answer",
                  {"question": str(q.number), **({"pick": [str(p) for p in picks]} if picks else {})}, studio.port)
        time.sleep(0.02)
    assert table.state == "over", table.problem
    assert table.outcome.startswith("Game over:")
    status, _, page = _get(studio.url + f"game/infernal_contraption/play/{table.id}")
    assert status == 200 and "Game over:" in page


def test_the_moons_table_shows_its_hex_map_as_an_image(studio):
    status, body = _post(studio.url + "game/age_of_steam/play/new", {"players": "3", "bots": "random"}, studio.port)
    assert status == 200 and 'role="alert"' not in body, body
    tables = studio._server.config.app.app.state.tables
    table = max(tables.tables.values(), key=lambda t: t.id)
    deadline = time.time() + 60
    while table.state not in ("waiting", "over", "failed") and time.time() < deadline:
        time.sleep(0.05)
    assert table.state == "waiting", table.problem
    status, _, page = _get(studio.url + f"game/age_of_steam/play/{table.id}/body")
    src = re.search(r'<img class="boardsvg" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    assert src, page[:500]
    import base64

    svg = base64.b64decode(src.group(1)).decode()
    assert svg.startswith("<svg") and 'class="state"' in svg
    _post(studio.url + f"game/age_of_steam/play/{table.id}/stop", {}, studio.port)
    deadline = time.time() + 10
    while table.state != "stopped" and time.time() < deadline:
        time.sleep(0.05)
    assert table.state == "stopped"


def test_the_command_prints_its_address_and_serves_it(tmp_path):
    """`cardwright studio PATH --port 0` as a designer runs it: the first line is the address, with the
    token; it answers there; it stops on SIGINT (Ctrl+C)."""
    import signal
    import subprocess
    import sys

    shutil.copytree(ROOT / "data" / "infernal_contraption", tmp_path / "data" / "infernal_contraption")
    proc = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "studio", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        line = proc.stdout.readline()
        m = re.fullmatch(r"cardwright studio: (http://127\.0\.0\.1:[0-9]+/[0-9a-f]{32}/)\n", line)
        assert m, line + proc.stderr.read() if proc.poll() is not None else line
        status, _, body = _get(m.group(1) + "game/infernal_contraption/")
        assert status == 200 and "Entropic Processor" in body
        assert _get(m.group(1).rsplit("/", 2)[0] + "/")[0] == 403
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert not list((tmp_path / "data").rglob("*.py")), "the studio writes nothing into the data folder"
    assert not (tmp_path / "generated").exists()
