"""Age of Steam, for the Moon map (rulebook 002_18a981a1c9ecbefd.txt): the engine's package.

Layout, one responsibility a module: ``state`` (links, cubes, the Sun and the Satellite: ``MoonGame``),
``verbs`` (the game's verbs), ``engine`` (``AgeOfSteam``: setup, map queries, building, actions,
moving goods, phases, invariants), ``scenario`` (typed scenario step adapters, game_state/expect),
``turn`` (the stand-in turn through the game protocol: ``new_match``), ``index`` (the map's tables and
the track index the legal moves are listed from; tests/age_of_steam/reference_moves.py keeps the
slow originals they are tested against), ``playout`` (seeded random turns for property tests and the
bench), ``maps`` (the map format's checks, E601) and ``mapsvg`` (its
SVG), which reach the build, the reference and the board print through the engine's ``check_map``,
``render_map_svg`` and ``map_hex_px`` hooks. The hex geometry is runtime/hexgrid.py.
"""
from __future__ import annotations

from runtime.engine import register

from .engine import AgeOfSteam, check_invariants  # noqa: F401
from .state import cube_total  # noqa: F401
from .state import Link, MoonGame, MoonState  # noqa: F401
from .verbs import ENGINE  # noqa: F401

register(AgeOfSteam())
