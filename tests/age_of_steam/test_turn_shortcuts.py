"""Shortcuts of the Moon's set-up and turn held to the slow path they replace (issue 27):

- a game's map is a copy of one read once per compiled map (index.py ``hex_map``): the same map and
  the same answers as ``HexMap.from_data`` on the map's data, and a game that edits its own map
  changes no other game's;
- Goods Growth reads its Cities by die number, with their Goods Display column and day side, from
  the track index's city memo (engine.py ``_growth_cities``): the same state and trace as the
  reference (reference_turn.py, the original that worked them out at every Goods Growth).
"""
from __future__ import annotations

import random

from runtime.games.age_of_steam.engine import _map_of
from runtime.games.age_of_steam.index import hex_map
from runtime.hexgrid import HexMap

from . import reference_turn
from .helpers import compiled, new_game
from .test_fast_moves import match


def answers(hm: HexMap) -> dict:
    """Every answer a game asks its map, on every hex (and a few hexes off the map)."""
    probes = sorted(hm.hexes) + [(99, 99), (-99, 0)]
    return {
        "fields": (hm.hexes, hm.names, hm.landing, hm.wraps, hm.wrap_labels, hm.spaces, hm.sun_spaces,
                   hm.line),
        "neighbours": {h: hm.neighbours(h) for h in probes},
        "link side": {(a, b): hm.link_side(a, b) for a in probes for b in probes[:40]},
        "sun side": {h: hm.sun_side_of(h) for h in probes},
        "cities": hm.cities(),
        "next to spaces": {s: hm.hexes_next_to(c) for s, c in hm.spaces},
    }


def test_a_games_map_answers_as_one_read_anew_from_the_data():
    _, data = _map_of(compiled())
    fresh = HexMap.from_data(data)
    for hm in (hex_map(data), new_game().moon.map, new_game(setup=True).moon.map):
        assert hm is not fresh and answers(hm) == answers(HexMap.from_data(data))
    assert answers(fresh) == answers(HexMap.from_data(data))


def test_a_game_that_edits_its_map_changes_no_other_games():
    a = new_game(setup=True)
    hexes = dict(a.moon.map.hexes)
    a.moon.map.hexes[(0, 1)] = dict(a.moon.map.hexes[(0, 1)],
                                    city={"name": "Test", "colour": "red", "number": 1})
    a.moon.map.cities()["test"] = "written into a's answer"
    del a.moon.map.hexes[(0, 0)]
    b = new_game(setup=True)
    assert b.moon.map.hexes == hexes and "test" not in b.moon.map.cities()
    _, data = _map_of(compiled())
    assert answers(b.moon.map) == answers(HexMap.from_data(data))


def growth_alike(g, rng: random.Random) -> None:
    """Goods Growth on two copies of ``g`` with the same dice, one through the engine and one through
    the reference: the same state, the same trace, the same generator."""
    fast, slow = g.copy(), g.copy()
    for c in (fast, slow):
        c.tracing = True
        c.log = []
    n = 2 * len(g.active_players())
    dice = [rng.randint(1, 6) for _ in range(n)]
    g.engine.goods_growth(fast, list(dice))
    reference_turn.goods_growth(g.engine, slow, list(dice))
    assert fast.snapshot() == slow.snapshot()
    assert fast.trace_text() == slow.trace_text()
    g.engine.goods_growth(fast)  # rolling its own dice: the same draws
    reference_turn.goods_growth(g.engine, slow)
    assert fast.snapshot() == slow.snapshot() and fast.rng.getstate() == slow.rng.getstate()


def test_goods_growth_equals_the_reference_at_every_move_of_seeded_games():
    """At every move of seeded random games (both Sun sides, Cities connected one by one, Goods Display
    columns emptying), and after Towns become New Cities mid-game (a new track index: the Cities
    kept per Sun side are of the old one)."""
    grown = 0
    for seed in range(6):
        rng = random.Random(seed)
        m = match(seed, 3 + seed % 2)
        g = m.game
        g.tracing = False
        while not m.terminal():
            growth_alike(g, rng)
            g.engine.goods_growth(g.copy())  # fills the memo of the index both share
            if seed == 5 and g.moon.turn == 4 and not g.moon.new_cities:
                towns = sorted(h for h, rec in g.moon.map.hexes.items() if rec.get("town"))
                for i, h in enumerate(towns[:2]):
                    g.moon.place_new_city(h, {"id": f"N{i}", "colour": g.moon.colours[i], "number": 3 + i})
                    g.moon.display[f"N{i}"] = ["red", "blue"]
                m._legal = None  # the state was changed by hand, not by a move: list anew
            m.apply(rng.choice(m.legal_moves()))
            grown += 1
    assert grown > 500


def test_cubes_and_dice_draw_as_choice_and_randint_do():
    """The set-up's cubes and Goods Growth's dice draw with ``_randbelow`` what ``rng.choice`` and
    ``rng.randint(1, 6)`` draw, in the same order (a Python whose choice or randint drew otherwise
    would fail here before the pinned simulations)."""
    g = new_game(setup=False)
    e = g.engine
    for seed in range(300):
        fast, slow = random.Random(seed), random.Random(seed)
        g.rng = fast
        assert e.draw_cubes(g, 1 + seed % 9) == [slow.choice(g.moon.colours) for _ in range(1 + seed % 9)]
        assert fast.getstate() == slow.getstate()
    for seed in range(40):
        fast, slow = new_game(setup=True, seed=seed), new_game(setup=True, seed=seed)
        e.goods_growth(fast)
        reference_turn.goods_growth(e, slow)  # randint(1, 6) per die
        assert fast.snapshot() == slow.snapshot() and fast.rng.getstate() == slow.rng.getstate()

