"""``events.card_events`` makes a list of card events exactly as ``card_event`` makes each: the same
class, fields, values and field order (a draw of several cards records its Drawn events with it)."""
from __future__ import annotations

import pickle

from runtime.events import Discarded, Drawn, Played, card_event, card_events


def test_card_events_are_card_event_made_one_by_one():
    for cls in (Drawn, Played, Discarded):
        for cards in ([], [7], [3, 1, 2, 9]):
            for player in (None, 0, 2):
                many = card_events(cls, player, cards, 5, 2)
                one_by_one = [card_event(cls, player, c, 5, 2) for c in cards]
                assert many == one_by_one
                assert [type(e) for e in many] == [type(e) for e in one_by_one]
                assert [list(vars(e).items()) for e in many] == [list(vars(e).items()) for e in one_by_one]
                assert pickle.dumps(many) == pickle.dumps(one_by_one)


def test_a_draw_recording_its_events_at_once_plays_the_games_one_by_one(monkeypatch):
    """The simulation of seeded Infernal Contraption games (its draws take this path) is the same with
    ``card_events`` patched back to one ``card_event`` call a card."""
    from runtime import context
    from runtime.simulate import play_one

    def run():
        return [play_one(("infernal_contraption", None, players, 27, i, "random", 200, True, None, (), True))
                for players in (2, 3) for i in range(8)]

    fast = run()
    monkeypatch.setattr(context, "card_events",
                        lambda cls, p, cards, t, r: [card_event(cls, p, c, t, r) for c in cards])
    assert run() == fast
