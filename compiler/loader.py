"""Stage 1 — load: YAML files into plain Python values, each value keeping its file, line and column.

Why an event-level builder instead of ``yaml.safe_load``:
- positions: every scalar, sequence and mapping records where it starts, so later stages can point
  at the exact character of a bad Good inside an effect text;
- safety: anchors and aliases are refused at the first event (a billion-laughs file fails at once,
  it is never expanded), duplicate keys are errors, and unknown tags are refused;
- YAML 1.2 scalars: ``yes``/``no``/``on``/``off`` stay strings; only ``true``/``false`` are booleans.
PyYAML's C parser is used when present (``yaml.__with_libyaml__``), the pure-Python one otherwise.
"""
from __future__ import annotations

import dataclasses
import errno
import math
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from . import scalarmap
from .diagnostics import Diagnostics, display_path
from .outputs import inside

try:  # the C parser is ~10x faster; fall back silently where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the machine
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 16 * 1024 * 1024  # a designer's data file is never this big; a pasted dump is
MAX_DEPTH = 100  # nesting deeper than this is never data a designer wrote (and would exhaust the stack)
# Numbers a data file may hold. NaN and infinity compare and print in ways no rule means (and
# `repr(nan)` is not even valid Python in generated code), and no printed table needs a whole number
# of 19 digits: past that it is a typo or a pasted dump, and past 4,300 digits Python refuses to
# convert it at all. Decision: both are located errors (E109), never values (docs/decisions.md).
MAX_INT_DIGITS = 18

Path_ = tuple  # a path inside a document: keys and indices, e.g. ("cards", 3, "assault")

