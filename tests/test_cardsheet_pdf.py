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
from compiler.cardsheet import (PAPERS, SheetSpec, deck, fit, parse_size, px, sheet_pages, tts_card_px,
                                write_cards)
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
    from compiler.diagnostics import Diagnostics

    out = tmp_path_factory.mktemp("cards")
    spec = SheetSpec(duplex=True)
    for game in GAMES:
        FITTED[game] = Diagnostics()
        write_cards(bundled, game, out / game, spec, game_dir=BUNDLED / game, diags=FITTED[game])
    return out


FITTED: dict = {}  # game -> the diagnostics of printing it (text that does not fit)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_card_s_text_fits(printed, game):
    assert [d.render() for d in FITTED[game]] == []


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([0-9.]+) x ([0-9.]+) pts", info)]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def png_dpi(path: Path) -> tuple[int, int]:
    """The pixels per metre of a PNG's pHYs chunk (which must say metres)."""
    data = path.read_bytes()
    pos = 8
    while pos < len(data):
        n, kind = struct.unpack(">I", data[pos:pos + 4])[0], data[pos + 4:pos + 8]
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            assert unit == 1
            return x, y
        assert kind != b"IDAT", "pHYs must come before the image data"
        pos += 12 + n
    raise AssertionError("no pHYs chunk")


def png_pixels(path: Path) -> tuple[int, int, int, list[bytes]]:
    """(width, height, bytes per pixel, rows) of an 8-bit PNG, unfiltered (RFC 2083, section 6)."""
    import zlib

    data = path.read_bytes()
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I", data[pos:pos + 4])[0], data[pos + 4:pos + 8]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", data[pos + 8:pos + 21])
        elif kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    w, h, depth, ctype = ihdr[:4]
    assert depth == 8 and ctype in (0, 2, 6)
    bpp = {0: 1, 2: 3, 6: 4}[ctype]
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for r in range(h):
        f, line = raw[r * (stride + 1)], bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def gray_page(pdf: Path, page: int, dpi: int, tmp: Path) -> tuple[int, int, bytes]:
    """One page as 8-bit grey pixels (poppler's PGM), for measuring where ink falls."""
    base = tmp / f"gray{page}"
    subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", str(pdf),
                    str(base)], check=True)
    raw = Path(f"{base}.pgm").read_bytes()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", raw)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, raw[m.end():m.end() + w * h]


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
    _check_crop_marks(pdf, spec, tmp_path, deck(bundled, "age_of_steam", spec))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_crop_marks_measured_in_the_pdf_are_the_card_size(printed, bundled, game, tmp_path):
    spec = SheetSpec(duplex=True)
    _check_crop_marks(printed / game / f"{game}-cards.pdf", spec, tmp_path, deck(bundled, game, spec))


