"""The Action check read without a copy (FiftyMatch._action_decided: refused by its cost, or surely
taken — a cost its first choices pay, then only gains) says what the Action's trial on a copy
(``_would_work``) says whenever it says anything: compared at every Action decision of seeded random
games, 2 to 4 players, both State Packs."""
from __future__ import annotations

import random

import pytest

from runtime.engine import engine_for, load_compiled


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_action_decided_without_a_copy_is_decided_as_its_trial_decides(players):
    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    checked = refused = taken = 0
    for seed in range(3):
        match = eng.new_match(compiled, [f"P{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not match.terminal() and moves < 400:
            g = match.game
            if g.turn.stage == "action":
                p = match.to_act()
                for zone in ("state", "faction_board"):
                    for uid in g.zone(zone, p):
                        if uid in g.turn.used or g.instances[uid].face == "ruins" or eng.blocked(g, uid):
                            continue
                        decided = match._action_decided(p, uid)
                        assert match._cost_refused(p, uid) == (decided is False)
                        if decided is not None:
                            trial = lambda twin, uid=uid: twin.engine.use_action(twin, p, uid)  # noqa: E731
                            assert match._would_work(trial) == decided, g.record(uid)["id"]
                            refused += decided is False
                            taken += decided is True
                        checked += 1
            match.apply(rng.choice(match.legal_moves()))
            moves += 1
    assert checked and refused and taken, (checked, refused, taken)
