"""The machine: geometry, placement legality, power (I01–I09), through the compiled game."""
from __future__ import annotations

import pytest

from runtime.errors import Refused
from runtime.games.infernal_contraption import Move, is_plug, is_terminal, sockets_match


def play(t, card, anchor, side, machine=0, cost=0):
    return t.eng.play(t.game, Move("play", card, machine, anchor, side, cost))


@pytest.mark.rule("I01")
def test_main_line_grows_only_at_its_ends_and_nothing_attaches_to_a_plug(table):
    t = table()
    t.pile(0, 5)
    (core, shredder), top, bottom = t.machine(0, ["power_core", "scrap_shredder"], bottom={0: "spare_parts_crate"})
    boiler, boiler2, coil = t.hand(0, "steam_boiler", "steam_boiler", "amplifier_coil")
    g = t.game
    before = g.snapshot()
    # "right of" the Power Core is not an end any more: the shredder is
    out = play(t, coil, core, "right")
    assert out.status == "refused" and "left or right end" in out.reason
    # nothing attaches to a plug
    out = play(t, coil, bottom[0], "bottom")
    assert out.status == "refused" and "plug" in out.reason
    assert g.snapshot() == before
    # the left end takes a card whose right socket matches the core's left (steam pipe)
    assert play(t, boiler, core, "left").ok
    assert g.machines[0].main == [boiler, core, shredder]


@pytest.mark.rule("I01")
def test_terminals_are_cards_attached_at_one_socket(table):
    t = table()
    (boiler, core, shredder), top, bottom = t.machine(0, ["steam_boiler", "power_core", "scrap_shredder"],
                                                       top={1: "blasting_charge"})
    g = t.game
    assert is_terminal(g, boiler) and is_terminal(g, shredder) and is_terminal(g, top[1])
    assert not is_terminal(g, core)  # attached at three sockets
    assert is_plug(g, top[1]) and not is_plug(g, core)


@pytest.mark.rule("I02")
def test_six_card_types_in_the_vocabulary_and_the_deck(ic):
    kinds = {"power_core", "power_source", "contraption", "upgrade", "consumable", "sabotage"}
    assert set(ic.vocab["card_kinds"]) == kinds
    assert {c["kind"] for c in ic.cards.values()} == kinds
    names = {k: v["name"] for k, v in ic.vocab["card_kinds"].items()}
    assert names["power_source"] == "Power Source" and names["sabotage"] == "Sabotage"


@pytest.mark.rule("I02")
def test_example_deck_is_marked_and_covers_every_socket(ic):
    example = [c for c in ic.cards.values() if c.get("source") == "example"]
    assert sum(c.get("count", 1) for c in example) >= 40
    sockets = {s for c in ic.cards.values() for s in c["sockets"].values()}
    assert sockets == {"gears", "voltaic_coils", "steam_pipe", "alchemical_apparatus", "universal"}
    ep = ic.cards["entropic_processor"]
    assert ep["source"].startswith("rulebook 003_") and "sockets" in ep["provisional"]


@pytest.mark.rule("I03")
def test_power_core_never_leaves_and_counts_as_a_power_source(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 5)
    (core,), _, _ = t.machine(0, ["power_core"])
    # the Cog Hurler's bottom socket (coils) on the Power Core's top (Universal): a plug of the core
    (bcore,), top, _ = t.machine(1, ["power_core"], top={0: "cog_hurler"})
    hurler = top[0]
    g = t.game
    # the Power Core alone is attached at no socket; "scrap 1 terminal" never takes it
    out = t.eng.resolve(g, hurler, 1, 0)  # Bob's Cog Hurler: scrap 1 terminal in opponent's machine
    assert out == "done" and g.machines[0].main == [core]
    assert t.eng.powered(g, 1, hurler)  # the Power Core powers the Contraption attached to it
    with pytest.raises(Refused):
        g.move(core, ("scrap", None))
    assert g.where[core] == ("machine", 0)


@pytest.mark.rule("I03")
@pytest.mark.rule("I01")
def test_core_verbs_meet_the_machine_rules_too(table, ic):
    """Even a core verb aimed at a machine cannot move the Power Core or split the main line."""
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of

    def effect(text):
        ex = explain_effect(text, model_of(ic.vocab))
        assert not ex.diags.errors, [d.message for d in ex.diags]
        return effect_function(ex)

    t = table()
    t.pile(0, 5)
    t.pile(1, 5)
    (core,), _, _ = t.machine(0, ["power_core"])
    g = t.game
    before = g.snapshot()
    out = t.eng.run(g, effect("draw 1 card from your machine"), 0, opponent=1)
    assert out.status == "refused" and "Power Core" in out.reason
    assert g.snapshot() == before
    t = table()
    t.pile(0, 5)
    t.pile(1, 5)
    (core, shred, nozzle), _, _ = t.machine(0, ["power_core", "scrap_shredder", "grease_nozzle"])
    g = t.game
    g.zones[("machine", 0)].sort(key=lambda u: u != shred)  # make the middle card the "top" of the zone
    g.zones[("machine", 0)].reverse()
    out = t.eng.run(g, effect("give 1 card from your machine to opponent"), 0, opponent=1)
    assert out.status == "refused" and "terminal" in out.reason
    assert g.machines[0].main == [core, shred, nozzle] and g.check_conservation() == []


