"""51st State: Master Set — the engine shared by its State Packs (Moloch, Scavengers).

Layout: ``engine`` (the shared model and the ``Pack`` hooks), ``verbs`` (the game's verbs),
``state`` (the game's GameState and its cheap copy), one module per State Pack (``moloch``,
``scavengers``…), each registering a ``Pack``. A new pack is a new module listed in ``PACK_MODULES``;
it overrides hooks (``discard_pile``, ``phase``, ``setup``, ``steps``…) instead of copying code.
"""
from __future__ import annotations

import importlib

from runtime.engine import register

from . import verbs  # noqa: F401  (registers the game's verbs)
from .engine import PACKS, FiftyFirstState, Pack, register_pack  # noqa: F401

# The State Packs that ship with cardwright: a fixed list, never a name read from a data file.
PACK_MODULES = ("moloch", "scavengers")
for _name in PACK_MODULES:
    try:
        importlib.import_module(f"{__name__}.{_name}")
    except ModuleNotFoundError as _exc:  # a pack not written yet is simply not registered
        if _exc.name != f"{__name__}.{_name}":
            raise

ENGINE = register(FiftyFirstState())
