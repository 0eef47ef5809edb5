"""Card diff: what changed between two versions of a data folder, for errata and changelogs.

Cards are matched by id within each game. Fields are compared as values; effect slots are compared
by their **typed IR** (compiler/ir.py), each side checked against its own vocabulary: re-wrapping,
re-spacing, re-casing or re-wording an effect without changing what it does ("a card" for "1 card",
an alias for a Good's key) is no change, while any change of meaning is. A text that does not check
on a side is compared by its AST (spans excluded), one that does not parse by its words. Changed
effects are shown in English rendered from the IR, else in the canonical printer's text; the raw
text is kept too. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runtime.model import GameModel, model_of

from .build import GAME_FILE, discover_games, module_files
from .diagnostics import Diagnostics
from .loader import load_file
from .parser import parse_effect
from .printer import print_effect


@dataclass
class EffectChange:
    slot: str  # "assault", "hacked.production"
    old: str | None  # rendered (English or canonical); None when the slot is new
    new: str | None  # None when the slot was removed
    old_text: str | None = None
    new_text: str | None = None

    def to_json(self) -> dict:
        return {"slot": self.slot, "old": self.old, "new": self.new, "old_text": self.old_text,
                "new_text": self.new_text}


@dataclass
class CardChange:
    id: str
    name: str | None
    module: str
    old_module: str | None = None  # set when the card moved between modules
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # field -> (old, new); missing = None
    effects: list[EffectChange] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "module": self.module, "old_module": self.old_module,
                "fields": {k: {"old": o, "new": n} for k, (o, n) in self.fields.items()},
                "effects": [e.to_json() for e in self.effects]}


@dataclass
class CardRef:
    id: str
    name: str | None
    kind: str | None
    module: str
    effects: dict[str, str] = field(default_factory=dict)  # slot -> rendered

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "module": self.module,
                "effects": self.effects}


@dataclass
class GameDiff:
    game: str
    added: list[CardRef] = field(default_factory=list)
    removed: list[CardRef] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)
    status: str = "same"  # "same" | "changed" | "added" | "removed"
    # other values (vocabulary, tables, map, rule effects): "file: dotted.path" -> (old, new)
    other: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.other) and self.status == "same"

    def to_json(self) -> dict:
        return {"game": self.game, "status": self.status, "added": [c.to_json() for c in self.added],
                "removed": [c.to_json() for c in self.removed], "changed": [c.to_json() for c in self.changed],
                "other": {k: {"old": o, "new": n} for k, (o, n) in self.other.items()}}


@dataclass
class DiffResult:
    games: list[GameDiff]
    diags: Diagnostics
    renderer: str  # "english" | "canonical"

    def to_json(self) -> dict:
        return {"ok": not self.diags.errors, "renderer": self.renderer,
                "games": [g.to_json() for g in self.games if not g.empty],
                "diagnostics": [d.to_json() for d in self.diags.sorted()]}


# --- loading one side ------------------------------------------------------------------------------


@dataclass
class _Side:
    vocab: GameModel | None
    cards: dict[str, tuple[str, dict]]  # id -> (module file name, card)
    other: dict[str, Any] = field(default_factory=dict)  # "file: path" -> value, everything but cards


def _games(root: Path) -> dict[str, Path]:
    if not root.exists():
        return {}
    return {p.name: p for p in discover_games(root)}


def _load_game(game_dir: Path, diags: Diagnostics) -> _Side:
    gdoc = load_file(game_dir / GAME_FILE, diags)
    vocab = None
    if gdoc is not None and isinstance(gdoc.data, dict) and isinstance(gdoc.data.get("game"), str):
        try:
            vocab = model_of(gdoc.data)
        except (KeyError, TypeError, AttributeError, ValueError):
            vocab = None
    cards: dict[str, tuple[str, dict]] = {}
    other: dict[str, Any] = {}
    if gdoc is not None and isinstance(gdoc.data, dict):
        _flatten(gdoc.data, f"{GAME_FILE}:", other)
    for path in module_files(game_dir):
        doc = load_file(path, diags)
        if doc is None or not isinstance(doc.data, dict):
            continue
        for card in doc.data.get("cards") or []:
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                cards.setdefault(card["id"], (path.name, card))
        _flatten({k: v for k, v in doc.data.items() if k != "cards"}, f"{path.name}:", other)
    return _Side(vocab, cards, other)


_KEYS = ("id", "at")  # list items carrying one of these are matched by it, not by position


def _flatten(value: Any, prefix: str, out: dict) -> None:
    """Leaves of a document as "file: a.b[at=1,1].c" -> value, for the non-card part of the diff."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _flatten(v, f"{prefix} {k}" if prefix.endswith(":") else f"{prefix}.{k}", out)
        return
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        key = next((k for k in _KEYS if all(isinstance(v.get(k), (str, int)) for v in value)), None)
        if key is not None:
            for v in value:
                _flatten({k: x for k, x in v.items() if k != key}, f"{prefix}[{key}={v[key]}]", out)
            return
    out[prefix] = value


