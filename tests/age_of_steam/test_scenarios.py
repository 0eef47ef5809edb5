"""Every Age of Steam scenario runs clean on the compiled Moon data; its trace is snapshot-tested."""
from __future__ import annotations

import pytest

from .helpers import SCENARIOS, run_scenario

NAMES = sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("name", NAMES)
def test_scenario_trace(name, snapshot):
    run = run_scenario(name)
    assert run.trace() == snapshot


def test_there_are_scenarios():
    assert len(NAMES) >= 8


BAD = """\
game: age_of_steam
players: [Ann, Bob, Cid]
game_state:
  links:
    - {owner: Ann, from: Landing, hexes: ["0,-1", "9,9"]}
steps:
  - phase: build_track
"""

BAD_EXPECT = """\
game: age_of_steam
players: [Ann, Bob, Cid]
steps:
  - phase: build_track
  - {player: Ann, move: {cube: red}}
expect:
  state:
    cubes: {Nowhere: [red]}
"""


def _run_text(tmp_path, text):
    from compiler.diagnostics import Diagnostics
    from compiler.scenario import load_scenario
    from runtime.engine import load_compiled

    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    diags = Diagnostics()
    sc = load_scenario(path, lambda g: load_compiled(g), diags)
    run = sc.run()
    return [(d.code, d.line, d.message) for d in run.diags]


def test_bad_game_state_is_a_located_scenario_error_not_a_traceback(tmp_path):
    assert _run_text(tmp_path, BAD) == [
        ("E701", 1, "cannot set up the state: game_state: there is no hex '9,9' on the map")]


def test_bad_step_and_expectation_are_located(tmp_path):
    out = _run_text(tmp_path, BAD_EXPECT)
    assert out == [("E701", 5, "step 2 cannot run: step 'move' needs 'from' "
                               "(a hex: coordinates \"q,r\", a City or Town name, or Landing)")]


@pytest.mark.parametrize("step,message", [
    ("{player: Ann, build: 3}", "step 'build' takes a mapping with from, hexes, continue, not the number 3"),
    ("{player: Ann, build: {from: Landing, hexs: [\"0,-1\"]}}", "step 'build' has no key 'hexs' (its keys: from, hexes, continue)"),
    ("{player: Ann, build: {from: Landing, continue: L1, hexes: [\"0,-1\"]}}",
     "step 'build' names either 'from' (a new link) or 'continue' (your link), not both"),
    ("{player: Ann, move: {cube: red, from: Tycho, path: Hadley}}",
     "step 'move': 'path' is a list of a hex: coordinates \"q,r\", a City or Town name, or Landing, not the text 'Hadley'"),
    ("{phase: goods_growth, dice: [7, 0]}", "step 'phase': 'dice' is a die's number, 1 to 6 (at least 1), not the number 0"),
    ("{satellite: [red]}", "step 'satellite' takes a mapping with cube, hex, not a list"),
])
def test_a_malformed_step_is_a_located_error_in_words_never_a_key_error(tmp_path, step, message):
    text = f"game: age_of_steam\nplayers: [Ann, Bob, Cid]\nstate:\n  Ann: {{goods: {{money: 20}}}}\nsteps:\n  - {step}\n"
    assert _run_text(tmp_path, text) == [("E701", 6, f"step 1 cannot run: {message}")]


def test_unknown_hex_in_expectations_is_located(tmp_path):
    text = BAD_EXPECT.replace("  - {player: Ann, move: {cube: red}}\n", "")
    assert _run_text(tmp_path, text) == [
        ("E702", 7, "cannot check the expectations: there is no hex 'Nowhere' on the map")]
