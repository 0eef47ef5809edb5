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
