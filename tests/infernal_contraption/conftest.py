"""Fixtures for Infernal Contraption: the committed compiled game and a machine builder.

Tests drive the REAL compiled content (data → compiler → generated/infernal_contraption → runtime).
"""
from __future__ import annotations

import pytest

from runtime.engine import ENGINES, load_compiled


@pytest.fixture(scope="session")
def ic():
    return load_compiled("infernal_contraption")


@pytest.fixture(scope="session")
def eng():
    return ENGINES["infernal_contraption"]


class Table:
    """A hand-laid table: empty zones, then cards put where a test needs them."""

    def __init__(self, eng, ic, players=("Ann", "Bob"), seed=0, agents=None):
        self.eng = eng
        self.game = eng.new_game(ic, list(players), seed=seed, agents=agents, setup=False)

    def add(self, card_id: str, zone: str, player: int | None = 0, n: int = 1) -> list[int]:
        key = self.game.zone_key(zone, player)
        return [self.game.create(card_id, key, owner=player).uid for _ in range(n)]

    def pile(self, player: int, n: int, card_id: str = "steam_boiler") -> list[int]:
        return self.add(card_id, "parts_pile", player, n)

    def hand(self, player: int, *card_ids: str) -> list[int]:
        return [self.add(c, "hand", player)[0] for c in card_ids]

    def machine(self, player: int, main: list[str], top: dict | None = None, bottom: dict | None = None):
        """Lay out a machine without play rules: main-line card ids left→right; top/bottom map a
        main-line index to a card id. Returns (main uids, {index: top uid}, {index: bottom uid})."""
        g = self.game
        m = g.machines[player]
        zone = ("machine", player)
        uids = []
        for cid in main:
            uid = g.create(cid, zone, owner=player).uid
            m.attach(uid, m.main[-1] if m.main else None, "right")
            uids.append(uid)
        plugs = {}
        for side, spec in (("top", top or {}), ("bottom", bottom or {})):
            plugs[side] = {}
            for i, cid in spec.items():
                uid = g.create(cid, zone, owner=player).uid
                m.attach(uid, uids[i], side)
                plugs[side][i] = uid
        return uids, plugs.get("top", {}), plugs.get("bottom", {})

    def ids(self, zone: str, player: int | None = 0) -> list[str]:
        g = self.game
        return [g.instances[u].card_id for u in g.zones[g.zone_key(zone, player)]]


@pytest.fixture
def table(eng, ic):
    def make(**kw):
        return Table(eng, ic, **kw)

    return make
