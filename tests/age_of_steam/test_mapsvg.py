"""The Moon map as SVG: deterministic, complete, and readable without colour."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from compiler.mapsvg import render_map_svg

from .helpers import compiled

NS = "{http://www.w3.org/2000/svg}"


def _moon():
    c = compiled()
    return c.maps["moon"], c.vocab


def _texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{NS}text")]


def test_moon_svg_snapshot(snapshot):
    m, v = _moon()
    svg = render_map_svg(m, v)
    assert svg == render_map_svg(copy.deepcopy(m), copy.deepcopy(v))  # deterministic
    assert svg == snapshot


def test_moon_svg_shows_every_feature_in_letters():
    m, v = _moon()
    svg = render_map_svg(m, v)
    texts = _texts(svg)
    assert texts.count("M") == 8 and texts.count("C") == 61 - 8  # terrain letters on every hex
    assert texts.count("T") == 5 and texts.count("L") == 1  # Towns and the Landing hex
    assert sorted(t for t in texts if re.fullmatch(r"[RBYPK][1-6]", t or "")) == ["B2", "B5", "P4", "R1", "R6", "Y3"]
    assert [t for t in texts if t and t.startswith("X")] == ["X1", "X2", "X3", "X4", "X5", "X6"]
    for label in ("1", "2", "3"):
        assert texts.count(label) == 2  # each wrap label on its two edges
    assert "Sun starts here: this side is day" in texts
    assert svg.count('class="day-night"') == 1 and 'stroke-dasharray="8 4"' in svg
    assert "<desc>Illustrative layout:" in svg
    assert "C = Crater: simple track $3" in texts and "M = Mountain: simple track $4" in texts


def test_svg_escapes_names_from_data():
    m, v = _moon()
    m = copy.deepcopy(m)
    m["hexes"][0]["town"] = {"name": '<script>alert("x")</script>'}
    svg = render_map_svg(m, v)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    ET.fromstring(svg)  # still well-formed XML


def test_svg_takes_a_vocabulary_object_too():
    from compiler.vocabulary import Vocabulary

    m, v = _moon()
    assert render_map_svg(m, Vocabulary.from_data(v)) == render_map_svg(m, v)
