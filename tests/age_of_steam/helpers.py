"""Helpers for the Age of Steam tests: the real compiled game (generated/age_of_steam) and its scenarios."""
from __future__ import annotations

from pathlib import Path

from compiler.diagnostics import Diagnostics
from compiler.scenario import load_scenario
from runtime.engine import engine_for, load_compiled

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "data" / "age_of_steam" / "scenarios"
PLAYERS = ["Ann", "Bob", "Cid"]


def compiled():
    return load_compiled("age_of_steam")


def new_game(players=PLAYERS, setup=False, seed=0, **options):
    c = compiled()
    return engine_for(c).new_game(c, list(players), seed=seed, options=options, setup=setup)


def run_scenario(name: str):
    """Run data/age_of_steam/scenarios/<name>.yaml on the committed generated code; it must pass."""
    diags = Diagnostics()
    sc = load_scenario(SCENARIOS / f"{name}.yaml", lambda game: load_compiled(game), diags)
    assert sc is not None, [d.render() for d in diags]
    run = sc.run()
    assert run.ok, "\n".join(d.render() for d in run.diags)
    return run


def h(game, ref):
    """A hex by name or coordinates."""
    return game.engine.hex_of(game, ref)
