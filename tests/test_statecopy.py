"""Copies of a game share their card instances until touched (runtime/statecopy.py ``Instances``).

What must hold: a copy and its original never see each other's changes, in either direction and
through copies of copies; walking the cards (items, len, iteration) sees every card in the order
they were created, as a full copy would; and a game played on a copy goes exactly as it goes on a
full (deep) copy of the same state.
"""
from __future__ import annotations

import copy
import pickle
import random

from runtime.agents import SeededRandom
from runtime.engine import engine_for, load_compiled
from runtime.state import CardInst
from runtime.statecopy import Instances


def _inst(uid, cid="x", face="front"):
    return CardInst(uid, cid, face)


def _cards(n=5) -> Instances:
    out = Instances()
    for uid in range(1, n + 1):
        out[uid] = _inst(uid, f"c{uid}")
    return out


def test_a_shared_card_is_copied_on_first_access_by_either_side():
    mine = _cards()
    theirs = mine.share()
    assert dict.__len__(theirs) == 0 and dict.__len__(mine) == 0  # nothing copied yet
    theirs[2].goods["fuel"] += 3
    theirs[2].face = "ruins"
    assert mine[2].goods["fuel"] == 0 and mine[2].face == "front"
    mine[3].props["revealed"] = True
    assert "revealed" not in theirs[3].props
    assert mine[2] is not theirs[2] and mine[1] is not theirs[1]
    assert dict.__len__(theirs) == 3  # only the cards it touched


def test_copies_of_copies_stay_apart():
    a = _cards()
    b = a.share()
    b[1].owner = 1
    c = b.share()
    c[1].owner = 2
    d = c.share()
    assert (a[1].owner, b[1].owner, c[1].owner, d[1].owner) == (None, 1, 2, 2)
    d[4].goods["vp"] = 1
    assert [x[4].goods["vp"] for x in (a, b, c)] == [0, 0, 0]


def test_walking_the_cards_sees_every_card_in_creation_order():
    a = _cards(4)
    b = a.share()
    b[3].face = "hacked"        # copied first, yet listed third
    b[9] = _inst(9, "new")      # created after the share: last
    assert 2 in b and 9 in b and 7 not in b and len(b) == 5
    assert [u for u, _ in b.peek_items()] == [1, 2, 3, 4, 9]
    assert list(b) == [1, 2, 3, 4, 9] and list(b.keys()) == [1, 2, 3, 4, 9]
    assert [c.face for c in b.values()] == ["front", "front", "hacked", "front", "front"]
    assert len(a) == 4 and 9 not in a and a[3].face == "front"
    assert b.get(7) is None and b.get(2).card_id == "c2"


def test_peek_reads_without_copying_and_equality_compares_cards():
    a = _cards(3)
    b = a.share()
    assert b.peek(2).card_id == "c2" and dict.__len__(b) == 0
    assert a == b  # the same cards (CardInst compares by value)
    b[2].face = "ruins"
    assert a != b


def test_pickle_and_deepcopy_keep_every_card():
    a = _cards(3)
    b = a.share()
    b[1].face = "ruins"
    for twin in (pickle.loads(pickle.dumps(b)), copy.deepcopy(b)):
        assert isinstance(twin, Instances) and twin.shared is None
        assert [(u, c.face) for u, c in twin.items()] == [(1, "ruins"), (2, "front"), (3, "front")]


def _play(match, seed: int, moves: int) -> list:
    rng = random.Random(seed)
    for _ in range(moves):
        if match.terminal():
            break
        match.apply(rng.choice(match.legal_moves()))
    g = match.game
    return [g.snapshot(), list(g.events), g.rng.getstate(), match.terminal()]


def _deep(match):
    """A full copy of the match, every card instance its own (the copy before sharing)."""
    twin = match.copy()
    twin.game.instances._own_all()
    return twin


def test_a_game_played_on_a_shared_copy_goes_as_on_a_full_copy():
    for game, players in (("fifty_first_state", 2), ("infernal_contraption", 2), ("age_of_steam", 3)):
        c = load_compiled(game)
        eng = engine_for(c)
        agents = {i: SeededRandom(random.Random(40 + i)) for i in range(players)}
        m = eng.new_match(c, [f"P{i + 1}" for i in range(players)], seed=4, agents=agents)
        m.game.tracing = False
        _play(m, 4, 25)  # into the game: cards dealt, some played
        before = m.game.snapshot()
        full, shared = _deep(m), m.copy()
        for g in (full.game, shared.game):  # the same choices inside effects on both
            g.agents = {i: SeededRandom(random.Random(90 + i)) for i in range(players)}
        assert _play(shared, 5, 200) == _play(full, 5, 200), game
        assert m.game.snapshot() == before, game  # the original untouched by either copy


