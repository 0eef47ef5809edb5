"""Efficient Assault (Moloch M04) as an assignment problem.

Each targeted Assault effect is a *demand*: it needs ``n`` distinct targets out of its candidate
cards ("raze 1 of your locations with icon green or worker"). Machines are efficient: the effects
must be resolved so that as many of them as possible resolve, not first come, first served. That
is a maximum bipartite matching between effect units and cards; a unit left unmatched is an effect
(or part of one) that cannot be resolved and is ignored.

``max_matching`` finds the size of a maximum matching (Kuhn's augmenting paths: the sets are small).
``best_assignments`` lists every assignment of that size, deterministically ordered, so the player's
agent can choose among equally efficient ones; the listing is capped (``limit``) for large states,
and always contains at least one maximum assignment.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Hashable, Sequence


@dataclass(frozen=True)
class Demand:
    key: Hashable           # which effect: (machine uid, call index)
    options: tuple          # candidate targets (card uids), in a deterministic order
    n: int = 1              # how many distinct targets the effect takes
    label: str = ""         # for the trace: "Mother"


@dataclass(frozen=True)
class Assignment:
    picks: tuple            # ((demand key, (targets…)), …) in demand order
    label: str = ""

    @property
    def size(self) -> int:
        return sum(len(t) for _, t in self.picks)

    def targets(self, key) -> tuple:
        for k, t in self.picks:
            if k == key:
                return t
        return ()

    def __str__(self) -> str:
        return self.label


def _units(demands: Sequence[Demand]) -> list[tuple[int, tuple]]:
    return [(i, d.options) for i, d in enumerate(demands) for _ in range(d.n)]


def max_matching(demands: Sequence[Demand]) -> int:
    """Size of a maximum matching of effect units to distinct targets."""
    units = _units(demands)
    match: dict = {}  # target -> unit index

    def augment(u: int, seen: set) -> bool:
        for t in units[u][1]:
            if t in seen:
                continue
            seen.add(t)
            if t not in match or augment(match[t], seen):
                match[t] = u
                return True
        return False

    return sum(1 for u in range(len(units)) if augment(u, set()))


def best_assignments(demands: Sequence[Demand], describe=str, limit: int = 64) -> list[Assignment]:
    """Every maximum assignment (up to ``limit``), in a deterministic order.

    Search: demand by demand, each takes a combination of its free options of some size (largest
    first); a branch is cut as soon as it can no longer reach the maximum size.
    """
    best = max_matching(demands)
    caps = [d.n for d in demands]
    out: list[Assignment] = []

    def rest_cap(i: int) -> int:
        return sum(caps[i:])

    def go(i: int, used: frozenset, picks: list, size: int) -> None:
        if len(out) >= limit:
            return
        if size + rest_cap(i) < best:
            return
        if i == len(demands):
            if size == best:
                out.append(_make(demands, picks, describe))
            return
        d = demands[i]
        free = [t for t in d.options if t not in used]
        for k in range(min(d.n, len(free)), -1, -1):
            for combo in combinations(free, k):
                go(i + 1, used | set(combo), picks + [(d.key, combo)], size + k)

    go(0, frozenset(), [], 0)
    return out


def _make(demands, picks, describe) -> Assignment:
    parts = []
    for d, (_, targets) in zip(demands, picks):
        what = ", ".join(describe(t) for t in targets) if targets else "nothing (ignored)"
        parts.append(f"{d.label or d.key}: {what}")
    return Assignment(tuple(picks), "; ".join(parts))
