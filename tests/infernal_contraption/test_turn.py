"""Setup, the turn and the end of the game (I10–I15, I17–I19), through the compiled game."""
from __future__ import annotations

from collections import Counter

import pytest

from runtime.agents import FirstLegal, Scripted, SeededRandom
from runtime.games.infernal_contraption import END, Move

PLAYERS = ["Ann", "Bob", "Cid"]

# A legal machine with a powered Parts Grabber: Power Core (right: gears) | Governor (left:
# Universal, right: steam pipe) | Steam Boiler (steam pipe both sides) | Parts Grabber (left: steam pipe).
POWERED_GRABBER = ["power_core", "governor", "steam_boiler", "parts_grabber"]


@pytest.mark.rule("I10")
def test_setup_cores_piles_hands_and_first_player(eng, ic):
    g = eng.new_game(ic, PLAYERS, seed=3, agents={i: FirstLegal() for i in range(3)})
    deck = Counter({cid: rec.get("count", 1) for cid, rec in ic.cards.items()})
    cores = sum(n for cid, n in deck.items() if ic.cards[cid]["kind"] == "power_core")
    others = sum(deck.values()) - cores
    per = others // 3
    for p in range(3):
        m = g.machines[p]
        assert len(m.main) == 1 and g.kind_of[m.main[0]] == "power_core"  # a Power Core in play
        assert len(g.zones[("hand", p)]) == 7
        # FirstLegal scraps the whole opening hand in the one-time mulligan and draws 7 again
        assert len(g.zones[("parts_pile", p)]) == per - 14
    box = g.zones[("box", None)]
    assert sorted(g.instances[u].card_id for u in box if g.kind_of[u] == "power_core") == ["power_core"] * (cores - 3)
    assert len([u for u in box if g.kind_of[u] != "power_core"]) == others - 3 * per  # extras out
    assert len(g.zones[("scrap", None)]) == 21  # the mulligans
    assert g.check_conservation() == []
    firsts = {eng.new_game(ic, PLAYERS, seed=s).first_player for s in range(12)}
    assert firsts == {0, 1, 2}  # random (seeded) first player
    assert eng.new_game(ic, PLAYERS, seed=5).first_player == eng.new_game(ic, PLAYERS, seed=5).first_player


@pytest.mark.rule("I10")
def test_mulligan_is_once_and_optional(eng, ic):
    keep = Scripted([None, None])  # scrap nothing from the opening hand
    g = eng.new_game(ic, ["Ann", "Bob"], seed=1, agents={0: keep, 1: Scripted([None])})
    assert len(g.zones[("scrap", None)]) == 0
    assert all(len(g.zones[("hand", p)]) == 7 for p in range(2))
    mull = [e for e in g.log if e.verb == "scrap"]
    assert len(mull) == 2  # one mulligan decision per player, no more


@pytest.mark.rule("I11")
def test_draws_from_the_top_scraps_on_top_removed_set_aside(table):
    t = table()
    a, b, c = t.pile(1, 1, "gremlin") + t.pile(1, 1, "voltaic_pile") + t.pile(1, 1, "feeder_hopper")
    t.pile(0, 3)
    (core, _, _, grab), _, _ = t.machine(0, POWERED_GRABBER, top={0: "blasting_charge"})
    g = t.game
    t.eng.activate(g, 0, 1)
    # Blasting Charge scraps Bob's top three... of three: Bob is out; nothing else matters
    assert g.players[1].out
    assert [g.instances[u].card_id for u in g.zones[("scrap", None)]] == ["feeder_hopper", "voltaic_pile", "gremlin"]
    assert g.zones[("scrap", None)][-1] == a  # last scrapped (the bottom card) is on top
    assert t.ids("removed", None) == ["blasting_charge"]  # set aside, not scrapped
    t2 = table()
    t2.pile(1, 1, "gremlin")
    top = t2.pile(1, 1, "voltaic_pile")[0]
    t2.pile(0, 3)
    t2.machine(0, POWERED_GRABBER)
    t2.eng.activate(t2.game, 0, 1)
    assert t2.game.zones[("hand", 0)][0] == top  # the first card drawn is the top one


@pytest.mark.rule("I12")
def test_elimination_removes_hand_and_machine_and_last_player_wins(table):
    t = table(players=("Ann", "Bob", "Cid"), agents={0: Scripted(["Cid"])})
    t.pile(0, 5)
    t.pile(1, 2)
    t.pile(2, 9)
    t.hand(1, "gremlin", "gremlin")
    t.machine(1, ["power_core", "scrap_shredder"])
    t.machine(2, ["power_core"])
    (core, shred, nozzle), _, _ = t.machine(0, ["power_core", "scrap_shredder", "grease_nozzle"])
    g = t.game
    t.eng.activate(g, 0, 1)
    # Shredder scraps Bob's last 2: Bob is out at once; the card resolving stops (its Grease Nozzle
    # would have hit Bob), Ann chooses Cid and her activation goes on with the next card
    assert g.players[1].out and not g.over
    assert g.zones[("hand", 1)] == [] and g.zones[("machine", 1)] == [] and g.machines[1].main == []
    assert t.ids("removed", None) == ["gremlin", "gremlin", "power_core", "scrap_shredder"]
    assert "chooses Cid as the new opponent" in g.trace_text()
    assert len(g.zones[("parts_pile", 2)]) == 9  # the Nozzle (an Upgrade) does not resolve alone
    assert g.check_conservation() == []


