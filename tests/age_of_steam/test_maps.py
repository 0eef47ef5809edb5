"""Map validation (runtime/games/age_of_steam/maps.py, E601): every error at its file, line and column."""
from __future__ import annotations

import shutil

import pytest

from compiler.build import compile_tree
from compiler.diagnostics import Diagnostics
from compiler.loader import load_text
from compiler.schema import validate
from runtime.games.age_of_steam.maps import check_map

from .helpers import ROOT, compiled

TINY = """\
map:
  name: Tiny
  players: {min: 3, max: 4}
  hexes:
    - {at: "0,0", terrain: crater, landing: true}
    - {at: "1,0", terrain: crater, wrap: {e: 1}}
    - {at: "1,-1", terrain: mountain}
    - {at: "0,-1", terrain: crater, city: {name: Alpha, colour: red, number: 1}}
    - {at: "-1,0", terrain: crater, wrap: {w: 1}}
    - {at: "-1,1", terrain: crater, town: {name: Beta}}
    - {at: "0,1", terrain: crater}
  satellite:
    spaces:
      - {id: X1, at: "2,-2"}
      - {id: X2, at: "-2,0"}
      - {id: X3, at: "0,2"}
    start: X1
  day_night:
    line: [X1, X3]
    sun_spaces:
      - {id: east, at: "3,-1"}
      - {id: west, at: "-3,1"}
    sun_start: east
"""


def problems(text: str) -> list[str]:
    """Load, schema-check and map-check like compiler/build.py does; the rendered headlines."""
    diags = Diagnostics()
    doc = load_text(text, "tiny.yaml", diags)
    assert doc is not None, [d.render() for d in diags]
    if validate(doc, "map", diags, ("map",)):
        check_map(doc.get(("map",)), compiled().vocab, doc.reporter(diags, ("map",), "E601"))
    return [d.headline() for d in diags.sorted()]


def edit(old: str, new: str) -> str:
    assert TINY.count(old) == 1, old
    return TINY.replace(old, new)


def test_the_tiny_map_is_clean():
    assert problems(TINY) == []


def test_the_moon_map_is_clean():
    from compiler.loader import load_file

    diags = Diagnostics()
    doc = load_file(ROOT / "data" / "age_of_steam" / "moon.yaml", diags)
    assert validate(doc, "map", diags, ("map",)) and check_map(doc.get(("map",)), compiled().vocab, doc.reporter(diags, ("map",), "E601"))
    assert diags == []


def test_malformed_coordinate():
    assert ("tiny.yaml:6:12: E601 malformed coordinate '1;0': write 'q,r', two whole numbers such as '2,-1'"
            in problems(edit('"1,0"', '"1;0"')))


def test_duplicate_coordinate():
    assert problems(edit('{at: "0,1", terrain: crater}',
                         '{at: "0,1", terrain: crater}\n    - {at: "1,-1", terrain: crater}')) == [
        "tiny.yaml:12:12: E601 hex '1,-1' is listed twice (first at line 7)"]


def test_unknown_terrain_with_did_you_mean():
    assert problems(edit("terrain: mountain", "terrain: mountian")) == [
        "tiny.yaml:7:29: E601 unknown terrain 'mountian' (terrains: crater, mountain) (did you mean 'mountain'?)"]


def test_no_landing_hex():
    assert problems(edit(", landing: true", "")) == [
        "tiny.yaml:5:5: E601 the map has no Landing hex: mark exactly one hex with 'landing: true'"]


def test_two_landing_hexes():
    assert problems(edit('{at: "0,1", terrain: crater}', '{at: "0,1", terrain: crater, landing: true}')) == [
        "tiny.yaml:11:45: E601 a second Landing hex (the first is '0,0' at line 5): a map has exactly one"]


def test_wrap_label_used_only_once():
    assert problems(edit(", wrap: {w: 1}", "")) == [
        "tiny.yaml:6:46: E601 wrap label 1 is used only once (side e of '1,0'): each wrap label is used exactly "
        "once on each of two opposite edges; add it on the opposite edge, on a side facing w"]


def test_wrap_label_on_edges_that_are_not_opposite():
    assert problems(edit("wrap: {w: 1}", "wrap: {sw: 1}")) == [
        "tiny.yaml:9:48: E601 wrap label 1 joins side e of '1,0' and side sw of '-1,0', which are not on opposite "
        "edges: each wrap label is used exactly once on each of two opposite edges (side e pairs with a side "
        "facing w)"]


