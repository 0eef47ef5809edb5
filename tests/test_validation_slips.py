"""Issue 26, item 7: four small validation slips, one test each (or a few)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.build import compile_tree
from compiler.diagnostics import Diagnostics
from compiler.loader import load_text
from compiler.parser import parse_effect
from compiler.scaffold import new_game


# --- 1. a wrong preposition after a noun is named, caret on it ------------------------------------

@pytest.mark.parametrize("text", ["gain 1 fuel under 1 of your locations",
                                  "gain 1 victory point under 1 of your locations",
                                  "draw 2 cards; gain 1 fuel beneath 1 of your locations"])
def test_a_preposition_the_language_lacks_is_named_with_the_caret_on_it(text):
    _, problem = parse_effect(text)
    assert problem is not None and problem.code == "E301"
    at = text.index("under") if "under" in text else text.index("beneath")
    word = text[at:].split()[0]
    assert (problem.offset, problem.length) == (at, len(word))
    assert f"'{word}' is not a word of effect text here" in problem.message
    assert "';'" not in problem.message  # no advice to start another statement
    assert "'from'" in problem.message and "'into'" in problem.message


def test_a_statement_run_on_without_a_preposition_still_gets_the_semicolon_advice():
    _, problem = parse_effect("gain 2 fuel with icon green red")
    assert problem is not None and "put ';' before it" in problem.message


# --- 2. a field declared int takes whole numbers only -----------------------------------------------

@pytest.fixture
def quick(tmp_path) -> Path:
    new_game("quick", tmp_path)
    return tmp_path


def _set_cost(data: Path, value: str) -> None:
    base = data / "quick" / "base.yaml"
    text = base.read_text(encoding="utf-8")
    assert "    cost: 1\n" in text
    base.write_text(text.replace("    cost: 1\n", f"    cost: {value}\n"), encoding="utf-8")


@pytest.mark.parametrize("value, says", [("1e3", "write 1000"), ("3.0", "write 3"), ("2.5", "")])
def test_an_int_field_refuses_a_decimal_point_or_an_exponent(quick, value, says):
    """Decision (docs/decisions.md): refused, never kept as a float the reference would print as
    "1000.0"; an exact value is suggested as the whole number to write."""
    _set_cost(quick, value)
    errors = compile_tree(quick).diags.errors
    assert [(d.code, d.card, d.path) for d in errors] == [("E401", "first_card", "cards[0].cost")]
    assert "expected a whole number" in errors[0].message and says in errors[0].message
    assert "decimal point or an exponent" in errors[0].message


def test_an_int_field_still_takes_a_whole_number(quick):
    _set_cost(quick, "1000")
    assert compile_tree(quick).ok


# --- 3. E109 names the card -----------------------------------------------------------------------

def test_a_number_yaml_cannot_hold_names_its_card(quick):
    _set_cost(quick, ".nan")
    errors = compile_tree(quick).diags.errors
    assert [(d.code, d.card) for d in errors] == [("E109", "first_card")]
    assert "in card 'first_card'" in errors[0].headline()


def test_e109_names_the_card_even_when_its_id_comes_after_the_number():
    diags = Diagnostics()
    load_text("cards:\n  - cost: .inf\n    id: late_id\n  - {id: other, cost: 1e400}\n", "m.yaml", diags)
    assert [(d.code, d.card, d.line) for d in diags] == [("E109", "late_id", 2), ("E109", "other", 4)]


# --- 4. a control character after non-ASCII text: character column, right line -------------------

@pytest.mark.parametrize("text, line, column", [
    ("name: x\nnote: h\u00e9llo w\u00f6rld \u00fcn\u00efcode \x01 here\n", 2, 27),
    ("name: x\nnote: " + "\u00e9" * 40 + "\nb: \x01\n", 3, 4),  # counted in bytes: line 4
    ("name: \u4e2d\u6587\u2603\x07\n", 1, 10),
])
def test_a_control_character_is_located_by_character(text, line, column):
    diags = Diagnostics()
    assert load_text(text, "f.yaml", diags) is None
    (d,) = diags
    assert d.code == "E103" and "control character" in d.message
    assert (d.line, d.column) == (line, column)
    assert text.split("\n")[line - 1][column - 1] in "\x01\x07"
