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
