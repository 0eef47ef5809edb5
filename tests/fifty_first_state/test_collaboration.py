"""Moloch's Collaboration variant (M20): partial payments, who gains what, Goods left on a Machine."""
from __future__ import annotations

from collections import Counter

import pytest

from .helpers import new_game, pack, run_scenario


def collab(**state):
    return new_game(players=("Ann", "Bob"), state=state, collaboration=True)


@pytest.mark.rule("M20")
def test_scenario_who_gains_what():
    sc, run = run_scenario("collaboration")
    g = run.game
    assert [o.status for o in run.outcomes] == ["done", "refused", "done", "done", "done"]
    assert g.zone("hand", 1) == []                                   # Bob completed Ann's Hack: no card
    assert [g.instances[x].card_id for x in g.zone("hand", 0)] == ["juggernaut"]  # Ann hacked over Bob's Destroy


@pytest.mark.rule("M20")
def test_partial_payment_needs_the_variant_and_refusals_change_nothing():
    game, eng, u = new_game(state={"Ann": {"goods": {"iron": 1}}, "game": {"deployed": ["stalker"]}})
    before = game.snapshot()
    out = pack(game).contribute(eng, game, 0, u["stalker"], "hack", Counter(iron=1))
    assert out.status == "refused" and "Collaboration" in out.reason
    assert game.snapshot() == before
    game, eng, u = collab(Ann={"goods": {"iron": 1, "fuel": 1, "gun": 1, "red_contact": 2}},
                          game={"deployed": ["stalker", "mother"]})
    before = game.snapshot()
    m = pack(game)
    assert m.contribute(eng, game, 0, u["stalker"], "hack", Counter(gun=1)).status == "refused"     # not in the Code
    assert m.contribute(eng, game, 0, u["stalker"], "hack", Counter(iron=1, fuel=1)).status == "refused"  # whole cost
    assert m.contribute(eng, game, 0, u["stalker"], "destroy", Counter(red_contact=2)).status == "refused"  # whole cost
    assert game.snapshot() == before


@pytest.mark.rule("M20")
def test_completing_an_opponents_destroy_gives_no_vp_but_completing_your_own_does():
    game, eng, u = collab(Ann={"goods": {"red_contact": 1}}, Bob={"goods": {"red_contact": 4}},
                          game={"deployed": ["stalker", "mother", "leech"]})
    m = pack(game)
    assert m.contribute(eng, game, 0, u["stalker"], "destroy", Counter(red_contact=1)).ok
    assert m.destroy(eng, game, 1, u["stalker"]).ok
    assert game.players[1].goods["red_contact"] == 3 and game.players[1].goods["vp"] == 0
    assert m.contribute(eng, game, 1, u["mother"], "destroy", Counter(red_contact=1)).ok
    assert m.destroy(eng, game, 1, u["mother"]).ok   # Bob completes his own partial Destroy
    assert game.players[1].goods["vp"] == 1


@pytest.mark.rule("M20")
def test_destroy_over_an_opponents_hack_payment_still_gains_1_vp():
    game, eng, u = collab(Ann={"goods": {"iron": 1}}, Bob={"goods": {"red_contact": 2}},
                          game={"deployed": ["stalker", "mother", "leech"]})
    m = pack(game)
    assert m.contribute(eng, game, 0, u["stalker"], "hack", Counter(iron=1)).ok
    assert m.destroy(eng, game, 1, u["stalker"]).ok
    assert game.players[1].goods["vp"] == 1
    # decision: Goods left on a Machine that leaves play return to the supply (Ann's Iron is gone)
    assert sum(game.instances[u["stalker"]].goods.values()) == 0 and game.players[0].goods["iron"] == 0
    assert "the Goods left on Stalker (1 iron) return to the supply" in game.trace_text()


@pytest.mark.rule("M20")
def test_hack_completion_pays_only_the_missing_cost():
    game, eng, u = collab(Ann={"goods": {"brick": 1}}, Bob={"goods": {"brick": 1, "worker": 1}},
                          game={"deployed": ["juggernaut"]})
    m = pack(game)
    assert m.contribute(eng, game, 0, u["juggernaut"], "hack", Counter(brick=1)).ok
    assert m.hack(eng, game, 1, u["juggernaut"]).ok
    assert sum(game.players[1].goods.values()) == 0
    assert game.zone("hand", 1) == [] and game.zone("machine_discard") == [u["juggernaut"]]
