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

- ``UCT`` (the ``mcts`` agent, issue 24): Monte Carlo tree search with the UCB1 rule (UCT), one tree
  per decision, ``iterations`` descents. Each descent plays on a fresh copy that first redraws what
  the seat cannot know (``Engine.determinize``: a determinisation, so the tree averages over the hidden
  orders rather than reading the real one) and reseeds the copy's RNG (dice, draws); the tree is keyed
  by move keys, so the same decision in different determinisations shares its statistics, and at each
  node only the moves legal in this determinisation compete (open-loop, "information set" MCTS in
  the simple form). Below the tree a playout of at most ``depth`` moves follows the engine's playout
  policy (``Engine.playout_agent``: seeded random unless the engine knows better); a finished playout
  scores every seat its win credit (1/k for a k-way shared win), one cut short scores each seat
  ``0.5 + 0.5·tanh(margin / scale)`` of its heuristic margin over the best other seat. Each node keeps
  the total reward of the seat that moved into it, so every seat maximises its own (a max-n tree, for
  any number of players). The move visited most at the root is played. Seeded from the game's seed and
  the decision, so a seeded run is reproducible whatever process plays it.

Choices inside an effect (``choose``) stay with the first-legal answer for the bots: what they
improve on is the decision between effects.

Every copy a bot plays ahead on is marked ``imagined`` (runtime/state.py): an engine may resolve a
costly procedure of its own approximately there, never in the game being played. 51st State's Moloch
Assault skips its search over orders and targets (M04) in imagined games and takes the Machines in
Deployed order: one 2-player ``mcts:24`` game against greedy spent 91 % of its CPU in that search
inside the descents before (docs/simulate.md, "How well the bots play").
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
            trial.game.imagined = True  # a what-if: an engine may approximate its costly procedures
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
        g.imagined = True  # a what-if: an engine may approximate its costly procedures (GameState)
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


class _Node:
    """A tree node: the statistics of the moves tried from here, by move key."""

    __slots__ = ("visits", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.children: dict = {}  # move key -> [visits, total reward of the seat that chose it, _Node]


class UCT(FirstLegal):
    name = "mcts"

    def __init__(self, iterations: int = 48, depth: int = 60, c: float = 0.7, scale: float = 5.0):
        self.iterations = iterations
        self.depth = depth  # playout moves below the tree before the heuristic scores the position
        self.c = c  # exploration: rewards lie in [0, 1], so about 1/sqrt(2) (Kocsis & Szepesvári)
        self.scale = scale  # a heuristic margin of `scale` counts as about three quarters of a win
        self._greedy = None  # the engine's greedy agent, for choices inside effects

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        """A choice inside an effect is answered as the engine's greedy agent answers it (Infernal
        Contraption's scraps the least useful cards, turns on the opponent holding most): the search
        is over moves, and answering first-legal here threw away what greedy knows (issue 24)."""
        if self._greedy is None:
            self._greedy = game.engine.make_agent("greedy")
        return self._greedy.choose(game, player, options, k, low, prompt)

    def pick(self, match, moves):
        if len(moves) == 1:
            return moves[0]
        root = self.search(match)
        by_key = {mv.key: mv for mv in moves}
        best, best_visits = moves[0], -1
        for mv in moves:  # most visited; ties to the move listed first
            stats = root.children.get(mv.key)
            if stats is not None and stats[0] > best_visits and mv.key in by_key:
                best, best_visits = mv, stats[0]
        return best

    def search(self, match) -> _Node:
        game = match.game
        seat = match.to_act()
        rng = random.Random(f"uct:{game.seed}:{len(game.events)}:{len(game.log)}:{seat}")
        root = _Node()
        c = game.engine.uct_exploration
        self._c = self.c if c is None else c
        scale = game.engine.uct_scale
        self._scale = self.scale if scale is None else scale
        for _ in range(self.iterations):
            self._descend(match, root, seat, rng.getrandbits(64))
        return root

    def _descend(self, match, root: _Node, seat: int, seed: int) -> None:
        trial = match.copy()
        g = trial.game
        g.tracing = False
        g.imagined = True  # a what-if: an engine may approximate its costly procedures (GameState)
        g.rng = random.Random(seed)  # chance (dice, draws) differs between descents
        g.engine.determinize(g, seat, random.Random(seed ^ 0x9E3779B9))  # hidden order: not the real one
        walker = g.engine.playout_agent(random.Random(seed ^ 0x5DEECE66D))
        g.agents = {s: walker for s in range(len(g.players))}
        path = []  # (stats of the move taken, the seat that took it)
        node = root
        while not trial.terminal():
            mover = trial.to_act()
            legal = trial.legal_moves()
            untried = [mv for mv in legal if mv.key not in node.children]
            if untried:  # expand the first untried move (listed order: deterministic)
                mv = untried[0]
                stats = node.children[mv.key] = [0, 0.0, _Node()]
                node.visits += 1
                trial.apply(mv)
                path.append((stats, mover))
                break
            log_n = math.log(max(1, sum(node.children[mv.key][0] for mv in legal)))
            best, best_u = None, -math.inf
            for mv in legal:
                n, w, _ = node.children[mv.key]
                u = w / n + self._c * math.sqrt(log_n / n)
                if u > best_u:
                    best, best_u = mv, u
            stats = node.children[best.key]
            node.visits += 1
            trial.apply(best)
            path.append((stats, mover))
            node = stats[2]
        depth = g.engine.playout_depth
        for _ in range(self.depth if depth is None else depth):
            if trial.terminal():
                break
            trial.apply(walker.pick(trial, trial.legal_moves()))
        rewards = self._rewards(trial)
        for stats, mover in path:
            stats[0] += 1
            stats[1] += rewards[mover]

    def _rewards(self, trial) -> list[float]:
        g = trial.game
        n = len(g.players)
        if trial.terminal():
            winners = trial.result().winners
            return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
        values = [evaluate(trial, s) for s in range(n)]
        out = []
        for s in range(n):
            others = [values[o] for o in range(n) if o != s and not g.players[o].out]
            margin = values[s] - max(others, default=0.0)
            out.append(0.0 if g.players[s].out else 0.5 + 0.5 * math.tanh(margin / self._scale))
        return out


class EpsilonGreedy(FirstLegal):
    """A playout policy (``Engine.playout_agent``): an engine's cheap agent ``inner`` most of the
    time, a uniformly random legal move with probability ``epsilon`` (so playouts still explore), its
    randomness from ``rng`` alone."""

    name = "epsilon-greedy"

    def __init__(self, inner, rng: random.Random, epsilon: float = 0.15):
        self.inner = inner
        self.rng = rng
        self.epsilon = epsilon
        self.walker = SeededRandom(rng)

    def pick(self, match, moves):
        if self.rng.random() < self.epsilon:
            return self.walker.pick(match, moves)
        return self.inner.pick(match, moves)

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        return self.inner.choose(game, player, options, k, low, prompt)