def test_wrap_label_used_three_times():
    assert problems(edit('{at: "0,1", terrain: crater}', '{at: "0,1", terrain: crater, wrap: {se: 1}}')) == [
        "tiny.yaml:11:47: E601 wrap label 1 is used 3 times (e of '1,0', w of '-1,0', se of '0,1'): each wrap "
        "label is used exactly once on each of two opposite edges"]


def test_wrap_label_on_a_side_that_faces_another_hex():
    assert problems(edit("landing: true}", "landing: true, wrap: {e: 2}}")) == [
        "tiny.yaml:5:61: E601 wrap label 2 is on side e of '0,0', which faces hex '1,0': wrap labels go on sides "
        "facing off the map"]


def test_satellite_space_on_the_map():
    assert problems(edit('{id: X2, at: "-2,0"}', '{id: X2, at: "-1,0"}')) == [
        "tiny.yaml:15:22: E601 Satellite space 'X2' at '-1,0' is a hex of the map: Satellite spaces lie on the "
        "border, just outside the map"]


def test_satellite_space_not_on_the_border():
    assert problems(edit('{id: X2, at: "-2,0"}', '{id: X2, at: "-4,0"}')) == [
        "tiny.yaml:15:22: E601 Satellite space 'X2' at '-4,0' is not on the border: it must be next to at least "
        "one hex of the map"]


def test_satellite_spaces_not_counter_clockwise():
    text = edit('{id: X2, at: "-2,0"}', '{id: X2, at: "0,2"}').replace('{id: X3, at: "0,2"}', '{id: X3, at: "-2,0"}')
    text = text.replace("line: [X1, X3]", "line: [X1, X2]")  # the same line, so only the order is wrong
    assert problems(text) == [
        "tiny.yaml:15:14: E601 Satellite spaces must be listed once around the map in counter-clockwise order: "
        "'X2' does not follow 'X1' counter-clockwise"]


def test_city_on_impossible_terrain():
    assert problems(edit('{at: "1,-1", terrain: mountain}',
                         '{at: "1,-1", terrain: mountain, city: {name: Gamma, colour: blue}}')) == [
        "tiny.yaml:7:45: E601 a City cannot stand on mountain terrain (tables.terrain.mountain.allows: nothing)"]


def test_town_on_impossible_terrain():
    assert problems(edit('{at: "1,-1", terrain: mountain}', '{at: "1,-1", terrain: mountain, town: {name: Gamma}}')) == [
        "tiny.yaml:7:45: E601 a Town cannot stand on mountain terrain (tables.terrain.mountain.allows: nothing)"]


def test_unknown_city_colour():
    assert problems(edit("colour: red", "colour: rde")) == [
        "tiny.yaml:8:65: E601 unknown City colour 'rde' (colours: black, blue, purple, red, yellow) "
        "(did you mean 'red'?)"]


def test_sun_spaces_on_the_same_side():
    assert problems(edit('{id: west, at: "-3,1"}', '{id: west, at: "3,0"}')) == [
        "tiny.yaml:21:7: E601 the Sun spaces 'east' and 'west' are on the same side of the day/night line: put one "
        "on each side"]


def test_town_on_the_day_night_line():
    assert problems(edit('{at: "1,0", terrain: crater, wrap: {e: 1}}',
                         '{at: "1,0", terrain: crater, wrap: {e: 1}, town: {name: Gamma}}')) == [
        "tiny.yaml:6:56: E601 the Town at '1,0' lies exactly on the day/night line, so it is on neither side: "
        "move it or the line"]


def test_unknown_side_name_is_a_schema_error():
    out = problems(edit("wrap: {w: 1}", "wrap: {west: 1}"))
    assert out and all(p.startswith("tiny.yaml:9:") and " E401 " in p for p in out)


