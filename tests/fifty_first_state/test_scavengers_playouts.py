"""Seeded random playouts with the Scavengers State Pack: cards are conserved, Goods never go
below zero, and no player ever takes a card from their own Personal Discard pile (S07/S08)."""
from __future__ import annotations

import re

import pytest

from compiler.explain import effect_function, explain_effect
from runtime.agents import SeededRandom
from runtime.engine import engine_for
from runtime.model import model_of

from .helpers import compiled, pack


@pytest.mark.rule("S08")
@pytest.mark.parametrize("seed", range(6))
def test_random_rounds_conserve_cards_and_never_touch_your_own_pile(seed):
    c = compiled()
    eng = engine_for(c)
    names = ["Ann", "Bob", "Cid", "Dee"][: 2 + seed % 3]
    packs = ["scavengers"] if seed % 2 else ["moloch", "scavengers"]
    game = eng.new_game(c, names, seed=seed, options={"packs": packs})
    game.default_agent = SeededRandom()
    total = len(game.instances)
    scav = pack(game, "scavengers")
    symbol = effect_function(explain_effect("draw 1 symbol card", model_of(c.vocab)))
    for _ in range(4):
        for phase in eng.phase_order(game):
            if phase == "action":
                for p in game.active_players():
                    game.players[p].goods.update({"worker": 1, "brick": 1, "fuel": 1, "iron": 1, "gun": 1})
                    scav.take_connection(eng, game, p)
                    eng.run(game, symbol, p)
                    for uid in list(game.zone("hand", p)):
                        kind = game.record(uid).get("kind")
                        if kind == "connection":
                            scav.play_connection(eng, game, p, uid)
                        elif kind == "location" and game.rng.random() < 0.5:
                            eng.place_in_state(game, uid, p)
                            rec = game.record(uid)
                            for slot in ("building_bonus",):
                                if slot in rec.get("slots", {}):
                                    eng.run_slot(game, uid, slot, player=p)
                    for uid in list(game.zone("state", p)):
                        if game.where[uid] == game.zone_key("state", p):
                            eng.use_action(game, p, uid)
            eng.phase(game, phase)
        assert game.check_conservation() == []
        assert len(game.instances) == total
        assert all(v >= 0 for pl in game.players for v in pl.goods.values())
    own = [e for e in game.log if e.verb == "draw" and e.player
           and re.search(rf"Personal Discard pile of {re.escape(e.player)}$", e.text)]
    assert own == []
    assert any(e.verb == "draw" and "Personal Discard pile of" in e.text for e in game.log)  # [symbol]s happened
    kinds = {e.verb for e in game.log}
    assert {"reveal", "draft", "discard"} <= kinds, kinds
