"""The Scavengers State Pack, clause by clause (S01–S14), on the REAL compiled content:
data/fifty_first_state/*.yaml → compiler → generated/fifty_first_state → runtime. Scenario traces
are snapshot tested in test_scenarios.py; here each clause's behaviour is asserted on the state."""
from __future__ import annotations

import shutil

import pytest

from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect
from runtime.engine import engine_for
from runtime.errors import Refused
from runtime.model import model_of

from .helpers import ROOT, compiled, new_game, pack, run_scenario

SCAV = {"packs": ["scavengers"]}


def ids(game, zone, owner=None):
    return [game.instances[u].card_id for u in game.zone(zone, owner)]


def effect(text: str):
    """Compile one effect through the real pipeline (parse, check against the game, emit)."""
    ex = explain_effect(text, model_of(compiled().vocab))
    assert not ex.diags.errors, [d.render() for d in ex.diags.errors]
    return effect_function(ex)


def setup_game(players=("Ann", "Bob"), seed=3):
    c = compiled()
    eng = engine_for(c)
    return eng.new_game(c, list(players), seed=seed, options=dict(SCAV)), eng


# --- S01 / S02: setup ---------------------------------------------------------------------------

@pytest.mark.rule("S01")
def test_setup_shuffles_scavengers_cards_into_deck_and_makes_the_yellow_connection_pile():
    game, eng = setup_game()
    yellow = ids(game, "yellow_connections")
    assert len(yellow) == 6
    assert all(game.cards[c]["kind"] == "connection" and game.cards[c]["colour"] == "yellow" for c in yellow)
    # every Scavengers Location is somewhere among the Deck, the hands and the discard piles
    scav = sorted(c for c, r in game.cards.items() if r.get("set") == "scavengers")
    assert "school" in scav and "scouring_the_ruins" in scav
    everywhere = sorted(i.card_id for i in game.instances.values() if game.cards[i.card_id].get("set") == "scavengers")
    assert everywhere == scav
    assert game.check_conservation() == []


@pytest.mark.rule("S02")
def test_each_player_starts_with_the_two_discarded_starting_cards_in_their_own_pile():
    game, eng = setup_game(("Ann", "Bob", "Cid"))
    hand = compiled().table("starting_hand")
    for p in range(3):
        assert len(game.zone("personal_discard", p)) == hand["discard"] == 2
        assert len(game.zone("hand", p)) == hand["cards"] - 2
        assert all(game.instances[u].owner == p for u in game.zone("personal_discard", p))
    assert game.zone("discard") == []  # no central discard pile in use


@pytest.mark.rule("S01")
@pytest.mark.rule("S02")
@pytest.mark.rule("S03")
def test_setup_scenario():
    sc, run = run_scenario("scavengers_setup")
    assert len(run.game.zone("yellow_connections")) == 6


# --- S03: Lookout ---------------------------------------------------------------------------------

@pytest.mark.rule("S03")
def test_lookout_reveals_yellow_and_leftovers_go_to_the_starting_players_pile():
    sc, run = run_scenario("scavengers_lookout_cleanup")
    g = run.game
    bob, ann = 1, 0
    assert ids(g, "personal_discard", bob) == ["refugee_camp", "iron_mine"]
    assert ids(g, "personal_discard", ann) == []
    assert "Bob: drafts Trading Post\nAnn: drafts Barracks" in run.trace()  # Starting Player first


@pytest.mark.rule("S03")
def test_lookout_leftover_follows_the_current_starting_player():
    deck = ["oil_rig", "iron_mine", "gun_shop"]
    for start, owner in (("Ann", 0), ("Bob", 1)):
        game, eng, u = new_game(state={"game": {"deck": list(deck), "yellow_connections": ["squatters"]}},
                                packs=["scavengers"], draft_rounds=1, start_player=start)
        eng.phase(game, "lookout")
        assert ids(game, "personal_discard", owner) == ["oil_rig"]
        assert ids(game, "personal_discard", 1 - owner) == []
        assert game.instances[u["squatters"]].props.get("revealed") is True


# --- S04: discards go to your own pile ----------------------------------------------------------

