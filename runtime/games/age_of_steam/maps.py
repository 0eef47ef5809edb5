"""Map validation (E601): the geometry a JSON Schema cannot check.

``check_map`` runs on a module's ``map:`` section after it passed map.schema.json. It reports
every problem at once, each at the file, line and column of the offending value:

- malformed or duplicate hex coordinates;
- unknown terrain (terrain comes from the game's ``tables.terrain``), with "did you mean";
- not exactly one Landing hex;
- a wrap-around label not used exactly once on each of two opposite edges (two hex sides that face
  off the map in opposite directions);
- Satellite spaces that are not just outside the border (a map hex, or not next to any hex), or
  not listed counter-clockwise;
- a Town or City on terrain that does not allow it (the terrain's ``allows``), two of Landing /
  City / Town on one hex, an unknown City colour;
- day and night: the line's ends must be Satellite spaces, the two Sun spaces on opposite sides,
  and no City or Town exactly on the line (its side would be undecidable).

Geometry lives in runtime/hexgrid.py, shared with the engine and the SVG renderer.
"""
from __future__ import annotations

from typing import Callable

from runtime.hexgrid import OPPOSITE, SIDES, cross, fmt, parse_coord, pixel, screen_angle, step
from runtime.model import model_of
from runtime.words import did_you_mean

Report = Callable[..., None]  # where errors go (check_map's docstring)


def check_map(data, vocab_data: dict, err: Report) -> bool:
    """Check a map (a module's ``map:`` value) against the game's vocabulary. True when clean.

    ``err`` is where errors go, by paths inside the map: ``err(message, *path, hint=…)``,
    ``err.line_of(*path)`` and ``err.count`` (the build hands a compiler/loader.py PathReporter, so
    this module, like all of runtime/, imports nothing from compiler/)."""
    if not isinstance(data, dict):
        return True
    tables = model_of(vocab_data).tables
    terrain = tables.get("terrain") or {}
    colours = tables.get("cube_colours") or {}

    coords: dict[tuple, int] = {}
    landings: list[int] = []
    names: dict[str, tuple] = {}
    hexes = data.get("hexes") or []
    for i, rec in enumerate(hexes):
        h = parse_coord(rec.get("at"))
        if h is None:
            err(f"malformed coordinate {rec.get('at')!r}: write 'q,r', two whole numbers such as '2,-1'",
                "hexes", i, "at")
        elif h in coords:
            err(f"hex '{fmt(h)}' is listed twice (first at line {err.line_of('hexes', coords[h])})",
                "hexes", i, "at")
        else:
            coords[h] = i
        t = rec.get("terrain")
        if t not in terrain:
            if not terrain:
                err(f"unknown terrain {t!r}: the game declares no terrain (tables.terrain in game.yaml)",
                    "hexes", i, "terrain")
            else:
                err(f"unknown terrain {t!r} (terrains: {', '.join(sorted(terrain))})", "hexes", i, "terrain",
                    hint=did_you_mean(str(t), terrain))
        if rec.get("landing"):
            landings.append(i)
        kinds = [k for k in ("landing", "city", "town") if rec.get(k)]
        if len(kinds) > 1:
            err(f"hex '{rec.get('at')}' holds {' and '.join(kinds)}: a hex holds at most one of the Landing hex, "
                "a City, a Town", "hexes", i, kinds[1])
        for kind in ("city", "town"):
            spec = rec.get(kind)
            if not isinstance(spec, dict):
                continue
            allows = (terrain.get(t) or {}).get("allows") if t in terrain else None
            if allows is not None and kind not in allows:
                err(f"a {kind.capitalize()} cannot stand on {t} terrain (tables.terrain.{t}.allows: "
                    f"{', '.join(allows) or 'nothing'})", "hexes", i, kind)
            nm = spec.get("name")
            if nm in names:
                err(f"the name {nm!r} is already used by hex '{fmt(names[nm])}'", "hexes", i, kind, "name")
            elif nm and h is not None:
                names[nm] = h
            if kind == "city" and colours and spec.get("colour") not in colours:
                err(f"unknown City colour {spec.get('colour')!r} (colours: {', '.join(sorted(colours))})",
                    "hexes", i, "city", "colour", hint=did_you_mean(str(spec.get("colour")), colours))
    if not landings:
        err("the map has no Landing hex: mark exactly one hex with 'landing: true'", "hexes")
    for i in landings[1:]:
        err(f"a second Landing hex (the first is '{hexes[landings[0]].get('at')}' at line "
            f"{err.line_of('hexes', landings[0])}): a map has exactly one", "hexes", i, "landing")

    _check_wraps(data, coords, err)
    spaces = _check_satellite(data, coords, err)
    _check_day_night(data, coords, spaces, err)
    players = data.get("players")
    if isinstance(players, dict) and players.get("min", 0) > players.get("max", 0):
        err(f"players: min {players['min']} is more than max {players['max']}", "players")
    return err.count == 0


