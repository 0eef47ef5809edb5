"""Scenario files under data/infernal_contraption/scenarios/, run on the committed compiled game,
with their traces snapshot-tested (syrupy)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from compiler.diagnostics import Diagnostics
from compiler.scenario import load_scenario
from runtime.engine import load_compiled

SCEN = Path(__file__).resolve().parents[2] / "data" / "infernal_contraption" / "scenarios"
FILES = sorted(SCEN.glob("*.yaml"))


def _param(path: Path):
    """Each scenario is marked with the clauses its `rules:` list says it shows."""
    rules = yaml.safe_load(path.read_text(encoding="utf-8")).get("rules") or []
    return pytest.param(path, id=path.stem, marks=[pytest.mark.rule(r) for r in rules])


def run(path: Path):
    diags = Diagnostics()
    sc = load_scenario(path, load_compiled, diags)
    assert sc is not None, [d.render() for d in diags]
    result = sc.run()
    return result, diags


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_scenario(path, snapshot):
    result, diags = run(path)
    assert result.ok, "\n".join(d.render() for d in diags)
    assert result.game.check_conservation() == []
    assert result.trace() == snapshot


@pytest.mark.rule("I15")
def test_sample_machine_activation_order():
    """The illustrative sample machine (the rulebook's picture is not in its text): for each
    main-line card from the left, its top plug, the card, its bottom plug."""
    result, diags = run(SCEN / "sample_machine.yaml")
    assert result.ok
    order = [e.data["card"] for e in result.game.log if e.verb == "visit"]
    assert order == ["blasting_charge", "steam_boiler", "spare_parts_crate",
                     "tesla_dynamo", "power_core", "monkey_wrench",
                     "feeder_hopper", "scrap_shredder", "parts_grabber",
                     "grease_nozzle"]


def test_an_illegal_illustrative_machine_is_a_located_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "game: infernal_contraption\n"
        "players: [Ann, Bob]\n"
        "game_state:\n"
        "  machines:\n"
        "    Ann: {main: [{card: power_core, as: core}], bottom: {core: salvage_kit}}\n"
        "steps:\n"
        "  - {activate: true, player: Ann, opponent: Bob}\n", encoding="utf-8")
    result, diags = run(bad)
    assert not result.ok
    d = diags.errors[0]
    assert d.code == "E701" and d.file.endswith("bad.yaml") and d.line is not None
    assert "sockets do not match" in d.message  # Salvage Kit's top socket (alchemical) vs the core's bottom (coils)
