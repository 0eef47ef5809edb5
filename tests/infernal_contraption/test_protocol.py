"""Infernal Contraption behind the one game protocol (issue 13): the engine's own legal moves and
apply, wrapped; whole games to a winner with every invariant holding; the greedy agent unchanged."""
from __future__ import annotations

import pytest

from runtime.agents import FirstLegal, SeededRandom
from runtime.engine import engine_for, load_compiled
from runtime.errors import Refused
from runtime.games.infernal_contraption import Greedy, ICMatch
from runtime.protocol import Match, Move


@pytest.fixture(scope="module")
def ic():
    return load_compiled("infernal_contraption")


def _play(match, agents):
    while not match.terminal():
        legal = match.legal_moves()
        assert legal and len({m.key for m in legal}) == len(legal)
        assert match.to_act() == match.game.turn_player
        match.apply(agents[match.to_act()].pick(match, legal))
        assert match.game.check_conservation() == []
    return match.result()


@pytest.mark.parametrize("players", [2, 3])
def test_random_games_play_to_a_winner_through_the_protocol(ic, players):
    eng = engine_for(ic)
    for seed in range(4):
        agents = {i: SeededRandom() for i in range(players)}
        match = eng.new_match(ic, [f"P{i}" for i in range(players)], seed=seed, agents=agents)
        assert isinstance(match, Match) and isinstance(match, ICMatch)
        res = _play(match, agents)
        if match.game.capped:
            assert res.winners == () and res.reason.startswith("turn cap")
        else:
            assert res.winners == (match.game.winner,) and "last player remaining" in res.reason
            assert res.scores == ()  # a last-player-standing game keeps no score


def test_the_protocol_is_the_engines_own_moves(ic):
    eng = engine_for(ic)
    match = eng.new_match(ic, ["Ann", "Bob"], seed=3)
    engine_moves = eng.legal_moves(match.game)
    assert [m.key for m in match.legal_moves()] == [tuple(m) for m in engine_moves]
    assert match.legal_moves()[0].label == "end the attach step (turn the machine on)"
    before = match.game.snapshot()
    with pytest.raises(Refused):
        match.apply(Move("attach nothing", ("play", 10**6, 0, 0, "left", 0, ())))
    assert match.game.snapshot() == before


def test_a_copy_plays_on_independently(ic):
    eng = engine_for(ic)
    agents = {0: SeededRandom(), 1: SeededRandom()}
    match = eng.new_match(ic, ["Ann", "Bob"], seed=5, agents=agents)
    for _ in range(6):
        match.apply(agents[match.to_act()].pick(match, match.legal_moves()))
    twin = match.copy()
    assert twin.game.snapshot() == match.game.snapshot()
    _play(twin, agents)
    assert not match.terminal() or match.game.over == twin.game.over
    assert twin.game.machines is not match.game.machines
    _play(match, agents)
    assert match.result() == twin.result()


def test_greedy_through_the_protocol_beats_first_legal(ic):
    """The Infernal Contraption greedy agent keeps its choices when it plays through the protocol."""
    eng = engine_for(ic)
    wins = 0
    for seed in range(6):
        agents = {0: Greedy(), 1: FirstLegal()}
        match = eng.new_match(ic, ["Ann", "Bob"], seed=seed, agents=agents)
        wins += _play(match, agents).winners == (0,)
    assert wins >= 4
    assert eng.make_agent("greedy").__class__ is Greedy


def test_cli_play_infernal_contraption(runner):
    from cli import main

    # the opening mulligan asks first (the last option, "done", keeps the hand); then q stops
    res = runner.invoke(main, ["play", "infernal_contraption", "--seed", "1"], input="8\nq\n")
    assert res.exit_code == 0, res.output
    assert "done (choose no more)" in res.output and "Infernal Contraption — round 1" in res.output
    assert "end the attach step (turn the machine on)" in res.output
    assert "You: draws 7 cards from their Parts pile" in res.output and res.output.rstrip().endswith("stopped.")


def test_cli_play_an_empty_enter_chooses_nothing():
    # the opening "scrap any number of cards and draw as many" (I10): an empty Enter takes no
    # option at all (issue 26: it used to take one silently); it asks again, and "done" keeps the hand
    from click.testing import CliRunner

    from cli import main

    res = CliRunner().invoke(main, ["play", "infernal_contraption", "--bots", "first"], input="\n8\nq\n")
    assert res.exit_code == 0, res.output
    assert "type a number from 1 to 8 (? for help)" in res.output
    assert "You: scraps 0 cards from their Hand" in res.output


