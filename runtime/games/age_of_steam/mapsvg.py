"""Render a hex map (a module's ``map:`` section) as a standalone SVG for the rules reference.

``render_map_svg(map_data, vocab)`` draws terrain, Towns, Cities, the Landing hex, wrap-around
labels, the Satellite spaces (X1…X6), the Sun spaces and the day/night line. It reads in black and
white: every terrain carries its letter and a fill pattern, every City the letter of its colour and
its number, Towns a "T", the Landing hex an "L" and a double outline — colour only adds to that.

Output is deterministic (sorted iteration, fixed number formatting) and safe: every text from the
data goes through ``runtime.escape`` — ``html`` for text and attribute values, ``svg_id`` for ids
made from terrain keys, ``css_colour`` for fills (a key or colour can never add an attribute).
``vocab`` is the game's vocabulary (game.yaml as loaded, e.g. ``VOCAB`` of a
generated game package): terrain letters, colours, patterns and costs come from its ``tables``.
"""
from __future__ import annotations

from runtime.escape import css_colour, svg_id
from runtime.escape import html as escape
from runtime.hexgrid import HexMap, corners, fmt, pixel, side_midpoint
from runtime.model import GameModel, model_of

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
          cls: str = "", halo: bool = False) -> str:
    c = f' class="{cls}"' if cls else ""
    # a white halo under the glyphs: a line drawn before the label stops at its letters
    h = ' stroke="#ffffff" stroke-width="2.2" stroke-linejoin="round" paint-order="stroke"' if halo else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" '
            f'text-anchor="{anchor}" dominant-baseline="central"{c}{h}>{escape(s)}</text>')


# Average advance of a character in the sans-serif the map uses, as a fraction of the font size (DejaVu
# Sans runs about 0.55–0.6; a little over, so an estimated box never under-covers the drawn text).
CHAR_W = 0.64
SQRT3 = 3 ** 0.5


def text_box(x: float, y: float, s: str, size: float, anchor: str = "middle") -> tuple[float, float, float, float]:
    """The box (x1, y1, x2, y2) a label of ``size`` px covers, centred vertically on ``y``."""
    w = CHAR_W * size * max(len(s), 1)
    x1 = x - w / 2 if anchor == "middle" else x if anchor == "start" else x - w
    return x1, y - size * 0.6, x1 + w, y + size * 0.6


def _hex_width(dy: float, s: float) -> float:
    """Inner width of a pointy-top hex of radius ``s`` at ``dy`` from its centre."""
    dy = abs(dy)
    if dy <= s / 2:
        return SQRT3 * s
    return max(0.0, SQRT3 * s * (1 - (dy - s / 2) / (s / 2)))


def _fit(s: str, dy: float, size: float, hex_s: float) -> float:
    """The largest font size up to ``size`` at which ``s``, centred ``dy`` below the hex centre, stays
    inside the hex (so no hex edge crosses it)."""
    f = size
    for _ in range(4):
        width = _hex_width(abs(dy) + f * 0.6, hex_s) * 0.9
        f = min(size, width / (CHAR_W * max(len(s), 1)))
    return max(f, 2.5)


def _segments_cross_box(segs, box) -> bool:
    x1, y1, x2, y2 = box
    for (ax, ay), (bx, by) in segs:
        # Liang–Barsky clipping: does the segment enter the box?
        t0, t1, dx, dy = 0.0, 1.0, bx - ax, by - ay
        ok = True
        for p, q in ((-dx, ax - x1), (dx, x2 - ax), (-dy, ay - y1), (dy, y2 - ay)):
            if p == 0:
                if q < 0:
                    ok = False
                    break
            else:
                t = q / p
                if p < 0:
                    t0 = max(t0, t)
                else:
                    t1 = min(t1, t)
                if t0 > t1:
                    ok = False
                    break
        if ok:
            return True
    return False


