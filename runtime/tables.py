"""The card table of a generated module, read when the module is imported (compiler/codegen.py writes it).

A generated module's ``CARDS`` is written as data, not as Python source of the same records: one
entry per card, ``(line, record)``, where ``line`` is the card's first line in its YAML file and
``record`` is the card's record as JSON text (or, for a value JSON cannot carry exactly — a mapping
with keys that are not text — as a Python literal of the same shape). In a record, each slot names the
generated function that runs it and where its text is, relative to the card: ``"slots": {"play":
["oil_rig__play", 3]}``; ``"at"`` is filled in here. Two reasons (issue 15): the compiler's
``compile()`` safety check of a module costs far less when its biggest part is a few string literals
rather than nested dict displays, and an entry that does not depend on the card's line can be reused
unchanged when a card above it grows or shrinks.

Reading JSON never runs code, and a slot may only name a function that the generated module itself
defines (its namespace is passed in): anything else is refused, so the table cannot reach any other
object. ``card_table`` returns the records exactly as the Python-literal form made them (same keys,
same order, same values) and the module's ``LINE_MAP``.
"""
from __future__ import annotations

import json
import types


class TableError(ValueError):
    """A generated card table that names something the module does not define (a corrupt file)."""


def card_table(ns: dict, source: str, entries: tuple, rule_lines: dict) -> tuple[dict, dict]:
    """(CARDS, LINE_MAP) of a generated module. ``ns`` is its namespace (``globals()``), ``source``
    the YAML file it was compiled from, ``rule_lines`` the LINE_MAP entries of its rule functions."""
    cards: dict = {}
    line_map: dict = dict(rule_lines)
    for line, rec in entries:
        record = json.loads(rec) if type(rec) is str else rec
        cid = record["id"]
        record["at"] = f"{source}:{line}"
        record["slots"] = _link(ns, record["slots"], source, line, cid, line_map)
        for face in record["faces"].values():
            face["slots"] = _link(ns, face["slots"], source, line, cid, line_map)
        cards[cid] = record
    return cards, dict(sorted(line_map.items()))


def _link(ns: dict, slots: dict, source: str, line: int, cid: str, line_map: dict) -> dict:
    linked = {}
    for slot, (name, offset) in slots.items():
        fn = ns.get(name)
        if type(fn) is not types.FunctionType or fn.__globals__ is not ns:
            raise TableError(f"the card table of {source} names {name!r}, which the module does not define")
        linked[slot] = fn
        line_map[name] = f"{source}:{line + offset} card {cid!r} {slot}".replace("\n", " ")
    return linked
