"""SeededRandom's one-of-several path (runtime/agents.py) draws exactly what the general path draws:
``randint(1, 1)`` then ``sample(options, 1)``. The pinned simulations hold whole games to it; this
holds it on its own, over many generator states and option counts (a Python whose ``randint`` or
``sample`` drew otherwise would fail here first)."""
from __future__ import annotations

import random

from runtime.agents import Agent, SeededRandom


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


class _Match:
    """What ``Agent.pick`` reads of a Match: the game (whose generator an agent without one uses)
    and the seat to act."""

    def __init__(self, rng):
        self.game = type("Game", (), {"rng": rng})()

    def to_act(self):
        return 0


def test_pick_draws_as_the_general_pick_does():
    for seed in range(200):
        for own in (True, False):  # the agent's own generator, or the game's
            fast, slow = random.Random(seed), random.Random(seed)
            quick = SeededRandom(fast if own else None)
            general = SeededRandom(slow if own else None)
            for size in (1, 2, 3, 7, 22, 40):
                moves = [f"m{i}" for i in range(size)]
                assert quick.pick(_Match(fast), moves) == Agent.pick(general, _Match(slow), moves)
                assert fast.getstate() == slow.getstate()