def render_map_svg(map_data: dict, vocab: "dict | GameModel", coords: bool = False, legend: bool = True) -> str:
    """The map as an SVG document (a string). ``vocab``: game.yaml as a dict, or its ``GameModel``.

    ``legend=False`` leaves out the key below the map (the board print has the reference beside it).
    ``coords`` adds each hex's coordinates (``q,r``, as the data writes them) beside its terrain letter.
    Every label fits inside its hex, and the labels beside the Satellite and Sun spaces are put on a
    side of their space that the day/night line does not cross.
    """
    model = vocab if isinstance(vocab, GameModel) else model_of(vocab or {})
    tables = model.tables
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
    legend_h = 18.0 * (len(terrain) + 4) if legend else 0.0
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
    edges: list = []
    letters: list[str] = []  # drawn after the day/night line, so that the line passes under them
    out.append('<g class="hexes" stroke="#000" stroke-width="1">')
    for h in sorted(hm.hexes):
        rec = hm.hexes[h]
        t = rec.get("terrain")
        spec = terrain.get(t) or {}
        cx, cy = px(h)
        cs = corners(cx, cy, s)
        edges.extend(zip(cs, cs[1:] + cs[:1]))
        poly = _pts(cs)
        out.append(f'<polygon points="{poly}" fill="{css_colour(spec.get("colour"), "#ffffff")}">'
                   f'<title>{escape(fmt(h))} {escape(str(spec.get("name", t)))}</title></polygon>')
        if spec.get("pattern") in _PATTERNS:
            out.append(f'<polygon points="{poly}" fill="url(#{svg_id("pat", t)})" stroke="none"/>')
        letter = str(spec.get("letter", str(t)[:1].upper()))
        if coords:
            label = f"{letter} {fmt(h)}"
            letters.append(_text(cx, cy - s * 0.62, label, _fit(label, s * 0.62, 7, s), cls="terrain coords",
                                 halo=True))
        else:
            letters.append(_text(cx, cy - s * 0.62, letter, 8, cls="terrain", halo=True))
    out.append("</g>")

    # day/night line between its two Satellite spaces, extended across the map
    lines: list = []
    if hm.line and all(hm.space(x) for x in hm.line):
        (ax, ay), (bx, by) = (px(hm.space(x)) for x in hm.line)
        dx, dy = bx - ax, by - ay
        a, b = (ax - dx * 0.08, ay - dy * 0.08), (bx + dx * 0.08, by + dy * 0.08)
        lines.append((a, b))
        out.append(f'<line x1="{_n(a[0])}" y1="{_n(a[1])}" x2="{_n(b[0])}" '
                   f'y2="{_n(b[1])}" stroke="#000" stroke-width="2" stroke-dasharray="8 4" '
                   'class="day-night"/>')

    def beside(cx: float, cy: float, text: str, size: float = 6.5) -> str:
        # below, above, right, left of a space: the first place no line crosses (below if none is free)
        d = s * 0.72
        for x, y, anchor in ((cx, cy + d, "middle"), (cx, cy - d, "middle"), (cx + s * 0.62, cy, "start"),
                             (cx - s * 0.62, cy, "end")):
            if not _segments_cross_box(lines + edges, text_box(x, y, text, size, anchor)):
                return _text(x, y, text, size, anchor=anchor, cls="label")
        return _text(cx, cy + d, text, size, cls="label")

    # Landing hex, Cities, Towns
    out.append('<g class="places">')
    for h in sorted(hm.hexes):
        rec = hm.hexes[h]
        cx, cy = px(h)
        if rec.get("landing"):
            out.append(f'<polygon points="{_pts(corners(cx, cy, s * 0.8))}" fill="#ffffff" stroke="#000" '
                       'stroke-width="2.5"/>')
            out.append(_text(cx, cy - 2, "L", 14, "bold"))
            out.append(_text(cx, cy + s * 0.5, "Landing", _fit("Landing", s * 0.5, 6.5, s), cls="label", halo=True))
        city = rec.get("city")
        if isinstance(city, dict):
            col = colours.get(city.get("colour")) or {}
            fill = col.get("colour", "#ffffff")
            letter = col.get("letter", str(city.get("colour", "?"))[:1].upper())
            r = s * 0.36  # small enough that the name fits below it inside the hex
            out.append(f'<rect x="{_n(cx - r)}" y="{_n(cy - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}" '
                       f'fill="{css_colour(fill, "#ffffff")}" stroke="#000" stroke-width="1.5"/>')
            out.append(f'<rect x="{_n(cx - r * 0.62)}" y="{_n(cy - r * 0.62)}" width="{_n(1.24 * r)}" '
                       f'height="{_n(1.24 * r)}" fill="#ffffff" stroke="#000" stroke-width="0.6"/>')
            label = letter + (str(city["number"]) if city.get("number") is not None else "")
            out.append(_text(cx, cy, label, 8.5, "bold", cls="city"))
            name = str(city.get("name", ""))
            out.append(_text(cx, cy + s * 0.52, name, _fit(name, s * 0.52, 6.5, s), cls="label", halo=True))
        town = rec.get("town")
        if isinstance(town, dict):
            out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(s * 0.3)}" fill="#ffffff" stroke="#000" '
                       'stroke-width="1.5"/>')
            out.append(_text(cx, cy, "T", 9, "bold", cls="town"))
            name = str(town.get("name", ""))
            out.append(_text(cx, cy + s * 0.52, name, _fit(name, s * 0.52, 6.5, s), cls="label", halo=True))
    out.append("</g>")

    # terrain letters after the day/night line and the places, with a halo: nothing is drawn across them
    out.append('<g class="terrain-letters">')
    out.extend(letters)
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
            out.append(beside(cx, cy, "Satellite start"))
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
        out.append(beside(cx, cy, note))
    out.append("</g>")

    if legend:
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
