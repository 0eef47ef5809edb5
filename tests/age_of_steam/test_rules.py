"""Clauses A01–A13 (Age of Steam: Moon), each driven through the compiled Moon data and the engine.

The scenarios under data/age_of_steam/scenarios/ run on the committed generated code; the asserts
here look at the resulting state directly as well.
"""
from __future__ import annotations

import pytest

from runtime.errors import Refused
from runtime.hexgrid import cross, pixel

from .helpers import PLAYERS, compiled, h, new_game, run_scenario


def names(game, hexes):
    return sorted(game.engine.label(game, x) for x in hexes)


# --- A01 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A01")
def test_moon_is_a_map_for_3_to_4_players():
    for n in (3, 4):
        assert len(new_game(["P1", "P2", "P3", "P4"][:n]).players) == n
    for n in (2, 5):
        with pytest.raises(Refused, match="Moon is a map for 3 to 4 players, not " + str(n)):
            new_game(["P1", "P2", "P3", "P4", "P5"][:n])


@pytest.mark.rule("A01")
def test_moon_components_sun_satellite_engineer_low_gravitation():
    cards = compiled().cards
    assert {k: (v["name"], v["kind"]) for k, v in cards.items()} == {
        "sun": ("Sun tile", "tile"), "satellite": ("Satellite tile", "tile"),
        "engineer": ("Engineer", "action"), "low_gravitation": ("Low Gravitation", "action")}
    assert all(v["source"] == "rulebook 002_18a981a1c9ecbefd.txt" for v in cards.values())
    game = new_game(setup=True)
    tiles = [game.instances[u].card_id for u in game.zone("action_tiles")]
    assert sorted(tiles) == ["engineer", "low_gravitation"]


# --- A02 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A02")
@pytest.mark.parametrize("players", [3, 4])
def test_setup_cubes_on_cities_and_landing_hex(players):
    game = new_game(["P1", "P2", "P3", "P4"][:players], setup=True, seed=7)
    m = game.moon
    cities = game.engine.cities(game)
    assert len(cities) == 6
    assert all(len(m.cubes[c]) == 2 for c in cities)
    assert len(m.cubes[m.map.landing]) == 2 * players


@pytest.mark.rule("A02")
def test_setup_landing_hex_is_in_the_centre():
    game = new_game()
    m = game.moon
    pts = [pixel(x) for x in m.map.hexes]
    centre = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
    assert pixel(m.map.landing) == pytest.approx(centre, abs=1e-9)
    assert m.map.landing == (0, 0)


@pytest.mark.rule("A02")
def test_setup_removes_black_new_cities_and_leaves_them_off_the_goods_display():
    game = new_game(setup=True)
    m = game.moon
    assert m.removed == ["new_black_1", "new_black_2"]
    assert all(t["colour"] != "black" for t in m.new_city_tiles)
    assert not any(col.startswith("new_black") for col in m.display)
    assert {"new_red", "new_blue", "new_yellow", "new_purple"} <= set(m.display)


@pytest.mark.rule("A02")
def test_sun_starts_on_the_night_space_top_right_and_the_line_x1_x5_divides_day_from_night():
    game = new_game(setup=True)
    m = game.moon
    assert m.sun == "top_right"
    sx, sy = pixel(m.map.sun_spaces["top_right"])
    assert sx > 0 and sy < 0  # right of and above the centre
    assert m.map.line == ("X1", "X5")
    a, b = pixel(m.map.space("X1")), pixel(m.map.space("X5"))
    sun_sign = cross((sx, sy), a, b) > 0
    day = [c for c in game.engine.cities(game) if game.engine.is_day(game, c)]
    assert names(game, day) == ["Aristarchus", "Kepler", "Tycho"]
    for c in game.engine.cities(game):  # day exactly on the Sun's side of the X1–X5 line
        assert ((cross(pixel(c), a, b) > 0) == sun_sign) == (c in day)


# --- A03 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A03")
def test_build_limit_is_two_tiles_per_turn():
    run = run_scenario("build_track")
    g = run.game
    assert g.moon.built == {0: 2, 1: 2, 2: 1}
    assert "over the build limit: Ann may build 2 track tiles this turn, has built 2" in g.trace_text()


@pytest.mark.rule("A03")
def test_engineer_allows_three_tiles():
    run = run_scenario("wrap_around")
    g = run.game
    assert g.players[0].goods["track_tile"] == 3
    assert g.moon.built[0] == 3
    assert "over the build limit: Ann may build 3 track tiles this turn, has built 3" in g.trace_text()


