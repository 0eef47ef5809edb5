"""Print and play (compiler/cardsheet.py, `cardwright cards`): layout, copies, backs, templates,
escaping and the TTS deck — without a browser. The PDFs and PNGs themselves: test_cardsheet_pdf.py."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cli import main
from compiler.build import compile_tree
from compiler.cardsheet import (PAPERS, SIZES, SheetError, SheetSpec, _art_uri, deck, fit, more_per_sheet,
                                parse_size, render_sheets, sheet_pages, tts_json, tts_sheets, write_cards)
from tests.conftest import FIXTURES, ROOT

BUNDLED = ROOT / "data"


@pytest.fixture(scope="module")
def bundled():
    result = compile_tree(BUNDLED)
    assert result.ok
    return result


# --- sizes and layout -------------------------------------------------------------------------------


def test_named_sizes_and_any_w_x_h():
    assert parse_size("poker") == (63, 88) and parse_size("Bridge") == (56, 88)
    assert parse_size("mini") == (44, 63) and parse_size("tarot") == (70, 120) and parse_size("square") == (70, 70)
    assert parse_size("57.5x89") == (57.5, 89) and parse_size("70 × 70 mm") == (70, 70)
    for bad in ("huge", "63x", "0x88", "5000x88", "63x88x2"):
        with pytest.raises(SheetError):
            parse_size(bad)


@pytest.mark.parametrize("size,paper,bleed,margin,expected", [
    ("poker", "a4", 3, 5, (2, 3)),       # the default: 3 × 69 mm of bleed boxes is wider than A4's 200 mm inside 5 mm
    ("poker", "a4", 1.5, 5, (3, 3)),
    ("poker", "a4", 0, 5, (3, 3)),
    ("poker", "a4", 3, 0, (3, 3)),       # with no margin asked for, as before
    ("poker", "letter", 3, 5, (2, 2)),
    ("poker", "letter", 2, 5, (3, 2)),
    ("poker", "letter", 3, 0, (3, 2)),
    ("bridge", "a4", 3, 5, (3, 3)),
    ("mini", "a4", 3, 5, (4, 4)),
    ("tarot", "a4", 3, 5, (2, 2)),
    ("square", "letter", 3, 5, (2, 3)),
])
def test_as_many_cards_as_fit_inside_the_margin(size, paper, bleed, margin, expected):
    g = fit(SheetSpec(card=parse_size(size), paper=paper, bleed=bleed, margin=margin))
    assert (g.cols, g.rows) == expected
    pw, ph = PAPERS[paper]
    bw, bh = g.pitch
    for i in range(g.per_sheet):  # every card with its bleed lies inside the printable margin
        x, y = g.slot(i)
        assert margin - 1e-9 <= x and x + bw <= pw - margin + 1e-9
        assert margin - 1e-9 <= y and y + bh <= ph - margin + 1e-9


def test_the_layout_says_which_thinner_bleed_puts_more_on_a_sheet():
    # A4 poker: 2×3 with 3 mm bleed; 1.5 mm is the largest half-millimetre bleed that gives 3×3
    assert more_per_sheet(SheetSpec()) == (1.5, 3, 3)
    assert more_per_sheet(SheetSpec(bleed=1.5)) is None  # nothing gains from less (1 mm still gives 3×3)
    # Letter inside 5 mm is 205.9 mm wide: 3 × (63 + 2 × 2.5) = 204 fits
    assert more_per_sheet(SheetSpec(paper="letter", bleed=3)) == (2.5, 3, 2)


def test_a_card_too_big_for_the_paper_is_refused():
    with pytest.raises(SheetError, match="does not fit"):
        fit(SheetSpec(card=(250, 100)))
    with pytest.raises(SheetError):
        SheetSpec(paper="a3")
    with pytest.raises(SheetError):
        SheetSpec(bleed=-1)


@pytest.mark.parametrize("size", sorted(SIZES))
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("margin", [5.0, 0.0, 8.0])
def test_crop_marks_lie_outside_every_card_and_mark_every_trim_line(size, paper, margin):
    g = fit(SheetSpec(card=SIZES[size], paper=paper, margin=margin))
    pw, ph = PAPERS[paper]
    w, h = g.spec.card
    boxes = []
    for i in range(g.per_sheet):
        x, y = g.slot(i)
        boxes.append((x + 3, y + 3, x + 3 + w, y + 3 + h))
    marks = g.crop_marks()
    for x1, y1, x2, y2 in marks:
        for bx1, by1, bx2, by2 in boxes:
            # a mark may touch a trim line but never enters a card
            inside_x = max(x1, x2) > bx1 + 1e-6 and min(x1, x2) < bx2 - 1e-6
            inside_y = max(y1, y2) > by1 + 1e-6 and min(y1, y2) < by2 - 1e-6
            assert not (inside_x and inside_y), ((x1, y1, x2, y2), (bx1, by1, bx2, by2))
        # and never in the printer's dead zone along the sheet's edge
        assert min(x1, x2) >= margin - 1e-9 and max(x1, x2) <= pw - margin + 1e-9
        assert min(y1, y2) >= margin - 1e-9 and max(y1, y2) <= ph - margin + 1e-9
    xs, ys = g.trims()
    assert {round(m[0], 6) for m in marks if m[0] == m[2]} == {round(x, 6) for x in xs}
    assert {round(m[1], 6) for m in marks if m[1] == m[3]} == {round(y, 6) for y in ys}


def test_a_partly_filled_sheet_marks_only_the_cuts_of_its_cards():
    g = fit(SheetSpec(card=SIZES["mini"]))  # 4×4
    xs, ys = g.trims(filled=2)  # two cards: the first row's first two columns
    assert len(xs) == 4 and len(ys) == 2
    marks = g.crop_marks(filled=2)
    assert {round(m[0], 6) for m in marks if m[0] == m[2]} == {round(x, 6) for x in xs}
    assert {round(m[1], 6) for m in marks if m[1] == m[3]} == {round(y, 6) for y in ys}
    assert len(marks) < len(g.crop_marks())


def test_duplex_backs_are_mirrored_so_they_line_up():
    g = fit(SheetSpec(duplex=True))
    pw = PAPERS["a4"][0]
    bw = g.pitch[0]
    for i in range(g.per_sheet):
        fx, fy = g.slot(i)
        bx, by = g.slot(i, mirrored=True)
        assert by == fy and abs((bx + bw / 2) - (pw - (fx + bw / 2))) < 1e-9


# --- cards, copies, backs --------------------------------------------------------------------------


@pytest.mark.parametrize("duplex", [True, False])
@pytest.mark.parametrize("game", ["infernal_contraption", "fifty_first_state", "age_of_steam"])
def test_every_copy_is_printed_once_and_each_sheet_has_its_backs(bundled, game, duplex):
    spec = SheetSpec(duplex=duplex)
    d = deck(bundled, game, spec)
    gb = bundled.games[game]
    records = [c for doc in gb.modules.values() for c in doc.data.get("cards") or []]
    # the bundled games' setups create no cards from the card list: copies follow each card's count
    assert {pc.id: pc.count for pc in d.cards} == {c["id"]: c.get("count", 1) for c in records}
    assert {pc.copies_from for pc in d.cards} == {"count"}
    pages = sheet_pages(d, fit(spec))
    fronts = [p for p in pages if not p.back]
    backs = [p for p in pages if p.back]
    assert sum(len(p.slots) for p in fronts) == sum(c.get("count", 1) for c in records)
    # duplex: each sheet's backs follow it; without: every sheet's backs after all the fronts
    order = [False, True] * len(fronts) if duplex else [False] * len(fronts) + [True] * len(fronts)
    assert [p.back for p in pages] == order
    for n, (f, b) in enumerate(zip(fronts, backs)):
        assert len(f.slots) == len(b.slots) <= fit(spec).per_sheet
        assert b.of == pages.index(f) + 1  # a back page names the page of fronts it goes behind
        assert [y for _x, y, _face in f.slots] == [y for _x, y, _face in b.slots]


def test_copies_follow_the_setup_and_a_card_it_never_creates_is_named(tmp_path):
    import shutil

    import yaml

    data = tmp_path / "data"
    shutil.copytree(FIXTURES / "flow" / "deckbuild", data / "deckbuild")
    base = data / "deckbuild" / "base.yaml"  # a card no setup step creates
    base.write_text(base.read_text() + "  - {id: curse, name: Curse, kind: card, icons: [victory], cost: 0, vp: 0, count: 2}\n")
    seats = yaml.safe_load((data / "deckbuild" / "game.yaml").read_text())["seats"]["max"]
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags]
    d = deck(result, "deckbuild", SheetSpec())
    n = {pc.id: pc.count for pc in d.cards}
    how = {pc.id: pc.copies_from for pc in d.cards}
    # `create: {copper: 7, estate: 3}` into each player's deck, for the most players the game seats;
    # `create: {silver: 10, estate: 8, …}` into the shared supply
    assert d.copies.players == seats
    assert n["copper"] == 7 * seats and n["estate"] == 3 * seats + 8 and n["silver"] == 10
    assert how["copper"] == how["silver"] == "setup"
    assert n["curse"] == 2 and how["curse"] == "count" and d.copies.never_created == ["curse"]
    summary = d.copies.summary()
    assert f"as the game's setup creates them, for {seats} players" in summary
    assert "never created by the setup: curse" in summary
    pages = sheet_pages(d, fit(SheetSpec()))
    assert sum(len(p.slots) for p in pages if not p.back) == sum(n.values())


def test_a_double_sided_card_prints_its_other_face_on_the_back(bundled):
    d = deck(bundled, "fifty_first_state", SheetSpec())
    mother = next(pc for pc in d.cards if pc.id == "mother")
    assert mother.unique_back and "Hacked side" in mother.back and "Gain 2 Fuel" in mother.back
    oil = next(pc for pc in d.cards if pc.id == "oil_rig")
    assert not oil.unique_back and oil.back == d.backs["location"]


def test_faces_show_marks_the_data_has_and_invent_nothing(bundled):
    d = deck(bundled, "fifty_first_state", SheetSpec())
    mother = next(pc for pc in d.cards if pc.id == "mother")
    # Code, Defense and RAGE are provisional in the data: the face marks them and says so
    assert mother.face.count("†") >= 4 and "provisional, not printed in the rulebook: Code, Defense, Rage" in mother.face
    assert "provisional, not printed in the rulebook: Rows, Icons" in mother.back
    ic = deck(bundled, "infernal_contraption", SheetSpec())
    ep = next(pc for pc in ic.cards if pc.id == "entropic_processor")
    assert "provisional, not printed in the rulebook: Sockets" in ep.face
    assert "Put one card from your hand into your opponent" in ep.face  # the rulebook text


def test_sheet_html_is_deterministic(bundled):
    spec = SheetSpec(duplex=True, safe=3)
    a = render_sheets(deck(bundled, "fifty_first_state", spec), fit(spec))
    b = render_sheets(deck(compile_tree(BUNDLED, only={"fifty_first_state"}), "fifty_first_state", spec), fit(spec))
    assert a == b and 'class="safe"' in a and "\r" not in a


def test_hostile_card_text_stays_text_on_the_sheet(tmp_path):
    result = compile_tree(FIXTURES / "hostile")
    assert result.ok
    html = render_sheets(deck(result, "mini", SheetSpec()), fit(SheetSpec()))

    class Tags(HTMLParser):
        tags: list = []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, [a for a, _ in attrs]))

    p = Tags()
    p.tags = []
    p.feed(html)
    assert not [t for t, _ in p.tags if t in ("script", "iframe", "object", "embed")]
    assert not [a for _, attrs in p.tags for a in attrs if a.startswith("on")]
    assert "&#34;); import os #" in html


def test_art_is_read_only_from_inside_the_game_folder(tmp_path):
    game = tmp_path / "g"
    (game / "art").mkdir(parents=True)
    (game / "art" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert _art_uri(game, "art/a.png").startswith("data:image/png;base64,")
    assert _art_uri(game, "../secret.png") is None and _art_uri(game, "/etc/passwd") is None
    assert _art_uri(game, "art/missing.png") is None


# --- designer templates ------------------------------------------------------------------------------


def test_a_template_in_the_game_folder_overrides_a_kind(mini_game):
    (mini_game / "mini" / "templates").mkdir()
    (mini_game / "mini" / "templates" / "location.html.j2").write_text(
        '{% extends "face.html.j2" %}{% block header %}<h2 class="name">OVERRIDE {{ side.name | upper }}</h2>'
        '{% endblock %}', encoding="utf-8")
    (mini_game / "mini" / "templates" / "location.back.html.j2").write_text(
        '<div class="face back">BACK OF {{ kind.name }} IN {{ game.name }}</div>', encoding="utf-8")
    result = compile_tree(mini_game)
    d = deck(result, "mini", SheetSpec(), game_dir=mini_game / "mini")
    html = render_sheets(d, fit(SheetSpec()))
    assert "OVERRIDE OIL RIG" in html and "BACK OF Location IN Mini" in d.backs["location"]
    plain = render_sheets(deck(result, "mini", SheetSpec()), fit(SheetSpec()))
    assert "OVERRIDE" not in plain


# --- Tabletop Simulator --------------------------------------------------------------------------------


def test_tts_json_names_the_images_and_the_grid(bundled):
    spec = SheetSpec()
    d = deck(bundled, "infernal_contraption", spec)
    doc = json.loads(tts_json(d, spec, "https://example.invalid/cards/"))
    assert tts_json(d, spec, "https://example.invalid/cards/") == tts_json(d, spec, "https://example.invalid/cards/")
    sheets = {sh.stem: sh for sh in tts_sheets(d)}
    total = 0
    for obj in doc["ObjectStates"]:
        assert obj["Name"] in ("DeckCustom", "Card")
        cards = obj.get("ContainedObjects") or [obj]
        total += len(cards)
        for did, cd in (obj.get("CustomDeck") or cards[0]["CustomDeck"]).items():
            assert cd["NumWidth"] == 10 and cd["NumHeight"] == 7
            assert cd["FaceURL"].startswith("https://example.invalid/cards/infernal_contraption-")
            assert cd["FaceURL"].endswith("-faces.png") and cd["BackURL"].endswith(".png")
            stem = cd["FaceURL"].rsplit("/", 1)[1][len("infernal_contraption-"):-len("-faces.png")]
            assert stem in sheets
        if obj["Name"] == "DeckCustom":
            assert obj["DeckIDs"] == [c["CardID"] for c in cards]
            for c in cards:  # CardID = deck id × 100 + position in the grid
                did, pos = divmod(c["CardID"], 100)
                assert str(did) in c["CustomDeck"] and pos < 69
    assert total == sum(pc.count for pc in d.cards)


# --- the command ------------------------------------------------------------------------------------------


def test_cards_command_writes_html_and_refuses_bad_options(runner, mini_game, tmp_path):
    out = tmp_path / "out"
    res = runner.invoke(main, ["cards", "mini", "--data", str(mini_game), "--output", "html", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "mini-cards.html").is_file() and "2×3 = 6 poker cards a sheet on A4" in res.output \
        and "(--bleed 1.5 fits 3×3)" in res.output
    # progress: plain lines on stderr when not on a terminal (the runner is not one)
    assert "mini: laying out the cards\n" in res.stderr
    res = runner.invoke(main, ["cards", "mini", "--data", str(mini_game), "--size", "huge"])
    assert res.exit_code == 2 and "unknown card size" in res.output
    res = runner.invoke(main, ["cards", "nope", "--data", str(mini_game), "--output", "html"])
    assert res.exit_code == 2 and "no game 'nope'" in res.output


def test_write_cards_html_only_needs_no_browser(mini_game, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDWRIGHT_CHROMIUM", str(tmp_path / "no-such-browser"))
    result = compile_tree(mini_game)
    files = write_cards(result, "mini", tmp_path / "o", SheetSpec(), outputs=("html",))
    assert [f.name for f in files] == ["mini-cards.html"]
    again = write_cards(result, "mini", tmp_path / "o2", SheetSpec(), outputs=("html",))
    assert files[0].read_bytes() == again[0].read_bytes()



# --- any text stays text on a card -------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from compiler.reference import Effect, Field  # noqa: E402

_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("<>&\"'`*_[]#!|\\/=;:"),
                min_size=1, max_size=30)


def _tags(html: str) -> list[tuple[str, list[str]]]:
    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.out = []

        def handle_starttag(self, tag, attrs):
            self.out.append((tag, sorted(a for a, _ in attrs)))

        handle_startendtag = handle_starttag

    p = P()
    p.feed(html)
    return p.out


@pytest.fixture(scope="module")
def mini_faces():
    from compiler.cardsheet import Side, _Faces
    from compiler.reference import game_view

    result = compile_tree(ROOT / "tests" / "fixtures" / "mini")
    view = game_view(result, "mini")
    return _Faces(result, "mini", None, SheetSpec()), view.modules[0].cards[0], Side


@given(name=_TEXT, value=_TEXT | st.text(min_size=29, max_size=40), label=_TEXT)
@settings(max_examples=80, deadline=None)
def test_any_name_field_or_label_stays_text_on_a_face(mini_faces, name, value, label):
    faces, card, Side = mini_faces
    # the same shape with plain words (a long value is printed as a line of its own, so keep its length)
    plain = faces.face(card, Side("Name", "Kind", [Field("Label", "text", "v" * len(value))],
                                  [Effect("Label", "Gain 1 Fuel.")], [("provisional", "Label")]), None)
    face = faces.face(card, Side(name, label, [Field(label, "text", value)],
                                 [Effect(label, "Gain 1 Fuel.")], [("provisional", label)]), None)
    assert _tags(face) == _tags(plain)


def test_an_art_field_puts_the_picture_on_the_face(mini_game):
    game_yaml = mini_game / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "      icons: icons\n", "      icons: icons\n      art: str\n", 1), encoding="utf-8")
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace(
        "    name: Oil Rig\n", "    name: Oil Rig\n    art: images/oil_rig.png\n", 1), encoding="utf-8")
    (mini_game / "mini" / "images").mkdir()
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
    (mini_game / "mini" / "images" / "oil_rig.png").write_bytes(png)
    result = compile_tree(mini_game)
    assert result.ok, [d.render() for d in result.diags.errors]
    d = deck(result, "mini", SheetSpec(), game_dir=mini_game / "mini")
    oil = next(pc for pc in d.cards if pc.id == "oil_rig")
    import base64

    assert f'src="data:image/png;base64,{base64.b64encode(png).decode()}"' in oil.face
    assert "images/oil_rig.png" not in oil.face  # shown as the picture, not as a field
    assert all("<img" not in pc.face for pc in d.cards if pc.id != "oil_rig")


def test_tts_names_cannot_open_a_tts_tag(bundled):
    spec = SheetSpec()
    d = deck(bundled, "infernal_contraption", spec)
    d.cards[0].name = "[ff0000]Red[-] [b]bold"
    d.cards[0].text = "[i]slanted"
    doc = json.loads(tts_json(d, spec, "x/"))

    def strings(v):
        if isinstance(v, dict):
            for x in v.values():
                yield from strings(x)
        elif isinstance(v, list):
            for x in v:
                yield from strings(x)
        elif isinstance(v, str):
            yield v

    texts = list(strings(doc))
    assert not [t for t in texts if re.search(r"\[(?:[0-9a-fA-F]{6}|-|/?[biusx]|sub|sup)\]", t)]
    assert any(t.replace("\u200b", "") == "[ff0000]Red[-] [b]bold" for t in texts)


# --- icons and art from the game folder (compiler/printassets.py) -------------------------------------


def _with_art_field(mini_game, art: str):
    game_yaml = mini_game / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "      icons: icons\n", "      icons: icons\n      art: str\n", 1), encoding="utf-8")
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace(
        "    name: Oil Rig\n", f"    name: Oil Rig\n    art: {art}\n", 1), encoding="utf-8")
    return base


@pytest.mark.parametrize("art,why", [
    ("images/missing.png", "does not exist"),
    ("https://example.com/oil.png", "remote"),
    ("file:///etc/passwd", "remote"),
    ("../../secret.png", "outside the game folder"),
])
def test_missing_or_remote_art_is_a_located_error_at_validate(mini_game, runner, art, why):
    base = _with_art_field(mini_game, art)
    (mini_game.parent / "secret.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    res = runner.invoke(main, ["validate", str(mini_game), "--format", "json"])
    assert res.exit_code == 1
    diags = json.loads(res.output)["diagnostics"]
    assert [(d["code"], d["card"], d["severity"]) for d in diags] == [("E212", "oil_rig", "error")]
    line = base.read_text(encoding="utf-8").splitlines()[diags[0]["line"] - 1]
    assert line.strip() == f"art: {art}" and line.index(art) + 1 == diags[0]["column"]
    assert why in diags[0]["message"]


def test_icons_that_print_the_same_letter_get_a_warning(mini_game, runner):
    game_yaml = mini_game / "mini" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("  red: {name: Red, good: gun}\n",
                                      "  red: {name: Red, good: gun}\n  rust: {name: Rust, good: gun}\n"), encoding="utf-8")
    res = runner.invoke(main, ["validate", str(mini_game)])
    assert res.exit_code == 0  # a warning: the game still builds
    lines = game_yaml.read_text(encoding="utf-8").splitlines()
    m = re.search(r"game\.yaml:(\d+):\d+: warning E211 icons 'red' and 'rust' both print the letter 'R'", res.output)
    assert m and lines[int(m.group(1)) - 1].strip().startswith("rust:")
    # a letter of its own, or a picture, tells them apart
    game_yaml.write_text(text.replace("  red: {name: Red, good: gun}\n",
                                      "  red: {name: Red, good: gun}\n  rust: {name: Rust, good: gun, letter: U}\n"),
                         encoding="utf-8")
    assert "E211" not in runner.invoke(main, ["validate", str(mini_game)]).output


def test_an_icon_image_is_embedded_in_faces_and_the_reference(mini_game, runner, tmp_path):
    import base64

    from compiler.reference import g_icons, game_view, render_game

    svg = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="green"/></svg>'
    (mini_game / "mini" / "icons").mkdir()
    (mini_game / "mini" / "icons" / "green.svg").write_bytes(svg)
    game_yaml = mini_game / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "  green: {name: Green, good: fuel}", "  green: {name: Green, good: fuel, image: icons/green.svg}"), encoding="utf-8")
    result = compile_tree(mini_game)
    assert result.ok, [d.render() for d in result.diags]
    uri = f'src="data:image/svg+xml;base64,{base64.b64encode(svg).decode()}"'
    oil = next(pc for pc in deck(result, "mini", SheetSpec(), game_dir=mini_game / "mini").cards if pc.id == "oil_rig")
    assert uri in oil.face and "<b>G</b>" not in oil.face  # the picture, not the lettered badge
    html = render_game(game_view(result, "mini"), "html", g_icons(result, "mini"))
    assert html.count(uri) >= 2  # the icon table and the card
    assert "icons/green.svg" not in html and "file:" not in html
    # an image outside icons/ is refused, located
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("icons/green.svg", "base.yaml"), encoding="utf-8")
    res = runner.invoke(main, ["validate", str(mini_game)])
    assert res.exit_code == 1 and "E212 icon image 'base.yaml' is outside the game's icons/ folder" in res.output


def test_a_card_without_effect_text_says_what_its_drawing_shows(bundled):
    d = deck(bundled, "infernal_contraption", SheetSpec())
    core = next(pc for pc in d.cards if pc.kind == "power_core")
    rec = next(c for doc in bundled.games["infernal_contraption"].modules.values() for c in doc.data.get("cards") or []
               if c["id"] == core.id)
    names = {k: (v or {}).get("name") for k, v in bundled.games["infernal_contraption"].vocab.source["tables"]["sockets"].items()}
    text = " ".join(re.sub(r"<[^>]+>", " ", str(core.face)).split())
    for side, socket in rec["sockets"].items():  # every socket in words, not only as a ring
        assert f"{side.capitalize()} {names[socket]}" in text
    # a card with effect text keeps its face as it was: its sockets only as rings
    other = next(pc for pc in d.cards if pc.kind == "contraption")
    assert "Sockets:" not in other.face


def test_rulebook_quotes_draw_the_icons_they_name(bundled):
    d = deck(bundled, "fifty_first_state", SheetSpec())
    quoted = [pc for pc in d.cards if "icon]" in " ".join(
        str(c.get("text") or "") for doc in bundled.games["fifty_first_state"].modules.values()
        for c in doc.data.get("cards") or [] if c["id"] == pc.id)]
    assert quoted
    icons = bundled.games["fifty_first_state"].vocab.source["icons"]
    for pc in quoted:
        quote = re.search(r'<blockquote class="printed">(.*?)</blockquote>', str(pc.face), re.S).group(1)
        for word in re.findall(r"\[([A-Za-z ]+) icon\]", quote):  # only placeholders naming no icon stay
            assert word.lower() not in icons and word.lower() not in {(v or {}).get("name", "").lower() for v in icons.values()}
        assert 'class="icon' in quote


FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf")


def _with_font(mini_game, family: str = "Narrow"):
    (mini_game / "mini" / "fonts").mkdir()
    (mini_game / "mini" / "fonts" / "Narrow-Regular.ttf").write_bytes(FONT.read_bytes())
    game_yaml = mini_game / "mini" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8") + f"fonts: {{body: {family}, names: {family}}}\n",
                         encoding="utf-8")
    return game_yaml


@pytest.mark.skipif(not FONT.is_file(), reason="needs the DejaVu fonts (fonts-dejavu-core)")
def test_a_font_from_the_game_folder_is_embedded_and_used(mini_game, runner):
    import base64

    _with_font(mini_game)
    result = compile_tree(mini_game)
    assert result.ok, [d.render() for d in result.diags]
    html = render_sheets(deck(result, "mini", SheetSpec(), game_dir=mini_game / "mini"), fit(SheetSpec()))
    data = base64.b64encode(FONT.read_bytes()).decode("ascii")
    assert f'@font-face {{ font-family: "Narrow"; font-weight: 400; font-style: normal; src: url(data:font/ttf;base64,{data}); }}' in html
    assert '.face { font-family: "Narrow", "DejaVu Sans"' in html and "fonts/Narrow" not in html
    # the rules reference embeds it too, for its text and headings
    from compiler.reference import g_icons, game_view, render_game

    for audience in ("players", "designers"):
        ref = render_game(game_view(result, "mini"), "html", g_icons(result, "mini"), audience=audience)
        assert f'src: url(data:font/ttf;base64,{data})' in ref and 'body { font-family: "Narrow", "DejaVu Sans"' in ref
        assert 'h1, h2, h3, h4 { font-family: "Narrow"' in ref
    # a game without fonts keeps the reference as it was
    bundled_ref = render_game(game_view(compile_tree(BUNDLED, only={"age_of_steam"}), "age_of_steam"), "html", {})
    assert "@font-face" not in bundled_ref


@pytest.mark.skipif(not FONT.is_file(), reason="needs the DejaVu fonts (fonts-dejavu-core)")
def test_a_font_the_game_folder_does_not_hold_is_a_located_error(mini_game, runner):
    game_yaml = _with_font(mini_game, "Bitter")
    res = runner.invoke(main, ["validate", str(mini_game), "--format", "json"])
    assert res.exit_code == 1
    diags = json.loads(res.output)["diagnostics"]
    assert [(d["code"], d["path"]) for d in diags] == [("E212", "fonts.body"), ("E212", "fonts.names")]
    for d in diags:
        assert "font 'Bitter' is not under mini/fonts/ (families there: Narrow)" in d["message"]
        line = game_yaml.read_text(encoding="utf-8").splitlines()[d["line"] - 1]
        assert line.startswith("fonts:") and line[d["column"] - 1:].startswith("Bitter")


def test_png_size_and_margin_options_are_checked(runner, mini_game, tmp_path):
    base = ["cards", "mini", "--data", str(mini_game), "--output", "html", "--out", str(tmp_path / "o")]
    res = runner.invoke(main, base + ["--png-size", "822by1122"])
    assert res.exit_code == 2 and "use WxH in pixels" in res.output
    res = runner.invoke(main, base + ["--png-size", "600x900"])  # 50.8 mm wide: narrower than a poker card
    assert res.exit_code == 2 and "smaller than the 63×88 mm card" in res.output
    res = runner.invoke(main, base + ["--margin", "40"])
    assert res.exit_code == 2 and "margin 40.0 mm is out of range" in res.output
    res = runner.invoke(main, base + ["--margin", "0", "--png-size", "822x1122"])
    assert res.exit_code == 0 and "3×3 = 9 poker cards a sheet on A4 with 3 mm bleed inside a 0 mm margin" in res.output
    assert SheetSpec(png_size=(822, 1122)).png_px == (822, 1122)
