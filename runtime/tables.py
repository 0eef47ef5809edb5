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


def card_table(ns: dict, source: str, entries: tuple, rule_lines: dict) -> tuple[dict, dict, dict]:
    """(CARDS, LINE_MAP, STATEMENTS) of a generated module. ``ns`` is its namespace (``globals()``),
    ``source`` the YAML file it was compiled from, ``rule_lines`` the LINE_MAP entries of its rule
    functions. LINE_MAP: function -> where its text is; STATEMENTS: function -> ((line in the
    function, where that statement is), …) for ``statement_place``."""
    cards: dict = {}
    line_map: dict = dict(rule_lines)
    statements: dict = {}
    for line, rec in entries:
        record = json.loads(rec) if type(rec) is str else rec
        cid = record["id"]
        record["at"] = f"{source}:{line}"
        record["slots"] = _link(ns, record["slots"], source, line, cid, line_map, statements)
        for face in record["faces"].values():
            face["slots"] = _link(ns, face["slots"], source, line, cid, line_map, statements)
        cards[cid] = record
    return cards, dict(sorted(line_map.items())), statements


def _link(ns: dict, slots: dict, source: str, line: int, cid: str, line_map: dict, statements: dict) -> dict:
    linked = {}
    for slot, (name, offset, places, *facts) in slots.items():
        fn = ns.get(name)
        if type(fn) is not types.FunctionType or fn.__globals__ is not ns:
            raise TableError(f"the card table of {source} names {name!r}, which the module does not define")
        # what the compiler knows of the effect from its IR (compiler/codegen.py Body): "verbs" — it only
        # calls verbs on constant selectors (read by ``verbs_only``)
        fn.verbs_only = "verbs" in facts
        linked[slot] = fn
        line_map[name] = f"{source}:{line + offset} card {cid!r} {slot}".replace("\n", " ")
        statements[name] = tuple((int(fn_line), f"{source}:{line + rel}:{col} card {cid!r} {slot}".replace("\n", " "))
                                 for fn_line, rel, col in places)
    return linked


def verbs_only(fn) -> bool:
    """Whether a card slot's compiled effect does nothing but call verbs on constant selectors (no
    choice, condition, loop, computed amount, bound name): the compiler's fact, from the effect's IR
    (compiler/codegen.py ``Body.verbs_only``), carried by the card table. Run with a context whose
    ``call`` stops before a verb changes anything, such an effect changes nothing. False for any other
    function."""
    return getattr(fn, "verbs_only", False) is True


def statement_place(namespace: dict, name: str, line_in_function: int) -> str | None:
    """Where the statement running at ``line_in_function`` (counted from the ``def`` line) of the
    generated function ``name`` is written (``file:line:column card 'id' slot``), or the function's
    own place (LINE_MAP) when its statements are not mapped (a rule's text); None: not generated."""
    line_map = namespace.get("LINE_MAP")
    if not isinstance(line_map, dict) or name not in line_map:
        return None
    found = line_map[name]
    for fn_line, place in (namespace.get("STATEMENTS") or {}).get(name, ()):
        if fn_line > line_in_function:
            break
        found = place
    return found
