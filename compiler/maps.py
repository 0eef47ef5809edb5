"""Moved: Age of Steam's map checks (E601) live in the game's package,
runtime/games/age_of_steam/maps.py, and reach the build through the engine's ``check_map`` hook.
This module keeps the old import path working (tests, bench, other tools)."""
from __future__ import annotations

from runtime.games.age_of_steam.maps import HexMap, check_map  # noqa: F401

__all__ = ["check_map", "HexMap"]
