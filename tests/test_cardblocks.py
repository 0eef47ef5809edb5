"""compiler/cardblocks.py: a module's Document after re-reading one edited card is the Document a
full load of the new text gives — its value and every position — and an edit that is not inside one
card's block is refused (the caller loads the whole text). Also: watch mode's loads go through it
(compiler/cache.py ``ModuleCache.load``) and still equal full loads.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.cache import ModuleCache
from compiler.cardblocks import card_blocks, reread, stitch
from compiler.diagnostics import Diagnostics
from compiler.loader import load_text

MODULE = """\
set: test
cards:
- id: one
  kind: location
  name: One
  effect: gain 1 fuel
- id: two
  kind: location
  name: Two
  effect: 'spend 1 gun: gain 2 vp'
  note: |-
    a note
    of two lines
- id: three
  kind: location
  name: Three
  effect: draw 1 card
rules:
  setup: gain 1 fuel
"""


def _load(text: str):
    doc = load_text(text, "m.yaml", Diagnostics(), Path("m.yaml"))
    assert doc is not None
    return doc


def _same(a, b) -> None:
    assert a.data == b.data
    assert dict(a.positions) == dict(b.positions)
    assert dict(a.key_positions) == dict(b.key_positions)
    assert a.text == b.text


def _edit(old: str, new: str):
    doc = _load(old)
    lines = old.split("\n")
    blocks = card_blocks(doc, lines)
    assert blocks is not None
    found = reread(doc, blocks, lines, new.split("\n"), "m.yaml", Path("m.yaml"))
    if found is None:
        return None
    i, part, delta = found
    return i, stitch(doc, blocks, i, part, new, delta), blocks


EDITS = [
    ("a number", "gain 1 fuel", "gain 3 fuel", 0),
    ("a quoted text", "'spend 1 gun: gain 2 vp'", "'spend 2 gun: gain 5 vp'", 1),
    ("a line added", "  name: Two\n", "  name: Two\n  cost: 3\n", 1),
    ("a line of a block scalar removed", "    a note\n    of two lines", "    a note", 1),
    ("the last card", "draw 1 card", "draw 2 cards", 2),
    ("a comment line added inside a card", "  name: One\n", "  name: One\n  # set aside\n", 0),
]


@pytest.mark.parametrize("what,old,new,card", EDITS, ids=[e[0] for e in EDITS])
def test_one_card_read_again_gives_the_full_load(what, old, new, card):
    text = MODULE.replace(old, new, 1)
    assert text != MODULE
    got = _edit(MODULE, text)
    assert got is not None, what
    i, doc, blocks = got
    assert i == card
    _same(doc, _load(text))
    fresh = card_blocks(_load(text), text.split("\n"))
    assert [(b.start, b.end, sorted(b.keys), sorted(b.kkeys)) for b in blocks] == \
        [(b.start, b.end, sorted(b.keys), sorted(b.kkeys)) for b in fresh]  # ready for the next edit


REFUSED = [
    ("an edit across two cards", "effect: gain 1 fuel\n- id: two", "effect: gain 2 fuel\n- id: deux"),
    ("a card added", "- id: three", "- id: four\n  kind: location\n  name: Four\n- id: three"),
    ("an edit outside the cards", "setup: gain 1 fuel", "setup: gain 2 fuel"),
    ("a card's YAML broken", "  name: Two\n", "  name: [Two\n"),
    ("the card's dash moved", "- id: three", "-  id: three"),
]


@pytest.mark.parametrize("what,old,new", REFUSED, ids=[e[0] for e in REFUSED])
def test_an_edit_not_inside_one_card_is_left_to_a_full_load(what, old, new):
    assert _edit(MODULE, MODULE.replace(old, new, 1)) is None, what


def test_watch_loads_read_one_card_and_equal_full_loads(tmp_path):
    path = tmp_path / "m.yaml"
    cache = ModuleCache()
    path.write_text(MODULE, encoding="utf-8")
    cache.load(path, Diagnostics())
    assert cache.reread == 0
    text = MODULE
    for old, new in (("gain 1 fuel", "gain 4 fuel"), ("  name: Two\n", "  name: Two\n  cost: 2\n"),
                     ("draw 1 card", "draw 3 cards"), ("setup: gain 1 fuel", "setup: gain 5 fuel")):
        text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
        doc = cache.load(path, Diagnostics())
        _same(doc, load_text(text, doc.file, Diagnostics(), path))
    assert cache.reread == 3  # the three card edits; the rules edit loaded the whole file
