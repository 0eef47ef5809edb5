"""Track costs come from the data file: change the crater cost in game.yaml and the price changes."""
from __future__ import annotations

import shutil

import pytest

from compiler.build import compile_tree
from runtime.engine import engine_for, load_from_sources

from .helpers import ROOT


def _game_from(data_dir):
    result = compile_tree(data_dir)
    assert result.ok, [d.render() for d in result.diags]
    compiled = load_from_sources(result.outputs, "age_of_steam")
    game = engine_for(compiled).new_game(compiled, ["Ann", "Bob", "Cid"])
    game.players[0].goods["money"] = 30
    game.engine.phase(game, "build_track")
    return game


def _copy(tmp_path, crater=None, mountain=None, town_base=None):
    dst = tmp_path / "data" / "age_of_steam"
    shutil.copytree(ROOT / "data" / "age_of_steam", dst, ignore=shutil.ignore_patterns("scenarios"))
    text = (dst / "game.yaml").read_text(encoding="utf-8")
    if crater is not None:
        assert text.count("      track_cost: 3\n") == 1
        text = text.replace("      track_cost: 3\n", f"      track_cost: {crater}\n")
    if mountain is not None:
        text = text.replace("      track_cost: 4\n", f"      track_cost: {mountain}\n")
    if town_base is not None:
        text = text.replace("    base: 2\n", f"    base: {town_base}\n")
    (dst / "game.yaml").write_text(text, encoding="utf-8")
    return dst.parent


@pytest.mark.rule("A06")
def test_changing_the_crater_cost_in_yaml_changes_the_price(tmp_path):
    game = _game_from(_copy(tmp_path / "a"))
    game.engine.build(game, 0, ["0,-1", "1,-2"], start="Landing")
    assert game.players[0].goods["money"] == 30 - 2 * 3
    game = _game_from(_copy(tmp_path / "b", crater=7))
    game.engine.build(game, 0, ["0,-1", "1,-2"], start="Landing")
    assert game.players[0].goods["money"] == 30 - 2 * 7
    assert "0,-1 (crater $7) → 1,-2 (crater $7): $14" in game.trace_text()


@pytest.mark.rule("A06")
def test_mountain_and_town_costs_also_come_from_the_data(tmp_path):
    game = _game_from(_copy(tmp_path, mountain=9, town_base=5))
    game.engine.build(game, 0, ["Hadley"], start="Landing")  # Town: base 5 + 1 section
    assert game.players[0].goods["money"] == 30 - 6
    game.engine.build(game, 0, ["0,-1"], start="Landing")
    game.moon.built.clear()
    game.engine.build(game, 0, ["1,-2", "Tycho"], cont="L2")
    game.engine.build(game, 0, ["3,-4"], start="Tycho")  # a mountain at the data's $9
    assert game.players[0].goods["money"] == 30 - 6 - 3 - 3 - 9
