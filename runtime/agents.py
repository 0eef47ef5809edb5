"""Agents make every choice an effect or a rule leaves to a player.

``choose`` receives the legal options in a deterministic order and returns a list of ``k`` of them
(or between ``low`` and ``k`` when the rule says "up to"). Three agents ship:
- ``FirstLegal``: the default — always the first options; deterministic, good for references.
- ``Scripted``: answers from a list, for tests and scenarios; fails loudly when the script runs dry.
- ``SeededRandom``: uniform choices from the game's seeded RNG, for playouts.
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from .shuffle import WITH_GETRANDBITS


class Agent:
    """Makes a seat's choices: inside effects (``choose``) and between them (``pick``, the game
    protocol's moves, runtime/protocol.py)."""

    name = "agent"

    def pick(self, match, moves: Sequence[Any]):
        """The move to take among ``moves`` (a Match's legal moves, never empty). By default the
        same way the agent answers any choice."""
        return self.choose(match.game, match.to_act(), moves, 1, None, "choose a move")[0]

    def choose_move(self, game, player: int, moves: Sequence[Any]):
        """An engine's own move (Infernal Contraption's attach step, outside the protocol's Match).
        By default the same way the agent answers any choice; an engine's agent may weigh them."""
        return self.choose(game, player, moves, 1, None, "choose a move")[0]

    def choose(self, game, player: int, options: Sequence[Any], k: int = 1, low: int | None = None,
               prompt: str = "") -> list[Any]:
        raise NotImplementedError


class FirstLegal(Agent):
    name = "first-legal"

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        return list(options[:k])


class SeededRandom(Agent):
    name = "random"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng

    def pick(self, match, moves):
        """A move, drawn as ``choose`` draws one of several (without asking the match who acts: a
        random seat's pick does not depend on it)."""
        if moves and isinstance(moves, (list, tuple)):
            return _one_of(self.rng or match.game.rng, moves)
        return super().pick(match, moves)

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        rng = self.rng or game.rng
        if k == 1 and low is None and options and isinstance(options, (list, tuple)):
            # one of several (every move of a simulated game): what randint(1, 1) and sample(options,
            # 1) below do, without their checks — the same two draws of the generator, in order
            # (tests/test_agents_random.py holds the two paths equal)
            return [_one_of(rng, options)]
        lo = k if low is None else low
        most = min(k, len(options))
        least = min(lo, len(options))
        if least <= most and len(options) <= _SMALL_POOL and isinstance(options, (list, tuple)):
            # several of a few (a mulligan, "up to 2"): randint(least, most), then sample's pool
            # algorithm for a population of at most 21, without their checks — the same draws, in
            # order (tests/test_agents_random.py holds it to randint and sample)
            pool = list(options)
            size = len(pool)
            picks = []
            if type(rng)._randbelow is WITH_GETRANDBITS:
                # every generator a game holds: ``_randbelow``'s rejection loop run here, the same
                # ``getrandbits`` calls in the same order, without a call per draw (a mulligan
                # draws up to eight)
                getrandbits = rng.getrandbits
                span = most - least + 1
                bits = span.bit_length()
                r = getrandbits(bits)
                while r >= span:
                    r = getrandbits(bits)
                n = least + r
                for i in range(n):
                    left = size - i
                    bits = left.bit_length()
                    j = getrandbits(bits)
                    while j >= left:
                        j = getrandbits(bits)
                    picks.append(pool[j])
                    pool[j] = pool[left - 1]
                return picks
            below = rng._randbelow
            n = least + below(most - least + 1)
            for i in range(n):
                j = below(size - i)
                picks.append(pool[j])
                pool[j] = pool[size - i - 1]
            return picks
        n = rng.randint(least, most)
        return rng.sample(list(options), n)


def _one_of(rng: random.Random, options):
    """One of ``options`` (a non-empty list or tuple) as ``randint(1, 1)`` then ``sample(options, 1)``
    draw it: ``_randbelow(1)``, then ``_randbelow(len(options))``. A generator that draws below n by
    ``getrandbits``' rejection loop (runtime/shuffle.py ``WITH_GETRANDBITS``: every generator a game
    holds) has both loops run here, with the same ``getrandbits`` calls in the same order, instead
    of two Python calls each a move (tests/test_agents_random.py holds it to ``_randbelow``)."""
    if type(rng)._randbelow is not WITH_GETRANDBITS:
        rng._randbelow(1)
        return options[rng._randbelow(len(options))]
    getrandbits = rng.getrandbits
    while getrandbits(1):  # _randbelow(1): one bit at a time until a 0
        pass
    n = len(options)
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return options[r]


# random.sample draws from a copied pool when the population has at most this many members (for any
# number drawn: a larger sample only raises its threshold), and from a set of chosen indices beyond
_SMALL_POOL = 21


class ScriptRanDry(Exception):
    pass


class Scripted(Agent):
    """Answers in order. An answer is matched against the options by equality or by ``str``.

    An answer may be a list (several picks) or a single value; ``None`` picks nothing (for "up to").
    """

    name = "scripted"

    def __init__(self, answers: Sequence[Any], fallback: Agent | None = None):
        self.answers = list(answers)
        self.fallback = fallback

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        if not self.answers:
            if self.fallback is not None:
                return self.fallback.choose(game, player, options, k, low, prompt)
            raise ScriptRanDry(f"the script has no answer left for: {prompt or 'a choice'} "
                               f"(options: {[str(o) for o in options]})")
        ans = self.answers.pop(0)
        picks = ans if isinstance(ans, list) else ([] if ans is None else [ans])
        out = []
        for a in picks:
            for o in options:
                if (o == a or str(o) == str(a) or getattr(o, "label", None) == a
                        or str(a) in labels(game, o)) and o not in out:
                    out.append(o)
                    break
            else:
                raise ScriptRanDry(f"scripted answer {a!r} is not a legal option for {prompt or 'a choice'} "
                                   f"(options: {[str(o) for o in options]})")
        return out


def labels(game, option: Any) -> set[str]:
    """Names a script may use for an option: a card by its id, its name or "Name (Holder)"; a
    player (``("player", i)``) or a player's zone (``(zone, i)``) by the player's name."""
    out: set[str] = set()
    instances = getattr(game, "instances", None) or {}
    players = getattr(game, "players", None) or []
    if isinstance(option, int) and not isinstance(option, bool) and option in instances:
        inst = instances[option]
        name = str(game.cards.get(inst.card_id, {}).get("name", inst.card_id))
        out |= {inst.card_id, name}
        holder = game.where.get(option, (None, None))[1]
        holder = inst.owner if holder is None else holder
        if holder is not None and 0 <= holder < len(players):
            out |= {f"{name} ({players[holder].name})", f"{inst.card_id} ({players[holder].name})"}
    elif isinstance(option, tuple) and len(option) == 2 and isinstance(option[1], int) \
            and 0 <= option[1] < len(players) and isinstance(option[0], str):
        out.add(players[option[1]].name)
    return out
