"""runtime/shuffle.py's ``shuffle(rng, x)`` is ``rng.shuffle(x)``: the same order and the same
generator afterwards, for a plain generator, a copy's pending one (runtime/statecopy.py) and one
that draws otherwise; and the games that shuffle with it set up as ``random.shuffle`` sets them up."""
from __future__ import annotations

import random

import pytest

from runtime import shuffle as shuffle_mod
from runtime.agents import SeededRandom
from runtime.engine import load_compiled
from runtime.games.infernal_contraption.engine import InfernalContraption
from runtime.shuffle import shuffle
from runtime.statecopy import _pending


def _both(make, seed, length):
    a, b = make(seed), make(seed)
    xa, xb = list(range(length)), list(range(length))
    a.shuffle(xa)
    shuffle(b, xb)
    return (xa, a.getstate(), a.random()), (xb, b.getstate(), b.random())


@pytest.mark.parametrize("length", [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 76, 80, 129, 300])
def test_shuffle_is_random_shuffle(length):
    for seed in range(60):
        theirs, ours = _both(random.Random, seed, length)
        assert ours == theirs


def test_shuffle_wakes_a_copys_pending_generator_as_random_shuffle_does():
    for seed in range(30):
        theirs, ours = _both(lambda s: _pending(random.Random(s)), seed, 40)
        assert ours == theirs


class _OnlyRandom(random.Random):
    """A generator that overrides ``random`` only: its ``_randbelow`` does not use getrandbits."""

    def random(self):
        return super().random()


def test_a_generator_that_draws_otherwise_keeps_its_own_shuffle():
    assert _OnlyRandom._randbelow is not random.Random._randbelow
    for seed in range(10):
        theirs, ours = _both(_OnlyRandom, seed, 30)
        assert ours == theirs


def _picture(g) -> tuple:
    return (g.snapshot(), g.rng.getstate(), [type(e).__name__ + repr(sorted(vars(e).items())) for e in g.events],
            g.trace_text())


def test_infernal_contraption_sets_up_and_plays_as_with_random_shuffle(monkeypatch):
    """The set-up's two shuffles (and any later ``GameState.shuffle``) through runtime/shuffle.py
    give every seeded game the state, events and generator that ``random.Random.shuffle`` gives."""
    ic = load_compiled("infernal_contraption")

    def games():
        out = []
        for players in (2, 3, 4):
            for seed in range(10):
                eng = InfernalContraption()
                g = eng.new_game(ic, [f"P{i + 1}" for i in range(players)], seed=seed,
                                 agents={i: SeededRandom() for i in range(players)})
                eng.play_game(g, turn_cap=40)
                out.append(_picture(g))
        return out

    fast = games()
    import runtime.games.infernal_contraption.engine as ic_engine
    import runtime.state as state_mod

    slow = lambda rng, x: rng.shuffle(x)  # noqa: E731  (the path the helper replaces)
    for mod in (ic_engine, state_mod, shuffle_mod):
        monkeypatch.setattr(mod, "shuffle", slow)
    assert games() == fast


class _OwnShuffle(random.Random):
    """A generator with a shuffle of its own: the helper leaves the list to it."""

    def shuffle(self, x):
        x.reverse()


def test_a_generator_with_its_own_shuffle_is_left_to_it():
    x = [1, 2, 3]
    shuffle(_OwnShuffle(0), x)
    assert x == [3, 2, 1]


def test_the_steps_kept_per_length_stay_few():
    for length in range(2, 3 * shuffle_mod._MOST_LENGTHS):
        rng_a, rng_b = random.Random(length), random.Random(length)
        xa, xb = list(range(length)), list(range(length))
        rng_a.shuffle(xa)
        shuffle(rng_b, xb)
        assert xa == xb
    assert len(shuffle_mod._STEPS) <= shuffle_mod._MOST_LENGTHS
