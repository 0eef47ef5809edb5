"""Infernal Contraption's machine: its geometry (main line, plugs, terminals) and socket matching.

Geometry (the rulebook's pictures are not in the text; decided here, see docs/decisions.md):
each card has four sockets, left/right/top/bottom, and keeps its printed orientation. Main-line
neighbours touch by the left card's right socket and the right card's left socket; a plug above a
main-line card touches by its bottom socket that card's top socket, a plug below by its top socket
that card's bottom socket. Plugs touch nothing else (nothing attaches to a plug, I01).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from runtime.errors import RulesError
from runtime.model import model_of

if TYPE_CHECKING:
    from .state import ICGame

SIDES = ("left", "right", "top", "bottom")
DRAWN_SIDES = ("top", "left", "right", "bottom")  # the order the reference lists and draws them in
UNIVERSAL = "universal"  # a socket that matches any socket (drawn dashed)
_SOCKET_INDEX = {"left": 0, "right": 1, "top": 2, "bottom": 3}
# the socket of the NEW card that touches the anchor when it is attached at `side` of the anchor
_FACING = {"left": 1, "right": 0, "top": 3, "bottom": 2}
_ANCHOR = {"left": 0, "right": 1, "top": 2, "bottom": 3}

MAIN_KINDS = frozenset({"power_source", "contraption", "upgrade"})  # may go in the main line
POWER_KINDS = frozenset({"power_core", "power_source"})  # a Power Core counts as a Power Source (I03)
ONE_SHOT = frozenset({"consumable", "sabotage"})  # removed from the game after resolving (I17)


# --- the machine ------------------------------------------------------------------------------


class Machine:
    """One player's machine: the main line left→right and the plugs above/below its cards."""

    __slots__ = ("main", "top", "bottom", "base")

    def __init__(self) -> None:
        self.main: list[int] = []
        self.top: dict[int, int] = {}  # main-line uid -> plug above it
        self.bottom: dict[int, int] = {}  # main-line uid -> plug below it
        self.base: dict[int, tuple[int, str]] = {}  # plug uid -> (main-line uid, "top"|"bottom")

    def copy(self) -> "Machine":
        """An independent copy (the uids and the (anchor, side) pairs are immutable values)."""
        twin = Machine.__new__(Machine)
        twin.main = list(self.main)
        twin.top = dict(self.top)
        twin.bottom = dict(self.bottom)
        twin.base = dict(self.base)
        return twin

    def cards(self) -> list[int]:
        out = list(self.main)
        out += self.top.values()
        out += self.bottom.values()
        return out

    def neighbours(self, uid: int) -> list[int]:
        """The cards attached to ``uid``, in activation order (left, top, bottom, right)."""
        b = self.base.get(uid)
        if b is not None:
            return [b[0]]
        main = self.main
        i = main.index(uid)
        out = []
        if i > 0:
            out.append(main[i - 1])
        t = self.top.get(uid)
        if t is not None:
            out.append(t)
        t = self.bottom.get(uid)
        if t is not None:
            out.append(t)
        if i + 1 < len(main):
            out.append(main[i + 1])
        return out

    def touching(self, uid: int) -> int:
        """How many cards are attached to ``uid``: ``len(self.neighbours(uid))``, counted without
        making the list (a terminal's test asks it for every card a verb may take from a machine)."""
        if uid in self.base:
            return 1
        main = self.main
        i = main.index(uid)
        return (i > 0) + (uid in self.top) + (uid in self.bottom) + (i + 1 < len(main))

    def attach(self, uid: int, anchor: int | None, side: str) -> None:
        if anchor is None:  # the first card: the Power Core
            self.main.append(uid)
        elif side == "left":
            self.main.insert(0, uid)
        elif side == "right":
            self.main.append(uid)
        else:
            (self.top if side == "top" else self.bottom)[anchor] = uid
            self.base[uid] = (anchor, side)

    def detach(self, uid: int) -> None:
        b = self.base.pop(uid, None)
        if b is not None:
            del (self.top if b[1] == "top" else self.bottom)[b[0]]
            return
        if uid not in self.main:
            return
        if uid in self.top or uid in self.bottom or uid not in (self.main[0], self.main[-1]):
            raise RulesError(f"card #{uid} is not a terminal: it cannot leave the machine")
        self.main.remove(uid)

    def clear(self) -> None:
        self.main.clear()
        self.top.clear()
        self.bottom.clear()
        self.base.clear()

    def layout(self) -> dict:
        return {"main": list(self.main), "top": dict(sorted(self.top.items())),
                "bottom": dict(sorted(self.bottom.items()))}


def _socket_codes(vocab: dict) -> dict[str, int]:
    """Socket names as small ints; Universal is 0, which matches anything."""
    names = sorted(model_of(vocab).table("sockets") or {})
    codes = {"universal": 0}
    for n in names:
        if n != "universal":
            codes[n] = len(codes)
    return codes


def sockets_match(a: int, b: int) -> bool:
    """I09: the touching sockets match, or at least one of the two is Universal (code 0)."""
    return a == b or a == 0 or b == 0


# --- thing filters the vocabulary names (game.yaml `engine_filter`) --------------------------------


def is_terminal(game: ICGame, uid: int) -> bool:
    """I01: a terminal is a card attached at only one socket."""
    owner = game.where[uid][1]
    return game.machines[owner].touching(uid) == 1


def is_plug(game: ICGame, uid: int) -> bool:
    return uid in game.machines[game.where[uid][1]].base

