"""Statistics that say how sure they are, for the simulation report (issue 16, item 1).

Every rate comes with a 95 % interval, and a difference is only called a finding when its interval
excludes zero — never on noise. Plain Python (no scipy): the formulas are short and standard.

- :func:`wilson` — the Wilson score interval of a proportion k/n (good at small n and near 0 or 1,
  unlike the normal approximation).
- :func:`difference` — the interval of p1 − p0 for two independent proportions by Newcombe's hybrid
  score method (Newcombe 1998, method 10), built from the two Wilson intervals.

Rounding goes outward: a reported interval's low end is rounded down and its high end up (to 4
places, ``outward``), and a finding is decided on the rounded interval, so rounding can make an
interval wider but never makes it exclude what the exact one includes — nor, printed, look as if
it excluded what it includes (runtime/simulate.py prints them outward too).

Ties: a win shared by k players is 1/k of a win for each (``k`` below may be fractional: the
proportion k/n and its intervals are the same formulas).

A caveat the report repeats: per-card comparisons count player-games, and the players of one game
are not independent of each other (one player's win is the others' loss), so the intervals are
somewhat narrower than the truth for games with many players. They are a screen, not a proof.
"""
from __future__ import annotations

from math import ceil, floor, sqrt

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


PLACES = 4  # the places intervals are reported to


def down(x: float, places: int = PLACES) -> float:
    """``x`` rounded down to ``places`` (a float's representation noise below 1e-9 of a unit first
    cleared, so that 0.25 stays 0.25)."""
    m = 10 ** places
    return floor(round(x * m, 6)) / m


def up(x: float, places: int = PLACES) -> float:
    m = 10 ** places
    return ceil(round(x * m, 6)) / m


def count(k: float) -> float | int:
    """A count of wins as reported: whole when whole, else to 4 places (shared wins are fractions)."""
    return int(k) if float(k).is_integer() else round(k, PLACES)


def rate(k: float, n: int) -> dict:
    """A rate as the report writes it: value, interval rounded outward, and counts."""
    low, high = wilson(k, n)
    return {"rate": round(k / n, PLACES) if n else 0.0, "low": down(low), "high": up(high), "k": count(k), "n": n}


# a comparison needs this many player-games on each side before it may be called a finding
MIN_SIDE = 10


def effect(k1: int, n1: int, k0: int, n0: int) -> dict:
    """Win rate with vs without, the difference with its interval, and whether it is a finding
    (both sides observed at least MIN_SIDE times and the interval excludes zero)."""
    if not n1 or not n0:  # one side never observed: there is nothing to compare with
        return {"with": rate(k1, n1), "without": rate(k0, n0), "difference": None, "low": None, "high": None,
                "finding": False}
    d, low, high = difference(k1, n1, k0, n0)
    low, high = down(low), up(high)  # outward; the finding is decided on what is reported
    finding = n1 >= MIN_SIDE and n0 >= MIN_SIDE and (low > 0 or high < 0)
    return {"with": rate(k1, n1), "without": rate(k0, n0), "difference": round(d, PLACES), "low": low,
            "high": high, "finding": finding}


def interval_text(low: float, high: float, ref: float | None = None, signed: bool = False, places: int = 1) -> str:
    """``[low, high]`` as percentages rounded outward — the low end down, the high end up — with
    ``places`` decimals, or more (up to the 2 a reported interval has) where fewer would make an
    interval that excludes ``ref`` look as if it held it. So what a printed interval excludes is what
    the reported one excludes."""
    excludes = ref is not None and (low > ref or high < ref)
    for p in range(places, 3):
        lo, hi = down(low, p + 2), up(high, p + 2)
        if not excludes or lo > ref or hi < ref:
            break
    sign = "+" if signed else ""
    return f"[{lo * 100 + 0.0:{sign}.{p}f}%, {hi * 100 + 0.0:{sign}.{p}f}%]"


__all__ = ["interval_text", "Z95", "wilson", "difference", "rate", "effect", "MIN_SIDE", "down", "up", "count"]
