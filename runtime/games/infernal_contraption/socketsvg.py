"""Infernal Contraption's sockets drawn as SVG: the reference's small card outline, the legend's single
socket and the rings on a printed card's edges. Called by the ``sockets`` field type (fields.py); every letter goes through
runtime/escape.py and every colour through its colour check, so data never becomes markup."""
from __future__ import annotations

from runtime.escape import css_colour
from runtime.escape import html as escape

from .machine import DRAWN_SIDES, UNIVERSAL


def socket_svg(sides: dict) -> str:
    """A small card outline with its four sockets, each a circle carrying the socket's letter(s).

    ``sides``: side -> {"key", "letter", "colour"?}; a missing side is not drawn (the legend draws one
    socket on the top edge)."""
    w, h, r = 120, 78, 11
    pos = {"top": (w / 2, 0), "bottom": (w / 2, h), "left": (0, h / 2), "right": (w, h / 2)}
    pad = r + 2
    parts = [f'<svg class="sockets" viewBox="{-pad} {-pad} {w + 2 * pad} {h + 2 * pad}" '
             f'width="{w + 2 * pad}" height="{h + 2 * pad}" role="img" aria-label="sockets">',
             f'<rect x="0" y="0" width="{w}" height="{h}" rx="6" fill="#fff" stroke="#000" stroke-width="1.5"/>']
    for side, (x, y) in pos.items():
        s = sides.get(side)
        if s:
            parts += _ring(s, x, y, r)
    parts.append("</svg>")
    return "".join(parts)


def socket_disc_svg(socket: dict) -> str:
    """One socket on its own, large enough to read its ring's colour: the socket legend's picture."""
    r = 11
    pad = r + 3
    return (f'<svg class="socket" viewBox="{-pad} {-pad} {2 * pad} {2 * pad}" width="{2 * pad}" height="{2 * pad}" '
            f'role="img" aria-label="socket">' + "".join(_ring(socket, 0, 0, r)) + "</svg>")


def _ring(s: dict, x: float, y: float, r: float) -> list[str]:
    """A white disc in a ring of the socket's colour (black when it has none, or is white), carrying
    its letter: the letter reads on any colour and in black and white; Universal's ring is dashed."""
    letter = escape(s["letter"])
    dash = ' stroke-dasharray="3 2"' if s["key"] == UNIVERSAL else ""
    ring = css_colour(s.get("colour"), "#000")
    ring, width = ("#000", 1.5) if ring.lower() in ("#fff", "#ffffff", "white") else (ring, 1.5 if ring == "#000" else 3.5)
    return [f'<circle cx="{x}" cy="{y}" r="{r}" fill="#fff" stroke="{ring}" stroke-width="{width}"{dash}/>',
            f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="11" font-weight="bold" '
            f'font-family="sans-serif">{letter}</text>']


INSIDE_TRIM = 0.25  # mm between a socket ring and the card's cut line


def face_svg(sides: dict, w: float, h: float) -> str:
    """The sockets on a printed card's edges (``w`` × ``h`` mm, the trim box), as on the rulebook's
    cards: a ring filled with the socket's colour around a white disc carrying its letter."""
    # the ring, its stroke included, stays INSIDE_TRIM mm inside the cut line: a ring that overhung
    # the trim (by about 0.5 mm at r 3 mm, 2.2 mm in) lost a sliver to the guillotine on every card
    r, stroke = 2.6, 0.35
    d = round(r + stroke / 2 + INSIDE_TRIM, 3)
    pos = {"top": (round(w / 2, 3), d), "bottom": (round(w / 2, 3), round(h - d, 3)),
           "left": (d, round(h / 2, 3)), "right": (round(w - d, 3), round(h / 2, 3))}
    lines = [f'<svg class="sockets" viewBox="0 0 {w} {h}" width="{w}mm" height="{h}mm" aria-label="sockets">\n']
    for side in DRAWN_SIDES:
        s = sides.get(side)
        if not s:
            continue
        x, y = pos[side]
        fill = css_colour(s.get("colour"), "#ffffff")
        dash = ' stroke-dasharray="0.9 0.6"' if s["key"] == UNIVERSAL else ""
        lines.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="#000" stroke-width="{stroke}"{dash}/>\n')
        lines.append(f'<circle cx="{x}" cy="{y}" r="{round(r * 0.62, 3)}" fill="#fff" stroke="none"/>\n')
        lines.append(f'<text x="{x}" y="{round(y + 0.92, 3)}" text-anchor="middle" font-size="2.6" font-weight="bold" '
                     f'font-family="DejaVu Sans, sans-serif">{escape(s["letter"])}</text>\n')
    lines.append("</svg>\n")
    return "".join(lines)


__all__ = ["face_svg", "socket_disc_svg", "socket_svg"]
