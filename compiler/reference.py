"""Stage 6b — the printable rules reference, rendered from the compiled content.

Input is a clean :class:`compiler.build.BuildResult`: the generated modules (``MODULE``,
``CARDS``, ``RULES``, ``TABLES``, ``MAP`` of each data file) and each game's vocabulary. Every
effect is written in English by :mod:`compiler.english` from the IR the build checked
(``GameBuild.effect_ir``) — never copied from the YAML text, never parsed again here. The views built here are plain
dataclasses; jinja2 templates under ``compiler/templates/`` turn them into HTML (autoescaped,
self-contained, print stylesheet for A4 and Letter), Markdown, and — through a headless
Chromium when one is installed — PDF.

Nothing here is specific to one game: tables are drawn from their shape, card fields from their
declared types (``goods``, ``icons``, ``bool`` …, or a type the game's engine adds, which also draws
its values and its legend: runtime/fieldtypes.py), maps by the engine's ``render_map_svg`` hook.
"""
from __future__ import annotations

import ast as pyast
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from runtime import escape
from runtime.fieldtypes import Legend, Shown, field_type, field_types_of
from runtime.model import GameModel, model_of
from runtime.words import title

from . import resources
from .codegen import identifier
from .english import ICON_END, ICON_START, plain, render_marked, split_icons

TEMPLATES = Path(__file__).resolve().parent / "templates"
FORMATS = ("html", "md", "pdf")
PAPERS = {"a4": "A4", "letter": "letter"}
_RECORD_KEYS = {"id", "kind", "name", "count", "source", "provisional", "uncertain", "note", "text", "at",
                "texts", "slots", "faces"}
_CLAUSE_ID = re.compile(r"\b([A-Z][0-9]{2})\b")
_RULEBOOK = re.compile(r"\b([0-9]{3}_[0-9a-f]{6,})(?:\.txt)?\b")


# --- views -------------------------------------------------------------------------------------------


@dataclass
class Field:
    label: str
    kind: str  # "text" | "icons" | "goods" | "flag"
    value: Any
    mark: str = ""  # "provisional" | "uncertain" | ""
    why: str = ""


@dataclass
class Effect:
    label: str
    marked: str  # English with icon markers
    kind: str = "effect"  # "effect" | "condition"
    mark: str = ""  # "provisional" | "uncertain" | ""
    why: str = ""
    key: str = ""  # the slot's key in the data (card sheets locate a text that does not fit by it)

    @property
    def text(self) -> str:
        return plain(self.marked)


@dataclass
class Face:
    name: str
    fields: list[Field]
    effects: list[Effect]
    engine_fields: list[Shown] = field(default_factory=list)  # values of the engine's field types
    key: str = ""  # the face's key in the data (``hacked``)


@dataclass
class Card:
    id: str
    name: str
    kind: str
    count: int | None
    source: str
    fields: list[Field]
    effects: list[Effect]
    faces: list[Face]
    engine_fields: list[Shown]  # values of the field types the game's engine adds (runtime/fieldtypes.py)
    notes: list[tuple[str, str, str]]  # (mark, field label, why)
    note: str | None
    printed: str | None
    at: str
    kind_key: str = ""
    art: str | None = None  # the card's `art` field (a file in the game folder), for card sheets


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    note: str | None = None


@dataclass
class Module:
    id: str
    name: str
    source: str | None
    note: str | None
    setup: list[str]
    tables: list[Table]
    map_svg: str | None
    map_note: str | None
    cards: list[Card]
    rules: list[Effect]
    file: str


@dataclass
class Clause:
    id: str
    group: str
    rule: str
    open: str | None
    implemented: list[str]
    tests: list[str]
    scenarios: list[str]

    @property
    def tests_by_file(self) -> list[tuple[str, list[str]]]:
        """``[(file, [test names])]``: the tests, grouped by file, for a compact table."""
        out: dict[str, list[str]] = {}
        for t in self.tests:
            file, _, name = t.partition("::")
            out.setdefault(file, []).append(name)
        return list(out.items())


@dataclass
class Game:
    id: str
    name: str
    source: str | None
    note: str | None
    phases: list[dict]
    icons: list[dict]
    goods: list[dict]
    zones: list[dict]
    things: list[dict]
    card_sources: list[dict]
    legends: list[Legend]  # the game-wide sections the engine's field types add (their legends)
    card_kinds: list[dict]
    tables: list[Table]
    modules: list[Module]
    clauses: list[Clause] = field(default_factory=list)
    coverage_known: bool = True
    flow: list = field(default_factory=list)  # the game flow's sections (compiler/flowref.py)
    flow_title: str = "How the game is played"  # a game with bots but no flow: "How the bots play"
    stand_ins: list = field(default_factory=list)  # rules and cards marked stand-in (compiler/flowref.py)
    seats: str | None = None  # game.yaml ``seats``: "2 to 4 players"
    options: list = field(default_factory=list)  # game.yaml ``options``: what is chosen at setup (issue 24)
    chosen: list = field(default_factory=list)  # the options this reference was rendered with (--option, --pack)
    css: list[str] = field(default_factory=list)  # stylesheet rules of the engine field types its cards use

    @property
    def card_count(self) -> int:
        return sum(len(m.cards) for m in self.modules)


# --- building the views -----------------------------------------------------------------------------


def _exec_generated(src: str, name: str) -> dict:
    """Run one generated module (the code generator's own output, never data text)."""
    ns: dict = {"__name__": name}
    exec(compile(src, name, "exec"), ns)  # noqa: S102 - generated code, see the docstring
    return ns


