"""A simulation report's figures are pinned: the speed work on the engines (issue 16 item 5) must
change no result. Each bundled game and the YAML-only deck-builder of the tests, seeded, with
random agents and with the Monte Carlo bot in one seat; the whole JSON result is compared with the
snapshot (tests/__snapshots__/test_simulate_pinned.ambr), so any change to a game's course — a
card drawn in another order, an RNG draw more or less, a different move listed — shows as a diff.
The invariants are checked after every move of every game here."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.build import load_game_folder
from runtime.simulate import SimConfig, render_html, simulate

FLOW = str(Path(__file__).resolve().parent / "fixtures" / "flow")

RUNS = {
    "ic-random": SimConfig("infernal_contraption", games=40, seed=11, check_moves=True),
    "ic-3p-random": SimConfig("infernal_contraption", games=20, players=3, seed=12, check_moves=True),
    "ic-mcts": SimConfig("infernal_contraption", games=3, seed=13, agent="mcts:2,random", check_moves=True),
    "ic-greedy": SimConfig("infernal_contraption", games=10, seed=14, agent="greedy,random", check_moves=True),
    "fifty-random": SimConfig("fifty_first_state", games=4, seed=15, check_moves=True),
    "moon-random": SimConfig("age_of_steam", games=4, players=3, seed=16, check_moves=True),
    "deckbuild-random": SimConfig("deckbuild", games=8, seed=17, data=FLOW, check_moves=True, loader=load_game_folder),
    "deckbuild-mcts": SimConfig("deckbuild", games=2, seed=18, data=FLOW, agent="mcts:2,greedy", check_moves=True, loader=load_game_folder),
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_simulation_figures_are_pinned(name, snapshot):
    result = simulate(RUNS[name])
    assert result["invariants"]["games_broken"] == 0, result["invariants"]["problems"]
    assert json.dumps(result, indent=1, sort_keys=True) == snapshot


def test_the_html_report_is_pinned_too(snapshot):
    assert render_html(simulate(RUNS["ic-random"])) == snapshot
