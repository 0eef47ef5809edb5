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


def test_tracing_is_passed_only_where_it_is_taken():
    """``takes_keyword``: the simulator passes ``tracing=False`` to an engine whose ``new_match`` takes
    it, and the core's ``new_match`` to a ``new_game`` that takes it (an engine of its own with an older
    ``new_game`` sets up traced, then plays untraced)."""
    from runtime.engine import Engine, takes_keyword
    from runtime.games.infernal_contraption.engine import InfernalContraption

    class Older(Engine):
        def new_game(self, compiled, players, seed=0, agents=None, options=None, setup=True):
            return super().new_game(compiled, players, seed=seed, agents=agents, options=options, setup=setup)

    assert takes_keyword(InfernalContraption.new_match, "tracing")
    assert takes_keyword(Engine.new_game, "tracing") and not takes_keyword(Older.new_game, "tracing")
