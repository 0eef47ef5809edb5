"""The game's options in played games (issue 24, item 2): the Collaboration variant (M20, chosen at
setup as M02 chooses the difficulty) is playable through the stand-in turn — offered, applied and
completed by another player — and only when chosen; the difficulty sets the Deploy count (M06)."""
from __future__ import annotations

import random

import pytest

from .test_match import invariants, match


def contributions(collaboration: bool, seeds=range(6)):
    """Per seeded game: the partial payments offered, made, and the Machines completed by another
    player on them (the log's 'partly paid by')."""
    out = []
    for seed in seeds:
        m = match(seed, players=("Ann", "Bob", "Cid"), packs=["moloch"], collaboration=collaboration)
        rng, offered, made = random.Random(seed), 0, 0
        while not m.terminal():
            legal = m.legal_moves()
            mine = [mv for mv in legal if mv.key[0] == "contribute"]
            offered += len(mine)
            # lean on the variant: a partial payment whenever one is offered, else a random move
            move = rng.choice(mine) if mine and rng.random() < 0.5 else rng.choice(legal)
            made += move.key[0] == "contribute"
            m.apply(move)
            assert invariants(m) == []
        out.append((offered, made, m.game.trace_text().count("partly paid by")))
    return out


@pytest.mark.slow
@pytest.mark.rule("M20")
def test_the_collaboration_variant_is_playable_and_only_when_chosen():
    on = contributions(True)
    assert sum(o for o, _, _ in on) > 0 and sum(m for _, m, _ in on) > 0
    assert sum(c for _, _, c in on) > 0  # some player completed a Machine another had partly paid
    off = contributions(False, seeds=range(2))
    assert all(o == 0 for o, _, _ in off)


@pytest.mark.rule("M06")
@pytest.mark.parametrize("level, per_round", [("recruit", 3), ("private", 4), ("veteran", 5)])
def test_the_difficulty_option_sets_how_many_machines_deploy(level, per_round):
    m = match(4, players=("Ann", "Bob", "Cid"), packs=["moloch"], difficulty=level)
    while m.game.round == 1 and not m.terminal():  # round 1's Deploy comes after its draft
        m.apply(m.legal_moves()[0])
    assert m.game.trace_text().count("from the bottom of the Machine deck") == per_round
