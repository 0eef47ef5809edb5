"""Moved: Age of Steam's map drawing lives in the game's package, runtime/games/age_of_steam/mapsvg.py,
and reaches the reference through the engine's ``render_map_svg`` hook. This module keeps the old
import path working (the board printer, tests, bench)."""
from __future__ import annotations

from runtime.games.age_of_steam.mapsvg import (  # noqa: F401
    CHAR_W, SIZE, _segments_cross_box, render_map_svg, text_box)

__all__ = ["render_map_svg"]
