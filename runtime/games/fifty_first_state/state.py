"""The 51st State game state: a ``GameState`` with the fields only this game needs, and a cheap copy.

Fields (never patched onto a GameState from outside; the engine's ``state_class``):
- ``assault``: the ``AssaultTrial`` consulted by targeted verbs while an Assault is searched or
  executed (M04), else None;
- ``gain_to``: player -> who receives what that player would gain (the Hacked Conflagrator takes a
  Location's Production "instead of its owner", M17);
- ``start_player``: the current Starting Player (S03; passes on each round, a stand-in rule);
- ``turn``: the stand-in base turn's progress (``TurnState``), used by ``new_match``;
- ``effect_reads``: (Machine uid, card id, player) -> what that Machine's Assault reads when the player
  resolves it (moloch.py ``AssaultSearch``, assault_sets.py ``effect_reads``): a fact of the compiled
  game, found once and shared with every copy.

``copy()`` (runtime/statecopy.py) duplicates what play changes and shares what never changes; the
Assault search and Monte Carlo playouts copy often: it is ~10x cheaper than ``copy.deepcopy``.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from runtime.state import GameState
from runtime.statecopy import copy_state, counter, same


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
        # made without the dataclass __init__ and Counter(...) (which goes through Counter.update):
        # every search copy of the game copies this; the same values, the mutable ones new
        twin = object.__new__(TurnState)
        d = twin.__dict__
        d.update(self.__dict__)
        d["shown"], d["drafted"] = list(self.shown), list(self.drafted)
        d["passed"], d["used"], d["actions"] = set(self.passed), set(self.used), counter(self.actions)
        return twin


class FiftyGame(GameState):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.assault = None
        self.gain_to: dict[int, int] = {}
        self.start_player = 0
        self.turn = TurnState()
        self.effect_reads: dict = {}

    def copy(self, agents: dict | None = None) -> "FiftyGame":
        """An independent copy for trials and playouts (no trace; ``agents`` replaces the seats' agents)."""
        return copy_state(self, _COPIERS, agents)


def _no_trial(value) -> None:
    return None


# how a copy takes this game's own fields (runtime/statecopy.py ``copy_state``: any other field is
# deep-copied): made once, not at every copy — the Assault search copies a game thousands of times
_COPIERS = {
    "turn": TurnState.copy,
    "assault": _no_trial,   # a copy is not inside the trial its original runs
    "gain_to": dict,        # seat -> seat: plain values
    "start_player": same,
    "imagined": same,       # a flag (runtime/bots.py sets it on its copies)
    "effect_reads": same,   # facts of the compiled game (moloch.py ``AssaultSearch``): one table, all copies
    **{name: same for name in GameState.SHARED},  # what GameState.copy shares (no subclass field here)
}


def goods_text(c: Counter | dict) -> str:
    """Goods as the trace and the move labels write them: "1 brick, 2 fuel", or "nothing"."""
    return ", ".join(f"{n} {g.replace('_', ' ')}" for g, n in sorted(c.items()) if n) or "nothing"
