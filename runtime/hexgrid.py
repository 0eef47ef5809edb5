"""Hex-map geometry shared by the map checker (runtime/games/age_of_steam/maps.py), the SVG renderer
(runtime/games/age_of_steam/mapsvg.py) and the Age of Steam engine: axial coordinates on pointy-top hexes,
neighbours including labelled wrap-around edges, pixel positions, and which side of a line a hex is.

Coordinates are axial ``(q, r)``: q grows to the east, r to the south-east. In data files they are
written ``"q,r"``. Screen y grows downwards (as in SVG), so "top" means smaller y.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

Coord = tuple  # (q, r)

# The six sides of a pointy-top hex and the neighbour each leads to, counter-clockwise from east.
DIRS: dict[str, tuple[int, int]] = {"e": (1, 0), "ne": (1, -1), "nw": (0, -1), "w": (-1, 0),
                                    "sw": (-1, 1), "se": (0, 1)}
SIDES = tuple(DIRS)
OPPOSITE = {"e": "w", "w": "e", "ne": "sw", "sw": "ne", "nw": "se", "se": "nw"}
SQRT3 = math.sqrt(3.0)

_COORD = re.compile(r"^(-?[0-9]+),(-?[0-9]+)$")


def parse_coord(text) -> Coord | None:
    """``"2,-1"`` -> ``(2, -1)``; None when the text is not two whole numbers separated by a comma."""
    if not isinstance(text, str):
        return None
    m = _COORD.match(text.replace(" ", ""))
    return (int(m.group(1)), int(m.group(2))) if m else None


def fmt(h: Coord) -> str:
    return f"{h[0]},{h[1]}"


def step(h: Coord, side: str) -> Coord:
    dq, dr = DIRS[side]
    return (h[0] + dq, h[1] + dr)


def side_between(a: Coord, b: Coord) -> str | None:
    """The side of ``a`` that faces ``b`` when they are ordinary neighbours."""
    d = (b[0] - a[0], b[1] - a[1])
    for s, v in DIRS.items():
        if v == d:
            return s
    return None


def pixel(h: Coord, size: float = 1.0) -> tuple[float, float]:
    """Centre of hex ``h`` (pointy-top; y down)."""
    q, r = h
    return size * SQRT3 * (q + r / 2.0), size * 1.5 * r


def corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, clockwise from the top."""
    out = []
    for i in range(6):
        a = math.radians(60 * i - 90)
        out.append((cx + size * math.cos(a), cy + size * math.sin(a)))
    return out


def side_midpoint(h: Coord, side: str, size: float) -> tuple[float, float]:
    """The middle of one side of hex ``h``."""
    cx, cy = pixel(h, size)
    nx, ny = pixel(step(h, side), size)
    return (cx + nx) / 2.0, (cy + ny) / 2.0