@pytest.mark.rule("I12")
def test_machine_with_no_opponents_left_stops_at_once(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 2)
    (core, shred, _), top, _ = t.machine(0, ["power_core", "scrap_shredder", "grease_nozzle"],
                                         top={1: "feeder_hopper"}, bottom={0: "spare_parts_crate"})
    g = t.game
    t.eng.activate(g, 0, 1)
    assert g.over and g.winner == 0 and g.players[1].out
    # the Shredder emptied Bob's pile: its Feeder Hopper and Grease Nozzle never applied
    assert "upgrades" not in g.trace_text()
    assert g.trace_text().splitlines()[-1] == "Ann: the machine stops: no opponents are left"


@pytest.mark.rule("I13")
@pytest.mark.parametrize("hand,pile,drawn", [(0, 10, 7), (1, 10, 4), (3, 10, 4), (4, 10, 0), (0, 3, 3)])
def test_draw_step_from_data(table, hand, pile, drawn):
    t = table()
    t.pile(0, pile)
    t.pile(1, 5)
    t.add("gremlin", "hand", 0, hand) if hand else None
    g = t.game
    t.eng.run_rule(g, "draw_step", 0)
    assert len(g.zones[("hand", 0)]) == (hand + drawn if not g.players[0].out else 0)
    assert len(g.zones[("parts_pile", 0)]) == pile - drawn
    if pile - drawn == 0:
        assert g.players[0].out and g.over and g.winner == 1  # the draw emptied the pile (I12)


@pytest.mark.rule("I13")
def test_draw_step_is_effect_language_data(ic):
    assert "rule__draw_step" == ic.rules["draw_step"].__name__
    assert ic.rules["cleanup"].__module__.endswith("infernal_contraption.rules")


@pytest.mark.rule("I14")
def test_one_free_play_then_each_costs_a_scrapped_card(table):
    t = table()
    t.pile(0, 10)
    t.pile(1, 10)
    (core,), _, _ = t.machine(0, ["power_core"])
    shred, boiler, gremlin = t.hand(0, "scrap_shredder", "steam_boiler", "gremlin")
    g = t.game
    assert t.eng.play(g, Move("play", shred, 0, core, "right")).ok
    assert len(g.zones[("scrap", None)]) == 0  # the first play is free
    assert t.eng.play(g, Move("play", boiler, 0, core, "left", gremlin)).ok
    assert t.ids("scrap", None) == ["gremlin"]  # the second cost a card, scrapped first
    assert g.plays == 2


@pytest.mark.rule("I14")
def test_extra_play_without_a_card_to_scrap_is_refused(table):
    t = table()
    t.pile(0, 10)
    (core,), _, _ = t.machine(0, ["power_core"])
    shred, boiler = t.hand(0, "scrap_shredder", "steam_boiler")
    g = t.game
    assert t.eng.play(g, Move("play", shred, 0, core, "right")).ok
    before = g.snapshot()
    out = t.eng.play(g, Move("play", boiler, 0, core, "left"))
    assert out.status == "refused" and "scrapping another card" in out.reason
    assert g.snapshot() == before
    assert [m for m in t.eng.legal_moves(g) if m.kind == "play"] == []


@pytest.mark.rule("I14")
def test_scrap_n_draw_n_instead_of_playing(table):
    t = table()
    t.pile(0, 10)
    t.pile(1, 10)
    (core,), _, _ = t.machine(0, ["power_core"])
    a, b, c = t.hand(0, "gremlin", "gremlin", "scrap_shredder")
    g = t.game
    assert t.eng.refit(g, Move("refit", cards=(a, b))).ok
    assert len(g.zones[("hand", 0)]) == 3 and len(g.zones[("parts_pile", 0)]) == 8
    assert t.ids("scrap", None) == ["gremlin", "gremlin"]
    before = g.snapshot()
    out = t.eng.play(g, Move("play", c, 0, core, "right"))
    assert out.status == "refused" and "instead of playing" in out.reason
    assert g.snapshot() == before
    assert t.eng.legal_moves(g) == [END]
    t2 = table()
    t2.pile(0, 10)
    t2.pile(1, 10)
    (c2,), _, _ = t2.machine(0, ["power_core"])
    s2, g2 = t2.hand(0, "scrap_shredder", "gremlin")
    assert t2.eng.play(t2.game, Move("play", s2, 0, c2, "right")).ok
    out = t2.eng.refit(t2.game, Move("refit", cards=(g2,)))
    assert out.status == "refused"  # not after playing


@pytest.mark.rule("I15")
def test_choose_an_opponent_before_activation(eng, ic):
    g = eng.new_game(ic, PLAYERS, seed=2, agents={i: Scripted([None], fallback=FirstLegal()) for i in range(3)})
    p = g.turn_player
    others = [g.players[o].name for o in g.others(p)]
    g.agents[p] = Scripted([others[1]])
    eng.begin_turn(g)
    eng.apply(g, END)
    assert f"turns the machine on against {others[1]}" in g.trace_text()


