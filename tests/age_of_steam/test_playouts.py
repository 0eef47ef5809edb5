"""Seeded random turns on the Moon: refusals change nothing, invariants hold, cubes are conserved."""
from __future__ import annotations

import random

import pytest

from runtime.games.age_of_steam import check_invariants, cube_total
from runtime.games.age_of_steam.playout import random_turn

from .helpers import new_game


@pytest.mark.parametrize("seed", range(6))
def test_random_turns_keep_the_rules_invariants(seed):
    game = new_game(["A", "B", "C", "D"][: 3 + seed % 2], setup=True, seed=seed)
    for p in game.players:
        p.goods["money"] = 60
    rng = random.Random(seed)
    total = {"actions": 0, "builds": 0, "moves": 0, "refused": 0}

    def checked(kind, fn):
        before = game.snapshot()
        cubes = cube_total(game)
        try:
            fn()
        except Exception:
            assert game.snapshot() == before, f"a refused {kind} changed the state"
            raise
        if kind == "move":
            assert cube_total(game) == cubes - 1  # a delivered cube leaves the game
        else:
            assert cube_total(game) == cubes

    for _ in range(6):
        cubes_before = cube_total(game)
        stats = random_turn(game, rng, checked)
        for k in total:
            total[k] += stats[k]
        assert check_invariants(game) == []
        assert cube_total(game) == cubes_before - stats["moves"]  # Growth and the Satellite only move cubes
        assert game.check_conservation() == []
    assert total["builds"] > 0 and total["refused"] > 0, total
    assert game.moon.turn == 7
