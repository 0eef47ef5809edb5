"""A one-line quoted scalar's offsets are mapped by arithmetic (compiler/loader.py ``_quoted_offset``);
the answer must be the character alignment's (compiler/scalarmap.py ``units`` + ``locate``) at every
offset, for every quoted scalar of the bundled data and of a generated corpus, and for hand-made
values with the cases the alignment treats specially (whitespace, ``''``, escapes, an empty value).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from compiler import scalarmap
from compiler.diagnostics import Diagnostics
from compiler.loader import Document, load_file

ROOT = Path(__file__).resolve().parent.parent


def _aligned(doc: Document, pos, value: str, offset: int):
    written = scalarmap.units(doc.lines, (pos.line, pos.column), (pos.end_line, pos.end_column), pos.style)
    found = scalarmap.locate(value, offset, written)
    return found if found is not None else (pos.line, pos.column)


def _compare(doc: Document) -> int:
    """Every quoted one-line string value of ``doc``, at every offset (and two past the end)."""
    seen = 0
    for path, pos in doc.positions.items():
        value = doc.get(path)
        if not isinstance(value, str) or pos.line != pos.end_line or pos.style not in ("'", '"'):
            continue
        for offset in range(-1, len(value) + 3):
            assert doc._map_offset(pos, value, offset) == _aligned(doc, pos, value, offset), (doc.file, path, offset)
        seen += 1
    return seen


def test_every_quoted_text_of_the_bundled_data_maps_as_aligned():
    seen = 0
    for path in sorted((ROOT / "data").rglob("*.yaml")):
        doc = load_file(path, Diagnostics())
        if doc is not None:
            seen += _compare(doc)
    assert seen > 50


def test_every_quoted_text_of_a_generated_corpus_maps_as_aligned():
    sys.path.insert(0, str(ROOT / "bench"))
    import corpus

    with tempfile.TemporaryDirectory() as tmp:
        data = corpus.write(Path(tmp), 400, 400)
        seen = sum(_compare(load_file(p, Diagnostics())) for p in sorted(data.rglob("module_*.yaml")))
    assert seen > 200


VALUES = ["'gain 2 fuel'", "'gain  2   fuel   '", "'   '", "''", "'it''s: gain 1 fuel'", '"gain\\t2 fuel"',
          '"a \\"b\\": c"', "'a\tb: c'", '"x: y "', "' lead: x'", '"\\u00e9t\\u00e9: gain 1"', '"plain: text"']


def test_hand_made_quoted_values_map_as_aligned(tmp_path):
    f = tmp_path / "m.yaml"
    f.write_text("".join(f"k{i}: {v}\n" for i, v in enumerate(VALUES)), encoding="utf-8")
    doc = load_file(f, Diagnostics())
    assert _compare(doc) == len(VALUES)
