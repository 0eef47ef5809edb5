"""A card's ``source``: the built-in forms, and the forms a game declares (issue 28, item 4).

A card names where it comes from: ``rulebook <file>``, ``example`` — or, in a game that declares
``source_forms`` in game.yaml, a citation of a published card list ("cardlist NS-012"). A declared
form is a pattern anchored at both ends (``^…$``) in a small, safe subset of regular expressions:

- characters stand for themselves; ``\\`` escapes one of ``\\ . [ ] ( ) { } | ? * + ^ $ -``;
- ``.`` any character, ``\\d`` a digit, ``\\w`` a letter, digit or ``_``, ``\\s`` a space;
- ``[…]`` a class of characters and ranges (``[A-Z0-9_]``), ``[^…]`` its complement;
- each of those may take one quantifier: ``?``, ``*``, ``+``, ``{n}``, ``{m,n}``, ``{m,}`` (n ≤ 100).

No groups and no ``|``: a game lists each form on its own. The patterns come from a data folder, so
they are untrusted (DESIGN §10): they never reach Python's backtracking ``re``. They are read here
into a list of atoms and matched by simulating all ways at once (one pass over the text, work
bounded by the text's length times the pattern's states: no catastrophic backtracking), and a
source longer than ``MAX_SOURCE`` characters is refused before any matching.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SOURCE = 200   # the longest a card's source may be
MAX_PATTERN = 200  # the longest a declared form may be
MAX_REPEAT = 100   # the largest bound of a {m,n}
MAX_FORMS = 20

# The built-in forms (module.schema.json's description): trusted, ours — read from the start, as the
# schema's pattern always was.
BUILTIN = re.compile(r"(rulebook [0-9]{3}_[0-9a-f]+(\.txt)?|example)")
BUILTIN_WORDS = "'example', or 'rulebook ' and a rulebook's file name (rulebook 000_3e37b2ec99b6decd.txt)"

_SPECIAL = set("\\.[](){}|?*+^$-")


class FormError(ValueError):
    """A declared form outside the safe subset: ``offset`` is where in the pattern."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Atom:
    ranges: tuple[tuple[str, str], ...] | None  # None: any character
    negated: bool
    lo: int
    hi: int | None  # None: no upper bound

    def takes(self, ch: str) -> bool:
        if self.ranges is None:
            return True
        inside = any(a <= ch <= b for a, b in self.ranges)
        return inside != self.negated


_SHORT = {"d": (("0", "9"),), "w": (("a", "z"), ("A", "Z"), ("0", "9"), ("_", "_")), "s": ((" ", " "),)}


def compile_form(pattern: str) -> tuple[Atom, ...]:
    """The atoms of a declared form, or FormError naming what is not allowed and where."""
    if len(pattern) > MAX_PATTERN:
        raise FormError(f"a source form may be at most {MAX_PATTERN} characters long", MAX_PATTERN)
    if not pattern.startswith("^") or not pattern.endswith("$") or pattern.endswith("\\$") or len(pattern) < 2:
        raise FormError("a source form is anchored at both ends: start it with '^' and end it with '$'", 0)
    body, i, atoms = pattern[1:-1], 0, []
    while i < len(body):
        ch = body[i]
        at = i + 1  # offset in the whole pattern
        if ch in "(|)":
            raise FormError("groups and '|' are not part of a source form: declare each form on its own", at)
        if ch in "?*+{}]^$":
            raise FormError(f"'{ch}' has nothing before it to apply to: escape it as '\\{ch}'", at)
        if ch == "[":
            ranges, negated, i = _class(body, i + 1)
        elif ch == "\\":
            if i + 1 >= len(body):
                raise FormError("a '\\' at the end escapes nothing", at)
            nxt = body[i + 1]
            if nxt in _SHORT:
                ranges, negated = _SHORT[nxt], False
            elif nxt in _SPECIAL:
                ranges, negated = ((nxt, nxt),), False
            else:
                raise FormError(f"'\\{nxt}' is not part of a source form (use \\d, \\w, \\s or escape a sign)", at)
            i += 2
        elif ch == ".":
            ranges, negated, i = None, False, i + 1
        else:
            ranges, negated, i = ((ch, ch),), False, i + 1
        lo, hi, i = _quantifier(body, i)
        atoms.append(Atom(ranges, negated, lo, hi))
    return tuple(atoms)


def _class(body: str, i: int) -> tuple[tuple[tuple[str, str], ...], bool, int]:
    start = i
    negated = i < len(body) and body[i] == "^"
    if negated:
        i += 1
    ranges: list[tuple[str, str]] = []
    while i < len(body) and body[i] != "]":
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            ch = body[i + 1]
            i += 1
        if i + 2 < len(body) and body[i + 1] == "-" and body[i + 2] != "]":
            end = body[i + 2]
            if end < ch:
                raise FormError(f"the range '{ch}-{end}' runs backwards", i + 1)
            ranges.append((ch, end))
            i += 3
        else:
            ranges.append((ch, ch))
            i += 1
    if i >= len(body):
        raise FormError("this '[' is never closed with ']'", start)
    if not ranges:
        raise FormError("an empty class '[]' matches nothing", start)
    return tuple(ranges), negated, i + 1


def _quantifier(body: str, i: int) -> tuple[int, int | None, int]:
    if i >= len(body):
        return 1, 1, i
    ch = body[i]
    if ch == "?":
        return 0, 1, i + 1
    if ch == "*":
        return 0, None, i + 1
    if ch == "+":
        return 1, None, i + 1
    if ch != "{":
        return 1, 1, i
    m = re.match(r"\{([0-9]{1,3})(,([0-9]{0,3}))?\}", body[i:])
    if m is None:
        raise FormError("a '{' starts a count: '{3}', '{1,3}' or '{2,}'", i + 1)
    lo = int(m.group(1))
    hi = lo if m.group(2) is None else (int(m.group(3)) if m.group(3) else None)
    if lo > MAX_REPEAT or (hi is not None and hi > MAX_REPEAT):
        raise FormError(f"a count is at most {MAX_REPEAT}", i + 1)
    if hi is not None and hi < lo:
        raise FormError(f"the count {{{lo},{hi}}} runs backwards", i + 1)
    return lo, hi, i + m.end()


def matches(atoms: tuple[Atom, ...], text: str) -> bool:
    """Whether the whole of ``text`` is of the form: every way through the atoms at once (a set of
    states (atom, times matched so far) per character), so the work is linear in the text."""
    if len(text) > MAX_SOURCE:
        return False

    def closure(states: set) -> set:
        todo, seen = list(states), set(states)
        while todo:
            i, n = todo.pop()
            if i < len(atoms) and n >= atoms[i].lo and (i + 1, 0) not in seen:
                seen.add((i + 1, 0))
                todo.append((i + 1, 0))
        return seen

    states = closure({(0, 0)})
    for ch in text:
        nxt = set()
        for i, n in states:
            if i == len(atoms):
                continue
            a = atoms[i]
            if (a.hi is None or n < a.hi) and a.takes(ch):
                # past the lower bound, an unbounded atom's count no longer matters: keep it at lo
                nxt.add((i, n + 1 if a.hi is not None or n < a.lo else n))
        if not nxt:
            return False
        states = closure(nxt)
    return (len(atoms), 0) in states


def source_ok(source: str, forms: tuple[tuple[Atom, ...], ...]) -> bool:
    """A card's source is of a built-in form, or (whole) of one the game declares."""
    return bool(BUILTIN.match(source)) or any(matches(f, source) for f in forms)