class _GameViewBuilder:
    def __init__(self, gb, verbs: dict):
        self.gb = gb
        self.v = gb.vocab
        self.verbs = verbs
        self.d = self.v.source
        self.engine_types = field_types_of(self.d)  # field type name -> FieldType, the engine's own
        self._cache: dict[tuple[str, str, bool], str] = {}

    # English -------------------------------------------------------------------------------------
    def english(self, text: str, kind: str, has_card: bool = True) -> str:
        """A compiled text's English, from the IR the build checked (``GameBuild.effect_ir``)."""
        key = (text, kind, has_card)
        if key not in self._cache:
            effect = self.gb.effect_ir(text, kind, has_card)
            if effect is None:  # compiled content always checks; say so plainly if not
                self._cache[key] = "(this effect does not check against the game's vocabulary)"
            else:
                self._cache[key] = render_marked(effect, self.v, self.verbs, kind)
        return self._cache[key]

    # names ---------------------------------------------------------------------------------------
    def good_name(self, key: str) -> str:
        g = self.v.goods.get(key)
        return (g.printed.declared if g is not None else None) or title(str(key))

    def icon_marker(self, key: str) -> str:
        i = self.v.icons.get(key)
        return f"{ICON_START}{key}|{(i.printed.declared if i is not None else None) or title(str(key))}{ICON_END}"

    # cards ---------------------------------------------------------------------------------------
    def field_value(self, ftype: Any, value: Any) -> tuple[str, Any]:
        if isinstance(ftype, dict):
            t = ftype.get("type")
            if "enum" in ftype and isinstance(value, str):
                return "text", title(value)
            ftype = {"boolean": "bool", "integer": "int", "number": "number"}.get(t, "str")
        if ftype in ("good", "goods"):
            vals = value if isinstance(value, list) else [value]
            return "text", ", ".join(self.good_name(g) for g in vals)
        if ftype in ("icon", "icons"):
            vals = value if isinstance(value, list) else [value]
            return "icons", ", ".join(self.icon_marker(i) for i in vals)
        if ftype == "bool" or isinstance(value, bool):
            return "flag", bool(value)
        if isinstance(value, list):
            return "text", ", ".join(str(x) for x in value)
        if isinstance(value, dict):
            return "text", "; ".join(f"{title(str(k))}: {v}" for k, v in value.items())
        return "text", "" if value is None else str(value)

    def engine_type(self, spec: Any):
        """The engine's FieldType a field spec names, or None (a core type or a schema fragment)."""
        return self.engine_types.get(spec) if isinstance(spec, str) else None

    def fields_of(self, rec: dict, fspecs: tuple, marks: dict[str, tuple[str, str]]) -> list[Field]:
        """The fields of core types (``fspecs``: the kind's or face's FieldSpecs); the engine's field
        types are ``engine_fields_of``'s. A field the kind does not declare reads as text."""
        out = []
        declared = {f.key: f for f in fspecs}
        keys = [f.key for f in fspecs if f.key in rec] + [k for k in rec if k not in declared and k not in _RECORD_KEYS]
        for k in keys:
            spec = declared.get(k)
            ftype = spec.type if spec is not None else "str"
            if self.engine_type(ftype) is not None:
                continue
            kind, value = self.field_value(ftype, rec[k])
            mark, why = marks.get(k, ("", ""))
            out.append(Field((spec.title if spec is not None else None) or title(k), kind, value, mark, why))
        return out

    def engine_fields_of(self, rec: dict, fspecs: tuple, marks: dict[str, tuple[str, str]]) -> list[Shown]:
        """The values of the engine's field types, in the kind's field order, as their type views them."""
        out = []
        for f in fspecs:
            ft = self.engine_type(f.type)
            view = ft.view(rec[f.key], self.d) if ft is not None and f.key in rec else None
            if view is not None:
                out.append(Shown(self.v.engine, ft.name, f.key, title(f.key), marks.get(f.key, ("", ""))[0], view))
        return out

    def card(self, rec: dict) -> Card:
        kind = self.v.kinds.get(rec.get("kind")) if isinstance(rec.get("kind"), str) else None
        marks: dict[str, tuple[str, str]] = {}  # "field" or "face.field" -> (mark, why)
        notes = []
        for mark in ("provisional", "uncertain"):
            for k, why in (rec.get(mark) or {}).items():
                marks[k] = (mark, why)
                notes.append((mark, self.mark_label(k, kind), why))
        fspecs = kind.fields if kind is not None else ()
        fields = self.fields_of(rec, fspecs, marks)
        shown = self.engine_fields_of(rec, fspecs, marks)
        effects = self.effects(rec.get("texts") or {}, kind.slots if kind is not None else (), marks)
        faces = []
        for fname, face in (rec.get("faces") or {}).items():
            fspec = kind.face(fname) if kind is not None else None
            fmarks = {k[len(fname) + 1:]: v for k, v in marks.items() if k.startswith(fname + ".")}
            ffields = {k: v for k, v in face.items() if k not in ("texts", "slots")}
            face_fspecs = fspec.fields if fspec is not None else ()
            faces.append(Face(self.face_name(fname, fspec),
                              self.fields_of(ffields, face_fspecs, fmarks),
                              self.effects(face.get("texts") or {}, fspec.slots if fspec is not None else (), fmarks),
                              self.engine_fields_of(ffields, face_fspecs, fmarks), key=fname))
        src = rec.get("source") or ""
        return Card(id=rec["id"], name=rec.get("name", rec["id"]),
                    kind=(kind.declared if kind is not None else None) or title(rec.get("kind", "")),
                    count=rec.get("count"), source=src, fields=fields, effects=effects, faces=faces,
                    engine_fields=shown, notes=notes, note=rec.get("note"), printed=rec.get("text"), at=rec.get("at", ""),
                    kind_key=str(rec.get("kind", "")),
                    art=rec.get("art") if isinstance(rec.get("art"), str) else None)

    @staticmethod
    def face_name(key: str, face) -> str:
        name = (face.declared if face is not None else None) or title(key)
        return name if name.lower().endswith("side") else f"{name} side"

    def mark_label(self, key: str, kind) -> str:
        """ "hacked.production" → "Hacked side: Production" (names from the card kind's model)."""
        face, _, rest = key.partition(".")
        if rest:
            fspec = kind.face(face) if kind is not None else None
            return f"{self.face_name(face, fspec)}: {self.part_name(rest, fspec)}"
        return self.part_name(key, kind)

    @staticmethod
    def part_name(key: str, spec) -> str:
        """A slot's or field's printed name on a kind or face (KindSpec / FaceSpec), else its key titled."""
        slot = spec.slot(key) if spec is not None else None
        if slot is not None and slot.declared:
            return slot.declared
        f = spec.field(key) if spec is not None else None
        if f is not None and f.title:
            return f.title
        return title(key)

    def effects(self, texts: dict, slots: tuple, marks: dict | None = None) -> list[Effect]:
        # a bare condition (a requirement) first: it decides whether anything else happens
        declared = {sl.key: sl for sl in slots}
        order = [sl.key for sl in slots if sl.key in texts and sl.kind == "condition"]
        order += [sl.key for sl in slots if sl.key in texts and sl.key not in order] + [s for s in texts if s not in declared]
        out = []
        for s in order:
            sl = declared.get(s)
            kind = sl.kind if sl is not None else "effect"
            mark, why = (marks or {}).get(s, ("", ""))
            out.append(Effect((sl.declared if sl is not None else None) or title(s), self.english(texts[s], kind),
                              kind, mark, why, key=s))
        return out

    def used_types(self) -> list:
        """The engine's field types that some card kind (or face) of the game has, in the engine's order."""
        named = {f.type for kind in self.v.kinds.values() for spec in (kind, *kind.faces) for f in spec.fields
                 if isinstance(f.type, str)}
        return [ft for name, ft in self.engine_types.items() if name in named]

    def legends(self, used: list) -> list[Legend]:
        out = []
        for ft in used:
            view = ft.legend(self.d)
            if view is not None:
                out.append(Legend(self.v.engine, ft.name, ft.legend_title(self.d), view))
        return out

    # tables --------------------------------------------------------------------------------------
    def tables(self, tables: dict, skip: set[str] = frozenset()) -> list[Table]:
        out = []
        for key, value in tables.items():
            if key in skip:
                continue
            out += table_views(key, value)
        return out


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "—"
    if isinstance(v, list):
        return ", ".join(_cell(x) for x in v)
    if isinstance(v, dict):
        return "; ".join(f"{title(str(k))}: {_cell(x)}" for k, x in v.items())
    return str(v)


