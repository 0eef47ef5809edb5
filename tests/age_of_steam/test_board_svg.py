"""The Moon as it stands, drawn for the studio's table (runtime/games/age_of_steam/boardsvg.py,
``Engine.board_svg``): every link's track and every waiting cube, deterministic, and nothing from the
data left unescaped."""
from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from runtime.agents import SeededRandom
from runtime.engine import engine_for

from .helpers import compiled

SVG = "{http://www.w3.org/2000/svg}"


def _played(seed: int, moves: int):
    c = compiled()
    agents = {i: SeededRandom(random.Random(seed * 31 + i)) for i in range(3)}
    m = engine_for(c).new_match(c, ["Ann", "Bob", "<b>Cid</b>"], seed=seed, agents=agents)
    rng = random.Random(seed)
    for _ in range(moves):
        if m.terminal():
            break
        m.apply(rng.choice(m.legal_moves()))
    return m


def test_every_link_and_every_waiting_cube_is_drawn():
    m = _played(seed=5, moves=120)
    g = m.game
    assert g.moon.links, "the game built no track in 120 moves: nothing to check"
    svg = g.engine.board_svg(g, 0)
    root = ET.fromstring(svg)  # well-formed XML
    state = next(el for el in root.iter(f"{SVG}g") if el.get("class") == "state")
    titled = [el for el in state.iter(f"{SVG}polyline") if el.find(f"{SVG}title") is not None]
    assert len(titled) == len(g.moon.links)
    assert len(state.findall(f"{SVG}circle")) == sum(len(ln.hexes) for ln in g.moon.links.values())
    cubes = sum(min(len(c), 8) for c in g.moon.cubes.values())
    assert len(state.findall(f"{SVG}rect")) == cubes > 0
    # a player's name from outside is text in the SVG, never markup
    if any(ln.owner == 2 for ln in g.moon.links.values()):
        assert "&lt;b&gt;Cid&lt;/b&gt;" in svg and "<b>" not in svg


def test_the_drawing_is_the_same_for_the_same_game():
    a = _played(seed=9, moves=80).game
    b = _played(seed=9, moves=80).game
    assert a.engine.board_svg(a, 0) == b.engine.board_svg(b, 0)


def test_an_engine_without_a_drawing_says_none():
    """Infernal Contraption draws no board: the studio shows its board's sections as text."""
    from runtime.engine import load_compiled

    c = load_compiled("infernal_contraption")
    agents = {i: SeededRandom(random.Random(i)) for i in range(2)}
    m = engine_for(c).new_match(c, ["Ann", "Bob"], seed=1, agents=agents)
    assert m.game.engine.board_svg(m.game, 0) is None
