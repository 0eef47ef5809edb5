"""Issue 23, class 5: text that validates cannot ask for unbounded work. Every trigger firing, loop
round and statement is charged to one budget per effect and per move (runtime/budget.py); past it,
the run stops with a worded refusal naming the card and YAML line, and `run`, `watch`, `simulate`
report it and come back at once."""
from __future__ import annotations

import shutil

import pytest

import cli
from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect
from runtime import budget
from runtime.engine import engine_for, load_from_sources
from runtime.model import model_of
from tests.conftest import FIXTURES
from tests.guards import finishes_within

COPIES = 16  # twelve took 3.5 s before the budget, and every two more copies ×10

# Two trigger cards that answer every "put" with a "put" (hand -> discard, discard -> hand): no slot
# re-enters itself, but every copy re-enters every other, so one put fires them n! times.
STORM = """\
  - id: looper
    name: Looper
    kind: card
    icons: [action]
    cost: 1
    play: gain 1 coin
    reaction: "whenever you put a card: put 1 card from your hand into your discard pile"
  - id: returner
    name: Returner
    kind: card
    icons: [action]
    cost: 1
    play: gain 1 coin
    reaction: "whenever you put a card: put 1 card from your discard pile into your hand"
"""

SCENARIO = f"""\
scenario: storm
game: truth
players: [Ann, Bob]
state:
  Ann:
    zones:
      tableau: [{", ".join(["looper", "returner"] * (COPIES // 2))}]
      hand: [copper]
steps:
  - {{effect: "put 1 card from your hand into your discard pile", player: Ann}}
"""


@pytest.fixture
def storm(tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / "truth", tmp_path / "data")
    game = tmp_path / "data" / "truth"
    with open(game / "base.yaml", "a", encoding="utf-8") as f:
        f.write(STORM)
    (game / "scenarios").mkdir()
    (game / "scenarios" / "storm.yaml").write_text(SCENARIO, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return game


def _looper_line(game) -> int:
    lines = (game / "base.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if "whenever you put a card: put 1 card from your hand" in ln)


def test_a_trigger_storm_is_refused_by_name_and_line(storm, runner):
    assert runner.invoke(cli.main, ["compile", "data"]).exit_code == 0
    with finishes_within(20):
        res = runner.invoke(cli.main, ["run", "data/truth/scenarios/storm.yaml"])
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception  # never a traceback
    assert f"more than {budget.PER_EFFECT[budget.FIRINGS]:,} trigger firings in one effect" in res.output
    # the card that was firing, at its YAML line
    assert f"data/truth/base.yaml:{_looper_line(storm)} card 'looper' reaction" in res.output or \
        "card 'returner' reaction" in res.output


def test_watch_reports_the_storm_and_comes_back(storm, runner):
    with finishes_within(30):
        res = runner.invoke(cli.main, ["watch", "data", "--once"])
    assert isinstance(res.exception, (SystemExit, type(None))), res.exception
    assert "trigger firings in one effect" in res.output


def _compiled(root):
    result = compile_tree(root)
    assert result.ok, [d.render() for d in result.diags.errors]
    return load_from_sources(result.outputs, "truth")


def _fn(compiled, text):
    ex = explain_effect(text, model_of(compiled.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return effect_function(ex)


def test_nested_untils_share_one_budget():
    """Three nested untils of 100 rounds each would run 1 000 000 rounds; their rounds are charged
    to one budget, so the effect stops past the per-effect number, worded."""
    compiled = _compiled(FIXTURES / "truth")
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False, agents={})
    fn = _fn(compiled, "until number of cards in your hand >= 99: (until number of cards in your deck >= 99: "
                       "(until number of cards in your tableau >= 99: gain 1 coin; gain 1 debt))")
    with finishes_within(20):
        out = engine.run(game, fn, 0)
    assert out.status == "refused"
    assert f"more than {budget.PER_EFFECT[budget.ROUNDS]:,} loop rounds in one effect" in out.reason
    assert game.budget.effect[budget.ROUNDS] == budget.PER_EFFECT[budget.ROUNDS] + 1


def test_statements_are_charged_per_move(monkeypatch):
    """The per-move budget spans every effect a move runs; a new move starts afresh."""
    compiled = _compiled(FIXTURES / "truth")
    engine = engine_for(compiled)
    game = engine.new_game(compiled, ["Ann", "Bob"], setup=False, agents={})
    monkeypatch.setattr(budget, "PER_MOVE", (10, 10, 5))
    gain = _fn(compiled, "gain 1 coin")
    outs = [engine.run(game, gain, 0).status for _ in range(6)]
    assert outs == ["done"] * 5 + ["refused"]
    game.budget.new_move()
    assert engine.run(game, gain, 0).status == "done"


def test_a_copied_state_counts_afresh():
    compiled = _compiled(FIXTURES / "truth")
    game = engine_for(compiled).new_game(compiled, ["Ann", "Bob"], setup=False, agents={})
    game.budget.move[budget.STATEMENTS] = 7
    assert game.copy().budget.move == [0, 0, 0] and game.budget.move[budget.STATEMENTS] == 7



@pytest.fixture
def storm_flow(tmp_path, monkeypatch):
    """The YAML-only deck-builder with a storm in every player's tableau: its cleanup puts cards,
    and every put sets the storm off."""
    shutil.copytree(FIXTURES / "flow", tmp_path / "data")
    game = tmp_path / "data" / "deckbuild"
    text = (game / "game.yaml").read_text(encoding="utf-8")
    for old, new in (
        ("  trash: {per: game, name: Trash}\n",
         "  trash: {per: game, name: Trash}\n  tableau: {per: player, name: Tableau}\n"),
        ("      play: {name: Play}\n",
         "      play: {name: Play}\n      reaction: {name: Reaction, kind: trigger, listens_in: [tableau]}\n"),
        ("    - {shuffle: deck}\n",
         f"    - {{create: {{looper: {COPIES // 2}, returner: {COPIES // 2}}}, into: tableau}}\n    - {{shuffle: deck}}\n"),
    ):
        assert old in text
        text = text.replace(old, new, 1)
    (game / "game.yaml").write_text(text, encoding="utf-8")
    with open(game / "base.yaml", "a", encoding="utf-8") as f:
        f.write(STORM.replace("    icons: [action]\n", "    icons: [victory]\n"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_simulate_plays_a_storm_game_to_the_end(storm_flow, runner):
    with finishes_within(240):
        res = runner.invoke(cli.main, ["simulate", "deckbuild", "--data", "data", "--games", "1", "--turn-cap", "3",
                                       "--out", "out"])
    assert res.exit_code == 0 and res.exception is None, res.output
    assert (storm_flow / "out" / "deckbuild-2p-seed0.json").is_file()


def test_play_reports_the_storm_and_stays_responsive(storm_flow, runner):
    with finishes_within(240):
        res = runner.invoke(cli.main, ["play", "deckbuild", "--data", "data"], input="1\n" * 40 + "q\n")
    assert isinstance(res.exception, (SystemExit, type(None))), res.exception
    assert "trigger firings in one effect" in res.output