_NOTE_KEYS = ("note", "provisional", "uncertain")


def _is_record_map(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and all(isinstance(v, dict) for v in value.values())


def _is_record_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _complex(value: Any) -> bool:
    return _is_record_map(value) or _is_record_list(value) or (
        isinstance(value, dict) and any(isinstance(v, (dict, list)) for v in value.values()))


def table_view(key: str, value: Any) -> Table:
    """The first (main) table of :func:`table_views`."""
    return table_views(key, value)[0]


def table_views(key: str, value: Any, name: str | None = None) -> list[Table]:
    """Draw a rules table from its shape: a matrix (records keyed by name), a record list, a
    key/value list, a list or one value. Nested records become tables of their own, and ``note``,
    ``provisional`` and ``uncertain`` entries become the table's notes (marked † and ?)."""
    name = name or title(str(key))
    notes: list[str] = []
    marks: dict[str, str] = {}  # entry -> "†" / "?"
    if isinstance(value, dict) and not _is_record_map(value):
        for k in _NOTE_KEYS:
            sym = {"provisional": "†", "uncertain": "?"}.get(k, "")
            if isinstance(value.get(k), str):
                notes.append({"provisional": "† Provisional: ", "uncertain": "? Uncertain: "}.get(k, "") + value[k])
            elif isinstance(value.get(k), dict) and sym:
                for entry, why in value[k].items():
                    marks[str(entry)] = sym
                    notes.append(f"{sym} {title(str(entry))}: {why}")
        if isinstance(value.get("stand_in"), dict) and isinstance(value["stand_in"].get("note"), str):
            # a rule of this project's that the rulebooks do not give: said first, in every output
            notes.insert(0, "Stand-in (this project's rule, not the published game's): " + value["stand_in"]["note"])
            name += " (stand-in)"
        if isinstance(value.get("title"), str):
            name = value["title"]
        value = {k: v for k, v in value.items() if k not in _NOTE_KEYS and k not in ("title", "stand_in")}
    note = " ".join(notes) or None
    if _is_record_map(value):
        cols: list[str] = []
        for v in value.values():
            for c in v:
                if c not in cols:
                    cols.append(c)
        rows = [[title(str(k))] + [_cell(v.get(c)) if c in v else "" for c in cols] for k, v in value.items()]
        return [Table(name, [""] + [_colname(c) for c in cols], rows, note)]
    if isinstance(value, dict) and value and all(isinstance(v, list) and v and not any(isinstance(x, (dict, list))
                                                                            for x in v) for v in value.values()) \
            and len({len(v) for v in value.values()}) == 1 and len(next(iter(value.values()))) > 1:
        # rows of equal-length lists ("deploy: {recruit: [1, 2, 3, 4]}"): columns numbered 1..N
        n = len(next(iter(value.values())))
        rows = [[title(str(k))] + [_cell(x) for x in v] for k, v in value.items()]
        return [Table(name, [""] + [str(i) for i in range(1, n + 1)], rows, note)]
    if _is_record_list(value):
        cols = []
        for v in value:
            for c in v:
                if c not in cols:
                    cols.append(c)
        return [Table(name, [_colname(c) for c in cols], [[_cell(v.get(c)) for c in cols] for v in value], note)]
    if isinstance(value, dict):
        simple = {k: v for k, v in value.items() if not _complex(v)}
        nested = [(k, v) for k, v in value.items() if _complex(v)]
        out = []
        if simple or not nested:
            out.append(Table(name, ["", ""], [[title(str(k)) + (" " + marks[str(k)] if str(k) in marks else ""), _cell(v)]
                                              for k, v in simple.items()], note))
        elif note:
            out.append(Table(name, [], [], note))
        for k, v in nested:
            out += table_views(k, v, f"{name}: {title(str(k))}")
        return out
    if isinstance(value, list):
        return [Table(name, [""], [[_cell(v)] for v in value], note)]
    return [Table(name, [""], [[_cell(value)]], note)]


def _colname(c: Any) -> str:
    if isinstance(c, int):
        return str(c)
    return title(str(c))


# --- clauses and where they are proved ---------------------------------------------------------------


def clauses_file() -> Path:
    return resources.RESOURCE_ROOT / "docs" / "clauses.yaml"


_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml(text: str) -> Any:
    return yaml.load(text, Loader=_SAFE_LOADER)  # noqa: S506 - a safe loader


def load_clauses(path: Path | None = None) -> tuple[list[dict], dict[str, str]]:
    """The clause list (group, id, rule, open) and each group's rulebook file."""
    path = path or clauses_file()
    if not path.is_file():
        return [], {}
    return _load_clauses(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=4)
def _load_clauses(path: str, _mtime: int) -> tuple[list[dict], dict[str, str]]:
    text = Path(path).read_text(encoding="utf-8")
    data = _yaml(text) or {}
    books = {}
    for line in text.splitlines():
        m = re.match(r"^([a-z_]+):\s*#\s*([0-9]{3}_[0-9a-f]+)", line)
        if m:
            books[m.group(1)] = m.group(2)
    out = []
    for group, items in data.items():
        for c in items or []:
            out.append({"group": group, "id": str(c["id"]), "rule": c.get("rule", ""), "open": c.get("open")})
    return out, books


def project_root() -> Path | None:
    """The source checkout (tests live there), or None for an installed wheel."""
    return resources.RESOURCE_ROOT if resources.is_checkout() else None


def rule_tests(tests_dir: Path) -> dict[str, list[str]]:
    """Clause id -> tests marked ``@pytest.mark.rule("ID")``, found by reading the test sources."""
    out: dict[str, list[str]] = {}
    if not tests_dir.is_dir():
        return out
    for path in sorted(tests_dir.rglob("*.py")):
        try:
            tree = pyast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError, OSError):
            continue
        rel = path.relative_to(tests_dir.parent).as_posix()
        module_ids = []
        for node in tree.body:
            if isinstance(node, pyast.Assign) and any(isinstance(t, pyast.Name) and t.id == "pytestmark"
                                                      for t in node.targets):
                module_ids += _rule_ids(node.value)

        def visit(body, prefix: str, inherited: list[str]):
            for node in body:
                if isinstance(node, pyast.ClassDef):
                    ids = inherited + [i for d in node.decorator_list for i in _rule_ids(d)]
                    visit(node.body, f"{prefix}{node.name}::", ids)
                elif isinstance(node, (pyast.FunctionDef, pyast.AsyncFunctionDef)) and node.name.startswith("test"):
                    ids = inherited + [i for d in node.decorator_list for i in _rule_ids(d)]
                    for i in dict.fromkeys(ids):
                        out.setdefault(i, []).append(f"{rel}::{prefix}{node.name}")

        visit(tree.body, "", module_ids)
    return out


