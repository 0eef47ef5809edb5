"""Bots that play any game through the game protocol (runtime/protocol.py), issue 13.

- ``Greedy``: takes the move after which the heuristic the game declares is highest for its seat
  (``Engine.evaluate``: for a flow game ``flow.bots.greedy`` in game.yaml, else the score's points).
  It looks one move ahead on ``Match.copy()``; ties go to the move listed first.
- ``FlatMonteCarlo``: for every legal move, ``playouts`` seeded random games from a copy with that
  move applied, each at most ``depth`` moves long; a playout that ends scores 1 for a win (1/k for a
  k-way shared win), 0 for a loss; one cut short scores the heuristic margin over the best
  opponent, squashed into (0, 1). The move with the best mean wins; ties go to the move listed first.
  Its randomness comes from its own generator, seeded from the game's seed and the decision, so a
  seeded run is reproducible whatever process plays it. Each playout first redraws what the seat
  cannot know (``Engine.determinize``: the order of face-down piles), so the bot never reads the
  real deck order.

Choices inside an effect (``choose``) stay with the first-legal answer for both: what they improve
on is the decision between effects.
"""
from __future__ import annotations

import math
import random

from .agents import FirstLegal, SeededRandom


def evaluate(match, seat: int) -> float:
    """The engine's heuristic for ``seat`` now (Engine.evaluate)."""
    return float(match.game.engine.evaluate(match.game, seat))


class Greedy(FirstLegal):
    name = "greedy"

    def pick(self, match, moves):
        seat = match.to_act()
        best, best_value = moves[0], -math.inf
        for mv in moves:
            trial = match.copy()
            trial.game.tracing = False
            trial.apply(mv)
            value = _terminal_value(trial, seat) if trial.terminal() else evaluate(trial, seat)
            if value > best_value:
                best, best_value = mv, value
        return best


def _terminal_value(match, seat: int) -> float:
    """A finished game, on the heuristic's scale: a win beats any position, a loss is below any."""
    winners = match.result().winners
    if seat in winners:
        return 1e9 / len(winners)
    return -1e9


class FlatMonteCarlo(FirstLegal):
    name = "mcts"

    def __init__(self, playouts: int = 4, depth: int = 40, scale: float = 5.0):
        self.playouts = playouts
        self.depth = depth
        self.scale = scale  # a heuristic margin of `scale` counts as about three quarters of a win

    def pick(self, match, moves):
        if len(moves) == 1:
            return moves[0]
        best, best_value = moves[0], -1.0
        for mv, value in zip(moves, self.values(match, moves)):
            if value > best_value:
                best, best_value = mv, value
        return best

    def values(self, match, moves) -> list[float]:
        """Each move's mean playout value for the seat to act (in (0, 1); 1 is a sure win)."""
        game = match.game
        seat = match.to_act()
        rng = random.Random(f"{game.seed}:{len(game.events)}:{len(game.log)}:{seat}")
        out = []
        for mv in moves:
            total = 0.0
            for _ in range(self.playouts):
                total += self._playout(match, mv, seat, rng.getrandbits(64))
            out.append(total / self.playouts)
        return out

    def _playout(self, match, move, seat: int, seed: int) -> float:
        trial = match.copy()
        g = trial.game
        g.tracing = False
        g.rng = random.Random(seed)  # hidden order (decks) differs between playouts
        g.engine.determinize(g, seat, random.Random(seed ^ 0x9E3779B9))  # and is not the real game's
        walker = SeededRandom(random.Random(seed ^ 0x5DEECE66D))
        g.agents = {s: walker for s in range(len(g.players))}
        trial.apply(move)
        for _ in range(self.depth):
            if trial.terminal():
                break
            trial.apply(walker.pick(trial, trial.legal_moves()))
        if trial.terminal():
            winners = trial.result().winners
            return 1.0 / len(winners) if seat in winners else 0.0
        mine = evaluate(trial, seat)
        others = [evaluate(trial, s) for s in range(len(g.players)) if s != seat and not g.players[s].out]
        margin = mine - max(others, default=0.0)
        return 0.5 + 0.5 * math.tanh(margin / self.scale)
