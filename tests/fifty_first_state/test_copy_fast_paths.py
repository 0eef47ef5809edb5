"""The shortcuts of a 51st State copy and of reading a trial off its copy, held to the slow path they
replace: ``TurnState.copy`` (made without the dataclass ``__init__``) against the copy the constructor
makes, at every move of seeded random games with 2 to 4 players; ``goods_differ`` against ``!=`` of
Counters."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from runtime.engine import engine_for, load_compiled
from runtime.games.fifty_first_state.state import TurnState


def _constructed(t: TurnState) -> TurnState:
    """The copy as it was made before: the dataclass constructor, each mutable field new."""
    return TurnState(t.moves, t.stage, list(t.shown), t.draft_left, t.drafter, list(t.drafted),
                     t.seat, set(t.passed), Counter(t.actions), set(t.used), t.ended)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turn_copy_is_the_constructed_copy(players):
    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    for seed in range(3):
        match = eng.new_match(compiled, [f"P{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not match.terminal() and moves < 300:
            t = match.game.turn
            twin, slow = t.copy(), _constructed(t)
            assert twin == slow and type(twin.actions) is Counter
            assert list(vars(twin)) == list(vars(slow))  # the same fields in the same order
            for name in ("shown", "drafted", "passed", "actions", "used"):
                assert getattr(twin, name) is not getattr(t, name), name  # its own, never shared
            twin.actions[0] += 1
            assert t.actions[0] == slow.actions[0]
            match.apply(rng.choice(match.legal_moves()))
            moves += 1


def test_goods_differ_is_counter_inequality():
    """``assault_sets.goods_differ`` (``trial_writes``' comparison of a player's Goods before and after
    a trial) says what ``!=`` of the two Counters says: Goods at 0 or absent, in any order, negative."""
    from runtime.games.fifty_first_state.assault_sets import goods_differ

    rng = random.Random(57)
    names = ["brick", "fuel", "gun", "iron", "vp", "worker"]
    for _ in range(3000):
        a = Counter({g: rng.randint(-1, 2) for g in rng.sample(names, rng.randint(0, len(names)))})
        b = Counter(a) if rng.random() < 0.4 else Counter()
        for g in rng.sample(names, rng.randint(0, 3)):
            b[g] = rng.randint(-1, 2)
        if rng.random() < 0.3:  # the same items in another order
            b = Counter(dict(reversed(list(b.items()))))
        assert goods_differ(a, b) == (a != b) == goods_differ(b, a), (a, b)


def test_counter_is_the_constructor():
    """``statecopy.counter`` (``construct_cost``, ``can_pay``, ``verbs._price`` and copies use it for
    ``Counter(...)``): the same items in the same order, a Counter, never the mapping it was given."""
    from runtime.statecopy import counter

    for given in ({}, {"brick": 2}, {"vp": 0, "fuel": 1, "brick": -1}, Counter({"gun": 3, "iron": 0}), Counter()):
        got, want = counter(given), Counter(given)
        assert type(got) is Counter and got is not given
        assert list(got.items()) == list(want.items())
        got["x"] += 1
        assert "x" not in given


def test_fingerprint_is_the_generator_built_one():
    """``GameState.fingerprint`` builds its tuples from lists: the same value as the generators it
    replaced, at every move of seeded games (and on copies, which share cards until touched)."""
    from runtime.state import _faces
    from runtime.statecopy import peek_all

    def before(g):
        return (tuple(tuple(sorted((k, v) for k, v in p.goods.items() if v)) for p in g.players),
                tuple((k, tuple(v)) for k, v in g.zones.items()),
                _faces(peek_all(g.instances)))

    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    for seed in range(2):
        match = eng.new_match(compiled, ["P0", "P1", "P2"], seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not match.terminal() and moves < 250:
            g = match.game
            assert g.fingerprint() == before(g)
            if moves % 25 == 0:
                twin = g.copy(agents={})
                assert twin.fingerprint() == before(twin) == before(g)
            match.apply(rng.choice(match.legal_moves()))
            moves += 1