@pytest.mark.rule("S04")
def test_discards_from_hand_and_state_go_to_the_players_own_pile():
    sc, run = run_scenario("scavengers_discard_piles")
    g = run.game
    assert ids(g, "personal_discard", 0) == ["oil_rig", "iron_mine", "refugee_camp"]
    assert ids(g, "personal_discard", 1) == ["monument"]
    assert g.zone("discard") == []


@pytest.mark.rule("S04")
def test_a_discard_effect_sends_to_the_discarding_players_pile_and_hacked_cards_still_to_machine_discard():
    # Both packs in play: Moloch's hook still sends a Hacked card to the Machine discard pile (M12).
    game, eng, u = new_game(state={"Ann": {"hand": ["oil_rig", "stalker:hacked"]}})
    assert [p.name for p in eng.packs(game)] == ["moloch", "scavengers"]
    eng.run(game, effect("discard 2 cards from your hand"), 0)
    assert ids(game, "personal_discard", 0) == ["oil_rig"]
    assert ids(game, "machine_discard") == ["stalker"]
    assert game.instances[u["stalker"]].face == "front"


# --- S05 / S06: Yellow Connection cards ----------------------------------------------------------

@pytest.mark.rule("S05")
@pytest.mark.rule("S06")
def test_take_by_discarding_two_play_from_hand_and_nothing_discarded_at_cleanup_when_taken():
    sc, run = run_scenario("scavengers_yellow_connection")
    g = run.game
    assert ids(g, "personal_discard", 0) == ["oil_rig", "iron_mine", "squatters"]
    assert [g.instances[u].face for u in g.zone("state", 0)] == ["ruins"]
    assert ids(g, "connection_discard") == []


@pytest.mark.rule("S05")
def test_taking_a_yellow_connection_without_two_cards_is_refused_with_state_unchanged():
    game, eng, u = new_game(state={"Ann": {"hand": ["oil_rig"]}, "game": {"yellow_connections": ["squatters"]}},
                            packs=["scavengers"])
    before = game.snapshot()
    out = pack(game, "scavengers").take_connection(eng, game, 0)
    assert out.status == "refused"
    assert game.snapshot() == before


@pytest.mark.rule("S05")
def test_playing_a_card_that_is_not_a_connection_or_not_in_hand_is_refused():
    game, eng, u = new_game(state={"Ann": {"hand": ["oil_rig"]}, "Bob": {"hand": ["token_cache"]}},
                            packs=["scavengers"])
    scav = pack(game, "scavengers")
    before = game.snapshot()
    assert scav.play_connection(eng, game, 0, u["oil_rig"]).status == "refused"
    assert scav.play_connection(eng, game, 0, u["token_cache"]).status == "refused"
    assert game.snapshot() == before
    assert scav.play_connection(eng, game, 1, u["token_cache"]).ok
    assert game.players[1].goods["token"] == 1
    assert ids(game, "personal_discard", 1) == ["token_cache"]


@pytest.mark.rule("S06")
def test_cleanup_discards_the_revealed_card_if_not_taken():
    sc, run = run_scenario("scavengers_lookout_cleanup")
    assert ids(run.game, "connection_discard") == ["squatters"]
    assert ids(run.game, "yellow_connections") == ["token_cache"]


@pytest.mark.rule("S06")
def test_an_empty_yellow_pile_is_refilled_from_the_connection_discard_pile():
    game, eng, u = new_game(state={"game": {"connection_discard": ["squatters", "token_cache"]}},
                            packs=["scavengers"], draft_rounds=0)
    eng.phase(game, "lookout")
    assert sorted(ids(game, "yellow_connections")) == ["squatters", "token_cache"]
    assert ids(game, "connection_discard") == []


# --- S07 / S08: the [symbol] ----------------------------------------------------------------------

@pytest.mark.rule("S07")
def test_the_player_chooses_whose_pile_each_time():
    sc, run = run_scenario("scavengers_symbol_choose_pile")
    g = run.game
    assert g.players[0].goods["gun"] == 1  # the red icon of Cid's Gun Shop
    assert ids(g, "hand", 0) == ["iron_mine"]  # then Bob's top card


