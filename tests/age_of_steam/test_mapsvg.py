"""The Moon map as SVG: deterministic, complete, and readable without colour."""
from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

from runtime.games.age_of_steam.mapsvg import render_map_svg

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
    from runtime.model import model_of

    m, v = _moon()
    assert render_map_svg(m, model_of(v)) == render_map_svg(m, v)


def _label_boxes_and_lines(svg: str):
    """Every label's box and every drawn line segment, each with its place in drawing order."""
    from runtime.games.age_of_steam.mapsvg import text_box

    root = ET.fromstring(svg)
    hex_outlines = {id(p) for g in root.iter(f"{NS}g") if g.get("class") == "hexes" for p in g}
    lines, boxes = [], []
    for order, el in enumerate(root.iter()):
        if el.tag == f"{NS}polygon" and el.get("stroke") != "none":
            pts = [tuple(float(v) for v in p.split(",")) for p in el.get("points").split()]
            lines += [(order, seg, id(el) in hex_outlines) for seg in zip(pts, pts[1:] + pts[:1])]
        elif el.tag == f"{NS}line":
            lines.append((order, ((float(el.get("x1")), float(el.get("y1"))),
                                  (float(el.get("x2")), float(el.get("y2")))), False))
        elif el.tag == f"{NS}text" and {"label", "coords", "terrain"} & set((el.get("class") or "").split()):
            box = text_box(float(el.get("x")), float(el.get("y")), el.text, float(el.get("font-size")),
                           el.get("text-anchor"))
            boxes.append((order, el.text, box, el.get("paint-order") == "stroke"))
    return boxes, lines


import pytest  # noqa: E402


@pytest.mark.parametrize("coords", [False, True])
def test_no_line_crosses_a_label(coords):
    """A label is crossed by a line drawn over it, or by one under it when it has no halo to stop it."""
    from runtime.games.age_of_steam.mapsvg import _segments_cross_box

    m, v = _moon()
    svg = render_map_svg(m, v, coords=coords)
    boxes, lines = _label_boxes_and_lines(svg)
    assert len(boxes) >= 12 + 61  # terrain letters (or coordinates), names, the Landing, the spaces
    assert len(lines) > 6 * 61
    crossed = [name for order, name, box, halo in boxes
               if any(_segments_cross_box([seg], box) and (lorder > order or not halo) for lorder, seg, _ in lines)]
    assert not crossed
    # hex edges never cross a label at all: every name fits inside its hex
    edges = [seg for _, seg, is_hex in lines if is_hex]
    assert not [name for _, name, box, _ in boxes if _segments_cross_box(edges, box)]


def test_coordinate_overlay_names_every_hex():
    m, v = _moon()
    texts = _texts(render_map_svg(m, v, coords=True))
    assert "C 0,-4" in texts and "M 3,-4" in texts
    assert sum(1 for t in texts if t and re.fullmatch(r"[CM] -?\d+,-?\d+", t)) == 61
    assert not any(t and re.fullmatch(r"[CM] -?\d+,-?\d+", t) for t in _texts(render_map_svg(m, v)))
