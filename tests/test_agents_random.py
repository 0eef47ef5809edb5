"""SeededRandom's one-of-several path (runtime/agents.py) draws exactly what the general path draws:
``randint(1, 1)`` then ``sample(options, 1)``. The pinned simulations hold whole games to it; this
holds it on its own, over many generator states and option counts (a Python whose ``randint`` or
``sample`` drew otherwise would fail here first)."""
from __future__ import annotations

import random

from runtime.agents import SeededRandom


def _general(rng: random.Random, options: list, k: int, low):
    lo = k if low is None else low
    n = rng.randint(min(lo, len(options)), min(k, len(options)))
    return rng.sample(list(options), n)


def test_one_of_several_draws_as_randint_and_sample_do():
    for seed in range(300):
        fast, slow = random.Random(seed), random.Random(seed)
        agent = SeededRandom(fast)
        for size in (1, 2, 3, 5, 8, 13, 21, 22, 40, 100):
            options = [f"o{i}" for i in range(size)]
            assert agent.choose(None, 0, options, 1, None) == _general(slow, options, 1, None)
            assert fast.getstate() == slow.getstate()
        options = tuple(range(7))
        assert agent.choose(None, 0, options, 1, None) == _general(slow, list(options), 1, None)
        assert fast.getstate() == slow.getstate()


def test_other_choices_keep_the_general_path():
    for seed in range(50):
        fast, slow = random.Random(seed), random.Random(seed)
        agent = SeededRandom(fast)
        for options, k, low in (([1, 2, 3], 2, None), ([1, 2, 3], 3, 0), ([], 1, None), ([4, 5], 1, 0)):
            assert agent.choose(None, 0, options, k, low) == _general(slow, options, k, low)
            assert fast.getstate() == slow.getstate()


def test_several_of_a_few_draw_as_randint_and_sample_do():
    """The small-pool path (at most 21 options, ``k`` and ``low`` any) draws what ``randint`` and
    ``sample``'s pool algorithm draw; larger pools keep the general path."""
    for seed in range(200):
        fast, slow = random.Random(seed), random.Random(seed)
        agent = SeededRandom(fast)
        for size in (0, 1, 2, 3, 5, 7, 8, 13, 20, 21, 22, 30):
            options = [f"o{i}" for i in range(size)]
            for k, low in ((2, None), (7, 0), (3, 1), (size, 0), (size + 2, None), (1, 0), (25, 0), (6, 6)):
                assert agent.choose(None, 0, options, k, low) == _general(slow, options, k, low)
                assert fast.getstate() == slow.getstate()
            assert agent.choose(None, 0, tuple(options), 4, 2) == _general(slow, options, 4, 2)
            assert fast.getstate() == slow.getstate()


class _Match:
    def __init__(self, rng):
        self.game = type("G", (), {"rng": rng})()

    def to_act(self):
        return 0


def test_a_random_pick_draws_as_the_general_path():
    """``SeededRandom.pick`` (a move of the protocol) draws what ``Agent.pick`` through ``choose``
    draws, for the agent's own generator and for the game's."""
    from runtime.agents import Agent

    for seed in range(100):
        for own in (True, False):
            fast, slow = random.Random(seed), random.Random(seed)
            fa, sa = SeededRandom(fast if own else None), SeededRandom(slow if own else None)
            fm, sm = _Match(random.Random(seed + 1)), _Match(random.Random(seed + 1))
            for size in (1, 2, 7, 30):
                moves = [f"m{i}" for i in range(size)]
                assert fa.pick(fm, moves) == Agent.pick(sa, sm, moves)
                assert (fast.getstate(), fm.game.rng.getstate()) == (slow.getstate(), sm.game.rng.getstate())


class _DrawsByRandom(random.Random):
    """A generator whose class draws below n from ``random()`` (it overrides ``random`` only)."""

    def random(self):
        return super().random()


def test_one_of_several_inline_draws_are_randbelow_draws():
    """``_one_of`` runs ``_randbelow``'s ``getrandbits`` loops itself for a generator that draws so (a
    game's, a copy's pending one): the same option and generator state as ``_randbelow(1)`` then
    ``_randbelow(len)``; a generator that draws otherwise keeps its own ``_randbelow``."""
    from runtime.agents import _one_of
    from runtime.statecopy import _pending

    for seed in range(300):
        for size in (1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 100):
            options = list(range(size))
            for make in (random.Random, lambda s: _pending(random.Random(s)), _DrawsByRandom):
                fast, slow = make(seed), make(seed)
                for _ in range(3):
                    slow._randbelow(1)
                    assert _one_of(fast, options) == options[slow._randbelow(size)]
                    assert fast.getstate() == slow.getstate()


def test_several_of_a_few_inline_draws_are_randint_and_sample_draws_for_every_generator():
    """The small-pool path runs ``_randbelow``'s ``getrandbits`` loops itself for a generator that
    draws so (a game's, a copy's pending one) and keeps ``_randbelow`` for one that draws otherwise:
    either way what ``randint`` and ``sample`` draw, leaving the same generator state."""
    from runtime.statecopy import _pending

    for seed in range(150):
        for make in (random.Random, lambda s: _pending(random.Random(s)), _DrawsByRandom):
            fast, slow = make(seed), make(seed)
            agent = SeededRandom(fast)
            for size in (1, 2, 5, 7, 8, 16, 21):
                options = list(range(size))
                for k, low in ((7, 0), (3, 1), (size, 0), (2, None)):
                    assert agent.choose(None, 0, options, k, low) == _general(slow, options, k, low)
                    assert fast.getstate() == slow.getstate()
