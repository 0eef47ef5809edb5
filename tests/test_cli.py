"""Item 10: the command line — every command through click's CliRunner, exit codes 0/1/2, JSON output,
one run of the real script in a subprocess, and the newcomer's flow from the issue's "done when"."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cli

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MINI = HERE / "fixtures" / "mini"
SCENARIO = MINI / "mini" / "scenarios" / "barracks.yaml"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A temporary project folder holding data/ with the mini game; the current folder."""
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def no_traceback(res) -> None:
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception


# --- validate ---------------------------------------------------------------------------------------


def test_validate_clean(project, runner):
    res = runner.invoke(cli.main, ["validate", "data"])
    assert res.exit_code == 0, res.output
    assert "ok: 1 games, 3 cards, 3 effects checked." in res.output
    assert not (project / "generated").exists()  # validate writes nothing


def test_validate_defaults_to_dot_data(project, runner):
    res = runner.invoke(cli.main, ["validate", "--format", "json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout) == {"ok": True, "diagnostics": [], "games": ["mini"]}


def test_validate_bad_content_json(project, runner):
    base = project / "data" / "mini" / "base.yaml"
    base.write_text(base.read_text().replace("gain 2 fuel", "gain 2 fule"))
    res = runner.invoke(cli.main, ["validate", "--format", "json"])
    assert res.exit_code == 1
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d == {"code": "E201", "severity": "error", "message": "unknown good 'fule'", "file": "data/mini/base.yaml",
                 "line": 9, "column": 24, "card": "oil_rig", "path": "cards[0].production",
                 "hint": "did you mean 'fuel'?"}


@pytest.mark.parametrize("command", ["validate", "compile", "build", "watch"])
def test_a_path_that_does_not_exist_is_a_usage_error(project, runner, command):
    res = runner.invoke(cli.main, [command, "nowhere"])
    assert res.exit_code == 2 and "'nowhere' does not exist" in res.output
    no_traceback(res)


@pytest.mark.parametrize("args", [["reference", "mini", "--data", "nowhere"],
                                  ["run", "x.yaml", "--data", "nowhere"],
                                  ["explain", "gain 1 fuel", "--game", "mini", "--data", "nowhere"]])
def test_a_data_option_that_does_not_exist_is_a_usage_error(project, runner, args):
    if args[0] == "run":
        Path("x.yaml").write_text("game: mini\n")
    res = runner.invoke(cli.main, args)
    assert res.exit_code == 2 and "does not exist" in res.output
    no_traceback(res)


# --- usage errors: exit 2 ---------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["validate", "--format", "xml"],
    ["compile", "--no-such-option"],
    ["run"],
    ["run", "missing.yaml"],
    ["explain", "gain 2 fuel"],  # --game is required
    ["no-such-command"],
])
def test_usage_errors_exit_2(project, runner, args):
    res = runner.invoke(cli.main, args)
    assert res.exit_code == 2, res.output
    assert "Usage:" in res.output
    no_traceback(res)


# --- compile / build --------------------------------------------------------------------------------


def test_compile_and_build(project, runner):
    res = runner.invoke(cli.main, ["compile", "data"])
    assert res.exit_code == 0 and "compiled 1 games into generated (3 files changed)" in res.output
    res = runner.invoke(cli.main, ["compile", "data", "--format", "json"])
    assert res.exit_code == 0
    assert json.loads(res.stdout) == {"ok": True, "diagnostics": [], "changed": [], "out": "generated"}
    res = runner.invoke(cli.main, ["build", "data"])
    assert res.exit_code == 0 and res.output.startswith("built 1 games (3 cards): code in generated (0 changed)")
    res = runner.invoke(cli.main, ["build", "data", "--format", "json", "--out", "gen2"])
    payload = json.loads(res.stdout)
    assert res.exit_code == 0 and payload["ok"] and sorted(payload["changed"]) == [
        "__init__.py", "mini/__init__.py", "mini/base.py"]
    assert (project / "gen2" / "mini" / "base.py").read_bytes() == (project / "generated" / "mini" / "base.py").read_bytes()