@pytest.mark.rule("A03")
def test_engineer_effect_is_compiled_effect_text():
    cards = compiled().cards
    assert cards["engineer"]["texts"]["effect"] == "build up to 3 track tiles"
    game = new_game(setup=True)
    for p in game.players:
        p.goods["money"] = 50
    game.engine.take_action(game, 1, "engineer")
    game.engine.phase(game, "build_track")
    assert [p.goods["track_tile"] for p in game.players] == [2, 3, 2]
    game.engine.build(game, 1, ["-1,0", "-2,0", "Apennine"], start="Landing")  # 2 craters + a Town: 3 tiles
    assert game.moon.built[1] == 3
    before = game.snapshot()
    with pytest.raises(Refused, match="over the build limit: Ann may build 2 track tiles this turn, has built 0 "
                                      "and this build needs 3"):
        game.engine.build(game, 0, ["1,0", "2,-1", "3,-1"], start="Landing")
    assert game.snapshot() == before


# --- A04 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A04")
def test_build_only_from_landing_or_connected_city():
    run = run_scenario("build_track")
    g = run.game
    text = g.trace_text()
    assert "Kepler is not connected to the Landing hex" in text
    assert "Hadley is not a City" in text
    l2 = g.moon.links["L2"]
    assert l2.owner == 1 and l2.start == h(g, "Tycho")  # Bob built from Tycho, linked by Ann


@pytest.mark.rule("A04")
def test_first_player_can_only_build_from_the_landing_hex():
    game = new_game()
    game.players[0].goods["money"] = 20
    game.engine.phase(game, "build_track")
    for city in ("Tycho", "Kepler", "Copernicus", "Plato", "Aristarchus", "Grimaldi"):
        before = game.snapshot()
        with pytest.raises(Refused, match="not connected to the Landing hex"):
            game.engine.build(game, 0, [game.moon.map.neighbours(h(game, city))[0][1]], start=city)
        assert game.snapshot() == before
    game.engine.build(game, 0, ["0,-1"], start="Landing")
    assert game.moon.links["L1"].complete is False


@pytest.mark.rule("A04")
def test_an_unfinished_link_does_not_connect_its_city():
    game = new_game()
    game.players[0].goods["money"] = 20
    game.players[1].goods["money"] = 20
    game.engine.phase(game, "build_track")
    game.engine.build(game, 0, ["0,-1", "1,-2"], start="Landing")  # unfinished, one hex short of Tycho
    with pytest.raises(Refused, match="Tycho is not connected"):
        game.engine.build(game, 1, ["3,-3"], start="Tycho")


@pytest.mark.rule("A03")
@pytest.mark.rule("A04")
def test_an_unfinished_link_next_to_a_city_is_completed_into_it():
    """Decision (docs/decisions.md, "completing a link"): an unfinished link whose last tile lies next
    to a City is completed into it by its owner, with no further tile and at no cost — "two track
    tiles per turn" limits tiles and a City hex takes none. The City is then connected (A04)."""
    game = new_game()
    game.players[0].goods["money"] = 20
    game.players[1].goods["money"] = 20
    e = game.engine
    e.phase(game, "build_track")
    e.build(game, 0, ["0,-1", "1,-2"], start="Landing")  # 2 tiles: the allowance is spent, Tycho is next
    assert game.moon.links["L1"].complete is False
    money = game.players[0].goods["money"]
    with pytest.raises(Refused, match="over the build limit"):
        e.build(game, 0, ["2,-2"], cont="L1")  # a third tile is over the limit...
    e.build(game, 0, ["Tycho"], cont="L1")       # ...but completing into the City places none
    ln = game.moon.links["L1"]
    assert ln.complete and ln.end == h(game, "Tycho") and ln.hexes == [(0, -1), (1, -2)]
    assert game.players[0].goods["money"] == money and game.moon.built[0] == 2
    assert h(game, "Tycho") in e.connected(game)
    e.build(game, 1, ["3,-3"], start="Tycho")  # now another player may build from Tycho (A04)
    # only the owner completes a link, and not outside Build Track
    g2 = new_game()
    g2.players[0].goods["money"] = 20
    g2.engine.phase(g2, "build_track")
    g2.engine.build(g2, 0, ["0,-1", "1,-2"], start="Landing")
    with pytest.raises(Refused, match="only its owner continues it"):
        g2.engine.build(g2, 1, ["Tycho"], cont="L1")
    g2.engine.reset_turn(g2)
    before = g2.snapshot()
    with pytest.raises(Refused, match="while building track"):
        g2.engine.build(g2, 0, ["Tycho"], cont="L1")
    assert g2.snapshot() == before


