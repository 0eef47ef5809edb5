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
        """Lay out a machine: main-line card ids left→right; top/bottom map a main-line index to a
        card id. Returns (main uids, {index: top uid}, {index: bottom uid}).

        Every card after the first is attached only where the placement rules allow it
        (``placement_problem``: sockets I09, plugs I01, Consumables on Power Sources I07, Sabotages
        only from an opponent I08): a test cannot build a machine the rules forbid. The first
        main-line card (normally the Power Core, I03) starts the machine and needs no anchor."""
        g = self.game
        m = g.machines[player]
        zone = ("machine", player)
        def attach(cid: str, anchor, side: str) -> int:
            uid = g.create(cid, zone, owner=player).uid
            if anchor is not None:
                # a Sabotage in this machine was played by an opponent (I08); anything else by its owner
                by = (player + 1) % len(g.players) if g.kind_of.get(uid) == "sabotage" else player
                problem = self.eng.placement_problem(g, by, uid, player, anchor, side)
                assert problem is None, f"illegal test machine: {cid} at {side} of {g.instances[anchor].card_id}: {problem}"
            m.attach(uid, anchor, side)
            return uid

        # the machine grows from its Power Core (or its first card) outwards, as in play
        first = main.index("power_core") if "power_core" in main else 0
        uids = [0] * len(main)
        uids[first] = attach(main[first], None, "right")
        for i in range(first + 1, len(main)):
            uids[i] = attach(main[i], m.main[-1], "right")
        for i in range(first - 1, -1, -1):
            uids[i] = attach(main[i], m.main[0], "left")
        plugs = {}
        for side, spec in (("top", top or {}), ("bottom", bottom or {})):
            plugs[side] = {}
            for i, cid in spec.items():
                plugs[side][i] = attach(cid, uids[i], side)
        return uids, plugs.get("top", {}), plugs.get("bottom", {})

    def ids(self, zone: str, player: int | None = 0) -> list[str]:
        g = self.game
        return [g.instances[u].card_id for u in g.zones[g.zone_key(zone, player)]]


@pytest.fixture
def table(eng, ic):
    def make(**kw):
        return Table(eng, ic, **kw)

    return make
