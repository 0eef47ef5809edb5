"""Moloch actions: Hack (M07), Destroy (M08), RAGE (M09), refusals leave the state unchanged."""
from __future__ import annotations

import pytest

from .helpers import new_game, pack, run_scenario


@pytest.mark.rule("M07")
def test_hack_spends_the_full_code_and_takes_the_hacked_side_into_hand():
    game, eng, u = new_game(state={"Ann": {"goods": {"brick": 2, "worker": 1, "fuel": 1}},
                                   "game": {"deployed": ["juggernaut"]}})
    out = pack(game).hack(eng, game, 0, u["juggernaut"])
    assert out.ok
    assert dict(+game.players[0].goods) == {"fuel": 1}
    assert game.where[u["juggernaut"]] == ("hand", 0)
    assert game.instances[u["juggernaut"]].face == "hacked"


@pytest.mark.rule("M07")
def test_hack_without_the_full_code_is_refused_and_changes_nothing():
    game, eng, u = new_game(state={"Ann": {"goods": {"brick": 2}}, "game": {"deployed": ["juggernaut"]}})
    before = game.snapshot()
    out = pack(game).hack(eng, game, 0, u["juggernaut"])
    assert out.status == "refused" and "missing 1 worker" in out.reason
    assert game.snapshot() == before


@pytest.mark.rule("M07")
def test_hacked_card_constructs_deals_and_razes_with_distance_one():
    sc, run = run_scenario("hack")
    g = run.game
    assert [g.instances[u].card_id for u in g.zone("deals", 0)] == ["conflagrator"]
    assert g.players[1].goods["fuel"] == 3  # Bob's constructed Hacked Mother produced 2 Fuel (+1 left)
    assert run.outcomes[0].status == "refused"


@pytest.mark.rule("M08")
def test_destroy_spends_defense_in_red_contacts_gains_1_vp_and_discards():
    game, eng, u = new_game(state={"Ann": {"goods": {"red_contact": 5}},
                                   "game": {"deployed": ["conflagrator", "mother", "leech"]}})
    out = pack(game).destroy(eng, game, 0, u["conflagrator"])
    assert out.ok
    assert game.players[0].goods["red_contact"] == 1 and game.players[0].goods["vp"] == 1
    assert game.zone("machine_discard") == [u["conflagrator"]]


@pytest.mark.rule("M08")
def test_destroy_with_too_few_red_contacts_is_refused_and_changes_nothing():
    game, eng, u = new_game(state={"Ann": {"goods": {"red_contact": 3}},
                                   "game": {"deployed": ["conflagrator", "mother", "leech"]}})
    before = game.snapshot()
    out = pack(game).destroy(eng, game, 0, u["conflagrator"])
    assert out.status == "refused" and "Defense of Conflagrator is 4" in out.reason
    assert game.snapshot() == before


def test_only_deployed_machines_can_be_hacked_or_destroyed():
    game, eng, u = new_game(state={"Ann": {"goods": {"red_contact": 9}}, "game": {"machine_deck": ["mother"]}})
    before = game.snapshot()
    assert pack(game).destroy(eng, game, 0, u["mother"]).status == "refused"
    assert pack(game).hack(eng, game, 0, u["mother"]).status == "refused"
    assert game.snapshot() == before


@pytest.mark.rule("M09")
@pytest.mark.parametrize("deployed,players,defense", [
    (["leech"], 1, 3),                              # 1 Deployed <= 1 player: +1
    (["leech", "mother"], 1, 2),                    # 2 > 1: no bonus
    (["leech", "mother"], 2, 3),                    # equal: +1
    (["leech", "mother", "wrecker"], 2, 2),
    (["mother"], 1, 3),                             # Mother has no RAGE (provisional): never +1
])
def test_rage_adds_one_while_deployed_machines_at_most_players(deployed, players, defense):
    names = ("P1", "P2", "P3")[:players]
    game, eng, u = new_game(players=names, state={"game": {"deployed": deployed}})
    assert pack(game).defense(game, u[deployed[0]]) == defense


@pytest.mark.rule("M09")
def test_rage_is_evaluated_when_the_destroy_is_performed():
    # Decision: at the moment of the Destroy. The scenario destroys the Leech while 3 are Deployed
    # (Defense 2), then the Scorcher once only 2 remain (Defense 3 + 1).
    sc, run = run_scenario("destroy_rage")
    texts = run.game.trace_text()
    assert "destroys Leech (Defense 2)" in texts and "destroys Scorcher (Defense 4)" in texts
    assert [o.status for o in run.outcomes] == ["done", "refused", "done", "refused", "done", "done"]
