"""Issue 23, class 2: the printing browser is confined. A page cardwright prints may hold HTML a
stranger wrote (a card template can write any markup, even in the sandbox); it tries every channel —
script, a frame of a local file, an image or stylesheet or font from the network, a navigation — and
nothing gets through: the printed PDF shows the page as written and no request reaches a server.

These run a real headless Chromium (CI installs it: .ci/run; elsewhere they skip without it)."""
from __future__ import annotations

import http.server
import shutil
import subprocess
import threading

import pytest

import cli
from compiler import reference
from compiler.reference import CSP_META, find_browser, print_pdf, with_policy
from tests.test_reference_pdf import _need

SECRET = "S3CR3T-FILE-CONTENTS"


@pytest.fixture(scope="module")
def tools():
    _need(find_browser(), "a headless Chromium")
    _need(shutil.which("pdftotext"), "poppler-utils (pdftotext)")


@pytest.fixture
def server():
    """A local web server that records every request: any request at all is a leak."""
    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (the stdlib's name)
            hits.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/css")
            self.end_headers()
            self.wfile.write(b"body { background: red }")

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}", hits
    srv.shutdown()
    srv.server_close()


def pdf_text(pdf) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


def hostile_body(url: str, secret_uri: str) -> str:
    return f"""
<p id="t">ORIGINAL-TEXT</p>
<script>document.getElementById('t').textContent = 'SCRIPT-RAN';</script>
<img src="x" onerror="document.body.append('HANDLER-RAN')">
<iframe src="{secret_uri}" width="600" height="200"></iframe>
<object data="{secret_uri}" width="600" height="100"></object>
<embed src="{secret_uri}" width="600" height="100">
<img src="{url}/img.png">
<link rel="stylesheet" href="{url}/style.css">
<link rel="prefetch" href="{url}/prefetch">
<style>@import url("{url}/import.css"); @font-face {{ font-family: X; src: url("{url}/font.woff"); }}
p {{ font-family: X; background-image: url("{url}/bg.png"); }}</style>
<svg width="10" height="10"><image href="{url}/svg.png" width="10" height="10"/></svg>
"""


@pytest.fixture
def secret(tmp_path):
    p = tmp_path / "secret.txt"
    p.write_text(SECRET, encoding="utf-8")
    return p


def test_a_hostile_page_prints_as_written_and_reaches_nothing(tools, tmp_path, server, secret):
    url, hits = server
    page = tmp_path / "page.html"
    page.write_text(f"<!doctype html><html><head><title>t</title></head><body>"
                    f"{hostile_body(url, secret.as_uri())}</body></html>", encoding="utf-8")
    print_pdf(page, tmp_path / "page.pdf")
    text = pdf_text(tmp_path / "page.pdf")
    assert "ORIGINAL-TEXT" in text and "SCRIPT-RAN" not in text and "HANDLER-RAN" not in text
    assert SECRET not in text
    assert hits == []


def test_the_browser_flags_alone_reach_no_network(tools, tmp_path, server, monkeypatch):
    """Belt and braces: even a page without the policy (a bug that dropped it) reaches no server,
    because the browser itself is started with no way out (a dead proxy, no name resolution)."""
    url, hits = server
    monkeypatch.setattr(reference, "with_policy", lambda html: html)
    page = tmp_path / "page.html"
    page.write_text(f"<html><head></head><body><p id='t'>ORIGINAL-TEXT</p>"
                    f"<img src='{url}/img.png'><link rel='stylesheet' href='{url}/style.css'>"
                    f"<script>fetch('{url}/fetch')</script>"
                    f"<img src='http://example.com/x.png'></body></html>", encoding="utf-8")
    print_pdf(page, tmp_path / "page.pdf")
    assert "ORIGINAL-TEXT" in pdf_text(tmp_path / "page.pdf")
    assert hits == []


def test_every_printed_page_carries_the_policy_first():
    assert with_policy("<html><HEAD lang=en><title>x</title>").startswith(
        f"<html><HEAD lang=en>\n{CSP_META}")
    assert with_policy("<p>no head</p>").startswith(CSP_META)
    assert "script-src" not in CSP_META and "default-src 'none'" in CSP_META  # nothing scripts


@pytest.fixture
def game(templated_mini):
    return templated_mini


def test_a_hostile_card_template_prints_inert(tools, game, runner, tmp_path, server, secret):
    """Through `cardwright cards`: the template is sandboxed but writes hostile markup, including a
    <meta http-equiv="refresh"> and a <base>, which no content policy governs."""
    url, hits = server
    (game / "templates" / "location.html.j2").write_text(
        '<div class="face">{{ side.name }}' + hostile_body(url, secret.as_uri()) +
        f'<meta http-equiv="refresh" content="0; url={secret.as_uri()}">'
        f'<META\nHTTP-EQUIV=refresh content="0;url={url}/refresh"><base href="{url}/">'
        '</div>', encoding="utf-8")
    res = runner.invoke(cli.main, ["cards", "mini", "--data", "data", "--output", "pdf", "--output", "html",
                                   "--out", "out"])
    assert res.exit_code == 0, res.output
    text = pdf_text(tmp_path / "out" / "mini-cards.pdf")
    assert "ORIGINAL-TEXT" in text and "Oil Rig" in text
    assert "SCRIPT-RAN" not in text and SECRET not in text
    assert hits == []
    html = (tmp_path / "out" / "mini-cards.html").read_text(encoding="utf-8")
    assert CSP_META in html.split("<body", 1)[0]  # the HTML a designer opens is inert too
    assert "<meta http-equiv=\"refresh\"" not in html and "<base" not in html


def test_the_sandbox_warning_is_said_once(monkeypatch, capsys):
    monkeypatch.setattr(reference, "_SANDBOX", {})
    monkeypatch.setattr(reference.os, "geteuid", lambda: 0, raising=False)
    assert reference._sandbox_unavailable("chromium") and reference._sandbox_unavailable("chromium")
    err = capsys.readouterr().err
    assert err.count("warning: the printing browser runs without its sandbox") == 1