# --- effects -------------------------------------------------------------------------------------------


class _Effects:
    """Check and render the effect slots of one side, against that side's vocabulary."""

    def __init__(self, vocab: GameModel | None):
        self.vocab = vocab
        self.checker = None
        if vocab is not None:
            from runtime.verbs import verbs_for

            from .check import Checker

            self.checker = Checker(vocab, verbs_for(vocab.engine))
        self._seen: dict[tuple[str, str], tuple] = {}

    def slots(self, kind: Any) -> tuple[dict, dict]:
        """(slot name -> slot kind, face name -> {slot name -> slot kind}) for a card kind."""
        spec = self.vocab.kinds.get(kind) if self.vocab and isinstance(kind, str) else None
        if spec is None:
            return {}, {}
        return {sl.key: sl.kind for sl in spec.slots}, {f.key: {sl.key: sl.kind for sl in f.slots} for f in spec.faces}

    def read(self, text: Any, slot_kind: str) -> tuple:
        """(AST, IR) of a text; either is None when the text does not parse or does not check."""
        if not isinstance(text, str):
            return None, None
        key = (text, slot_kind)
        if key not in self._seen:
            prefix = "requires " if slot_kind == "condition" else ""
            effect, problem = parse_effect(prefix + text)
            effect_ir = None
            if problem is None and self.checker is not None:
                checked = self.checker.check(effect, lambda *a, **k: None, kind=slot_kind)
                effect_ir = checked.ir
            self._seen[key] = (None if problem else effect, effect_ir)
        return self._seen[key]

    def render(self, text: Any, slot_kind: str) -> str | None:
        if text is None:
            return None
        effect, effect_ir = self.read(text, slot_kind)
        if effect_ir is not None:
            from .english import render_effect

            return render_effect(effect_ir, self.vocab, self.checker.verbs, kind=slot_kind)
        if effect is None:
            return " ".join(str(text).split())  # does not parse: show the text as written
        text = print_effect(effect)  # parses but does not check here: the canonical text
        return text[len("requires "):] if slot_kind == "condition" and text.startswith("requires ") else text


def _same_effect(a: Any, b: Any, kind: str, old: _Effects, new: _Effects) -> bool:
    (ea, ia), (eb, ib) = old.read(a, kind), new.read(b, kind)
    if ia is not None and ib is not None:
        return ia == ib  # IR equality: the same meaning, however it is worded, spaced or cased
    if ea is not None and eb is not None:
        return ea == eb  # AST equality: spans are excluded, so layout and case do not count
    return " ".join(str(a).lower().split()) == " ".join(str(b).lower().split())


_MISSING = object()


def _compare(old: dict, new: dict, slots: dict, faces: dict, prefix: str, change: CardChange,
             eo: _Effects, en: _Effects) -> None:
    for key in sorted(set(old) | set(new), key=str):
        a, b = old.get(key, _MISSING), new.get(key, _MISSING)
        name = f"{prefix}{key}"
        if key in slots:
            kind = slots[key]
            if a is _MISSING or b is _MISSING or not _same_effect(a, b, kind, eo, en):
                if a is not _MISSING and b is not _MISSING and a == b:
                    continue
                av = None if a is _MISSING else a
                bv = None if b is _MISSING else b
                change.effects.append(EffectChange(name, eo.render(av, kind), en.render(bv, kind), av, bv))
        elif key in faces and isinstance(a, dict) and isinstance(b, dict):
            _compare(a, b, faces[key], {}, f"{name}.", change, eo, en)
        elif a != b:
            change.fields[name] = (None if a is _MISSING else a, None if b is _MISSING else b)


