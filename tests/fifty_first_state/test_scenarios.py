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


def test_cli_runs_every_bundled_scenario_from_another_folder(tmp_path):
    """`cardwright run` on the bundled Moloch scenarios, as a real subprocess, outside the checkout."""
    import subprocess
    import sys

    from .helpers import ROOT

    files = [str(SCENARIOS / f"{n}.yaml") for n in NAMES]
    res = subprocess.run([sys.executable, str(ROOT / "cli.py"), "run", "--quiet", *files],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.count("\nok") + res.stdout.startswith("ok") == len(NAMES)
