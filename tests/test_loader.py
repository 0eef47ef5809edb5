"""Stage 1: loading YAML with positions, YAML 1.2 scalars, and refusing what must be refused."""
from __future__ import annotations

import time

from compiler.diagnostics import Diagnostics
from compiler.loader import load_file, load_text


def load(text):
    d = Diagnostics()
    return load_text(text, "t.yaml", d), d


def test_yaml_12_booleans_stay_strings():
    doc, d = load("a: [yes, no, on, off, true, false, y, n]\n")
    assert not d
    assert doc.data["a"] == ["yes", "no", "on", "off", True, False, "y", "n"]


def test_numbers_and_nulls():
    doc, _ = load("a: 1\nb: 0x10\nc: 1.5\nd: ~\ne: '3'\n")
    assert doc.data == {"a": 1, "b": 16, "c": 1.5, "d": None, "e": "3"}


def test_positions_of_values_and_offsets_inside_text():
    doc, _ = load("cards:\n  - id: x\n    effect: gain 2 fule\n")
    line, col, src = doc.where(("cards", 0, "effect"), 7)
    assert (line, col) == (3, 20)
    assert src[col - 1:col + 3] == "fule"


def test_offsets_inside_quoted_and_folded_text():
    doc, _ = load('a: "gain 2 fule"\nb: >\n  spend 1 gun,\n  1 worker: gain 1 fule\n')
    assert doc.where(("a",), 7)[:2] == (1, 12)
    text = doc.data["b"]
    line, col, src = doc.where(("b",), text.index("fule"))
    assert src[col - 1:col + 3] == "fule" and line == 4


def test_duplicate_key_is_located():
    _, d = load("a: 1\nb: 2\na: 3\n")
    assert [x.code for x in d] == ["E104"]
    assert (d[0].line, d[0].column) == (3, 1)
    assert "first at line 1" in d[0].message


def test_billion_laughs_fails_fast():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    start = time.perf_counter()
    doc, d = load("\n".join(lines) + "\n")
    elapsed = time.perf_counter() - start
    assert doc is None and d[0].code == "E105"
    assert elapsed < 0.5  # refused at the first anchor, never expanded


def test_alias_alone_is_refused():
    _, d = load("a: 1\nb: *a\n")
    assert d[0].code in ("E105", "E103")


def test_non_utf8_file_is_located(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_bytes(b"name: ok\ncard: caf\xe9\n")
    d = Diagnostics()
    assert load_file(p, d) is None
    assert d[0].code == "E102" and (d[0].line, d[0].column) == (2, 10)


def test_empty_file(tmp_path):
    p = tmp_path / "empty.yaml"
    p.write_text("# only a comment\n")
    d = Diagnostics()
    assert load_file(p, d) is None and d[0].code == "E106"


def test_too_large_file(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_bytes(b"a: " + b"x" * 1000 + b"\n")
    d = Diagnostics()
    assert load_file(p, d, max_bytes=100) is None and d[0].code == "E107"


def test_unquoted_colon_in_effect_gets_a_hint():
    _, d = load("action: spend 1 gun: gain 1 vp\n")
    assert d[0].code == "E103" and "quoted" in d[0].hint