def cross(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """Positive on one side of the line a→b, negative on the other, ~0 on it."""
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def screen_angle(p: tuple[float, float], centre: tuple[float, float]) -> float:
    """Angle in degrees as seen on the printed map (y up), so that increasing means counter-clockwise."""
    return math.degrees(math.atan2(-(p[1] - centre[1]), p[0] - centre[0]))


@dataclass
class HexMap:
    """A validated map's geometry, for the runtime and the renderer."""

    hexes: dict[Coord, dict] = field(default_factory=dict)  # coord -> the hex record from the data
    names: dict[str, Coord] = field(default_factory=dict)  # hex / City / Town name -> coord
    landing: Coord | None = None
    wraps: dict[tuple[Coord, str], tuple[Coord, str]] = field(default_factory=dict)  # (hex, side) -> partner
    wrap_labels: dict[tuple[Coord, str], object] = field(default_factory=dict)
    spaces: list[tuple[str, Coord]] = field(default_factory=list)  # Satellite spaces, in visiting order
    sun_spaces: dict[str, Coord] = field(default_factory=dict)
    line: tuple[str, str] | None = None
    # answers of the geometry queries below, by hex: a map is not changed once built (the runtime
    # and the renderer only read it), and a simulation asks the same questions thousands of times
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_data(cls, data: dict) -> "HexMap":
        m = cls()
        labels: dict[object, list[tuple[Coord, str]]] = {}
        for rec in data.get("hexes") or []:
            h = parse_coord(rec.get("at"))
            if h is None:
                continue
            m.hexes[h] = rec
            if rec.get("landing"):
                m.landing = h
            for key in ("city", "town"):
                if isinstance(rec.get(key), dict) and rec[key].get("name"):
                    m.names[rec[key]["name"]] = h
            if rec.get("name"):
                m.names[rec["name"]] = h
            for side, label in sorted((rec.get("wrap") or {}).items()):
                labels.setdefault(label, []).append((h, side))
                m.wrap_labels[(h, side)] = label
        for ends in labels.values():
            if len(ends) == 2:
                m.wraps[ends[0]] = ends[1]
                m.wraps[ends[1]] = ends[0]
        sat = data.get("satellite") or {}
        m.spaces = [(s["id"], parse_coord(s["at"])) for s in sat.get("spaces") or []]
        dn = data.get("day_night") or {}
        m.sun_spaces = {s["id"]: parse_coord(s["at"]) for s in dn.get("sun_spaces") or []}
        if dn.get("line"):
            m.line = tuple(dn["line"])
        return m

    def copy(self) -> "HexMap":
        """An equal map whose tables are its own (editing the copy's ``hexes``, as a test may, changes
        nothing of this one), its memo a copy of this one's answers so far: a map is not changed once
        built, so they are the copy's answers too. The hex records themselves are shared, as
        ``from_data`` shares them with the data."""
        memo = dict(self._memo)
        if "cities" in memo:
            memo["cities"] = dict(memo["cities"])  # the one memo answer that is a mutable dict
        return HexMap(dict(self.hexes), dict(self.names), self.landing, dict(self.wraps),
                      dict(self.wrap_labels), list(self.spaces), dict(self.sun_spaces), self.line, memo)

    # --- adjacency ----------------------------------------------------------------------------
    def neighbour(self, h: Coord, side: str) -> Coord | None:  # A05 wrap-around
        """The hex across ``side`` of ``h``: the ordinary neighbour, or the wrap partner off the edge."""
        n = step(h, side)
        if n in self.hexes:
            return n
        partner = self.wraps.get((h, side))
        return partner[0] if partner else None

    def neighbours(self, h: Coord) -> list[tuple[str, Coord]]:
        key = ("neighbours", h)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = tuple((side, n) for side in SIDES
                                            if (n := self.neighbour(h, side)) is not None)
        return list(found)

    def link_side(self, a: Coord, b: Coord) -> str | None:
        """The side of ``a`` through which track reaches ``b`` (ordinary or wrap-around), or None."""
        found = self._memo.get(("neighbours", a))  # (neighbours(a), without copying its answer)
        for side, n in (found if found is not None else self.neighbours(a)):
            if n == b:
                return side
        return None

    def cities(self) -> dict[Coord, dict]:
        """hex -> the City record printed on it."""
        found = self._memo.get("cities")
        if found is None:
            found = self._memo["cities"] = {h: rec["city"] for h, rec in self.hexes.items() if rec.get("city")}
        return found

    def is_border_side(self, h: Coord, side: str) -> bool:
        return step(h, side) not in self.hexes

    # --- spaces, day and night ---------------------------------------------------------------
    def space(self, sid: str) -> Coord | None:
        for s, c in self.spaces:
            if s == sid:
                return c
        return self.sun_spaces.get(sid)

    def hexes_next_to(self, c: Coord) -> list[Coord]:
        """Map hexes adjacent to an off-map space, sorted."""
        key = ("next to", c)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = tuple(sorted(n for n in (step(c, s) for s in SIDES)
                                                   if n in self.hexes))
        return list(found)

    def side_value(self, h: Coord) -> float:
        a, b = (pixel(self.space(x)) for x in self.line)
        return cross(pixel(h), a, b)

    def sun_side_of(self, h: Coord) -> str | None:
        """The Sun space on the same side of the day/night line as ``h`` (None on the line)."""
        if self.line is None:
            return None
        key = ("sun side", h)
        if key not in self._memo:
            self._memo[key] = self._sun_side_of(h)
        return self._memo[key]

    def _sun_side_of(self, h: Coord) -> str | None:
        v = self.side_value(h)
        if abs(v) < 1e-9:
            return None
        for sid, c in sorted(self.sun_spaces.items()):
            if (self.side_value(c) > 0) == (v > 0):
                return sid
        return None
