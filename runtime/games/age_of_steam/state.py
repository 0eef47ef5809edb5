"""The Moon game state: links of track, cubes, the Sun, the Satellite (and the stand-in turn's progress).

``MoonGame`` is the engine's ``GameState`` (its ``snapshot`` covers the map state, so "state unchanged"
means all of it); its ``COPIERS`` make ``copy()``, the cheap copy trials and playouts use
(runtime/statecopy.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from runtime.hexgrid import HexMap, fmt
from runtime.state import GameState

from .index import MapTables, TrackIndex, sides_crossed


@dataclass
class Link:
    """Track from one node towards another. Complete when ``end`` is set."""

    id: str
    owner: int
    start: tuple
    hexes: list = field(default_factory=list)  # track hexes in building order
    end: tuple | None = None

    @property
    def complete(self) -> bool:
        return self.end is not None

    def tip(self) -> tuple:
        return self.hexes[-1] if self.hexes else self.start

    def sections(self) -> list[tuple]:
        """The hex sides the link's track crosses, as pairs of adjacent hexes in building order: from
        its start node through its track hexes (and into its end node when complete)."""
        path = [self.start, *self.hexes] + ([self.end] if self.end is not None else [])
        return list(zip(path, path[1:]))


@dataclass
class MoonState:
    map: HexMap
    terrain: dict
    town_cost: dict
    colours: list
    links: dict = field(default_factory=dict)  # id -> Link
    next_link: int = 1
    track: dict = field(default_factory=dict)  # track hex -> link id
    cubes: dict = field(default_factory=dict)  # hex -> [colour…]
    sun: str = ""
    turn: int = 1
    built: dict = field(default_factory=dict)  # player -> tiles built this turn
    move_round: int = 0  # 0 outside Move Goods, else 1 or 2
    moved: set = field(default_factory=set)  # players who moved a cube this round
    borrowed: dict = field(default_factory=dict)  # player -> the opponent link used via Low Gravitation
    satellite_at: str | None = None
    satellite_cubes: list = field(default_factory=list)
    satellite_on: bool = True
    display: dict = field(default_factory=dict)  # Goods Display column -> [colour…]
    new_cities: dict = field(default_factory=dict)  # hex -> {id, colour, number}
    new_city_tiles: list = field(default_factory=list)
    removed: list = field(default_factory=list)  # components removed at setup
    turn_order: list = field(default_factory=list)
    # the track network's version: bumped by lay() and place_new_city(), the only methods that change
    # links, track or Cities, so that index() knows when its answers are out of date (index.py)
    version: int = field(default=0, compare=False)
    _index: TrackIndex | None = field(default=None, repr=False, compare=False)
    # the map's tables (index.py): set by new_game from the compiled map, else made on first use
    map_tables: MapTables | None = field(default=None, repr=False, compare=False)

    def copy(self) -> "MoonState":
        """An independent copy (the map, terrain and costs are shared: play never changes them; so
        are the map's tables and the track index of this version, which nothing changes once built:
        both are made here first if need be, so that a search's many copies of one position share
        them instead of each building its own)."""
        self.index()
        return MoonState(self.map, self.terrain, self.town_cost, self.colours,
                         {k: Link(v.id, v.owner, v.start, list(v.hexes), v.end) for k, v in self.links.items()},
                         self.next_link, dict(self.track), {h: list(c) for h, c in self.cubes.items()},
                         self.sun, self.turn, dict(self.built), self.move_round, set(self.moved),
                         dict(self.borrowed), self.satellite_at, list(self.satellite_cubes), self.satellite_on,
                         {k: list(v) for k, v in self.display.items()},
                         {h: dict(v) for h, v in self.new_cities.items()},
                         [dict(t) for t in self.new_city_tiles], list(self.removed), list(self.turn_order),
                         self.version, self._index, self.map_tables)  # index() made both

    # --- the one place links, track and Cities change --------------------------------------------
    def new_link(self, owner: int, start: tuple, track: list | None = None, end: tuple | None = None) -> Link:
        """A new link of ``owner`` from node ``start``: without track (``lay`` gives it some), or with
        ``track`` and ``end`` laid at once as ``lay`` lays them (one version, one derived index
        instead of two: what a build of a new link does)."""
        ix = self._current_index()
        link = Link(f"L{self.next_link}", owner, start)
        self.next_link += 1
        self.links[link.id] = link
        pairs = self._lay(link, track, end) if track is not None else ()
        self.version += 1
        if ix is not None:  # one more link (and its end on ``start``), with its track (index.py)
            self._index = ix.derived(self.version, self, started=link,
                                     laid=link if track is not None else None,
                                     track=tuple(track or ()), pairs=pairs)
        return link

    def lay(self, link: Link, track: list, end: tuple | None) -> None:
        """Add track hexes to ``link`` (in building order) and set its end (None: still unfinished)."""
        ix = self._current_index()
        was_complete = link.end is not None
        pairs = self._lay(link, track, end)
        self.version += 1
        if ix is not None and link.id in self.links and not was_complete:
            # the sides its new track crosses are new (and into its end, completed); a completed
            # link adds one edge to the graph (index.py: TrackIndex.derived)
            self._index = ix.derived(self.version, self, laid=link, track=tuple(track), pairs=pairs)

    def _lay(self, link: Link, track: list, end: tuple | None) -> tuple:
        """``lay``'s change of the links and the track; returns the hex sides it crosses (and into
        its end, completed), as side_pair names them."""
        pairs = sides_crossed(link.tip(), track, end)
        link.hexes += track
        link.end = end
        for h in track:
            self.track[h] = link.id
        return pairs

    def place_new_city(self, h: tuple, record: dict) -> None:
        """A New City on ``h`` (a Town until now): ``{id, colour, number}``."""
        self.new_cities[h] = record
        self.version += 1

    # --- what the legal moves read (index.py) ------------------------------------------------------
    def _current_index(self) -> TrackIndex | None:
        """The index held if it is of this version (then the next one may be derived from it)."""
        ix = self._index
        return ix if ix is not None and ix.version == self.version else None

    def index(self) -> TrackIndex:
        """The track index of the links as they are now (built when the version moved on)."""
        ix = self._index
        if ix is None or ix.version != self.version:
            ix = self._index = TrackIndex(self, self.version)
        return ix

    def tables(self) -> MapTables:
        """The map's per-hex tables (built once, shared with copies)."""
        if self.map_tables is None:
            self.map_tables = MapTables(self.map, self.terrain)
        return self.map_tables

    def snapshot(self) -> dict:
        return {
            "links": {k: (v.owner, v.start, list(v.hexes), v.end) for k, v in sorted(self.links.items())},
            "next_link": self.next_link,
            "cubes": {fmt(h): sorted(c) for h, c in sorted(self.cubes.items()) if c},
            "sun": self.sun, "turn": self.turn, "built": dict(sorted(self.built.items())),
            "move_round": self.move_round, "moved": sorted(self.moved),
            "borrowed": dict(sorted(self.borrowed.items())),
            "satellite": (self.satellite_at, list(self.satellite_cubes)),
            "display": {k: list(v) for k, v in sorted(self.display.items())},
            "new_cities": {fmt(h): dict(v) for h, v in sorted(self.new_cities.items())},
            "turn_order": list(self.turn_order),
        }


class MoonGame(GameState):
    """A GameState whose snapshot also covers the map state (so 'state unchanged' means all of it).
    ``turn_state`` is the stand-in turn's progress when the game is played through (turn.py)."""

    moon: MoonState
    # GameState.copy (runtime/statecopy.py) copies these fields with their own cheap copies
    COPIERS = {"moon": MoonState.copy, "turn_state": lambda t: t.copy() if t is not None else None}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.turn_state = None

    def snapshot(self) -> dict:
        snap = super().snapshot()
        snap["moon"] = self.moon.snapshot()
        return snap


def cube_total(game: MoonGame) -> int:
    """Cubes on the board, on the Goods Display and on the Satellite (the engine's invariant and the
    turn's delivered-cube count both read it)."""
    m = game.moon
    return (sum(len(c) for c in m.cubes.values()) + sum(len(c) for c in m.display.values())
            + len(m.satellite_cubes))
