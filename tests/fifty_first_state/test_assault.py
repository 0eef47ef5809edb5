"""Moloch Assault: efficient resolution (M04), Razing with Deal Goods (M05), the named Machines (M21)."""
from __future__ import annotations

import pytest

from .helpers import compiled, new_game, pack, run_scenario


@pytest.mark.rule("M04")
@pytest.mark.rule("M05")
def test_rulebook_example_mother_and_juggernaut_raze_both():
    sc, run = run_scenario("assault_efficient")
    g = run.game
    kate = 0
    faces = sorted(g.instances[u].face for u in g.zone("state", kate))
    assert faces == ["ruins", "ruins"]
    assert g.players[kate].goods["brick"] == 2  # 1 Brick from each Deal field


@pytest.mark.rule("M04")
def test_first_come_first_served_would_fail_but_efficient_does_not():
    # Juggernaut comes first in the Deployed pile and could take Brick Supplier; efficient
    # resolution still gives it Brick Storage so that Mother resolves too.
    game, eng, u = new_game(state={"Ann": {"state": ["brick_supplier", "brick_storage"]},
                                   "game": {"deployed": ["juggernaut", "mother"]}})
    choice = pack(game).assault(eng, game, 0)
    assert (choice.resolved, choice.wanted) == (2, 2)
    assert choice.targets(u["juggernaut"]) == ((u["brick_storage"],),)
    assert choice.targets(u["mother"]) == ((u["brick_supplier"],),)
    assert game.instances[u["brick_storage"]].face == game.instances[u["brick_supplier"]].face == "ruins"


def test_a_bots_imagined_game_resolves_the_assault_in_deployed_order_without_the_search():
    # In a bot's what-if copy (game.imagined, runtime/bots.py) the search is skipped for speed: the
    # Machines go in Deployed order with their first choices. The probe of the test below: the
    # Shredder, Deployed first, finds Ann's hand empty and is ignored; then the Stalker razes the
    # Scrap Pile, whose Deal draws the card the Shredder would have taken. The game being played keeps
    # the efficient resolution (2 of 2, the test below).
    game, eng, u = new_game(state={"Ann": {"state": ["scrap_pile"]},
                                   "game": {"deployed": ["shredder", "stalker"], "deck": ["iron_mine"]}},
                            packs=["moloch"])
    game.imagined = True
    choice = pack(game).assault(eng, game, 0)
    assert [game.instances[m].card_id for m, _ in choice.steps] == ["shredder", "stalker"]
    assert (choice.resolved, choice.wanted) == (1, 2)
    assert game.instances[u["scrap_pile"]].face == "ruins"
    assert [game.instances[x].card_id for x in game.zone("hand", 0)] == ["iron_mine"]


def test_the_bots_play_their_what_ifs_as_imagined_games_and_the_real_game_is_not_one():
    # Every bot marks the copies it plays ahead on; the match it is asked about stays the real game.

    from runtime.bots import UCT, FlatMonteCarlo, Greedy
    from runtime.engine import engine_for

    c = compiled()
    m = engine_for(c).new_match(c, ["Ann", "Bob"], seed=5, options={"packs": ["moloch"]})
    marks = []
    real_copy = type(m).copy

    def spy(self):
        twin = real_copy(self)
        real_apply = twin.apply
        twin.apply = lambda mv: (marks.append(twin.game.imagined), real_apply(mv))[1]
        return twin

    type(m).copy = spy
    try:
        for bot in (Greedy(), FlatMonteCarlo(playouts=1, depth=2), UCT(iterations=3, depth=2)):
            bot.pick(m, m.legal_moves())
    finally:
        type(m).copy = real_copy
    assert marks and all(marks)
    assert m.game.imagined is False


@pytest.mark.rule("M04")
def test_agent_chooses_among_equally_efficient_outcomes():
    # Mother may raze the Oil Rig (green) or the Refugee Camp (worker): two outcomes, equally
    # efficient; the script picks the second.
    game, eng, u = new_game(state={"Ann": {"state": ["oil_rig", "refugee_camp"]}, "game": {"deployed": ["mother"]}},
                            answers={"Ann": ["Mother razes: Refugee Camp"]})
    pack(game).assault(eng, game, 0)
    assert game.instances[u["oil_rig"]].face == "front"
    assert game.instances[u["refugee_camp"]].face == "ruins"
    assert game.players[0].goods["worker"] == 1  # the Camp's Deal


