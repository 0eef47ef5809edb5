"""The one game protocol every engine implements (issue 13; modelled on OpenSpiel's game API).

An engine's ``new_match(compiled, players, seed, agents=None)`` returns a ``Match``: one game in
progress that the simulator, every agent and ``cardwright play`` drive the same way, whatever the
game. A Match's moves are the decisions *between* effects (which action, which card to play, pass);
choices *inside* an effect ("choose 1 card …") stay with the seat's Agent through ``Ctx.ask``.

The names here are an agreed interface (shared with the game engines): keep them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .errors import Refused

if TYPE_CHECKING:  # pragma: no cover - typing only
    from .state import GameState

__all__ = ["Move", "Result", "Match", "Refused", "refuse_unless_legal"]


class Move:
    """One decision a seat may take now: ``key`` (hashable, engine-defined, stable across copies,
    e.g. ``("construct", uid)``) and ``label`` (English, what a person reads in `cardwright play`
    and in traces). Equal when key and label are equal; treat it as immutable.

    ``Move.lazy(key, labeller)`` defers the label: ``labeller(key)`` runs the first time someone
    reads it. A simulation lists thousands of moves per second and reads none of their labels, so
    an engine that lists many moves makes them lazily. The labeller must hold what the label
    depends on *when the move is listed* (the seat to act, say), not read a state that play goes
    on changing.
    """

    __slots__ = ("key", "_label", "_labeller")

    def __init__(self, label: str, key: tuple):
        self.key = key
        self._label = label
        self._labeller = None

    @classmethod
    def lazy(cls, key: tuple, labeller) -> "Move":
        mv = _new_move(cls)
        mv.key = key
        mv._labeller = labeller  # ``_label`` is set when ``label`` first runs the labeller
        return mv

    @classmethod
    def lazy_many(cls, keys, labeller) -> list["Move"]:
        """``[Move.lazy(key, labeller) for key in keys]`` in one call: an engine lists a decision's
        moves at once, and a call per move was a good part of listing them."""
        out = []
        add = out.append
        for key in keys:
            mv = _new_move(cls)
            mv.key = key
            mv._labeller = labeller  # ``_label`` stays unset until ``label`` makes it (``lazy``'s move)
            add(mv)
        return out

    @property
    def label(self) -> str:
        if self._labeller is not None:
            self._label = self._labeller(self.key)
            self._labeller = None
        return self._label

    def __eq__(self, other) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.key == other.key and self.label == other.label

    def __hash__(self) -> int:
        return hash((self.label, self.key))

    def __repr__(self) -> str:
        return f"Move(label={self.label!r}, key={self.key!r})"

    def __str__(self) -> str:
        return self.label

    def __reduce__(self):  # pickles (and deep-copies) with its label made
        return (Move, (self.label, self.key))


_new_move = object.__new__


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    scores: tuple[int, ...]  # per seat, final VP (or the game's score); () when the game keeps none
    winners: tuple[int, ...]  # seats; several when a tie survives the tie-breaks
    reason: str  # English: "Ann has 31 VP", "tie broken by most Goods", "turn cap"
    # how the game ended, in words that name no player and no score ("the Deck ran out", "8 turns
    # were played"), so that a simulation report can count games by it (``end_reasons``); "" when
    # the engine does not say (the report then reads it from ``reason``)
    ended: str = ""


@runtime_checkable
class Match(Protocol):
    """One game in progress; what an engine's ``new_match`` returns."""

    game: "GameState"  # the underlying state (agents and effects still use it)

    def to_act(self) -> int | None: ...  # seat deciding now; None when terminal

    def legal_moves(self) -> list[Move]: ...  # deterministic order, never empty unless terminal

    def apply(self, move: Move) -> None: ...  # a move not in legal_moves() raises Refused

    def terminal(self) -> bool: ...

    def result(self) -> Result: ...  # only when terminal

    def copy(self) -> "Match": ...  # independent, cheap enough for Monte Carlo playouts


def refuse_unless_legal(move: Move, legal: list[Move], game=None) -> Move:
    """The legal move equal to ``move`` (by key); ``Refused`` when there is none. Engines call it
    first in ``apply``, so an illegal move never changes the state; given the ``game``, the move's
    run-time budget starts here (runtime/budget.py)."""
    for m in legal:
        if m.key == move.key:
            if game is not None:
                game.budget.new_move()
            return m
    raise Refused(f"{move.label!r} is not a legal move now")
