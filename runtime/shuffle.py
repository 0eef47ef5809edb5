"""``shuffle(rng, x)``: ``rng.shuffle(x)`` with fewer Python calls, the same draws.

``random.Random.shuffle`` swaps each place from the end with one drawn by ``_randbelow(i + 1)``, a
Python call per card that asks ``getrandbits(k)`` (k the bit length of i + 1) until the answer is
below i + 1. A game's set-up shuffles its whole deck (Infernal Contraption: two shuffles of 80
cards a game, about an eighth of its set-up), so this does the same loop inline: the
same ``getrandbits`` calls with the same ``k``, in the same order, hence the same order of ``x``
and the same generator state afterwards (tests/test_shuffle.py compares it with ``random.shuffle``
on many seeds and lengths).

A generator whose ``_randbelow`` is not ``getrandbits``' rejection loop (a subclass that
overrides only ``random``, say) or whose class has a ``shuffle`` of its own is left to its own
``shuffle``.
"""
from __future__ import annotations

import random

# ``random.Random``'s ``_randbelow`` that asks ``getrandbits`` until the answer is below n: a generator
# whose class draws so may have that loop done inline (here, and the random agent's one-of-several draw)
WITH_GETRANDBITS = _WITH_GETRANDBITS = random.Random._randbelow_with_getrandbits

_SHUFFLE = random.Random.shuffle

# list length -> its shuffle's steps, ((i, i + 1, bit length of i + 1), …) from the end: the same
# for every shuffle of that length, so worked out once (a deck has a handful of lengths; a game that
# reshuffles piles of many lengths would fill it, so it is emptied past _MOST_LENGTHS lengths)
_STEPS: dict[int, tuple] = {}
_MOST_LENGTHS = 256


def _steps(length: int) -> tuple:
    steps = _STEPS.get(length)
    if steps is None:
        if len(_STEPS) >= _MOST_LENGTHS:
            _STEPS.clear()
        steps = _STEPS[length] = tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, length)))
    return steps


def shuffle(rng: random.Random, x: list) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does: same result, same draws."""
    kind = type(rng)
    if kind._randbelow is not _WITH_GETRANDBITS or kind.shuffle is not _SHUFFLE:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits  # a copy's pending generator wakes on its first call (statecopy)
    for i, n, k in _steps(len(x)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
