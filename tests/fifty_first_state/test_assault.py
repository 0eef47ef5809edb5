"""Moloch Assault: efficient resolution (M04), Razing with Deal Goods (M05), the named Machines (M21)."""
from __future__ import annotations

import pytest

from runtime.games.fifty_first_state.matching import Demand, best_assignments, max_matching

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
    assert choice.size == 2
    assert choice.targets((u["juggernaut"], 0)) == (u["brick_storage"],)
    assert choice.targets((u["mother"], 0)) == (u["brick_supplier"],)


@pytest.mark.rule("M04")
def test_agent_chooses_among_equally_efficient_assignments():
    # Two green Locations, one Mother: two equally efficient assignments; the script picks the second.
    game, eng, u = new_game(state={"Ann": {"state": ["oil_rig", "oil_rig"]}, "game": {"deployed": ["mother"]}},
                            answers={"Ann": ["Mother razes: Oil Rig"]})
    before = [g.face for g in game.instances.values()]
    assert before.count("ruins") == 0
    pack(game).assault(eng, game, 0)
    faces = [game.instances[x].face for x in (u["oil_rig"], u["oil_rig#2"])]
    assert sorted(faces) == ["front", "ruins"]


@pytest.mark.rule("M04")
def test_unresolvable_effect_is_ignored():
    game, eng, u = new_game(state={"Ann": {"state": ["iron_mine"]}, "game": {"deployed": ["mother", "juggernaut"]}})
    snap = game.snapshot()["cards"][u["iron_mine"]]
    pack(game).assault(eng, game, 0)
    assert game.snapshot()["cards"][u["iron_mine"]] == snap
    assert "efficient Assault: 0 of 2 targeted effects can resolve" in game.trace_text()


@pytest.mark.rule("M04")
def test_matching_finds_maximum_and_lists_only_maximum_assignments():
    d = [Demand("J", ("S", "T"), 1, "J"), Demand("M", ("S",), 1, "M")]
    assert max_matching(d) == 2
    best = best_assignments(d)
    assert [a.picks for a in best] == [(("J", ("T",)), ("M", ("S",)))]
    # a two-target effect and a one-target effect over three cards
    d = [Demand("A", ("x", "y", "z"), 2), Demand("B", ("x",), 1)]
    assert max_matching(d) == 3
    assert all(a.size == 3 for a in best_assignments(d))
    assert {a.targets("B") for a in best_assignments(d)} == {("x",)}


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
    assert "2 of 2 targeted effects can resolve" in g.trace_text()


@pytest.mark.rule("M04")
def test_assault_planning_leaves_the_real_game_untouched_until_execution():
    game, eng, u = new_game(state={"Ann": {"goods": {"fuel": 3}, "state": ["oil_rig"]},
                                   "game": {"deployed": ["leech", "mother"]}})
    twin = eng.sandbox(game)
    assert twin is not game and twin.snapshot() == game.snapshot()
    twin.players[0].goods["fuel"] = 0
    assert game.players[0].goods["fuel"] == 3


def _brute_max(demands):
    """The largest number of distinct targets any assignment reaches (exhaustive, tiny sets only)."""
    from itertools import combinations

    found: dict = {}

    def go(i, used, picks, size):
        if i == len(demands):
            found.setdefault(size, set()).add(tuple(picks))
            return
        free = [t for t in demands[i].options if t not in used]
        for k in range(min(demands[i].n, len(free)) + 1):
            for combo in combinations(free, k):
                go(i + 1, used | set(combo), picks + [(demands[i].key, combo)], size + k)

    go(0, frozenset(), [], 0)
    best = max(found)
    return best, found[best]


from hypothesis import given, settings, strategies as st  # noqa: E402

_demands = st.lists(st.tuples(st.sets(st.integers(0, 5), max_size=4), st.integers(1, 2)), min_size=1, max_size=4)


@pytest.mark.rule("M04")
@settings(max_examples=150, deadline=None)
@given(_demands)
def test_matching_is_maximum_and_every_listed_assignment_is_valid(spec):
    demands = [Demand(i, tuple(sorted(opts)), n) for i, (opts, n) in enumerate(spec)]
    best, all_best = _brute_max(demands)
    assert max_matching(demands) == best
    listed = best_assignments(demands, limit=1000)
    assert {a.picks for a in listed} == all_best                 # every equally efficient one, no other
    assert listed, "there is always at least one maximum assignment"
    seen = set()
    for a in listed:
        assert a.size == best
        used = [t for _, ts in a.picks for t in ts]
        assert len(used) == len(set(used))                       # distinct targets
        for d, (key, ts) in zip(demands, a.picks):
            assert key == d.key and set(ts) <= set(d.options) and len(ts) <= d.n
        assert a.picks not in seen
        seen.add(a.picks)
