"""Issue 15: the parser tables shipped beside the grammar (grammar/effects.tables.json).

They are used only when made for this grammar, Lark version and options (their key); anything
else about them — stale, garbled, missing — means the user's cache or a fresh build, never an error.
"""
from __future__ import annotations

import json

import pytest
from lark import Lark

from compiler import grammar as G
from compiler import parser as P
from tests.test_english import GAMES, every_slot

GRAMMAR = (G.GRAMMAR_DIR / "effects.lark").read_text(encoding="utf-8")


def _texts() -> list[str]:
    """Every effect text of the bundled games and of the language corpus (accepted and rejected:
    a syntax error must be the same error too)."""
    from tests.language.corpus import load_corpus

    texts = {("requires " if kind == "condition" else "") + text
             for game in GAMES for _card, _face, _slot, kind, text in every_slot(game)}
    for cf in load_corpus():
        texts |= {e.text for e in cf.entries} | {r.text for r in cf.rejected}
    return sorted(t.lower() for t in texts)


def _parse(parser: Lark, text: str):
    try:
        return parser.parse(text)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return (type(exc).__name__, getattr(exc, "pos_in_stream", None), getattr(exc, "column", None))


def _shipped_parser() -> Lark:
    stored = json.loads(G.SHIPPED_TABLES.read_text(encoding="utf-8"), object_hook=G._json_hook)
    return Lark.__new__(Lark)._load({"data": stored["data"], "memo": stored["memo"]})


def test_shipped_tables_parse_every_bundled_text_as_a_fresh_build_does():
    stored = json.loads(G.SHIPPED_TABLES.read_text(encoding="utf-8"), object_hook=G._json_hook)
    if stored.get("key") != G._tables_key(GRAMMAR):
        pytest.skip("the shipped tables are for another grammar or Lark version: they are not used "
                    "(python -m compiler.grammar --write-tables makes them anew)")
    shipped, fresh = _shipped_parser(), Lark(GRAMMAR, **G._OPTIONS)
    texts = _texts()
    assert len(texts) > 300
    for text in texts:
        assert _parse(shipped, text) == _parse(fresh, text), text


@pytest.mark.parametrize("content", ["{not json", '{"key": "another grammar", "data": {}, "memo": {}}', ""])
def test_stale_or_garbled_shipped_tables_are_passed_over(content, tmp_path, monkeypatch):
    bad = tmp_path / "effects.tables.json"
    bad.write_text(content, encoding="utf-8")
    monkeypatch.setattr(G, "SHIPPED_TABLES", bad)
    monkeypatch.setenv("CARDWRIGHT_CACHE", "")  # no user cache either: the strict build runs
    G._lark.cache_clear()
    try:
        effect, problem = P.parse_effect.__wrapped__("gain 2 fuel")
        assert problem is None and effect is not None
    finally:
        G._lark.cache_clear()


# --- texts of one shape share a parse (compiler/parser.py _shape) -----------------------------------


def _generated_texts() -> list[str]:
    import sys
    import tempfile
    from pathlib import Path

    import yaml

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import corpus

    with tempfile.TemporaryDirectory() as tmp:
        data = corpus.write(Path(tmp), 600, 600)
        gdata = yaml.safe_load((data / corpus.GAME / "game.yaml").read_text(encoding="utf-8"))
        cards = yaml.safe_load((data / corpus.GAME / "module_000.yaml").read_text(encoding="utf-8"))["cards"]
    out = []
    for c in cards:
        for path in corpus._slots(gdata, c):
            v = c
            for k in path:
                v = v[k]
            out.append(v)
    return out


NUMBERED = ["gain 12 fuel", "gain 999 fuel", "gain 1000 fuel", "gain 0007 fuel", "draw 3 cards (min 2)",
            "x is number of cards in your hand (min 10); gain x fuel", "gain 1 vp per 10 cards in your deck",
            "gain up to 30 fuel", "gain 2fuel", "gain fuel2", "gain 2 fuel_3", "gain ٣ fuel", "gain 3 fuel;; 4",
            "draw (2 + 3 * 4 - 5 / 6) cards", "gain 2 fuel, 3 iron: gain 4 vp", "gain " + "9" * 40 + " fuel"]


def test_a_text_parses_as_its_shape_does_with_its_own_numbers():
    """Every corpus text (bundled, language corpus, 600 generated cards, edge cases): the AST, or the
    problem, is the same whether the Lark tree comes from the text or from its shape."""
    texts = sorted(set(_texts()) | {t.lower() for t in _generated_texts()} | set(NUMBERED))
    assert len(texts) > 800
    shared = 0
    for text in texts:
        assert P._parse(text, shapes=True) == P._parse(text, shapes=False), text
        shared += P._shape(text) != text
    assert shared > 500  # most texts have a number: the shapes are doing the work