@pytest.mark.rule("M04")
def test_indistinguishable_targets_are_one_outcome_not_a_question():
    # Two Oil Rigs: razing either is the same outcome, so nobody is asked (no script needed).
    game, eng, u = new_game(state={"Ann": {"state": ["oil_rig", "oil_rig"]}, "game": {"deployed": ["mother"]}},
                            answers={"Ann": []})
    pack(game).assault(eng, game, 0)
    assert sorted(game.instances[x].face for x in (u["oil_rig"], u["oil_rig#2"])) == ["front", "ruins"]


@pytest.mark.rule("M04")
@pytest.mark.rule("M05")
def test_a_raze_whose_deal_gives_the_card_a_later_discard_needs_is_resolved_first():
    # Probe: the Shredder ("discard 1 card from your hand") is Deployed before the Stalker ("raze 1
    # of your locations with icon red or grey") and Ann's hand is empty. In Deployed order the
    # Shredder finds nothing and is ignored. Efficiently, the Stalker razes the Scrap Pile first —
    # its Deal gives 1 card, drawn from the Deck — and then the Shredder discards that card.
    game, eng, u = new_game(state={"Ann": {"state": ["scrap_pile"]},
                                   "game": {"deployed": ["shredder", "stalker"], "deck": ["iron_mine"]}},
                            packs=["moloch"])
    choice = pack(game).assault(eng, game, 0)
    assert [game.instances[m].card_id for m, _ in choice.steps] == ["stalker", "shredder"]
    assert (choice.resolved, choice.wanted) == (2, 2)
    assert game.instances[u["scrap_pile"]].face == "ruins"
    assert game.zone("hand", 0) == [] and [game.instances[x].card_id for x in game.zone("discard")] == ["iron_mine"]
    assert "efficient Assault: 2 of 2 effect units can resolve" in game.trace_text()


@pytest.mark.rule("M04")
@pytest.mark.rule("M05")
def test_a_raze_that_gives_the_fuel_a_later_lose_2_fuel_takes_is_resolved_first():
    # Probe: the Leech ("lose 2 fuel") is Deployed before Mother and Ann has 1 Fuel. In Deployed
    # order the Leech takes 1 of 2. Efficiently, Mother razes the Oil Rig first (its Deal: 1 Fuel),
    # then the Leech takes both.
    game, eng, u = new_game(state={"Ann": {"goods": {"fuel": 1}, "state": ["oil_rig"]},
                                   "game": {"deployed": ["leech", "mother"]}})
    choice = pack(game).assault(eng, game, 0)
    assert [game.instances[m].card_id for m, _ in choice.steps] == ["mother", "leech"]
    assert (choice.resolved, choice.wanted) == (3, 3)
    assert game.players[0].goods["fuel"] == 0
    assert game.instances[u["oil_rig"]].face == "ruins"


@pytest.mark.rule("M04")
def test_order_does_not_matter_keeps_the_deployed_order():
    # Nothing interacts: the Deployed order is kept (the first plan found among equal outcomes).
    game, eng, u = new_game(state={"Ann": {"goods": {"fuel": 5, "vp": 5}, "state": ["oil_rig"]},
                                   "game": {"deployed": ["tithe_engine", "leech", "mother"]}})
    choice = pack(game).assault(eng, game, 0)
    assert [game.instances[m].card_id for m, _ in choice.steps] == ["tithe_engine", "leech", "mother"]
    assert game.players[0].goods["vp"] == 2 and game.players[0].goods["fuel"] == 4  # 5 - 2 + 1 (Deal)


@pytest.mark.rule("M04")
def test_unresolvable_effect_is_ignored():
    game, eng, u = new_game(state={"Ann": {"state": ["iron_mine"]}, "game": {"deployed": ["mother", "juggernaut"]}})
    snap = game.snapshot()["cards"][u["iron_mine"]]
    pack(game).assault(eng, game, 0)
    assert game.snapshot()["cards"][u["iron_mine"]] == snap
    assert "efficient Assault: 0 of 2 effect units can resolve" in game.trace_text()


