"""Issue 28 (h28b): constructs that act later than their statement — durations, cost changes, reactions,
extra turns — beyond what one corpus scenario shows: only an engine that runs their timing accepts them,
a duration lives in the game state (a copy carries it), and extra turns stay bounded in whole games.

The corpus (tests/language/corpus/duskdeck.yaml) holds one scenario a construct; these tests play
whole games of that corpus game through its flow."""
from __future__ import annotations

import shutil

import pytest

from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect
from runtime.agents import FirstLegal, SeededRandom
from runtime.engine import engine_for, load_from_sources
from runtime.events import TurnStarted
from runtime.model import model_of
from tests.language.corpus import GAMES

DUSKDECK = GAMES / "duskdeck"


def _game_with(tmp_path, cards: str, supply: str):
    """The corpus game with extra cards (YAML list items) stocked in its supply."""
    data = tmp_path / "data"
    shutil.copytree(DUSKDECK, data / "duskdeck")
    if cards:
        (data / "duskdeck" / "extra.yaml").write_text(
            "name: Timing test cards\nsource: example\ncards:\n" + cards, encoding="utf-8")
    game = data / "duskdeck" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    old = "{silver: 8, lantern: 8, raider: 8, shield: 8, beacon: 8, pedlar: 8, estate: 8}"
    assert old in text
    if supply:
        game.write_text(text.replace(old, "{silver: 8, lantern: 8, raider: 8, shield: 8, beacon: 8, estate: 8, "
                                     + supply + "}"),
                        encoding="utf-8")
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags.errors]
    return load_from_sources(result.outputs, "duskdeck")


@pytest.mark.parametrize("text", [
    "at the start of your next turn: draw 1 card",
    "at the end of this turn: draw 1 card",
    "this turn, cards cost 1 less",
    "after this turn, take an extra turn",
])
def test_a_game_engine_that_runs_its_own_turns_refuses_timed_constructs(text):
    from runtime.engine import load_compiled

    vocab = model_of(load_compiled("infernal_contraption").vocab)
    ex = explain_effect(text, vocab)
    assert [d.code for d in ex.diags.errors] == ["E309"], [d.render() for d in ex.diags.errors]
    assert "does not run" in ex.diags.errors[0].message


def test_a_reaction_is_refused_where_the_engine_plays_cards_its_own_way():
    from runtime.engine import load_compiled

    vocab = model_of(load_compiled("infernal_contraption").vocab)
    ex = explain_effect("whenever an opponent plays a card: you are unaffected by it", vocab)
    assert "E309" in [d.code for d in ex.diags.errors]


def test_a_duration_is_part_of_the_state_a_copy_carries(tmp_path):
    compiled = _game_with(tmp_path, "", "")
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], seed=1, setup=False, agents={0: FirstLegal(), 1: FirstLegal()})
    ex = explain_effect("at the start of your next turn: gain 2 coin", model_of(compiled.vocab))
    engine.begin_turn(game, 0)
    assert engine.run(game, effect_function(ex), 0).status == "done"
    twin = game.copy()
    engine.end_turn(twin)
    engine.begin_turn(twin, 0)
    assert twin.players[0].goods["coin"] == 2 and twin.pending == []
    assert game.players[0].goods["coin"] == 0 and len(game.pending) == 1  # the original still waits
    engine.end_turn(game)
    engine.begin_turn(game, 1)  # Bob's turn: not Ann's next
    assert game.players[0].goods["coin"] == 0 and len(game.pending) == 1
    engine.end_turn(game)
    engine.begin_turn(game, 0)
    assert game.players[0].goods["coin"] == 2 and game.pending == []


def _turn_runs(game) -> list[int]:
    """Lengths of the runs of consecutive turns by one player."""
    seats = [ev.player for ev in game.events if isinstance(ev, TurnStarted)]
    runs, last, n = [], None, 0
    for s in seats:
        if s == last:
            n += 1
        else:
            if last is not None:
                runs.append(n)
            last, n = s, 1
    runs.append(n)
    return runs


def test_extra_turns_stay_bounded_in_whole_games(tmp_path):
    """A supply full of 'after this turn, take an extra turn' cards, bought and played by random players:
    every game ends, no player ever has more than two turns in a row, and extra turns do happen."""
    compiled = _game_with(tmp_path, "  - {id: gale, kind: action, name: Gale, source: example, cost: 2, "
                                    "icons: [action], play: 'draw 1 card; after this turn, take an extra turn'}\n",
                          "gale: 12")
    engine = engine_for(compiled)
    doubles = 0
    for seed in range(8):
        agents = {0: SeededRandom(), 1: SeededRandom()}
        match = engine.new_match(compiled, ["Ann", "Bob"], seed=seed, agents=agents)
        moves = 0
        while not match.terminal():
            match.apply(agents[match.to_act()].pick(match, match.legal_moves()))
            moves += 1
            assert moves < 20_000
        runs = _turn_runs(match.game)
        assert max(runs) <= 2, runs
        doubles += sum(1 for r in runs if r == 2)
        assert not match.run.capped
    assert doubles > 0  # the extra turns did happen: the bound is not vacuous


@pytest.mark.parametrize("text, english", [
    ("you may (draw 1 card; gain 1 coin)", "You may draw 1 card and gain 1 Coin."),
    ("you may (if number of cards in your hand > 2: gain 1 coin)",
     "You may choose to do all of this: if you have more than 2 cards in your Hand, gain 1 Coin."),
    # the gain is part of the outer choice: the English must not read it as a statement of its own
    ("you may (you may draw 1 card; gain 1 coin)",
     "You may choose to do all of this: you may draw 1 card; then gain 1 Coin."),
])
def test_the_english_of_you_may_says_what_the_choice_covers(text, english, tmp_path):
    """'You may if you have …' is not English, and 'You may you may draw 1 card; then gain 1 Coin'
    read as if the gain happened whatever the answer; a body with a head of its own says so."""
    from compiler.explain import english_of

    assert english_of(text, model_of(_game_with(tmp_path, "", "").vocab)) == english
