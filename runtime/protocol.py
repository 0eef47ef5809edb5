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


@dataclass(frozen=True)
class Move:
    """One decision a seat may take now."""

    label: str  # English, what a person reads in `cardwright play` and in traces
    key: tuple  # hashable, engine-defined, stable across copies (e.g. ("construct", uid))

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    scores: tuple[int, ...]  # per seat, final VP (or the game's score); () when the game keeps none
    winners: tuple[int, ...]  # seats; several when a tie survives the tie-breaks
    reason: str  # English: "Ann has 31 VP", "tie broken by most Goods", "turn cap"


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


def refuse_unless_legal(move: Move, legal: list[Move]) -> Move:
    """The legal move equal to ``move`` (by key); ``Refused`` when there is none. Engines call it
    first in ``apply``, so an illegal move never changes the state."""
    for m in legal:
        if m.key == move.key:
            return m
    raise Refused(f"{move.label!r} is not a legal move now")
