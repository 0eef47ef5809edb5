"""Bad Moloch data gets located diagnostics (file, line, column, card), never a traceback."""
from __future__ import annotations

import shutil

import pytest

from compiler.build import compile_tree

from .helpers import ROOT


@pytest.fixture
def data(tmp_path):
    dst = tmp_path / "data"
    shutil.copytree(ROOT / "data" / "fifty_first_state", dst / "fifty_first_state",
                    ignore=shutil.ignore_patterns("scenarios"))
    return dst


def build_with(data, old: str, new: str):
    p = data / "fifty_first_state" / "moloch.yaml"
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    res = compile_tree(data)
    return [d for d in res.diags.errors], text.replace(old, new, 1).splitlines()


@pytest.mark.rule("M21")
def test_misspelt_icon_in_an_assault_is_located_with_a_hint(data):
    errs, lines = build_with(data, "raze 1 of your locations with icon green or worker",
                             "raze 1 of your locations with icon gren or worker")
    assert len(errs) == 1
    e = errs[0]
    assert e.code == "E201" and "unknown icon 'gren'" in e.message and e.card == "mother"
    assert "green" in (e.hint or "")
    assert e.file.endswith("moloch.yaml") and lines[e.line - 1][e.column - 1:].startswith("gren")


@pytest.mark.rule("M01")
def test_a_hacked_side_with_distance_2_is_rejected(data):
    errs, lines = build_with(data, "    hacked:\n      distance: 1\n      spoils: 3\n      rows: [production]\n      icons: [green]",
                             "    hacked:\n      distance: 2\n      spoils: 3\n      rows: [production]\n      icons: [green]")
    assert errs and all(e.code.startswith("E4") for e in errs)
    assert any(e.card == "mother" and "distance" in lines[e.line - 1] for e in errs)


def test_a_misspelt_field_on_a_machine_is_rejected(data):
    errs, lines = build_with(data, "    defense: 3\n    rage: false\n    assault: raze",
                             "    defence: 3\n    rage: false\n    assault: raze")
    assert errs and any("defence" in e.message for e in errs)


@pytest.mark.parametrize("step,message", [
    ("{player: Ann, contribute: mother, hack: 3}",
     "step 'contribute': 'hack' is a mapping of Goods to amounts (e.g. {iron: 1}), not the number 3"),
    ("{player: Ann, contribute: mother}",
     "step 'contribute' names what the payment is for: 'hack: {good: n}' or 'destroy: n'"),
    ("{deploy: lots}", "step 'deploy': 'deploy' is a number of Machines or 'table', not the text 'lots'"),
    ("{round: 0}", "step 'round': 'round' is a number of whole rounds (at least 1), not the number 0"),
    ("{player: Ann, construct: [oil_rig]}",
     "step 'construct': 'construct' is a card (its card id or its `as:` name), not a list"),
    ("{player: Ann, develop: oil_rig}", "step 'develop' needs 'with': the card from hand that replaces the Location"),
])
def test_a_malformed_step_is_a_located_error_in_words_never_a_key_error(tmp_path, step, message):
    from compiler.diagnostics import Diagnostics
    from compiler.scenario import load_scenario
    from runtime.engine import load_compiled

    path = tmp_path / "bad.yaml"
    path.write_text("game: fifty_first_state\nplayers: [Ann, Bob]\nstate:\n  Ann: {zones: {state: [oil_rig]}}\n"
                    f"steps:\n  - {step}\n", encoding="utf-8")
    sc = load_scenario(path, lambda g: load_compiled(g), Diagnostics())
    run = sc.run()
    assert [(d.code, d.line, d.message) for d in run.diags] == [("E701", 6, f"step 1 cannot run: {message}")]
