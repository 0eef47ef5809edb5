"""Shortcuts of the Moon's set-up and turn held to the slow path they replace (issue 27):

- a game's map is a copy of one read once per compiled map (index.py ``hex_map``): the same map and
  the same answers as ``HexMap.from_data`` on the map's data, and a game that edits its own map
  changes no other game's.
"""
from __future__ import annotations

from runtime.games.age_of_steam.engine import _map_of
from runtime.games.age_of_steam.index import hex_map
from runtime.hexgrid import HexMap

from .helpers import compiled, new_game


def answers(hm: HexMap) -> dict:
    """Every answer a game asks its map, on every hex (and a few hexes off the map)."""
    probes = sorted(hm.hexes) + [(99, 99), (-99, 0)]
    return {
        "fields": (hm.hexes, hm.names, hm.landing, hm.wraps, hm.wrap_labels, hm.spaces, hm.sun_spaces, hm.line),
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
    a.moon.map.hexes[(0, 1)] = dict(a.moon.map.hexes[(0, 1)], city={"name": "Test", "colour": "red", "number": 1})
    a.moon.map.cities()["test"] = "written into a's answer"
    del a.moon.map.hexes[(0, 0)]
    b = new_game(setup=True)
    assert b.moon.map.hexes == hexes and "test" not in b.moon.map.cities()
    _, data = _map_of(compiled())
    assert answers(b.moon.map) == answers(HexMap.from_data(data))
