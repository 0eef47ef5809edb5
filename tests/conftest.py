"""Shared fixtures: the project root, the mini fixture game, a CLI runner."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
MINI = FIXTURES / "mini"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def mini_game(tmp_path):
    """A writable copy of the mini fixture game (data folder with one game)."""
    import shutil

    dst = tmp_path / "data"
    shutil.copytree(MINI, dst)
    return dst


@pytest.fixture
def templated_mini(tmp_path, monkeypatch):
    """The mini game in a writable data folder with an empty ``templates/`` folder, the working folder
    its parent: where the hostile template and printer tests put a stranger's card faces."""
    import shutil

    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "mini" / "templates").mkdir()
    return tmp_path / "data" / "mini"
