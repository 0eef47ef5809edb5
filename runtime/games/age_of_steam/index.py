"""What the Moon's legal-move listing asks thousands of times a game, worked out once.

Two tables, each built on first use and kept as long as what it is built from stays the same:

- ``MapTables``: per map (the hexes, their terrain costs, the Landing hex, printed Cities and Towns,
  labels, neighbours in listing order). A map is not changed by play (runtime/hexgrid.py's
  ``HexMap`` memoises its own answers on the same ground), so the games set up from one compiled
  map, and all their copies, share one.
- ``TrackIndex``: per state of the track network — the Complete Links graph (and which links join
  each pair of nodes), the nodes connected to the Landing hex, the hex sides carrying track, the
  track sections at each node, the hexes a cube can leave from, the start nodes' one-tile builds, the
  delivery routes. It belongs to one ``MoonState.version``: ``MoonState.new_link``, ``lay`` and
  ``place_new_city``, the only methods that change links, track or Cities, bump the version, and
  ``MoonState.index()`` builds a new index when the one it holds is of another version (links laid
  by hand, as a test may, are not seen until one of them runs). Starting, extending or completing a
  link changes one link: ``new_link`` and ``lay`` derive the next version's index from the current
  one (``TrackIndex.derived``) instead of reading every link again; placing a New City builds it
  anew. An index is never changed after it is built (only its memos fill in: routes, deliveries,
  Goods Growth's Cities and the bots' heuristic answers, which depend only on what the version
  stands for and on what their keys hold — the Sun, the seat), so a copy of the state shares it
  (``MoonState.copy``).

The slow originals these answers replace are kept in tests/age_of_steam/reference_moves.py;
tests/age_of_steam/test_fast_moves.py holds every answer here to them at every move of seeded random
games.
"""
from __future__ import annotations

import copy
from collections import deque

from runtime.hexgrid import HexMap, fmt


def side_pair(a: tuple, b: tuple) -> tuple:
    """The hex side between adjacent hexes ``a`` and ``b`` as the index keys it: the two hexes in
    order. ``AgeOfSteam.side_key`` names a side by (hex, side) halves, but it is a function of the
    unordered pair alone (``link_side`` picks one side for a given ordered pair, and the key sorts
    both halves), so the pair is the same key, cheaper to make."""
    return (a, b) if a < b else (b, a)


def sides_crossed(start: tuple, track, end: tuple | None) -> tuple:
    """The hex sides crossed by track laid from ``start`` over the hexes ``track`` (in order) and
    into ``end`` unless None, as side_pair names them: what a link's track takes (TrackIndex, and
    MoonState.lay for the track it adds)."""
    pairs, prev = [], start
    for h in track:
        pairs.append(side_pair(prev, h))
        prev = h
    if end is not None:
        pairs.append(side_pair(prev, end))
    return tuple(pairs)


# the tables of the compiled maps seen last (id of the map data -> (that data, its terrain, the
# tables)): a game is set up from the same compiled map data every time, and a few hundred
# microseconds a game is a good part of a random game's cost
_BY_MAP: dict = {}
_KEEP = 4


# a HexMap of each compiled map seen last, its memo filled (id of the map data -> (that data, the map)):
# ``hex_map`` copies it for each new game instead of reading the data again (HexMap.from_data was
# half of setting up a game)
_MAPS: dict = {}


def hex_map(data: dict) -> HexMap:
    """``HexMap.from_data(data)`` for a compiled map's data (never changed once compiled): a copy of
    one made once per map data, with every hex's neighbours, Sun side and the Cities already worked
    out (answers of the data alone), and the hexes next to each Satellite space. Each game gets its
    own copy, so a game that edits its map, as a test may, changes no other game's.
    tests/age_of_steam/test_turn_shortcuts.py holds a copy's answers to a map read anew."""
    found = _MAPS.get(id(data))
    if found is None or found[0] is not data:
        template = HexMap.from_data(data)
        for h in template.hexes:
            template.neighbours(h)
            template.sun_side_of(h)
        template.cities()
        for _, c in template.spaces:
            template.hexes_next_to(c)
        found = _remember(_MAPS, data, (data, template))
    return found[1].copy()


def _remember(cache: dict, data: dict, entry: tuple) -> tuple:
    """Keep ``entry`` in ``cache`` (``_MAPS`` or ``_BY_MAP``) under the id of the map ``data``, as
    the newest of the last ``_KEEP`` maps seen; returns it."""
    cache.pop(id(data), None)
    cache[id(data)] = entry
    while len(cache) > _KEEP:
        del cache[next(iter(cache))]
    return entry