@pytest.mark.rule("S07")
@pytest.mark.rule("S08")
def test_checker_rejects_an_effect_naming_your_own_discard_pile_with_a_located_error(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    mod = data / "fifty_first_state" / "scavengers.yaml"
    text = mod.read_text(encoding="utf-8")
    bad = ("  - id: greedy_scavenger\n    kind: location\n    name: Greedy Scavenger\n    set: scavengers\n"
           "    source: example\n    rows: [action]\n"
           "    action: \"spend 1 worker: draw 1 card from your discard pile\"\n")
    text = text.replace("  # --- the 6 Yellow Connection cards", bad + "  # --- the 6 Yellow Connection cards")
    mod.write_text(text, encoding="utf-8")
    line = text.splitlines().index("    action: \"spend 1 worker: draw 1 card from your discard pile\"") + 1
    result = compile_tree(data, only={"fifty_first_state"})
    errs = [d for d in result.diags.errors]
    assert [d.code for d in errs] == ["E207"]
    d = errs[0]
    assert d.file.endswith("fifty_first_state/scavengers.yaml") and d.card == "greedy_scavenger"
    assert d.line == line
    col = text.splitlines()[line - 1].index("your discard pile") + 1
    assert d.column == col and d.length == len("your discard pile")
    assert "another player's" in d.message


@pytest.mark.rule("S07")
@pytest.mark.rule("S08")
@pytest.mark.parametrize("text", [
    "draw 1 card from your discard pile",
    "draw 1 card from discard pile",
    "draw 1 card from any player's discard pile",
    "choose 1 icon of top card of your discard pile as i; gain 1 good matching i",
    "choose 1 icon of each player's symbol card as i",
    "draw 1 of your symbol cards",
    "requires 1 card in your personal discard pile",
])
def test_every_way_of_naming_your_own_pile_is_an_error(text):
    ex = explain_effect(text, model_of(compiled().vocab))
    assert [d.code for d in ex.diags.errors] == ["E207"], text


@pytest.mark.rule("S07")
@pytest.mark.rule("S08")
def test_runtime_refuses_your_own_pile_with_state_unchanged_even_when_all_others_are_empty():
    fn = effect("choose 1 player as p; draw 1 card from p's discard pile")
    game, eng, u = new_game(state={"Ann": {"personal_discard": ["oil_rig", "monument"]}}, packs=["scavengers"])
    before = game.snapshot()
    out = eng.run(game, fn, 0)  # the first legal choice is Ann herself
    assert out.status == "refused" and "your own Personal Discard pile" in out.reason
    assert game.snapshot() == before
    sc, run = run_scenario("scavengers_own_pile_refused")
    assert ids(run.game, "personal_discard", 0) == ["oil_rig", "monument"]


@pytest.mark.rule("S08")
def test_lone_symbol_draws_top_card_of_another_pile_never_your_own():
    sc, run = run_scenario("scavengers_symbol_draw")
    g = run.game
    assert ids(g, "hand", 0) == ["gun_shop", "iron_mine"]
    assert g.instances[g.zone("hand", 0)[0]].owner == 0
    assert ids(g, "hand", 1) == ["monument"]


@pytest.mark.rule("S08")
def test_lone_symbol_with_every_other_pile_empty_draws_nothing_and_as_a_cost_is_refused():
    game, eng, u = new_game(state={"Ann": {"personal_discard": ["monument"]}, "Bob": {}}, packs=["scavengers"])
    before = game.snapshot()
    assert eng.run(game, effect("draw 1 symbol card"), 0).ok
    assert game.snapshot() == before  # nothing drawn; her own Monument stays
    game.players[0].goods["worker"] = 1
    before = game.snapshot()
    out = eng.run(game, effect("draw 1 symbol card: gain 1 vp"), 0)
    assert out.status == "refused"
    assert game.snapshot() == before


@pytest.mark.rule("S08")
def test_lone_symbol_in_spoils_production_and_deal():
    # Spoils (Razing Scrap Collector from hand), Production (Rag and Bone Man), Deal (Salvage Yard)
    game, eng, u = new_game(state={"Ann": {"hand": ["scrap_collector"], "state": ["rag_and_bone_man"],
                                           "deals": ["salvage_yard"], "goods": {"red_contact": 1}},
                                   "Bob": {"personal_discard": ["oil_rig", "iron_mine", "gun_shop"]}},
                            packs=["scavengers"])

    class Sc:
        def player_index(self, name):
            return 0

        def card_uid(self, name):
            return u[name]

    assert eng.step_raze(game, {"raze": "scrap_collector"}, Sc()).ok
    assert ids(game, "hand", 0) == ["gun_shop"]
    eng.phase_production(game)  # Production, then Deals
    assert ids(game, "hand", 0) == ["gun_shop", "iron_mine", "oil_rig"]
    assert ids(game, "personal_discard", 0) == ["scrap_collector"]


# --- S09: the icon-to-Good table ------------------------------------------------------------------

RULEBOOK_TABLE = {"blue": "blue_contact", "grey": "iron", "red": "gun", "orange": "brick", "green": "fuel",
                  "worker": "worker", "card": "card", "yellow": "token", "purple": "vp", "pale_green": None}


@pytest.mark.rule("S09")
def test_icon_to_good_table_is_data_with_the_two_least_certain_matches_marked():
    icons = compiled().vocab["icons"]
    assert {i: icons[i].get("good") for i in RULEBOOK_TABLE} == RULEBOOK_TABLE
    uncertain = sorted(i for i in RULEBOOK_TABLE if icons[i].get("uncertain"))
    assert uncertain == ["green", "yellow"]
    assert "round, multicoloured" in compiled().vocab["goods"]["token"]["name"]


@pytest.mark.rule("S09")
def test_the_reference_shows_the_uncertain_matches():
    from compiler.reference import game_view, render_game

    result = compile_tree(ROOT / "data", only={"fifty_first_state"})
    assert result.ok
    md = render_game(game_view(result, "fifty_first_state"), "md",
                     result.games["fifty_first_state"].vocab.source["icons"], with_clauses=False)
    table = md[md.index("Icons and the Goods they match"):]
    rows = {line.split("|")[1].strip(): line for line in table.splitlines() if line.startswith("| ")}
    assert "uncertain" in rows["Green [F]"] and "Fuel" in rows["Green [F]"]
    assert "uncertain" in rows["Yellow [Y]"] and "round, multicoloured" in rows["Yellow [Y]"]
    assert "uncertain" not in rows["Grey [I]"]


@pytest.mark.rule("S09")
@pytest.mark.parametrize("icon", sorted(RULEBOOK_TABLE))
def test_gain_and_spend_the_good_matching_each_icon(icon):
    good = RULEBOOK_TABLE[icon]
    gain = effect("choose 1 icon as i; gain 1 good matching i")
    spend = effect("choose 1 icon as i; spend 1 good matching i: gain 1 vp")
    game, eng, u = new_game(state={"Ann": {"hand": ["oil_rig"]}, "game": {"deck": ["monument"]}},
                            packs=["scavengers"], answers={"Ann": [icon, icon] + (["Oil Rig"] if good == "card" else [])})
    before = game.snapshot()
    out = eng.run(game, gain, 0)
    if good is None:  # pale green: no effect
        assert out.status == "refused" and game.snapshot() == before
        out = eng.run(game, spend, 0)
        assert out.status == "refused" and game.snapshot() == before
        return
    assert out.ok
    if good == "card":  # gained from the draw pile …
        assert ids(game, "hand", 0) == ["oil_rig", "monument"] and game.zone("deck") == []
    else:
        assert game.players[0].goods[good] == 1
    assert eng.run(game, spend, 0).ok
    if good == "card":  # … spent from your hand (discarded to your own pile)
        assert ids(game, "hand", 0) == ["monument"] and ids(game, "personal_discard", 0) == ["oil_rig"]
    elif good != "vp":
        assert game.players[0].goods[good] == 0
    assert game.players[0].goods["vp"] == 1


@pytest.mark.rule("S09")
def test_spending_a_card_you_do_not_have_is_refused_with_state_unchanged():
    game, eng, u = new_game(state={"Ann": {"goods": {"worker": 1}}}, packs=["scavengers"])
    before = game.snapshot()
    assert eng.run(game, effect("spend 1 card, 1 worker: gain 1 vp"), 0).status == "refused"
    assert game.snapshot() == before


# --- S10: choose an icon on a [symbol] card ---------------------------------------------------------

@pytest.mark.rule("S10")
def test_rulebook_example_scarlett_spends_a_worker_for_a_vp_via_megans_school():
    sc, run = run_scenario("scavengers_scouring_the_ruins")
    g = run.game
    assert g.players[0].goods["worker"] == 0 and g.players[0].goods["vp"] == 1
    assert ids(g, "personal_discard", 1) == ["oil_rig", "school"]  # the card stays where it is
    rec = compiled().cards["scouring_the_ruins"]
    assert rec["source"].startswith("rulebook 001_") and "[symbol]" in rec["text"]
    assert compiled().cards["school"]["icons"] == ["worker"]


@pytest.mark.rule("S10")
def test_icons_offered_are_those_on_other_players_top_cards_only():
    game, eng, u = new_game(state={"Ann": {"state": ["scouring_the_ruins"], "personal_discard": ["barracks"],
                                           "goods": {"gun": 1, "worker": 1, "fuel": 1}},
                                   "Bob": {"personal_discard": ["gun_shop", "school"]},
                                   "Cid": {"personal_discard": ["oil_rig"]}},
                            players=("Ann", "Bob", "Cid"), packs=["scavengers"], answers={"Ann": ["green"]})
    asked = []
    agent = game.agents[0]
    orig = agent.choose

    def spy(g, p, options, k=1, low=None, prompt=""):
        asked.append(list(options))
        return orig(g, p, options, k, low, prompt)

    agent.choose = spy
    before = game.snapshot()
    out = eng.use_action(game, 0, u["scouring_the_ruins"])
    # Bob's School (worker) and Cid's Oil Rig (green): not Bob's buried Gun Shop, not Ann's own Barracks
    assert asked == [["worker", "green"]]
    assert out.ok and before != game.snapshot()
    assert game.players[0].goods["fuel"] == 0 and game.players[0].goods["vp"] == 1


@pytest.mark.rule("S10")
def test_scouring_the_ruins_without_the_matching_good_is_refused_with_state_unchanged():
    game, eng, u = new_game(state={"Scarlett": {"state": ["scouring_the_ruins"]},
                                   "Megan": {"personal_discard": ["school"]}},
                            players=("Scarlett", "Megan"), packs=["scavengers"])
    before = game.snapshot()
    out = eng.use_action(game, 0, u["scouring_the_ruins"])
    assert out.status == "refused"
    assert game.snapshot() == before


# --- S11 / S12: Ruins ------------------------------------------------------------------------------

@pytest.mark.rule("S11")
def test_gaining_a_ruins_takes_the_top_card_of_the_deck_face_down_into_your_state():
    game, eng, u = new_game(state={"game": {"deck": ["oil_rig", "monument"]}}, packs=["scavengers"])
    assert eng.run(game, effect("gain 1 ruins"), 0).ok
    (uid,) = game.zone("state", 0)
    assert uid == u["monument"] and game.instances[uid].face == "ruins" and game.instances[uid].owner == 0
    assert "row" not in game.instances[uid].props
    assert eng.name_of(game, uid) == "a Ruins"  # what the others see
    assert eng.look_at_ruins(game, 0, uid) == "monument"  # its owner may look at the front
    with pytest.raises(Refused):
        eng.look_at_ruins(game, 1, uid)  # nobody else may


@pytest.mark.rule("S12")
def test_rebuilt_production_location_produces_at_once():
    sc, run = run_scenario("scavengers_ruins")
    g = run.game
    inst = g.instances[g.zone("state", 0)[-1]]
    assert inst.card_id == "refugee_camp" and inst.face == "front" and inst.props["row"] == "production"
    assert g.players[0].goods["worker"] == 1  # paid 1 for the Ruins, got 1 back at once


@pytest.mark.rule("S12")
def test_rebuilt_feature_location_does_not_produce_and_non_ruins_cannot_be_rebuilt():
    game, eng, u = new_game(state={"Ann": {"state": ["monument:ruins", "oil_rig"]}}, packs=["scavengers"])
    assert eng.run(game, effect("rebuild 1 of your ruins"), 0).ok
    assert game.instances[u["monument"]].props["row"] == "feature"
    assert game.players[0].goods["vp"] == 0
    before = game.snapshot()
    assert eng.run(game, effect("rebuild 1 of your ruins: gain 1 vp"), 0).status == "refused"
    assert game.snapshot() == before


@pytest.mark.rule("S12")
def test_a_rebuilt_card_is_active_again_its_action_can_be_used():
    game, eng, u = new_game(state={"Ann": {"state": ["barracks:ruins"], "goods": {"gun": 1, "worker": 1}}},
                            packs=["scavengers"])
    assert eng.use_action(game, 0, u["barracks"]).status == "refused"  # a Ruins has no Action
    eng.run(game, effect("rebuild 1 of your ruins"), 0)
    assert eng.use_action(game, 0, u["barracks"]).ok
    assert game.players[0].goods["vp"] == 1


# --- S13 / S14 -----------------------------------------------------------------------------------

@pytest.mark.rule("S13")
def test_pony_express_places_a_resource_of_any_type_on_each_of_up_to_three_ruins():
    sc, run = run_scenario("scavengers_pony_express")
    g = run.game
    on = {sc.names[n]: dict(g.instances[sc.names[n]].goods) for n in ("r1", "r2", "r3", "r4")}
    assert list(on.values()) == [{"fuel": 1}, {"gun": 1}, {"iron": 1}, {}]
    assert sum(g.players[0].goods.values()) == 0  # from the general supply, not Ann's


@pytest.mark.rule("S13")
def test_pony_express_with_fewer_ruins_places_on_those_only():
    game, eng, u = new_game(state={"Ann": {"state": ["pony_express", "oil_rig:ruins"]}}, packs=["scavengers"])
    assert eng.use_action(game, 0, u["pony_express"]).ok
    assert sum(game.instances[u["oil_rig"]].goods.values()) == 1


@pytest.mark.rule("S14")
def test_demolition_takes_spoils_and_deal_then_flips_to_ruins():
    sc, run = run_scenario("scavengers_demolition")
    g = run.game
    assert g.players[0].goods["brick"] == 3 and g.players[1].goods["brick"] == 0
    assert [g.instances[u].face for u in g.zone("state", 1)] == ["ruins"]
    faces = {g.instances[u].card_id: g.instances[u].face for u in g.zone("state", 0)}
    assert faces == {"demolition_mike": "front", "demolition_tommy": "front", "iron_mine": "ruins"}


@pytest.mark.rule("S14")
def test_demolition_with_no_target_is_refused_with_state_unchanged():
    game, eng, u = new_game(state={"Ann": {"state": ["demolition_mike"]}}, packs=["scavengers"])
    before = game.snapshot()
    assert eng.use_action(game, 0, u["demolition_mike"]).status == "refused"
    assert game.snapshot() == before


@pytest.mark.rule("S14")
def test_rulebook_named_cards_are_transcribed_with_the_rest_provisional():
    cards = compiled().cards
    for cid in ("scouring_the_ruins", "school", "pony_express", "demolition_mike", "demolition_tommy"):
        assert cards[cid]["source"] == "rulebook 001_98b215467e46d1ec.txt"
        assert cards[cid]["provisional"], cid
    yellow = [c for c, r in cards.items() if r.get("kind") == "connection"]
    assert len(yellow) == 6 and all(cards[c]["source"] == "example" for c in yellow)
    assert "action" not in cards["scouring_the_ruins"]["provisional"]  # printed (S10)



@pytest.mark.rule("S08")
def test_a_card_source_on_the_personal_discard_pile_is_rejected_and_refused():
    # A designer might declare a card source ("leftovers") that draws from a Personal Discard pile:
    # it would always be the player's own pile, so the checker rejects it, and the runtime refuses.
    import copy

    from runtime.context import Ctx
    from runtime.model import model_of
    from runtime.refs import CARD, Query

    vocab = copy.deepcopy(compiled().vocab)
    vocab.setdefault("card_sources", {})["leftovers"] = {"zone": "personal_discard"}
    ex = explain_effect("draw 1 leftovers", model_of(vocab))
    assert [d.code for d in ex.diags.errors] == ["E207"]
    game, eng, u = new_game(state={"Ann": {"personal_discard": ["oil_rig"]}}, packs=["scavengers"])
    game.vocab, game.model = vocab, model_of(vocab)  # the runtime reads the vocabulary's model
    before = game.snapshot()
    with pytest.raises(Refused, match="your own Personal Discard pile"):
        Ctx(game, 0).draw_cards(Query(CARD, "leftovers").with_amount(1), None, strict=False)
    assert game.snapshot() == before
