"""The Moon as text, for `cardwright play`: a hex map a player can read in a terminal.

Pointy-top hexes in axial coordinates (runtime/hexgrid.py): each row of hexes is two lines of text,
each hex a cell six characters wide, every row shifted half a cell from the one above — so the six
neighbours of a hex sit where they sit on the printed map. The first line names the hex: a City in
capitals in brackets ``[TYC]``, a Town in lower case in parentheses ``(had)``, the Landing hex
``<LND>``, any other hex by the coordinates the moves use (``-2,-1``). The second line says what is
on it: track (``=2=``: seat 2's), waiting cubes (``●●``) or, on an empty hex, its terrain when it is
not the plain one (``^^^``: Mountain).
"""
from __future__ import annotations

from runtime.hexgrid import fmt
from runtime.tableview import Section

CELL = 6


def _code(engine, game, h) -> str:
    kind = engine.node_kind(game, h)
    name = engine.label(game, h)
    if kind == "landing":
        return "<LND>"
    letters = "".join(ch for ch in name if ch.isalpha())[:3]
    if kind == "city":
        return f"[{letters.upper()}]"
    if kind == "town":
        return f"({letters.lower()})"
    return fmt(h)


def _under(game, h, track_owner: dict, plain: str) -> str:
    m = game.moon
    if h in track_owner:
        return f"={track_owner[h] + 1}="
    cubes = m.cubes.get(h) or []
    if cubes:
        return "●" * min(len(cubes), 4) + ("+" if len(cubes) > 4 else "")
    terrain = (m.map.hexes.get(h) or {}).get("terrain")
    if terrain and terrain != plain:
        letter = str((m.terrain.get(terrain) or {}).get("letter") or terrain[:1]).upper()
        return {"M": "^^^"}.get(letter, letter * 3)
    return ""


def map_lines(engine, game) -> list[str]:
    m = game.moon
    hexes = m.map.hexes
    if not hexes:
        return []
    track_owner = {h: m.links[lid].owner for h, lid in m.track.items() if lid in m.links}
    terrains = [rec.get("terrain") for rec in hexes.values()]
    plain = max(set(terrains), key=terrains.count)  # the terrain most hexes have needs no mark
    rows = sorted({r for _, r in hexes})
    # a hex's left edge, in half cells: q + r/2 cells from the left, so shifted rows interleave
    left = min(2 * q + r for q, r in hexes)
    lines = []
    for r in rows:
        cells = sorted(q for q, rr in hexes if rr == r)
        top, bottom = [], []
        for q in cells:
            x = (2 * q + r - left) * CELL // 2
            for out, text in ((top, _code(engine, game, (q, r))), (bottom, _under(game, (q, r), track_owner, plain))):
                line = "".join(out)
                out[:] = [line.ljust(x) + text.center(CELL - 1)]
        lines += ["".join(top).rstrip(), "".join(bottom).rstrip()]
    return lines


def map_sections(engine, game) -> list[Section]:
    m = game.moon
    out = [Section("The Moon", tuple(map_lines(engine, game)) + (
        "", "[ABC] City  (abc) Town  <LND> Landing hex", "=N= seat N's track  ● cube  ^^^ Mountain",
        f"Day: {engine.day_label(game)}" + (f"; Satellite on {m.satellite_at} with {len(m.satellite_cubes)} cubes"
                                            if m.satellite_at else ""),))]
    waiting = [f"{engine.label(game, h)}: {', '.join(c)}" for h, c in sorted(m.cubes.items()) if c]
    if waiting:
        out.append(Section("Cubes waiting", tuple(waiting)))
    return out
