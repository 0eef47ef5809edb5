"""Seeded random playouts of the Moloch rounds: cards are conserved, nothing crashes."""
from __future__ import annotations

import pytest

from runtime.agents import SeededRandom
from runtime.engine import engine_for

from .helpers import compiled, pack


@pytest.mark.parametrize("seed", range(6))
def test_random_rounds_conserve_cards(seed):
    c = compiled()
    eng = engine_for(c)
    game = eng.new_game(c, ["Ann", "Bob", "Cleo"][: 1 + seed % 3], seed=seed,
                        options={"difficulty": ["recruit", "private", "veteran"][seed % 3]})
    game.default_agent = SeededRandom()
    total = len(game.instances)
    m = pack(game)
    for p in game.active_players():  # a State and a hand to assault (the base game's start is not modelled)
        for _ in range(4):
            eng.place_in_state(game, game.zone("deck")[-1], p)
        for _ in range(2):
            game.move(game.zone("deck")[-1], game.zone_key("hand", p))
    for _ in range(5):
        for name in eng.phase_order(game):
            if name == "action":
                for p in game.active_players():
                    # a few random actions: hack or destroy something if affordable, use a Location
                    game.players[p].goods.update({"red_contact": 2, "iron": 1, "fuel": 1, "worker": 1})
                    for uid in list(game.zone("deployed"))[:2]:
                        m.destroy(eng, game, p, uid) if seed % 2 else m.hack(eng, game, p, uid)
                    for uid in list(game.zone("state", p)):
                        eng.use_action(game, p, uid)
            eng.phase(game, name)
        assert game.check_conservation() == []
        assert len(game.instances) == total
        assert all(v >= 0 for pl in game.players for v in pl.goods.values())
    eng.end_game(game)
    assert game.check_conservation() == []
    kinds = {e.verb for e in game.log}
    assert {"deploy", "assault"} <= kinds, kinds