def _rule_ids(node) -> list[str]:
    ids = []
    for n in pyast.walk(node):
        if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute) and n.func.attr == "rule":
            for a in n.args:
                if isinstance(a, pyast.Constant) and isinstance(a.value, str):
                    ids.append(a.value)
    return ids


def implementations(root: Path, data_root: Path, ids: set[str]) -> dict[str, list[str]]:
    """Clause id -> code and data files that name it (comments, notes, decisions in code)."""
    out: dict[str, list[str]] = {}
    places = [(root / "runtime", "*.py"), (root / "compiler", "*.py"), (data_root, "*.yaml")]
    seen = set()
    for base, pattern in places:
        if not base.is_dir():
            continue
        for path in sorted(base.rglob(pattern)):
            if "_bundled" in path.parts or "scenarios" in path.parts or path in seen or "schema" in path.parts:
                continue
            seen.add(path)
            if base == data_root:  # data a stranger may have written: through the loader's gate
                lines = (_data_text(path) or "").splitlines()
            else:
                try:
                    lines = path.read_text(encoding="utf-8").splitlines()
                except (OSError, UnicodeDecodeError):
                    continue
            rel = _rel(path, root, data_root)
            for n, line in enumerate(lines, 1):
                for m in _CLAUSE_ID.finditer(line):
                    if m.group(1) in ids:
                        where = f"{rel}:{n}"
                        lst = out.setdefault(m.group(1), [])
                        if not any(w.startswith(rel + ":") for w in lst):
                            lst.append(where)
    return out


def _data_text(path: Path) -> str | None:
    """A data file's text through the loader's one gate (a regular file inside its game folder,
    within the size limit), or None: a FIFO never blocks here, a link out of the folder is never read."""
    from .diagnostics import Diagnostics
    from .loader import read_regular

    raw = read_regular(path, str(path), Diagnostics())
    try:
        return raw.decode("utf-8-sig") if raw is not None else None
    except UnicodeDecodeError:
        return None


