"""Moloch: end game (M10), Ruins (M11), Hacked cards (M12, M13), stored Goods (M14), Production +
Feature (M15), X-actions (M16), the Conflagrator (M17, M18), Appallach Federation (M19)."""
from __future__ import annotations

import pytest

from .helpers import compiled, new_game, pack, run_scenario


@pytest.mark.rule("M10")
def test_tied_leaders_each_lose_2_vp_per_deployed_machine():
    sc, run = run_scenario("end_game")
    assert [p.goods["vp"] for p in run.game.players] == [1, 1, 5]


@pytest.mark.rule("M10")
def test_single_leader_loses_and_vp_do_not_go_below_zero():
    game, eng, u = new_game(players=("Ann", "Bob"), state={"Ann": {"goods": {"vp": 3}}, "Bob": {"goods": {"vp": 1}},
                                                           "game": {"deployed": ["mother", "leech"]}})
    eng.end_game(game)
    assert game.players[0].goods["vp"] == 0 and game.players[1].goods["vp"] == 1
    assert compiled().cards is not None and "end_game_penalty" in compiled().rules


@pytest.mark.rule("M10")
def test_no_deployed_machine_no_penalty():
    game, eng, u = new_game(state={"Ann": {"goods": {"vp": 4}}})
    eng.end_game(game)
    assert game.players[0].goods["vp"] == 4


@pytest.mark.rule("M11")
def test_gaining_a_ruins_draws_the_top_card_face_down_into_the_state():
    game, eng, u = new_game(state={"Ann": {"state": ["ruin_pickers"]}, "game": {"deck": ["oil_rig", "monument"]}})
    eng.phase(game, "production")
    ruins = [x for x in game.zone("state", 0) if game.instances[x].face == "ruins"]
    assert [game.instances[x].card_id for x in ruins] == ["monument"]  # the top card
    assert game.zone("deck") == [u["oil_rig"]]
    # a Ruins is not a Location: it neither produces nor is a target of "your locations"
    game2, eng2, u2 = new_game(state={"Ann": {"state": ["oil_rig:ruins"]}, "game": {"deployed": ["mother"]}})
    eng2.phase(game2, "production")
    assert game2.players[0].goods["fuel"] == 0
    assert pack(game2).assault(eng2, game2, 0).resolved == 0


@pytest.mark.rule("M12")
def test_discarded_or_razed_hacked_cards_go_to_the_machine_discard_pile():
    sc, run = run_scenario("hacked_cards")
    g = run.game
    assert [g.instances[x].card_id for x in g.zone("machine_discard")] == ["wrecker", "scorcher"]
    assert all(g.instances[x].face == "front" for x in g.zone("machine_discard"))
    assert g.zone("discard") == []  # not the central discard pile
    ruins = [g.instances[x].card_id for x in g.zone("state", 0) if g.instances[x].face == "ruins"]
    assert ruins == ["gun_shop", "iron_mine"]  # one from the razed Hacked card, one from Ruin Pickers


@pytest.mark.rule("M12")
def test_hacked_card_razed_by_an_assault_gives_a_ruins():
    game, eng, u = new_game(state={"Ann": {"state": ["scorcher:hacked"]}, "game": {"deployed": ["stalker"],
                                                                                  "deck": ["monument"]}})
    pack(game).assault(eng, game, 0)
    assert game.zone("machine_discard") == [u["scorcher"]]
    assert [game.instances[x].face for x in game.zone("state", 0)] == ["ruins"]


@pytest.mark.rule("M13")
def test_draw_1_hacked_takes_the_bottom_machine_hacked_side_up():
    sc, run = run_scenario("hacked_cards")
    g = run.game
    assert [g.instances[x].card_id for x in g.zone("machine_deck")] == ["leech"]  # Wrecker was the bottom card
    assert "Ann: draws 1 card from the Machine deck" in g.trace_text()


@pytest.mark.rule("M13")
def test_draw_1_hacked_reshuffles_an_empty_machine_deck():
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 2}, "state": ["hacker_den"]},
                                   "game": {"machine_discard": ["mother"]}})
    assert eng.use_action(game, 0, u["hacker_den"]).ok
    assert game.zone("hand", 0) == [u["mother"]] and game.instances[u["mother"]].face == "hacked"


@pytest.mark.rule("M14")
def test_stored_goods_pay_hacks_and_are_discarded_when_razed():
    sc, run = run_scenario("stored_goods")
    g = run.game
    vault = sc.card_uid("armory_vault")
    assert g.instances[vault].face == "ruins" and sum(g.instances[vault].goods.values()) == 0
    assert g.players[0].goods["iron"] == 1  # her own Iron was not used: the stored one paid


@pytest.mark.rule("M14")
def test_stored_goods_serve_only_hacking_or_destroying_and_go_when_developed():
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 1}, "state": ["armory_vault"], "hand": ["monument"]},
                                   "game": {"deployed": ["leech", "mother", "wrecker"]}})
    assert eng.use_action(game, 0, u["armory_vault"]).ok
    assert game.players[0].goods["red_contact"] == 0            # stored, not the player's
    assert dict(game.instances[u["armory_vault"]].goods) == {"iron": 1, "red_contact": 1}
    game.players[0].goods["red_contact"] = 1
    assert pack(game).destroy(eng, game, 0, u["leech"]).ok       # Defense 2: 1 stored + 1 own
    assert game.players[0].goods["red_contact"] == 0
    # Developing the Location discards what is left on it
    from types import SimpleNamespace
    sc = SimpleNamespace(player_index=lambda n: 0, card_uid=lambda n: u[n])
    assert eng.step_develop(game, {"develop": "armory_vault", "with": "monument"}, sc).ok
    assert sum(game.instances[u["armory_vault"]].goods.values()) == 0
    assert "as it is developed" in game.trace_text()


