"""The effect grammar's parser: grammar/effects.lark built into one Lark LALR parser in strict mode (no
shift/reduce conflicts tolerated), once per process, its tables shipped beside the grammar and cached.

Its own module so that the parser (compiler/parser.py) and the syntax-error catalogue
(compiler/syntaxhelp.py), which both need the Lark object, each import it without importing the
other (issue 22: no import cycles).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark

from .resources import GRAMMAR_DIR

_OPTIONS = dict(parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=True)


SHIPPED_TABLES = GRAMMAR_DIR / "effects.tables.json"  # made by `python -m compiler.grammar --write-tables`


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The effect parser, built once per process.

    Building it (LALR tables plus strict mode's terminal-collision check) takes about a second, so
    the built tables are kept, keyed by the grammar's text, the Lark version and the options: first
    the tables shipped beside the grammar (grammar/effects.tables.json, also in the wheel), then a
    cache file of this user's; the strict build runs only when neither matches (the grammar or Lark
    changed), and its tables go to the user's cache. The files are JSON (data, never code or
    pickle); one that is missing, unreadable or wrong in any way is passed over.
    """
    grammar = (GRAMMAR_DIR / "effects.lark").read_text(encoding="utf-8")
    key = _tables_key(grammar)
    for path, keyed in ((SHIPPED_TABLES, True), (_cache_path(grammar), False)):
        if path is None:
            continue
        try:
            stored = json.loads(path.read_text(encoding="utf-8"), object_hook=_json_hook)
            if keyed and stored.get("key") != key:
                continue  # made for another grammar or Lark: the user's cache, or a build
            parser = Lark.__new__(Lark)._load({"data": stored["data"], "memo": stored["memo"]})
            if parser.parse("gain 1 x").data == "start":
                return parser
        except Exception:  # noqa: BLE001 - any problem with a stored table: the next one, or build
            pass
    parser = Lark(grammar, **_OPTIONS)
    path = _cache_path(grammar)
    if path is not None:
        _write_cache(parser, path)
    return parser


def _tables_key(grammar: str) -> str:
    return hashlib.sha256(repr((grammar, lark.__version__, sorted(_OPTIONS.items()))).encode()).hexdigest()[:24]


def _cache_path(grammar: str) -> Path | None:
    root = os.environ.get("CARDWRIGHT_CACHE")
    if root == "":
        return None  # caching switched off
    folder = Path(root) if root else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardwright"
    return folder / f"effects-{_tables_key(grammar)}.json"


def _tables_json(parser: Lark, key: str | None = None) -> str:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    stored = {"data": data, "memo": memo} if key is None else {"key": key, "data": data, "memo": memo}
    return json.dumps(_json_encode(stored), separators=(",", ":"))


def write_shipped_tables() -> Path:
    """Build the parser afresh and write its tables beside the grammar. Lark's table construction
    follows set order, so the build runs in a child process with a fixed hash seed: the same grammar
    and Lark version always give the same bytes."""
    import subprocess
    import sys

    code = ("import sys; from pathlib import Path; from compiler import grammar as p; from lark import Lark; "
            "g = (p.GRAMMAR_DIR / 'effects.lark').read_text(encoding='utf-8'); "
            "sys.stdout.write(p._tables_json(Lark(g, **p._OPTIONS), p._tables_key(g)))")
    env = dict(os.environ, PYTHONHASHSEED="0")
    text = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent).stdout
    SHIPPED_TABLES.write_text(text, encoding="utf-8", newline="\n")
    return SHIPPED_TABLES


def _write_cache(parser: Lark, path: Path) -> None:
    try:
        text = _tables_json(parser)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".effects.", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):  # a read-only home, an unexpected value: no cache then
        pass


# Lark's serialised tables use int keys and tuples, which JSON lacks: tag them.
_DICT, _TUPLE = "\u0000d", "\u0000t"


def _json_encode(x):
    t = type(x)
    if t is dict:
        if all(type(k) is str and k not in (_DICT, _TUPLE) for k in x):
            return {k: _json_encode(v) for k, v in x.items()}
        return {_DICT: [[_json_encode(k), _json_encode(v)] for k, v in x.items()]}
    if t is tuple:
        return {_TUPLE: [_json_encode(v) for v in x]}
    if t is list:
        return [_json_encode(v) for v in x]
    if x is None or t in (str, int, float, bool):
        return x
    raise TypeError(f"cannot cache a {t.__name__}")


def _json_hook(d: dict):
    if len(d) == 1:
        if _DICT in d:
            return {k: v for k, v in d[_DICT]}
        if _TUPLE in d:
            return tuple(d[_TUPLE])
    return d


if __name__ == "__main__":  # python -m compiler.grammar --write-tables
    import sys

    if sys.argv[1:] != ["--write-tables"]:
        raise SystemExit("usage: python -m compiler.grammar --write-tables")
    print(f"wrote {write_shipped_tables()}")
