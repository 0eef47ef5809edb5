"""Card sheets printed by a real headless Chromium and measured from the PDF and PNG files.

CI installs Chromium and poppler-utils (.ci/run), so there these tests must run: when CI=true and
either is missing they FAIL. Elsewhere they are skipped when they are missing.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from compiler.build import compile_tree
from compiler.cardsheet import (PAPERS, SheetSpec, deck, fit, parse_size, px, tts_card_px, write_cards)
from compiler.reference import find_browser
from tests.conftest import ROOT
from tests.test_reference_pdf import _need

BUNDLED = ROOT / "data"
GAMES = ["age_of_steam", "fifty_first_state", "infernal_contraption"]
PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def tools():
    _need(find_browser(), "a headless Chromium")
    _need(all(shutil.which(t) for t in ("pdftotext", "pdftoppm", "pdfinfo", "pdftocairo")),
          "poppler-utils (pdftotext, pdftoppm, pdfinfo, pdftocairo)")


@pytest.fixture(scope="module")
def bundled():
    result = compile_tree(BUNDLED)
    assert result.ok
    return result


@pytest.fixture(scope="module")
def printed(tools, bundled, tmp_path_factory):
    """Every bundled game's cards with the defaults (poker, A4, 3 mm bleed), every output, duplex."""
    out = tmp_path_factory.mktemp("cards")
    spec = SheetSpec(duplex=True)
    for game in GAMES:
        write_cards(bundled, game, out / game, spec, game_dir=BUNDLED / game)
    return out


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([0-9.]+) x ([0-9.]+) pts", info)]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def black_lines(pdf: Path, page: int, tmp: Path) -> list[tuple[float, float, float, float]]:
    """The straight black stroked segments of one page, in mm from the top left, read from the
    SVG that poppler's pdftocairo makes of the PDF (its coordinates are the PDF's, in pt)."""
    svg = tmp / f"page{page}.svg"
    subprocess.run(["pdftocairo", "-svg", "-f", str(page), "-l", str(page), str(pdf), str(svg)], check=True)
    out = []
    for m in re.finditer(r'<path style="([^"]*)" d="([^"]*)"(?: transform="matrix\(([^)]*)\)")?', svg.read_text()):
        style, d, matrix = m.groups()
        if "stroke:rgb(0%,0%,0%)" not in style or "fill:none" not in style:
            continue
        seg = re.fullmatch(r"\s*M ([-0-9.]+) ([-0-9.]+) L ([-0-9.]+) ([-0-9.]+)\s*", d)
        if not seg:
            continue
        a, b, c, dd, e, f = (float(v) for v in matrix.split(",")) if matrix else (1, 0, 0, 1, 0, 0)
        x1, y1, x2, y2 = (float(v) for v in seg.groups())
        pts = [(a * x + c * y + e, b * x + dd * y + f) for x, y in ((x1, y1), (x2, y2))]
        out.append(tuple(v / PT_PER_MM for p in pts for v in p))
    return out


def pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


class _Text(HTMLParser):
    """A face's text as the PDF holds it: labels the stylesheet sets in capitals come out in capitals."""
    UPPER = {"kind", "back-kind"}

    def __init__(self):
        super().__init__()
        self.text: list[str] = []
        self.stack: list[bool] = []

    def handle_starttag(self, tag, attrs):
        if tag in ("img", "br", "meta", "circle", "rect", "line"):
            return
        classes = set((dict(attrs).get("class") or "").split())
        self.stack.append(bool(classes & self.UPPER) or (bool(self.stack) and self.stack[-1]))

    def handle_endtag(self, tag):
        if self.stack and tag not in ("img", "br", "meta", "circle", "rect", "line"):
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data.upper() if self.stack and self.stack[-1] else data)


def face_text(html: str) -> str:
    p = _Text()
    p.feed(html)
    return " ".join(" ".join(p.text).split())


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_page_is_exactly_a4(printed, game):
    sizes = page_sizes(printed / game / f"{game}-cards.pdf")
    assert sizes and all((round(w), round(h)) == (595, 842) for w, h in sizes), sizes