def _ref(cid: str, module: str, card: dict, eff: _Effects) -> CardRef:
    slots, faces = eff.slots(card.get("kind"))
    rendered = {s: eff.render(card[s], k) for s, k in slots.items() if s in card}
    for face, fslots in faces.items():
        if isinstance(card.get(face), dict):
            rendered.update({f"{face}.{s}": eff.render(card[face][s], k) for s, k in fslots.items()
                             if s in card[face]})
    name = card.get("name")
    return CardRef(cid, name if isinstance(name, str) else None, card.get("kind"), module, rendered)


def diff_trees(old_root: Path, new_root: Path) -> DiffResult:
    diags = Diagnostics()
    old_games, new_games = _games(old_root), _games(new_root)
    for root, games in ((old_root, old_games), (new_root, new_games)):
        if not games:
            diags.error("E101", f"no game folders with a {GAME_FILE} found", file=str(root))
    out = []
    renderer = "canonical"
    for game in sorted(set(old_games) | set(new_games)):
        old = _load_game(old_games[game], diags) if game in old_games else _Side(None, {})
        new = _load_game(new_games[game], diags) if game in new_games else _Side(None, {})
        eo, en = _Effects(old.vocab or new.vocab), _Effects(new.vocab or old.vocab)
        if en.checker is not None:  # effects that check are shown in English
            renderer = "english"
        gd = GameDiff(game, status="added" if game not in old_games else
                      "removed" if game not in new_games else "same")
        for cid in sorted(set(new.cards) - set(old.cards)):
            gd.added.append(_ref(cid, new.cards[cid][0], new.cards[cid][1], en))
        for cid in sorted(set(old.cards) - set(new.cards)):
            gd.removed.append(_ref(cid, old.cards[cid][0], old.cards[cid][1], eo))
        for cid in sorted(set(old.cards) & set(new.cards)):
            (om, oc), (nm, nc) = old.cards[cid], new.cards[cid]
            name = nc.get("name") if isinstance(nc.get("name"), str) else None
            ch = CardChange(cid, name, nm, om if om != nm else None)
            slots, faces = en.slots(nc.get("kind"))
            _compare(oc, nc, slots, faces, "", ch, eo, en)
            if ch.fields or ch.effects or ch.old_module:
                gd.changed.append(ch)
        for k in sorted(set(old.other) | set(new.other)):
            a, b = old.other.get(k, _MISSING), new.other.get(k, _MISSING)
            if a == b or game not in old_games or game not in new_games:
                continue
            if ": rules." in k and k.split(":", 1)[0] != GAME_FILE and isinstance(a, str) and isinstance(b, str):
                if _same_effect(a, b, "effect", eo, en):
                    continue  # a rule procedure is effect text: compared as an AST, shown in English
                a, b = eo.render(a, "effect"), en.render(b, "effect")
            gd.other[k] = (None if a is _MISSING else a, None if b is _MISSING else b)
        if gd.status == "same" and (gd.added or gd.removed or gd.changed or gd.other):
            gd.status = "changed"
        out.append(gd)
    return DiffResult(out, diags, renderer)