def test_len_counts_every_card_once_while_shared():
    a = _cards(4)
    b = a.share()
    b[2].face = "ruins"
    b[2] = b[2]             # written back under its own uid: still one card
    b[7] = _inst(7)
    a[1].owner = 0
    assert len(b) == 5 and len(a) == 4
    c = b.share()
    assert len(c) == 5 and len(b) == 5 and b[7] is not c[7]


def test_a_copy_of_the_seats_agents_draws_as_the_original_would_and_keeps_their_sharing():
    from runtime.bots import EpsilonGreedy
    from runtime.statecopy import _agents

    walker = EpsilonGreedy(SeededRandom(random.Random(1)), random.Random(2))
    agents = {0: SeededRandom(random.Random(3)), 1: walker}
    twin = _agents(agents)
    assert twin[0].rng is not agents[0].rng and twin[1].rng is not walker.rng
    assert twin[1].walker.rng is twin[1].rng  # the walker draws from its owner's generator, as before
    assert twin[1].inner.rng is not walker.inner.rng  # a generator deeper down: deep-copied as before
    assert [twin[0].rng.random() for _ in range(3)] == [agents[0].rng.random() for _ in range(3)]
    assert [twin[1].rng.random() for _ in range(3)] == [walker.rng.random() for _ in range(3)]
    assert twin[1].inner.rng.random() == walker.inner.rng.random()


def test_a_game_keeps_a_plain_dict_until_its_first_copy():
    c = load_compiled("infernal_contraption")
    m = engine_for(c).new_match(c, ["P1", "P2"], seed=3)
    g = m.game
    assert type(g.instances) is dict  # a game played without search never pays for sharing
    before = g.snapshot()
    twin = m.copy()
    assert type(g.instances) is Instances and type(twin.game.instances) is Instances
    assert g.snapshot() == before == twin.game.snapshot()


def test_a_copy_draws_what_the_original_would_have_drawn_and_neither_disturbs_the_other():
    from runtime.statecopy import _Pending, shared_rng

    class G:
        pass

    g = G()
    g.rng = random.Random(8)
    g.rng.random()
    expected = random.Random(8)
    expected.random()
    want = [expected.random() for _ in range(5)]
    first = shared_rng(g)
    second = shared_rng(g)          # a copy of a game that has not drawn since: the same source
    assert type(g.rng) is _Pending and type(first) is _Pending
    assert [g.rng.random() for _ in range(5)] == want  # the original draws on first
    assert [first.random() for _ in range(5)] == want  # each copy still from the state at its copy
    assert _choices(second, 4) == _choices(_after(8, 1), 4)
    assert type(first) is random.Random  # woken: a plain generator from then on
    third = shared_rng(g)                # a copy after the original drew: from its state now
    assert third.getstate() == g.rng.getstate()
    assert copy.deepcopy(shared_rng(g)).getstate() == g.rng.getstate()
    assert pickle.loads(pickle.dumps(shared_rng(g))).random() == _after(8, 6).random()


def _choices(r: random.Random, n: int) -> list:
    return [r.choice(range(10 ** 6)) for _ in range(n)]


def _after(seed: int, draws: int) -> random.Random:
    r = random.Random(seed)
    for _ in range(draws):
        r.random()
    return r


def _unplanned(game, special: dict, agents=None):
    """The copy as ``copy_state`` made it before it kept plans: every field decided at every copy.
    Held beside the planned copy to catch a plan that is stale or decides a field otherwise."""
    from runtime import statecopy as sc

    twin = object.__new__(type(game))
    d = twin.__dict__
    for k, v in game.__dict__.items():
        if k in sc.SHARED:
            d[k] = v
        elif k in special:
            d[k] = special[k](v)
        elif k == "instances":
            d[k] = sc.shared_instances(game)
        elif k == "rng":
            d[k] = sc.shared_rng(game)
        elif k in sc._CORE:
            d[k] = sc._CORE[k](v)
        elif k == "agents":
            d[k] = dict(agents) if agents is not None else sc._agents(v)
        else:
            d[k] = copy.deepcopy(v)
    twin.tracing = False
    return twin


