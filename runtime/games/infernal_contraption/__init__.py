"""Infernal Contraption (rulebook 003_19ce964aacf02a21.txt): the engine's package.

Layout, one responsibility a module: ``machine`` (a player's machine: main line, plugs, terminals;
socket matching, I01, I09), ``state`` (``ICGame`` and ``Stop``), ``moves`` (the attach step's
decisions), ``engine`` (``InfernalContraption``: setup, placement, the attach step, turns, activation,
elimination), ``verbs`` (scrap, take, put, repeat), ``agents`` (``Greedy``), ``scenario`` (the
scenario steps and game_state/expect, mixed into the engine), ``match`` (``ICMatch``: one game behind
the game protocol), ``fields`` (the ``sockets`` card field type the engine adds to the vocabulary: its
schema, its picture in the reference and on card sheets, the socket legend) and ``socketsvg`` (those
pictures). The turn steps that are plain effects (opening hand, mulligan, draw step,
cleanup) are data: data/infernal_contraption/rules.yaml.
"""
from __future__ import annotations

from runtime.engine import register

from .agents import Greedy  # noqa: F401
from .engine import InfernalContraption
from .machine import MAIN_KINDS, ONE_SHOT, POWER_KINDS, SIDES, Machine, is_plug, is_terminal, sockets_match  # noqa: F401
from .match import ICMatch  # noqa: F401
from .moves import END, REFIT, Move  # noqa: F401
from .state import HAND_LIMIT, NAME, ICGame, Stop  # noqa: F401
from . import verbs  # noqa: F401  (registers the game's verbs)

ENGINE = register(InfernalContraption())

__all__ = ["InfernalContraption", "ICGame", "ICMatch", "Machine", "Move", "Greedy", "Stop", "ENGINE", "sockets_match",
           "is_terminal", "is_plug", "END", "REFIT"]