class MapTables:
    """A map's per-hex answers for the legal moves (engine.py's ``node_kind``, ``label``, terrain
    cost, and the neighbours a tile may be built onto), read once. New Cities are not here: they are state
    (``MoonState.new_cities``) and the listing checks them first."""

    __slots__ = ("kind", "label", "track_cost", "fmt", "hex_at", "build_steps", "start_steps")

    @classmethod
    def of(cls, data: dict, terrain: dict) -> "MapTables":
        """The tables of a compiled map (its ``map:`` data, never changed once compiled) with these
        terrain costs: made once per map data and terrain, from a HexMap of their own (``hex_map``'s
        copy: a game that edits its own ``HexMap``, as a test may, changes no other game's tables)."""
        found = _BY_MAP.get(id(data))
        if found is not None and found[0] is data and found[1] == terrain:
            return found[2]
        return _remember(_BY_MAP, data, (data, copy.deepcopy(terrain), cls(hex_map(data), terrain)))[2]

    def __init__(self, mp: HexMap, terrain: dict) -> None:
        self.kind: dict = {}  # node hex -> "landing" | "city" | "town" (as AgeOfSteam.node_kind)
        self.label: dict = {}  # hex -> its name in move labels (as AgeOfSteam.label, New Cities aside)
        self.track_cost: dict = {}  # hex -> the cost of a track tile on it, None where none may be built
        neighbours: dict = {}  # hex -> its neighbour hexes in the order the listing tries them
        self.fmt: dict = {}  # hex -> "q,r"
        for h, rec in mp.hexes.items():
            if h == mp.landing:
                self.kind[h] = "landing"
            elif rec.get("city"):
                self.kind[h] = "city"
            elif rec.get("town"):
                self.kind[h] = "town"
            self.label[h] = map_label(rec, h)
            self.track_cost[h] = (terrain.get(rec["terrain"]) or {}).get("track_cost")
            # the listing went through sorted(neighbours): (side, hex) pairs, so a hex reached over
            # two sides (a wrap-around edge) is tried twice, as it was
            neighbours[h] = tuple(n for _, n in sorted(mp.neighbours(h)))
            self.fmt[h] = fmt(h)
        self.hex_at: dict = {f: h for h, f in self.fmt.items()}  # "q,r" -> hex (parse_coord's answer)
        # hex -> (neighbour, the side between them as side_pair names it, the neighbour's "q,r") in
        # the order of its ``neighbours``, for each neighbour a tile from the hex may ever reach: the
        # build listing's candidates. Left out: a hex that is no node and whose terrain takes no
        # track (``build`` refuses it whatever the state; New Cities are placed on Towns, nodes).
        self.build_steps: dict = {
            h: tuple((n, side_pair(h, n), self.fmt[n]) for n in ns
                     if n in self.kind or self.track_cost[n] is not None)
            for h, ns in neighbours.items()}
        # the same from a start node (the Landing hex or a City, A04), where a City or the Landing
        # hex next to it is refused too: it would take no tile, and only completing an unfinished
        # link may take none (a Town that became a New City is checked by the listing)
        self.start_steps: dict = {
            h: tuple(st for st in steps if self.kind.get(st[0]) not in ("city", "landing"))
            for h, steps in self.build_steps.items()}


def map_label(rec: dict, h: tuple) -> str:
    """The name of hex ``h`` (its map record ``rec``) in the trace and move labels: its City's or
    Town's, else its own, else "q,r" (AgeOfSteam.label of a hex that is no New City)."""
    for k in ("city", "town"):
        if rec.get(k):
            return rec[k]["name"]
    return rec.get("name") or fmt(h)


def new_city_label(record: dict, h: tuple) -> str:
    """The name of the New City ``record`` on hex ``h`` (AgeOfSteam.label of a New City)."""
    return f"New City {record['id']} ({fmt(h)})"


def node_kind(m, h: tuple) -> str | None:
    """AgeOfSteam.node_kind from the map's tables: a New City is a City (the Landing hex stays itself)."""
    kind = m.tables().kind.get(h)
    return "city" if kind != "landing" and h in m.new_cities else kind


def link_number(lid: str) -> int:
    """A link's number (``L12`` -> 12): links are made in this order (MoonState.new_link)."""
    return int(lid[1:])


