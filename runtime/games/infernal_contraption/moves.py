"""The decisions of Infernal Contraption's attach step, as values (the engine's moves)."""
from __future__ import annotations

from typing import NamedTuple


class Move(NamedTuple):
    """A decision in the attach step (I14). ``cost``: the card scrapped to pay for an extra play."""

    kind: str  # "play" | "refit" | "end"
    card: int = 0
    machine: int = -1  # whose machine the card goes into
    anchor: int = 0  # the main-line card it attaches to
    side: str = ""
    cost: int = 0
    cards: tuple = ()  # refit: the cards to scrap (empty: the agent chooses)

    def __str__(self) -> str:
        if self.kind == "play":
            return f"play #{self.card} {self.side} of #{self.anchor} in machine {self.machine}"
        return self.kind


END = Move("end")
REFIT = Move("refit")
