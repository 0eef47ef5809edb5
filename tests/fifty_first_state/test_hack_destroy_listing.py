"""The Hack and Destroy moves are listed by ``Moloch.missing_any`` (whether something is missing to pay
what is left of a Machine's Code or Defense, read without Counters); it must say what the payment plan
it replaces says (``_plan`` of ``_remaining``) for every Deployed Machine, both purposes, at every Action
decision of seeded random games: 2 to 4 players, with and without the Collaboration variant (parts
placed on Machines)."""
from __future__ import annotations

import random

import pytest

from runtime.engine import engine_for, load_compiled
from runtime.games.fifty_first_state.turn import pack


@pytest.mark.rule("M07")
@pytest.mark.rule("M08")
@pytest.mark.parametrize("players,options", [(2, {}), (3, {}), (4, {}), (3, {"collaboration": True})])
def test_missing_any_says_what_the_payment_plan_says(players, options):
    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    said = {True: 0, False: 0}
    placed = 0
    for seed in range(4):
        match = eng.new_match(compiled, [f"P{i}" for i in range(players)], seed=seed, options=dict(options))
        g = match.game
        moloch = pack(g, "moloch")
        rng = random.Random(seed)
        moves = 0
        while not match.terminal() and moves < 400:
            if g.turn.stage == "action":
                p = match.to_act()
                for purpose in ("hack", "destroy"):
                    stores = moloch._stores(g, p, purpose)
                    for uid in g.zone("deployed"):
                        want = bool(moloch._plan(g, p, moloch._remaining(g, uid, purpose), stores)[1])
                        assert moloch.missing_any(g, p, uid, purpose, stores) == want, (seed, moves, uid, purpose)
                        said[want] += 1
                        placed += bool(g.instances[uid].props.get(f"{purpose}_paid"))
            match.apply(rng.choice(match.legal_moves()))
            moves += 1
    assert said[True] and said[False], said
    if options.get("collaboration"):
        assert placed, "no part of a cost was ever placed: the Collaboration path went untested"
