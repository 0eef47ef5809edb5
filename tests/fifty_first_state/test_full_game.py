"""51st State played as a whole game (issue 24, item 1): the stand-in Base Set of 88 cards, the Deck's
reshuffle, an end reached by play, and a setup that does not depend on which packs are in play.

Every rule here is a stand-in (game.yaml marks each `stand_in`, docs/fifty_first_state.md), except
what a rulebook prints: the Base Set's size (M02, S01) and the 2 cards discarded from the starting
hand (S02)."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from runtime.engine import engine_for

from .helpers import compiled, new_game
from .test_match import match, play_out


def base_cards(c) -> Counter:
    return Counter({cid: int(r.get("count", 1)) for cid, r in c.cards.items()
                    if r.get("kind") == "location" and r.get("set", "base") == "base"})


@pytest.mark.rule("M02")
@pytest.mark.rule("S01")
def test_the_base_set_has_the_88_cards_the_rulebooks_speak_of_and_says_what_is_stand_in():
    c = compiled()
    base = base_cards(c)
    assert sum(base.values()) == c.table("base_set")["cards"] == 88
    stand = {cid: n for cid, n in base.items() if cid.startswith("base_stand_in_")}
    assert sum(stand.values()) == 70
    for cid in stand:  # named as what they are, never as a published card
        assert c.cards[cid]["name"].startswith("Base Set stand-in ")
    module = next(m for m in c.modules if m.get("id") == "base_stand_in")
    assert "Stand-in" in module["stand_in"]["note"]
    from runtime.standins import stand_ins
    assert any(s["what"] == module["name"] for s in stand_ins(c))  # so every output lists it


@pytest.mark.parametrize("packs", [["moloch"], ["scavengers"], ["moloch", "scavengers"]])
@pytest.mark.rule("M02")
@pytest.mark.rule("S02")
def test_every_pack_combination_starts_with_the_same_hands_and_the_88_base_cards(packs):
    c = compiled()
    game = engine_for(c).new_game(c, ["Ann", "Bob", "Cid"], seed=3, options={"packs": packs})
    spec = c.table("starting_hand")
    pile = "personal_discard" if "scavengers" in packs else "discard"
    for p in range(3):
        assert len(game.zone("hand", p)) == spec["cards"] - spec["discard"] == 3
    discarded = sum(len(game.zone(pile, p)) for p in range(3)) if pile == "personal_discard" else len(game.zone(pile))
    assert discarded == 3 * spec["discard"]
    made = game.zone("deck") + game.zone("discard") + [u for p in range(3) for u in
                                                       game.zone("hand", p) + game.zone("personal_discard", p)]
    sets = Counter(c.cards[game.instances[u].card_id].get("set", "base") for u in made)
    assert sets["base"] == 88 and set(sets) == {"base", *packs}


def test_a_moloch_only_game_does_not_start_with_empty_hands():
    m = match(2, players=("Ann", "Bob"), packs=["moloch"])
    assert all(len(m.game.zone("hand", p)) >= 3 for p in range(2))  # 3 kept, then the draft's picks


def test_an_empty_deck_is_refilled_from_the_discard_pile_with_the_dealt_cards_still_on_top():
    game, eng, u = new_game(state={"game": {"deck": ["oil_rig"], "discard": ["iron_mine", "gun_shop", "monument"]}},
                            packs=["moloch"])
    shown = eng.deal_draft(game)  # 2 players: 3 cards; the Deck holds 1
    assert len(shown) == 3 and shown[0] == u["oil_rig"]  # the card still there is dealt first
    assert game.zone("discard") == []
    assert {game.instances[x].card_id for x in shown[1:]} <= {"iron_mine", "gun_shop", "monument"}
    assert "the discarded cards are shuffled into a new Deck of 3 cards (stand-in)" in game.trace_text()
    assert game.check_conservation() == []


@pytest.mark.rule("S07")
def test_with_scavengers_the_personal_piles_but_their_top_card_go_into_the_new_deck():
    game, eng, u = new_game(state={"Ann": {"personal_discard": ["oil_rig", "iron_mine"]},
                                   "Bob": {"personal_discard": ["gun_shop"]}, "game": {"deck": []}},
                            packs=["scavengers"])
    assert eng.reshufflable(game) == 1
    eng.refill(game, game.zone_key("deck", None))
    assert [game.instances[x].card_id for x in game.zone("deck")] == ["oil_rig"]
    assert game.zone("personal_discard", 0) == [u["iron_mine"]]  # the top stays: the [symbol] (S07)
    assert game.zone("personal_discard", 1) == [u["gun_shop"]]


@pytest.mark.rule("S11")
@pytest.mark.rule("S12")
def test_a_connection_in_a_personal_pile_goes_back_to_the_connection_discard_not_into_the_deck():
    """Decision (docs/decisions.md): a played Yellow Connection lies in its player's Personal Discard
    pile (S04); when the Deck is refilled from those piles, it goes to the Connection discard pile — a
    Connection drawn from the Deck as a Ruins (S11) and rebuilt (S12) would be a "Location" in a State
    with no row (found by 1,000 seeded 4-player games: raze_cost failed on a rebuilt Squatters)."""
    game, eng, u = new_game(state={"Ann": {"personal_discard": ["squatters", "oil_rig", "iron_mine"]},
                                   "game": {"deck": []}}, packs=["scavengers"])
    assert eng.reshufflable(game) == 1  # the Oil Rig: the Connection is not a Deck card, the top stays
    eng.refill(game, game.zone_key("deck", None))
    assert [game.instances[x].card_id for x in game.zone("deck")] == ["oil_rig"]
    assert [game.instances[x].card_id for x in game.zone("connection_discard")] == ["squatters"]
    assert game.zone("personal_discard", 0) == [u["iron_mine"]]
    assert eng.check_invariants(game) == []


def test_the_game_that_rebuilt_a_connection_into_a_state_now_keeps_every_invariant():
    """The seeded game that found it (4 players, both State Packs, Recruit, game 570 of seed 0), with
    the invariants checked after every move — "a State holds Locations and Ruins; the Deck no
    Connection" among them."""
    from runtime.simulate import SimConfig, _chosen_options, play_one

    cfg = SimConfig("fifty_first_state", players=4, options=(("packs", ("moloch", "scavengers")),
                                                             ("difficulty", "recruit")))
    options = tuple(sorted(_chosen_options(cfg).items()))
    record = play_one(("fifty_first_state", None, 4, 0, 570, "random", cfg.turn_cap, True, None, options, False))
    assert record["problems"] == [] and record["rounds"] >= 8