@pytest.mark.rule("I04")
def test_power_sources_power_attached_contraptions_in_main_line_or_as_plugs(table):
    t = table()
    (shred, boiler_far), top, bottom = t.machine(0, ["scrap_shredder", "grinding_maw"],
                                                 bottom={0: "tesla_dynamo"})
    g = t.game
    # the Tesla Dynamo as a bottom plug powers the Scrap Shredder; the Grinding Maw touches no source
    assert t.eng.powered(g, 0, shred)
    assert not t.eng.powered(g, 0, boiler_far)
    (s2, b2), _, _ = t.machine(1, ["scrap_shredder", "steam_boiler"])
    assert t.eng.powered(g, 1, s2)  # a Power Source in the main line powers its neighbour


@pytest.mark.rule("I05")
def test_unpowered_contraption_may_be_played_but_does_not_activate(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 6)
    # the Governor (an Upgrade, no Power Source) on the core's right: its left socket is Universal
    (core, governor), _, _ = t.machine(0, ["power_core", "governor"])
    grab, = t.hand(0, "parts_grabber")
    g = t.game
    # the Parts Grabber's left socket (steam pipe) fits the Governor's right (steam pipe): legal, unpowered
    assert play(t, grab, governor, "right").ok
    assert not t.eng.powered(g, 0, grab)
    t.eng.activate(g, 0, 1)
    assert len(g.zones[("parts_pile", 1)]) == 6  # nothing drawn
    assert len(g.zones[("hand", 0)]) == 0
    assert "Parts Grabber is not attached to a Power Source" in g.trace_text()


@pytest.mark.rule("I06")
@pytest.mark.rule("I16")
def test_upgrades_in_main_line_and_as_plug_need_no_power_and_modify_their_contraption(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 20)
    (core, shred), _, _ = t.machine(0, ["power_core", "scrap_shredder"])
    nozzle, hopper, spare = t.hand(0, "grease_nozzle", "feeder_hopper", "gremlin")
    g = t.game
    # main line: the Grease Nozzle's left socket (steam pipe) fits the Shredder's right (steam pipe)
    assert play(t, nozzle, shred, "right").ok
    # plug: the Feeder Hopper's bottom socket is Universal; the second play costs a card (I14)
    assert play(t, hopper, shred, "top", cost=spare).ok
    assert not t.eng.powered(g, 0, nozzle) and not t.eng.powered(g, 0, hopper)
    hand_before = len(g.zones[("hand", 0)])
    t.eng.activate(g, 0, 1)
    # Shredder scraps 2; the Nozzle (unpowered) adds 1 more; the Hopper draws 1 for Ann
    assert len(g.zones[("parts_pile", 1)]) == 17
    assert len(g.zones[("hand", 0)]) == hand_before + 1
    order = [e.text for e in g.log if e.verb == "upgrade"]
    assert order == ["Feeder Hopper upgrades Scrap Shredder", "Grease Nozzle upgrades Scrap Shredder"]


@pytest.mark.rule("I16")
def test_upgrade_repeat_makes_the_contraption_resolve_again(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 20)
    # Power Core | Governor | Steam Boiler | Parts Grabber (draw 2 from opponent's parts pile), the
    # sockets gears-Universal, steam-steam, steam-steam; an Amplifier Coil below the Grabber (the
    # coil's top socket is Universal). The main-line Governor touches no Contraption: it does nothing.
    (core, gov, boiler, grab), _, bottom = t.machine(0, ["power_core", "governor", "steam_boiler", "parts_grabber"],
                                                     bottom={3: "amplifier_coil"})
    g = t.game
    t.eng.activate(g, 0, 1)
    assert len(g.zones[("hand", 0)]) == 4 and len(g.zones[("parts_pile", 1)]) == 16


