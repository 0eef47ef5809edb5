"""Invariants over hundreds of seeded random games (DESIGN §7 properties), checked after every
step: every card in exactly one place (and the machine layout in step with its zone), no hand
above 10 after cleanup, eliminated players' cards out of the game."""
from __future__ import annotations

import pytest

from runtime.agents import SeededRandom
from runtime.games.infernal_contraption import HAND_LIMIT, Greedy


def _observer(problems):
    def observe(game, event, player):
        issues = game.check_conservation()
        if event == "cleanup" and not game.players[player].out and len(game.zones[("hand", player)]) > HAND_LIMIT:
            issues.append(f"hand of {player} holds {len(game.zones[('hand', player)])} after cleanup")
        for pl in game.players:
            if pl.out:
                for z in ("hand", "machine", "parts_pile"):
                    if game.zones[(z, pl.index)]:
                        issues.append(f"{pl.name} is out but has cards in {z}")
                if game.machines[pl.index].main:
                    issues.append(f"{pl.name} is out but has a machine layout")
        if issues:
            problems.append((game.seed, game.turn, event, issues))
    return observe


@pytest.mark.rule("I12")
@pytest.mark.rule("I19")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_over_random_games(eng, ic, players):
    problems = []
    games = 150 if players == 2 else 75
    finished = 0
    for seed in range(games):
        agents = {i: (SeededRandom() if (seed + i) % 3 else Greedy()) for i in range(players)}
        g = eng.new_game(ic, [f"P{i}" for i in range(players)], seed=seed, agents=agents)
        g.tracing = False
        g.observer = _observer(problems)
        assert g.check_conservation() == []
        eng.play_game(g, turn_cap=150)
        finished += g.over
        assert g.check_conservation() == []
    assert problems == []
    assert finished == games  # this deck always finishes well inside the cap


def test_same_seed_same_game(eng, ic):
    def trace(seed):
        g = eng.new_game(ic, ["A", "B", "C"], seed=seed, agents={i: SeededRandom() for i in range(3)})
        eng.play_game(g)
        return g.trace_text()

    assert trace(7) == trace(7)
    assert trace(7) != trace(8)
