"""Benchmark: Lark's Cython plugin (lark-cython) against Lark itself on the effect grammar (issue 27 item 4).

    pip install lark-cython            # into the bench's environment: not a dependency of cardwright
    python bench/parser_cython.py [--rounds 5]

The parser is loaded from the tables shipped beside the grammar (grammar/effects.tables.json), as
the build loads it. lark-cython 0.0.17 cannot read Lark 1.3's serialised parse table itself (its
loader keeps the terminals' indices where the table now holds their names: every parse fails with
``KeyError: 'INT'``), so the Lark object is loaded with the plugin's lexer and parser classes and
its parser is then given the table Lark itself deserialised.

1. Equality: every bundled effect text, every text of the language corpus (accepted and rejected),
   600 generated corpus cards' texts and the numbered edge cases of tests/test_parser_tables.py are
   parsed by both; the trees (rule names, token types and values, every position) or the errors
   (type, position, expected terminals) must be the same.
2. Speed: CPU time of both parsers over the same texts, best of ``--rounds``, in turn.

Prints the figures; nothing here is asserted by the tests, and the build does not use the plugin
(docs/benchmarks.md says why).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cython_parser():
    import lark_cython
    from lark import Lark
    from lark_cython import lark_cython as LC

    from compiler.grammar import SHIPPED_TABLES, _json_hook, _lark

    stored = json.loads(SHIPPED_TABLES.read_text(encoding="utf-8"), object_hook=_json_hook)
    fast = Lark.__new__(Lark)._load({"data": stored["data"], "memo": stored["memo"]}, _plugins=lark_cython.plugins)
    table = _lark().parser.parser._parse_table  # Lark's own reading of the same tables
    fast.parser.parser._parse_table = table
    fast.parser.parser.parser = LC._Parser(table, fast._callbacks, False)
    return fast


def shape(t):
    """A tree as plain values: rule names, tokens and every position Lark gives."""
    if t is None:
        return None
    if hasattr(t, "children"):
        m = t.meta
        return (t.data, *(getattr(m, a, None) for a in ("start_pos", "end_pos", "line", "column", "end_line",
                                                       "end_column")), tuple(shape(c) for c in t.children))
    return ("token", t.type, t.value, t.start_pos, t.end_pos, t.line, t.column, t.end_line, t.end_column)


def outcome(parser, text: str):
    try:
        return shape(parser.parse(text))
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()
        return ("error", type(exc).__name__, getattr(exc, "pos_in_stream", None), getattr(exc, "column", None),
                sorted(expected))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    try:
        import lark_cython
    except ImportError:
        print("lark-cython is not installed here (pip install lark-cython): nothing to compare")
        return
    from compiler.grammar import _lark
    from tests.test_parser_tables import NUMBERED, _generated_texts, _texts

    texts = sorted(set(_texts()) | {t.lower() for t in _generated_texts()} | set(NUMBERED))
    pure, fast = _lark(), cython_parser()
    differ = [t for t in texts if outcome(pure, t) != outcome(fast, t)]
    errors = sum(1 for t in texts if outcome(pure, t)[0] == "error")
    print(f"lark-cython {lark_cython.__version__}: {len(texts)} texts ({errors} of them syntax errors), "
          f"{len(differ)} parse differently" + (f": {differ[:3]}" if differ else ""))
    best = {"lark": float("inf"), "lark-cython": float("inf")}
    for _ in range(args.rounds):
        for name, parser in (("lark", pure), ("lark-cython", fast)):
            t = time.process_time()
            for text in texts:
                try:
                    parser.parse(text)
                except Exception:  # noqa: BLE001,S110 - errors cost what they cost
                    pass
            best[name] = min(best[name], time.process_time() - t)
    print(f"CPU, best of {args.rounds}: Lark {best['lark']:.3f} s, lark-cython {best['lark-cython']:.3f} s "
          f"(ratio {best['lark-cython'] / best['lark']:.2f}) [load {os.getloadavg()[0]:.2f}]")


if __name__ == "__main__":
    main()
