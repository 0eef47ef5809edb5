"""Infernal Contraption's fast paths for random play (issue 27) hold to the slow paths they replace:
on many seeded games, the same legal moves in the same order, the same state, events and generator
after every move. Each test names the shortcut it holds."""
from __future__ import annotations

import pytest

from runtime.agents import SeededRandom
from runtime.simulate import play_one


def _events(g) -> list[str]:
    return [type(e).__name__ + repr(sorted(vars(e).items())) for e in g.events]


def _new(eng, ic, players, seed, **kw):
    return eng.new_match(ic, [f"P{i + 1}" for i in range(players)], seed=seed,
                         agents={i: SeededRandom() for i in range(players)}, **kw)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_set_up_without_a_trace_is_the_set_up_with_one(eng, ic, players):
    """``new_match(tracing=False)`` (what the simulator asks for) sets up the very game a traced set-up
    does, and it plays on alike: only the log is left unwritten."""
    for seed in range(15):
        quiet = _new(eng, ic, players, seed, tracing=False)
        traced = _new(eng, ic, players, seed)
        traced.game.tracing = False
        assert quiet.game.log == [] and traced.game.log != []
        for _ in range(400):
            a, b = quiet.game, traced.game
            assert (a.snapshot(), _events(a), a.rng.getstate()) == (b.snapshot(), _events(b), b.rng.getstate())
            if quiet.terminal():
                break
            legal = quiet.legal_moves()
            assert [m.key for m in legal] == [m.key for m in traced.legal_moves()]
            pick = quiet.game.agent(quiet.to_act()).pick(quiet, legal)
            traced.game.agent(traced.to_act()).pick(traced, traced.legal_moves())
            quiet.apply(pick)
            traced.apply(pick)
        assert traced.terminal() and quiet.game.log == []


def test_the_simulator_traces_a_traced_game_from_its_set_up():
    args = ("infernal_contraption", None, 2, 27, 3, "random", 400, False, None, (), True)
    trace = play_one(args)["trace"]
    assert "goes first" in trace and "deals" in trace