@pytest.mark.rule("I17")
def test_one_shot_cards_removed_not_scrapped_unless_unmet(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 9)
    # Salvage Kit requires 2 terminals in the opponent's machine: Bob has one (his Shredder)
    (core,), top, bottom = t.machine(0, ["power_core"], top={0: "salvage_kit"}, bottom={0: "spare_parts_crate"})
    t.machine(1, ["power_core", "scrap_shredder"])
    g = t.game
    t.eng.activate(g, 0, 1)
    assert t.ids("removed", None) == ["spare_parts_crate"]
    assert t.ids("scrap", None) == []
    assert g.machines[0].top == {core: top[0]}  # the unmet Consumable stays in play (I18)


@pytest.mark.rule("I18")
def test_unmet_contraption_requirement_stops_its_upgrades(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 9)
    # Overflow Valve requires a card in the opponent's hand; Bob has none. Its Feeder Hopper plug
    # would draw Ann a card if the Valve resolved.
    (core, valve), _, _ = t.machine(0, ["power_core", "overflow_valve"], top={1: "feeder_hopper"})
    g = t.game
    t.eng.activate(g, 0, 1)
    assert len(g.zones[("hand", 0)]) == 0
    assert "Overflow Valve: requirement not met" in g.trace_text()


@pytest.mark.rule("I18")
def test_entropic_processor_rulebook_examples(table):
    # no card in hand: nothing happens (not even the draw)
    t = table()
    t.pile(0, 3)
    t.pile(1, 5)
    t.machine(0, ["power_core", "entropic_processor"])
    t.machine(1, ["power_core"])
    g = t.game
    before = g.snapshot()
    t.eng.activate(g, 0, 1)
    after = g.snapshot()
    assert after["zones"] == before["zones"]
    # one card left in the opponent's parts pile: you get that one
    t = table()
    t.pile(0, 3)
    last = t.pile(1, 1, "voltaic_pile")[0]
    mine = t.hand(0, "gremlin")[0]
    t.machine(0, ["power_core", "entropic_processor"])
    t.machine(1, ["power_core"])
    g = t.game
    t.eng.activate(g, 0, 1)
    assert g.zones[("hand", 0)] == [last]
    assert g.players[1].out and g.where[mine] == ("removed", None)  # given to Bob, removed with his hand


@pytest.mark.rule("I19")
@pytest.mark.parametrize("hand,after", [(0, 7), (5, 7), (7, 7), (9, 9), (12, 10), (15, 10)])
def test_cleanup_from_data(table, hand, after):
    t = table()
    t.pile(0, 20)
    t.pile(1, 5)
    if hand:
        t.add("gremlin", "hand", 0, hand)
    g = t.game
    t.eng.run_rule(g, "cleanup", 0)
    assert len(g.zones[("hand", 0)]) == after
    assert len(g.zones[("scrap", None)]) == max(0, hand - 10)
    assert len(g.zones[("parts_pile", 0)]) == 20 - max(0, 7 - hand)


def test_whole_games_end_with_a_winner_or_the_cap(eng, ic):
    for seed in range(20):
        g = eng.new_game(ic, ["A", "B"], seed=seed, agents={0: SeededRandom(), 1: SeededRandom()})
        g.tracing = False
        eng.play_game(g, turn_cap=200)
        assert g.over or g.capped
        if g.over:
            assert g.winner is not None and [p.index for p in g.players if not p.out] == [g.winner]


@pytest.mark.rule("I16")
@pytest.mark.rule("I18")
def test_an_upgrades_own_requirement_gates_only_that_upgrade(table):
    # Governor (repeat) requires 3 cards in your hand, checked when it applies: after the
    # Grabber's own draw of 2 (decision: docs/decisions.md)
    for hand, drawn in ((0, 2), (1, 4)):
        t = table()
        t.pile(0, 5)
        t.pile(1, 20)
        if hand:
            t.add("gremlin", "hand", 0, hand)
        # Parts Grabber (draw 2 from opponent's parts pile) with a Governor plug above it
        # (the main-line Governor touches only the core and the boiler, no Contraption: it does nothing)
        t.machine(0, POWERED_GRABBER, top={3: "governor"})
        g = t.game
        t.eng.activate(g, 0, 1)
        assert len(g.zones[("hand", 0)]) == hand + drawn
        assert len(g.zones[("parts_pile", 1)]) == 20 - drawn


@pytest.mark.rule("I18")
@pytest.mark.rule("I08")
def test_unmet_sabotage_stays_in_play(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 5)
    # Butterfingers requires a card in your hand; Bob (whose machine it sits in) has none
    (core,), top, _ = t.machine(1, ["power_core"], top={0: "butterfingers"})
    t.machine(0, ["power_core"])
    g = t.game
    t.eng.activate(g, 1, 0)
    assert g.machines[1].top == {core: top[0]}
    assert t.ids("removed", None) == []
