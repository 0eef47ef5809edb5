"""Infernal Contraption's scenario steps read their values through runtime/games/stepspec.py: a malformed
step is a located error in a designer's words (file line, "step N cannot run: ..."), never a KeyError
or a TypeError from inside the engine."""
from __future__ import annotations

import pytest

from compiler.diagnostics import Diagnostics
from compiler.scenario import load_scenario
from runtime.engine import load_compiled

STATE = """game: infernal_contraption
players: [Ann, Bob]
state:
  Ann:
    zones:
      hand: [scrap_shredder, gremlin]
      parts_pile: [voltaic_pile, voltaic_pile, voltaic_pile]
  Bob:
    zones:
      parts_pile: [gremlin, gremlin, gremlin]
game_state:
  machines:
    Ann: {main: [{card: power_core, as: core}]}
    Bob: {main: [power_core]}
  turn_player: Ann
steps:
"""
STEP_LINE = STATE.count("\n") + 1


def _run(tmp_path, step: str):
    path = tmp_path / "bad.yaml"
    path.write_text(STATE + f"  - {step}\n", encoding="utf-8")
    sc = load_scenario(path, load_compiled, Diagnostics())
    assert sc is not None
    return sc.run()


@pytest.mark.parametrize("step,message", [
    ("{play: scrap_shredder, side: right}",
     "step 'play' needs 'at': a card (its card id or its `as:` name), the main-line card it attaches to"),
    ("{play: [scrap_shredder], at: core, side: right}",
     "step 'play': 'play' is a card (its card id or its `as:` name), not a list"),
    ("{play: scrap_shredder, at: {card: core}, side: right}",
     "step 'play': 'at' is a card (its card id or its `as:` name), not a mapping"),
    ("{play: scrap_shredder, at: core, side: [right]}",
     "step 'play': 'side' is a side: left, right, top or bottom, not a list"),
    ("{refit: gremlin}", "step 'refit': 'refit' is a list of a card (its card id or its `as:` name), "
                         "not the text 'gremlin'"),
    ("{turn: 0}", "step 'turn': 'turn' is a number of whole turns (or true: one) (at least 1), not the number 0"),
    ("{turn: lots}", "step 'turn': 'turn' is a number of whole turns (or true: one) (at least 1), "
                     "not the text 'lots'"),
    ("{play_out: {agent: greedy, turncap: 5}}", "step 'play_out' has no key 'turncap' (its keys: agent, turn_cap)"),
    ("{play_out: {agent: random}}",
     "step 'play_out': 'agent' is greedy (or left out: the scenario's agents), not the text 'random'"),
    ("{play_out: {turn_cap: many}}", "step 'play_out': 'turn_cap' is a number of turns (at least 1), "
                                     "not the text 'many'"),
])
def test_a_malformed_step_is_a_located_error_in_words_never_a_key_error(tmp_path, step, message):
    run = _run(tmp_path, step)
    assert [(d.code, d.line, d.message) for d in run.diags] == [("E701", STEP_LINE, f"step 1 cannot run: {message}")]


@pytest.mark.parametrize("step", ["{play: scrap_shredder, at: core, side: right}", "{refit: [gremlin]}",
                                  "{refit: []}", "{turn: true}", "{turn: 2}", "{play_out: true}",
                                  "{play_out: {agent: greedy, turn_cap: 50}}"])
def test_a_well_formed_step_runs(tmp_path, step):
    run = _run(tmp_path, step)
    assert run.ok, [d.message for d in run.diags]
    assert run.game.check_conservation() == []
