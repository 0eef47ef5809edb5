"""The Moon as it stands in a game, as SVG: the printed map (mapsvg.py, without its key) with each
player's track drawn over it — a line through the hexes of each link, in the seat's colour, numbered
by seat — and the cubes waiting on Cities and the Landing hex as small squares of their colours. For
the studio's table (``Engine.board_svg``); `cardwright play` prints the text map (textmap.py).

Deterministic and safe as mapsvg.py is: every text is escaped, every colour checked, sorted iteration.
"""
from __future__ import annotations

from runtime.escape import css_colour
from runtime.escape import html as escape
from runtime.hexgrid import pixel

from .mapsvg import SIZE, _n, render_map_svg

# one colour per seat, told apart in print and by the seat number drawn beside it
SEAT_COLOURS = ("#e4572e", "#17bebb", "#76b041", "#ffc914", "#8f2d56", "#3d5a80")


def board_svg(game, map_data: dict) -> str:
    m = game.moon
    base = render_map_svg(map_data, game.vocab, legend=False)
    colours = game.model.tables.get("cube_colours") or {}
    out = ['<g class="state">']
    for lid in sorted(m.links):
        link = m.links[lid]
        colour = SEAT_COLOURS[link.owner % len(SEAT_COLOURS)]
        path = [link.start, *link.hexes] + ([link.end] if link.end is not None else [])
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in (pixel(h, SIZE) for h in path))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#000" stroke-width="8" stroke-linecap="round" '
                   f'stroke-linejoin="round" opacity="0.55"/>')
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="5" stroke-linecap="round" '
                   f'stroke-linejoin="round"><title>{escape(game.players[link.owner].name)}: link {lid}</title>'
                   "</polyline>")
        for h in link.hexes:
            x, y = pixel(h, SIZE)
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7" fill="{colour}" stroke="#000"/>'
                       f'<text x="{_n(x)}" y="{_n(y + 3.5)}" font-size="9" font-weight="bold" text-anchor="middle">'
                       f"{link.owner + 1}</text>")
    for h in sorted(m.cubes):
        cubes = m.cubes[h] or []
        x, y = pixel(h, SIZE)
        for i, c in enumerate(cubes[:8]):
            spec = colours.get(c) or {}
            cx, cy = x - 14 + (i % 4) * 7.5, y + 8 + (i // 4) * 7.5
            out.append(f'<rect x="{_n(cx)}" y="{_n(cy)}" width="6" height="6" stroke="#000" stroke-width="0.8" '
                       f'fill="{css_colour(spec.get("colour"), "#999999")}"><title>{escape(str(spec.get("name", c)))}'
                       "</title></rect>")
    out.append("</g>")
    head, sep, tail = base.rpartition("</svg>")
    return head + "".join(out) + sep + tail