# --- run --------------------------------------------------------------------------------------------


def test_run_scenario(project, runner, snapshot):
    res = runner.invoke(cli.main, ["run", "data/mini/scenarios/barracks.yaml", "--data", "data"])
    assert res.exit_code == 0, res.output
    assert res.output.rstrip().endswith("ok")
    assert snapshot == res.output


def test_run_scenario_json_and_failed_expectation(project, runner):
    sc = project / "data" / "mini" / "scenarios" / "barracks.yaml"
    res = runner.invoke(cli.main, ["run", str(sc), "--data", "data", "--format", "json"])
    payload = json.loads(res.stdout)
    assert res.exit_code == 0 and payload["ok"]
    (r,) = payload["scenarios"]
    assert r["ok"] and r["outcomes"] == ["done", "refused", "done", "done"]
    sc.write_text(sc.read_text().replace("vp: 1, fuel: 2", "vp: 2, fuel: 2"))
    res = runner.invoke(cli.main, ["run", str(sc), "--data", "data"])
    assert res.exit_code == 1 and "FAILED" in res.output
    assert "data/mini/scenarios/barracks.yaml:18:38: E702 Ann has 1 vp, expected 2" in res.output and "E702 Ann has 1 vp, expected 2" in res.output
    no_traceback(res)


def test_run_scenario_with_bad_effect_is_located(project, runner):
    sc = project / "data" / "mini" / "scenarios" / "barracks.yaml"
    sc.write_text(sc.read_text().replace('effect: "draw 2 cards"', 'effect: "draw 2 crads"'))
    res = runner.invoke(cli.main, ["run", str(sc), "--data", "data"])
    assert res.exit_code == 1
    assert "data/mini/scenarios/barracks.yaml:14:22: E201 unknown card 'crads'" in res.output
    assert "did you mean 'cards'?" in res.output
    no_traceback(res)


def test_run_scenario_of_unknown_game(project, runner):
    sc = project / "data" / "mini" / "scenarios" / "barracks.yaml"
    sc.write_text(sc.read_text().replace("game: mini", "game: maxi"))
    res = runner.invoke(cli.main, ["run", str(sc), "--data", "data"])
    assert res.exit_code == 1 and "E701 cannot load game 'maxi'" in res.output
    no_traceback(res)


# --- explain ----------------------------------------------------------------------------------------


def test_explain(project, runner):
    res = runner.invoke(cli.main, ["explain", "Spend 1 gun: gain 2 fuel", "--game", "mini", "--data", "data"])
    assert res.exit_code == 0, res.output
    assert "canonical: spend 1 gun: gain 2 fuel" in res.output
    assert "ctx.call('spend', (" in res.output and "strict=True" in res.output
    res = runner.invoke(cli.main, ["explain", "gain 2 fuel", "--game", "mini", "--data", "data", "--format", "json"])
    payload = json.loads(res.stdout)
    assert res.exit_code == 0 and payload["canonical"] == "gain 2 fuel" and "def effect(ctx):" in payload["python"]


def test_explain_errors(project, runner):
    res = runner.invoke(cli.main, ["explain", "gain 2 fule", "--game", "mini", "--data", "data"])
    assert res.exit_code == 1 and "<effect>:1:8: E201 unknown good 'fule'" in res.output
    res = runner.invoke(cli.main, ["explain", "gain 2 fuel", "--game", "nope", "--data", "data"])
    assert res.exit_code == 2 and "error: no game 'nope' under data; games: mini" in res.output
    no_traceback(res)


def test_explain_with_a_game_file_the_schema_rejects(project, runner):
    """A game.yaml that is valid YAML but lacks `game:` is a located E401, not a KeyError."""
    (Path("data") / "broken").mkdir()
    (Path("data") / "broken" / "game.yaml").write_text("name: Broken\n")
    res = runner.invoke(cli.main, ["explain", "gain 2 fuel", "--game", "broken", "--data", "data"])
    assert res.exit_code == 1 and "game.yaml:1:1: E401 'game' is missing" in res.output
    no_traceback(res)


