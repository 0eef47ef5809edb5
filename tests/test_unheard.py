"""``GameState.unheard`` builds the engine's trigger table when no event has built it yet: the table
the first ``publish`` would build (``Engine.dispatch``), so the answer before a game's first event
is the answer after it — True in a game where no card listens (Infernal Contraption: the set-up's
first draw records its events itself), False in one where cards do (the truth fixture's Watchtower)."""
from __future__ import annotations

from runtime.engine import ENGINES, load_compiled
from runtime.events import TurnStarted, game_event
from tests.test_truthful import _game, truth  # noqa: F401 (fixture)


def _answers(engine, game) -> tuple:
    before = game.unheard()
    built = game.listening
    game.listening = None
    game.publish(game_event(TurnStarted, 0, 1, 1))  # the first event builds the table as before
    return before, built, game.unheard(), game.listening


def test_unheard_before_the_first_event_in_a_game_where_nobody_listens():
    ic = load_compiled("infernal_contraption")
    eng = ENGINES["infernal_contraption"]
    game = eng.new_game(ic, ["A", "B"], seed=1, setup=False)
    assert game.listening is None
    before, built, after, table = _answers(eng, game)
    assert before is True and after is True and built == table and not table[0]


def test_heard_before_the_first_event_in_a_game_where_cards_listen(truth):
    engine, game = _game(truth, hand=["mill"])
    game.listening = None
    before, built, after, table = _answers(engine, game)
    assert before is False and after is False and built == table and table[0]
