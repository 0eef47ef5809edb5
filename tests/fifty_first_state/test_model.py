"""The shared 51st State model: paying Cards and Good groups, gaining them, rows, discards."""
from __future__ import annotations

from .helpers import new_game, run_effect


def test_spending_a_card_discards_it_from_hand_and_refuses_without_one():
    game, eng, u = new_game(state={"Ann": {"hand": ["oil_rig"]}}, packs=[])  # the base game alone: central discard pile
    assert run_effect(game, "spend 1 card: gain 1 vp").ok
    assert game.zone("discard") == [u["oil_rig"]] and game.players[0].goods["vp"] == 1
    before = game.snapshot()
    out = run_effect(game, "spend 1 card: gain 1 vp")
    assert out.status == "refused" and "cards in hand" in out.reason
    assert game.snapshot() == before


def test_spending_a_resource_picks_one_the_player_has():
    game, eng, u = new_game(state={"Ann": {"goods": {"iron": 1}}})
    assert run_effect(game, "spend 1 resource: gain 1 vp").ok
    assert game.players[0].goods["iron"] == 0 and game.players[0].goods["vp"] == 1
    before = game.snapshot()
    assert run_effect(game, "spend 1 resource: gain 1 vp").status == "refused"
    assert game.snapshot() == before


def test_gaining_a_card_draws_and_a_resource_is_chosen():
    game, eng, u = new_game(state={"game": {"deck": ["oil_rig"]}}, answers={"Ann": ["gun"]})
    assert run_effect(game, "gain 1 card, 1 resource").ok
    assert game.zone("hand", 0) == [u["oil_rig"]] and game.players[0].goods["gun"] == 1


def test_losing_a_hacked_card_from_hand_goes_to_the_machine_discard():
    game, eng, u = new_game(state={"Ann": {"hand": ["mother:hacked"]}})
    assert run_effect(game, "lose 2 card").ok   # as much as possible: the one card
    assert game.zone("machine_discard") == [u["mother"]]