# --- the installed script, in a real process --------------------------------------------------------


def _script() -> list[str]:
    exe = Path(sys.executable).with_name("cardwright")
    return [str(exe)] if exe.is_file() else [sys.executable, str(ROOT / "cli.py")]


def test_real_script_in_a_subprocess(tmp_path):
    shutil.copytree(MINI, tmp_path / "data")
    env = dict(os.environ, PYTHONPATH="")
    proc = subprocess.run(_script() + ["validate", "--format", "json"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["games"] == ["mini"]
    base = tmp_path / "data" / "mini" / "base.yaml"
    base.write_text(base.read_text().replace("gain 2 fuel", "gain 2 fule"))
    proc = subprocess.run(_script() + ["compile"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1
    assert "data/mini/base.yaml:9:24: E201 unknown good 'fule' in card 'oil_rig' (did you mean 'fuel'?)" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    proc = subprocess.run(_script() + ["compile", "--bogus"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 2


# --- the newcomer's flow (issue 2, "done when") -----------------------------------------------------

NEW_GAME = """\
# yaml-language-server: $schema=../schema/game.schema.json
game: tiny_farm
name: Tiny Farm
engine: core
source: example
goods:
  grain: {name: Grain}
  coin: {name: Coin}
zones:
  hand: {per: player}
  deck: {per: game}
  discard: {per: game}
  farm: {per: player}
phases: [harvest, market]
card_kinds:
  field:
    slots:
      harvest: {name: Harvest}
      market: {name: Market}
rules:
  hand: hand
  draw_from: deck
  discard_to: discard
"""

NEW_CARDS = """\
name: Tiny Farm base
cards:
  - id: wheat_field
    kind: field
    name: Wheat Field
    source: example
    harvest: gain 2 grian
    market: "spend 2 grain: gain 1 coin"
"""

NEW_SCENARIO = """\
scenario: first_harvest
game: tiny_farm
players: [Ann]
state:
  Ann:
    zones: {farm: [wheat_field]}
steps:
  - {card: wheat_field, slot: harvest, player: Ann}
  - {card: wheat_field, slot: market, player: Ann}
  - {card: wheat_field, slot: market, player: Ann, expect: refused}
expect:
  players:
    Ann:
      goods: {grain: 0, coin: 1}
"""


def test_newcomer_adds_a_game_with_a_typo_then_fixes_it(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    game = tmp_path / "data" / "tiny_farm"
    (game / "scenarios").mkdir(parents=True)
    (game / "game.yaml").write_text(NEW_GAME)
    (game / "base.yaml").write_text(NEW_CARDS)
    (game / "scenarios" / "first_harvest.yaml").write_text(NEW_SCENARIO)

    res = runner.invoke(cli.main, ["compile"])
    assert res.exit_code == 1
    no_traceback(res)
    assert res.output == (
        "data/tiny_farm/base.yaml:7:21: E201 unknown good 'grian' in card 'wheat_field' (did you mean 'grain'?)\n"
        "    at cards[0].harvest\n"
        "        harvest: gain 2 grian\n"
        "                        ^^^^^\n"
        "1 error.\n")
    assert not (tmp_path / "generated").exists()
    res = runner.invoke(cli.main, ["run", "data/tiny_farm/scenarios/first_harvest.yaml"])
    assert res.exit_code == 1 and "E701" in res.output and "validate" in res.output

    (game / "base.yaml").write_text(NEW_CARDS.replace("grian", "grain"))
    res = runner.invoke(cli.main, ["compile"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "generated" / "tiny_farm" / "base.py").is_file()
    res = runner.invoke(cli.main, ["run", "data/tiny_farm/scenarios/first_harvest.yaml"])
    assert res.exit_code == 0, res.output
    assert res.output.rstrip().endswith("ok")
    assert "gain" in res.output and "refused" in res.output
