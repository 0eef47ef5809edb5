"""The 51st State game state: a ``GameState`` with the fields only this game needs, and a cheap copy.

Fields (never patched onto a GameState from outside; the engine's ``state_class``):
- ``assault``: the ``AssaultTrial`` consulted by targeted verbs while an Assault is searched or
  executed (M04), else None;
- ``gain_to``: player -> who receives what that player would gain (the Hacked Conflagrator takes a
  Location's Production "instead of its owner", M17);
- ``start_player``: the current Starting Player (S03; passes on each round, a stand-in rule);
- ``turn``: the stand-in base turn's progress (``TurnState``), used by ``new_match``.

``copy()`` duplicates what effects change (zones, cards, players, the RNG, the turn) and shares
what never changes (the compiled cards, vocabulary, engine, verbs). Assault search and Monte Carlo
playouts copy often: this is ~10x cheaper than ``copy.deepcopy``. The copy does not trace.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from dataclasses import dataclass, field

from runtime.state import CardInst, GameState, Player

# GameState fields a copy shares (never changed by play) or rebuilds itself
_SHARED = frozenset({"vocab", "cards", "engine", "compiled", "verbs", "default_agent", "listening"})


@dataclass
class TurnState:
    """Where the stand-in base turn stands (runtime/games/fifty_first_state/turn.py)."""

    moves: bool = False           # a match plays this game: the draft and the actions are moves
    stage: str = "start"          # start | draft | action | over
    shown: list = field(default_factory=list)   # draft: the cards still on offer
    draft_left: int = 0           # drafting rounds still to play this Lookout
    drafter: int | None = None    # seat drafting now
    drafted: list = field(default_factory=list)  # seats that have drafted this drafting round
    seat: int | None = None       # action phase: seat to act
    passed: set = field(default_factory=set)     # seats that passed this action phase
    actions: Counter = field(default_factory=Counter)  # seat -> actions taken this action phase
    used: set = field(default_factory=set)       # Location uids whose Action was used this round
    ended: str = ""               # why the game ended

    def copy(self) -> "TurnState":
        return TurnState(self.moves, self.stage, list(self.shown), self.draft_left, self.drafter, list(self.drafted),
                         self.seat, set(self.passed), Counter(self.actions), set(self.used), self.ended)


class FiftyGame(GameState):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.assault = None
        self.gain_to: dict[int, int] = {}
        self.start_player = 0
        self.turn = TurnState()

    def copy(self, agents: dict | None = None) -> "FiftyGame":
        """An independent copy for trials and playouts (no trace; ``agents`` replaces the seats' agents)."""
        twin = object.__new__(type(self))
        d = twin.__dict__
        for k, v in self.__dict__.items():
            if k in _SHARED:
                d[k] = v
            elif k == "zones":
                d[k] = {z: list(cards) for z, cards in v.items()}
            elif k == "where":
                d[k] = dict(v)
            elif k == "instances":
                d[k] = {u: CardInst(i.uid, i.card_id, i.face, _counter(i.goods), i.owner, _props(i.props))
                        for u, i in v.items()}
            elif k == "players":
                d[k] = [Player(p.index, p.name, _counter(p.goods), dict(p.flags), p.out) for p in v]
            elif k == "rng":
                r = random.Random()
                r.setstate(v.getstate())
                d[k] = r
            elif k == "log":
                d[k] = []
            elif k in ("events",):
                d[k] = list(v)  # typed events are frozen: shared items, a new list
            elif k == "until":
                d[k] = list(v)  # (phase, partial over a module function): shared, they take the game
            elif k == "turn":
                d[k] = v.copy()
            elif k == "assault":
                d[k] = None
            elif k == "agents":
                d[k] = dict(agents) if agents is not None else copy.deepcopy(v)
            else:
                d[k] = copy.deepcopy(v)
        twin.tracing = False
        return twin


def _counter(c: Counter) -> Counter:
    out = Counter.__new__(Counter)  # Counter(c) goes through Counter.update: far slower for a copy
    dict.update(out, c)
    return out


def _props(props: dict) -> dict:
    """A card's props: strings, numbers and flags are shared; lists and dicts are copied."""
    if not props:
        return {}
    return {k: (list(v) if type(v) is list else copy.deepcopy(v) if isinstance(v, (dict, set)) else v)
            for k, v in props.items()}