# --- A05 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A05")
def test_each_wrap_label_joins_the_opposite_edge():
    m = new_game().moon.map
    assert m.neighbour((1, -4), "nw") == (-1, 4) and m.neighbour((-1, 4), "se") == (1, -4)
    assert m.neighbour((4, -1), "e") == (-4, 1) and m.neighbour((-4, 1), "w") == (4, -1)
    assert m.neighbour((2, 2), "se") == (-2, -2) and m.neighbour((-2, -2), "nw") == (2, 2)
    assert m.neighbour((0, -4), "nw") is None  # an unlabelled edge leads nowhere


@pytest.mark.rule("A05")
def test_track_built_off_edge_1_connects_to_the_opposite_1():
    run = run_scenario("wrap_around")
    g = run.game
    l2 = g.moon.links["L2"]
    assert l2.hexes == [(2, -4), (1, -4), (-1, 4)] and l2.end == h(g, "Aristarchus") and l2.complete
    assert h(g, "Aristarchus") in g.engine.connected(g)
    assert "-1,4 (crater $3, across edge 1)" in g.trace_text()


# --- A06 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A06")
def test_crater_3_mountain_4_town_2_plus_1_per_section():
    run = run_scenario("build_track")
    g = run.game
    assert [p.goods["money"] for p in g.players] == [20 - 3 - 3, 20 - 4 - 3, 5 - 3]
    run = run_scenario("town_sections")
    g = run.game
    assert g.players[0].goods["money"] == 10 - (2 + 1)
    assert g.players[1].goods["money"] == 10 - 3 - (2 + 2)


# --- A07 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A07")
def test_low_gravitation_uses_one_opponent_link_in_both_rounds_with_its_income():
    run = run_scenario("low_gravitation")
    g = run.game
    assert [p.goods["income"] for p in g.players] == [0, 1, 2]
    assert g.moon.borrowed == {2: "L1"}
    text = g.trace_text()
    assert text.count("over L1 (Ann, used as Cid's by Low Gravitation); income Cid +1") == 2
    assert "Bob does not hold the Low Gravitation action" in text
    assert "Low Gravitation lets Cid use one opponent link as their own this turn, and it is L1" in text


@pytest.mark.rule("A07")
def test_low_gravitation_cannot_borrow_own_link():
    game = new_game(setup=True)
    game.engine.build(game, 0, ["0,-1", "1,-2", "Tycho"], start="Landing", free=True)
    game.engine.take_action(game, 0, "low_gravitation")
    game.engine.phase(game, "move_goods")
    game.moon.cubes[game.moon.map.landing] = ["red"]
    before = game.snapshot()
    with pytest.raises(Refused, match="Complete Link of another player"):
        game.engine.move(game, 0, "red", "Landing", ["Tycho"], borrow="L1")
    assert game.snapshot() == before


# --- A08 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A08")
def test_landing_hex_is_a_colourless_pass_through_city():
    run = run_scenario("landing_and_night")
    g = run.game
    text = g.trace_text()
    assert "the Landing hex is a colourless City: it does not accept goods" in text
    assert "moves a black cube Tycho → Landing hex → Copernicus" in text
    assert g.moon.cubes.get(h(g, "Copernicus"), []) == []  # delivered cubes leave the board


@pytest.mark.rule("A08")
def test_landing_hex_never_receives_goods_growth():
    game = new_game(setup=True)
    landing = game.moon.map.landing
    before = list(game.moon.cubes[landing])
    for _ in range(3):
        game.engine.phase(game, "goods_growth", dice=[1, 2, 3, 4, 5, 6])
    assert game.moon.cubes[landing] == before
    assert landing not in game.engine.cities(game)


# --- A09 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A09")
def test_night_cities_are_black_and_accept_only_black():
    run = run_scenario("landing_and_night")
    g = run.game
    e = g.engine
    assert e.accepts(g, h(g, "Copernicus")) == "black"
    assert e.accepts(g, h(g, "Tycho")) == "red"
    assert "Copernicus accepts only black cubes (it is on the night side, so it is black), not blue" in g.trace_text()


@pytest.mark.rule("A09")
def test_when_the_sun_moves_the_other_side_turns_black():
    game = new_game()
    e = game.engine
    before = {c: e.accepts(game, c) for c in e.cities(game)}
    e.phase(game, "goods_growth", dice=[6, 6, 6, 6, 6, 6])
    after = {c: e.accepts(game, c) for c in e.cities(game)}
    for c, city in e.cities(game).items():
        assert {before[c], after[c]} == {"black", city["colour"]}


