"""Statistics that say how sure they are, for the simulation report (issue 16, item 1).

Every rate comes with a 95 % interval, and a difference is only called a finding when its interval
excludes zero — never on noise. Plain Python (no scipy): the formulas are short and standard.

- :func:`wilson` — the Wilson score interval of a proportion k/n (good at small n and near 0 or 1,
  unlike the normal approximation).
- :func:`difference` — the interval of p1 − p0 for two independent proportions by Newcombe's hybrid
  score method (Newcombe 1998, method 10), built from the two Wilson intervals.

A caveat the report repeats: per-card comparisons count player-games, and the players of one game
are not independent of each other (one player's win is the others' loss), so the intervals are
somewhat narrower than the truth for games with many players. They are a screen, not a proof.
"""
from __future__ import annotations

from math import sqrt

Z95 = 1.959963984540054  # the standard normal's 97.5 % quantile


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the proportion ``k``/``n``; (0, 1) when n is 0 (nothing known)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(k1: int, n1: int, k0: int, n0: int, z: float = Z95) -> tuple[float, float, float]:
    """(p1 − p0, low, high): Newcombe's hybrid score interval of the difference of two proportions."""
    p1 = k1 / n1 if n1 else 0.0
    p0 = k0 / n0 if n0 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l0, u0 = wilson(k0, n0, z)
    d = p1 - p0
    low = d - sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2)
    high = d + sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def rate(k: int, n: int) -> dict:
    """A rate as the report writes it: value, interval and counts (rounded for stable output)."""
    low, high = wilson(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "low": round(low, 4), "high": round(high, 4), "k": k, "n": n}


# a comparison needs this many player-games on each side before it may be called a finding
MIN_SIDE = 10


def effect(k1: int, n1: int, k0: int, n0: int) -> dict:
    """Win rate with vs without, the difference with its interval, and whether it is a finding
    (both sides observed at least MIN_SIDE times and the interval excludes zero)."""
    if not n1 or not n0:  # one side never observed: there is nothing to compare with
        return {"with": rate(k1, n1), "without": rate(k0, n0), "difference": None, "low": None, "high": None,
                "finding": False}
    d, low, high = difference(k1, n1, k0, n0)
    finding = n1 >= MIN_SIDE and n0 >= MIN_SIDE and (low > 0 or high < 0)
    return {"with": rate(k1, n1), "without": rate(k0, n0), "difference": round(d, 4), "low": round(low, 4),
            "high": round(high, 4), "finding": finding}


__all__ = ["Z95", "wilson", "difference", "rate", "effect", "MIN_SIDE"]
