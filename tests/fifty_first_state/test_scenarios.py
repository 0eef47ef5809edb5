"""Every bundled 51st State scenario runs clean, and its trace is snapshot tested (syrupy)."""
from __future__ import annotations

import pytest

from .helpers import SCENARIOS, run_scenario

NAMES = sorted(p.stem for p in SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("name", NAMES)
def test_scenario_trace(name, snapshot):
    sc, run = run_scenario(name)
    assert run.game.check_conservation() == []
    assert run.trace() == snapshot