def _check_wraps(data: dict, coords: dict, err: Report) -> None:
    uses: dict[object, list[tuple[int, str, tuple]]] = {}
    for i, rec in enumerate(data.get("hexes") or []):
        h = parse_coord(rec.get("at"))
        for side, label in (rec.get("wrap") or {}).items():
            if h is None or side not in SIDES:
                continue
            if step(h, side) in coords:
                err(f"wrap label {label!r} is on side {side} of '{fmt(h)}', which faces hex "
                    f"'{fmt(step(h, side))}': wrap labels go on sides facing off the map", "hexes", i, "wrap", side)
                continue
            uses.setdefault(label, []).append((i, side, h))
    rule = "each wrap label is used exactly once on each of two opposite edges"
    for label, where in sorted(uses.items(), key=lambda kv: str(kv[0])):
        if len(where) == 1:
            i, side, h = where[0]
            err(f"wrap label {label!r} is used only once (side {side} of '{fmt(h)}'): {rule}; add it on the "
                f"opposite edge, on a side facing {OPPOSITE[side]}", "hexes", i, "wrap", side)
        elif len(where) > 2:
            listed = ", ".join(f"{s} of '{fmt(h)}'" for _, s, h in where)
            for i, side, _h in where[2:]:
                err(f"wrap label {label!r} is used {len(where)} times ({listed}): {rule}", "hexes", i, "wrap", side)
        else:
            (i1, s1, h1), (i2, s2, h2) = where
            if OPPOSITE[s1] != s2:
                err(f"wrap label {label!r} joins side {s1} of '{fmt(h1)}' and side {s2} of '{fmt(h2)}', which "
                    f"are not on opposite edges: {rule} (side {s1} pairs with a side facing {OPPOSITE[s1]})",
                    "hexes", i2, "wrap", s2)


def _check_satellite(data: dict, coords: dict, err: Report) -> dict[str, tuple]:
    sat = data.get("satellite")
    spaces: dict[str, tuple] = {}
    if not isinstance(sat, dict):
        return spaces
    order = []
    for i, sp in enumerate(sat.get("spaces") or []):
        c = parse_coord(sp.get("at"))
        sid = sp.get("id")
        if c is None:
            err(f"malformed coordinate {sp.get('at')!r} of Satellite space {sid!r}: write 'q,r'",
                "satellite", "spaces", i, "at")
            continue
        if sid in spaces:
            err(f"Satellite space {sid!r} is listed twice", "satellite", "spaces", i, "id")
            continue
        if c in coords:
            err(f"Satellite space {sid!r} at '{fmt(c)}' is a hex of the map: Satellite spaces lie on the border, "
                "just outside the map", "satellite", "spaces", i, "at")
        elif not any(step(c, s) in coords for s in SIDES):
            err(f"Satellite space {sid!r} at '{fmt(c)}' is not on the border: it must be next to at least one "
                "hex of the map", "satellite", "spaces", i, "at")
        spaces[sid] = c
        order.append((i, sid, c))
    if sat.get("start") is not None and sat.get("start") not in spaces:
        err(f"the Satellite starts on {sat.get('start')!r}, which is not one of its spaces", "satellite", "start",
            hint=did_you_mean(str(sat.get("start")), spaces))
    if len(order) >= 3 and coords:
        pts = [pixel(h) for h in coords]
        centre = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
        angles = [screen_angle(pixel(c), centre) for _, _, c in order]
        deltas = [(angles[(k + 1) % len(order)] - angles[k]) % 360.0 for k in range(len(order))]
        # Listed counter-clockwise exactly once around <=> the counter-clockwise steps sum to one turn.
        if any(d == 0 for d in deltas) or abs(sum(deltas) - 360.0) > 1e-6:
            k = next((k for k, d in enumerate(deltas) if d == 0 or d > 180.0), 0)
            i, sid, _ = order[(k + 1) % len(order)]
            err(f"Satellite spaces must be listed once around the map in counter-clockwise order: {sid!r} "
                f"does not follow {order[k][1]!r} counter-clockwise", "satellite", "spaces", i, "id")
    return spaces


def _check_day_night(data: dict, coords: dict, spaces: dict, err: Report) -> None:
    dn = data.get("day_night")
    if not isinstance(dn, dict):
        return
    ends = []
    for k, sid in enumerate(dn.get("line") or []):
        if sid not in spaces:
            err(f"the day/night line runs to {sid!r}, which is not a Satellite space", "day_night", "line", k,
                hint=did_you_mean(str(sid), spaces))
        else:
            ends.append(spaces[sid])
    suns: dict[str, tuple] = {}
    for i, sp in enumerate(dn.get("sun_spaces") or []):
        c = parse_coord(sp.get("at"))
        if c is None:
            err(f"malformed coordinate {sp.get('at')!r} of Sun space {sp.get('id')!r}: write 'q,r'",
                "day_night", "sun_spaces", i, "at")
        elif c in coords:
            err(f"Sun space {sp.get('id')!r} at '{fmt(c)}' is a hex of the map: it lies off the map",
                "day_night", "sun_spaces", i, "at")
        else:
            suns[sp.get("id")] = c
    if dn.get("sun_start") not in {sp.get("id") for sp in dn.get("sun_spaces") or []}:
        err(f"the Sun starts on {dn.get('sun_start')!r}, which is not a Sun space", "day_night", "sun_start")
    if len(ends) != 2 or ends[0] == ends[1]:
        return
    a, b = pixel(ends[0]), pixel(ends[1])
    if len(suns) == 2:
        (s1, c1), (s2, c2) = sorted(suns.items())
        v1, v2 = cross(pixel(c1), a, b), cross(pixel(c2), a, b)
        if v1 * v2 >= 0:
            err(f"the Sun spaces {s1!r} and {s2!r} are on the same side of the day/night line: put one on each side",
                "day_night", "sun_spaces")
    for i, rec in enumerate(data.get("hexes") or []):
        h = parse_coord(rec.get("at"))
        if h is None:
            continue
        for kind in ("city", "town"):
            if isinstance(rec.get(kind), dict) and abs(cross(pixel(h), a, b)) < 1e-9:
                err(f"the {kind.capitalize()} at '{fmt(h)}' lies exactly on the day/night line, so it is on neither "
                    "side: move it or the line", "hexes", i, kind)

