"""Render a hex map (a module's ``map:`` section) as a standalone SVG for the rules reference.

``render_map_svg(map_data, vocab)`` draws terrain, Towns, Cities, the Landing hex, wrap-around
labels, the Satellite spaces (X1…X6), the Sun spaces and the day/night line. It reads in black and
white: every terrain carries its letter and a fill pattern, every City the letter of its colour and
its number, Towns a "T", the Landing hex an "L" and a double outline — colour only adds to that.

Output is deterministic (sorted iteration, fixed number formatting) and safe: every text from the
data goes through ``compiler.escape`` — ``html`` for text and attribute values, ``svg_id`` for ids
made from terrain keys, ``css_colour`` for fills (a key or colour can never add an attribute).
``vocab`` is the game's vocabulary (game.yaml as loaded, e.g. ``VOCAB`` of a
generated game package): terrain letters, colours, patterns and costs come from its ``tables``.
"""
from __future__ import annotations

from .escape import css_colour, svg_id
from .escape import html as escape

from runtime.hexgrid import HexMap, corners, fmt, pixel, side_midpoint

SIZE = 30.0  # hex radius in px
_PATTERNS = {
    "dots": '<circle cx="3" cy="3" r="1.1" fill="#000" fill-opacity="0.35"/>',
    "hatch": '<path d="M0,6 L6,0" stroke="#000" stroke-opacity="0.45" stroke-width="1"/>',
    "cross": '<path d="M0,6 L6,0 M0,0 L6,6" stroke="#000" stroke-opacity="0.4" stroke-width="0.8"/>',
    "waves": '<path d="M0,3 Q1.5,1 3,3 T6,3" fill="none" stroke="#000" stroke-opacity="0.4" stroke-width="0.8"/>',
}


def _n(v: float) -> str:
    s = f"{v:.1f}"
    return "0.0" if s == "-0.0" else s


