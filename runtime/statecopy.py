"""A cheap copy of a game state, for trials (efficient Assault, legal-move checks) and playouts.

``copy.deepcopy`` of a GameState also copies the trace and walks every object; a game copied
hundreds of times a turn (Monte Carlo playouts, an Assault search) needs better. ``copy_state``
duplicates what play changes — zones, cards, players, the RNG, the events — shares what never
changes (the compiled cards, the vocabulary, the engine, the verbs) and starts an empty trace with
tracing off. A game's own fields are copied by the ``special`` copiers its state class passes
(field name -> function); any other field is deep-copied, so a new field is never shared by mistake.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # state.py imports this module (GameState.copy): the classes are taken from the values
    from .state import GameState

# GameState fields a copy shares: play never changes them
SHARED = frozenset({"vocab", "model", "cards", "engine", "compiled", "verbs", "default_agent", "listening"})


def counter(c: Counter) -> Counter:
    out = Counter.__new__(Counter)  # Counter(c) goes through Counter.update: far slower for a copy
    if c:
        dict.update(out, c)
    return out


_PLAIN = (str, int, float, bool, type(None), tuple)


def props(p: dict) -> dict:
    """A card's props: strings, numbers and flags are shared; lists and dicts are copied."""
    if not p:
        return {}
    if all(type(v) in _PLAIN for v in p.values()):
        return dict(p)
    return {k: (list(v) if type(v) is list else copy.deepcopy(v) if isinstance(v, (dict, set)) else v)
            for k, v in p.items()}


def instances(v: dict) -> dict:
    """A copy of every card instance (its Goods and props its own, made without the dataclass
    __init__), in one loop: the Assault search and Monte Carlo playouts copy games hundreds of times
    a turn."""
    new, new_counter, plain = object.__new__, Counter.__new__, _PLAIN
    out = {}
    for uid, i in v.items():
        c = new(type(i))  # a CardInst, made without its __init__
        d = c.__dict__
        d.update(i.__dict__)
        g = new_counter(Counter)
        if i.goods:
            dict.update(g, i.goods)
        d["goods"] = g
        p = i.props
        if not p:
            d["props"] = {}
        elif all(type(x) in plain for x in p.values()):
            d["props"] = dict(p)
        else:
            d["props"] = props(p)
        out[uid] = c
    return out


def _rng(r: random.Random) -> random.Random:
    out = random.Random.__new__(random.Random)  # random.Random() would first seed itself from the OS
    out.setstate(r.getstate())
    return out


def same(value):
    """A value the copy holds as it is (a number, a string, None: immutable)."""
    return value


_CORE: dict[str, Callable[[Any], Any]] = {
    "zones": lambda v: {z: list(cards) for z, cards in v.items()},
    "where": dict,
    "instances": instances,
    "players": lambda v: [type(p)(p.index, p.name, counter(p.goods), dict(p.flags), p.out) for p in v],
    "rng": _rng,
    "log": lambda v: [],
    "events": list,       # typed events are frozen: shared items, a new list
    "until": list,        # (phase, callable taking the game): shared callables, a new list
    "fired": dict,
    "resolving": set,
    "playing": dict,
    "pile_ids": lambda v: {k: set(s) for k, s in v.items()},
    "options": dict,      # the game's options: plain values, set at the start
    "set_aside_from": dict,  # uid -> zone key: immutable values
    # numbers, strings, None: the copy holds the same values
    **{name: same for name in ("seed", "round", "phase", "turn_player", "starting_player", "turn_number",
                                "running", "_next_uid", "card_moves", "tracing")},
}


def copy_state(game: GameState, special: dict[str, Callable[[Any], Any]] | None = None,
               agents: dict | None = None) -> GameState:
    """An independent copy of ``game`` (same class), not tracing. ``agents`` replaces the seats'
    agents (``{}``: every seat first-legal), else they are deep-copied with their own RNG state."""
    twin = object.__new__(type(game))
    d = twin.__dict__
    special = special or {}
    for k, v in game.__dict__.items():
        if k in SHARED:
            d[k] = v
        elif k in special:
            d[k] = special[k](v)
        elif k in _CORE:
            d[k] = _CORE[k](v)
        elif k == "agents":
            d[k] = dict(agents) if agents is not None else copy.deepcopy(v)
        else:
            d[k] = copy.deepcopy(v)
    twin.tracing = False
    return twin
