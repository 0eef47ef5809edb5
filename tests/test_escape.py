"""runtime/escape.py: one escaping function per output format, property-tested over arbitrary strings,
and the renderers that use it (reference HTML and Markdown, hex-map SVG, socket pictures)."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from compiler.build import compile_tree
from compiler.reference import game_view, render_game
from runtime import escape
from runtime.games.age_of_steam.mapsvg import render_map_svg
from tests.conftest import MINI

# Strings a designer might type, plus every ASCII punctuation mark and the line breaks that matter.
MARKUP_CHARS = "<>&\"'`*_[]()#!|\\~$-+=.:/ \n\r\t\u2028{}%@^;,?"
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(MARKUP_CHARS),
               max_size=40)
NASTY = ['x" onmouseover="alert(1)', "<script>alert(1)</script>", "*bold* _em_ `code` [link](http://e.x)",
         "# heading", "1. list", "| a | b |", "line\nbreak", "&amp; &lt;", "![img](x.png)", "<http://e.x>"]


def _expected(s: str) -> str:
    """What a reader sees: escape functions keep text, but replace XML-forbidden characters."""
    return re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]", "\ufffd", s)


# --- HTML ------------------------------------------------------------------------------------------------


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list]] = []
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_data(self, data):
        self.text += data


def _parse_html(doc: str) -> _Collect:
    p = _Collect()
    p.feed(doc)
    p.close()
    return p


@given(TEXT)
def test_html_text_and_attribute_stay_text(s):
    doc = f'<p title="{escape.html(s)}" data-x=\'{escape.html(s)}\'>{escape.html(s)}</p>'
    p = _parse_html(doc)
    assert p.tags == [("p", [("title", _expected(s)), ("data-x", _expected(s))])]
    assert p.text == _expected(s)


@given(TEXT)
def test_html_is_also_well_formed_xml_for_svg(s):
    root = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg" aria-label="{escape.html(s)}">'
                         f"<text>{escape.html(s)}</text></svg>")
    assert list(root.attrib) == ["aria-label"]
    assert len(root) == 1 and len(root[0]) == 0


# --- Markdown ---------------------------------------------------------------------------------------------

_MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _md_html(src: str) -> _Collect:
    return _parse_html(_MD.render(src))


def _words(s: str) -> list[str]:
    return s.split()


# contexts the reference templates put a value in, and the only tags each may produce
CONTEXTS = {
    "paragraph": ("{}", {"p"}),
    "heading": ("# {} — rules reference", {"h1"}),
    "list item": ("- **Label:** {}", {"ul", "li", "strong"}),
    "numbered": ("1. **{}**", {"ol", "li", "strong"}),
    "table cell": ("| a | b |\n|---|---|\n| {} | z |", {"table", "thead", "tbody", "tr", "th", "td"}),
    "link text": ("| [{}](game.md) |\n|---|\n| x |", {"table", "thead", "tbody", "tr", "th", "td", "a"}),
    "emphasis": ("*{}*", {"p", "em"}),
    "quote": ("> Rulebook text: “{}”", {"blockquote", "p"}),
}


@pytest.mark.parametrize("context", sorted(CONTEXTS))
@given(s=TEXT)
@settings(max_examples=150)
def test_markdown_escaping_keeps_the_text_and_adds_no_markup(context, s):
    assume(s.strip())  # an empty value leaves the template's own marks alone ("****"), not an escaping matter
    template, allowed = CONTEXTS[context]
    shape = _md_html(template.format("QQZZ"))  # the context with a plain word in it
    p = _md_html(template.format(escape.md(s)))
    assert [t for t, _ in p.tags] == [t for t, _ in shape.tags], escape.md(s)
    assert {t for t, _ in p.tags} <= allowed
    shown = re.sub(r"[\r\n\u2028\u2029\u0085\t\v\f]", " ", _expected(s))
    assert "".join(p.text.split()) == "".join(shape.text.replace("QQZZ", shown).split()), escape.md(s)


@given(TEXT)
def test_markdown_link_targets_are_one_token(s):
    p = _md_html(f"[x]({escape.md_url(s)})")
    links = [dict(a) for t, a in p.tags if t == "a"]
    assert len(links) == 1 and p.text.strip() == "x"


@pytest.mark.parametrize("s", NASTY)
def test_markdown_of_nasty_names_is_plain_text(s):
    p = _md_html(f"#### {escape.md(s)}")
    assert [t for t, _ in p.tags] == ["h4"]
    assert _words(p.text) == _words(s)


# --- ids, colours ------------------------------------------------------------------------------------------


@given(TEXT, TEXT)
def test_svg_ids_are_safe_and_distinct(a, b):
    ia, ib = escape.svg_id("pat", a), escape.svg_id("pat", b)
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", ia)
    assert escape.svg_id("pat", a) == ia  # deterministic
    if a != b:
        assert ia != ib


@given(TEXT)
def test_css_colour_is_a_colour_or_nothing(s):
    c = escape.css_colour(s)
    assert c is None or not re.search(r"[;:\"'<>{}\\/]", c)


# --- the renderers -------------------------------------------------------------------------------------


def test_a_terrain_key_cannot_add_an_attribute_to_the_map():
    key = 'crater" onmouseover="alert(1)'
    vocab = {"tables": {"terrain": {key: {"name": "<b>Crater</b>", "letter": "<", "pattern": "dots",
                                          "colour": 'red" onclick="x', "track_cost": 3}}}}
    svg = render_map_svg({"name": "M&M <map>", "hexes": [{"at": "0,0", "terrain": key}]}, vocab)
    root = ET.fromstring(svg)
    for el in root.iter():
        assert not any(a.lower().startswith("on") for a in el.attrib), el.attrib
    ids = [el.attrib["id"] for el in root.iter() if "id" in el.attrib]
    fills = [el.attrib["fill"] for el in root.iter() if el.attrib.get("fill", "").startswith("url(")]
    assert ids and all(re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", i) for i in ids)
    assert fills == [f"url(#{ids[0]})"]  # the pattern is still found
    assert "<b>Crater</b>" in "".join(root.itertext())


@pytest.fixture(scope="module")
def mini_view():
    result = compile_tree(MINI)
    assert result.ok
    return game_view(result, "mini"), dict(result.games["mini"].vocab.source.get("icons") or {})


def _hostile(view, s: str):
    view = copy.deepcopy(view)
    view.name = s
    view.note = s
    for mod in view.modules:
        mod.name = s
        mod.note = s
        for c in mod.cards:
            c.name, c.note, c.printed, c.source = s, s, s, s
            for f in c.fields:
                f.label = s
                if f.kind == "text":
                    f.value = s
    return view


@pytest.mark.parametrize("s", NASTY)
def test_the_reference_html_keeps_hostile_names_as_text(mini_view, s):
    view, icons = mini_view
    plain = _parse_html(render_game(_hostile(view, "Plain"), "html", icons))
    page = _parse_html(render_game(_hostile(view, s), "html", icons))
    # the same elements and attribute names as with the real names: nothing was added
    assert [(t, sorted(a for a, _ in at)) for t, at in page.tags] == \
        [(t, sorted(a for a, _ in at)) for t, at in plain.tags]
    assert s.replace("\n", " ") in page.text.replace("\n", " ")


@pytest.mark.parametrize("s", NASTY)
def test_the_reference_markdown_keeps_hostile_names_as_text(mini_view, s):
    view, icons = mini_view
    plain = _md_html(render_game(_hostile(view, "Plain"), "md", icons, with_clauses=False))
    page = _md_html(render_game(_hostile(view, s), "md", icons, with_clauses=False))
    assert [t for t, _ in page.tags] == [t for t, _ in plain.tags]
    assert " ".join(s.split()) in " ".join(page.text.split())


@given(TEXT)
def test_tts_text_never_opens_a_tag_and_reads_the_same(s):
    out = escape.tts(s)
    assert not re.search("\\[(?!\u200b)", out)
    assert out.replace("[\u200b", "[") == s


@given(TEXT)
def test_css_strings_stay_strings_inside_a_style_element(s):
    out = escape.css_string(s)
    assert out[0] == out[-1] == '"'
    assert not re.search(r"[<>&\"\n\r{}\\]", out[1:-1].replace("\\", ""))  # only hex escapes use a backslash
    assert re.fullmatch(r"(?:[^\\]|\\[0-9a-f]{1,6} )*", out[1:-1])