def _check_crop_marks(pdf: Path, spec: SheetSpec, tmp: Path, d):
    w, h = spec.card
    pw, ph = PAPERS[spec.paper]
    grid = fit(spec)
    pages = sheet_pages(d, grid)
    for page in (1, 2):  # a sheet of fronts and (duplex) its backs, or the second sheet
        lines = black_lines(pdf, page, tmp)
        cols, rows = grid.used(len(pages[page - 1].slots))  # a partly filled sheet marks only its cards
        top = (ph - grid.rows * (h + 2 * spec.bleed)) / 2  # the margin above the cards
        left = (pw - grid.cols * (w + 2 * spec.bleed)) / 2
        # vertical marks above the cards give the x of every vertical cut, horizontal ones beside
        # the cards the y of every horizontal cut; a card's two cuts are the card's size apart
        xs = sorted({round(x1, 2) for x1, y1, x2, y2 in lines if abs(x1 - x2) < 0.01 and max(y1, y2) <= top + 0.01})
        ys = sorted({round(y1, 2) for x1, y1, x2, y2 in lines if abs(y1 - y2) < 0.01 and max(x1, x2) <= left + 0.01})
        assert len(xs) == 2 * cols and len(ys) == 2 * rows, (xs, ys)
        for i in range(cols):
            assert abs((xs[2 * i + 1] - xs[2 * i]) - w) <= 0.2, (xs, w)
        for i in range(rows):
            assert abs((ys[2 * i + 1] - ys[2 * i]) - h) <= 0.2, (ys, h)
        # every mark stays out of the printer's dead zone along the sheet's edge
        for x1, y1, x2, y2 in lines:
            assert spec.margin - 0.1 <= min(x1, x2) and max(x1, x2) <= pw - spec.margin + 0.1, (x1, x2)
            assert spec.margin - 0.1 <= min(y1, y2) and max(y1, y2) <= ph - spec.margin + 0.1, (y1, y2)
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
    # trim 63×88 mm plus 3 mm of bleed on every side: 69×94 mm at 300 dpi
    assert SheetSpec().png_px == (px(69), px(94)) == (815, 1110)
    for pc in d.cards:
        assert png_size(png / f"{pc.id}.png") == (815, 1110)
        assert png_dpi(png / f"{pc.id}.png") == (11811, 11811)
    for kind in d.backs:
        assert png_size(png / f"back-{kind}.png") == (815, 1110)
        assert png_dpi(png / f"back-{kind}.png") == (11811, 11811)
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


# --- a print shop's checks: printable margins, images with bleed, text that fits -------------------------


@pytest.mark.slow
@pytest.mark.parametrize("paper,bleed", [("a4", 3), ("letter", 2)])
def test_no_ink_within_the_printable_margin(tools, bundled, tmp_path, paper, bleed):
    """Every printed pixel, marks, captions and bleed alike, stands at least 5 mm inside the sheet's
    edge: measured on the rasterised pages, fronts and backs."""
    spec = SheetSpec(paper=paper, bleed=bleed)
    write_cards(bundled, "infernal_contraption", tmp_path, spec, outputs=("pdf",))
    pdf = tmp_path / "infernal_contraption-cards.pdf"
    dpi = 100
    edge = int((spec.margin - 0.3) / 25.4 * dpi)  # a third of a millimetre for antialiasing
    n = len(page_sizes(pdf))
    for page in (1, n):  # a sheet of fronts, and the last sheet of backs
        w, h, px_ = gray_page(pdf, page, dpi, tmp_path)
        inked = [(x, y) for y in range(h) for x in range(w)
                 if (x < edge or x >= w - edge or y < edge or y >= h - edge) and px_[y * w + x] < 250]
        assert not inked, (page, inked[:5])
        # and the page is not blank: the cards are there
        assert sum(1 for v in px_ if v < 250) > w * h // 20