def scenario_rules(data_root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    if not data_root.is_dir():
        return out
    for path in sorted(data_root.glob("*/scenarios/*.yaml")):
        try:
            data = _yaml(_data_text(path) or "") or {}
        except (yaml.YAMLError, OSError):
            continue
        for i in data.get("rules") or [] if isinstance(data, dict) else []:
            out.setdefault(str(i), []).append(f"{path.parent.parent.name}/scenarios/{path.name}")
    return out


def _rel(path: Path, root: Path, data_root: Path) -> str:
    for base, prefix in ((root, ""), (data_root.parent, "")):
        try:
            return prefix + path.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            continue
    return path.name


def clause_views(data_root: Path, tests_dir: Path | None = None, root: Path | None = None) -> tuple[list[Clause], bool]:
    """Every clause with where it is implemented and which tests prove it.

    Returns the clauses and whether tests could be looked for (an installed wheel has no tests/).
    """
    raw, _ = load_clauses()
    root = root if root is not None else project_root()
    if tests_dir is None and root is not None:
        tests_dir = root / "tests"
    known = tests_dir is not None and tests_dir.is_dir()
    tests = rule_tests(tests_dir) if known else {}
    ids = {c["id"] for c in raw}
    code_root = Path(__file__).resolve().parent.parent  # holds compiler/ and runtime/, checkout or wheel
    impl = implementations(code_root, data_root, ids)
    scen = scenario_rules(data_root)
    return [Clause(c["id"], c["group"], c["rule"], c["open"], impl.get(c["id"], []), tests.get(c["id"], []),
                   scen.get(c["id"], [])) for c in raw], known


# --- the game view ----------------------------------------------------------------------------------


def game_view(result, game: str, verbs: dict | None = None, coords: bool = False) -> Game:
    from runtime.verbs import verbs_for

    gb = result.games[game]
    vocab = gb.vocab
    b = _GameViewBuilder(gb, verbs if verbs is not None else verbs_for(vocab.engine))
    d = vocab.source
    used = b.used_types()  # the engine's field types the game's cards have
    modules = []
    marked_modules = []  # (MODULE table, card records) for the stand-in list
    for stem in gb.modules:
        rel = f"{game}/{identifier(stem)}.py"
        if rel not in result.outputs:
            continue
        ns = _exec_generated(result.outputs[rel], f"_cardwright_ref_{game}_{identifier(stem)}")
        meta = ns.get("MODULE") or {}
        cards = [b.card(rec) for rec in (ns.get("CARDS") or {}).values()]
        marked_modules.append((meta, list((ns.get("CARDS") or {}).values())))
        doc_rules = (gb.modules[stem].data.get("rules") or {}) if gb.modules.get(stem) is not None else {}
        rules = [Effect(title(k), b.english(t, "effect", has_card=False)) for k, t in doc_rules.items()
                 if k in (ns.get("RULES") or {})]
        map_svg, map_note = render_map(ns.get("MAP"), vocab, coords)
        modules.append(Module(id=meta.get("id", stem), name=meta.get("name") or title(stem), source=meta.get("source"),
                              note=meta.get("note"), setup=list(meta.get("setup") or []),
                              tables=b.tables(ns.get("TABLES") or {}), map_svg=map_svg, map_note=map_note,
                              cards=cards, rules=rules, file=meta.get("file", "")))
    # the game's vocabulary as its model holds it (runtime/model.py): names as declared, else the key
    m = vocab
    phases = [{"name": ph.declared or title(ph.key), "note": ph.note,
               "skip": ", ".join(str(r) for r in sorted(ph.skip_in_round))} for ph in m.phases]
    icons = [{"key": key, "marker": b.icon_marker(key), "name": i.printed.declared or title(key),
              "good": b.good_name(i.good) if i.good else "no effect", "uncertain": i.uncertain, "note": i.note}
             for key, i in m.icons.items()]
    goods = [{"name": g.printed.declared or title(k), "kind": g.kind, "note": g.note} for k, g in m.goods.items()]
    zones = [{"name": z.printed.declared or title(k), "per": "player" if z.per_player else "game", "hidden": z.hidden,
              "note": z.note} for k, z in m.zones.items()]

    things = [{"name": title(k), "zones": ", ".join(_zone_title(m, z) for z in t.zones),
               "kinds": ", ".join(_declared(m.kinds.get(kk)) or title(kk) for kk in t.listed_kinds),
               "note": t.note} for k, t in m.things.items()]
    sources = [{"name": title(k), "zone": _zone_title(m, s.zone), "end": "bottom" if s.bottom else "top",
                "face": title(s.face) if s.face else None, "note": s.note}
               for k, s in m.card_sources.items()]
    kinds = [{"name": kind.declared or title(key), "note": kind.note,
              "slots": ", ".join(sl.declared or title(sl.key) for sl in kind.slots),
              "fields": ", ".join(f.title or title(f.key) for f in kind.fields),
              "faces": ", ".join(f.declared or title(f.key) for f in kind.faces)}
             for key, kind in m.kinds.items()]
    return Game(id=game, name=vocab.name, source=m.provenance, note=m.note, phases=phases, icons=icons,
                goods=goods, zones=zones, things=things, card_sources=sources, legends=b.legends(used),
                card_kinds=kinds,
                # a table a field type's legend shows is not listed again as a plain table
                tables=b.tables(dict(m.tables), skip={t for ft in used for t in ft.tables}),
                modules=modules, css=[ft.css for ft in used if ft.css] + _font_css(gb),
                **_flow_views(d, b, marked_modules), **_option_views(m))


def choose_options(view: Game, vocab: dict, given: dict) -> Game:
    """The reference of the game set up with ``given``: the chosen options are said (``chosen``), and
    a module an option leaves out — a value of a several-values option (``many``, e.g. ``packs``) that
    names a module of the game and is not chosen — is not printed (its cards, tables and rules)."""
    from runtime.options import describe, resolve

    specs = dict(model_of(vocab).options)
    chosen = resolve(specs, given)
    left_out = {v for k, spec in specs.items() if spec.many for v in spec.values if v not in chosen[k]}
    view.modules = [m for m in view.modules if m.id not in left_out]
    view.chosen = describe(specs, chosen)
    return view


def _option_views(m) -> dict:
    """game.yaml ``seats`` and ``options`` as the game's model holds them, in words."""
    span = m.seats
    views = []
    for spec in m.options.values():
        values = "on or off" if spec.flag else ", ".join(spec.values)
        views.append({"name": spec.name, "key": spec.key,
                      "choices": values + (" (any of them)" if spec.many else ""),
                      "default": spec.describe(list(spec.default) if spec.many else spec.default),
                      "rules": ", ".join(spec.rules), "note": spec.note})
    note = m.seats_note
    text = None if span is None else (f"{span[0]} players" if span[0] == span[1] else f"{span[0]} to {span[1]} players")
    return {"seats": f"{text}. {note}" if text and note else text, "options": views}


def _declared(spec) -> str | None:
    return spec.declared if spec is not None else None


def _zone_title(m, key: str) -> str:
    """A zone as the reference prints it: the name game.yaml declares, else its key in title case."""
    z = m.zones.get(key)
    return (z.printed.declared if z is not None else None) or title(key)


def _flow_views(d: dict, b: "_GameViewBuilder", marked_modules: list) -> dict:
    """The game flow and the stand-in marks (issue 13; compiler/flowref.py builds them)."""
    from .flowref import flow_view, stand_in_view

    names = {rec.get("id"): rec.get("name") for _, recs in marked_modules for rec in recs}
    # the flow's texts belong to no card ("this card" is not theirs): compiled with has_card False
    return {"flow": flow_view(d, lambda text, kind: b.english(text, kind, False), lambda c: str(names.get(c) or title(c)),
                              lambda z: _zone_title(b.v, z)),
            "flow_title": "How the game is played" if isinstance(d.get("flow"), dict) else "How the bots play",
            "stand_ins": stand_in_view(d, marked_modules)}


def render_map(map_data: Any, vocab: GameModel, coords: bool = False) -> tuple[str | None, str | None]:
    """The module's hex map as SVG, drawn by the game's engine (its ``render_map_svg`` hook)."""
    if not map_data:
        return None, None
    from runtime.engine import ENGINES

    engine = ENGINES.get(vocab.engine, ENGINES["core"])
    try:
        svg = engine.render_map_svg(map_data, vocab, coords=coords)
    except Exception as exc:  # noqa: BLE001 - a drawing problem must not stop the reference
        return None, f"The map could not be drawn: {exc}"
    if svg is None:
        return None, f"The {vocab.engine} engine draws no map; the map is listed in the data only."
    return svg, None


def game_rulebooks(result, game: str) -> set[str]:
    """The rulebook files a game's content cites (game file, modules, cards)."""
    gb = result.games[game]
    texts = [gb.vocab.provenance or ""]
    for doc in gb.modules.values():
        texts.append(str(doc.data.get("source") or ""))
        texts += [str(c.get("source") or "") for c in doc.data.get("cards") or [] if isinstance(c, dict)]
    return {m.group(1) for t in texts for m in _RULEBOOK.finditer(t)}


# --- rendering --------------------------------------------------------------------------------------


@lru_cache(maxsize=2)
def _env(fmt: str):
    """One template environment per output kind, built once (templates compile on first use)."""
    import jinja2
    from markupsafe import Markup

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=(fmt == "html"),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["marked_html"] = _marked_html
    env.globals["csp_meta"] = Markup(CSP_META)
    env.filters["marked_md"] = _marked_md
    # every data text in Markdown goes through escape.md (a table cell too: it escapes pipes and breaks)
    env.filters["md"] = escape.md
    env.filters["mdcell"] = escape.md
    env.filters["mdurl"] = escape.md_url
    env.filters["join_tests"] = lambda pair: f"{pair[0]}: {', '.join(pair[1])}"
    env.filters["isnum"] = lambda s: bool(re.fullmatch(r"[-+]?[0-9]+(\.[0-9]+)?|[-—]|yes|no", str(s).strip()))
    env.filters["css_string"] = lambda s: Markup(escape.css_string(s))
    env.filters["anchor"] = lambda s: re.sub(r"[^a-z0-9]+", "-", str(s).lower()).strip("-")
    # a value or legend of an engine's field type, drawn by its FieldType (escaped there, runtime/escape.py)
    env.filters["engine_html"] = lambda x: Markup(_engine_piece(x, "html"))
    env.filters["engine_md"] = lambda x: _engine_piece(x, "md")
    env.globals["icons_of"] = {}
    return env


def _engine_piece(x, fmt: str) -> str:
    """A Shown value or a Legend in ``fmt`` ("html" | "md"), from the engine field type that made it."""
    ft = field_type(x.engine, x.type)
    if isinstance(x, Legend):
        return ft.legend_html(x) if fmt == "html" else ft.legend_md(x)
    return ft.html(x) if fmt == "html" else ft.md(x)


def _marked_html(marked: str, icons: dict | None = None):
    from markupsafe import Markup

    out = []
    for kind, value in split_icons(str(marked)):
        out.append(str(escape.html(value)) if kind == "text" else icon_html(value, icons))
    return Markup("".join(out))


def icon_html(key: str, icons: dict | None) -> str:
    """An icon badge: its letter in a ring of its colour (and shape), then its name — reads in black
    and white, because the letter and the name carry it; the colour only adds."""
    spec = (icons or {}).get(key) or {}
    name = spec.get("name") or title(key)
    if spec.get("image_uri"):  # the game's own picture (compiler/printassets.py), embedded
        return (f'<span class="icon icon-image"><img src="{escape.html(spec["image_uri"])}" alt="">'
                f'{escape.html(name)}</span>')
    letter = spec.get("letter") or name[:1].upper()
    colour = escape.css_colour(spec.get("colour"))
    style = f' style="--icon: {colour}; --icon-ink: {ink_for(colour)}"' if colour else ""
    shape = spec.get("shape") if spec.get("shape") in ICON_SHAPES else "circle"
    return (f'<span class="icon icon-{shape}"{style}><b>{escape.html(letter)}</b>'
            f'{escape.html(name)}</span>')


def ink_for(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (a #rgb/#rrggbb colour; else black)."""
    h = colour.lstrip("#")
    if not re.fullmatch(r"[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}", h):
        return "#000"
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return "#000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "#fff"


# the shapes an icon may declare in game.yaml (`shape:`), drawn by CSS in the reference and the cards
ICON_SHAPES = ("circle", "square", "diamond", "hexagon", "triangle")


def _marked_md(marked: str, icons: dict | None = None) -> str:
    out = []
    for kind, value in split_icons(str(marked)):
        if kind == "text":
            # escape.md drops a value's outer whitespace; between icon badges it is a word break
            lead = " " if value[:1].isspace() else ""
            trail = " " if value[-1:].isspace() and value.strip() else ""
            out.append(lead + escape.md(value) + trail)
        else:
            spec = (icons or {}).get(value) or {}
            name = spec.get("name") or title(value)
            letter = spec.get("letter") or name[:1].upper()
            # the brackets are the template's: data cannot write a link definition (escape.md escapes "[")
            out.append(f"{escape.md(name)} [{escape.md(letter)}]")
    return "".join(out).strip()


AUDIENCES = ("players", "designers")

# what only a designer needs: a file path (data/x.yaml:12, runtime/games/x.py), a rulebook's file name
_PATH = r"(?:[\w.-]+/)+[\w.-]+\.(?:py|yaml|yml|md|txt|j2)(?::[0-9]+)?"
_PAREN_PATH = re.compile(r"\s*\((?:[^()]*?\b)?" + _PATH + r"[^()]*\)")
_BARE_PATH = re.compile(_PATH)
_RULEBOOK_FILE = re.compile(r"\brulebook [0-9]{3}_[0-9a-f]{6,}(?:\.txt)?")


def _for_players(text: str) -> str:
    text = _PAREN_PATH.sub("", text)
    text = _BARE_PATH.sub("", text)
    return _RULEBOOK_FILE.sub("the rulebook", text)


def _font_css(gb) -> list:
    """The game's own fonts (game.yaml ``fonts``, files under fonts/) for the reference, embedded; as
    Markup, because autoescaping would turn the stylesheet's quotes into entities a <style> does not read."""
    from markupsafe import Markup

    from .printassets import REFERENCE_SELECTORS, font_css

    fonts = gb.vocab.source.get("fonts")
    css = font_css(gb.game_dir, fonts if isinstance(fonts, dict) else None, REFERENCE_SELECTORS)
    return [Markup(css)] if css else []


def players_view(view: Game) -> Game:
    """The playtesters' copy of a game view: no file paths, no test names, no clause table (the
    designers' reference keeps all of them). Every text is walked, so a note naming a file loses it."""
    import copy
    from dataclasses import fields as dc_fields
    from dataclasses import is_dataclass

    def walk(v):
        if isinstance(v, str):
            return _for_players(v)
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, tuple):
            return tuple(walk(x) for x in v)
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if is_dataclass(v) and not isinstance(v, type):
            for f in dc_fields(v):
                if f.name in ("id", "kind_key", "art", "map_svg", "svg", "marked", "key", "source", "css"):
                    continue  # ids, pictures, stylesheets and icon-marked English are not prose
                setattr(v, f.name, walk(getattr(v, f.name)))
            return v
        return v

    out = walk(copy.deepcopy(view))
    out.clauses = []
    for mod in out.modules:
        mod.file = ""
        mod.source = None
        for c in mod.cards:
            c.at = ""
            c.source = "example" if c.source == "example" else ""
    return out


def turn_summary(view: Game) -> list[Effect]:
    """The rule procedures of every module (turn steps written in the effect language), in order."""
    return [e for mod in view.modules for e in mod.rules]


def render_game(view: Game, fmt: str, icons: dict, with_clauses: bool = True, paper: str | None = None,
                audience: str = "designers") -> str:
    env = _env("html" if fmt in ("html", "pdf") else "md")
    name = "game.html.j2" if fmt in ("html", "pdf") else "game.md.j2"
    players = audience == "players"
    if players:
        view = players_view(view)
    return env.get_template(name).render(g=view, icons=icons, with_clauses=with_clauses and not players,
                                         paper=PAPERS.get(paper or "", None), players=players,
                                         turn=turn_summary(view), field_css=view.css)


def render_index(games: list[Game], clauses: list[Clause], coverage_known: bool, fmt: str,
                 paper: str | None = None, audience: str = "designers") -> str:
    env = _env("html" if fmt in ("html", "pdf") else "md")
    name = "index.html.j2" if fmt in ("html", "pdf") else "index.md.j2"
    # one stylesheet for the index: the rules of every field type the listed games use, once each
    field_css = list(dict.fromkeys(css for g in games for css in g.css))
    return env.get_template(name).render(games=games, clauses=clauses, coverage_known=coverage_known,
                                         paper=PAPERS.get(paper or "", None), players=audience == "players",
                                         field_css=field_css)


# A clause summary that quotes a value of the data names it, e.g. "costs ${data:tables.terrain.mountain.
# track_cost}", and the reference prints the value the data has now — never a copy that goes stale.
_DATA_REF = re.compile(r"\{data:\s*([A-Za-z0-9_.\- ]+?)\s*\}")


def data_value(gb, path: str) -> Any:
    """The value at a dotted ``path`` in the game file, else in one of its modules (``None`` if absent)."""
    for doc in [gb.vocab.source] + [m.data for m in gb.modules.values()]:
        cur: Any = doc
        for part in path.split("."):
            if isinstance(cur, dict) and part in cur:
                cur = cur[part]
            elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
                cur = cur[int(part)]
            else:
                cur = None
                break
        if cur is not None and not isinstance(cur, (dict, list)):
            return cur
    return None


def fill_clause(clause: Clause, gb) -> Clause:
    """The clause with every ``{data:path}`` replaced by the game's value (a missing one says so)."""
    def one(m):
        v = data_value(gb, m.group(1)) if gb is not None else None
        return _cell(v) if v is not None else f"[{m.group(1)}: not in the data]"

    if "{data:" not in clause.rule:
        return clause
    from dataclasses import replace

    return replace(clause, rule=_DATA_REF.sub(one, clause.rule))


def build_views(result, data_root: Path, only: set[str] | None = None,
                coords: bool = False) -> tuple[list[Game], list[Clause], bool]:
    clauses, known = clause_views(Path(data_root))
    _, books = load_clauses()
    games = []
    group_game: dict[str, Any] = {}  # clause group -> the (first) game citing its rulebook
    for game in sorted(result.games):
        cited = game_rulebooks(result, game)
        for g, book in books.items():
            if book in cited:
                group_game.setdefault(g, result.games[game])
        if only and game not in only:
            continue
        view = game_view(result, game, coords=coords)
        groups = {g for g, book in books.items() if book in cited}
        view.clauses = [fill_clause(c, result.games[game]) for c in clauses if c.group in groups]
        view.coverage_known = known
        games.append(view)
    return games, [fill_clause(c, group_game.get(c.group)) for c in clauses], known


def render_all(result, data_root, out_dir, formats=("html",), only: set[str] | None = None,
               paper: str = "a4", audience: str = "designers", coords: bool = False,
               options: dict | None = None) -> list[str]:
    """Write the reference of every game (and an index with every rule clause); return the paths.
    ``options`` (game.yaml's, as given: ``--pack``, ``--option``) make it the reference of a game set
    up so (``choose_options``); a wrong one raises OptionError (a ValueError) before anything is written."""
    games, clauses, known = build_views(result, Path(data_root), only, coords=coords)
    if options:
        games = [choose_options(g, result.games[g.id].vocab.source, options) for g in games]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    if audience not in AUDIENCES:
        raise ValueError(f"unknown audience {audience!r} (use one of {', '.join(AUDIENCES)})")
    for fmt in formats:
        if fmt not in FORMATS:
            raise ValueError(f"unknown reference format {fmt!r} (use one of {', '.join(FORMATS)})")
    for fmt in formats:
        if fmt == "pdf":
            continue
        ext = "html" if fmt == "html" else "md"
        for g in games:
            icons = g_icons(result, g.id)
            text = render_game(g, fmt, icons, audience=audience)
            if fmt == "md":
                for m in g.modules:
                    if m.map_svg:
                        svg = out_dir / f"{g.id}-{m.id}-map.svg"
                        _write(svg, m.map_svg)
                        written.append(str(svg))
            path = out_dir / f"{g.id}.{ext}"
            _write(path, text)
            written.append(str(path))
        path = out_dir / f"index.{ext}"
        _write(path, render_index(games, clauses, known, fmt, audience=audience))
        written.append(str(path))
    if "pdf" in formats:
        with tempfile.TemporaryDirectory(prefix="cardwright-pdf-") as tmp:
            jobs = []
            for g in games:
                src = Path(tmp) / f"{g.id}.html"
                _write(src, render_game(g, "pdf", g_icons(result, g.id), paper=paper, audience=audience))
                jobs.append((src, out_dir / f"{g.id}.pdf"))
            src = Path(tmp) / "index.html"
            _write(src, render_index(games, clauses, known, "pdf", paper=paper, audience=audience))
            jobs.append((src, out_dir / "index.pdf"))
            # one browser process per document, a few at a time (each is mostly start-up time)
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=max(1, min(3, os.cpu_count() or 1))) as pool:
                for _ in pool.map(lambda job: print_pdf(*job), jobs):
                    pass
            written += [str(pdf) for _, pdf in jobs]
    return written


def g_icons(result, game: str) -> dict:
    """The game's icons as the printed matter draws them: with ``image_uri`` where an icon has an image."""
    gb = result.games[game]
    icons = {}
    for k, i in gb.vocab.icons.items():
        look = {"name": i.printed.declared, "letter": i.letter, "colour": i.colour, "shape": i.shape}
        icons[k] = {key: v for key, v in look.items() if v is not None}
        if k in gb.icon_images:
            icons[k]["image_uri"] = gb.icon_images[k]
    return icons


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, path)


