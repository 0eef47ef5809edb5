"""Where each character of a YAML scalar's value came from in its file.

A diagnostic inside an effect text has an offset into the *value*; the designer needs the line and
column in the *file*. The two differ wherever YAML rewrote the text: a single-quoted ``''`` is one
``'``, a double-quoted ``\\t`` or ``\\"`` or ``\\u00e9`` is one character, a ``\\`` at the end of a
line joins two lines with nothing between, line breaks fold into spaces, block scalars drop their
indentation. So the source is read as a list of *units* — each a character of the value (or an
escape producing one) with its line and column — and the value is aligned against them.

YAML's own whitespace (space, tab, line breaks) is what folding adds, drops or changes, so only it
is skipped in the alignment; a non-breaking or ideographic space is an ordinary character of the
value, never whitespace, which is why a block scalar ending in one keeps its carets on its own
lines (Python's ``str.isspace`` would count it as a space and slide past the end to the next key).
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

YAML_SPACE = frozenset(" \t\n\r\x85\u2028\u2029")  # s-white and the line breaks PyYAML knows

_ESCAPES = {"0": "\0", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}
_HEX = {"x": 2, "u": 4, "U": 8}


class Unit(NamedTuple):
    char: str  # the character this produces in the value
    line: int  # 0-based
    column: int  # 0-based
    escaped: bool = False  # written as an escape (so it may be whitespace of the value)


def units(lines: Sequence[str], start: tuple[int, int], end: tuple[int, int],
          style: str | None) -> list[Unit]:
    """The characters of the scalar written from ``start`` to ``end`` (0-based line, column)."""
    (l0, c0), (l1, c1) = start, end
    out: list[Unit] = []
    indent = None
    if style in ("|", ">"):
        l0, c0 = l0 + 1, 0  # the header line holds only the indicator (and maybe a comment)
    elif style in ("'", '"'):
        c0 += 1  # the opening quote
        c1 -= 1  # the closing quote
    for line in range(l0, min(l1, len(lines) - 1) + 1):
        text = lines[line]
        if style in ("|", ">") and text.strip(" \t"):
            lead = len(text) - len(text.lstrip(" "))
            indent = lead if indent is None else indent
            if lead < indent:  # a less-indented line (a comment after the block) is not content
                break
        col = c0 if line == l0 else 0
        stop = c1 if line == l1 else len(text)
        while col < stop:
            ch = text[col]
            if style == "'" and ch == "'" and text[col + 1:col + 2] == "'":
                out.append(Unit("'", line, col))
                col += 2
                continue
            if style == '"' and ch == "\\":
                nxt = text[col + 1:col + 2]
                if nxt == "":  # an escaped line break: the lines join with nothing between
                    col += 1
                    continue
                if nxt in _HEX:
                    n = _HEX[nxt]
                    try:
                        out.append(Unit(chr(int(text[col + 2:col + 2 + n], 16)), line, col, True))
                    except ValueError:  # PyYAML would have refused it; keep aligning anyway
                        out.append(Unit("?", line, col, True))
                    col += 2 + n
                    continue
                out.append(Unit(_ESCAPES.get(nxt, nxt), line, col, True))
                col += 2
                continue
            if ch not in YAML_SPACE:
                out.append(Unit(ch, line, col))
            col += 1
    return out


def locate(value: str, offset: int, written: list[Unit]) -> tuple[int, int] | None:
    """The (line, column) of ``value[offset]``, or None when the value and the source disagree
    (never expected; the caller then falls back to the scalar's start). An offset on whitespace
    the source does not hold (folding) or past the end lands on the next written character, or
    just after the last one — never beyond the scalar."""
    u = 0
    target = max(0, min(offset, len(value)))
    for i, ch in enumerate(value):
        if u < len(written) and written[u].char == ch and (written[u].escaped or ch not in YAML_SPACE):
            if i == target:
                return written[u].line, written[u].column
            u += 1
            continue
        if ch in YAML_SPACE:  # made by folding or kept literal: no unit of its own
            if i == target:
                break
            continue
        return None
    if u < len(written):
        return written[u].line, written[u].column
    if written:
        last = written[-1]
        return last.line, last.column + 1
    return None