def _shape(v, depth: int = 0):
    """A value compared by what it holds: objects without an ``__eq__`` of their own (a Machine, a
    MoonState) by their type and fields, containers item by item."""
    if depth > 6:
        return type(v).__name__
    if isinstance(v, dict):
        return (type(v).__name__, [(k, _shape(x, depth + 1)) for k, x in v.items()])
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, [_shape(x, depth + 1) for x in v])
    if isinstance(v, (set, frozenset)):
        return (type(v).__name__, sorted(map(repr, v)))
    if type(v).__eq__ is object.__eq__ and not callable(v):
        slots = [n for c in type(v).__mro__ for n in getattr(c, "__slots__", ()) if hasattr(v, n)]
        fields = {**{n: getattr(v, n) for n in slots}, **getattr(v, "__dict__", {})}
        if fields:
            return (type(v).__name__, _shape(fields, depth + 1))
    return v


def _alike(a, b, original) -> None:
    """Two copies of ``original`` hold the same fields, in the same order, equal values, and share
    with the original exactly the same objects."""
    assert list(a.__dict__) == list(b.__dict__) == list(original.__dict__)
    for k in original.__dict__:
        va, vb, vo = a.__dict__[k], b.__dict__[k], original.__dict__[k]
        assert (va is vo) == (vb is vo), k
        if k in ("instances", "rng", "agents", "budget", "turn"):
            continue  # compared by what they hold below (no __eq__ of their own, or copied afresh)
        assert _shape(va) == _shape(vb), k
    assert a.snapshot() == b.snapshot()
    assert a.rng.getstate() == b.rng.getstate()


def test_a_planned_copy_is_the_copy_every_field_decided_afresh_would_be():
    """copy_state keeps a plan per (class, table, fields): on seeded games of every bundled game,
    copied after random moves (and after a field is added, which must make a new plan), the planned
    copy holds what the field-by-field decision gives, and plays on the same."""
    from runtime.state import _COPY_TABLES
    from runtime.statecopy import copy_state

    for game, players in (("fifty_first_state", 2), ("infernal_contraption", 2), ("age_of_steam", 3)):
        c = load_compiled(game)
        eng = engine_for(c)
        for seed in range(3):
            agents = {i: SeededRandom(random.Random(40 + i)) for i in range(players)}
            m = eng.new_match(c, [f"P{i + 1}" for i in range(players)], seed=seed, agents=agents)
            m.game.tracing = False
            for step in range(4):
                _play(m, seed * 10 + step, 15)
                g = m.game
                if step == 2:
                    g.added_late = [step]  # a field this class's plans have not seen: deep-copied
                g.copy()  # the game's own copy first: its table and plan made
                table = _COPY_TABLES.get(type(g))
                if table is None:  # 51st State passes its own table (FiftyGame.copy)
                    from runtime.games.fifty_first_state.state import _COPIERS as table
                planned = copy_state(g, table)
                slow = _unplanned(g, table)
                _alike(planned, slow, g)
                if step >= 2:
                    assert planned.added_late == [2] and planned.added_late is not g.added_late
                for twin in (planned, slow):
                    twin.agents = {i: SeededRandom(random.Random(70 + i)) for i in range(players)}
                a, b = _match_over(m, planned), _match_over(m, slow)
                assert _play(a, 99, 60) == _play(b, 99, 60), (game, seed, step)


def _match_over(match, state):
    """A copy of ``match`` whose game is ``state`` (made by the match's own ``copy``, which takes
    the game's copy: here ``state`` in its place)."""
    g = match.game
    g.__dict__["copy"] = lambda *args, **kwargs: state
    try:
        return match.copy()
    finally:
        del g.__dict__["copy"]


def test_peek_written_out_reads_what_the_method_reads():
    """``statecopy.peek`` writes ``Instances.peek`` out (own card first, then the shared one): the same
    object for every card, own or shared, before and after a share, and a KeyError for a card that
    is not there; a plain dict is read by subscription."""
    import pytest

    from runtime.statecopy import peek

    a = _cards(6)
    b = a.share()
    b[2].face = "ruins"  # b's own copy of card 2; a still shares it
    c = b.share()
    c[5] = _inst(5)
    for held in (a, b, c):
        for uid in range(8):
            try:
                want = held.peek(uid)
            except KeyError:
                with pytest.raises(KeyError):
                    peek(held, uid)
                continue
            assert peek(held, uid) is want
    plain = dict(a.peek_items())
    assert all(peek(plain, u) is plain[u] for u in plain)
    with pytest.raises(KeyError):
        peek(Instances(), 1)
