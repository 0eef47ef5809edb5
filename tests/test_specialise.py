"""Specialised code (issue 27 item 1, compiler/specialise.py): what the game model fixes is written out by
the code generator, and means exactly what the runtime's selection means.

The differential test (tests/test_differential.py) runs whole generated texts against the reference
interpreter; here every shape the specialiser writes is compared with ``Ctx.count`` / ``Ctx.test`` on
random states of every test game and of the bundled games, for every zone and Good of each model, for
each player acting — and the shapes it must leave to the runtime are left there.
"""
from __future__ import annotations

import random

import pytest

from compiler.explain import explain_effect
from compiler.specialise import count_expr
from compiler.specialise import test_expr as exists_expr  # not collected as a test
from runtime.context import Ctx
from runtime.engine import engine_for, load_compiled
from runtime.errors import Refused
from runtime.model import model_of
from runtime.refs import CARD, GOOD, ZONE, Exactly, HasIcon, Query, UpToN, Who
from tests.differential import GAMES, compiled_game, random_state

# the Moon's random states need 3 players (its map's limit), which the differential's states do not give;
# its effects count nothing a specialiser writes (no hand, no card zones of a player)
BUNDLED = ("fifty_first_state", "infernal_contraption")


def _compiled(name: str):
    return load_compiled(name) if name in BUNDLED else compiled_game(name)


def _shapes(model) -> list[Query]:
    """Every query of a shape the specialiser may write, over one game model."""
    out = [Query(CARD, "card"), Query(CARD, "card", amount=Exactly(3))]
    for z in sorted(model.zones):
        for owner in (None, Who.YOU):
            out.append(Query(CARD, "card", place=Query(ZONE, z, owner=owner)))
            out.append(Query(CARD, "card", amount=Exactly(2), place=Query(ZONE, z, owner=owner)))
    for good in sorted(model.goods):
        for owner in (None, Who.YOU):
            out.append(Query(GOOD, good, owner=owner))
            out.append(Query(GOOD, good, owner=owner, amount=Exactly(4)))
    return out


def _states(name: str, compiled):
    """Random states: the differential's (random cards in every zone, random Goods) for the test games; for
    the bundled games (whose engines set up their own turns) the positions of seeded random games."""
    rng = random.Random(27)
    if name not in BUNDLED:
        for seed in range(12):
            yield random_state(compiled, rng, "first", seed)[1]
        return
    eng = engine_for(compiled)
    for seed in range(3):
        agents = {p: eng.make_agent("random") for p in range(2)}
        match = eng.new_match(compiled, ["P1", "P2"], seed=seed, agents=agents)
        for _ in range(60):
            if match.terminal():
                break
            yield match.game
            match.apply(agents[match.to_act()].pick(match, match.legal_moves()))


def _runtime(ctx: Ctx, how: str, q: Query):
    try:
        return getattr(ctx, how)(q)
    except Refused as exc:
        return ("refused", exc.reason)


@pytest.mark.parametrize("name", sorted(GAMES) + list(BUNDLED))
def test_specialised_quantities_mean_what_the_runtime_selection_means(name):
    compiled = _compiled(name)
    model = model_of(compiled.vocab)
    shapes = _shapes(model)
    written = {("count", q): count_expr(q, model) for q in shapes} | {("test", q): exists_expr(q, model) for q in shapes}
    assert any(written.values()), "no shape of this game was specialised"
    compared = 0
    for game in _states(name, compiled):
        for player in range(len(game.players)):
            ctx = Ctx(game, player)
            for (how, q), expr in written.items():
                if expr is None:
                    continue
                # the expression is the code generator's own output (never data text)
                assert eval(expr, {"ctx": ctx}) == _runtime(ctx, how, q), (name, how, q, expr)
                compared += 1
    assert compared > 100


def test_what_the_model_does_not_fix_is_left_to_the_runtime():
    model = model_of(load_compiled("fifty_first_state").vocab)
    others_only = [z for z, spec in model.zones.items() if spec.others_only]
    assert others_only, "51st State has a zone only another player's may be used (S07/S08)"
    for z in others_only:  # the runtime refuses your own: that refusal stays the runtime's
        assert count_expr(Query(CARD, "card", place=Query(ZONE, z, owner=Who.YOU)), model) is None
    for q in (Query(CARD, "card", filters=(HasIcon(("tools",)),)),          # a filter
              Query(CARD, "card", place=Query(ZONE, "hand", owner=Who.OPPONENT)),  # an opponent is chosen
              Query(CARD, "card", place=Query(ZONE, "hand", owner=Who.ANOTHER)),
              Query(GOOD, "vp", owner=Who.OPPONENT),
              Query("thing", "location", owner=Who.YOU)):                     # a thing: spec and faces
        assert count_expr(q, model) is None, q
    # "requires up to 2 …" / no literal amount: Ctx.test decides
    assert exists_expr(Query(CARD, "card", amount=UpToN(2)), model) is None
    for group in model.good_groups:  # "number of resources": a group's members are summed by the runtime
        assert count_expr(Query(GOOD, group), model) is None


def test_generated_code_reads_the_zone_itself():
    vocab = model_of(load_compiled("infernal_contraption").vocab)
    ex = explain_effect("if number of cards in your hand < 7: draw (7 - number of cards in your hand) cards", vocab)
    assert "len(ctx.game.zones[('hand', ctx.player)])" in ex.source
    assert "ctx.count(" not in ex.source
