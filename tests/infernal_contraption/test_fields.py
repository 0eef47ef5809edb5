"""Infernal Contraption's ``sockets`` field type (runtime/games/infernal_contraption/fields.py): its
schema, its picture in the rules reference and on card sheets, its legend, all reached through the
engine's ``field_types`` table (runtime/fieldtypes.py) — the compiler names no socket."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from compiler.build import compile_tree
from compiler.reference import game_view, render_game
from compiler.schema import card_schema, field_schema
from compiler.schemaexport import game_card_schema
from runtime.engine import ENGINES
from runtime.fieldtypes import Legend, Shown
from runtime.games.infernal_contraption.fields import SOCKETS
from runtime.games.infernal_contraption.socketsvg import face_svg, socket_svg
from tests.conftest import ROOT

HOSTILE = '"/><script>alert(1)</script>'
VOCAB = {"engine": "infernal_contraption",
         "tables": {"sockets": {"gears": {"name": "Gears", "colour": "#c9a227"},
                                "bad": {"name": "<b>Bad</b> *x* | y", "letter": HOSTILE, "note": "<i>n</i> | z",
                                        "colour": 'red" onclick="x'},
                                "universal": {"name": "Universal"}}}}


@pytest.fixture(scope="module")
def view():
    result = compile_tree(ROOT / "data", only={"infernal_contraption"})
    assert result.ok, [d.render() for d in result.diags.errors]
    return game_view(result, "infernal_contraption")


def _svg(text: str):
    return ET.fromstring(text.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_the_engine_declares_the_sockets_type():
    assert ENGINES["infernal_contraption"].field_types == {"sockets": SOCKETS}
    assert ENGINES["core"].field_types == {} and ENGINES["fifty_first_state"].field_types == {}


def test_schema_lists_the_socket_types_of_the_game():
    schema = field_schema("sockets", VOCAB)
    assert schema["required"] == ["left", "right", "top", "bottom"] and schema["additionalProperties"] is False
    assert schema["properties"]["left"] == {"enum": ["bad", "gears", "universal"]}
    # without a socket table any text is a socket type
    assert field_schema("sockets", {"engine": "infernal_contraption"})["properties"]["top"] == {"type": "string"}
    # another engine has no such type: a game on it that names "sockets" gets nothing from the IC engine
    assert field_schema("sockets", {**VOCAB, "engine": "core"}) == {}


def test_exported_schema_names_each_socket_type():
    vocab = {**VOCAB, "game": "g", "card_kinds": {"part": {"fields": {"sockets": "sockets"}}}}
    schema = game_card_schema(vocab)
    item = schema["allOf"][0]["then"]["properties"]["sockets"]["properties"]["left"]
    assert item["enum"] == ["bad", "gears", "universal"]
    assert item["enumDescriptions"] == ["<b>Bad</b> *x* | y", "Gears", "Universal"]
    assert card_schema(vocab)["allOf"][0]["then"]["properties"]["sockets"]["type"] == "object"


def test_ic_card_shows_sockets_provisional_mark_and_source(view):
    card = next(c for m in view.modules for c in m.cards if c.id == "entropic_processor")
    [shown] = card.engine_fields
    assert (shown.engine, shown.type, shown.field, shown.mark) == ("infernal_contraption", "sockets", "sockets",
                                                                    "provisional")
    assert set(shown.view["sides"]) == {"left", "right", "top", "bottom"}
    assert shown.view["sides"]["left"]["name"] == "Gears" and shown.view["sides"]["left"]["letter"] == "G"
    assert not any(f.label == "Sockets" for f in card.fields)  # drawn by the type, not listed as a field
    html = SOCKETS.html(shown)
    assert html.count("<circle") == 4 and "<li>Left: Gears</li>" in html and "†" in html
    assert SOCKETS.md(shown).startswith("- **Sockets:** left Gears [G] · right ")
    assert card.source.startswith("rulebook 003_")
    page = render_game(view, "html", {})
    assert "Socket legend" in page and "is provisional" in page and html in page
    assert ".card .socketbox" in page  # the type's stylesheet rules come with it
    md = render_game(view, "md", {})
    assert "### Socket legend" in md and SOCKETS.md(shown) in md


def test_the_socket_table_is_the_legend_not_a_plain_table(view):
    [legend] = view.legends
    assert legend.title == "Socket legend" and [s["key"] for s in legend.view][-1] == "universal"
    assert not any(t.title == "Sockets" for t in view.tables)


def test_socket_drawing_marks_every_side_with_a_letter():
    svg = socket_svg({"left": {"key": "gears", "letter": "G"}, "top": {"key": "universal", "letter": "U"}})
    assert svg.count("<circle") == 2 and ">G<" in svg and ">U<" in svg and "stroke-dasharray" in svg


def test_socket_letters_are_text():
    svg = socket_svg({"top": {"key": "x", "letter": HOSTILE}})
    assert not any(el.tag.endswith("script") for el in _svg(svg).iter())


def test_hostile_socket_names_stay_text_everywhere():
    shown = Shown("infernal_contraption", "sockets", "sockets", "Sockets", "",
                  SOCKETS.view({"left": "bad", "right": "gears", "top": "universal", "bottom": "bad"}, VOCAB))
    html = SOCKETS.html(shown)
    assert "<script" not in html and "<b>" not in html and "onclick" not in html
    assert "&lt;b&gt;Bad&lt;/b&gt;" in html
    face = SOCKETS.face(shown, {"w": 63.0, "h": 88.0})
    root = _svg(face)
    assert not any(el.tag.endswith("script") for el in root.iter())
    assert not any(a.startswith("on") for el in root.iter() for a in el.attrib)
    assert [el.attrib["fill"] for el in root.iter() if el.tag.endswith("circle")][::2] == \
        ["#ffffff", "#ffffff", "#c9a227", "#ffffff"]  # the bad colour is dropped (top is Universal)
    md = SOCKETS.md(shown)
    assert "<" not in md and "\\*x\\*" in md and "\\|" in md
    legend = Legend("infernal_contraption", "sockets", "Socket legend", SOCKETS.legend(VOCAB))
    lhtml, lmd = SOCKETS.legend_html(legend), SOCKETS.legend_md(legend)
    assert "<i>" not in lhtml and "&lt;i&gt;n&lt;/i&gt;" in lhtml and "<script" not in lhtml
    assert "<i>" not in lmd and "&lt;i&gt;n&lt;/i&gt; \\| z" in lmd


def test_face_rings_sit_on_the_trim_edges_without_overhanging_the_cut():
    sides = {s: {"key": "gears", "letter": "G", "colour": "#c9a227"} for s in ("top", "left", "right", "bottom")}
    w, h = 63.0, 88.0
    root = _svg(face_svg(sides, w, h))
    rings = [el.attrib for el in root.iter() if el.tag.endswith("circle")][::2]
    centres = [(float(a["cx"]), float(a["cy"])) for a in rings]
    assert [c for c in centres if c[0] == w / 2] and [c for c in centres if c[1] == h / 2]  # mid-edge, all four
    assert len(centres) == 4
    for a in rings:  # the ring with its stroke lies inside the trim, close to the edge
        x, y, reach = float(a["cx"]), float(a["cy"]), float(a["r"]) + float(a["stroke-width"]) / 2
        gap = min(x - reach, w - x - reach, y - reach, h - y - reach)
        assert 0.2 <= gap <= 0.5, a