# --- PDF through a headless Chromium ------------------------------------------------------------------


class PdfError(RuntimeError):
    pass


# The policy every page cardwright writes as HTML or prints carries (docs/security.md): no script, no
# network, no frames or objects, nothing read from a file — images and fonts only as data: URIs
# (art is embedded from inside the game folder), styles only inline. A card template is data a
# stranger may have written, and it can still write any HTML; this is what keeps that HTML inert.
CSP = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
       "base-uri 'none'; form-action 'none'")
CSP_META = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'

# What the browser is started with whatever the page says (belt and braces with the CSP): every host
# unresolvable and every request sent to a dead proxy (loopback included), no background traffic of
# its own. JavaScript is off through the policy print_pdf writes into every page it prints, not
# through --blink-settings=scriptEnabled=false: with that flag headless Chromium (156) exits 0 and
# writes no PDF at all.
CONFINED_FLAGS = ("--proxy-server=http://127.0.0.1:9",
                  "--proxy-bypass-list=<-loopback>", "--host-resolver-rules=MAP * ~NOTFOUND",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-extensions", "--disable-default-apps", "--disable-domain-reliability",
                  "--no-pings", "--disable-client-side-phishing-detection", "--mute-audio")

_HEAD = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


def with_policy(html: str) -> str:
    """``html`` with the CSP as the first element of its head (added even when a template already
    has it: a second copy only restricts, and the printer never trusts a page to carry its own)."""
    m = _HEAD.search(html)
    if m is None:
        return CSP_META + "\n" + html
    return html[:m.end()] + "\n" + CSP_META + html[m.end():]


