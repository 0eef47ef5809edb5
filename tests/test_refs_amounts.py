"""``Query.with_amount`` makes the query ``_with(amount=…)`` makes (issue 27: computed amounts make one
per statement run, so it is built without ``_with``'s keywords and shares the ``Exactly`` of a small
number): the same fields, equal and hashing alike, for every query the bundled games hoist and every
amount form."""
from __future__ import annotations

import importlib

from runtime.refs import DEFAULT, EVERY, Every, Exactly, Query, UpToN


def _queries(*games: str) -> list[Query]:
    out = []
    for game in games or ("infernal_contraption", "fifty_first_state", "age_of_steam"):
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


def _amount_as_it_was(ctx, sel, default=1):
    """``Ctx.amount`` as it was: every amount capped by ``min``/``max`` calls."""
    from runtime.context import MAX_HELD

    a = sel.amount
    t = type(a)
    if t is Exactly or t is UpToN:
        n = max(0, a.n)
    elif t is Every:
        n = 10**9
    else:
        n = default
    if sel.per is not None:
        every = sel.per.every if sel.per.every is not None and sel.per.every > 0 else 1
        n *= ctx.count(sel.per) // every
    return min(n, max(MAX_HELD, len(ctx.game.instances)))


def test_an_amount_within_the_caps_is_the_amount_the_caps_leave():
    """``Ctx.amount`` returns an amount of at most ``MAX_HELD`` without asking the caps (it is within
    them): the same number as capping it, for every query each bundled game hoists, with amounts
    around the caps, each default, and its "per" counted in a set-up game."""
    from runtime.agents import SeededRandom
    from runtime.context import MAX_HELD, Ctx
    from runtime.engine import engine_for, load_compiled

    for game in ("infernal_contraption", "fifty_first_state", "age_of_steam"):
        compiled = load_compiled(game)
        g = engine_for(compiled).new_game(compiled, ["A", "B", "C"], seed=3,
                                          agents={i: SeededRandom() for i in range(3)})
        ctx = Ctx(g, 0, None, 1)
        for q in _queries(game):
            for amount in (-2, 0, 1, 7, MAX_HELD - 1, MAX_HELD, MAX_HELD + 1, 10**6,
                           DEFAULT, EVERY, UpToN(3)):
                sel = q.with_amount(amount)
                for default in (1, 0, 5):
                    want = _amount_as_it_was(ctx, sel, default)
                    assert ctx.amount(sel, default) == want, (q, amount, default)
