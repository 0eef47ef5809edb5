"""Issue 26, item 2: no silent failures.

- ``the FIELD of NAME`` of a card that has no such field counts 0 in arithmetic — the compiled code
  and the reference interpreter alike (docs/decisions.md).
- A flow text that is refused (final scoring cut short) is reported by ``simulate`` (report and
  terminal) and ``play`` (terminal): how often, where, the first reason.
- A trigger slot that listens nowhere, and a card no setup step creates, are warnings (E213, E214).
- ``validate`` and ``build`` check the scenarios' names with ``run``'s code; ``watch`` keeps no stale
  scenario error.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli import main
from compiler.build import compile_tree, load_game_folder
from compiler.explain import effect_function, explain_effect
from compiler.interpret import interpret
from compiler.lsp.project import Project
from compiler.scaffold import new_game
from compiler.watch import Watcher
from runtime.engine import engine_for, load_from_sources
from runtime.model import model_of

NO_POINTS = """  - id: plain_card
    kind: action
    name: Plain Card
    source: example
    cost: 2
    count: 3
    effect: "gain 1 coin"
"""


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def quick(tmp_path) -> Path:
    """The scaffolded game with a `points` field that one card has and another lacks."""
    data = tmp_path / "data"
    new_game("quick", data)
    folder = data / "quick"
    _edit(folder / "game.yaml", "      cost: int\n", "      cost: int\n      points: int\n")
    _edit(folder / "base.yaml", "    cost: 1\n", "    cost: 1\n    points: 2\n")
    with (folder / "base.yaml").open("a", encoding="utf-8") as f:
        f.write(NO_POINTS)
    assert compile_tree(data).ok
    return data


# --- a field a card may lack -------------------------------------------------------------------------

SUM_POINTS = "for each card in your hand as v: gain (the points of v) vp"


@pytest.mark.parametrize("side", ["compiled", "reference"])
def test_a_field_a_card_lacks_counts_0_in_arithmetic(quick, side):
    result = compile_tree(quick)
    compiled = load_from_sources(result.outputs, "quick")
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False)
    for cid in ("first_card", "plain_card", "first_card", "plain_card"):
        game.create(cid, game.zone_key("hand", 0), owner=0)
    ex = explain_effect(SUM_POINTS, model_of(compiled.vocab))
    assert not ex.diags.errors
    if side == "compiled":
        out = engine.run(game, effect_function(ex), 0)
    else:
        out = interpret(game, ex.ir, 0, None, None)
    assert out.status == "done", out.reason  # was: refused at the first plain_card
    assert game.players[0].goods["vp"] == 2 + 0 + 2 + 0


# --- refusals inside the flow's texts are reported -----------------------------------------------------

def _refused_final_scoring(data: Path) -> None:
    """Final scoring that costs 9 coin: refused for every player of every game."""
    _edit(data / "quick" / "game.yaml", "  score:\n    points: number of vp\n",
          "  score:\n    final:\n      - effect: \"spend 9 coin: gain 5 vp\"\n    points: number of vp\n")


def test_simulate_reports_refusals_in_the_flow_in_the_result_and_on_the_terminal(quick, runner, tmp_path):
    from runtime.simulate import SimConfig, render_html, simulate

    clean = simulate(SimConfig("quick", games=3, players=2, seed=1, data=str(quick), loader=load_game_folder))
    assert clean["flow_refusals"] == []
    # a folder of its own: simulate keeps a compiled game per (game, folder)
    quick = Path(shutil.copytree(quick, tmp_path / "refusing" / "data"))
    _refused_final_scoring(quick)
    r = simulate(SimConfig("quick", games=3, players=2, seed=1, data=str(quick), loader=load_game_folder))
    (found,) = r["flow_refusals"]
    assert found["count"] == 6 and found["games"] == 3 and found["first_game"] == 0  # 2 players x 3 games
    assert found["where"].startswith("data/quick/game.yaml:") and "not enough coin" in found["first"]
    line = int(found["where"].split(":")[1].split()[0])
    assert "spend 9 coin" in (quick / "quick" / "game.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert "Refusals inside the flow&#39;s texts: 6" in render_html(r) or "Refusals inside the flow's texts: 6" in render_html(r)
    res = runner.invoke(main, ["simulate", "quick", "--data", str(quick), "--games", "3", "--seed", "1",
                               "--out", str(tmp_path / "sim")])
    assert res.exit_code == 0, res.output
    assert "WARNING: 6 refusals inside the flow's texts" in res.output and "not enough coin" in res.output
    saved = json.loads((tmp_path / "sim" / "quick-2p-seed1.json").read_text(encoding="utf-8"))
    assert saved["flow_refusals"][0]["count"] == 6


def test_play_reports_refusals_in_the_flow_at_the_end(quick, runner):
    _refused_final_scoring(quick)
    res = runner.invoke(main, ["play", "quick", "--data", str(quick), "--seed", "1", "--bots", "first"],
                        input="1\n" * 400)
    assert "game over" in res.output.lower(), res.output[-2000:]
    assert "refusals inside the flow's texts" in res.output and "not enough coin" in res.output


# --- what validates but never happens: warnings ------------------------------------------------------

def test_a_trigger_slot_that_listens_nowhere_is_a_warning(quick, monkeypatch):
    gfile = quick / "quick" / "game.yaml"
    _edit(gfile, "      effect: {name: Effect}\n",
          "      effect: {name: Effect}\n      reaction: {name: Reaction, kind: trigger}\n")
    result = compile_tree(quick)
    assert result.ok  # a warning does not fail the build
    (w,) = [d for d in result.diags if d.code == "E213"]
    assert w.severity == "warning" and "listens in no zone" in w.message and w.path == "card_kinds.action.slots.reaction"
    monkeypatch.chdir(quick.parent)
    lsp = [d for d in Project().check(Path("data/quick/game.yaml")).diagnostics if d.code == "E213"]
    assert [(d.line, d.message) for d in lsp] == [(w.line, w.message)]
    # listening somewhere: no warning
    _edit(gfile, "reaction: {name: Reaction, kind: trigger}", "reaction: {name: Reaction, kind: trigger, listens_in: [hand]}")
    assert not [d for d in compile_tree(quick).diags if d.code == "E213"]


def test_a_card_no_setup_step_creates_is_a_warning(quick, monkeypatch):
    assert not [d for d in compile_tree(quick).diags if d.code == "E214"]  # create: all
    _edit(quick / "quick" / "game.yaml", "{create: all, into: deck}", "{create: {first_card: 10}, into: deck}")
    result = compile_tree(quick)
    assert result.ok
    found = [(d.code, d.severity, d.message) for d in result.diags if d.code == "E214"]
    assert found == [("E214", "warning", "no setup step of the game's flow creates card 'plain_card': it is never in a game")]
    monkeypatch.chdir(quick.parent)
    lsp = [d.message for d in Project().check(Path("data/quick/base.yaml")).diagnostics if d.code == "E214"]
    assert lsp == [found[0][2]]
    # a misspelt create: its E201, and no "first_card is never created" that only follows from it
    _edit(quick / "quick" / "game.yaml", "{create: {first_card: 10}, into: deck}",
          "{create: {frist_card: 10, plain_card: 1}, into: deck}")
    assert [d.code for d in compile_tree(Path("data")).diags] == ["E201"]
    assert not [d for d in Project().check(Path("data/quick/base.yaml")).diagnostics if d.code == "E214"]


# --- scenarios are checked by validate and build --------------------------------------------------------

def _misspell_scenario(data: Path) -> Path:
    path = data / "quick" / "scenarios" / "first_card.yaml"
    _edit(path, "zones: {hand: [first_card]}", "zones: {hand: [frist_card]}")
    return path


@pytest.mark.parametrize("command", ["validate", "build", "run"])
def test_validate_and_build_check_scenarios_with_runs_code(quick, runner, tmp_path, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _misspell_scenario(quick)
    args = {"validate": ["validate", str(quick)],
            "build": ["build", str(quick), "--out", str(tmp_path / "gen"), "--reference-out", str(tmp_path / "ref")],
            "run": ["run", str(path), "--data", str(quick)]}[command]
    res = runner.invoke(main, args + ["--format", "json"])
    assert res.exit_code == 1, res.output
    found = [(d["code"], d["message"], d["line"]) for d in json.loads(res.output)["diagnostics"]]
    assert found == [("E201", "unknown card 'frist_card'", 9)]


def test_a_scenario_of_a_game_whose_module_is_broken_is_not_judged_on_its_cards(quick):
    _misspell_scenario(quick)
    _edit(quick / "quick" / "base.yaml", "    effect: \"spend 1 coin", "\teffect: \"spend 1 coin")
    assert [d.code for d in compile_tree(quick, scenarios=True).diags.errors] == ["E103"]


def test_simulate_and_play_load_a_game_whose_scenario_is_broken(quick):
    _misspell_scenario(quick)
    assert load_game_folder("quick", str(quick)).game == "quick"


def test_watch_keeps_no_stale_scenario_error(quick):
    """A scenario fixed while the game did not build is run again once it builds; so is one that was
    deleted (its error goes)."""
    w = Watcher(quick, None, run_scenarios=True)
    w.poll()
    assert w.build().ok
    scen = quick / "quick" / "scenarios" / "first_card.yaml"
    good = scen.read_text(encoding="utf-8")
    scen.write_text(good.replace("goods: {coin: 0, vp: 1}", "goods: {coin: 0, vp: 7}"), encoding="utf-8")
    rep = w.build(w.poll())
    assert [d.code for d in rep.new] == ["E702"]
    base = quick / "quick" / "base.yaml"
    ok_base = base.read_text(encoding="utf-8")
    base.write_text(ok_base.replace("    effect: \"spend 1 coin", "\teffect: \"spend 1 coin"), encoding="utf-8")
    rep = w.build(w.poll())
    assert not rep.ok
    scen.write_text(good, encoding="utf-8")  # fixed while the game does not build
    w.build(w.poll())
    base.write_text(ok_base, encoding="utf-8")
    rep = w.build(w.poll())
    assert rep.ok and rep.errors == 0, [d.headline() for d in rep.new]
    # a failing scenario that is deleted takes its error with it
    scen.write_text(good.replace("goods: {coin: 0, vp: 1}", "goods: {coin: 0, vp: 7}"), encoding="utf-8")
    assert not w.build(w.poll()).ok
    scen.unlink()
    rep = w.build(w.poll())
    assert rep.ok and rep.errors == 0
