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


class Agent:
    name = "agent"

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

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        rng = self.rng or game.rng
        lo = k if low is None else low
        n = rng.randint(min(lo, len(options)), min(k, len(options)))
        return rng.sample(list(options), n)


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
                        or a in _card_names(game, o)) and o not in out:
                    out.append(o)
                    break
            else:
                raise ScriptRanDry(f"scripted answer {a!r} is not a legal option for {prompt or 'a choice'} "
                                   f"(options: {[str(o) for o in options]})")
        return out


def _card_names(game, option) -> tuple:
    """A card option (a card uid) may be answered by its card id or printed name."""
    inst = getattr(game, "instances", {}).get(option) if isinstance(option, int) else None
    if inst is None:
        return ()
    return (inst.card_id, game.cards.get(inst.card_id, {}).get("name"))
