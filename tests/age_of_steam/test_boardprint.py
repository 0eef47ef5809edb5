"""The Moon map at board size, tiled over pages with overlap marks (compiler/boardprint.py, `cardwright board`)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cli import main
from compiler.boardprint import MARGIN, content_points, render_tiles, svg_size, tiling
from compiler.cardsheet import PAPERS, SheetError
from runtime.games.age_of_steam.mapsvg import SIZE, render_map_svg
from compiler.reference import find_browser
from tests.test_reference_pdf import _need

from .helpers import compiled


def _svg(**kw):
    c = compiled()
    return render_map_svg(c.maps["moon"], c.vocab, legend=False, **kw)


def test_a_hex_measures_what_was_asked():
    svg = _svg()
    t = tiling(svg, 40.0, hex_px=SIZE)
    _, _, w, _ = svg_size(svg)
    assert abs(t.board[0] / w * (3 ** 0.5) * SIZE - 40.0) < 1e-9


@pytest.mark.parametrize("hex_mm,paper", [(40, "a4"), (30, "letter"), (60, "a4"), (20, "a4")])
def test_tiles_cover_the_board_and_neighbours_overlap_by_the_overlap(hex_mm, paper):
    svg = _svg()
    t = tiling(svg, hex_mm, paper, overlap=12, hex_px=SIZE)
    tw, th = t.tile
    pw, ph = t.page
    assert (tw, th) == (pw - 2 * MARGIN, ph - 2 * MARGIN) and sorted(t.page) == sorted(PAPERS[paper])
    # the tiles reach the board's far edges, and no fewer would
    assert (t.cols - 1) * t.step[0] + tw >= t.board[0] and (t.rows - 1) * t.step[1] + th >= t.board[1]
    assert t.cols == 1 or (t.cols - 2) * t.step[0] + tw < t.board[0]
    html = render_tiles(svg, t, "Moon")
    lefts = {}
    for name, x, y in re.findall(r'<b>([A-Z][0-9]+)</b>.*?style="left: (-?[0-9.]+)mm; top: (-?[0-9.]+)mm"', html, re.S):
        lefts[name] = (float(x), float(y))
    for name, (x, y) in lefts.items():
        right = f"{chr(ord(name[0]) + 1)}{name[1:]}"
        if right in lefts:  # the right neighbour starts `overlap` mm before this tile ends
            assert abs((x - lefts[right][0]) - (tw - 12)) < 1e-6
    marks = re.findall(r'class="overlap"', html)
    assert len(marks) >= 2 * (len(lefts) - 1)


def test_no_tile_is_blank():
    svg = _svg()
    t = tiling(svg, 40.0, hex_px=SIZE)
    html = render_tiles(svg, t, "Moon")
    pages = html.count('<section class="page">')
    assert pages < t.cols * t.rows  # the Moon's lower right corner is empty at 40 mm hexes
    assert pages >= 1 and content_points(svg)


@pytest.mark.parametrize("hex_mm,paper", [(40, "a4"), (30, "letter"), (60, "a4"), (50, "letter")])
def test_captions_name_only_printed_tiles_and_each_tile_shows_something_new(hex_mm, paper):
    svg = _svg()
    t = tiling(svg, hex_mm, paper, hex_px=SIZE)
    html = render_tiles(svg, t, "Moon")
    printed = re.findall(r"<b>([A-Z][0-9]+)</b>", html)
    for joins in re.findall(r"· joins ([^<]*)</div>", html):  # age_of_steam's C1 named an unprinted C2
        for name in re.findall(r"([A-Z][0-9]+) (?:left|right|above|below)", joins):
            assert name in printed, (name, printed)
    # every printed tile holds a point of the map that no printed tile before it along either axis
    # shows (the first tile holding it), so none is printed for what its neighbours already show
    (tw, th), (sx, sy) = t.tile, t.step
    minx, miny, w, _ = svg_size(svg)
    scale = t.board[0] / w
    for name in printed:
        c, r = ord(name[0]) - ord("A"), int(name[1:]) - 1
        new = [(x, y) for x, y in (((x - minx) * scale, (y - miny) * scale) for x, y in content_points(svg))
               if c * sx <= x <= c * sx + tw and r * sy <= y <= r * sy + th
               and (c == 0 or x > (c - 1) * sx + tw) and (r == 0 or y > (r - 1) * sy + th)]
        assert new, name
    # and nothing of the map is lost
    for x, y in content_points(svg):
        x, y = (x - minx) * scale, (y - miny) * scale
        assert any(c * sx <= x <= c * sx + tw and r * sy <= y <= r * sy + th for c, r in
                   ((ord(n[0]) - ord("A"), int(n[1:]) - 1) for n in printed))


def test_bad_sizes_are_refused():
    with pytest.raises(SheetError):
        tiling(_svg(), 2, hex_px=SIZE)
    with pytest.raises(SheetError):
        tiling(_svg(), 40, paper="a3", hex_px=SIZE)


@pytest.mark.slow
def test_board_command_prints_the_tiles(runner, tmp_path):
    _need(find_browser(), "a headless Chromium")
    _need(shutil.which("pdfinfo") and shutil.which("pdftotext"), "poppler-utils")
    res = runner.invoke(main, ["board", "age_of_steam", "--coords", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    pdf = tmp_path / "age_of_steam-moon-board.pdf"
    html = (tmp_path / "age_of_steam-moon-board.html").read_text(encoding="utf-8")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert int(re.search(r"Pages:\s+(\d+)", info).group(1)) == html.count('<section class="page">')
    assert re.search(r"Page size:\s+59[45]\.\d+ x 84[12]\.\d+ pts", info)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "A1" in text and "joins" in text
    assert runner.invoke(main, ["board", "infernal_contraption", "--out", str(tmp_path)]).exit_code == 1