def _connected(m, graph: dict) -> frozenset:
    """The nodes connected to the Landing hex by Complete Links (``graph``)."""
    seen = {m.map.landing}
    todo = deque([m.map.landing])
    while todo:
        for n in graph.get(todo.popleft(), ()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


def _build_starts(m, connected: frozenset) -> tuple:
    """Where a player may start a link (A04): the Landing hex, then the connected Cities in order."""
    return (m.map.landing,) + tuple(sorted(h for h in connected if node_kind(m, h) == "city"))


class TrackIndex:
    """What the links of one ``MoonState.version`` imply (see the module's docstring)."""

    __slots__ = ("version", "graph", "between", "connected", "build_starts", "sides", "ends", "route_sources",
                 "unfinished", "memo", "graph_memo", "city_memo", "start_builds")

    def __init__(self, m, version: int) -> None:
        self.version = version
        graph: dict = {}  # node -> the nodes one Complete Link away (AgeOfSteam.complete_links_graph)
        between: dict = {}  # side_pair of two nodes -> the ids of the Complete Links joining them, by number
        sides: set = set()  # side_pair of every hex side some link's track crosses
        ends: dict = {}  # node -> link ends on it (AgeOfSteam.sections_at_town)
        unfinished: dict = {}  # owner -> the ids of their unfinished links
        for ln in m.links.values():
            ends[ln.start] = ends.get(ln.start, 0) + 1
            sides.update(sides_crossed(ln.start, ln.hexes, ln.end))
            if ln.end is None:
                unfinished.setdefault(ln.owner, []).append(ln.id)
                continue
            ends[ln.end] = ends.get(ln.end, 0) + 1
            graph.setdefault(ln.start, set()).add(ln.end)
            graph.setdefault(ln.end, set()).add(ln.start)
            between.setdefault(side_pair(ln.start, ln.end), []).append(ln.id)
        self.graph = graph
        self.between = {pair: tuple(sorted(ids, key=link_number)) for pair, ids in between.items()}
        # the hexes a cube can leave from: a node with a Complete Link, or track of a Complete Link
        # (from anywhere else ``routes`` finds none)
        self.route_sources = frozenset(graph).union(
            h for ln in m.links.values() if ln.end is not None for h in ln.hexes)
        self.sides = frozenset(sides)
        self.ends = ends
        # owner -> the ids of their unfinished links, by number (the build listing extends them)
        self.unfinished = {owner: tuple(sorted(ids, key=link_number)) for owner, ids in unfinished.items()}
        self.connected = _connected(m, graph)
        self.build_starts = _build_starts(m, self.connected)
        # answers worked out from this version of the network and what their key says (the routes
        # of a cube from a hex with the Sun on one side, say): filled in as they are asked for, which
        # changes no answer, so a copy sharing the index may fill it too
        self.memo: dict = {}
        # answers that read only the Complete Links (their graph and track), the nodes and what
        # their key holds — the routes of a cube and the deliveries along them: shared with the
        # indexes derived from this one (``derived``) while they change none of those
        self.graph_memo: dict = {}
        # answers that read only the Cities (printed and New) and what their key holds — which City
        # takes which cube with the Sun on one side, Goods Growth's Cities: shared with every index
        # derived from this one, completed links included (a New City builds a new index)
        self.city_memo: dict = {}
        # the one-tile builds from the start nodes this version allows whatever the seat, as
        # (hex, side pair, cost, move) in listing order, the seat's money not yet checked: made by the
        # build listing on first use (turn.py ``_start_builds``); a derived index keeps those of
        # this one that its change leaves allowed (``derived``)
        self.start_builds: tuple | None = None

    def derived(self, version: int, m, *, started=None, laid=None, track: tuple = (),
                pairs: tuple = ()) -> "TrackIndex":
        """The index of the next ``version`` of ``m`` (a MoonState) when one link changed: the link
        ``started`` (no track yet), or the link ``laid`` extended over ``track`` crossing the sides
        ``pairs`` (as side_pair names them) — completed if its end is now set: reading one link
        instead of every link. What the change leaves as it was is this index's own, shared (never
        changed once built): while no link is completed, the Complete Links graph and all that
        follows from it (which links join two nodes, connected nodes, build starts, route sources,
        the graph memo); a completed link adds its one edge, its nodes and track to the route
        sources, and the nodes it connects (the graph memo starts anew: the routes change). The
        memo starts empty: its answers are of this version; the city memo is shared (only a New
        City changes the Cities, and it builds a new index).

        The start nodes' builds the listing kept (``start_builds``) are kept less those the change
        refuses now: a build onto a hex that got track or across a side that got track. A link end
        on a node changes the price of a build into it (a Town's), so they are listed anew when one
        enters the node a link started or was completed on (a started link's never is: a link starts
        on a City or the Landing hex, which no start build enters — but the index does not lean on
        the listing for that), and when a completion connects a City (a start node more). Nothing
        else a start build's check reads changes here (New Cities build a new index).
        tests/age_of_steam/test_listing_shortcuts.py holds a derived index, and the builds it
        keeps, to ones built anew at every move of seeded games and their copies."""
        ix = TrackIndex.__new__(TrackIndex)
        ix.version = version
        ends, sides, builds, unfinished = self.ends, self.sides, self.start_builds, self.unfinished
        ends_at = []  # the nodes with one more link end
        if started is not None:
            ends_at.append(started.start)
            unfinished = dict(unfinished)
            unfinished[started.owner] = unfinished.get(started.owner, ()) + (started.id,)
        completes = laid if laid is not None and laid.end is not None else None
        if completes is None:
            ix.graph, ix.between, ix.connected = self.graph, self.between, self.connected
            ix.build_starts, ix.route_sources = self.build_starts, self.route_sources
            ix.graph_memo = self.graph_memo
        else:
            a, b = completes.start, completes.end
            ends_at.append(b)
            unfinished = dict(unfinished)
            left = tuple(lid for lid in unfinished.get(completes.owner, ()) if lid != completes.id)
            if left:
                unfinished[completes.owner] = left
            else:
                unfinished.pop(completes.owner, None)
            graph = dict(self.graph)  # new sets for the two ends; the others are shared, never written
            graph[a] = set(graph.get(a, ())) | {b}
            graph[b] = set(graph.get(b, ())) | {a}
            ix.graph = graph
            ix.between = dict(self.between)
            pair = side_pair(a, b)
            ix.between[pair] = tuple(sorted(ix.between.get(pair, ()) + (completes.id,), key=link_number))
            ix.route_sources = self.route_sources.union((a, b), completes.hexes)
            ix.connected = _connected(m, graph)
            if ix.connected == self.connected:
                ix.build_starts = self.build_starts
            else:
                ix.build_starts = _build_starts(m, ix.connected)
                builds = None
            ix.graph_memo = {}
        if ends_at:
            ends = dict(ends)
            for n in ends_at:
                ends[n] = ends.get(n, 0) + 1
            if builds is not None and any(b[0] in ends_at for b in builds):
                builds = None
        if pairs:
            sides = sides.union(pairs)
            if builds is not None:
                builds = tuple(b for b in builds if b[0] not in track and b[1] not in sides)
        ix.ends, ix.sides, ix.unfinished, ix.start_builds = ends, sides, unfinished, builds
        ix.memo = {}
        ix.city_memo = self.city_memo
        return ix

    def same_as(self, other: "TrackIndex") -> bool:
        """Whether two indexes say the same (the memo aside): what a derived index is held to."""
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__
                   if k not in ("memo", "graph_memo", "city_memo", "start_builds"))

    def routes(self, game, src: tuple, cube: str, depth: int = 3) -> tuple:
        """playout.routes' answer, as a tuple of node tuples: ``routes_by_cube``'s for ``cube``."""
        return self.routes_by_cube(game, src, depth).get(cube, ())

    def routes_by_cube(self, game, src: tuple, depth: int = 3) -> dict:
        """cube colour -> the routes of a cube of that colour from ``src`` (playout.routes' answer,
        as a tuple of node tuples), for the colours with a route: the paths from ``src`` (``_paths``)
        grouped by the cube their last node takes now, each colour's in the paths' order. Which
        paths there are does not depend on the cube or the Sun, which City takes what does. Worked
        out once per source and Sun side for this version of the links: they read the Complete
        Links, the nodes and the track of Complete Links only, so they are kept in the graph memo,
        shared with the derived indexes of later versions."""
        key = ("routes", src, game.moon.sun, depth)
        found = self.graph_memo.get(key)
        if found is None:
            takes = self._accepted(game)
            found = {}
            for path in self._paths(game, src, depth):
                cube = takes.get(path[-1])
                if cube is not None:
                    found.setdefault(cube, []).append(path)
            found = self.graph_memo[key] = {cube: tuple(paths) for cube, paths in found.items()}
        return found

    def _accepted(self, game) -> dict:
        """``AgeOfSteam.accepts`` of every City (the node where a path ends takes a cube only if it
        is one) with the Sun where it is now: once per Sun side for the city memo."""
        key = ("accepts", game.moon.sun)
        found = self.city_memo.get(key)
        if found is None:
            e = game.engine
            found = self.city_memo[key] = {n: e.accepts(game, n) for n in e.cities(game)}
        return found

    def _paths(self, game, src: tuple, depth: int) -> tuple:
        """Every path of Complete Links from ``src`` (a cube on track first along its link) visiting
        no node twice, up to ``depth`` links, breadth first in the order playout.routes always
        listed them: once per source for the graph memo."""
        key = ("paths", src, depth)
        found = self.graph_memo.get(key)
        if found is not None:
            return found
        e, m, adj = game.engine, game.moon, self.graph
        if e.node_kind(game, src) is None:
            ln = m.links.get(m.track.get(src))
            if ln is None or not ln.complete:
                self.graph_memo[key] = ()
                return ()
            firsts = [(ln.start,), (ln.end,)]
        else:
            firsts = [(n,) for n in sorted(adj.get(src, ()))]
        out, todo = [], deque(firsts)
        while todo:
            path = todo.popleft()
            out.append(path)
            if len(path) < depth:
                todo.extend(path + (n,) for n in sorted(adj.get(path[-1], ())) if n not in path and n != src)
        found = self.graph_memo[key] = tuple(out)
        return found
