"""The Age of Steam engine, for the Moon map (rulebook 002_18a981a1c9ecbefd.txt; the "moon" clauses of
clauses.yaml, each named in a comment where it is implemented).

Everything map-specific comes from the data: the hexes, terrain and track costs, the Town cost, the
wrap-around labels, the Satellite spaces and the day/night line are read from the compiled game
(``generated/age_of_steam``: ``VOCAB['tables']`` and ``MAPS['moon']``). No cost is written here.

What the base game defines and this rulebook does not — auctions and turn order bidding, shares,
the full income track with its expenses and income reduction, locomotives (link length), the
Goods Display's exact columns, Urbanization, tile shapes (crossings, complex tiles), losing
unfinished track — is not modelled. The engine models only what the Moon clauses need; every
simplification is marked "Decision:" below and listed in docs/decisions.md ("Age of Steam — Moon").

Model in brief:
- Track is built as *links*: a player builds from a node (the Landing hex or a City connected to it
  by Complete Links) through track hexes, one tile per hex, until the link reaches a City, a Town or
  the Landing hex (then it is a Complete Link) — or stops unfinished, to be continued by its owner.
- A cube lies on a hex: on a City, Town or the Landing hex, on a track tile, or on a bare hex (put
  there by the Satellite). A cube on track is deliverable from there.
- Moving a cube follows Complete Links from node to node; each link used gives its owner +1 income,
  except the one opponent link a Low Gravitation holder uses as their own.
"""
from __future__ import annotations

from runtime.engine import CompiledGame, Engine, Outcome
from runtime.errors import Refused, RulesError
from runtime.events import Played
from runtime.hexgrid import fmt, parse_coord, step
from runtime.verbs import verbs_for

from . import verbs  # noqa: F401  (registers the game's verbs)
from .index import MapTables, hex_map, map_label, new_city_label, side_pair
from .maps import check_map
from .scenario import MoonScenario
from .state import Link, MoonGame, MoonState, cube_total
from .turn import MoonMatch
from .turn import new_match as new_moon_match
from .verbs import ENGINE


