"""Where the game engines are found: the engines that ship with cardwright, by name.

Each game package (``runtime/games/<game>/``) registers its engine here, and its verbs in
``runtime/verbs.py``, when it is imported. :func:`load_engines` imports the shipped packages once,
so that a lookup by name (``verbs_for``, ``field_types_of``, ``engine_of``) sees every engine. The
registry imports no engine at the top: runtime/engine.py, runtime/verbs.py and runtime/fieldtypes.py
all read it, and none of them has to import another to find the engines (issue 22: no import cycles).
"""
from __future__ import annotations

import importlib
from typing import Any

from .model import model_of

ENGINES: dict[str, Any] = {}  # engine name -> Engine (runtime/engine.py registers "core" itself)

# The engines that ship with cardwright. A fixed list: never a module name read from a data file.
GAME_PACKAGES = ("fifty_first_state", "age_of_steam", "infernal_contraption")

_loaded = False


def register(engine):
    ENGINES[engine.name] = engine
    return engine


def load_engines() -> dict[str, Any]:
    """Import the core engine and every shipped game package (once): each registers itself."""
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("runtime.engine")
        for name in GAME_PACKAGES:
            try:
                importlib.import_module(f"runtime.games.{name}")
            except ModuleNotFoundError as exc:  # an engine not written yet is simply not registered
                if exc.name not in (f"runtime.games.{name}", "runtime.games"):
                    raise
    return ENGINES


def engine_of(vocab: dict):
    """The engine a game.yaml's data names (the core engine when it names none, or one that is not
    registered: the build reports that as E201 where it resolves the engine)."""
    engines = load_engines()
    return engines.get(model_of(vocab).engine, engines["core"])


def engine_named(name: str):
    return load_engines()[name]
