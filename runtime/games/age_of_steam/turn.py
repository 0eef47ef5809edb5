"""The stand-in Age of Steam turn on the Moon, played through the game protocol (runtime/protocol.py).

The Moon rulebook gives only what the map changes (A01–A13). To play whole games to a winner this
module plays the smallest loop the map's rules need, every base-game part of it a table of game.yaml
marked ``stand_in`` with its note (shown as such in the reference and in simulation reports):

    Select Actions  in turn order, each player takes one special action tile still available or none
                    (``select_actions``); the Engineer's effect grants 3 tiles (A03)
    Build Track     the rule ``build_track`` grants 2 tiles (A03); in turn order, each player builds one
                    tile a move (from the Landing hex or a connected City, A04; extending or completing
                    an unfinished link of theirs) until they stop
    Move Goods      two rounds (A07–A09, A13); in each, in turn order, each player delivers one cube
                    along Complete Links, or none
    Income          each player receives money equal to their income (``income``)
    Goods Growth    the engine's (A10), then the Satellite (A11–A12), then the turn ends
    End             after ``game_length.turns`` turns; ``final_score`` decides the winner

Moves are the decisions between rules: which tile, which cube, which route; a build or a delivery is
offered only when the engine's own checks accept it (``check_only``). The Satellite's chooser (A12)
decides through their agent, inside the rule.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from runtime.errors import Refused
from runtime.events import MoveMade
from runtime.protocol import Move, Result, refuse_unless_legal
from runtime.words import has

from .index import new_city_label, node_kind, side_pair
from .state import cube_total


def table(game, name: str) -> dict:
    return game.model.table(name) or {}


@dataclass
class MoonTurn:
    stage: str = "actions"        # actions | build | move | over
    index: int = 0                # position in the turn order of the seat to act
    delivered: int = 0            # cubes delivered so far (they leave the board)
    cubes_at_start: int = 0       # cubes on the board, the Goods Display and the Satellite at setup
    ended: str = ""

    def copy(self) -> "MoonTurn":
        return MoonTurn(self.stage, self.index, self.delivered, self.cubes_at_start, self.ended)


class MoonMatch:
    """One Moon game in progress (the protocol's ``Match``)."""

    def __init__(self, game):
        self.game = game
        self._legal: list[Move] | None = None
        # card id -> the move taking that special action tile: made at its first listing (a card
        # record does not change in play; the label is read from it then)
        self._action_move: dict = {}

    @property
    def t(self) -> MoonTurn:
        return self.game.turn_state

    # --- the protocol -------------------------------------------------------------------------
    def to_act(self) -> int | None:
        t = self.game.turn_state  # (self.t, read once: asked several times a move)
        if t.stage == "over":
            return None
        return self.game.moon.turn_order[t.index]

    def terminal(self) -> bool:
        return self.game.turn_state.stage == "over"

    def legal_moves(self) -> list[Move]:
        if self._legal is None:
            t = self.game.turn_state  # (to_act, written out: the turn read once)
            stage = t.stage
            p = None if stage == "over" else self.game.moon.turn_order[t.index]
            if p is None:
                self._legal = []
            elif stage == "actions":
                self._legal = self._action_moves(p)
            elif stage == "build":
                self._legal = self._build_moves(p)
            else:
                self._legal = self._move_moves(p)
        return list(self._legal)

    def apply(self, move: Move) -> None:
        listed = self._legal if self._legal is not None else self.legal_moves()  # (no copy needed)
        move = refuse_unless_legal(move, listed, self.game)
        self._legal = None
        g, e, t = self.game, self.game.engine, self.game.turn_state
        p = g.moon.turn_order[t.index]  # to_act(): a game over lists no move, so refuses every one above
        if g.tracing:  # tell() writes only while tracing, and a label is made only when read
            g.tell(MoveMade(p, label=move.label))
        kind = move.key[0]
        if kind in ("no_move", "stop", "no_action"):
            t.index += 1  # the next seat
        elif kind == "action":
            e.take_action(g, p, move.key[1])
            t.index += 1
        # a key names hexes "q,r" as the listing wrote them (mt.fmt): the engine is given the hexes
        # themselves (``hex_of`` takes either), read back from the map's tables, not parsed again
        elif kind == "build":
            _, ref, h = move.key
            at = g.moon.tables().hex_at
            e.build(g, p, [at[h]], start=at[ref])
        elif kind == "extend":
            _, lid, h = move.key
            e.build(g, p, [g.moon.tables().hex_at[h]], cont=lid)
        elif kind == "deliver":
            _, cube, src, path, borrow = move.key
            at = g.moon.tables().hex_at
            e.move(g, p, cube, at[src], [at[h] for h in path], borrow)
            t.delivered += 1
            t.index += 1
        if t.index >= len(g.moon.turn_order):  # every seat has acted: what advance() moves on from
            self.advance()

    def result(self) -> Result:
        if not self.terminal():
            raise Refused("the game is not over")
        g = self.game
        scores = tuple(self.score(p.index) for p in g.players)
        money = tuple(p.goods["money"] for p in g.players)
        top = max(scores)
        tied = [p for p in range(len(scores)) if scores[p] == top]
        best = max(money[p] for p in tied)
        winners = tuple(p for p in tied if money[p] == best) if "most money" in (
            table(g, "final_score").get("tie_breaks") or []) else tuple(tied)
        names = ", ".join(g.players[w].name for w in winners)
        reason = f"{names} {has(names) if len(winners) == 1 else 'share'} {top} points"
        if len(tied) > 1:
            reason += " (tie broken by most money)" if len(winners) == 1 else " (a tie that survives the tie-breaks)"
        return Result(scores, winners, f"{reason}; the game ended: {self.t.ended}", ended=self.t.ended)

    def copy(self) -> "MoonMatch":
        return MoonMatch(self.game.copy())

    def score(self, p: int) -> int:
        """Stand-in ``final_score``: points per income plus per track tile of the player's links."""
        g = self.game
        rule = table(g, "final_score")
        tiles = sum(len(ln.hexes) for ln in g.moon.links.values() if ln.owner == p)
        return int(rule.get("per_income", 0)) * g.players[p].goods["income"] + int(rule.get("per_track_tile", 0)) * tiles

    # --- the loop -----------------------------------------------------------------------------
    def advance(self) -> None:
        g, e, t, m = self.game, self.game.engine, self.t, self.game.moon
        while t.stage != "over" and t.index >= len(m.turn_order):
            t.index = 0
            if t.stage == "actions":
                e.phase(g, "build_track")  # every player may build up to 2 tiles (A03)
                t.stage = "build"
            elif t.stage == "build":
                e.phase(g, "move_goods")
                t.stage = "move"
            elif t.stage == "move" and m.move_round < 2:
                e.phase(g, "move_goods")
            else:
                self._end_of_turn()

    def _end_of_turn(self) -> None:
        g, e, t, m = self.game, self.game.engine, self.t, self.game.moon
        per = int(table(g, "income").get("money_per_income", 0))
        for p in m.turn_order:
            n = per * g.players[p].goods["income"]
            if n:
                g.players[p].goods["money"] += n
                if g.tracing:  # emit() keeps words only while tracing: they are made only then
                    g.emit("income", p, f"receives ${n}: income {g.players[p].goods['income']} (stand-in)")
        e.phase(g, "goods_growth")
        e.phase(g, "end_of_turn")  # the Satellite (A12), then the turn's allowances reset
        turns = int(table(g, "game_length").get("turns", 0))
        cap = g.options.get("turn_cap")
        if turns and m.turn > turns:
            t.stage, t.ended = "over", f"{turns} turns were played (stand-in)"
            return
        if cap is not None and m.turn > int(cap):
            t.stage, t.ended = "over", f"the turn cap ({cap}) was reached"
            return
        if table(g, "turn_order").get("passes") == "each turn":
            m.turn_order = m.turn_order[1:] + m.turn_order[:1]
            g.emit("turn_order", m.turn_order[0], "goes first this turn (stand-in)")
        t.stage = "actions"
        e.phase(g, "select_actions")

    # --- moves --------------------------------------------------------------------------------
    def _action_moves(self, p: int) -> list[Move]:
        g = self.game
        out = [NO_ACTION]
        made = self._action_move
        for uid in g.zone("action_tiles"):
            cid = g.instances[uid].card_id
            move = made.get(cid)
            if move is None:
                rec = g.cards[cid]
                effect = rec.get("texts", {}).get("effect")
                move = made[cid] = Move(f"Take the {rec['name']} action" + (f" ({effect})" if effect else ""),
                                        ("action", cid))
            out.append(move)
        return out

    def _build_moves(self, p: int) -> list[Move]:
        """Every one-tile build of seat ``p``: from the Landing hex or a connected City (A04), or
        extending or completing an unfinished link of theirs. Each candidate is what
        ``AgeOfSteam.build(..., check_only=True)`` accepts, at the price it names, in the order the
        listing always tried them; ``_one_tile`` says why it is the same answer, and
        tests/age_of_steam/test_fast_moves.py holds it to reference.build_moves at every move.
        The start nodes' builds are kept in the track index (``_start_builds``): the seat's
        allowance and money are checked here.
        Labels are made only when read (a simulation that does not trace reads none), from the
        names and the cost of the moment of listing (``_names``)."""
        g, m = self.game, self.game.moon
        mt, ix = m.tables(), m.index()
        pl = g.players[p]
        allowance, done, money = pl.goods["track_tile"], m.built.get(p, 0), pl.goods["money"]
        out = [STOP]
        own = ix.unfinished.get(p, ())  # the seat's unfinished links, by number
        if done >= allowance:
            # every build places a tile but completing a link, which needs none, yet still an
            # allowance above zero: with the allowance used up only such a completion is possible
            if allowance <= 0 or not own:
                return out
        if done < allowance:
            # From a start node: every such build is a tile (so none fits an allowance used up,
            # ``done < allowance`` above) and the seat's money is all the rest depends on
            builds = ix.start_builds
            if builds is None:
                builds = ix.start_builds = self._start_builds(mt, ix)
            out += [b[3] for b in builds if b[2] <= money]
        names, track = self._names(ix), m.track
        for lid in own:
            ln = m.links[lid]
            tip = ln.hexes[-1] if ln.hexes else ln.start
            for h, pair, fh in mt.build_steps[tip]:
                if h in track:
                    continue
                found = self._one_tile(mt, ix, pair, ln.start, h)
                if found is None:
                    continue
                # a completion places no tile but needs an allowance above zero; the tiles fit what
                # is left of it; the money covers the cost
                cost, tiles = found
                if (tiles or allowance > 0) and done + tiles <= allowance and cost <= money:
                    completes = node_kind(m, h) in ("city", "landing")
                    label = partial(_extend_label, names, completes, h, cost)
                    out.append(Move.lazy(("extend", lid, fh), label))
        return out

    def _start_builds(self, mt, ix) -> tuple:
        """The one-tile builds from the start nodes (the Landing hex, the connected Cities) this
        version of the track allows whatever the seat, as (hex, side pair, cost, move) in listing
        order: ``_one_tile``'s checks for a tile from a start node, written out (most candidates of a
        listing are these, and most are refused), the seat's allowance and money left to the
        listing. The map's
        tables leave out what ``build`` refuses whatever the state (index.py: impassable terrain, a
        City or the Landing hex next to the start); of the rest it refuses a hex with track, a side
        already crossed, a New City (a Town become a City: no tile, and not completing a link); a
        Town costs base + per section, any other hex its terrain's cost. Kept in the track index
        (``TrackIndex.start_builds``), whose derived indexes keep what their change leaves allowed;
        the moves are shared by the listings of the versions that keep them (a move is immutable, its
        label made once from the names of the version listed)."""
        m = self.game.moon
        track, sides, ends, new_cities = m.track, ix.sides, ix.ends, m.new_cities
        kinds, terrain_cost = mt.kind, mt.track_cost
        base, per = m.town_cost["base"], m.town_cost["per_track_section"]
        names, lazy, out = self._names(ix), Move.lazy, []
        for start in ix.build_starts:
            fs = mt.fmt[start]
            for h, pair, fh in mt.start_steps[start]:
                if h in track or pair in sides or h in new_cities:
                    continue
                cost = base + per * (ends.get(h, 0) + 1) if kinds.get(h) == "town" else terrain_cost[h]
                label = partial(_build_label, names, start, h, cost)
                out.append((h, pair, cost, lazy(("build", fs, fh), label)))
        return tuple(out)

    def _names(self, ix) -> dict:
        """Each hex's name in move labels (AgeOfSteam.label) for this version of the links and
        Cities: the map's, with each New City named as the engine names it. The version changes
        when a New City is placed, so a lazy label reading this dict later says what it said when
        its move was listed."""
        m = self.game.moon
        mt = m.tables()
        if not m.new_cities:
            return mt.label  # the map's own names (never changed)
        found = ix.memo.get(("names",))
        if found is None:
            found = ix.memo[("names",)] = {**mt.label, **{h: new_city_label(rec, h)
                                                          for h, rec in m.new_cities.items()}}
        return found

    def _one_tile(self, mt, ix, pair: tuple, start: tuple, h: tuple) -> tuple | None:
        """What ``AgeOfSteam.build(game, p, [h], cont=…, check_only=True)`` reads of the track and
        the map for one tile from the tip of the seat's unfinished link from node ``start`` to its
        neighbour ``h``, ``pair`` the side between them (``side_pair(tip, h)``): (cost, tiles), or
        None where it refuses whatever the seat. The checks of ``build`` for a one-hex path, in its
        words:

        - a hex with track is refused (a node never has track: a link ends on it): the listing
          skips those before asking, so ``h`` has none here;
        - the side between the tip and ``h`` is free;
        - a node (City, Town, Landing hex) ends the link: not where it started; a Town costs
          base + per section for every section leading to it with this one, and is a tile; a City
          or the Landing hex takes no tile;
        - any other hex: a terrain that takes track (the only such hexes the listing asks about,
          ``MapTables.build_steps``), at its cost, one tile;
        - then the seat's (the listing checks them): a build places a tile unless it completes an
          unfinished link, which needs an allowance above zero; the tiles fit the allowance left;
          the money covers the cost.

        What ``build`` checks besides always holds for the candidates the listing makes: the link
        is the seat's own and unfinished, ``h`` is next to its tip. (The start nodes' builds,
        ``_start_builds``, are the same checks written out for a tile from a start node.)"""
        if pair in ix.sides:
            return None
        m = self.game.moon
        kind = node_kind(m, h) if m.new_cities else mt.kind.get(h)
        if kind is None:
            return mt.track_cost[h], 1
        if h == start:
            return None
        if kind == "town":
            tc = m.town_cost
            return tc["base"] + tc["per_track_section"] * (ix.ends.get(h, 0) + 1), 1
        return 0, 0

    def _move_moves(self, p: int) -> list[Move]:
        """Every delivery of seat ``p`` this Move Goods round: each cube along each of its routes
        (``routes``), alone and with each opponent link Low Gravitation may borrow. Each is what
        ``AgeOfSteam.move(..., check_only=True)`` accepts, in the order the listing always tried
        them; held to reference.move_moves at every move by tests/age_of_steam/test_fast_moves.py.

        Why no ``move`` trial is needed: a route follows Complete Links from the cube's hex (a cube
        on track first along its own link) without visiting a node twice, and ends on a City that
        takes the cube now, so ``move`` accepts every route without a borrowed link, over as many
        links as the route has nodes. With one, ``move`` also asks that the route use it: it does
        when the cube's track is that link, or when the link joins two nodes the route steps between
        (``link_between`` then prefers the borrowed link)."""
        m = self.game.moon
        out = [NO_MOVE]
        if m.move_round not in (1, 2) or p in m.moved:
            return out  # move refuses every delivery now (not reached through the stand-in turn)
        ix = m.index()
        memo, sun, sources, cubes = ix.graph_memo, m.sun, ix.route_sources, m.cubes
        if not sources:
            return out  # no Complete Link yet: no cube can leave any hex
        borrows = None  # the links Low Gravitation may borrow: asked at the first route (most have none)
        for src in sorted(h for h in sources.intersection(cubes) if cubes[h]):  # sources with a cube
            by_cube = memo.get(("routes", src, sun, 3))  # (ix.routes_by_cube, without a call)
            if by_cube is None:
                by_cube = ix.routes_by_cube(self.game, src)
            if not by_cube:
                continue  # no route from here for any cube (most sources in most listings)
            for cube in sorted(set(cubes[src])):
                if cube not in by_cube:
                    continue
                found = memo.get(("deliveries", src, cube, sun))  # (_deliveries, without a call)
                if found is None:
                    found = self._deliveries(ix, src, cube)
                if borrows is None:
                    borrows = self._borrows(p)
                if not borrows:
                    out += [move for _, move in found]
                    continue
                mt = m.tables()
                for path, move in found:
                    out.append(move)
                    on_link = m.track.get(src)  # a cube on track travels along its link first
                    steps = {side_pair(a, b) for a, b in zip(path, path[1:])}
                    if on_link is None:
                        steps.add(side_pair(src, path[0]))
                    for borrow in borrows:
                        ln = m.links[borrow]
                        if borrow != on_link and side_pair(ln.start, ln.end) not in steps:
                            continue
                        key = ("deliver", cube, mt.fmt[src], tuple(mt.fmt[n] for n in path), borrow)
                        out.append(Move.lazy(key, partial(_delivery_label, self._names(ix), src, path)))
        # (the listing used to skip a key already listed: every key differs here — one source and
        # cube each, distinct routes of it, one borrowed link or none)
        return out

    def _borrows(self, p: int) -> list:
        """The opponent Complete Links seat ``p`` may use as its own in a delivery now (Low
        Gravitation, A07): none unless it holds the action; the one it used already this turn, if any."""
        g, m = self.game, self.game.moon
        if not g.engine.holds(g, p, "low_gravitation"):
            return []
        borrowable = sorted(lid for lid, ln in m.links.items() if ln.complete and ln.owner != p)
        return [b for b in borrowable if m.borrowed.get(p) in (None, b)]

    def _deliveries(self, ix, src: tuple, cube: str) -> tuple:
        """(route, the move delivering ``cube`` from ``src`` along it without a borrowed link) for
        each of its routes (``TrackIndex.routes_by_cube``), kept in the track index's graph memo:
        they change only with the Complete Links, the Cities and the Sun (the moves are shared by
        the listings of every version that shares the memo, their labels made once when first read,
        from the names, which change with the Cities)."""
        g, m = self.game, self.game.moon
        key = ("deliveries", src, cube, m.sun)
        found = ix.graph_memo.get(key)
        if found is None:
            fmts, names = m.tables().fmt, self._names(ix)
            fs = fmts[src]
            found = ix.graph_memo[key] = tuple(
                (path, Move.lazy(("deliver", cube, fs, tuple(fmts[n] for n in path), None),
                                 partial(_delivery_label, names, src, path)))
                for path in ix.routes_by_cube(g, src).get(cube, ()))
        return found


# the moves every listing of a stage begins with: a Move is immutable, so one of each serves every
# listing (copies and pickles of a game make their own)
NO_ACTION = Move("Take no special action", ("no_action",))
STOP = Move("Stop building track", ("stop",))
NO_MOVE = Move("Move no cube this round", ("no_move",))


# the moves' labels, made when first read (Move.lazy) from what the listing saw: ``names`` is the
# names of the version listed (``MoonMatch._names``), the rest is the move's own
def _build_label(names: dict, start: tuple, h: tuple, cost: int, key: tuple) -> str:
    return f"Build track from {names[start]} to {names[h]} (${cost})"


def _extend_label(names: dict, completes: bool, h: tuple, cost: int, key: tuple) -> str:
    lid = key[1]
    what = f"Complete {lid} into {names[h]}" if completes else f"Extend {lid} to {names[h]}"
    return f"{what} (${cost})"


def _delivery_label(names: dict, src: tuple, path: tuple, key: tuple) -> str:
    cube, borrow, links = key[1], key[4], len(path)
    label = (f"Deliver a {cube} cube from {names[src]} to {names[path[-1]]} "
             f"over {links} link{'s' * (links != 1)}")
    return label if borrow is None else f"{label}, {borrow} used as yours (Low Gravitation)"


def new_match(engine, compiled, players: list[str], seed: int, agents=None, options=None,
              tracing: bool = True) -> MoonMatch:
    """A new Moon game (full setup, A02/A11) played through the stand-in loop."""
    game = engine.new_game(compiled, list(players), seed=seed, agents=agents, options=options, tracing=tracing)
    money = int(table(game, "starting_money").get("money", 0))
    for p in game.players:
        p.goods["money"] += money
    if money:
        game.emit("setup", None, f"each player starts with ${money} (stand-in)")
    game.turn_state = MoonTurn(cubes_at_start=cube_total(game))
    engine.phase(game, "select_actions")
    match = MoonMatch(game)
    match.advance()
    return match
