"""Illegal builds and moves are refused with a reason, before anything changes (snapshot equality)."""
from __future__ import annotations

import pytest

from runtime.errors import Refused

from .helpers import new_game


@pytest.fixture
def game():
    g = new_game(setup=True, seed=11)
    for p in g.players:
        p.goods["money"] = 12
    g.engine.phase(g, "build_track")
    g.engine.build(g, 0, ["0,-1", "1,-2", "Tycho"], start="Landing")  # Ann: $6, 2 tiles, complete
    return g


CASES = [
    # (player, kwargs, reason)
    (0, dict(hexes=["3,-3"], start="Tycho"), "over the build limit: Ann may build 2 track tiles this turn, has built 2"),
    (1, dict(hexes=["4,0"], start="Kepler"), "Kepler is not connected to the Landing hex"),
    (1, dict(hexes=["1,0"], start="Hadley"), "Hadley is not a City"),
    (1, dict(hexes=["1,0", "2,-1", "3,-1"], start="Landing"), "over the build limit: Bob may build 2"),
    (2, dict(hexes=["3,-4", "4,-4"], start="Tycho"), None),  # legal: used below to drain Cid's money
    (1, dict(hexes=["0,-1"], start="Landing"), "0,-1 already has track"),
    (1, dict(hexes=["2,-1"], start="Landing"), "2,-1 is not next to Landing hex"),
    (1, dict(hexes=["1,0", "Hadley", "1,-2"], start="Landing"), "a link stops at the first City or Town"),
    (1, dict(hexes=["-1,0", "-2,0", "Copernicus"], start="Landing"), None),  # legal
    (1, dict(hexes=["9,9"], start="Landing"), "there is no hex '9,9' on the map"),
    (0, dict(hexes=["2,-4"], cont="L1"), "L1 is already a Complete Link"),
    (2, dict(hexes=["4,-3"], cont="L2"), "over the build limit"),
    (1, dict(hexes=["4,-3"], cont="L2"), "L2 belongs to Cid"),
]


def test_each_refusal_leaves_the_state_unchanged(game):
    e = game.engine
    for player, kw, reason in CASES:
        before = game.snapshot()
        if reason is None:
            e.build(game, player, kw["hexes"], start=kw.get("start"), cont=kw.get("cont"))
            continue
        with pytest.raises(Refused) as exc:
            e.build(game, player, kw["hexes"], start=kw.get("start"), cont=kw.get("cont"))
        assert reason in exc.value.reason
        assert game.snapshot() == before, reason


def test_too_little_money_is_refused_and_changes_nothing(game):
    e = game.engine
    game.players[1].goods["money"] = 5
    before = game.snapshot()
    with pytest.raises(Refused, match=r"too little money: this build costs \$6, Bob has \$5"):
        e.build(game, 1, ["1,0", "Taurus"], start="Landing")
    assert game.snapshot() == before
    game.players[1].goods["money"] = 6
    e.build(game, 1, ["1,0", "Taurus"], start="Landing")
    assert game.players[1].goods["money"] == 0


def test_mountain_cost_refused_with_exact_money(game):
    game.players[2].goods["money"] = 6
    before = game.snapshot()
    with pytest.raises(Refused, match=r"costs \$7, Cid has \$6"):
        game.engine.build(game, 2, ["3,-4", "4,-4"], start="Tycho")  # mountain $4 + crater $3
    assert game.snapshot() == before


def test_refused_moves_leave_the_state_unchanged(game):
    e = game.engine
    game.moon.cubes[(0, 0)] = ["red", "blue"]
    cases = [
        (dict(cube="red", frm="Landing", path=["Tycho"]), "cubes move only during Move Goods"),
    ]
    for kw, reason in cases:
        before = game.snapshot()
        with pytest.raises(Refused, match=reason):
            e.move(game, 1, kw["cube"], kw["frm"], kw["path"])
        assert game.snapshot() == before
    e.phase(game, "move_goods")
    cases = [
        (dict(cube="yellow", frm="Landing", path=["Tycho"]), "there is no yellow cube on Landing hex"),
        (dict(cube="blue", frm="Landing", path=["Tycho"]), "Tycho accepts only red cubes"),
        (dict(cube="red", frm="Landing", path=["Kepler"]), "no Complete Link joins Landing hex and Kepler"),
        (dict(cube="red", frm="Landing", path=["Tycho", "Landing"]), "visit Landing hex twice"),
    ]
    for kw, reason in cases:
        before = game.snapshot()
        with pytest.raises(Refused, match=reason):
            e.move(game, 1, kw["cube"], kw["frm"], kw["path"])
        assert game.snapshot() == before
    e.move(game, 1, "red", "Landing", ["Tycho"])
    before = game.snapshot()
    with pytest.raises(Refused, match="Bob has already moved a cube in Move Goods round 1"):
        e.move(game, 1, "blue", "Landing", ["Tycho"])
    assert game.snapshot() == before


def test_taken_action_is_refused_unchanged():
    g = new_game(setup=True)
    g.engine.take_action(g, 0, "engineer")
    before = g.snapshot()
    with pytest.raises(Refused, match="the engineer action is not available \\(taken by Ann\\)"):
        g.engine.take_action(g, 1, "engineer")
    assert g.snapshot() == before


def test_a_build_places_at_least_one_tile():
    g = new_game()
    g.players[0].goods["money"] = 10
    g.engine.phase(g, "build_track")
    # Ann's Hadley link; then a zero-tile "link" from Landing straight into its neighbour Hadley is a
    # Town tile (1 tile), but a City next to the start would need none: refused.
    g.engine.build(g, 0, ["Hadley"], start="Landing")
    hm = g.moon.map
    city_pairs = [(a, b) for a in g.engine.cities(g) for _, b in hm.neighbours(a) if b == hm.landing]
    assert city_pairs == []  # on the Moon no City touches the Landing hex; build a pair by hand:
    g.moon.map.hexes[(0, 1)] = dict(g.moon.map.hexes[(0, 1)], city={"name": "Test", "colour": "red", "number": 1})
    before = g.snapshot()
    with pytest.raises(Refused, match="a build places at least one track tile"):
        g.engine.build(g, 0, ["0,1"], start="Landing")
    assert g.snapshot() == before