def test_the_state_invariant_names_a_face_up_card_that_is_not_a_location():
    game, eng, u = new_game(state={"Ann": {"state": ["oil_rig"]}}, packs=["scavengers"])
    uid = game.create("squatters", game.zone_key("state", 0), owner=0).uid
    assert any("squatters" in p and "not a Location" in p for p in eng.check_invariants(game)), uid


def test_the_game_ends_by_the_deck_only_when_nothing_is_left_to_reshuffle():
    m = match(1, players=("Ann", "Bob"), packs=["moloch"])
    g = m.game
    deck, discard = g.zone_key("deck", None), g.zone_key("discard", None)
    for uid in list(g.zones[deck]):
        g.move(uid, discard)
    assert m._ended() == ""  # the discard pile would make a new Deck
    for uid in list(g.zones[discard]):
        g.move(uid, g.zone_key("hand", 0))
        g.instances[uid].owner = 0
    assert m._ended() == "the Deck ran out with nothing left to reshuffle (stand-in)"


def test_the_vp_goal_counts_the_locations_during_play_so_it_is_reached_by_play():
    m = match(1, players=("Ann", "Bob"), packs=["scavengers"])
    g = m.game
    goal = g.compiled.table("game_end")["vp"]
    per = g.compiled.table("final_scoring")["vp_per_location"]
    assert m._ended() == ""
    g.players[1].goods["vp"] = goal - 2 * per
    for cid in ("oil_rig", "iron_mine"):
        inst = g.create(cid, g.zone_key("state", 1), owner=1)
        inst.props["row"] = "production"
    assert m.score_now(1) == goal
    assert m._ended() == f"Bob reached {goal} VP (stand-in)"
    g.players[1].goods["vp"] -= 1
    assert m._ended() == ""  # one short


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_end_by_their_end_condition_not_by_the_deck(players):
    reasons, rounds = Counter(), []
    for seed in range(3):
        m = match(seed, players=("Ann", "Bob", "Cid", "Dee")[:players], packs=["scavengers"])
        play_out(m, random.Random(seed))
        reasons[m.result().reason.split("the game ended: ")[1]] += 1
        rounds.append(m.game.round - 1)
    assert not any("nothing left to reshuffle" in r for r in reasons), reasons
    assert all(3 <= r <= m.game.compiled.table("game_end")["rounds"] for r in rounds), rounds