def _pts(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _text(x: float, y: float, s: str, size: float = 10, weight: str = "normal", anchor: str = "middle",
          cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" '
            f'text-anchor="{anchor}" dominant-baseline="central"{c}>{escape(s)}</text>')


def render_map_svg(map_data: dict, vocab: dict) -> str:
    """The map as an SVG document (a string). ``vocab``: game.yaml as a dict, or a ``Vocabulary``."""
    if vocab is not None and not isinstance(vocab, dict):
        vocab = getattr(vocab, "data", None) or {}  # compiler.vocabulary.Vocabulary keeps game.yaml in .data
    tables = (vocab or {}).get("tables") or {}
    terrain = tables.get("terrain") or {}
    colours = tables.get("cube_colours") or {}
    hm = HexMap.from_data(map_data)
    s = SIZE

    def px(h):
        return pixel(h, s)

    pts = [px(h) for h in hm.hexes]
    pts += [px(c) for _, c in hm.spaces if c] + [px(c) for c in hm.sun_spaces.values() if c]
    if not pts:
        pts = [(0.0, 0.0)]
    pad = s * 1.6
    minx, maxx = min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad
    miny, maxy = min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad
    legend_h = 18.0 * (len(terrain) + 4)
    width, height = maxx - minx, maxy - miny + legend_h
    title = map_data.get("name") or "Map"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(minx)} {_n(miny)} {_n(width)} {_n(height)}" '
           f'width="{_n(width)}" height="{_n(height)}" role="img" aria-label="{escape(str(title) + " map")}" '
           'font-family="sans-serif">',
           f"<title>{escape(str(title))}</title>"]
    if map_data.get("illustrative"):
        out.append(f"<desc>Illustrative layout: {escape(str(map_data['illustrative']))}</desc>")
    out.append("<defs>")
    for key, spec in sorted(terrain.items()):
        pat = _PATTERNS.get((spec or {}).get("pattern") or "")
        if pat:
            out.append(f'<pattern id="{svg_id("pat", key)}" width="6" height="6" patternUnits="userSpaceOnUse">{pat}</pattern>')
    out.append("</defs>")

    # hexes: terrain colour, pattern, letter
    out.append('<g class="hexes" stroke="#000" stroke-width="1">')
    for h in sorted(hm.hexes):
        rec = hm.hexes[h]
        t = rec.get("terrain")
        spec = terrain.get(t) or {}
        cx, cy = px(h)
        poly = _pts(corners(cx, cy, s))
        out.append(f'<polygon points="{poly}" fill="{css_colour(spec.get("colour"), "#ffffff")}">'
                   f'<title>{escape(fmt(h))} {escape(str(spec.get("name", t)))}</title></polygon>')
        if spec.get("pattern") in _PATTERNS:
            out.append(f'<polygon points="{poly}" fill="url(#{svg_id("pat", t)})" stroke="none"/>')
        out.append(_text(cx, cy - s * 0.62, str(spec.get("letter", str(t)[:1].upper())), 8, cls="terrain"))
    out.append("</g>")

    # Landing hex, Cities, Towns
    out.append('<g class="places">')
    for h in sorted(hm.hexes):
        rec = hm.hexes[h]
        cx, cy = px(h)
        if rec.get("landing"):
            out.append(f'<polygon points="{_pts(corners(cx, cy, s * 0.8))}" fill="#ffffff" stroke="#000" '
                       'stroke-width="2.5"/>')
            out.append(_text(cx, cy - 2, "L", 14, "bold"))
            out.append(_text(cx, cy + s * 0.45, "Landing", 6.5))
        city = rec.get("city")
        if isinstance(city, dict):
            col = colours.get(city.get("colour")) or {}
            fill = col.get("colour", "#ffffff")
            letter = col.get("letter", str(city.get("colour", "?"))[:1].upper())
            r = s * 0.55
            out.append(f'<rect x="{_n(cx - r)}" y="{_n(cy - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}" '
                       f'fill="{css_colour(fill, "#ffffff")}" stroke="#000" stroke-width="1.5"/>')
            out.append(f'<rect x="{_n(cx - r * 0.62)}" y="{_n(cy - r * 0.62)}" width="{_n(1.24 * r)}" '
                       f'height="{_n(1.24 * r)}" fill="#ffffff" stroke="#000" stroke-width="0.6"/>')
            label = letter + (str(city["number"]) if city.get("number") is not None else "")
            out.append(_text(cx, cy, label, 10, "bold", cls="city"))
            out.append(_text(cx, cy + s * 0.78, str(city.get("name", "")), 6.5))
        town = rec.get("town")
        if isinstance(town, dict):
            out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.3)}" fill="#ffffff" stroke="#000" '
                       'stroke-width="1.5"/>')
            out.append(_text(cx, cy, "T", 9, "bold", cls="town"))
            out.append(_text(cx, cy + s * 0.55, str(town.get("name", "")), 6.5))
    out.append("</g>")

    # wrap-around labels, just outside the labelled side
    out.append('<g class="wraps">')
    for (h, side), label in sorted(hm.wrap_labels.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        mx, my = side_midpoint(h, side, s)
        cx, cy = px(h)
        lx, ly = cx + (mx - cx) * 1.45, cy + (my - cy) * 1.45
        out.append(f'<polygon points="{_pts([(lx, ly - 8), (lx + 8, ly), (lx, ly + 8), (lx - 8, ly)])}" '
                   'fill="#ffffff" stroke="#000" stroke-width="1"/>')
        out.append(_text(lx, ly, str(label), 8, "bold", cls="wrap"))
    out.append("</g>")

    # day/night line between its two Satellite spaces, extended across the map
    if hm.line and all(hm.space(x) for x in hm.line):
        (ax, ay), (bx, by) = (px(hm.space(x)) for x in hm.line)
        dx, dy = bx - ax, by - ay
        out.append(f'<line x1="{_n(ax - dx * 0.08)}" y1="{_n(ay - dy * 0.08)}" x2="{_n(bx + dx * 0.08)}" '
                   f'y2="{_n(by + dy * 0.08)}" stroke="#000" stroke-width="2" stroke-dasharray="8 4" '
                   'class="day-night"/>')
    # Satellite spaces
    out.append('<g class="satellite">')
    start = (map_data.get("satellite") or {}).get("start")
    for sid, c in hm.spaces:
        if c is None:
            continue
        cx, cy = px(c)
        dash = ' stroke-dasharray="3 2"' if sid != start else ""
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.5)}" fill="#ffffff" stroke="#000" '
                   f'stroke-width="1.5"{dash}/>')
        out.append(_text(cx, cy, sid, 10, "bold"))
        if sid == start:
            out.append(_text(cx, cy + s * 0.72, "Satellite start", 6.5))
    out.append("</g>")
    # Sun spaces: the Sun's side is day, the other night
    dn = map_data.get("day_night") or {}
    out.append('<g class="sun">')
    for sid, c in sorted(hm.sun_spaces.items()):
        if c is None:
            continue
        cx, cy = px(c)
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.5)}" fill="#fff7cc" stroke="#000" '
                   'stroke-width="1.5"/>')
        out.append(_text(cx, cy, "SUN", 8, "bold"))
        note = "Sun starts here: this side is day" if sid == dn.get("sun_start") else "Sun space"
        out.append(_text(cx, cy + s * 0.72, note, 6.5))
    out.append("</g>")

    # legend (letters and costs, so the map reads without colour)
    y = maxy + 12
    out.append('<g class="legend">')
    for key, spec in sorted(terrain.items()):
        spec = spec or {}
        cost = spec.get("track_cost")
        out.append(_text(minx + 10, y, f"{spec.get('letter', key[:1].upper())} = {spec.get('name', key)}: "
                         f"simple track ${cost}" if cost is not None else f"{spec.get('name', key)}: no track",
                         9, anchor="start"))
        y += 18
    tc = tables.get("town_cost") or {}
    out.append(_text(minx + 10, y, "T = Town" + (f": {tc['text']}" if tc.get("text") else ""), 9, anchor="start"))
    y += 18
    cl = ", ".join(f"{v.get('letter', k[:1].upper())} {v.get('name', k)}" for k, v in sorted(colours.items()))
    out.append(_text(minx + 10, y, f"City: colour letter + growth number ({cl}); L = Landing hex", 9, anchor="start"))
    y += 18
    out.append(_text(minx + 10, y, "◇n = wrap-around edge n (joins the other n); X1…X6 = Satellite spaces; "
                     "dashed line = day/night", 9, anchor="start"))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


__all__ = ["render_map_svg"]