@pytest.mark.rule("I07")
def test_consumable_only_as_a_plug_on_a_power_source(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 9)
    (core, shred), _, _ = t.machine(0, ["power_core", "scrap_shredder"])
    charge, crate, other = t.hand(0, "blasting_charge", "spare_parts_crate", "gremlin")
    g = t.game
    before = g.snapshot()
    out = play(t, charge, shred, "right")
    assert out.status == "refused" and "only be played as a plug" in out.reason
    out = play(t, crate, shred, "top")  # Spare Parts Crate bottom: steam pipe; Shredder top: coils
    assert out.status == "refused"
    out = play(t, charge, shred, "bottom")  # socket fits (universal) but the Shredder is no Power Source
    assert out.status == "refused" and "Power Source" in out.reason
    assert g.snapshot() == before
    assert play(t, charge, core, "bottom").ok  # top socket coils on the core's bottom coils
    t.eng.activate(g, 0, 1)
    # Blasting Charge scraps 3, Shredder 2; then the Charge is removed from the game (I17)
    assert len(g.zones[("parts_pile", 1)]) == 4
    assert t.ids("removed", None) == ["blasting_charge"]
    assert g.machines[0].bottom == {}


@pytest.mark.rule("I08")
def test_sabotage_only_into_an_opponents_machine_needs_no_power(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 9)
    # the Steam Boiler's right socket (steam pipe) on the Power Core's left (steam pipe)
    (boiler, core), _, _ = t.machine(0, ["steam_boiler", "power_core"])
    (bcore, bshred), _, _ = t.machine(1, ["power_core", "scrap_shredder"])
    wrench, = t.hand(0, "monkey_wrench")
    g = t.game
    before = g.snapshot()
    out = play(t, wrench, core, "bottom", machine=0)
    assert out.status == "refused" and "opponent" in out.reason
    out = play(t, wrench, bshred, "right", machine=1)
    assert out.status == "refused"
    assert g.snapshot() == before
    # Monkey Wrench's top socket (coils) fits the Shredder's top? no: it goes below... top plug
    # touches with its bottom socket (alchemical) the anchor's top; the core's top is Universal.
    assert play(t, wrench, bcore, "top", machine=1).ok
    assert g.instances[wrench].owner == 1
    # Bob activates his machine: the Sabotage resolves with Bob as "you" (scrap 2 of his own pile)
    t.eng.activate(g, 1, 0)
    assert len(g.zones[("parts_pile", 1)]) == 9 - 2
    assert len(g.zones[("parts_pile", 0)]) == 5 - 2  # Bob's Shredder hits Ann
    assert t.ids("removed", None) == ["monkey_wrench"]


@pytest.mark.rule("I08")
@pytest.mark.rule("I17")
def test_a_sabotage_plugged_into_an_unpowered_card_still_resolves(table):
    """I08: Sabotages 'need no power'. The Monkey Wrench goes on top of Bob's Governor (an
    Upgrade, no Power Source): it is attached to no Power Source, and it still resolves when Bob's
    machine activates. If a Sabotage needed power, nothing would be scrapped and it would stay."""
    t = table()
    t.pile(0, 5)
    t.pile(1, 9)
    t.machine(0, ["power_core"])
    (bcore, bgov), _, _ = t.machine(1, ["power_core", "governor"])
    wrench, = t.hand(0, "monkey_wrench")
    g = t.game
    # the Wrench's bottom socket (alchemical apparatus) on the Governor's top (alchemical apparatus)
    assert play(t, wrench, bgov, "top", machine=1).ok
    assert g.machines[1].base[wrench] == (bgov, "top")
    assert not t.eng.powered(g, 1, wrench)  # attached only to the Governor
    t.eng.activate(g, 1, 0)
    assert len(g.zones[("parts_pile", 1)]) == 9 - 2   # the Wrench scrapped 2 of Bob's own pile
    assert t.ids("removed", None) == ["monkey_wrench"]  # and left play after resolving (I17)
    assert wrench not in g.machines[1].base


@pytest.mark.rule("I09")
def test_sockets_must_match_or_one_be_universal(table, ic):
    t = table()
    t.pile(0, 5)
    (core,), _, _ = t.machine(0, ["power_core"])
    arm, maw, shred = t.hand(0, "pilfering_arm", "grinding_maw", "scrap_shredder")
    g = t.game
    before = g.snapshot()
    # Power Core right socket: gears. Pilfering Arm left: voltaic coils → refused, state unchanged
    out = play(t, arm, core, "right")
    assert out.status == "refused" and "sockets" in out.reason
    assert g.snapshot() == before
    assert play(t, shred, core, "right").ok  # gears to gears
    t2 = table()
    t2.pile(0, 5)
    (c2,), _, _ = t2.machine(0, ["power_core"])
    maw2, = t2.hand(0, "grinding_maw")
    assert t2.eng.play(t2.game, Move("play", maw2, 0, c2, "right")).ok  # Universal fits gears
    assert sockets_match(0, 3) and sockets_match(2, 2) and not sockets_match(1, 2)
    assert set(ic.vocab["tables"]["sockets"]) == {"gears", "voltaic_coils", "steam_pipe",
                                                  "alchemical_apparatus", "universal"}


