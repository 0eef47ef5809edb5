"""Infernal Contraption's greedy agent (the generic ones, first-legal and seeded random, are
runtime/agents.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from runtime.agents import Agent

from .machine import POWER_KINDS
from .moves import END, REFIT, Move
from .state import ICGame

if TYPE_CHECKING:
    from .engine import InfernalContraption

_KIND_VALUE = {"power_source": 3, "contraption": 4, "upgrade": 2, "consumable": 3, "sabotage": 3, "power_core": 0}


class Greedy(Agent):
    """A simple greedy player: takes the best-scoring play, pays for extra plays only when they are
    clearly good, scraps its least useful cards, turns its machine on the opponent holding most cards.
    It never counts a parts pile (I10)."""

    name = "greedy"

    def __init__(self) -> None:
        self._refit: tuple = ()  # the cards a refit it picked should scrap (asked right after)

    def pick(self, match, moves):
        """Through the game protocol: the same decision as ``choose_move`` on the engine's moves."""
        game = match.game
        # the keys are the engine's moves (ICMatch), or tuples of their fields (a key made elsewhere)
        engine_moves = [m.key if type(m.key) is Move else Move(*m.key) for m in moves]
        mv = self.choose_move(game, game.turn_player, engine_moves)
        if mv.kind == "refit":
            self._refit = mv.cards  # the protocol's refit lets the player choose the cards next
            mv = REFIT
        return next(m for m in moves if m.key == tuple(mv))

    def choose_move(self, game: ICGame, player: int, moves: list[Move]) -> Move:
        eng = game.engine
        best, best_score = END, 0.0
        for mv in moves:
            if mv.kind != "play":
                continue
            s = self.score(game, eng, player, mv)
            if s > best_score:
                best, best_score = mv, s
        if game.plays >= 1 and best_score < 5:
            return END  # an extra play costs a card: only for a strong one
        if best is END and game.plays == 0 and REFIT in moves:
            hand = game.zones[("hand", player)]
            dead = tuple(u for u in hand if not self._placeable(moves, u))
            if dead:
                return Move("refit", cards=dead)
        return best

    @staticmethod
    def _placeable(moves, uid) -> bool:
        return any(mv.kind == "play" and mv.card == uid for mv in moves)

    def score(self, game: ICGame, eng: InfernalContraption, player: int, mv: Move) -> float:
        kinds = game.kind_of
        kind = kinds[mv.card]
        if kind == "sabotage":
            return 4.0
        if kind == "consumable":
            return 4.5
        anchor_kind = kinds[mv.anchor]
        if kind == "contraption":
            return 6.0 if anchor_kind in POWER_KINDS else 2.0
        if kind == "power_source":
            # powers an unpowered Contraption it would touch
            return 5.5 if kinds[mv.anchor] == "contraption" and not eng.powered(game, player, mv.anchor) else 2.5
        if kind == "upgrade":
            return 5.0 if anchor_kind == "contraption" else 1.0
        return float(_KIND_VALUE.get(kind, 1))

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        options = list(options)
        if self._refit and prompt == "choose cards to scrap and redraw":
            picks, self._refit = [u for u in self._refit if u in options], ()
            if picks:
                return picks
        if prompt.startswith("choose an opponent"):
            best = max(options, key=lambda pl: (len(game.zones[("hand", pl.index)]), -pl.index))
            return [best]
        if low is not None and low == 0 and ("scrap" in prompt):
            return []  # mulligan / "up to": keep the hand
        if options and isinstance(options[0], int) and options[0] in game.instances:
            value = _KIND_VALUE.get
            theirs = game.where[options[0]][1] not in (player, None)
            # an opponent's cards: hit the most valuable; your own: give away or scrap the least
            ranked = sorted(options, key=lambda u: (value(game.kind_of.get(u, ""), 1) * (-1 if theirs else 1), u))
            return ranked[:k]
        return options[:k]
