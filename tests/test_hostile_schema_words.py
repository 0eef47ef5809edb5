"""Issue 11, class 10: schema messages in the designer's words. Every value of the mini game's
files is replaced in turn by values of the wrong kind; whatever the schema says about it must say
what was expected, located at the value — never "is not valid under any of the given schemas", a
regular expression, or Python's ``None``."""
from __future__ import annotations

import copy
import re

import pytest

from compiler.diagnostics import Diagnostics
from compiler.loader import load_file
from compiler.schema import prepare_cards, validate

from .conftest import MINI

FORBIDDEN = re.compile(r"is not valid under any of the given schemas|None|\^\[|\]\*\$|\\\.|\(\?|found nothing None"
                       r"|does not match|is not of type|Failed validating")
REPLACEMENTS = [None, 3, "Bad-Name", [], {}, True, 1.5, {"zz": 1}]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _replaced(data, path, new):
    data = copy.deepcopy(data)
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = new
    return data


def _messages(doc, schema, data):
    doc.data = data
    diags = Diagnostics()
    validate(doc, schema, diags)
    if schema == "module" and not diags and isinstance(data.get("cards"), list):
        cards = prepare_cards(load_file(MINI / "mini" / "game.yaml", Diagnostics()).data)
        for i in range(len(data["cards"])):
            validate(doc, cards, diags, ("cards", i))
    return diags


@pytest.mark.parametrize("file, schema", [("game.yaml", "game"), ("base.yaml", "module"),
                                          ("scenarios/barracks.yaml", "scenario")])
def test_every_wrong_value_is_worded_for_a_designer(file, schema):
    doc = load_file(MINI / "mini" / file, Diagnostics())
    original = doc.data
    checked = 0
    for path in list(_paths(original))[1:]:
        for new in REPLACEMENTS:
            for d in _messages(doc, schema, _replaced(original, path, new)):
                checked += 1
                assert not FORBIDDEN.search(d.message), (path, new, d.message)
                assert d.line and d.column, (path, new, d)
    doc.data = original
    assert checked > 50  # the sweep really produced messages to judge


CASES = [
    # (file, old text, new text, expected message fragment)
    ("game.yaml", "      icons: icons", "      icons: icons\n      distance: integer",
     "'integer' is not one of: int, bool, str, good, goods, icon, icons, text, number (did you mean 'int'?)"),
    ("game.yaml", "phases: [production, action, cleanup]", "phases: [production, {id: action, nam: x}, 3]",
     "unknown field 'nam' (did you mean 'name'?)"),
    ("game.yaml", "phases: [production, action, cleanup]", "phases: [production, action, 3]",
     "expected text or a mapping, found integer 3"),
    ("base.yaml", "    row: production", "    row:", "expected one of: production, feature, action; found nothing"),
    ("base.yaml", "  - id: oil_rig", "  - id: Oil-Rig",
     "'Oil-Rig' is not a lower-case id: letters, digits and _, starting with a letter (oil_rig)"),
    ("base.yaml", "    source: example\n    row: production", "    source: sample\n    row: production",
     "'sample' is not 'example', or 'rulebook ' and a rulebook's file name"),
    ("game.yaml", "  fuel: {name: Fuel}", "  fuel: [Fuel]", "expected a mapping or nothing, found list ['Fuel']"),
]


@pytest.mark.parametrize("file, old, new, want", CASES)
def test_schema_messages_say_what_was_expected(tmp_path, file, old, new, want):
    import shutil

    shutil.copytree(MINI, tmp_path / "data")
    p = tmp_path / "data" / "mini" / file
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    from compiler.build import compile_tree

    result = compile_tree(tmp_path / "data")
    messages = [d.message for d in result.diags]
    assert any(want in m for m in messages), messages
