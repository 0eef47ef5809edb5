"""Scenario files under data/infernal_contraption/scenarios/, run on the committed compiled game,
with their traces snapshot-tested (syrupy)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import Diagnostics
from compiler.scenario import load_scenario
from runtime.engine import load_compiled

SCEN = Path(__file__).resolve().parents[2] / "data" / "infernal_contraption" / "scenarios"
FILES = sorted(SCEN.glob("*.yaml"))


def run(path: Path):
    diags = Diagnostics()
    sc = load_scenario(path, load_compiled, diags)
    assert sc is not None, [d.render() for d in diags]
    result = sc.run()
    return result, diags


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path, snapshot):
    result, diags = run(path)
    assert result.ok, "\n".join(d.render() for d in diags)
    assert result.game.check_conservation() == []
    assert result.trace() == snapshot