@pytest.mark.slow
def test_png_for_a_print_service_template_size(tools, bundled, tmp_path):
    """--png-size 822x1122 (MakePlayingCards' poker template): exactly that many pixels, exactly 300 dpi,
    and the template's extra room is the kind's colour (bleed), not white."""
    spec = SheetSpec(png_size=(822, 1122))
    write_cards(bundled, "infernal_contraption", tmp_path, spec, outputs=("png",), game_dir=BUNDLED / "infernal_contraption")
    d = deck(bundled, "infernal_contraption", spec)
    pc = d.cards[0]
    path = tmp_path / "png" / f"{pc.id}.png"
    assert png_size(path) == (822, 1122) and png_dpi(path) == (11811, 11811)
    w, h, bpp, rows = png_pixels(path)
    corner = rows[2][2 * bpp:3 * bpp]
    middle = rows[h // 2][(w // 2) * bpp:(w // 2 + 1) * bpp]
    assert corner[:3] != b"\xff\xff\xff"  # the bleed is printed colour
    assert corner == rows[h - 3][(w - 3) * bpp:(w - 2) * bpp]  # the same on every side: the card is centred
    assert middle != corner


def _long_game(root: Path) -> Path:
    """The mini game with two long cards: one that fits once its text shrinks, one that never does."""
    import shutil

    from tests.conftest import MINI

    data = root / "data"
    shutil.copytree(MINI, data)
    pay = "spend 1 gun, 1 worker: gain 1 vp"
    with (data / "mini" / "base.yaml").open("a", encoding="utf-8") as f:
        f.write(f"""  - id: chatty
    kind: location
    name: Chatty
    source: example
    row: action
    icons: [worker]
    action: "{'; '.join([pay] * 7)}; gain 3 fuel"
  - id: endless
    kind: location
    name: Endless
    source: example
    row: action
    icons: [worker]
    action: "{'; '.join([pay] * 30)}"
""")
    return data


@pytest.mark.slow
def test_long_text_shrinks_to_fit_and_what_cannot_fit_is_reported(tools, tmp_path):
    from compiler.diagnostics import Diagnostics

    data = _long_game(tmp_path)
    result = compile_tree(data)
    assert result.ok
    diags = Diagnostics()
    write_cards(result, "mini", tmp_path / "out", SheetSpec(), outputs=("pdf", "html"), game_dir=data / "mini",
                diags=diags)
    # Chatty: shrunk, not reported, and its last words are printed (not clipped)
    d_html = (tmp_path / "out" / "mini-cards.html").read_text(encoding="utf-8")
    m = re.search(r'<div class="fit" style="--fit: (0\.[0-9]+)">((?!<div class="fit").)*?<h2 class="name">Chatty<', d_html, re.S)
    assert m and 0.75 <= float(m.group(1)) < 1  # 6 pt of 8 at the least
    text = " ".join(pdf_text(tmp_path / "out" / "mini-cards.pdf").split())
    assert "Gain 3 Fuel" in text
    # Endless: shrunk to the minimum and still too long: one located warning
    assert [(d.code, d.card, d.severity) for d in diags] == [("E801", "endless", "warning")]
    e = diags[0]
    lines = (data / "mini" / "base.yaml").read_text().splitlines()
    assert e.file.endswith("base.yaml") and lines[e.line - 1].lstrip().startswith("action:")
    assert e.path.endswith(".action") and "Action overflows by" in e.message and "6 pt" in e.message
    over = float(re.search(r"overflows by ([0-9.]+) mm", e.message).group(1))
    assert over > 20  # thirty payments are far longer than a card


@pytest.mark.slow
def test_validate_fit_reports_without_printing_and_strict_fails(tools, tmp_path, runner):
    from cli import main

    data = _long_game(tmp_path)
    res = runner.invoke(main, ["validate", str(data), "--fit", "--format", "json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.output)
    assert [(d["code"], d["card"], d["severity"]) for d in payload["diagnostics"]] == [("E801", "endless", "warning")]
    assert not list(tmp_path.glob("**/*.pdf"))
    res = runner.invoke(main, ["validate", str(data), "--fit", "--strict"])
    assert res.exit_code == 1 and "E801" in res.output and "in card 'endless'" in res.output
    # a kind that may shrink further fits more: with 3 pt the overflow is smaller or gone
    game = data / "mini" / "game.yaml"
    game.write_text(game.read_text().replace("  location:\n", "  location:\n    min_font_size: 3\n"))
    res = runner.invoke(main, ["validate", str(data), "--fit", "--format", "json"])
    after = json.loads(res.output)["diagnostics"]
    before = float(re.search(r"by ([0-9.]+) mm", payload["diagnostics"][0]["message"]).group(1))
    assert not after or float(re.search(r"by ([0-9.]+) mm", after[0]["message"]).group(1)) < before


@pytest.mark.slow
def test_the_game_font_is_the_one_in_the_printed_pdf(tools, mini_game, tmp_path):
    from tests.test_cardsheet import FONT, _with_font

    if not FONT.is_file():
        pytest.skip("needs the DejaVu fonts")
    _with_font(mini_game)
    result = compile_tree(mini_game)
    write_cards(result, "mini", tmp_path, SheetSpec(), outputs=("pdf",), game_dir=mini_game / "mini")
    fonts = subprocess.run(["pdffonts", str(tmp_path / "mini-cards.pdf")], capture_output=True, text=True,
                           check=True).stdout
    # the family "Narrow" exists only as the game's embedded file (DejaVu Sans Condensed inside)
    assert "DejaVuSansCondensed" in fonts


@pytest.mark.slow
def test_a_print_shop_check_on_a_scaffolded_game_with_long_texts(tools, runner, tmp_path):
    """The issue's acceptance check, end to end through the command on a game made by `new game`: the
    text that cannot fit is reported and nothing else is, PNGs are trim + bleed at 300 dpi, no mark
    within 5 mm of the sheet's edge, every copy has its back, copies follow the setup."""
    from cli import main

    data, out = tmp_path / "data", tmp_path / "out"
    assert runner.invoke(main, ["new", "game", "shop", "--path", str(data)]).exit_code == 0
    pay = "spend 1 coin: gain 1 vp and draw 1 card"
    with (data / "shop" / "base.yaml").open("a", encoding="utf-8") as f:
        for cid, n in (("long_but_fits", 6), ("far_too_long", 40)):
            f.write(f"  - id: {cid}\n    kind: action\n    name: {cid.replace('_', ' ').title()}\n    source: example\n"
                    f"    cost: 1\n    effect: \"{'; '.join([pay] * n)}\"\n")
    res = runner.invoke(main, ["cards", "shop", "--data", str(data), "--out", str(out), "--format", "json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.output)
    assert [(d["code"], d["card"], d["severity"], d["path"]) for d in payload["diagnostics"]] == \
        [("E801", "far_too_long", "warning", "cards[2].effect")]
    assert payload["copies"]["shop"].startswith("copies: as the game's setup creates them")
    result = compile_tree(data)
    d = deck(result, "shop", SheetSpec())
    assert all(pc.copies_from == "setup" for pc in d.cards)
    for stem in [pc.id for pc in d.cards] + ["back-action"]:
        assert png_size(out / "png" / f"{stem}.png") == (815, 1110)
        assert png_dpi(out / "png" / f"{stem}.png") == (11811, 11811)
    pdf = out / "shop-cards.pdf"
    pages = len(page_sizes(pdf))
    for page in (1, pages):
        for x1, y1, x2, y2 in black_lines(pdf, page, tmp_path):
            assert min(x1, x2, y1, y2) >= 4.9 and max(x1, x2) <= 210 - 4.9 and max(y1, y2) <= 297 - 4.9
    # the kind's name prints on every front (its label) and on every back: twice per copy
    copies = sum(pc.count for pc in d.cards)
    assert " ".join(pdf_text(pdf).split()).count("ACTION CARD") == 2 * copies


@pytest.mark.slow
def test_a_designer_script_cannot_run_in_the_measuring_page_or_forge_its_answer(tools, tmp_path):
    """The measuring copy runs only cardwright's own script (a nonce CSP): a template whose script
    would empty the effects, so that everything "fits", changes nothing, nor does markup imitating the
    answer's element."""
    from compiler.cardfit import measure, measuring_page
    from compiler.diagnostics import Diagnostics

    data = _long_game(tmp_path)
    (data / "mini" / "templates").mkdir()
    (data / "mini" / "templates" / "location.html.j2").write_text(
        '{% extends "face.html.j2" %}{% block printed %}'
        '<script>document.querySelectorAll(".effect").forEach(function (e) { e.remove(); });</script>'
        '<img src="x" onerror="document.querySelectorAll(\'.effect\').forEach(function (e) { e.remove(); })">'
        '<pre id="cw-fit-0">[]</pre>{% endblock %}', encoding="utf-8")
    result = compile_tree(data)
    diags = Diagnostics()
    write_cards(result, "mini", tmp_path / "out", SheetSpec(), outputs=("html",), game_dir=data / "mini", diags=diags)
    assert [(d.code, d.card) for d in diags] == [("E801", "endless")]
    page = measuring_page([("a", "<p>x</p>", [1.0])], "", "", "n0nce")
    assert "script-src 'nonce-n0nce'" in page and "default-src 'none'" in page
