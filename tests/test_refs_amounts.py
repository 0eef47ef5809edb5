"""``Query.with_amount`` makes the query ``_with(amount=…)`` makes (issue 27: computed amounts make one
per statement run, so it is built without ``_with``'s keywords and shares the ``Exactly`` of a small
number): the same fields, equal and hashing alike, for every query the bundled games hoist and every
amount form."""
from __future__ import annotations

import importlib

from runtime.refs import DEFAULT, EVERY, Exactly, Query, UpToN


def _queries() -> list[Query]:
    out = []
    for game in ("infernal_contraption", "fifty_first_state", "age_of_steam"):
        pkg = importlib.import_module(f"generated.{game}")
        out += [v for m in pkg.MODULES for k, v in vars(getattr(pkg, m)).items()
                if k.startswith("_C_") and isinstance(v, Query)]
    return out


def test_with_amount_is_with_the_amount():
    queries = _queries()
    assert queries
    for q in queries:
        for amount in (*range(-3, 70), 999, 10**9, DEFAULT, EVERY, UpToN(2), Exactly(5)):
            made = q.with_amount(amount)
            want = q._with(amount=Exactly(amount) if type(amount) is int else amount)
            assert type(made) is Query
            assert made.__dict__ == want.__dict__ and made == want and hash(made) == hash(want)
