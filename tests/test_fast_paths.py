"""The compiler's fast paths give the same answers as the slow ones.

- schema: ``fast_check`` may only say "valid" where jsonschema finds no error (hypothesis);
- parse/check caches: a text used by several cards is reported at each card's own place;
- the effect parser's table cache: loaded tables parse like a fresh strict build; a broken cache
  file is ignored.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from compiler import grammar as G
from compiler import parser as P
from compiler.build import compile_tree
from compiler.diagnostics import Diagnostics
from compiler.loader import load_file
from compiler.schema import fast_check, load_schema, prepare_cards

HERE = Path(__file__).resolve().parent
MINI = HERE / "fixtures" / "mini"
GAME = load_file(MINI / "mini" / "game.yaml", Diagnostics()).data

_ATOMS = st.sampled_from(["oil_rig", "Oil-Rig", "location", "production", "feature", "x", "", "example",
                          "rulebook 001_ab.txt", "green", "gren", "gain 2 fuel", 0, 1, 3, -1, 1.0, 2.5, True,
                          False, None])
_VALUES = st.recursive(_ATOMS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["left", "a", "id", "green"]), inner, max_size=2),
                       max_leaves=6)
_KEYS = st.sampled_from(["id", "kind", "name", "count", "source", "provisional", "note", "text", "row", "icons",
                         "production", "action", "icon", "defense"])
_CARDS = st.dictionaries(_KEYS, _VALUES, max_size=9) | st.fixed_dictionaries(
    {"id": st.sampled_from(["oil_rig", "Oil-Rig"]), "kind": st.sampled_from(["location", "building"]),
     "name": st.sampled_from(["Oil Rig", 3])},
    optional={"row": st.sampled_from(["production", "prodution", 1]), "icons": _VALUES,
              "count": _ATOMS, "provisional": st.dictionaries(st.sampled_from(["row", "a"]), _ATOMS, max_size=2),
              "production": _ATOMS, "source": _ATOMS})

CARD_CHECK = prepare_cards(GAME)
MODULE_SCHEMA = load_schema("module")
MODULE_CHECK = fast_check(MODULE_SCHEMA)
MODULE_FULL = Draft202012Validator(MODULE_SCHEMA)


def test_fast_checks_exist_for_our_schemas():
    assert CARD_CHECK.quick is not None and MODULE_CHECK is not None
    assert fast_check(load_schema("game")) is None  # $ref/oneOf: always the full validator


@settings(max_examples=300, deadline=None)
@given(_CARDS)
def test_fast_card_check_never_hides_an_error(card):
    full_ok = not list(CARD_CHECK.validator.iter_errors(card))
    quick_ok = CARD_CHECK.quick(card)
    if quick_ok:
        assert full_ok, card


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "cards", "card", "rules", "module", "tables"]),
                       st.lists(_CARDS, max_size=2) | _VALUES, max_size=3))
def test_fast_module_check_never_hides_an_error(doc):
    full_ok = not list(MODULE_FULL.iter_errors(doc))
    if MODULE_CHECK(doc):
        assert full_ok, doc


def test_fast_check_agrees_on_fixture_cards():
    doc = load_file(MINI / "mini" / "base.yaml", Diagnostics())
    assert all(CARD_CHECK.quick(c) for c in doc.data["cards"])  # the fast path is taken for good cards
    assert MODULE_CHECK(doc.data)


def test_same_text_in_several_cards_is_reported_at_each(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    base = data / "mini" / "base.yaml"
    text = base.read_text().replace("gain 2 fuel", "gain 2 fule").replace(
        "draw (3 - number of cards in your hand) cards", "gain 2 fule")
    base.write_text(text)
    diags = compile_tree(data).diags
    assert [(d.code, d.card, d.line, d.column) for d in diags.sorted()] == [
        ("E201", "oil_rig", 9, 24), ("E201", "library", 23, 20)]


def test_parse_cache_returns_the_same_ast_as_a_fresh_parse():
    text = "spend 1 gun, 1 worker: gain (2 + number of cards in your hand) fuel"
    assert P.parse_effect(text) == P.parse_effect.__wrapped__(text)
    assert P.parse_effect(text)[0] is P.parse_effect(text)[0]


def test_grammar_table_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDWRIGHT_CACHE", str(tmp_path))
    monkeypatch.setattr(G, "SHIPPED_TABLES", tmp_path / "none.json")  # the user's cache alone (see test_parser_tables)
    G._lark.cache_clear()
    try:
        fresh = G._lark()  # built strictly, tables written
        (cache,) = tmp_path.glob("effects-*.json")
        json.loads(cache.read_text())  # plain JSON
        G._lark.cache_clear()
        loaded = G._lark()
        assert loaded is not fresh
        for text in ("gain 2 fuel", "for each of your locations with icon green or red as l: gain 1 vp",
                     "x is the number of cards in your hand (min 1); draw x cards", "gain 2 fuel;; draw"):
            try:
                a = fresh.parse(text)
            except Exception as exc:  # noqa: BLE001
                a = type(exc).__name__
            try:
                b = loaded.parse(text)
            except Exception as exc:  # noqa: BLE001
                b = type(exc).__name__
            assert a == b
        cache.write_text('{"data": "garbage"')  # broken: ignored, rebuilt and rewritten
        G._lark.cache_clear()
        assert G._lark().parse("gain 2 fuel") == fresh.parse("gain 2 fuel")
        json.loads(cache.read_text())
    finally:
        G._lark.cache_clear()