@pytest.mark.rule("M21")
def test_named_machines_compile_with_uncertain_icons_marked():
    cards = compiled().cards
    for cid in ("mother", "juggernaut", "conflagrator"):
        rec = cards[cid]
        assert rec["kind"] == "machine" and rec["source"].startswith("rulebook 000_")
        assert "assault" in rec["slots"] and "assault" in rec["uncertain"]
    assert cards["mother"]["texts"]["assault"] == "raze 1 of your locations with icon green or worker"
    assert cards["juggernaut"]["texts"]["assault"] == "raze 1 of your locations with icon orange or purple"
    assert cards["conflagrator"]["defense"] == 4 and "defense" not in cards["conflagrator"]["provisional"]
    assert "uncertain" in compiled().vocab["icons"]["gear"]
    assert "uncertain" in compiled().vocab["icons"]["action"]


@pytest.mark.rule("M04")
def test_other_assault_kinds_and_the_agents_choice():
    sc, run = run_scenario("assault_kinds")
    g = run.game
    assert [g.instances[x].card_id for x in g.zone("hand", 0)] == ["oil_rig"]
    assert g.players[0].goods["fuel"] == 1 and g.players[0].goods["vp"] == 2
    assert "efficient Assault: 8 of 8 effect units can resolve" in g.trace_text()


@pytest.mark.rule("M04")
def test_assault_planning_leaves_the_real_game_untouched_until_execution():
    game, eng, u = new_game(state={"Ann": {"goods": {"fuel": 3}, "state": ["oil_rig"]},
                                   "game": {"deployed": ["leech", "mother"]}})
    twin = game.copy(agents={})  # the copy the Assault search tries each Machine on
    assert twin is not game and twin.snapshot() == game.snapshot()
    twin.players[0].goods["fuel"] = 0
    assert game.players[0].goods["fuel"] == 3


@pytest.mark.rule("M04")
def test_past_the_search_budget_the_rest_resolves_in_deployed_order_and_the_trace_says_so(monkeypatch):
    from runtime.games.fifty_first_state import moloch

    monkeypatch.setattr(moloch, "SEARCH_BUDGET", 3)
    game, eng, u = new_game(state={"Ann": {"goods": {"fuel": 1}, "state": ["oil_rig", "iron_mine"]},
                                   "game": {"deployed": ["leech", "stalker", "mother"]}})
    choice = pack(game).assault(eng, game, 0)
    assert [game.instances[m].card_id for m, _ in choice.steps] == ["leech", "stalker", "mother"]
    assert "the search stopped after" in game.trace_text()
    assert game.instances[u["oil_rig"]].face == game.instances[u["iron_mine"]].face == "ruins"


@pytest.mark.rule("M04")
def test_distinct_choices_of_one_target_follow_the_general_rule():
    """``distinct_choices`` with one target to take (every bundled Assault) keeps the general rule's
    answer: one choice per set of indistinguishable cards, the first of each in the candidates' order."""
    from itertools import combinations

    from runtime.games.fifty_first_state.moloch import _signature, distinct_choices

    game, _, uids = new_game(state={"Ann": {"state": ["oil_rig", "gun_shop", "oil_rig", "oil_rig:ruins",
                                                      "gun_shop"]}})
    game.instances[uids["gun_shop#2"]].goods["fuel"] = 1  # Goods on it: another outcome
    options = [uids[k] for k in ("oil_rig#2", "gun_shop", "oil_rig", "oil_rig#3", "gun_shop#2")]

    def general(k):
        seen: dict = {}
        for combo in combinations(options, k):
            seen.setdefault(tuple(sorted(_signature(game, u) for u in combo)), combo)
        return list(seen.values())

    assert distinct_choices(game, options, 1) == general(1) == [
        (uids["oil_rig#2"],), (uids["gun_shop"],), (uids["oil_rig#3"],), (uids["gun_shop#2"],)]
    assert distinct_choices(game, options, 2) == general(2)
