"""51st State's targeted verbs honour every amount form they declare (issue 17 item 1): "up to N"
lets the player pick 0..N, "all" takes every match, a number takes that many (pick_targets)."""
from __future__ import annotations

import pytest

from runtime.verbs import AMOUNTS, amounts_for, verbs_for
from tests.fifty_first_state.helpers import new_game, run_effect

STATE = {"Ann": {"state": ["oil_rig", "iron_mine", "gun_shop", "foundry"]}}


@pytest.mark.parametrize("verb", ["raze", "rebuild", "block", "discard", "draw", "demolish"])
def test_targeted_verbs_declare_every_amount_form(verb):
    slot = verbs_for("fifty_first_state")[verb].signature.obj
    assert set(amounts_for(slot, "thing")) == set(AMOUNTS)


@pytest.mark.parametrize("text, answers, razed", [
    ("raze 2 of your locations", [["Oil Rig", "Iron Mine"]], 2),
    ("raze up to 3 of your locations", [["Oil Rig"]], 1),
    ("raze up to 3 of your locations", [[]], 0),
    ("raze all your locations", [], 4),
])
def test_raze_honours_its_amount(text, answers, razed):
    game, eng, uids = new_game(state=STATE, answers={"Ann": answers})
    assert run_effect(game, text).ok
    faces = [game.instances[u].face for u in game.zones[("state", 0)] if game.instances[u].face == "ruins"]
    assert len(faces) == razed


def test_raze_a_number_takes_only_as_many_as_there_are():
    game, eng, uids = new_game(state={"Ann": {"state": ["oil_rig"]}})
    assert run_effect(game, "raze 2 of your locations").ok  # does as much as it can (DESIGN §3)
    assert game.instances[uids["oil_rig"]].face == "ruins"


def test_a_raze_is_a_typed_event_that_history_counts():
    from runtime.events import Razed

    game, eng, uids = new_game(state=STATE, answers={"Ann": [["Oil Rig", "Iron Mine"]]})
    assert run_effect(game, "raze 2 of your locations").ok
    assert Razed(0, card=uids["oil_rig"], turn=0, round=2) in game.events
    assert run_effect(game, "if number of locations you razed this round >= 2: gain 1 vp").ok
    assert game.players[0].goods["vp"] == 1
    game.round += 1  # a new round: nothing razed in it yet
    assert run_effect(game, "if number of locations you razed this round >= 1: gain 1 vp").ok
    assert game.players[0].goods["vp"] == 1