# --- A10 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A10")
def test_goods_growth_day_side_connected_cities_and_new_cities_then_sun_and_turn():
    run = run_scenario("goods_growth")
    g = run.game
    c = {name: sorted(g.moon.cubes.get(h(g, name), [])) for name in ("Tycho", "Copernicus", "Kepler", "Plato", "Taurus")}
    assert c == {"Tycho": ["blue", "red"], "Copernicus": ["purple"], "Kepler": [], "Plato": [], "Taurus": ["blue"]}
    assert g.moon.turn == 3 and g.moon.sun == "top_right"
    text = g.trace_text()
    assert "2: Copernicus is on the night side: no cube" in text
    assert "3: Kepler is not connected to the Landing hex by Complete Links: no cube" in text
    assert "the Sun moves to bottom_left: the bottom left side is day; turn marker to 2" in text
    assert "4: New City new_yellow (2,0) receives a blue cube" in text  # by day, on its number
    assert "4: New City new_yellow (2,0) is on the night side: no cube" in text  # next turn, at night


@pytest.mark.rule("A10")
def test_goods_growth_rolls_two_dice_per_player():
    for n in (3, 4):
        game = new_game(["P1", "P2", "P3", "P4"][:n], setup=True, seed=5)
        game.engine.phase(game, "goods_growth")
        rolled = [e.text for e in game.log if e.text.startswith("Goods Growth: rolls")][0]
        assert len(rolled.split(": rolls ")[1].split(", ")) == 2 * n


# --- A11 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A11")
@pytest.mark.parametrize("players,cubes", [(3, 6), (4, 8)])
def test_satellite_starts_on_x1_with_6_or_8_cubes(players, cubes):
    game = new_game(["P1", "P2", "P3", "P4"][:players], setup=True)
    assert game.moon.satellite_at == "X1"
    assert len(game.moon.satellite_cubes) == cubes


@pytest.mark.rule("A11")
def test_satellite_is_a_mini_expansion_that_can_be_left_out():
    game = new_game(setup=True, satellite=False)
    assert game.moon.satellite_at is None and game.moon.satellite_cubes == []
    game.engine.phase(game, "end_of_turn")  # no Satellite step, no error
    assert "Satellite" not in game.trace_text().split("\n", 1)[1]


# --- A12 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A12")
def test_satellite_placed_by_last_on_income_track_and_moves_counter_clockwise():
    run = run_scenario("satellite")
    g = run.game
    assert g.moon.satellite_at == "X3"
    assert g.moon.cubes[(2, -4)] == ["blue"] and g.moon.cubes[(-2, -2)] == ["red"]
    assert "Bob: places a blue cube from the Satellite on 2,-4" in g.trace_text()


@pytest.mark.rule("A12")
def test_satellite_chooser_ties_go_to_last_in_turn_order():
    game = new_game()
    e = game.engine
    game.players[0].goods["income"] = 3
    game.players[1].goods["income"] = 1
    game.players[2].goods["income"] = 1
    assert e.satellite_chooser(game) == 2
    game.moon.turn_order = [2, 1, 0]
    assert e.satellite_chooser(game) == 1
    game.players[2].goods["income"] = 0
    assert e.satellite_chooser(game) == 2


@pytest.mark.rule("A12")
def test_satellite_visits_x1_to_x6_then_x1():
    game = new_game(setup=True)
    seen = [game.moon.satellite_at]
    for _ in range(6):
        game.engine.phase(game, "end_of_turn")
        seen.append(game.moon.satellite_at)
    assert seen == ["X1", "X2", "X3", "X4", "X5", "X6", "X1"]
    assert len(game.moon.satellite_cubes) == 0  # one cube placed per turn


# --- A13 ---------------------------------------------------------------------------------------

@pytest.mark.rule("A13")
def test_cubes_on_track_are_deliverable():
    run = run_scenario("cubes_on_track")
    g = run.game
    text = g.trace_text()
    assert "the red cube on 2,-4 is now on L2's track tile and may be delivered" in text
    assert "places a red cube from the Satellite onto L2's track, from where it may be delivered" in text
    assert "Ann: moves a red cube 2,-4 → Tycho over L2 (Ann); income Ann +1" in text
    assert "Bob: moves a red cube 1,-4 → Tycho over L2 (Ann); income Ann +1" in text
    assert g.players[0].goods["income"] == 2


@pytest.mark.rule("A13")
def test_cube_on_a_bare_hex_waits_for_track():
    run = run_scenario("cube_off_track")
    assert run.game.moon.cubes[(2, -4)] == ["red"]
    assert "is not on track: it moves once track is built there" in run.game.trace_text()


def test_a_map_without_day_and_night_keeps_every_city_lit():
    import copy

    from runtime.engine import engine_for

    c = copy.deepcopy(compiled())
    for mp in c.maps.values():
        if mp:
            mp.pop("day_night", None)
    game = engine_for(c).new_game(c, PLAYERS, setup=False)
    assert all(game.engine.accepts(game, x) == city["colour"] for x, city in game.engine.cities(game).items())
