"""A simulation's set-up writes no trace (issue 27): every bundled engine's ``new_match`` takes
``tracing=False`` (runtime/simulate.py ``_new_match`` passes it), and the game it sets up is the very
game a traced set-up makes — same state, events and generator, the same legal moves and picks after
every move — with only the log left unwritten."""
from __future__ import annotations

import random

import pytest

from runtime.agents import SeededRandom
from runtime.engine import engine_for, load_compiled, takes_keyword

SEATS = {"infernal_contraption": (2, 3, 4), "fifty_first_state": (2, 3, 4), "age_of_steam": (3, 4)}


def _events(g) -> list[str]:
    return [type(e).__name__ + repr(sorted(vars(e).items())) for e in g.events]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_set_up_without_a_trace_is_the_set_up_with_one(game):
    compiled = load_compiled(game)
    eng = engine_for(compiled)
    assert takes_keyword(type(eng).new_match, "tracing")
    for seed in range(3):
        for n in SEATS[game]:
            def new(**kw):
                agents = {i: SeededRandom(random.Random(seed * 31 + i)) for i in range(n)}
                return eng.new_match(compiled, [f"P{i + 1}" for i in range(n)], seed=seed, agents=agents, **kw)

            quiet, traced = new(tracing=False), new()
            traced.game.tracing = False
            assert quiet.game.log == [] and traced.game.log != [], (game, n, seed)
            for _ in range(120):
                a, b = quiet.game, traced.game
                assert (a.snapshot(), _events(a), a.rng.getstate()) == (b.snapshot(), _events(b), b.rng.getstate())
                if quiet.terminal():
                    break
                legal = quiet.legal_moves()
                assert [m.key for m in legal] == [m.key for m in traced.legal_moves()]
                pick = quiet.game.agent(quiet.to_act()).pick(quiet, legal)
                assert traced.game.agent(traced.to_act()).pick(traced, traced.legal_moves()).key == pick.key
                quiet.apply(pick)
                traced.apply(pick)
            assert quiet.game.log == []