@pytest.mark.slow
def test_letter_pages_and_crop_marks_of_another_size(tools, bundled, tmp_path):
    spec = SheetSpec(card=parse_size("tarot"), paper="letter", bleed=2)
    write_cards(bundled, "age_of_steam", tmp_path, spec, outputs=("pdf",))
    pdf = tmp_path / "age_of_steam-cards.pdf"
    assert all((round(w), round(h)) == (612, 792) for w, h in page_sizes(pdf))
    _check_crop_marks(pdf, spec, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_measured_in_the_pdf_are_the_card_size(printed, game, tmp_path):
    _check_crop_marks(printed / game / f"{game}-cards.pdf", SheetSpec(duplex=True), tmp_path)


def _check_crop_marks(pdf: Path, spec: SheetSpec, tmp: Path):
    w, h = spec.card
    pw, ph = PAPERS[spec.paper]
    grid = fit(spec)
    for page in (1, 2):  # a sheet of fronts and (duplex) its backs, or the second sheet
        lines = black_lines(pdf, page, tmp)
        top = (ph - grid.rows * (h + 2 * spec.bleed)) / 2  # the margin above the cards
        left = (pw - grid.cols * (w + 2 * spec.bleed)) / 2
        # vertical marks above the cards give the x of every vertical cut, horizontal ones beside
        # the cards the y of every horizontal cut; a card's two cuts are the card's size apart
        xs = sorted({round(x1, 2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 0.01 and max(y1, y2) <= top + 0.01})
        ys = sorted({round(y1, 2) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 0.01 and max(x1, x2) <= left + 0.01})
        assert len(xs) == 2 * grid.cols and len(ys) == 2 * grid.rows, (xs, ys)
        for i in range(grid.cols):
            assert abs((xs[2 * i + 1] - xs[2 * i]) - w) <= 0.2, (xs, w)
        for i in range(grid.rows):
            assert abs((ys[2 * i + 1] - ys[2 * i]) - h) <= 0.2, (ys, h)
        if len(page_sizes(pdf)) == 1:
            break


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_card_name_appears_as_often_as_its_count_says(printed, bundled, game):
    spec = SheetSpec(duplex=True)
    d = deck(bundled, game, spec)
    text = " ".join(pdf_text(printed / game / f"{game}-cards.pdf").split())
    # a name can also appear in other cards' text (or on a double-sided card's back): expect each
    # printed face's own occurrences, times the copies of that card
    for pc in d.cards:
        expected = sum(other.count * (face_text(other.face).count(pc.name) + face_text(other.back).count(pc.name))
                       for other in d.cards)
        got = text.count(pc.name)
        assert got == expected, (pc.id, got, expected)
        assert expected >= pc.count


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_pngs_are_exact_and_the_tts_deck_names_its_images(printed, bundled, game):
    d = deck(bundled, game, SheetSpec())
    png = printed / game / "png"
    assert px(63) == 744 and px(88) == 1039
    for pc in d.cards:
        assert png_size(png / f"{pc.id}.png") == (744, 1039)
    for kind in d.backs:
        assert png_size(png / f"back-{kind}.png") == (744, 1039)
    tts = printed / game / "tts"
    doc = json.loads((tts / f"{game}.json").read_text(encoding="utf-8"))
    cw, ch = tts_card_px((63, 88))
    seen = 0
    for obj in doc["ObjectStates"]:
        decks = obj.get("CustomDeck") or obj["CustomDeck"]
        for cd in decks.values():
            assert cd["NumWidth"] == 10 and cd["NumHeight"] == 7
            face = tts / cd["FaceURL"].rsplit("/", 1)[1]
            back = tts / cd["BackURL"].rsplit("/", 1)[1]
            assert cd["FaceURL"] == (tts.resolve().as_uri() + "/" + face.name)
            assert png_size(face) == (10 * cw, 7 * ch)
            assert png_size(back) == ((10 * cw, 7 * ch) if cd["UniqueBack"] else (cw, ch))
        seen += len(obj.get("ContainedObjects") or [obj])
    assert seen == sum(pc.count for pc in d.cards)


@pytest.mark.slow
def test_a_designer_template_changes_the_printed_pdf(tools, mini_game, tmp_path):
    (mini_game / "mini" / "templates").mkdir()
    (mini_game / "mini" / "templates" / "location.html.j2").write_text(
        '{% extends "face.html.j2" %}{% block printed %}<p>PLAYTEST DRAFT</p>{% endblock %}', encoding="utf-8")
    result = compile_tree(mini_game)
    write_cards(result, "mini", tmp_path, SheetSpec(), outputs=("pdf",), game_dir=mini_game / "mini")
    text = pdf_text(tmp_path / "mini-cards.pdf")
    n = sum(1 for pc in deck(result, "mini", SheetSpec()).cards for _ in range(pc.count))
    assert text.count("PLAYTEST DRAFT") == n


def _words(pdf: Path, page: int) -> list[tuple[str, float, float]]:
    """(word, x, y) in mm of every word on one page (pdftotext -bbox)."""
    out = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-bbox", str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    return [(w, float(x) / PT_PER_MM, float(y) / PT_PER_MM)
            for x, y, w in re.findall(r'<word xMin="([0-9.]+)" yMin="([0-9.]+)"[^>]*>([^<]*)</word>', out)]


@pytest.mark.slow
def test_duplex_backs_land_behind_their_fronts(printed, bundled, tmp_path):
    """51st State's Machines print their Hacked side as the back: on the following page it stands in the
    mirrored column, same row, at the same place inside the card's cut lines (measured from the PDF)."""
    pdf = printed / "fifty_first_state" / "fifty_first_state-cards.pdf"
    spec = SheetSpec(duplex=True)
    grid = fit(spec)
    d = deck(bundled, "fifty_first_state", spec)
    checked = 0
    for page in range(1, len(page_sizes(pdf)) + 1, 2):
        front, back = _words(pdf, page), _words(pdf, page + 1)
        lines = black_lines(pdf, page, tmp_path)
        top = (PAPERS["a4"][1] - grid.rows * (88 + 6)) / 2
        xs = sorted({round(x1, 2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 0.01 and max(y1, y2) <= top + 0.01})
        assert len(xs) == 2 * grid.cols
        for pc in (pc for pc in d.cards if pc.unique_back):
            word = pc.name.split()[0]
            f = [(x, y) for w, x, y in front if w == word]
            b = [(x, y) for w, x, y in back if w == word]
            if len(f) != 1 or len(b) != 1:
                continue  # not on this sheet, or the word is not unique here
            (fx, fy), (bx, by) = f[0], b[0]
            col_f = max(i for i in range(grid.cols) if xs[2 * i] <= fx)
            col_b = max(i for i in range(grid.cols) if xs[2 * i] <= bx)
            assert col_b == grid.cols - 1 - col_f, pc.id
            assert abs((fx - xs[2 * col_f]) - (bx - xs[2 * col_b])) <= 0.3, pc.id
            assert abs(fy - by) <= 0.3, pc.id
            checked += 1
    assert checked >= 5