_SANDBOX: dict[str, bool] = {}  # browser -> whether its sandbox works here (asked once per process)


def _sandbox_unavailable(browser: str) -> bool:
    """True when Chromium must run with --no-sandbox: as root (it refuses otherwise) or where the
    kernel gives it no usable sandbox (many containers). Said once, as a warning."""
    if browser in _SANDBOX:
        return not _SANDBOX[browser]
    why = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        why = "cardwright runs as root"
    else:
        try:
            probe = subprocess.run([browser, "--headless", "--disable-gpu", "--no-first-run", *CONFINED_FLAGS,
                                    "--dump-dom", "about:blank"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=60, check=False)
            if probe.returncode != 0 and b"sandbox" in probe.stderr.lower():
                why = "the system gives it no usable sandbox (a container?)"
        except (OSError, subprocess.TimeoutExpired):
            pass  # the real print reports the browser's failure
    _SANDBOX[browser] = why is None
    if why:
        print(f"warning: the printing browser runs without its sandbox because {why}; printed pages are still "
              f"confined by their content policy (no script, no network)", file=sys.stderr)
    return why is not None


def find_browser() -> str | None:
    """A headless Chromium: $CARDWRIGHT_CHROMIUM, else chromium / chromium-browser / google-chrome."""
    env = os.environ.get("CARDWRIGHT_CHROMIUM")
    if env:
        return env if shutil.which(env) or Path(env).is_file() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


def browser_command(browser: str, profile: Path) -> list[str]:
    """The one way cardwright starts headless Chromium on a page that holds data (the printer, the card
    text measurer): no network (CONFINED_FLAGS), its sandbox unless it cannot have one, a private
    profile. What the run does (print a PDF, dump the DOM) and the page follow."""
    no_sandbox = ["--no-sandbox"] if _sandbox_unavailable(browser) else []
    return [browser, "--headless", *no_sandbox, "--disable-gpu", "--no-first-run", *CONFINED_FLAGS,
            f"--user-data-dir={profile}"]


def print_pdf(html_file: Path, pdf: Path, browser: str | None = None, timeout: float = 120) -> None:
    browser = browser or find_browser()
    if browser is None:
        raise PdfError("PDF output needs a headless Chromium (Debian/Ubuntu: apt-get install chromium); "
                       "set CARDWRIGHT_CHROMIUM to its path if it is installed elsewhere")
    pdf.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardwright-chromium-") as profile:
        # the page printed is a private copy that carries the policy, in a folder holding nothing else
        page = Path(profile) / "page" / html_file.name
        page.parent.mkdir()
        page.write_text(with_policy(html_file.read_text(encoding="utf-8")), encoding="utf-8")
        cmd = [*browser_command(browser, Path(profile) / "profile"), "--no-pdf-header-footer",
               f"--print-to-pdf={pdf.resolve()}", page.as_uri()]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PdfError(f"the browser could not print {html_file.name}: {exc}") from exc
    if proc.returncode != 0 or not pdf.is_file() or pdf.stat().st_size == 0:
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise PdfError(f"the browser could not print {html_file.name} (exit {proc.returncode}): {' / '.join(tail)}")