_INT = re.compile(r"^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$")
_NULL = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}
_WORDS = _NULL | _TRUE | _FALSE  # the only plain scalars starting with a letter that are not text
_ALLOWED_TAGS = {None, "!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:map",
                 "tag:yaml.org,2002:seq", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null"}


class Pos(NamedTuple):
    """Where a value sits in its file. line/column are 0-based here (as PyYAML counts).

    A NamedTuple rather than a frozen dataclass: the loader makes one per value (hundreds of
    thousands for a big corpus) and tuple construction is several times cheaper.
    """

    line: int
    column: int
    end_line: int
    end_column: int
    style: str | None = None  # None plain, "'" or '"' quoted, "|" literal, ">" folded


class _PosDict(dict):
    """path -> Pos. The loader stores plain tuples (cheap: one per value of every file); reading
    gives ``Pos`` named tuples, so users write ``doc.positions[path].line``."""

    def __getitem__(self, key):
        return Pos(*dict.__getitem__(self, key))

    def get(self, key, default=None):
        t = dict.get(self, key)
        return default if t is None else Pos(*t)

    def values(self):  # pragma: no cover - convenience for callers iterating positions
        return [Pos(*t) for t in dict.values(self)]

    def items(self):  # pragma: no cover
        return [(k, Pos(*t)) for k, t in dict.items(self)]


@dataclass
class Document:
    """One loaded YAML file: its value and where each part of it came from."""

    file: str  # display path, used in every diagnostic
    path: Path
    text: str
    data: Any
    positions: dict = field(default_factory=lambda: _PosDict())  # path tuple -> Pos of the value
    key_positions: dict = field(default_factory=lambda: _PosDict())  # path tuple -> Pos of the mapping key
    rel: str = ""  # path relative to the data folder's parent: what generated code may mention

    _lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    def source_line(self, line0: int) -> str | None:
        return self.lines[line0] if 0 <= line0 < len(self.lines) else None

    def pos(self, path: Path_) -> Pos | None:
        """Position of the value at ``path``, or of the nearest enclosing value that has one."""
        p = tuple(path)
        while p:
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get(())

    def where(self, path: Path_, offset: int | None = None) -> tuple[int, int, str | None]:
        """1-based (line, column, source line) of ``path``, or of character ``offset`` inside its text."""
        pos = self.pos(path)
        if pos is None:
            return 1, 1, self.source_line(0)
        if offset is None or not isinstance(self.get(path), str):
            return pos.line + 1, pos.column + 1, self.source_line(pos.line)
        line0, col0 = self._map_offset(pos, self.get(path), offset)
        return line0 + 1, col0 + 1, self.source_line(line0)

    def reporter(self, diags: Diagnostics, base: Path_, code: str) -> "PathReporter":
        """Where a check of the part at ``base`` reports, by paths inside that part (an engine's map
        check: runtime/ knows no Document, it is handed this)."""
        return PathReporter(self, diags, tuple(base), code)

    def get(self, path: Path_) -> Any:
        node = self.data
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    def _map_offset(self, pos: Pos, value: str, offset: int) -> tuple[int, int]:
        """Map a character offset inside a scalar's value back to a file position.

        A single-line plain scalar maps directly. Every other style — quotes with their ``''`` and
        escapes, continuation lines, folded and literal blocks — is aligned character by character
        against what is written in the file (compiler/scalarmap.py).
        """
        if pos.line == pos.end_line and pos.style is None:
            return pos.line, pos.column + offset
        if pos.line == pos.end_line and pos.style in ("'", '"'):
            quick = _quoted_offset(self.lines[pos.line][pos.column + 1:pos.end_column - 1], pos, value, offset)
            if quick is not None:
                return quick
        written = scalarmap.units(self.lines, (pos.line, pos.column), (pos.end_line, pos.end_column),
                                  pos.style)
        found = scalarmap.locate(value, offset, written)
        return found if found is not None else (pos.line, pos.column)


def _quoted_offset(raw: str, pos: Pos, value: str, offset: int) -> tuple[int, int] | None:
    """``scalarmap.locate`` for a one-line quoted scalar written exactly as its value (no ``''``, no
    escape): each character of the value sits at its own column, so the alignment is arithmetic.
    Same answers as the alignment (tests/test_loader_offsets.py compares them at every offset): an
    offset on whitespace lands on the next written character, one past the end just after the last.
    A bulk build locates every statement of every text, and most quoted texts are of this kind.
    None when the scalar is not of this kind (the alignment then decides)."""
    if raw != value:
        return None
    n = len(value)
    i = max(0, min(offset, n))
    while i < n and value[i] in scalarmap.YAML_SPACE:
        i += 1
    if i < n:
        return pos.line, pos.column + 1 + i
    j = n - 1
    while j >= 0 and value[j] in scalarmap.YAML_SPACE:
        j -= 1
    return (pos.line, pos.column + 1 + j + 1) if j >= 0 else (pos.line, pos.column)


class PathReporter:
    """Reports errors located by a path under ``base`` in a Document: ``report(message, *path,
    hint=…)``; ``line_of(*path)`` for a message that names another place; ``count`` of reports."""

    def __init__(self, doc: Document, diags: Diagnostics, base: tuple, code: str):
        self.doc, self.diags, self.base, self.code = doc, diags, base, code
        self.count = 0

    def __call__(self, message: str, *path, hint: str | None = None) -> None:
        full = self.base + tuple(path)
        line, col, src = self.doc.where(full)
        value = self.doc.get(full)
        length = len(str(value)) if isinstance(value, (str, int)) and not isinstance(value, bool) else 1
        self.diags.error(self.code, message, file=self.doc.file, line=line, column=col, length=length,
                         path=_path_text(full), hint=hint, source_line=src)
        self.count += 1

    def line_of(self, *path) -> int:
        return self.doc.where(self.base + tuple(path))[0]


class _Builder:
    """Builds Python values from PyYAML parse events, recording positions and refusing what we forbid."""

    def __init__(self, doc: Document, diags: Diagnostics):
        self.doc = doc
        self.diags = diags
        self.failed = False
        self.refused_numbers = False  # an E109: the file is read to its end, then not used
        self.refused_at: list[tuple[int, Path_]] = []  # (index in diags, path) of each E109

    def _err(self, code: str, message: str, mark, length: int = 1, path: Path_ = (), hint=None) -> None:
        line0 = mark.line if mark is not None else 0
        col0 = mark.column if mark is not None else 0
        self.diags.error(code, message, file=self.doc.file, line=line0 + 1, column=col0 + 1,
                         length=length, path=_path_text(path) or None, hint=hint,
                         source_line=self.doc.source_line(line0))

    def build(self, events) -> Any:
        it = iter(events)
        values = []
        for ev in it:
            if isinstance(ev, yaml.DocumentStartEvent):
                values.append(self._node(next(it), it, ()))
                if len(values) > 1:
                    self._err("E103", "a data file holds one YAML document; found a second '---'",
                              ev.start_mark)
                    self.failed = True
                    return None
                if self.failed:
                    return None
        return values[0] if values else None

    def _refuse_anchor(self, ev, path: Path_) -> bool:
        if type(ev) is _Alias:
            self._err("E105", f"alias '*{ev.anchor}' is not allowed: write the value out in full",
                      ev.start_mark, len(ev.anchor) + 1, path)
            self.failed = True
            return True
        if getattr(ev, "anchor", None):
            self._err("E105", f"anchor '&{ev.anchor}' is not allowed: write the value out in full",
                      ev.start_mark, len(ev.anchor) + 1, path)
            self.failed = True
            return True
        tag = getattr(ev, "tag", None)
        if tag not in _ALLOWED_TAGS:
            self._err("E108", f"tag '{tag}' is not supported", ev.start_mark, len(tag or ""), path)
            self.failed = True
            return True
        return False

    def _scalar(self, ev, path: Path_) -> Any:
        """A scalar value; a number cardwright refuses is reported (E109) and loading goes on, so
        every such number of the file is reported at once, and the file is then not used."""
        try:
            return _scalar(ev)
        except _BadNumber as exc:
            self._err("E109", str(exc), ev.start_mark, max(1, min(len(ev.value), 40)), path)
            self.refused_numbers = True
            self.refused_at.append((len(self.diags) - 1, path))
            return None

    def name_cards(self, data: Any) -> None:
        """Name the card of each E109 once the whole file is read: when the number was read, the
        card's ``id`` (often written after it) was not known yet."""
        cards = data.get("cards") if isinstance(data, dict) else None
        for i, path in self.refused_at:
            if len(path) >= 2 and path[0] == "cards" and isinstance(cards, list) and type(path[1]) is int \
                    and path[1] < len(cards) and isinstance(cards[path[1]], dict) \
                    and isinstance(cards[path[1]].get("id"), str):
                self.diags[i] = dataclasses.replace(self.diags[i], card=cards[path[1]]["id"])

    def _node(self, ev, it, path: Path_) -> Any:
        """One value. The common case (a plain or quoted scalar without anchor or tag) is inlined in
        the loops below: this runs once per value of every data file, so it is kept tight."""
        if type(ev) is _Scalar and ev.anchor is None and ev.tag is None:
            s, e = ev.start_mark, ev.end_mark
            self.doc.positions[path] = (s.line, s.column, e.line, e.column, ev.style or None)
            return self._scalar(ev, path)
        if self._refuse_anchor(ev, path):
            return None
        cls = type(ev)
        if len(path) >= MAX_DEPTH and cls is not _Scalar:
            self._err("E103", f"values are nested more than {MAX_DEPTH} levels deep", ev.start_mark, 1, path)
            self.failed = True
            return None
        positions = self.doc.positions
        if cls is _Scalar:
            s, e = ev.start_mark, ev.end_mark
            positions[path] = (s.line, s.column, e.line, e.column, ev.style or None)
            return self._scalar(ev, path)
        if cls is _SeqStart:
            start = ev.start_mark
            out = []
            for ev2 in it:
                if type(ev2) is _SeqEnd:
                    positions[path] = (start.line, start.column, ev2.end_mark.line, ev2.end_mark.column)
                    return out
                out.append(self._node(ev2, it, path + (len(out),)))
                if self.failed:
                    return None
        if cls is _MapStart:
            start = ev.start_mark
            out: dict = {}
            key_positions = self.doc.key_positions
            for ev2 in it:
                if type(ev2) is _MapEnd:
                    positions[path] = (start.line, start.column, ev2.end_mark.line, ev2.end_mark.column)
                    return out
                if type(ev2) is not _Scalar or ev2.anchor is not None or ev2.tag is not None:
                    if self._refuse_anchor(ev2, path):
                        return None
                    if type(ev2) is not _Scalar:
                        self._err("E103", "a mapping key must be a plain value, not a list or mapping",
                                  ev2.start_mark, 1, path)
                        self.failed = True
                        return None
                key = ev2.value
                if not ev2.style and not (key[:1].isalpha() and key not in _WORDS):
                    try:
                        key = _scalar(ev2)
                    except _BadNumber:
                        key = ev2.value
                    if type(key) is not str and type(key) is not int:
                        key = ev2.value  # keys are names: `true:` or `1.5:` as keys stay text
                s, e = ev2.start_mark, ev2.end_mark
                kpath = path + (key,)
                if key in out:
                    first = key_positions.get(kpath)
                    where = f" (first at line {first.line + 1})" if first else ""
                    self._err("E104", f"duplicate key '{key}'{where}", s, len(str(ev2.value)), kpath)
                    self.failed = True
                    return None
                key_positions[kpath] = (s.line, s.column, e.line, e.column, ev2.style or None)
                ev3 = next(it)
                if type(ev3) is _Scalar and ev3.anchor is None and ev3.tag is None:
                    s, e = ev3.start_mark, ev3.end_mark
                    style = ev3.style
                    positions[kpath] = (s.line, s.column, e.line, e.column, style or None)
                    v = ev3.value
                    out[key] = v if style or (v[:1].isalpha() and v not in _WORDS) else self._scalar(ev3, kpath)
                    continue
                out[key] = self._node(ev3, it, kpath)
                if self.failed:
                    return None
        return None


_Scalar, _Alias = yaml.ScalarEvent, yaml.AliasEvent
_SeqStart, _SeqEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_MapStart, _MapEnd = yaml.MappingStartEvent, yaml.MappingEndEvent


def _scalar(ev) -> Any:
    """YAML 1.2 core-schema resolution for plain scalars; quoted scalars are always strings."""
    value = ev.value
    if ev.style or ev.tag in ("tag:yaml.org,2002:str", "!"):
        return value
    if value[:1].isalpha() and value not in _WORDS:  # most scalars are words: no regex needed
        return value
    if value in _NULL:
        return None
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    if _INT.match(value):
        digits = value.lstrip("+-")
        if len(digits) > MAX_INT_DIGITS + (2 if digits.startswith(("0o", "0x")) else 0):
            raise _BadNumber(f"the number {_clip(value)} has {len(digits)} digits; numbers in data files "
                             f"have at most {MAX_INT_DIGITS}")
        return int(value, 0) if value.startswith(("0o", "0x")) else int(value)
    if _FLOAT.match(value):
        if "." in value and value.lstrip("+-").startswith(".") and value.lstrip("+-")[1:2].isalpha():
            raise _BadNumber(f"{value} is not a number a rule can use: write a finite number")
        number = float(value)
        if not math.isfinite(number):
            raise _BadNumber(f"{_clip(value)} is too large a number to be exact: write a smaller one")
        return number
    return value


class _BadNumber(ValueError):
    """A plain scalar that reads as a number cardwright refuses (NaN, infinity, 19+ digits)."""


def _clip(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _path_text(path: Path_) -> str:
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


path_text = _path_text


# what YAML 1.2 does not allow in a stream (its c-printable set, inverted), as PyYAML's reader checks it
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]")


def load_text(text: str, file: str, diags: Diagnostics, path: Path | None = None) -> Document | None:
    """Load YAML text. Returns None (with diagnostics) when the file cannot be used at all."""
    doc = Document(file=file, path=path or Path(file), text=text, data=None)
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        diags.error("E106", "file is empty: expected a YAML mapping", file=file, line=1, column=1)
        return None
    builder = _Builder(doc, diags)
    try:
        loader = _Loader(text)
        try:  # get_event returns None after the stream's end (C and Python parsers alike)
            doc.data = builder.build(iter(loader.get_event, None))
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "malformed YAML"
        if exc.context:
            problem = f"{problem} ({exc.context})"
        line0 = mark.line if mark else 0
        hint = None
        if "mapping values are not allowed" in problem:
            hint = "effect text containing ': ' must be quoted, e.g. action: \"spend 1 gun: gain 1 vp\""
        diags.error("E103", f"malformed YAML: {problem}", file=file, line=line0 + 1,
                    column=(mark.column if mark else 0) + 1, source_line=doc.source_line(line0), hint=hint)
        return None
    except yaml.reader.ReaderError as exc:  # a character YAML forbids (control characters)
        # libyaml counts exc.position in bytes of UTF-8, the pure-Python reader in characters: after
        # any non-ASCII text the two differ (a wrong column, or a wrong line). The reader stops at the
        # first character it forbids, so that character is found in the text itself (issue 26).
        bad = _NON_PRINTABLE.search(text)
        position = bad.start() if bad is not None else min(exc.position, len(text))
        before = text[:position]
        line0 = before.count("\n")
        col0 = position - (before.rfind("\n") + 1)
        ch = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        diags.error("E103", f"malformed YAML: control character U+{ch:04X} is not allowed in a YAML file",
                    file=file, line=line0 + 1, column=col0 + 1, source_line=doc.source_line(line0))
        return None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML raises marked errors for text input
        diags.error("E103", f"malformed YAML: {exc}", file=file, line=1, column=1)
        return None
    if builder.refused_numbers and not builder.failed:
        builder.name_cards(doc.data)
    if builder.failed or builder.refused_numbers:
        return None
    return doc


def load_file(path: Path, diags: Diagnostics, max_bytes: int = MAX_FILE_BYTES) -> Document | None:
    """Read and load one file: a regular file only, size limit, strict UTF-8, then YAML."""
    text = read_text(path, diags, max_bytes)
    if text is None:
        return None
    return load_text(text, display_path(path), diags, path)


def read_text(path: Path, diags: Diagnostics, max_bytes: int = MAX_FILE_BYTES) -> str | None:
    """The text of one file: a regular file only, size limit, strict UTF-8 (None with a diagnostic)."""
    file = display_path(path)
    raw = read_regular(path, file, diags, max_bytes)
    if raw is None:
        return None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        diags.error("E102", "file is saved as UTF-16: save it as UTF-8", file=file, line=1, column=1)
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        diags.error("E102", f"byte 0x{raw[exc.start]:02x} is not valid UTF-8: save the file as UTF-8",
                    file=file, line=line, column=col)
        return None
    return text


def leaves_game_folder(path: Path) -> bool:
    """Whether ``path`` is (or lies under) a symbolic link that leads out of its game folder.

    A game folder is data a stranger may have written: ``x.yaml -> ~/.git-credentials`` would have
    ``validate`` quote the target in an error and ``diff`` print its values. The game folder is the
    file's folder (a scenario's: the folder above ``scenarios/``); when that folder is itself a link,
    it must stay inside the data folder that holds it. Only paths are compared, nothing is read.
    """
    game = path.parent.parent if path.parent.name == "scenarios" else path.parent
    base = game.parent if os.path.islink(game) else game
    try:
        real, game_real = os.path.realpath(path), os.path.realpath(base)
    except (OSError, ValueError):
        return False  # the read says what is wrong with it (a loop, a name the system refuses)
    return not inside(real, game_real)


def _is_regular(path) -> bool:
    """Whether ``path`` leads to a regular file (a stat, never a read; a loop or nothing: False)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_regular(path: Path, file: str, diags: Diagnostics, max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of a regular file, or None with a diagnostic.

    A FIFO, a device or a socket named ``*.yaml`` would block a read forever (or never end, like
    /dev/zero), so the file is opened without blocking and refused (E110) unless ``fstat`` of the
    very descriptor we read says it is a regular file — no window between a check and the read.
    A symlink loop or a dangling link is an E101 under the link's own name, and so is a link that
    leaves the game folder (``leaves_game_folder``), which is never opened: its target is never quoted.
    """
    if leaves_game_folder(Path(path)) and _is_regular(path):  # (not a file at all: E110 below says what it is)
        diags.error("E101", "is a symbolic link that leads outside the game folder: cardwright does not read it "
                    "(copy the file into the game folder instead)", file=file, line=1, column=1)
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        diags.error("E101", f"cannot read file: {_os_reason(exc, path)}", file=file, line=1, column=1)
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            diags.error("E110", f"is not a regular file ({_file_kind(st.st_mode)}): data files must be "
                        "ordinary files", file=file, line=1, column=1)
            return None
        if st.st_size > max_bytes:
            diags.error("E107", f"file is {st.st_size / 1e6:.1f} MB; data files are limited to "
                        f"{max_bytes / 1e6:.1f} MB (split it into modules)", file=file, line=1, column=1)
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(max_bytes + 1)
    except OSError as exc:
        diags.error("E101", f"cannot read file: {_os_reason(exc, path)}", file=file, line=1, column=1)
        return None
    finally:
        os.close(fd)


def _os_reason(exc: OSError, path: Path) -> str:
    if os.path.islink(path) and not os.path.exists(path):
        try:
            target = os.readlink(path)
        except OSError:  # pragma: no cover - the link vanished meanwhile
            target = "?"
        if exc.errno == errno.ELOOP:
            return f"it is a symbolic link in a loop (-> {target})"
        return f"it is a symbolic link to '{target}', which does not exist"
    return exc.strerror or str(exc)


def _file_kind(mode: int) -> str:
    for test, word in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return word
    return "not a file"