@pytest.mark.rule("I11")
def test_a_monte_carlo_playout_redraws_the_parts_piles_but_not_the_face_up_scrap_pile(ic):
    # parts piles are face down (I10): their order is redrawn; scrapped cards go face up on top
    # (I11): the scrap pile's order is what the players saw, and is kept
    import random

    eng = engine_for(ic)
    g = eng.new_match(ic, ["Ann", "Bob"], seed=4).game
    scrap = g.zones[("scrap", None)]
    for uid in list(g.zones[("parts_pile", 1)][:5]):
        g.move(uid, ("scrap", None))
    before_scrap, before_pile = list(scrap), list(g.zones[("parts_pile", 0)])
    eng.determinize(g, 0, random.Random(1))
    assert g.zones[("scrap", None)] == before_scrap
    after = g.zones[("parts_pile", 0)]
    assert sorted(after) == sorted(before_pile) and after != before_pile


def _a_game_with_a_sabotage_to_play(ic):
    """A seeded game at a point where the player to act can play a Sabotage into another machine
    (its label names that machine's owner), found by playing first-legal moves from seed 0 on."""
    eng = engine_for(ic)
    for seed in range(40):
        match = eng.new_match(ic, ["Ann", "Bob"], seed=seed, agents={0: FirstLegal(), 1: FirstLegal()})
        for _ in range(30):
            if match.terminal():
                break
            legal = match.legal_moves()
            if any(m.key[0] == "play" and m.key[2] != match.to_act() for m in legal):
                return match
            match.apply(legal[0])
    raise AssertionError("no seeded game reached a Sabotage play")  # pragma: no cover


def test_lazy_labels_are_those_of_the_moment_they_were_listed(ic):
    """Move labels are made only when read (protocol.Move.lazy); a label read after the game moved
    on still says what it said when listed (the seat to act then, not the seat to act now)."""
    match = _a_game_with_a_sabotage_to_play(ic)
    g, eng = match.game, match.game.engine
    seat = match.to_act()
    listed = match.legal_moves()
    eager = [eng.move_label(g, m.key) for m in listed]
    assert any(" in " in label and "'s machine" in label for label in eager)
    match.apply(next(m for m in listed if m.key[0] == "end"))  # the turn passes on
    assert match.terminal() or match.to_act() != seat
    assert [m.label for m in listed] == eager
    assert [Move(m.label, m.key) for m in listed] == listed  # equal to the eager moves, by key and label


def test_listed_moves_follow_every_card_move(ic):
    """The Match keeps the moves it listed only while no card moved and the turn's bookkeeping
    stands: a card leaving the hand (by any verb, here GameState.move) is no longer listed, and a
    move listed before it left is refused."""
    match = _a_game_with_a_sabotage_to_play(ic)
    g = match.game
    before = match.legal_moves()
    assert match.legal_moves() == before  # nothing changed: the same moves
    gone = next(m for m in before if m.key[0] == "play").key[1]
    g.move(gone, ("scrap", None))
    after = match.legal_moves()
    assert not any(m.key[0] == "play" and m.key[1] == gone for m in after)
    with pytest.raises(Refused):
        match.apply(next(m for m in before if m.key[0] == "play" and m.key[1] == gone))


def test_a_lazy_move_whose_label_is_unread_copies_pickles_and_compares_as_an_eager_one():
    """``Move.lazy`` / ``lazy_many`` leave ``_label`` unset until the label is read: every way of
    reading a move (equality, hash, repr, copy, pickle) still gives the eager move's answer."""
    import copy
    import pickle

    def labeller(key):
        return f"move {key[1]}"

    for mv in [*Move.lazy_many([("k", 1), ("k", 2)], labeller), Move.lazy(("k", 3), labeller)]:
        eager = Move(labeller(mv.key), mv.key)
        for twin in (copy.copy(mv), copy.deepcopy(mv), pickle.loads(pickle.dumps(mv))):
            assert twin == eager and twin.label == eager.label
        fresh = Move.lazy_many([mv.key], labeller)[0]
        assert hash(fresh) == hash(eager) and repr(fresh) == repr(eager) and str(fresh) == eager.label
        assert fresh == eager and mv == eager