def test_the_build_reports_map_errors_and_writes_nothing(tmp_path):
    dst = tmp_path / "data" / "age_of_steam"
    shutil.copytree(ROOT / "data" / "age_of_steam", dst, ignore=shutil.ignore_patterns("scenarios"))
    moon = dst / "moon.yaml"
    text = moon.read_text(encoding="utf-8")
    assert text.count('terrain: crater, landing: true') == 1
    moon.write_text(text.replace('terrain: crater, landing: true', 'terrain: cratr'), encoding="utf-8")
    result = compile_tree(tmp_path / "data")
    assert not result.ok
    msgs = sorted(f"{d.code} {d.message}" for d in result.diags)
    assert msgs == ["E601 the map has no Landing hex: mark exactly one hex with 'landing: true'",
                    "E601 unknown terrain 'cratr' (terrains: crater, mountain)"]
    bad = [d for d in result.diags if "cratr" in d.message][0]
    assert bad.file.endswith("age_of_steam/moon.yaml") and bad.hint == "did you mean 'crater'?"
    assert text.splitlines()[bad.line - 1].lstrip().startswith('- {at: "0,0"')


MORE = [
    (('{at: "-1,1", terrain: crater, town: {name: Beta}}',
      '{at: "-1,1", terrain: crater, town: {name: Beta}, city: {name: Gamma, colour: blue}}'),
     ["tiny.yaml:10:43: E601 hex '-1,1' holds city and town: a hex holds at most one of the Landing hex, a City, "
      "a Town"]),
    (("town: {name: Beta}", "town: {name: Alpha}"),
     ["tiny.yaml:10:50: E601 the name 'Alpha' is already used by hex '0,-1'"]),
    (('{id: X2, at: "-2,0"}', '{id: X2, at: "west"}'),
     ["tiny.yaml:15:22: E601 malformed coordinate 'west' of Satellite space 'X2': write 'q,r'"]),
    (('{id: X3, at: "0,2"}', '{id: X2, at: "0,2"}'),
     ["tiny.yaml:16:14: E601 Satellite space 'X2' is listed twice",
      "tiny.yaml:19:16: E601 the day/night line runs to 'X3', which is not a Satellite space"]),
    (("start: X1", "start: X7"),
     ["tiny.yaml:17:12: E601 the Satellite starts on 'X7', which is not one of its spaces"]),
    (("line: [X1, X3]", "line: [X1, X9]"),
     ["tiny.yaml:19:16: E601 the day/night line runs to 'X9', which is not a Satellite space"]),
    (('{id: west, at: "-3,1"}', '{id: west, at: "-3"}'),
     ["tiny.yaml:22:24: E601 malformed coordinate '-3' of Sun space 'west': write 'q,r'"]),
    (('{id: west, at: "-3,1"}', '{id: west, at: "-1,0"}'),
     ["tiny.yaml:22:24: E601 Sun space 'west' at '-1,0' is a hex of the map: it lies off the map"]),
    (("sun_start: east", "sun_start: north"),
     ["tiny.yaml:23:16: E601 the Sun starts on 'north', which is not a Sun space"]),
    (("players: {min: 3, max: 4}", "players: {min: 5, max: 4}"),
     ["tiny.yaml:3:12: E601 players: min 5 is more than max 4"]),
]


@pytest.mark.parametrize("change,expected", MORE, ids=[m[1][0].split("E601 ")[1][:40] for m in MORE])
def test_more_located_map_errors(change, expected):
    assert problems(edit(*change)) == expected


def test_a_game_without_terrain_table():
    diags = Diagnostics()
    doc = load_text(TINY, "tiny.yaml", diags)
    assert check_map(doc.get(("map",)), {"tables": {}}, doc.reporter(diags, ("map",), "E601")) is False
    assert diags[0].headline() == ("tiny.yaml:5:28: E601 unknown terrain 'crater': the game declares no terrain "
                                   "(tables.terrain in game.yaml)")


def test_the_map_format_reaches_the_build_and_the_reference_through_engine_hooks():
    from compiler.reference import render_map
    from runtime.engine import ENGINES, Engine, load_compiled
    from runtime.model import model_of

    moon = load_compiled("age_of_steam")
    data = moon.maps["moon"]
    vocab = model_of(moon.vocab)
    svg, note = render_map(data, vocab)
    assert svg.startswith("<svg") and note is None          # the age_of_steam engine draws it
    assert ENGINES["age_of_steam"].render_map_svg(data, vocab) == svg
    core = model_of({**moon.vocab, "engine": "core"})
    assert render_map(data, core) == (None, "The core engine draws no map; the map is listed in the data only.")
    diags = Diagnostics()
    tiny = load_text(TINY, "tiny.yaml", diags)
    assert Engine().check_map(tiny.get(("map",)), {"tables": {}}, tiny.reporter(diags, ("map",), "E601")) is None
    assert not diags
