"""Stand-in rules: what a game's data marks ``stand_in: {note: …}`` (issue 13).

A stand-in is a rule the rulebooks do not give but a playable game needs, written for this project;
it is never to be presented as the published game. Anything in game.yaml may carry the mark (the
flow, a phase, an action, the end, the scoring, a table…), and so may a card or a whole module.
This module finds every mark, in data order, for the outputs that must show them (the rules
reference, simulation reports, ``cardwright play``).
"""
from __future__ import annotations

from typing import Any


def walk_marks(value: Any, path: tuple, out: list[dict]) -> None:
    """Append ``{what, where, note}`` for every mapping under ``value`` that carries a stand-in mark."""
    if isinstance(value, dict):
        mark = value.get("stand_in")
        if isinstance(mark, dict) and mark.get("note"):
            what = value.get("name") or value.get("id") or (str(path[-1]) if path else "the game")
            out.append({"what": str(what).replace("_", " "), "where": ".".join(map(str, path)) or "game.yaml",
                        "note": str(mark["note"])})
        for key, item in value.items():
            if key != "stand_in":
                walk_marks(item, path + (key,), out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            walk_marks(item, path + (i,), out)


def stand_ins(compiled) -> list[dict]:
    """``[{what, where, note}]``: the marks of game.yaml (``where`` is the path in it, e.g.
    ``flow.round.0``), then of the cards (``where`` is the card's file:line), then of whole modules."""
    out: list[dict] = []
    walk_marks(compiled.vocab, (), out)
    for cid, rec in compiled.cards.items():
        mark = rec.get("stand_in")
        if isinstance(mark, dict) and mark.get("note"):
            out.append({"what": str(rec.get("name", cid)), "where": str(rec.get("at", cid)), "note": str(mark["note"])})
    for module in compiled.modules:
        mark = module.get("stand_in")
        if isinstance(mark, dict) and mark.get("note"):
            out.append({"what": str(module.get("name", module.get("id"))), "where": str(module.get("file", "")),
                        "note": str(mark["note"])})
    return out
