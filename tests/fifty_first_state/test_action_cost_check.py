"""The Action cost check (FiftyMatch._cost_refused, read without a copy) never rules out an Action that
its trial on a copy (``_would_work``) would take: compared at every Action decision of seeded random
games, 2 to 4 players, both State Packs."""
from __future__ import annotations

import random

import pytest

from runtime.engine import engine_for, load_compiled


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_action_refused_by_its_cost_is_one_its_trial_refuses(players):
    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    checked = refused = 0
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
                        if match._cost_refused(p, uid):
                            refused += 1
                            trial = lambda twin, uid=uid: twin.engine.use_action(twin, p, uid)  # noqa: E731
                            assert not match._would_work(trial)
                        checked += 1
            match.apply(rng.choice(match.legal_moves()))
            moves += 1
    assert checked and refused, (checked, refused)
