"""The runtime's shortcuts for moving cards and checking a choice hold to the slow ways they replace:
``GameState.move`` pops a card on top of its zone (``list.remove`` searched for it), ``move_many``
groups a deal from one pile at C speed, and ``Ctx.ask`` answers a single legal pick at once — and
still refuses an agent's wrong answer (issue 27)."""
from __future__ import annotations

import random

import pytest

from runtime.agents import Agent
from runtime.context import Ctx
from runtime.engine import load_compiled
from runtime.errors import RulesError
from runtime.state import GameState


def slow_move(g, uid, to, bottom=False):
    """``GameState.move`` as it was before the pop: the reference the shortcut is held to (a zone of
    the game's ``ruled_zones`` asks its rules first, as ``move`` does: Infernal Contraption's machines)."""
    src = g.where[uid]
    if src[0] in g.ruled_zones:
        g.leaving(uid, src, to)
    g.zones[src].remove(uid)
    if bottom:
        g.zones[to].insert(0, uid)
    else:
        g.zones[to].append(uid)
    g.where[uid] = to
    g.card_moves += 1


def _two_games(seed):
    compiled = load_compiled("fifty_first_state")  # a core GameState subclass that keeps the core's moves
    games = []
    for _ in range(2):
        g = GameState(compiled.vocab, compiled.cards, ["Ann", "Bob"], seed=seed)
        zones = sorted(g.zones)
        rng = random.Random(seed)
        ids = sorted(compiled.cards)
        for _ in range(60):
            g.create(rng.choice(ids), rng.choice(zones))
        games.append(g)
    return games


def _state(g):
    return g.zones, g.where, g.card_moves


@pytest.mark.parametrize("seed", range(8))
def test_moves_and_deals_are_the_slow_ones(seed):
    fast, slow = _two_games(seed)
    zones = sorted(fast.zones)
    rng = random.Random(seed)
    for _ in range(300):
        to = rng.choice(zones)
        if rng.random() < 0.3:  # a deal: from one pile, from several, a card twice, nothing
            src = rng.choice([z for z in zones if fast.zones[z]] or zones)
            pool = list(fast.zones[src]) if rng.random() < 0.6 else list(fast.where)
            uids = rng.sample(pool, min(len(pool), rng.randrange(0, 6)))
            if uids and rng.random() < 0.1:
                uids.append(uids[0])
            fast.move_many(uids, to)
            for uid in uids:
                slow_move(slow, uid, to)
        else:
            uid = rng.choice(list(fast.where))
            if rng.random() < 0.5:  # a top card, as most moves are
                uid = fast.zones[fast.where[uid]][-1]
            bottom = rng.random() < 0.2
            fast.move(uid, to, bottom)
            slow_move(slow, uid, to, bottom)
        assert _state(fast) == _state(slow)
        assert list(fast.where) == list(slow.where)  # the index's order too
    assert fast.check_conservation() == []


@pytest.mark.parametrize("seed", range(8))
def test_taking_the_top_cards_is_moving_them_one_by_one(seed):
    """``GameState.take_top(src, n, to)``: the cards ``n`` moves of the top card take, in that order, and
    the state they leave (more than the zone holds, none, onto the same zone, from a ruled zone)."""
    fast, slow = _two_games(seed)
    zones = sorted(fast.zones)
    rng = random.Random(seed)
    for _ in range(300):
        src, to = rng.choice(zones), rng.choice(zones)
        n = rng.randrange(-1, 9)
        got = fast.take_top(src, n, to)
        want = []
        for _ in range(min(max(n, 0), len(slow.zones[src]))):
            want.append(slow.zones[src][-1])
            slow_move(slow, want[-1], to)
        assert got == want
        assert _state(fast) == _state(slow)
        assert list(fast.where) == list(slow.where)
    assert fast.check_conservation() == []


def test_taking_the_top_cards_of_a_ruled_zone_asks_its_rules_card_by_card():
    compiled = load_compiled("fifty_first_state")
    g = _Ruled(compiled.vocab, compiled.cards, ["Ann", "Bob"])
    g.left = []
    hand, deck = ("hand", 0), ("deck", None)
    for _ in range(4):
        g.create(sorted(compiled.cards)[0], hand)
    assert g.take_top(hand, 2, deck) == [4, 3] and g.left == [(4, hand, deck), (3, hand, deck)]
    with pytest.raises(RulesError):
        g.take_top(hand, 2, deck)  # 2 leaves, then 1 is refused
    assert g.zones[hand] == [1] and g.zones[deck] == [4, 3, 2]


class _Ruled(GameState):
    """A state whose hand is a ruled zone: its cards leave by ``leaving``, which records them and
    refuses the card numbered 1."""

    ruled_zones = frozenset({"hand"})

    def leaving(self, uid, src, to):
        if uid == 1:
            raise RulesError("card 1 stays")
        self.left.append((uid, src, to))


def test_a_card_leaves_a_ruled_zone_by_its_rules_in_moves_and_deals():
    compiled = load_compiled("fifty_first_state")
    g = _Ruled(compiled.vocab, compiled.cards, ["Ann", "Bob"])
    g.left = []
    hand, deck = ("hand", 0), ("deck", None)
    uids = [g.create(sorted(compiled.cards)[0], hand).uid for _ in range(4)]
    assert uids == [1, 2, 3, 4]
    g.move(4, deck)
    with pytest.raises(RulesError):
        g.move_many([3, 1, 2], deck)  # card by card: 3 leaves, 1 is refused, 2 is not reached
    assert g.left == [(4, hand, deck), (3, hand, deck)]
    assert g.zones[hand] == [1, 2] and g.zones[deck] == [4, 3]
    g.move_many([4, 3], hand)  # from the deck, no rule: the core's grouped deal
    assert g.left == [(4, hand, deck), (3, hand, deck)] and g.zones[hand] == [1, 2, 4, 3]
    assert g.check_conservation() == []


class _Answers(Agent):
    def __init__(self, answer):
        self.answer = answer

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        return list(self.answer)


@pytest.mark.parametrize("answer, ok", [([2], True), ([9], False), ([2, 3], False), ([], False), ([2, 2], False)])
def test_a_single_pick_is_still_checked(answer, ok):
    compiled = load_compiled("fifty_first_state")
    from runtime.engine import engine_for

    g = engine_for(compiled).new_game(compiled, ["Ann", "Bob"], agents={0: _Answers(answer)}, setup=False)
    ctx = Ctx(g, 0)
    if ok:
        assert ctx.ask([1, 2, 3], 1) == answer
    else:
        with pytest.raises(RulesError, match="it must pick 1 distinct legal options"):
            ctx.ask([1, 2, 3], 1)
