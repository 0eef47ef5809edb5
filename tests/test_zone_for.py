"""``Ctx.zone_for`` answers a place whose zone the model names and whose owner is "you", "opponent" or
none without the steps of ``Ctx.zone_for_by_steps`` (issue 27): the same zone, the same refusal, the
same opponent asked for and the same draws of the generator, for every place the bundled games'
compiled effects name, every acting player and every opponent (none given too); and the same
Infernal Contraption games with the steps patched back in."""
from __future__ import annotations

import importlib
import random

import pytest

from runtime.agents import SeededRandom
from runtime.context import Ctx
from runtime.engine import engine_for, load_compiled
from runtime.refs import Query

# the Moon's effects name no zone (a test below says so)
GAMES = ("infernal_contraption", "fifty_first_state")


def _places(game: str) -> list[Query]:
    """Every query the game's generated modules hoist, and every query inside one (a place, an
    ``of``, a ``per``): those of category zone are the places ``zone_for`` is asked about."""
    pkg = importlib.import_module(f"generated.{game}")
    found: dict[int, Query] = {}
    todo = [v for m in pkg.MODULES for k, v in vars(getattr(pkg, m)).items()
            if k.startswith("_C_") and isinstance(v, Query)]
    while todo:
        q = todo.pop()
        if id(q) in found:
            continue
        found[id(q)] = q
        todo += [n for n in (q.of, q.place, q.per) if n is not None]
    return [q for q in found.values() if q.category == "zone"]


def _answer(method, game, player, opponent, default_owner, place):
    """(the zone or the refusal, the opponent the context holds after, the generator's state after)."""
    ctx = Ctx(game, player, None, opponent)
    try:
        got = ("zone", method(ctx, place, default_owner))
    except Exception as exc:  # noqa: BLE001 - a refusal is an answer, compared as one
        got = (type(exc).__name__, str(exc))
    return got, ctx.opponent, game.rng.getstate()


@pytest.mark.parametrize("name", GAMES)
def test_every_place_of_the_bundled_games_is_the_zone_the_steps_find(name):
    compiled = load_compiled(name)
    eng = engine_for(compiled)
    places = _places(name)
    assert places, f"{name}'s effects name no zone"
    players = 3
    game = eng.new_game(compiled, [f"P{i}" for i in range(players)], seed=7,
                        agents={i: SeededRandom() for i in range(players)})
    asked = 0
    for place in places:
        for player in range(players):
            for opponent in [None, *range(players)]:
                for default_owner in (None, (player + 1) % players):
                    state = game.rng.getstate()
                    fast = _answer(Ctx.zone_for, game, player, opponent, default_owner, place)
                    game.rng.setstate(state)
                    slow = _answer(Ctx.zone_for_by_steps, game, player, opponent, default_owner, place)
                    assert fast == slow, (place, player, opponent, default_owner)
                    asked += 1
    assert asked


def test_the_moons_effects_name_no_zone():
    assert _places("age_of_steam") == []  # else add it to GAMES


def test_infernal_contraption_games_are_the_games_of_the_steps(monkeypatch):
    """36 seeded random games of 2–4 players, move by move (legal moves, state, events, generator),
    with ``zone_for`` and with its steps alone."""
    from tests.infernal_contraption.test_fast_play import GAMES as SEEDED
    from tests.infernal_contraption.test_fast_play import _course

    from runtime.games.infernal_contraption.engine import InfernalContraption

    ic = load_compiled("infernal_contraption")
    fast = {(p, s): _course(InfernalContraption(), ic, p, s) for p, s in SEEDED}
    monkeypatch.setattr(Ctx, "zone_for", Ctx.zone_for_by_steps)
    for p, s in SEEDED:
        assert _course(InfernalContraption(), ic, p, s) == fast[(p, s)], f"{p} players, seed {s}"


def test_a_place_only_another_player_may_use_goes_by_the_steps():
    """A zone declared ``access: others`` (51st State's, S07/S08) is never answered at once: the steps
    refuse the acting player's own."""
    compiled = load_compiled("fifty_first_state")
    eng = engine_for(compiled)
    game = eng.new_game(compiled, ["A", "B"], seed=1, agents={0: SeededRandom(random.Random(1)),
                                                            1: SeededRandom(random.Random(2))})
    barred = [z for z, spec in game.model.zones.items() if spec.others_only]
    assert barred
    for z in barred:
        mine = Query("zone", z)
        assert _answer(Ctx.zone_for, game, 0, 1, None, mine)[0] == \
            _answer(Ctx.zone_for_by_steps, game, 0, 1, None, mine)[0]