@pytest.mark.rule("I14")
@pytest.mark.rule("I09")
def test_legal_moves_agree_with_placement_rules_on_random_positions(eng, ic):
    """The fast enumeration lists exactly the plays that `placement_problem` allows."""
    from runtime.agents import SeededRandom

    checked = 0
    for seed in range(25):
        g = eng.new_game(ic, ["A", "B", "C"], seed=seed, agents={i: SeededRandom() for i in range(3)})
        g.tracing = False
        eng.begin_turn(g)
        for _ in range(12):
            if g.over:
                break
            moves = eng.legal_moves(g)
            p = g.turn_player
            plays = {(g.instances[m.card].card_id, m.machine, m.anchor, m.side) for m in moves if m.kind == "play"}
            brute = set()
            hand = g.zones[("hand", p)]
            if not g.refitted and (g.plays == 0 or len(hand) >= 2):
                seen = {}
                for uid in hand:
                    seen.setdefault(g.instances[uid].card_id, uid)
                for cid, uid in seen.items():
                    for owner in g.active_players():
                        for anchor in g.machines[owner].cards():
                            for side in ("left", "right", "top", "bottom"):
                                if eng.placement_problem(g, p, uid, owner, anchor, side) is None:
                                    brute.add((cid, owner, anchor, side))
            assert plays == brute
            checked += 1
            eng.take_decision(g)
    assert checked > 100


@pytest.mark.rule("I16")
def test_an_upgrade_between_two_contraptions_applies_to_both(table):
    t = table()
    t.pile(0, 5)
    t.pile(1, 20)
    # Power Core | Scrap Shredder | Grease Nozzle | Scrap Shredder: the Nozzle's right socket (gears)
    # fits a Shredder's left (gears). Both Shredders are powered by Tesla Dynamo plugs below them.
    (core, s1, nozzle, s2), _, bottom = t.machine(
        0, ["power_core", "scrap_shredder", "grease_nozzle", "scrap_shredder"],
        bottom={1: "tesla_dynamo", 3: "tesla_dynamo"})
    g = t.game
    assert t.eng.powered(g, 0, s1) and t.eng.powered(g, 0, s2) and not t.eng.powered(g, 0, nozzle)
    t.eng.activate(g, 0, 1)
    # each Shredder 2 + the Nozzle once per Shredder 1 + each Dynamo 1
    assert len(g.zones[("parts_pile", 1)]) == 20 - (2 + 1) * 2 - 2
    assert [e.text for e in g.log if e.verb == "upgrade"] == ["Grease Nozzle upgrades Scrap Shredder"] * 2


@pytest.mark.rule("I10")
def test_no_card_counts_a_hidden_pile(ic):
    """Nobody may count a parts pile or the scrap pile (I10): no effect or requirement of the game's
    data counts cards in a zone marked hidden (drawing from or scrapping them is fine)."""
    from dataclasses import fields, is_dataclass

    from compiler import ast as A
    from compiler.parser import parse_effect

    hidden = {name.replace("_", " ") for name, z in ic.vocab["zones"].items() if z.get("hidden")}
    hidden |= {a for z in ic.vocab["zones"].values() if z.get("hidden") for a in z.get("aliases", [])}

    def counted(node, inside=False):
        if isinstance(node, (list, tuple)):
            return any(counted(n, inside) for n in node)
        if not is_dataclass(node):
            return False
        if isinstance(node, A.Ref) and inside and node.noun.text in hidden:
            return True
        inside = inside or isinstance(node, (A.Count, A.Exists, A.Compare))
        return any(counted(getattr(node, f.name), inside) for f in fields(node))

    texts = [(cid, slot, text) for cid, rec in ic.cards.items() for slot, text in rec["texts"].items()]
    assert len(texts) > 20
    for cid, slot, text in texts:
        effect, problem = parse_effect(("requires " if slot == "requires" else "") + text)
        assert problem is None
        assert not counted(effect), f"{cid}.{slot} counts a hidden pile: {text}"
    effect, _ = parse_effect("requires 2 cards in opponent's parts pile")
    assert counted(effect)  # the guard can fail


@pytest.mark.rule("I14")
def test_every_listed_play_passes_the_checks_a_listed_move_skips(eng, ic):
    """ICMatch applies a listed move with ``listed=True``, which skips ``_play_problem``: every play
    the listing offers, in every state of seeded random games, is one that check lets through."""
    from runtime.agents import SeededRandom

    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        match = eng.new_match(ic, [f"P{i}" for i in range(players)], seed=seed,
                              agents={i: SeededRandom() for i in range(players)})
        g = match.game
        while not match.terminal() and g.turn < 80:
            legal = match.legal_moves()
            for m in legal:
                if m.key.kind == "play":
                    assert eng._play_problem(g, g.turn_player, m.key) is None
                    checked += 1
            match.apply(g.agent(match.to_act()).pick(match, legal))
    assert checked > 1000