class AgeOfSteam(MoonScenario, Engine):
    name = ENGINE
    steps = {**Engine.steps, "build": "step_build", "action": "step_action", "move": "step_move",
             "satellite": "step_satellite"}
    step_options = Engine.step_options | {"cube", "dice", "hex"}
    # what a scenario may set under `options:` (game.yaml declares no options for the Moon yet)
    scenario_settings = frozenset({"map", "satellite"})
    # what the Moon's rules imply in every state, checked by `simulate --check-moves` (runtime/engine.py)
    invariants = {**Engine.invariants, "track geometry": "invariant_track", "cube conservation": "invariant_cubes"}

    # --- creating a game -----------------------------------------------------------------------
    def new_game(self, compiled: CompiledGame, players: list[str], seed: int = 0, agents=None,
                 options: dict | None = None, setup: bool = True, tracing: bool = True) -> MoonGame:
        """As the core's ``Engine.new_game``: ``tracing=False`` writes no trace from the start, the
        set-up's included (a simulation that keeps no log; tracing changes nothing of a game)."""
        options = dict(options or {})
        mod, data = _map_of(compiled, options.get("map"))
        lim = data.get("players") or {}  # A01: "Moon is a map for 3 to 4 players" (from the map data)
        if lim and not (lim.get("min", 1) <= len(players) <= lim.get("max", 99)):
            raise Refused(f"{data.get('name', mod)} is a map for {lim['min']} to {lim['max']} players, "
                          f"not {len(players)}")
        game = MoonGame(compiled.vocab, compiled.cards, players, seed=seed, agents=agents, options=options)
        game.tracing = tracing
        game.engine = self
        game.compiled = compiled
        game.verbs = verbs_for(self.name)
        tables = game.model.tables
        hm = hex_map(data)  # HexMap.from_data(data), copied from one read once per compiled map
        game.moon = MoonState(hm, dict(tables.get("terrain") or {}), dict(tables.get("town_cost") or {}),
                              sorted(tables.get("cube_colours") or {}))
        m = game.moon
        m.map_tables = MapTables.of(data, m.terrain)
        m.sun = (data.get("day_night") or {}).get("sun_start", "")
        m.satellite_on = options.get("satellite", True) is not False
        m.satellite_at = (data.get("satellite") or {}).get("start") if m.satellite_on else None
        m.turn_order = list(range(len(players)))
        m.new_city_tiles = [dict(t) for t in ((tables.get("new_cities") or {}).get("tiles") or [])]
        if setup:
            self.setup(game)
        return game

    # --- the game protocol: the stand-in turn (turn.py) -----------------------------------------
    def new_match(self, compiled: CompiledGame, players: list[str], seed: int = 0, agents=None,
                  turn_cap: int | None = None, options: dict | None = None, tracing: bool = True):
        """A whole Moon game to a winner through the stand-in build / move goods / income loop.
        ``turn_cap`` ends it earlier than the stand-in ``game_length``; ``tracing=False``: no trace
        from the start (``new_game``)."""
        opts = dict(options or {})
        if turn_cap is not None:
            opts["turn_cap"] = int(turn_cap)
        return new_moon_match(self, compiled, players, seed, agents=agents, options=opts, tracing=tracing)

    # Monte Carlo: no random playout below the tree — listing the Moon's moves is costly (every
    # build and route is checked) and random track says little; the tree's leaves are scored by the
    # heuristic below, which values the turns still to play (issue 24)
    playout_depth = 0
    # the leaves' rewards differ by a few hundredths between moves (a tile is a point of some 50):
    # explore little (pilot runs, 9 games against two greedy players at 48 descents: a win share of
    # 0.61 at 0.01, 0.56 at 0, 0 at 0.1 — at 0.7 the budget spreads evenly)
    uct_exploration = 0.01

    def heuristic(self, game: MoonGame, seat: int) -> float:
        """What the greedy and Monte Carlo bots maximise when game.yaml declares no ``bots.greedy``:
        the stand-in final score now, plus what the position is worth for the turns still to play.

        Issue 24: the score alone (money a tie-break) made greedy spend its $12 on four loose tiles
        in the first turn — a tile is a point now — and then, with no money and no Complete Link to
        a City, never deliver a cube or earn income. So money counts at what it buys (a tile, a point,
        per cheapest track cost), income also for the money it will bring in each remaining turn, and
        the cubes the seat could deliver now over its own links for the income they would bring
        (two deliveries a turn). All of it from the data (final_score, income, game_length, terrain).
        """
        m = game.moon
        p = game.players[seat]
        score = MoonMatch(game).score(seat)
        turns = int((game.model.table("game_length") or {}).get("turns", 0))
        left = max(0, turns - m.turn + 1) if turns else 0
        if not left:
            return score + p.goods["money"] / 100.0  # the game is over: money only breaks ties
        rule = game.model.table("final_score") or {}
        per_income = float(rule.get("per_income", 0))
        per_tile = float(rule.get("per_track_tile", 0))
        costs = [t["track_cost"] for t in m.terrain.values() if isinstance(t, dict) and t.get("track_cost")]
        per_dollar = per_tile / min(costs) if costs and per_tile else 0.0
        per_turn = float((game.model.table("income") or {}).get("money_per_income", 0))
        income_value = per_income + per_turn * (left - 1) * per_dollar  # the points of one more income
        deliveries = sorted(self._deliverable(game, seat), reverse=True)[:2]
        # money is worth what it buys only once spent: held, half that (else a tile, a point for its
        # price, is never worth building — and only track leads to deliveries)
        return (score + 0.5 * p.goods["money"] * per_dollar
                + p.goods["income"] * per_turn * (left - 1) * per_dollar
                + 0.5 * income_value * sum(deliveries) + 0.25 * income_value * self._progress(game, seat))

    def _progress(self, game: MoonGame, seat: int) -> float:
        """How near the seat's unfinished links are to a City (1 next to one, 1/2 a hex further, 1/3
        two further, nothing beyond): a link on its way to a City is on its way to deliveries."""
        total = 0.0
        for ln in game.moon.links.values():
            if ln.owner == seat and not ln.complete and ln.hexes:
                d = self._hexes_to_city(game, ln.tip(), ln.start, 3)
                total += 0.0 if d is None else 1.0 / (d + 1)
        return total

    def _hexes_to_city(self, game: MoonGame, tip: tuple, start: tuple, limit: int) -> int | None:
        """The fewest free hexes (no track, no node) between ``tip`` and a City other than ``start``,
        up to ``limit``; None when there is none that near. Kept in the track index's memo: it
        reads only the track and the nodes (the bots ask it at every leaf of their search)."""
        memo = game.moon.index().memo
        key = ("hexes to city", tip, start, limit)
        if key not in memo:
            memo[key] = self._search_hexes_to_city(game, tip, start, limit)
        return memo[key]

    def _search_hexes_to_city(self, game: MoonGame, tip: tuple, start: tuple, limit: int) -> int | None:
        m = game.moon
        seen, frontier = {tip}, [tip]
        for d in range(limit):
            nxt = []
            for h in frontier:
                for _, n in m.map.neighbours(h):
                    if n in seen:
                        continue
                    seen.add(n)
                    if n != start and self.node_kind(game, n) == "city":
                        return d
                    if n not in m.track and self.node_kind(game, n) is None:
                        nxt.append(n)
            frontier = nxt
        return None

    def _deliverable(self, game: MoonGame, seat: int) -> list[int]:
        """For each cube the seat could deliver now (any Move Goods round), the most of its own links
        a delivery of it could use (0s left out): the income such a delivery would bring it."""
        m = game.moon
        out = []
        sources = m.index().route_sources  # from any other hex no route leaves
        for src in sorted(h for h, c in m.cubes.items() if c and h in sources):
            for cube in sorted(set(m.cubes[src])):
                best = self._most_own_links(game, seat, src, cube)
                if best:
                    out.append(best)
        return out

    def _most_own_links(self, game: MoonGame, seat: int, src: tuple, cube: str) -> int:
        """The most of the seat's own links a delivery of ``cube`` from ``src`` could use, over its
        routes. Kept in the track index's memo: it reads the links and the routes (the Sun in the key)."""
        m = game.moon
        ix = m.index()
        key = ("own links", seat, src, cube, m.sun)
        found = ix.memo.get(key)
        if found is not None:
            return found
        best = 0
        for path in ix.routes(game, src, cube):
            here, own = src, 0
            if self.node_kind(game, src) is None:  # on a track tile: along its link first
                ln = m.links.get(m.track.get(src))
                own += ln is not None and ln.owner == seat
                here, path = path[0], path[1:]
            for node in path:
                ln = self.link_between(game, seat, here, node, None)
                own += ln is not None and ln.owner == seat
                here = node
            best = max(best, own)
        ix.memo[key] = best
        return best

    # --- hooks for the compiler and the reference: the Moon's map format is this game's ----------
    def check_map(self, data, game_data: dict, report) -> None:
        """E601: the geometry a schema cannot express (maps.py)."""
        check_map(data, game_data, report)

    def render_map_svg(self, map_data: dict, vocab, coords: bool = False, legend: bool = True) -> str | None:
        """The hex map as a black-and-white-readable SVG (mapsvg.py)."""
        from .mapsvg import render_map_svg

        return str(render_map_svg(map_data, vocab, coords=coords, legend=legend))

    def map_hex_px(self) -> float | None:
        from .mapsvg import SIZE

        return SIZE

    # --- what a player at the table sees (runtime/tableview.py) ------------------------------------
    def board_sections(self, game: MoonGame, seat: int) -> list:
        """The Moon as a text hex map (runtime/games/age_of_steam/textmap.py), the Cities' waiting
        cubes, each player's links, the Sun and the Satellite."""
        from .textmap import map_sections

        return map_sections(self, game)

    def board_svg(self, game: MoonGame, seat: int) -> str | None:
        """The Moon with the track and the waiting cubes on it (boardsvg.py), for the studio's table."""
        from .boardsvg import board_svg

        _, data = _map_of(game.compiled, game.options.get("map"))
        return board_svg(game, data)

    def seat_sections(self, game: MoonGame, player: int, seat: int) -> list:
        from runtime.tableview import Section

        links = [ln for ln in game.moon.links.values() if ln.owner == player]
        if not links:
            return []
        done = sum(1 for ln in links if ln.complete)
        return [Section("Track", (f"{len(links)} link{'s' if len(links) != 1 else ''}, {done} complete; "
                                  f"{sum(len(ln.hexes) for ln in links)} track tiles (=" + str(player + 1)
                                  + "= on the map)",))]

    def setup(self, game: MoonGame) -> None:
        """A02 and A11: cubes on Cities and the Landing hex, New Cities, Goods Display, Sun, Satellite."""
        m = game.moon
        st = game.model.table("setup") or {}
        per_city = st.get("cubes_per_city", 2)
        for h in sorted(self.cities(game)):
            m.cubes.setdefault(h, []).extend(self.draw_cubes(game, per_city))
        n = st.get("cubes_per_player_on_landing", 2) * len(game.players)
        m.cubes.setdefault(m.map.landing, []).extend(self.draw_cubes(game, n))
        # "Remove the black New City tiles from the game."
        m.removed = [t["id"] for t in m.new_city_tiles if t.get("colour") == "black"]
        m.new_city_tiles = [t for t in m.new_city_tiles if t.get("colour") != "black"]
        # "Fill the Goods Display as usual with the exception of the black New Cities." Decision: one
        # column per City growth number and one per remaining New City tile, each filled with the
        # (provisional) display_cubes_per_column cubes.
        per = st.get("display_cubes_per_column", 3)
        for num in sorted({c["number"] for c in self.cities(game).values() if c.get("number")}):
            m.display[str(num)] = self.draw_cubes(game, per)
        for t in m.new_city_tiles:
            m.display[t["id"]] = self.draw_cubes(game, per)
        if m.satellite_on:
            m.satellite_cubes = self.draw_cubes(game, self.satellite_cube_count(game))
        for cid, rec in sorted(game.cards.items()):
            if rec.get("kind") == "action":
                game.create(cid, game.zone_key("action_tiles", None))
        game.emit("setup", None, f"setup: {per_city} cubes on each of {len(self.cities(game))} Cities, {n} on the Landing hex; "
                  f"removed {', '.join(m.removed) or 'nothing'}; Sun on {m.sun} ({self.day_label(game)} is day)"
                  + (f"; Satellite on {m.satellite_at} with {len(m.satellite_cubes)} cubes" if m.satellite_on else ""))

    def satellite_cube_count(self, game: MoonGame) -> int:
        _, data = _map_of(game.compiled, game.options.get("map"))
        for row in (data.get("satellite") or {}).get("cubes") or []:
            if row["players"] == len(game.players):
                return row["cubes"]
        raise RulesError(f"the map gives no Satellite cube count for {len(game.players)} players")

    def draw_cubes(self, game: MoonGame, n: int) -> list[str]:
        # Decision: the base game's cube bag is not in this rulebook; cubes are drawn uniformly from the
        # cube colours of game.yaml with the game's seeded RNG: ``rng.choice(colours)`` each, written
        # as the one draw choice makes (a game's set-up draws some fifty; tests/age_of_steam/
        # test_turn_shortcuts.py holds it to choice)
        colours = game.moon.colours
        if n > 0 and not colours:
            raise IndexError("Cannot choose from an empty sequence")  # as choice would
        below, k = game.rng._randbelow, len(colours)
        return [colours[below(k)] for _ in range(n)]

    # --- map queries ---------------------------------------------------------------------------
    def cities(self, game: MoonGame) -> dict:
        """hex -> City record (printed Cities and New Cities placed on Towns)."""
        out = dict(game.moon.map.cities())
        out.update(game.moon.new_cities)
        return out

    def node_kind(self, game: MoonGame, h: tuple) -> str | None:
        m = game.moon
        if h == m.map.landing:
            return "landing"
        if h in m.new_cities or (m.map.hexes.get(h) or {}).get("city"):
            return "city"
        if (m.map.hexes.get(h) or {}).get("town"):
            return "town"
        return None

    def label(self, game: MoonGame, h: tuple) -> str:
        if h in game.moon.new_cities:
            return new_city_label(game.moon.new_cities[h], h)
        return map_label(game.moon.map.hexes.get(h) or {}, h)

    def hex_of(self, game: MoonGame, ref) -> tuple:
        m = game.moon
        h = tuple(ref) if isinstance(ref, tuple) else parse_coord(ref) if isinstance(ref, str) else None
        if h is None:
            h = m.map.names.get(ref)
            if h is None and isinstance(ref, str) and ref.lower() in ("landing", "landing hex"):
                h = m.map.landing
        if h is None or h not in m.map.hexes:
            raise Refused(f"there is no hex {ref!r} on the map")
        return h

    def day_label(self, game: MoonGame) -> str:
        return f"the {game.moon.sun.replace('_', ' ')} side"

    def is_day(self, game: MoonGame, h: tuple) -> bool:
        if game.moon.map.line is None or not game.moon.map.sun_spaces:
            return True  # a map without day and night (not the Moon): every City is always lit
        return game.moon.map.sun_side_of(h) == game.moon.sun

    def accepts(self, game: MoonGame, h: tuple) -> str | None:
        """The cube colour a City accepts now: its colour by day, black by night (A09); None otherwise."""
        if self.node_kind(game, h) != "city":
            return None
        m = game.moon
        city = m.new_cities[h] if h in m.new_cities else m.map.cities()[h]  # as cities(game)[h]
        return city["colour"] if self.is_day(game, h) else "black"

    def complete_links_graph(self, game: MoonGame) -> dict:
        """node -> the nodes one Complete Link (of any owner) away. From the track index of the links
        as they are (index.py): the same dict until they change, so read it, never write it."""
        return game.moon.index().graph

    def connected(self, game: MoonGame) -> frozenset:
        """Nodes connected to the Landing hex by Complete Links (of any owner), from the track index."""
        return game.moon.index().connected

    def sections_at_town(self, game: MoonGame, h: tuple) -> int:
        """Track sections leading to node ``h``: the links starting or ending on it."""
        return game.moon.index().ends.get(h, 0)

    def side_key(self, game: MoonGame, a: tuple, b: tuple) -> tuple:
        """The hex side between adjacent hexes ``a`` and ``b`` (a wrap-around edge included, A05), the
        same whichever end it is named from: the two (hex, side) halves, sorted."""
        mp = game.moon.map
        return tuple(sorted(((a, mp.link_side(a, b)), (b, mp.link_side(b, a)))))

    def side_taken(self, game: MoonGame, a: tuple, b: tuple) -> str | None:
        """The link whose track crosses the hex side between ``a`` and ``b``, or None. Only a link
        through ``a`` or ``b`` can (a track hex is in one link), or a link of no track hex joining
        the two nodes; so only those are read, and only when the track index says some link crosses
        that side (the legal moves ask this thousands of times)."""
        m = game.moon
        if side_pair(a, b) not in m.index().sides:
            return None
        cands = {lid for lid in (m.track.get(a), m.track.get(b)) if lid is not None}
        if a not in m.track and b not in m.track:
            cands |= {lid for lid, ln in m.links.items() if not ln.hexes and {ln.start, ln.end} == {a, b}}
        key = self.side_key(game, a, b)
        for lid in sorted(cands):
            if any(self.side_key(game, x, y) == key for x, y in m.links[lid].sections() if {x, y} == {a, b}):
                return lid
        return None

    # --- building track ------------------------------------------------------
    def build(self, game: MoonGame, player: int, hexes: list, start=None, cont: str | None = None,
              free: bool = False, check_only: bool = False) -> Link | int | None:
        """Build track tiles along ``hexes``; refused (state unchanged) when the rules forbid it.

        ``start`` is the node built from (the Landing hex or a connected City); ``cont`` continues the
        player's own unfinished link. ``free`` lays pre-existing track for scenarios (no cost, no limit).
        ``check_only`` checks everything and returns the cost without building (the legal moves).
        """
        m = game.moon
        who = game.players[player].name
        if not hexes:
            raise Refused("a build names at least one hex")
        path = [self.hex_of(game, h) for h in hexes]
        if cont is not None:
            link = m.links.get(cont)
            if link is None:
                raise Refused(f"there is no link {cont!r}")
            if link.owner != player:
                raise Refused(f"{cont} belongs to {game.players[link.owner].name}: only its owner continues it")
            if link.complete:
                raise Refused(f"{cont} is already a Complete Link")
            origin, start_node = link.tip(), link.start
        else:
            start_node = self.hex_of(game, start if start is not None else "landing")
            kind = self.node_kind(game, start_node)
            # A04: "Players can only build from the Landing hex or a City that is connected by Complete
            # Links to the Landing hex." Decision: a Town never qualifies, connected or not.
            if kind not in ("landing", "city"):
                raise Refused(f"{who} may build only from the Landing hex or a City connected to it by Complete "
                              f"Links; {self.label(game, start_node)} is not a City")
            if kind == "city" and not free and start_node not in self.connected(game):
                raise Refused(f"{who} may build only from the Landing hex or a City connected to it by Complete "
                              f"Links; {self.label(game, start_node)} is not connected to the Landing hex")
            origin = start_node
        prev, cost, tiles, end, parts = origin, 0, 0, None, []
        trace = game.tracing and not check_only  # the trace's words are built only for the trace
        track: list = []  # the path's track hexes (all but a node ending it), in order
        # Decision (docs/decisions.md, "one track section per hex side"): track is simple track tiles
        # joined at hex sides, and a hex side carries one track section. Without this a Town next to
        # the Landing hex could be linked to it again and again over the same side, each copy adding a
        # "track section leading to the Town" (A06) that is not there.
        for i, h in enumerate(path):
            if m.map.link_side(prev, h) is None:
                raise Refused(f"{self.label(game, h)} is not next to {self.label(game, prev)}")
            # (a side inside this build is new: its hexes are new track, refused below if not)
            taken = None if h in m.track else self.side_taken(game, prev, h)  # a hex with track: refused below
            if taken is not None:
                raise Refused(f"the hex side between {self.label(game, prev)} and {self.label(game, h)} already "
                              f"carries track ({taken}): a hex side takes one track section")
            kind = self.node_kind(game, h)
            last = i == len(path) - 1
            if kind is not None:
                if not last:
                    raise Refused(f"track ends at {self.label(game, h)}: a link stops at the first City or Town")
                if h == start_node:
                    raise Refused("a link cannot end where it started")
                if kind == "town":
                    tc = m.town_cost
                    # A06: "Towns cost $2 + $1 for every track section leading to the Town." Decision: each
                    # build into a Town places the Town tile with all sections now leading to it.
                    sections = self.sections_at_town(game, h) + 1
                    c = tc["base"] + tc["per_track_section"] * sections
                    cost += c
                    tiles += 1
                    if trace:
                        parts.append(f"{self.label(game, h)} (town, {sections} section{'s' * (sections > 1)} ${c})")
                elif trace:
                    note = self._wrap_note(game, prev, h)
                    parts.append(self.label(game, h) + (f" ({note[2:]})" if note else ""))
                end = h
                break
            if h in m.track or h in track:
                # Decision: tiles are simple track only; a hex holds one track (no crossings, no complex tiles).
                raise Refused(f"{self.label(game, h)} already has track")
            terrain = m.map.hexes[h]["terrain"]
            c = (m.terrain.get(terrain) or {}).get("track_cost")
            if c is None:
                raise Refused(f"no track may be built on {terrain} ({self.label(game, h)})")
            cost += c
            tiles += 1
            track.append(h)
            if trace:
                parts.append(f"{self.label(game, h)} ({terrain} ${c}{self._wrap_note(game, prev, h)})")
            prev = h
        p = game.players[player]
        completes = cont is not None and tiles == 0 and end is not None
        if tiles == 0 and not completes:
            # Decision: two adjacent nodes are not joined for free; every link places at least one tile.
            raise Refused("a build places at least one track tile")
        if completes and not free and p.goods["track_tile"] <= 0:
            raise Refused("an unfinished link is completed while building track (Build Track)")
        # Decision (docs/decisions.md, "completing a link"): an unfinished link whose last tile lies
        # next to a City (or the Landing hex) is completed into it with no further tile: "two track
        # tiles per turn" limits tiles, and a City hex takes none ("entering a City costs nothing").
        if not free:
            # A03: 2 tiles a turn, 3 with the Engineer — the allowance set by the effects "build up to N track tiles"
            limit = p.goods["track_tile"]
            done = m.built.get(player, 0)
            if done + tiles > limit:
                raise Refused(f"over the build limit: {who} may build {limit} track tiles this turn, has built "
                              f"{done} and this build needs {tiles}")
            if p.goods["money"] < cost:
                raise Refused(f"too little money: this build costs ${cost}, {who} has ${p.goods['money']}")
        if check_only:
            return cost
        # --- nothing has changed so far; from here on the build happens ---
        if cont is not None:
            link = m.links[cont]
            m.lay(link, track, end)
        else:
            link = m.new_link(player, start_node, track, end)
        if not free:
            p.goods["money"] -= cost
            m.built[player] = m.built.get(player, 0) + tiles
        if not trace:
            return link
        state = "complete" if link.complete else "unfinished"
        game.emit("build", player, f"builds {link.id} from {self.label(game, origin)}: " + " → ".join(parts)
                  + (f": ${cost}, {tiles} tile{'s' * (tiles != 1)} ({m.built.get(player, 0)} of "
                     f"{p.goods['track_tile']} this turn)" if not free else " (laid out)") + f"; {state}",
                  link=link.id, cost=cost)
        for h in track:
            for c in m.cubes.get(h, []):
                # A13: "If a player builds track over a hex with a cube, then the cube is placed on the tile
                # and may be delivered."
                game.emit("cube", player, f"the {c} cube on {fmt(h)} is now on {link.id}'s track tile and may be "
                          "delivered")
        return link

    def _wrap_note(self, game: MoonGame, a: tuple, b: tuple) -> str:
        side = game.moon.map.link_side(a, b)
        if side is not None and step(a, side) != b:  # A05: reached across a labelled wrap-around edge
            return f", across edge {game.moon.map.wrap_labels[(a, side)]}"
        return ""

    # --- actions -------------------------------------------------------------------------------
    def take_action(self, game: MoonGame, player: int, action: str) -> Outcome:
        zone = game.zone_key("action_tiles", None)
        uid = next((u for u in game.zones[zone] if game.instances[u].card_id == action), None)
        if uid is None:
            taken = [game.players[p.index].name for p in game.players
                     if any(game.instances[u].card_id == action for u in game.zone("actions", p.index))]
            raise Refused(f"the {action} action is not available" + (f" (taken by {taken[0]})" if taken else ""))
        game.move(uid, game.zone_key("actions", player))
        game.instances[uid].owner = player
        if game.tracing:  # emit() keeps words only while tracing: they are made only then
            game.emit("action", player, f"takes the {game.cards[action]['name']} action")
        # taking a special action tile is its play: the simulation report counts it (plays, and the
        # per-card "won when played")
        game.publish(Played(player, card=uid, turn=game.turn_number, round=game.round))
        if game.cards[action].get("slots", {}).get("effect"):
            return self.run_slot(game, uid, "effect", player)
        return Outcome("done")

    def holds(self, game: MoonGame, player: int, action: str) -> bool:
        return any(game.instances[u].card_id == action for u in game.zone("actions", player))

    # --- moving goods ---------------------------------------------------
    def move(self, game: MoonGame, player: int, cube: str, frm, path: list, borrow: str | None = None,
             check_only: bool = False) -> int | None:
        """Move a cube along Complete Links to a City that accepts it (refused, state unchanged,
        otherwise). ``check_only``: check it and return the number of links used, moving nothing."""
        m = game.moon
        who = game.players[player].name
        if m.move_round not in (1, 2):
            raise Refused("cubes move only during Move Goods")
        if player in m.moved:
            raise Refused(f"{who} has already moved a cube in Move Goods round {m.move_round}")
        src = self.hex_of(game, frm)
        if cube not in m.cubes.get(src, []):
            raise Refused(f"there is no {cube} cube on {self.label(game, src)}")
        nodes = [self.hex_of(game, h) for h in path]
        if not nodes:
            raise Refused("a move names the nodes the cube travels to")
        legs = []  # (link, from, to)
        here = src
        if self.node_kind(game, src) is None:
            lid = m.track.get(src)
            if lid is None:
                raise Refused(f"the {cube} cube on {fmt(src)} is not on track: it moves once track is built there")
            ln = m.links[lid]
            if not ln.complete or nodes[0] not in (ln.start, ln.end):
                raise Refused(f"the {cube} cube on {lid}'s track can only travel along {lid} to "
                              + " or ".join(self.label(game, n) for n in (ln.start, ln.end) if n is not None)
                              + (" once it is complete" if not ln.complete else ""))
            # A13: a cube on a track tile is delivered from that track segment along its link.
            legs.append((ln, src, nodes[0]))
            here = nodes[0]
            nodes = nodes[1:]
        visited = {here}
        for n in nodes:
            if n in visited:
                raise Refused(f"the cube would visit {self.label(game, n)} twice")
            ln = self.link_between(game, player, here, n, borrow)
            if ln is None:
                raise Refused(f"no Complete Link joins {self.label(game, here)} and {self.label(game, n)}")
            legs.append((ln, here, n))
            visited.add(n)
            here = n
        dest = here
        kind = self.node_kind(game, dest)
        if kind == "landing":  # A08: a colourless City; cubes pass through it but it accepts none
            raise Refused("the Landing hex is a colourless City: it does not accept goods (cubes may pass through)")
        if kind != "city":
            raise Refused(f"{self.label(game, dest)} is not a City: only Cities accept goods")
        want = self.accepts(game, dest)
        if want != cube:
            night = "" if self.is_day(game, dest) else " (it is on the night side, so it is black)"
            raise Refused(f"{self.label(game, dest)} accepts only {want} cubes{night}, not {cube}")
        used = [ln for ln, _, _ in legs]
        mine = m.borrowed.get(player)
        if borrow is not None:  # A07: Low Gravitation, one opponent Complete Link as one's own
            if not self.holds(game, player, "low_gravitation"):
                raise Refused(f"{who} does not hold the Low Gravitation action")
            ln = m.links.get(borrow)
            if ln is None or not ln.complete or ln.owner == player:
                raise Refused(f"Low Gravitation uses a Complete Link of another player; {borrow} is not one")
            if mine is not None and mine != borrow:
                raise Refused(f"Low Gravitation lets {who} use one opponent link as their own this turn, "
                              f"and it is {mine}")
            if ln not in used:
                raise Refused(f"this move does not use {borrow}")
            mine = borrow
        if check_only:
            return len(used)
        # --- legal: move the cube ---
        if borrow is not None:
            m.borrowed[player] = borrow
        m.cubes[src].remove(cube)
        m.moved.add(player)
        gains: dict[int, int] = {}
        for ln, a, b in legs:
            earner = player if ln.id == mine else ln.owner
            gains[earner] = gains.get(earner, 0) + 1
        for p, n in sorted(gains.items()):
            game.players[p].goods["income"] += n
        if not game.tracing:
            return None  # the route in words is for the trace only
        notes = [f"{ln.id} ({game.players[ln.owner].name}"
                 + (f", used as {who}'s by Low Gravitation" if ln.id == mine and player != ln.owner else "") + ")"
                 for ln, _, _ in legs]
        route = " → ".join([self.label(game, src)] + [self.label(game, b) for _, _, b in legs])
        game.emit("move", player, f"moves a {cube} cube {route} over {', '.join(notes)}; income "
                  + ", ".join(f"{game.players[p].name} +{n}" for p, n in sorted(gains.items())))

    def link_between(self, game: MoonGame, player: int, a: tuple, b: tuple, borrow: str | None):
        """The Complete Link a cube moving from node ``a`` to node ``b`` travels, or None: the links
        joining them from the track index (``TrackIndex.between``; tests/age_of_steam/test_fast_moves.py
        holds it to the original, which read every link, in reference_moves.py)."""
        m = game.moon
        ids = m.index().between.get(side_pair(a, b))
        if not ids:
            return None
        if len(ids) == 1:
            return m.links[ids[0]]
        cands = [m.links[lid] for lid in ids]
        # Decision: with several links between two nodes, the named borrowed link, then the mover's own,
        # then the lowest id.
        cands.sort(key=lambda ln: (ln.id != borrow, ln.owner != player, int(ln.id[1:])))
        return cands[0]

    # --- invariants ----------------------------------------------------------------------------
    def invariant_track(self, game: MoonGame) -> list[str]:
        """Track geometry: the track index matches the links; a hex holds one track (simple tiles, no
        crossings); a link runs hex to adjacent hex, its track on no node; a Complete Link ends on a
        node next to its last hex; a hex side carries one track section (A03, A06: so a Town is not
        linked twice over one side); nothing lies off the map."""
        m = game.moon
        problems = []
        owned: dict = {}
        sides: dict = {}
        for lid, ln in sorted(m.links.items()):
            prev = ln.start
            for hx in ln.hexes:
                if hx in owned:
                    problems.append(f"{fmt(hx)} is in {owned[hx]} and {lid}")
                owned[hx] = lid
                if m.map.link_side(prev, hx) is None:
                    problems.append(f"{lid}: {fmt(hx)} is not next to {fmt(prev)}")
                if self.node_kind(game, hx) is not None:
                    problems.append(f"{lid}: track on node {fmt(hx)}")
                prev = hx
            if ln.end is not None and (self.node_kind(game, ln.end) is None or m.map.link_side(prev, ln.end) is None):
                problems.append(f"{lid}: ends on {fmt(ln.end)}, not a node next to its last hex")
                continue
            for a, b in ln.sections():
                if m.map.link_side(a, b) is None:
                    continue  # reported above
                side = self.side_key(game, a, b)
                if side in sides:
                    problems.append(f"{lid} and {sides[side]} both cross the hex side between {fmt(a)} and {fmt(b)}")
                sides.setdefault(side, lid)
        if owned != m.track:
            problems.append("the track index does not match the links")
        for hx in m.cubes:
            if hx not in m.map.hexes:
                problems.append(f"cubes off the map at {fmt(hx)}")
        return problems

    def invariant_cubes(self, game: MoonGame) -> list[str]:
        """Cubes are neither made nor lost: those on the board, the Goods Display and the Satellite plus
        those delivered are those of setup (a game played through the stand-in turn keeps the count)."""
        t = game.turn_state
        if t is None:
            return []  # a scenario lays out its own cubes: there is no count from setup to keep
        if cube_total(game) + t.delivered != t.cubes_at_start:
            return [f"{cube_total(game)} cubes in play + {t.delivered} delivered, but {t.cubes_at_start} at setup"]
        return []

    # --- phases --------------------------------------------------------------------------------
    def phase(self, game: MoonGame, name: str, **kw) -> None:
        m = game.moon
        game.phase = name
        trace = game.tracing  # emit() keeps words only while tracing: they are made only then
        if name == "select_actions":
            # a Moon turn is what the core engine calls a round (every player acts in it): its typed
            # events are how the simulation report measures a game's length
            self.begin_round(game)
            if trace:
                game.emit("phase", None, f"turn {m.turn}: Select Actions")
        elif name == "build_track":
            if trace:
                game.emit("phase", None, f"turn {m.turn}: Build Track")
            fn = game.compiled.rules["build_track"]
            for p in m.turn_order:
                self.run(game, fn, p)
        elif name == "move_goods":
            if m.move_round >= 2:
                raise Refused("Move Goods has two rounds per turn")
            m.move_round += 1
            m.moved = set()
            if trace:
                game.emit("phase", None, f"turn {m.turn}: Move Goods round {m.move_round}")
        elif name == "goods_growth":
            self.goods_growth(game, kw.get("dice"))
        elif name == "end_of_turn":
            if m.satellite_on:
                self.satellite(game, kw.get("cube"), kw.get("hex"))
            self.reset_turn(game)
            self.end_round(game)
        else:
            raise RulesError(f"the age_of_steam engine has no phase {name!r}")

    def goods_growth(self, game: MoonGame, dice: list | None = None) -> None:
        """A10: roll 2 dice per player; day-side Cities connected to the Landing hex receive cubes."""
        m = game.moon
        per = (game.model.table("goods_growth") or {}).get("dice_per_player", 2)
        n = per * len(game.active_players())
        if dice is None:
            below = game.rng._randbelow  # randint(1, 6): the one draw it makes (test_turn_shortcuts.py)
            dice = [1 + below(6) for _ in range(n)]
        elif len(dice) != n:
            raise RulesError(f"Goods Growth rolls {n} dice ({per} per player), {len(dice)} given")
        trace = game.tracing  # emit() keeps words only while tracing: they are made only then
        if trace:
            game.emit("growth", None, f"Goods Growth: rolls {', '.join(map(str, dice))}")
        connected = self.connected(game)
        by_number = self._growth_cities(game)
        for d in dice:
            for h, new_id, day in by_number.get(d, ()):
                col = str(d) if new_id is None else new_id[0]  # a New City's column is its tile's id
                why = None
                if not day:
                    why = "is on the night side"
                elif h not in connected:
                    why = "is not connected to the Landing hex by Complete Links"
                elif not m.display.get(col):
                    why = f"has no cube left in its Goods Display column {col}"
                if why:
                    if trace:
                        game.emit("growth", None, f"  {d}: {self.label(game, h)} {why}: no cube")
                    continue
                c = m.display[col].pop(0)
                m.cubes.setdefault(h, []).append(c)
                if trace:
                    game.emit("growth", None, f"  {d}: {self.label(game, h)} receives a {c} cube")
        other = [s for s in sorted(m.map.sun_spaces) if s != m.sun]
        m.sun = other[0] if other else m.sun  # A10: the Sun moves to the other side
        m.turn += 1  # and the Turn marker advances
        if trace:
            game.emit("sun", None,
                      f"the Sun moves to {m.sun}: {self.day_label(game)} is day; turn marker to {m.turn}")

    def _growth_cities(self, game: MoonGame) -> dict:
        """Goods Growth's Cities by die number, each die's in hex order, as (hex, (its tile's id,)
        for a New City — its Goods Display column — else None, whether it is day there now): what
        ``goods_growth`` reads of every City, kept in the track index's city memo per Sun side (the
        Cities change only with a New City, which builds a new index; the day side is the map's).
        Growth moves cubes only: the Cities stay as they are. tests/age_of_steam/test_turn_shortcuts.py
        holds Goods Growth to the original (reference_turn.py) at every move of seeded games."""
        m = game.moon
        memo = m.index().city_memo
        key = ("growth cities", m.sun)
        found = memo.get(key)
        if found is None:
            found = {}
            for h, city in sorted(self.cities(game).items()):
                new_id = (city.get("id"),) if h in m.new_cities else None
                found.setdefault(city.get("number"), []).append((h, new_id, self.is_day(game, h)))
            found = memo[key] = {d: tuple(cities) for d, cities in found.items()}
        return found

    def satellite_chooser(self, game: MoonGame) -> int:
        """A12: last on the income track; ties go to the player last in turn order."""
        order = game.moon.turn_order
        return min(order, key=lambda p: (game.players[p].goods["income"], -order.index(p)))

    def satellite(self, game: MoonGame, cube: str | None = None, hex_ref=None) -> None:
        """A12: the chooser puts one Satellite cube on a hex next to it; the Satellite moves on."""
        m = game.moon
        if not m.satellite_on or m.satellite_at is None:
            raise Refused("this game is played without the Satellite")
        p = self.satellite_chooser(game)
        here = m.map.space(m.satellite_at)
        options = m.map.hexes_next_to(here)
        if m.satellite_cubes:
            if cube is None:
                cube = game.agent(p).choose(game, p, sorted(set(m.satellite_cubes)), 1,
                                            prompt="choose a Satellite cube")[0]
            if cube not in m.satellite_cubes:
                raise Refused(f"there is no {cube} cube on the Satellite")
            h = (self.hex_of(game, hex_ref) if hex_ref is not None else
                 game.agent(p).choose(game, p, options, 1, prompt="choose a hex next to the Satellite")[0])
            if h not in options:
                raise Refused(f"{self.label(game, h)} is not next to the Satellite on {m.satellite_at} "
                              f"(next to it: {', '.join(fmt(o) for o in options)})")
            m.satellite_cubes.remove(cube)
            m.cubes.setdefault(h, []).append(cube)
            if game.tracing:  # emit() keeps words only while tracing: they are made only then
                where = (f"onto {m.track[h]}'s track, from where it may be delivered" if h in m.track
                         else f"on {self.label(game, h)}")
                game.emit("satellite", p, f"places a {cube} cube from the Satellite {where}")
        else:
            # Decision: an empty Satellite places nothing but still moves.
            game.emit("satellite", p, "the Satellite has no cubes left: nothing is placed")
        ids = [s for s, _ in m.map.spaces]
        m.satellite_at = ids[(ids.index(m.satellite_at) + 1) % len(ids)]
        if game.tracing:
            game.emit("satellite", None, f"the Satellite moves counter-clockwise to {m.satellite_at}")

    def reset_turn(self, game: MoonGame) -> None:
        m = game.moon
        m.built, m.move_round, m.moved, m.borrowed = {}, 0, set(), {}
        for p in game.players:
            p.goods["track_tile"] = 0
            for uid in list(game.zone("actions", p.index)):
                game.move(uid, game.zone_key("action_tiles", None))
                game.instances[uid].owner = None
        game.emit("phase", None, "end of turn: action tiles return; build allowances reset")


def _map_of(compiled: CompiledGame, name: str | None = None) -> tuple[str, dict]:
    maps = {k: v for k, v in sorted(compiled.maps.items()) if v}
    if name is not None:
        if name not in maps:
            raise RulesError(f"no map {name!r} (maps: {', '.join(maps) or 'none'})")
        return name, maps[name]
    if not maps:
        raise RulesError(f"game {compiled.game!r} has no map")
    return next(iter(maps.items()))


def check_invariants(game: MoonGame) -> list[str]:
    """Every invariant the engine declares (``AgeOfSteam.invariants``) on ``game`` now: empty when sound."""
    return game.engine.check_invariants(game)
