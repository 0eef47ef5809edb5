"""One game of Infernal Contraption behind the game protocol (runtime/protocol.py)."""
from __future__ import annotations

from functools import partial

from runtime.errors import Refused, RulesError
from runtime.events import CapReached
from runtime.protocol import Move as ProtocolMove
from runtime.protocol import Result, refuse_unless_legal

from .state import ICGame


class ICMatch:
    """One game of Infernal Contraption behind the game protocol: it wraps the engine's own
    ``legal_moves`` and ``apply`` (the rules are the engine's; nothing is decided here). A move's
    key is the engine's move itself (a named tuple, moves.py). ``turn_cap`` (optional; the
    simulator keeps its own): a game still running when more turns than that have begun ends
    without a winner."""

    def __init__(self, game: ICGame, turn_cap: int | None = None):
        self.game = game
        self.turn_cap = turn_cap
        self._listed: tuple | None = None  # (state stamp, the legal moves listed for it)
        self._labellers: dict = {}  # seat -> the labeller of its moves (the game is this match's for good)

    def to_act(self) -> int | None:
        g = self.game
        return None if g.over or g.capped else g.turn_player  # ``terminal()``, asked without a call

    def terminal(self) -> bool:
        return self.game.over or self.game.capped

    def legal_moves(self) -> list[ProtocolMove]:
        return list(self._legal())  # the caller's own list

    def _legal(self) -> list[ProtocolMove]:
        """The legal moves now, as listed for this state (``apply`` reads it; nobody changes it), kept
        under a stamp of what the attach step's legal moves depend on: the turn and its bookkeeping,
        and (through ``card_moves``) every card created or moved — hands, machines, eliminations all
        move cards. The stamp is made here, not by a call of its own, nor ``terminal``'s question
        asked by one: a simulation asks twice a move."""
        g = self.game
        if g.over or g.capped:
            return []
        stamp = (g.card_moves, g.turn, g.turn_player, g.plays, g.refitted, g.step,
                 len(g.zones[("hand", g.turn_player)]))
        if self._listed is not None and self._listed[0] == stamp:
            return self._listed[1]  # nothing changed since they were listed (apply checks again)
        eng = g.engine
        # a move's key is the engine's move itself (a named tuple); its label is made only when
        # read (a simulation reads none), for the seat to act now
        label = self._labellers.get(g.turn_player)
        if label is None:
            label = self._labellers[g.turn_player] = partial(eng.move_label, g, seat=g.turn_player)
        moves = ProtocolMove.lazy_many(eng.legal_moves(g), label)
        self._listed = (stamp, moves)
        return moves

    def apply(self, move: ProtocolMove) -> None:
        g = self.game
        listed = self._legal()
        # the move itself listed for this state (a seat picks one from ``legal_moves``' list, which
        # holds the listed objects): it is the listed move equal to it by key, as a listing never holds
        # one key twice (tests/infernal_contraption/test_fast_play.py), found by identity without
        # comparing keys; any other goes through ``refuse_unless_legal``
        for legal in listed:
            if legal is move:
                g.budget.new_move()  # what refuse_unless_legal starts on the move it finds
                break
        else:
            legal = refuse_unless_legal(move, listed, g)
        self._listed = None
        # the move is one the engine listed for this state (refuse_unless_legal returns the listed
        # move, whose key is the engine's Move itself, from the listing kept for the current stamp):
        # the engine need not ask the placement rules again
        out = g.engine.apply(g, legal.key, listed=True)
        if out.status == "refused":  # pragma: no cover - legal_moves lists only legal moves
            raise Refused(out.reason)
        if not g.over and self.turn_cap is not None and g.turn > self.turn_cap:
            g.capped = True
            g.tell(CapReached(None, cap=self.turn_cap))

    def result(self) -> Result:
        g = self.game
        if not self.terminal():
            raise RulesError("the game is not over")
        scores = ()  # the last player remaining wins: the game keeps no score (no VP to report)
        if g.capped:
            return Result(scores, (), f"turn cap ({self.turn_cap} turns) reached without a winner",
                          ended="the turn cap was reached")
        if g.winner is None:
            return Result(scores, (), "nobody remains: no winner", ended="nobody remains")
        return Result(scores, (g.winner,), f"{g.players[g.winner].name} is the last player remaining",
                      ended="one player remains")

    def copy(self) -> "ICMatch":
        return ICMatch(self.game.copy(), self.turn_cap)
