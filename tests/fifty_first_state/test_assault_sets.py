"""The read and write sets the Assault search carries trials with (assault_sets.py) are held to what
the trials really read and write: at every Assault of seeded random games (Moloch at each difficulty,
2 to 4 players, and both State Packs), each bundled Assault's every variant is run again from a copy
of the state changed at random *outside* what the variant says it reads — other players' and other
Goods, the order of other zones, other cards' faces and Goods, the Goods on cards a selector passed
over — and must come out the same: the same choice points, targets, units and notes, and the state
after it must be the changed state patched with the variant's fingerprint patch. No timing."""
from __future__ import annotations

import random

import pytest

from runtime.games.fifty_first_state import moloch
from runtime.games.fifty_first_state.assault_sets import (
    EVERYTHING,
    NOTHING,
    Touches,
    effect_reads,
    trial_writes,
)
from runtime.simulate import play_one
from runtime.statecopy import peek

from .helpers import compiled

CONFIGS = [(players, (("packs", ("moloch",)), ("difficulty", level)))
           for level in ("recruit", "private", "veteran") for players in (2, 3, 4)] + [(3, ())]


def _outcome(trial, got):
    return (trial.points, trial.taken, trial.picked, trial.notes, trial.wanted, trial.resolved, got)


def _changed_outside(state, reads: Touches, listing_zones: frozenset, rng: random.Random):
    """A copy of ``state`` with everything outside ``reads`` changed at random (what a trial that
    reads only ``reads`` cannot tell apart)."""
    twin = state.copy(agents={})
    goods = sorted(twin.model.goods)
    for i, p in enumerate(twin.players):
        for good in goods:
            if (i, good) not in reads.goods and rng.random() < 0.5:
                p.goods[good] = rng.randrange(0, 6)
    for key, cards in twin.zones.items():
        if key not in reads.zones and len(cards) > 1:
            rng.shuffle(cards)  # another order; ``where`` (uid -> zone) is unchanged
    for uid in sorted(twin.where):
        if uid in reads.cards:
            continue
        inst = twin.instances[uid]
        if twin.where[uid] not in listing_zones and rng.random() < 0.3:
            inst.face = rng.choice(("front", "ruins", "hacked"))  # a card no selector lists from here
        if rng.random() < 0.3:
            inst.goods[rng.choice(goods)] += 1
    return twin


@pytest.mark.rule("M04")
@pytest.mark.parametrize("players,options", CONFIGS)
def test_a_variant_reads_nothing_outside_its_read_set(monkeypatch, players, options):
    rng = random.Random(f"{players}{options}")
    checked = {"variants": 0, "carryable": 0}
    fast_plans = moloch.AssaultSearch.plans

    def plans(search):
        start = search.root.copy(agents={})
        fp = start.fingerprint()
        probe = moloch.AssaultSearch(search.engine, start, search.player, list(search.machines), search.budget)
        probe.uids, probe.position = fp[2][0], {u: i for i, u in enumerate(fp[2][0])}
        step = moloch._Step(fp, start, None)
        for uid in dict.fromkeys(search.machines):
            if probe.reads[uid] is None:
                continue
            for v in probe.variants(step, uid, {}):
                checked["variants"] += 1
                if v.twin is not None:  # the fingerprint after it, patched, is the copy's own
                    assert v.after == v.twin.fingerprint(), (uid, v.script)
                if v.reads.everything:
                    continue
                checked["carryable"] += 1
                listing = frozenset().union(*(z for _, z in v.listings)) if v.listings else frozenset()
                for _ in range(2):
                    other = _changed_outside(start, v.reads, listing, rng)
                    before = other.fingerprint()
                    twin, trial, got = probe.run_one(other, uid, v.script, counted=False)
                    assert _outcome(trial, got) == _outcome(v.trial, v.got), (uid, v.script)
                    assert twin.fingerprint() == v.patch.patched(before), (uid, v.script)
                    # the writes read off a copy give its fingerprint on these states too
                    for w in probe.variants(moloch._Step(before, other, None), uid, {}):
                        assert w.twin is None or w.after == w.twin.fingerprint(), (uid, w.script)
        return fast_plans(search)

    monkeypatch.setattr(moloch.AssaultSearch, "plans", plans)
    for index in range(2):
        play_one(("fifty_first_state", None, players, 41, index, "random", 400, False, None, options, False))
    assert checked["carryable"] > 0, checked


def test_every_bundled_assault_has_a_read_set():
    """Each bundled Machine's Assault is one the search can carry: its statements are all known."""
    from .helpers import new_game
    game, _, uids = new_game(state={"game": {"deployed": [cid for cid, rec in sorted(compiled().cards.items())
                                                           if "assault" in rec.get("slots", {})]}})
    for name, uid in uids.items():
        fn = game.cards[peek(game.instances, uid).card_id]["slots"]["assault"]
        reads = effect_reads(game, fn, 0, uid)
        assert reads is not None, name
        assert uid in reads.at(game).cards  # the Machine's own card (its face is in the notes)


def test_touches_meet_only_on_a_shared_part():
    a = Touches(frozenset({("state", 0)}), frozenset({1, 2}), frozenset({(0, "fuel")}))
    assert not a.meets(Touches(frozenset({("hand", 0)}), frozenset({3}), frozenset({(0, "vp")})))
    assert a.meets(Touches(cards=frozenset({2})))
    assert a.meets(Touches(goods=frozenset({(0, "fuel")})))
    assert a.meets(Touches(zones=frozenset({("state", 0)})))
    assert a.meets(EVERYTHING) and EVERYTHING.meets(NOTHING)
    assert not a.meets(NOTHING)
    assert (a | EVERYTHING).everything


