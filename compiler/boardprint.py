"""A hex map printed at board size, tiled over several pages with overlap marks.

The map is the reference's own SVG (the engine's ``render_map_svg``), scaled so that a hex measures ``hex_mm``
across its flats, cut into page-sized tiles that overlap by ``overlap`` mm. Each tile shows, in its
margin, its name (A1, B1 … by column letter and row number) and which tiles join it; dashed lines
mark where the neighbouring tiles' pictures end and begin, so that a player trims one tile along the line
and lays it over the other's overlap. Geometry is computed here in mm and written into the HTML,
which Chromium prints to PDF like the reference.
"""
from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from .cardsheet import PAPERS, SheetError, _n
from .reference import CSP_META, _write, print_pdf

MARGIN = 10.0  # mm of white around each tile: what a home printer cannot reach, plus the tile's label


@dataclass(frozen=True)
class Tiling:
    board: tuple[float, float]  # the whole map, mm
    paper: str
    overlap: float
    cols: int
    rows: int
    landscape: bool = False

    @property
    def page(self) -> tuple[float, float]:
        pw, ph = PAPERS[self.paper]
        return (ph, pw) if self.landscape else (pw, ph)

    @property
    def tile(self) -> tuple[float, float]:
        pw, ph = self.page
        return pw - 2 * MARGIN, ph - 2 * MARGIN

    @property
    def step(self) -> tuple[float, float]:
        tw, th = self.tile
        return tw - self.overlap, th - self.overlap

    def name(self, col: int, row: int) -> str:
        return f"{chr(ord('A') + col)}{row + 1}"


def svg_size(svg: str) -> tuple[float, float, float, float]:
    """The ``viewBox`` of a map SVG (minx, miny, width, height) in the map's px."""
    m = re.search(r'viewBox="([-0-9.]+) ([-0-9.]+) ([-0-9.]+) ([-0-9.]+)"', svg)
    if not m:
        raise SheetError("the map has no viewBox")
    return tuple(float(v) for v in m.groups())  # type: ignore[return-value]


def content_points(svg: str) -> list[tuple[float, float]]:
    """Points where the map draws something: polygon corners and circle centres (map px)."""
    pts = []
    for m in re.finditer(r'points="([^"]+)"', svg):
        for p in m.group(1).split():
            x, _, y = p.partition(",")
            pts.append((float(x), float(y)))
    for m in re.finditer(r'<circle cx="([-0-9.]+)" cy="([-0-9.]+)"', svg):
        pts.append((float(m.group(1)), float(m.group(2))))
    return pts


def tiling(svg: str, hex_mm: float, paper: str = "a4", overlap: float = 10.0, *, hex_px: float) -> Tiling:
    """``hex_px``: a hex's radius in the SVG's px (the engine's ``map_hex_px``)."""
    if paper not in PAPERS:
        raise SheetError(f"unknown paper {paper!r} (use {' or '.join(PAPERS)})")
    if not 10 <= hex_mm <= 150:
        raise SheetError(f"a hex of {hex_mm:g} mm is out of range (10 to 150 mm across)")
    if not 0 <= overlap <= 40:
        raise SheetError(f"overlap {overlap:g} mm is out of range (0 to 40 mm)")
    _, _, w, h = svg_size(svg)
    scale = hex_mm / (math.sqrt(3) * hex_px)  # mm per map px: a hex is sqrt(3)·hex_px px across its flats
    bw, bh = w * scale, h * scale
    options = []
    for landscape in (False, True):  # whichever orientation needs fewer pages (portrait on a tie)
        pw, ph = PAPERS[paper][::-1] if landscape else PAPERS[paper]
        tw, th = pw - 2 * MARGIN, ph - 2 * MARGIN
        cols = max(1, math.ceil((bw - overlap) / (tw - overlap) - 1e-9))
        rows = max(1, math.ceil((bh - overlap) / (th - overlap) - 1e-9))
        tiles = Tiling((bw, bh), paper, overlap, cols, rows, landscape)
        # fewest pages actually printed (a tile holding nothing new is left out), then fewest tiles
        options.append((len(owned_tiles(svg, tiles)) or cols * rows, cols * rows, landscape, tiles))
    return min(options, key=lambda o: o[:3])[3]


def owned_tiles(svg: str, t: Tiling) -> set[tuple[int, int]]:
    """The (col, row) of the tiles worth printing. Each point of the map is shown on the first tile
    (along each axis) that holds it; a tile that is first for no point shows only what its neighbours
    already show, so it is not printed — and captions name only the neighbours that are."""
    (tw, th), (sx, sy) = t.tile, t.step
    minx, miny, w, _ = svg_size(svg)
    scale = t.board[0] / w

    def first(v: float, step: float, size: float, n: int) -> int:
        return min(n - 1, max(0, math.ceil((v - size) / step - 1e-9)))

    return {(first((x - minx) * scale, sx, tw, t.cols), first((y - miny) * scale, sy, th, t.rows))
            for x, y in content_points(svg)}


def render_tiles(svg: str, t: Tiling, title: str) -> str:
    """The tiles as one HTML document (one page each); the map is embedded once per page as an image."""
    import jinja2

    from .cardsheet import TEMPLATES

    uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
    (tw, th), (sx, sy) = t.tile, t.step
    owned = owned_tiles(svg, t)
    pages = []
    for r in range(t.rows):
        for c in range(t.cols):
            if (c, r) not in owned:
                continue  # nothing of the map falls on this tile that another does not show: no blank page
            marks = []  # (x1, y1, x2, y2) in the tile's mm, dashed: where a neighbour's picture ends or begins
            if c > 0:
                marks.append((t.overlap, 0, t.overlap, th))
            if c < t.cols - 1:
                marks.append((sx, 0, sx, th))
            if r > 0:
                marks.append((0, t.overlap, tw, t.overlap))
            if r < t.rows - 1:
                marks.append((0, sy, tw, sy))
            joins = [f"{t.name(c + dc, r + dr)} {side}" for dc, dr, side in
                     ((-1, 0, "left"), (1, 0, "right"), (0, -1, "above"), (0, 1, "below"))
                     if (c + dc, r + dr) in owned]
            pages.append({"name": t.name(c, r), "x": _n(-c * sx), "y": _n(-r * sy),
                          "marks": [tuple(_n(v) for v in m) for m in marks], "joins": joins})
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.globals["csp_meta"] = Markup(CSP_META)
    pw, ph = t.page
    return env.get_template("board.html.j2").render(
        title=title, uri=uri, pages=pages, n=_n, margin=_n(MARGIN), paper=(_n(pw), _n(ph)),
        tile=(_n(tw), _n(th)), board=(_n(t.board[0]), _n(t.board[1])), grid=f"{t.cols}×{t.rows}",
        overlap=_n(t.overlap))


def write_board(svg: str, out_dir: Path, stem: str, title: str, hex_mm: float = 40.0, paper: str = "a4",
                overlap: float = 10.0, pdf: bool = True, *, hex_px: float) -> tuple[Tiling, list[Path], int]:
    """Write ``<stem>-board.html`` (and ``.pdf``); return the tiling, the files and the page count."""
    t = tiling(svg, hex_mm, paper, overlap, hex_px=hex_px)
    html = render_tiles(svg, t, title)
    out_dir = Path(out_dir)
    written = [out_dir / f"{stem}-board.html"]
    _write(written[0], html)
    if pdf:
        written.append(out_dir / f"{stem}-board.pdf")
        print_pdf(written[0], written[1])
    return t, written, html.count('<section class="page">')


__all__ = ["Tiling", "tiling", "render_tiles", "write_board"]