def git_tree(spec: str, workdir: Path, scratch: Path) -> Path | str:
    """``REV:PATH`` (e.g. ``v1.0:data``, ``HEAD~3:data``) as a folder: ``git archive`` of that tree
    extracted under ``scratch``. Returns the folder, or a message saying why it cannot.

    Only git's own output is read (a tar of the committed files, extracted with the ``data`` filter:
    no links out of the folder, no device files); nothing of it is executed.
    """
    import io
    import subprocess
    import tarfile

    rev, _, path = spec.partition(":")
    path = path or "."
    # REV is the user's text and goes to git: one that starts with '-' would be one of git's options
    # (--output=FILE overwrites a file), so it is refused here, and whatever else it is, git only
    # ever sees it after --end-of-options, and the archive is made from the commit it names
    if not rev or rev.startswith("-") or any(ch in rev for ch in "\0\n\r"):
        return f"'{rev}' in '{spec}' is not a git revision"
    try:
        commit = subprocess.run(["git", "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
                                cwd=workdir, capture_output=True, text=True)
        if commit.returncode != 0:
            why = commit.stderr.strip().splitlines()[-1] if commit.stderr.strip() else \
                f"'{rev}' is not a commit of this repository"
            return f"cannot read '{spec}' from git: {why}"
        sha = commit.stdout.strip()
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=workdir, capture_output=True,
                             text=True, check=True).stdout.strip()
        prefix = subprocess.run(["git", "rev-parse", "--show-prefix"], cwd=workdir, capture_output=True,
                                text=True, check=True).stdout.strip()
        tar = subprocess.run(["git", "archive", "--format=tar", sha, "--", f"{prefix}{path}".rstrip("/") or "."],
                             cwd=top, capture_output=True, check=True).stdout
    except FileNotFoundError:
        return "git is not installed"
    except subprocess.CalledProcessError as exc:
        err = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        return f"cannot read '{spec}' from git: {err.strip().splitlines()[-1] if err.strip() else exc}"
    dest = scratch / "tree"
    dest.mkdir(parents=True, exist_ok=True)
    try:
        with tarfile.open(fileobj=io.BytesIO(tar)) as tf:
            tf.extractall(dest, filter="data")
    except (tarfile.LinkOutsideDestinationError, tarfile.AbsoluteLinkError) as exc:
        # named as committed, not by the scratch folder it would have been extracted into
        return (f"cannot read '{spec}' from git: '{exc.tarinfo.name}' is a symbolic link that leads out of "
                "the committed tree; cardwright does not follow it")
    except (tarfile.TarError, OSError) as exc:
        return f"cannot read '{spec}' from git: {exc}"
    where = dest / f"{prefix}{path}"
    if dest.resolve() not in (where.resolve(), *where.resolve().parents):
        return f"cannot read '{spec}' from git: '{path}' leaves the repository"
    return where


def _value(v: Any) -> str:
    return "(none)" if v is None else repr(v) if isinstance(v, str) else str(v)


def render_text(result: DiffResult) -> list[str]:
    """The diff as lines of text for the terminal (cli.py prints them)."""
    lines: list[str] = []
    for g in result.games:
        if g.empty:
            continue
        counts = f"{len(g.added)} added, {len(g.removed)} removed, {len(g.changed)} changed" + \
            (f"; {len(g.other)} other value{'s' if len(g.other) != 1 else ''} changed" if g.other else "")
        lines.append(f"{g.game}: " + (f"game {g.status}; " if g.status in ("added", "removed") else "") + counts)
        for c in g.added:
            lines.append(f"  + {c.id} ({c.kind}, {c.module})" + (f": {c.name}" if c.name else ""))
            for slot, text in c.effects.items():
                lines.append(f"      {slot}: {text}")
        for c in g.removed:
            lines.append(f"  - {c.id} ({c.kind}, {c.module})" + (f": {c.name}" if c.name else ""))
        for c in g.changed:
            where = f"{c.old_module} -> {c.module}" if c.old_module else c.module
            lines.append(f"  ~ {c.id} ({where})" + (f": {c.name}" if c.name else ""))
            for fname, (a, b) in c.fields.items():
                lines.append(f"      {fname}: {_value(a)} -> {_value(b)}")
            for e in c.effects:
                lines.append(f"      {e.slot}:")
                if e.old is not None:
                    lines.append(f"        - {e.old}")
                if e.new is not None:
                    lines.append(f"        + {e.new}")
        for k, (a, b) in g.other.items():
            lines.append(f"  * {k}: {_value(a)} -> {_value(b)}")
    if not lines:
        lines.append("no card changes.")
    return lines