@pytest.mark.rule("M15")
def test_production_and_feature_counts_in_both_rows_placed_and_razed_as_production():
    sc, run = run_scenario("production_and_feature")
    g = run.game
    assert g.players[1].goods["vp"] == 1 and g.players[1].goods["fuel"] == 1  # counted in both rows
    assert "constructs Salvage Refinery in the production row" in g.trace_text()
    assert g.players[0].goods["red_contact"] == 2  # razed for the Production row cost of 3
    refinery = sc.card_uid("salvage_refinery")
    assert g.instances[refinery].face == "ruins"


@pytest.mark.rule("M15")
def test_raze_cost_of_production_and_feature_card_is_3_not_the_feature_cost():
    game, eng, u = new_game(state={"Bob": {"state": ["salvage_refinery", "monument"]}})
    assert eng.raze_cost(game, u["salvage_refinery"])[1] == 3
    assert eng.raze_cost(game, u["monument"])[1] == 2  # a Feature row Location (provisional value)


@pytest.mark.rule("M16")
def test_x_action_refused_without_deployed_machines_and_x_counts_them():
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 2}, "state": ["machine_graveyard"]}})
    before = game.snapshot()
    out = eng.use_action(game, 0, u["machine_graveyard"])
    assert out.status == "refused" and "at least 1" in out.reason
    assert game.snapshot() == before
    sc, run = run_scenario("deployed_x")
    assert run.game.players[0].goods["iron"] == 2 and run.game.players[0].goods["worker"] == 1


@pytest.mark.rule("M17")
def test_hacked_conflagrator_takes_production_instead_of_owner_counting_owner_state():
    sc, run = run_scenario("hacked_conflagrator")
    g = run.game
    assert g.players[0].goods["iron"] == 6   # 3 (Building Bonus) + 3 (Production), 3 grey in Bob's State
    assert g.players[1].goods["iron"] == 2   # Iron Mine and Salvage Refinery; the Foundry produced for Ann


@pytest.mark.rule("M17")
def test_hacked_conflagrator_may_not_target_a_production_location_with_a_feature():
    game, eng, u = new_game(state={"Ann": {"state": ["conflagrator:hacked"]}, "Bob": {"state": ["salvage_refinery"]}})
    eng.phase(game, "production")
    assert game.players[0].goods["iron"] == 0 and game.players[1].goods["iron"] == 1
    # nothing to choose: the name holds nothing and the gain that uses it gains nothing (issue 22)
    assert "Ann: chooses nothing" in game.trace_text()


@pytest.mark.rule("M18")
def test_conflagrator_blocks_the_action_icon_faction_action_until_cleanup():
    sc, run = run_scenario("conflagrator_block")
    assert [o.status for o in run.outcomes] == ["done", "refused", "done", "done", "done"]
    g = run.game
    work = sc.card_uid("work_action")
    assert "blocked" not in g.instances[work].props


@pytest.mark.rule("M18")
def test_blocked_action_refusal_changes_nothing():
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 2}, "faction_board": ["work_action"]},
                                   "game": {"deployed": ["conflagrator"]}})
    pack(game).assault(eng, game, 0)
    before = game.snapshot()
    out = eng.use_action(game, 0, u["work_action"])
    assert out.status == "refused" and "blocked" in out.reason
    assert game.snapshot() == before


@pytest.mark.rule("M19")
def test_appallach_federation_optional_marker():
    sc, run = run_scenario("appallach")
    assert [o.status for o in run.outcomes] == ["done", "refused", "done", "refused"]
    rec = compiled().cards["appallach_federation"]
    assert "on_play" in rec["uncertain"]
    # declining the marker leaves the Action usable
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 1}, "hand": ["appallach_federation"],
                                           "faction_board": ["salvage_action"]}},
                            answers={"Ann": [None]})
    from types import SimpleNamespace
    sc2 = SimpleNamespace(player_index=lambda n: 0, card_uid=lambda n: u[n])
    assert eng.step_construct(game, {"construct": "appallach_federation"}, sc2).ok
    assert eng.use_action(game, 0, u["salvage_action"]).ok


@pytest.mark.rule("M11")
def test_you_may_look_at_your_own_ruins_only():
    from runtime.errors import Refused

    game, eng, u = new_game(state={"Ann": {"state": ["monument:ruins", "oil_rig"]}, "Bob": {"state": ["gun_shop:ruins"]}})
    assert eng.look_at_ruins(game, 0, u["monument"]) == "monument"
    before = game.snapshot()
    with pytest.raises(Refused, match="your own Ruins"):
        eng.look_at_ruins(game, 0, u["gun_shop"])
    with pytest.raises(Refused, match="not a Ruins"):
        eng.look_at_ruins(game, 0, u["oil_rig"])
    assert game.snapshot() == before


@pytest.mark.rule("M12")
def test_with_both_state_packs_a_hacked_card_still_goes_to_the_machine_discard_pile():
    # Moloch's discard hook comes before Scavengers' Personal Discard piles (packs in name order).
    game, eng, u = new_game(packs=["scavengers", "moloch"],
                            state={"Ann": {"hand": ["mother:hacked", "oil_rig"]}})
    eng.discard_card(game, u["mother"], 0)
    eng.discard_card(game, u["oil_rig"], 0)
    assert game.zone("machine_discard") == [u["mother"]]
    assert game.zone("personal_discard", 0) == [u["oil_rig"]]
