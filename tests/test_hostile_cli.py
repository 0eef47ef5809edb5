"""Issue 11, class 1 (command line): a wrong game name or a run that cannot start is a usage error
(exit 2) with one message, never a traceback, and nothing is written before it is found out."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import cli

from .conftest import MINI

WRONG = "mimi"  # one letter off 'mini': every command must say "did you mean 'mini'?"


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


COMMANDS = {
    "reference": ["reference", WRONG, "--data", "data", "--out", "out"],
    "explain": ["explain", "gain 1 fuel", "--game", WRONG, "--data", "data"],
    "verbs": ["verbs", "--game", WRONG, "--data", "data"],
    "schema": ["schema", "--game", WRONG, "--data", "data", "--out", "out"],
    "new card": ["new", "card", "--game", WRONG, "--kind", "location", "--data", "data"],
    "cards": ["cards", WRONG, "--data", "data", "--out", "out"],
    "board": ["board", WRONG, "--data", "data", "--out", "out"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_names_an_unknown_game_the_same_way(project, runner, name):
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    res = runner.invoke(cli.main, COMMANDS[name])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit)
    assert res.output.strip() == f"error: no game '{WRONG}' under data (did you mean 'mini'?); games: mini"
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before  # nothing written


def test_simulate_names_an_unknown_game_with_did_you_mean(runner, tmp_path):
    res = runner.invoke(cli.main, ["simulate", "infernal_contraptoin", "--games", "1", "--out", str(tmp_path)])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit)
    assert "no game 'infernal_contraptoin' under data (did you mean 'infernal_contraption'?)" in res.output
    assert not list(tmp_path.iterdir())


def test_simulate_more_players_than_the_deck_seats_is_a_usage_error(runner, tmp_path):
    """Infernal Contraption's deck has 4 Power Cores: 5 players cannot start (today: a RulesError traceback)."""
    res = runner.invoke(cli.main, ["simulate", "infernal_contraption", "--games", "1", "--players", "5",
                                   "--out", str(tmp_path)])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert "infernal_contraption cannot be played by 5 players: the deck has 4 Power Cores" in res.output
    assert not list(tmp_path.iterdir())


def test_simulate_players_are_bounded_before_any_setup(runner, tmp_path):
    res = runner.invoke(cli.main, ["simulate", "infernal_contraption", "--games", "1", "--players", "100000000",
                                   "--out", str(tmp_path)])
    assert res.exit_code == 2 and "is not in the range 2<=x<=64" in res.output


def test_a_scenario_naming_an_unknown_game_says_did_you_mean(project, runner):
    Path("s.yaml").write_text("game: mimi\nplayers: [Ann]\nsteps: [{effect: gain 1 fuel}]\n")
    res = runner.invoke(cli.main, ["run", "s.yaml", "--data", "data"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "s.yaml:1:7: E701 cannot load game 'mimi': no game 'mimi' under data (did you mean 'mini'?)" in res.output


def test_run_judges_each_scenario_file_on_its_own(project, runner):
    """Issue 11, class 8: one failing scenario never marks the next one FAILED."""
    Path("bad.yaml").write_text("game: mini\nplayers: [Ann]\nsteps: [{effect: 'gain 1 vp'}]\n"
                                "expect: {players: {Ann: {goods: {vp: 5}}}}\n")
    res = runner.invoke(cli.main, ["run", "bad.yaml", "data/mini/scenarios/barracks.yaml", "--data", "data",
                                   "--format", "json"])
    assert res.exit_code == 1
    import json

    reports = {r["file"]: r["ok"] for r in json.loads(res.stdout)["scenarios"]}
    assert reports == {"bad.yaml": False, "data/mini/scenarios/barracks.yaml": True}