def test_a_step_that_adds_a_card_writes_everything():
    from .helpers import new_game
    game, _, _ = new_game(state={"Ann": {"hand": ["oil_rig"]}})
    start = game.copy(agents={})
    fp = start.fingerprint()
    twin = start.copy(agents={})
    twin.create("oil_rig", twin.zone_key("hand", 0))
    writes, patch, after = trial_writes(start, fp, twin, {u: i for i, u in enumerate(fp[2][0])}, fp[2][0])
    assert writes.everything and patch is None and after == twin.fingerprint()


def test_a_raze_reads_what_its_deal_gains_even_when_nothing_is_gained():
    """A Deal's gain is capped by what the player holds (MAX_HELD): at the cap it writes nothing, yet
    what it does depends on the Goods held — the variant must read them (``deal_reads``)."""
    from runtime.context import MAX_HELD

    _, _, uids, variants = _first_variants({"Ann": {"state": ["brick_supplier"], "goods": {"brick": MAX_HELD}},
                                            "game": {"deployed": ["mother"]}}, "mother")
    (v,) = variants
    assert v.trial.picked == [(uids["brick_supplier"],)]
    assert (0, "brick") not in v.writes.goods  # at the cap: nothing gained ...
    assert (0, "brick") in v.reads.goods       # ... and what is held was read


def _first_variants(state_spec, machine):
    from .helpers import new_game
    game, eng, uids = new_game(state=state_spec)
    search = moloch.AssaultSearch(eng, game, 0, [uids[machine]])
    start = game.copy(agents={})
    fp = start.fingerprint()
    search.uids, search.position = fp[2][0], {u: i for i, u in enumerate(fp[2][0])}
    return search, start, uids, search.variants(moloch._Step(fp, start, None), uids[machine], {})


@pytest.mark.rule("M04")
@pytest.mark.parametrize("razed", ["scrap_pile", "mother:hacked"])
def test_a_raze_that_takes_from_the_deck_reads_the_deck_top_and_nothing_more(razed):
    """A Deal that draws (Scrap Pile: "gain 1 card") and a Hacked card's Ruins (M12) take the Deck's
    top card: the variant reads the Deck (its order, its top card) and the hand drawn into — not
    *everything* — and run again on states changed at random outside that, it comes out the same."""
    search, start, uids, variants = _first_variants(
        {"Ann": {"state": [razed, "brick_supplier"], "hand": ["oil_rig"]},
         "game": {"deployed": ["scorcher"], "deck": ["oil_rig", "scrap_pile", "brick_supplier"]}}, "scorcher")
    picked = [v.trial.picked for v in variants]
    razed_uid = uids[razed.split(":")[0]]
    (v,) = [v for v in variants if v.trial.picked == [(razed_uid,)]]
    deck_key, hand_key = start.zone_key("deck", None), start.zone_key("hand", 0)
    assert not v.reads.everything, picked
    assert deck_key in v.reads.zones and start.zones[deck_key][-1] in v.reads.cards
    if razed == "scrap_pile":
        assert hand_key in v.reads.zones
    rng = random.Random(razed)
    listing = frozenset().union(*(z for _, z in v.listings))
    for _ in range(20):
        other = _changed_outside(start, v.reads, listing, rng)
        before = other.fingerprint()
        twin, trial, got = search.run_one(other, uids["scorcher"], v.script, counted=False)
        assert _outcome(trial, got) == _outcome(v.trial, v.got)
        assert twin.fingerprint() == v.patch.patched(before)


@pytest.mark.rule("M04")
def test_a_raze_that_may_empty_the_deck_reads_everything():
    """With fewer cards in the Deck than the razes take, the Deck is refilled by a shuffle of the
    discard pile with the game's generator (engine.refill): not a read set this module knows."""
    search, start, uids, variants = _first_variants(
        {"Ann": {"state": ["scrap_pile", "mother:hacked"]},
         "game": {"deployed": ["scorcher"], "deck": ["oil_rig"], "discard": ["brick_supplier"]}}, "scorcher")
    both = [v for v in variants if len(v.trial.picked[0]) == 1]
    assert both and all(not v.reads.everything for v in both)  # one card each: the Deck holds it
    search, start, uids, variants = _first_variants(
        {"Ann": {"state": ["scrap_pile"]},
         "game": {"deployed": ["scorcher"], "discard": ["brick_supplier"]}}, "scorcher")
    (v,) = [v for v in variants if v.trial.picked == [(uids["scrap_pile"],)]]
    assert v.reads.everything


@pytest.mark.rule("M04")
@pytest.mark.parametrize("players,options", CONFIGS)
def test_the_reads_a_search_finds_once_a_game_are_the_reads_found_afresh(monkeypatch, players, options):
    """``effect_reads`` reads no state (the effect's constant selectors, the game model's zones): a
    game finds each Machine's reads for each player once (``FiftyGame.effect_reads``, shared with its
    copies) — at every search of seeded games they are the reads found afresh on the search's state."""
    checked = []
    fast_plans = moloch.AssaultSearch.plans

    def plans(search):
        for uid, reads in search.reads.items():
            assert reads == effect_reads(search.root.copy(agents={}), search.effect[uid], search.player, uid)
            checked.append(reads)
        return fast_plans(search)

    monkeypatch.setattr(moloch.AssaultSearch, "plans", plans)
    for index in range(2):
        play_one(("fifty_first_state", None, players, 47, index, "random", 400, False, None, options, False))
    assert checked and any(r is not None for r in checked)


def test_a_copy_shares_the_games_effect_reads():
    from .helpers import new_game
    game, _, _ = new_game()
    game.effect_reads[("a", "key")] = None
    assert game.copy(agents={}).effect_reads is game.effect_reads
