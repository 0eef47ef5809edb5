"""The simulation report drawn by a real headless browser (Chromium), issue 16 item 3.

Two runs of the browser over the same report, at the same window width:

1. a copy of the report with a measuring script appended (the report itself carries no script): the
   browser lays the page out and the script writes, for every chart (an ``<svg role="img">``), its
   title and its box on the page into the DOM, which ``--dump-dom`` returns;
2. the report itself, screenshotted to PNG at a quarter scale; the test decodes the PNG and checks
   that inside every chart's box there is ink — the chart was drawn, not only parsed.

The charts the test expects are derived from the report's own JSON (one interval chart per kind of
per-card effect, one per kind of per-copy figure, the score spread only for a game that scores), so a
chart that goes missing fails the test. CI installs Chromium (.ci/run): there the test must run; when
CI=true and the browser is missing it FAILS. Elsewhere it is skipped.
"""
from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

from compiler.reference import find_browser
from runtime.simulate import SimConfig, render_html, simulate

SCALE = 0.25  # screenshot scale: a tall report decodes quickly at a quarter of its CSS pixels
WIDTH = 1100

_MEASURE = """<script>
addEventListener("load", () => {
  const out = [...document.querySelectorAll('svg[role="img"]')].map(s => {
    const r = s.getBoundingClientRect();
    return {title: s.getAttribute("aria-label"), x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
            marks: s.querySelectorAll("rect, circle, line").length};
  });
  const pre = document.createElement("pre");
  pre.id = "measured";
  pre.textContent = JSON.stringify({charts: out, width: document.documentElement.scrollWidth,
                                    height: document.documentElement.scrollHeight});
  document.body.appendChild(pre);
});
</script>"""


def _browser() -> str:
    found = find_browser()
    if found:
        return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("a headless Chromium is missing, but CI must run the browser test (.ci/run installs it)")
    pytest.skip("a headless Chromium is not installed")


def _run(browser: str, *args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="cardwright-report-") as profile:
        return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                               "--hide-scrollbars", f"--user-data-dir={profile}", *args],
                              capture_output=True, timeout=180, check=False)


def _png_gray(data: bytes) -> tuple[int, int, list[bytes]]:
    """Decode an 8-bit RGB or RGBA PNG (what Chromium writes) into rows of grey bytes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(min(line[i:i + 3]) for i in range(0, stride, bpp)))  # darkest channel: ink of any colour
    return width, height, rows


def _ink(rows: list[bytes], x0: int, y0: int, x1: int, y1: int) -> int:
    return sum(1 for row in rows[max(0, y0):y1] for v in row[max(0, x0):x1] if v < 160)


def _expected_titles(r: dict) -> list[str]:
    """The charts a report of this result must carry, from its JSON."""
    titles = ["Win rate by seat (95 % interval; dashed: an even share)",
              f"Games by length in {r['length']['unit']}",
              "Activations per game (cards with an effect)", "Plays per game"]
    if r["score_spread"]:
        titles.append("Games by the winner's margin (points)")
    short = {"played": "played", "drawn": "drawn", "tableau": "in the final tableau"}
    for kind, per_card in r["card_effects"].items():
        if any(e["difference"] is not None for e in per_card.values()):
            titles.append(f"Difference in win rate when {short[kind]}, against its peers (95 % interval)")
    for kind, per_card in r["copy_effects"].items():
        if any(e["more_than_one"]["difference"] is not None for e in per_card.values()):
            titles.append(f"Two or more copies {short[kind]} against one (difference in win rate, 95 % interval)")
    return titles


@pytest.mark.slow
@pytest.mark.parametrize("game, games", [("fifty_first_state", 40), ("infernal_contraption", 150)])
def test_every_chart_of_the_report_is_drawn_by_a_real_browser(tmp_path, game, games):
    browser = _browser()
    r = simulate(SimConfig(game, games=games))
    html = render_html(r)
    assert "<script" not in html  # the report is offline and script-free; only the test's copy measures
    report = tmp_path / "report.html"
    report.write_text(html, encoding="utf-8")
    measured = tmp_path / "measured.html"
    measured.write_text(html.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")

    # the same scale in both runs: text set at another scale may wrap differently and move the charts
    dom = _run(browser, f"--window-size={WIDTH},1000", f"--force-device-scale-factor={SCALE}",
               "--virtual-time-budget=5000", "--dump-dom", measured.as_uri())
    assert dom.returncode == 0, dom.stderr.decode("utf-8", "replace")[-500:]
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom.stdout.decode("utf-8"), re.S)
    assert found, "the browser did not run the measuring script"
    page = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<")
                      .replace("&gt;", ">"))
    charts = page["charts"]
    titles = [c["title"] for c in charts]
    for want in _expected_titles(r):
        assert want in titles, f"chart missing from the rendered report: {want}"
    for c in charts:
        assert c["w"] > 100 and c["h"] > 40 and c["marks"] > 0, c
        assert c["x"] >= 0 and c["x"] + c["w"] <= page["width"] + 1, f"chart cut off at the page's edge: {c}"

    shot = tmp_path / "report.png"
    run = _run(browser, f"--window-size={WIDTH},{page['height']}", f"--force-device-scale-factor={SCALE}",
               f"--screenshot={shot}", report.as_uri())
    assert run.returncode == 0 and shot.is_file(), run.stderr.decode("utf-8", "replace")[-500:]
    width, height, rows = _png_gray(shot.read_bytes())
    scale = width / WIDTH  # the browser may round the asked scale (this one draws at no less than a half)
    assert 0 < scale <= 1
    for c in charts:
        # inside the chart's box, a margin in from its edges (the text around it is not the chart's ink)
        box = [round(v * scale) for v in (c["x"] + 6, c["y"] + 6, c["x"] + c["w"] - 6, c["y"] + c["h"] - 6)]
        assert box[3] <= height + 1, f"chart below the screenshot: {c}"
        area = (box[2] - box[0]) * (box[3] - box[1])
        assert _ink(rows, *box) > 0.01 * area, f"nothing drawn where the chart is: {c['title']}"
    # and the page between the charts is not all ink (a black page would pass the test above)
    assert _ink(rows, 0, 0, width, height) < 0.5 * width * height
