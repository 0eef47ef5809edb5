"""Triggers on the event bus, typed events and turn history (issue 17 item 2), driven through the
real pipeline on the truth fixture game: Herald ("when you play this card"), Watchtower (three
triggers) and Echo (a trigger whose effect would trigger itself)."""
from __future__ import annotations

from compiler.explain import effect_function, explain_effect
from runtime.agents import Scripted
from runtime.events import Gained, Played, Trashed, TurnStarted
from runtime.model import model_of
from tests.test_truthful import _errors, _game, truth  # noqa: F401 (fixture)


def _fn(compiled, text):
    ex = explain_effect(text, model_of(compiled.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return effect_function(ex)


def test_when_you_play_this_card(truth):
    engine, game = _game(truth, hand=["herald"])
    herald = game.zone("hand", 0)[0]
    assert engine.run(game, _fn(truth, "play 1 card from your hand"), 0).ok
    assert game.players[0].goods["coin"] == 1 and game.players[0].goods["vp"] == 1
    assert Played(0, card=herald, turn=0, round=1) in game.events


def test_whenever_an_opponent_plays_an_action_card(truth):
    engine, game = _game(truth, hand=["mill", "copper"], deck=[])
    tower = game.create("watchtower", game.zone_key("tableau", 1), owner=1)
    game.create("copper", game.zone_key("deck", 1), owner=1)
    game.agents[0] = Scripted(["copper"])
    engine.run(game, _fn(truth, "play 1 card from your hand"), 0)  # a treasure: no draw
    assert len(game.zone("hand", 1)) == 0
    game.agents[0] = Scripted(["mill"])
    engine.run(game, _fn(truth, "play 1 card from your hand"), 0)  # an action: Bob's Watchtower draws
    assert len(game.zone("hand", 1)) == 1
    game.agents[1] = Scripted(["mill"])
    # Bob's own plays are not an opponent's
    game.create("mill", game.zone_key("hand", 1), owner=1)
    game.create("copper", game.zone_key("deck", 1), owner=1)  # something Bob could draw
    engine.run(game, _fn(truth, "play 1 card with icon action from your hand"), 1)
    assert len(game.zone("hand", 1)) == 1 and len(game.zone("deck", 1)) == 1  # no draw for his own play
    assert tower.uid in game.instances


def test_at_the_start_of_your_turn(truth):
    engine, game = _game(truth)
    game.create("watchtower", game.zone_key("tableau", 1), owner=1)
    engine.begin_turn(game, 0)
    assert game.players[1].goods["ore"] == 0  # Ann's turn
    engine.end_turn(game)
    engine.begin_turn(game, 1)
    assert game.players[1].goods["ore"] == 1
    assert TurnStarted(1, turn=2, round=1) in game.events


def test_the_first_time_each_turn_fires_once_per_turn(truth):
    engine, game = _game(truth, hand=["copper", "copper", "copper"])
    game.agents = {}  # the default agent picks
    game.create("watchtower", game.zone_key("tableau", 0), owner=0)
    trash = _fn(truth, "trash 1 card from your hand")
    engine.begin_turn(game, 0)
    engine.run(game, trash, 0)
    engine.run(game, trash, 0)
    assert game.players[0].goods["coin"] == 1
    assert sum(isinstance(e, Trashed) for e in game.events) == 2
    engine.end_turn(game)
    engine.begin_turn(game, 0)
    engine.run(game, trash, 0)
    assert game.players[0].goods["coin"] == 2


def test_a_trigger_does_not_re_enter_itself(truth):
    engine, game = _game(truth)
    game.agents = {}
    game.create("echo", game.zone_key("tableau", 0), owner=0)
    for cid in ("copper", "copper", "smithy"):
        game.create(cid, game.zone_key("supply", None))
    assert engine.run(game, _fn(truth, "gain 1 card costing up to 1"), 0).ok
    # the gain fires Echo once (it gains a second Copper); that gain does not fire Echo again
    assert [game.instances[u].card_id for u in game.zone("discard", 0)] == ["copper", "copper"]
    assert sum(isinstance(e, Gained) for e in game.events) == 2


def test_turn_history_counts_this_turns_events(truth):
    engine, game = _game(truth, hand=["mill", "smithy", "copper"], deck=["copper"] * 4)
    game.agents = {}
    count = _fn(truth, "if number of cards with icon action you played this turn >= 2: gain 1 vp")
    play_action = _fn(truth, "play 1 card with icon action from your hand")
    engine.begin_turn(game, 0)
    engine.run(game, play_action, 0)
    engine.run(game, count, 0)
    assert game.players[0].goods["vp"] == 0
    engine.run(game, play_action, 0)
    engine.run(game, count, 0)
    assert game.players[0].goods["vp"] == 1
    engine.end_turn(game)
    engine.begin_turn(game, 0)
    engine.run(game, count, 0)
    assert game.players[0].goods["vp"] == 1  # a new turn: nothing played yet


def test_a_trigger_outside_a_trigger_slot_and_the_reverse_are_errors(truth):
    assert [e[0] for e in _errors(truth, "gain 1 coin; when you play this card: gain 1 coin")] == ["E310"]
    assert [e[0] for e in _errors(truth, "whenever you explode a card: gain 1 coin")] == ["E201"]
    assert [e[0] for e in _errors(truth, "at the start of your round: gain 1 coin")] == ["E201"]


def test_trigger_slot_in_a_card_file_must_hold_triggers(tmp_path):
    import shutil

    from compiler.build import compile_tree
    from tests.test_truthful import TRUTH

    shutil.copytree(TRUTH, tmp_path / "data")
    base = tmp_path / "data" / "truth" / "base.yaml"
    base.write_text(base.read_text().replace('reaction: "when you play this card: gain 1 vp"',
                                             'reaction: "gain 1 vp"'))
    result = compile_tree(tmp_path / "data")
    assert [d.code for d in result.diags.errors] == ["E310"]
    assert result.diags.errors[0].card == "herald"


def test_a_card_outside_its_zones_hears_only_triggers_about_itself(truth):
    # Watchtower's "the first time each turn you trash a card" is no "this card" trigger: trashed from
    # the hand (not a listening zone), the Watchtower itself does not hear its own trashing
    engine, game = _game(truth, hand=["watchtower"])
    tower = game.zone("hand", 0)[0]
    assert engine.run(game, _fn(truth, "trash 1 card from your hand"), 0).ok
    assert Trashed(0, card=tower, turn=0, round=1) in game.events
    assert game.players[0].goods["coin"] == 0
    # the same card in a listening zone hears another card's trashing
    engine, game = _game(truth, hand=["copper"])
    game.create("watchtower", game.zone_key("tableau", 0), owner=0)
    assert engine.run(game, _fn(truth, "trash 1 card from your hand"), 0).ok
    assert game.players[0].goods["coin"] == 1


def test_card_event_is_the_same_event_as_the_dataclass_makes():
    """runtime.events.card_event builds card events without the frozen dataclass __init__ (a
    simulation makes thousands): equal, same repr and hash, picklable, defaults filled, and an
    unknown field is refused as the constructor refuses it."""
    import copy
    import pickle

    import pytest

    from runtime.events import Drawn, Moved, Played, card_event

    for cls, extra in ((Drawn, {}), (Moved, {"to": "hand"}), (Moved, {}), (Played, {})):
        made = card_event(cls, 1, 3, 2, 4, **extra)
        want = cls(1, card=3, turn=2, round=4, **extra)
        assert made == want and repr(made) == repr(want) and hash(made) == hash(want)
        assert pickle.loads(pickle.dumps(made)) == want and copy.deepcopy(made) == want
        assert made.kind == want.kind
    with pytest.raises(TypeError, match="no field 'to'"):
        card_event(Drawn, 1, 3, 2, 4, to="hand")


def test_game_event_is_the_same_event_as_the_dataclass_makes():
    """runtime.events.game_event, card_event's sibling for events with only player, turn and round."""
    import copy
    import pickle

    import pytest

    from runtime.events import Drawn, RoundEnded, RoundStarted, TurnEnded, TurnStarted, game_event

    for cls in (TurnStarted, TurnEnded, RoundStarted, RoundEnded):
        for player in (None, 0, 2):
            made = game_event(cls, player, 5, 3)
            want = cls(player, turn=5, round=3)
            assert made == want and repr(made) == repr(want) and hash(made) == hash(want)
            assert vars(made) == vars(want)
            assert pickle.loads(pickle.dumps(made)) == want and copy.deepcopy(made) == want
            assert made.kind == want.kind
    with pytest.raises(TypeError, match="beyond player, turn and round"):
        game_event(Drawn, 1, 2, 4)
