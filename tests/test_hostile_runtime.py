"""Issue 11, class 2 (runtime): an accepted effect finishes at once whatever its amounts, a literal
past the documented limit is refused at check time, and an engine's control-flow signal never
escapes ``Engine.run``."""
from __future__ import annotations

import sys

import pytest

from compiler.explain import effect_function, explain_effect
from compiler.parser import parse_effect
from runtime.engine import engine_for, load_compiled
from runtime.model import GameModel, model_of

from .guards import finishes_within


def game_of(name: str, players=("Ann", "Bob"), seed=1):
    compiled = load_compiled(name)
    engine = engine_for(compiled)
    return engine, engine.new_game(compiled, list(players), seed=seed), model_of(compiled.vocab)


def compiled(text: str, vocab: GameModel):
    ex = explain_effect(text, vocab)
    assert not ex.diags.errors, [d.render() for d in ex.diags]
    return effect_function(ex)


HUGE = "(999 * 999 * 999)"  # every literal within the limit; the product is not


@pytest.mark.parametrize("text", [
    f"gain {HUGE} ruins",                      # one Ruins per unit (M11): a loop per unit
    f"gain {HUGE} resource",                   # a choice per unit of a Good group
    f"draw {HUGE} cards",
    f"gain {HUGE} fuel per card in your hand",
    f"gain {HUGE} vp",
])
def test_an_astronomical_amount_finishes_at_once(text):
    engine, game, vocab = game_of("fifty_first_state")
    fn = compiled(text, vocab)
    # "at once" is counted as work, not timed (a shared machine's clock says little): the Python
    # calls the run makes. The most any of these makes is about 240,000 (a Ruins per card left in
    # the Deck); a run bounded by the amount written would make billions. ``finishes_within`` is only
    # the guard against a hang.
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        calls += event == "call"

    with finishes_within(30):
        sys.setprofile(count)
        try:
            out = engine.run(game, fn, 0)
        finally:
            sys.setprofile(None)
    assert out.status == "done" and calls < 1_000_000, calls
    from runtime.context import MAX_HELD

    assert all(n <= MAX_HELD for n in game.players[0].goods.values())  # what a state can hold


def test_a_gain_never_makes_a_player_hold_more_than_the_limit():
    engine, game, vocab = game_of("fifty_first_state")
    fn = compiled("gain 999 fuel", vocab)
    for _ in range(12):
        engine.run(game, fn, 0)
    from runtime.context import MAX_HELD

    assert game.players[0].goods["fuel"] == MAX_HELD


@pytest.mark.parametrize("text, start, digits", [
    ("gain 2147483648 ruins", 5, 10),
    ("draw 1000000000 cards", 5, 10),
    ("gain up to 1000 fuel", 11, 4),
    ("gain " + "9" * 4301 + " fuel", 5, 4301),     # past Python's digit limit: no ValueError
    ("x is number of cards in your hand (min 5000); gain x fuel", 39, 4),
])
def test_a_literal_past_the_limit_is_refused_at_check_time(text, start, digits):
    from compiler.parser import MAX_LITERAL

    effect, problem = parse_effect(text)
    assert effect is None and getattr(problem, "code", None) == "E320", problem
    assert (problem.offset, problem.length) == (start, digits)
    assert f"larger than {MAX_LITERAL}" in problem.message


def test_the_limit_itself_is_accepted():
    from compiler.parser import MAX_LITERAL

    effect, problem = parse_effect(f"gain {MAX_LITERAL} fuel")
    assert problem is None


def test_an_elimination_never_escapes_engine_run():
    """Drawing 999 cards empties the parts pile: the player is out (I12). ``Stop`` is control flow
    for the activation loop; whoever calls ``Engine.run`` gets an outcome, never the exception."""
    engine, game, vocab = game_of("infernal_contraption", ("Ann", "Bob", "Cid"))
    fn = compiled("draw 999 cards", vocab)
    try:
        out = engine.run(game, fn, 0)
    except Exception as exc:  # pragma: no cover - the failure this test exists for (IC's Stop)
        pytest.fail(f"{type(exc).__name__} escaped Engine.run")
    assert out.status == "done" and out.reason == "stopped: out"
    assert game.players[0].out and not game.over
