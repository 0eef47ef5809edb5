"""The studio's view of a data folder: the last build, what each card looks like in it, and what changed.

A ``Workspace`` builds through ``compiler.watch.Watcher`` — the same incremental build as ``cardwright
watch`` (per-module and per-card cache, file events from watchfiles), compiled in memory: the studio
writes nothing, not even ``generated/``. After each build it makes a ``Snapshot``: every game's cards
in file order with the lines they occupy, and every diagnostic placed on the card it belongs to — by
the card it names, else by the line it points at (a YAML syntax error inside a card is that card's
error). Each card gets a *version*, a hash of what its gallery tile shows (its record, its game file,
its diagnostics, whether its face is the current one); the cards whose version changed are what the
build reports to the open pages, as event names that are hashes too (a card id from the data never
reaches the event stream's framing).

The printed matter (the faces, the references, the compiled game for simulations and play) comes
from each game's last *clean* build: while a game has an error, its pages keep showing the last
faces that could be rendered, with the error on the card.

Nothing here knows HTTP; studio/app.py serves it.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from compiler.build import BuildResult, discover_games
from compiler.diagnostics import Diagnostic
from compiler.watch import Watcher


def event_name(*parts: str) -> str:
    """An event name for the live stream, from data-made parts: a hash, so that nothing from the data
    reaches the stream's framing (a name with a newline would end an event)."""
    return "e" + hashlib.sha1("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass
class CardInfo:
    game: str
    id: str
    name: str
    kind: str
    module: str  # the module file's stem
    file: str  # display path, as diagnostics name it
    path: Path
    first: int  # first line of the card's record in its file (1-based)
    last: int  # its last line
    record: str  # repr of the record: what changed when it changed
    index: int  # position in the module's card list

    @property
    def event(self) -> str:
        return event_name("card", self.game, self.id)


@dataclass
class GameSnap:
    id: str
    name: str
    folder: Path
    cards: dict[str, CardInfo] = field(default_factory=dict)  # in file order
    card_diags: dict[str, list[Diagnostic]] = field(default_factory=dict)
    other_diags: list[Diagnostic] = field(default_factory=list)  # the game's problems on no card
    versions: dict[str, str] = field(default_factory=dict)
    clean: bool = True  # no error in the game's files: its printed matter is this build's
    vocab_key: str = ""

    @property
    def event(self) -> str:
        return event_name("game", self.id)

    @property
    def cards_event(self) -> str:  # the set or the order of the game's cards changed
        return event_name("cards", self.id)

    def place(self, d: Diagnostic) -> str:
        """Where a diagnostic points, short: its file inside the game folder, line and column."""
        where = d.location
        if d.file:
            real = _real(d.file)
            root = _real(self.folder)
            if real.startswith(root + os.sep):
                where = ":".join([real[len(root) + 1:], *(str(v) for v in (d.line, d.column) if v is not None)])
        return where

    def diags(self, card_id: str) -> list[Diagnostic]:
        return self.card_diags.get(card_id, [])


@dataclass
class Snapshot:
    generation: int
    result: BuildResult | None
    games: dict[str, GameSnap]
    loose: list[Diagnostic]  # problems of the data folder that belong to no game
    seconds: float
    errors: int
    warnings: int


@dataclass
class Clean:
    """A game's last clean build: what its printed pages, simulations and games are made from."""
    result: BuildResult
    generation: int
    records: dict[str, str]  # card id -> record repr in that build
    cache: dict = field(default_factory=dict)  # what was rendered from it (deck, references), by key
    # card id -> what its face is made of (its record, the game file, every card's name); and the faces
    # rendered so far, (card id, side) -> (that key, HTML), carried over from the previous clean build:
    # a save re-renders the faces of the cards it changed, not the whole deck's before any face shows
    face_keys: dict[str, str] = field(default_factory=dict)
    faces: dict = field(default_factory=dict)
    modules: dict[str, str] = field(default_factory=dict)  # card id -> the stem of its module file
    lock: threading.Lock = field(default_factory=threading.Lock)


STATUS_EVENT = "status"


class Workspace:
    def __init__(self, data_root: Path):
        self.data_root = Path(data_root)
        # where the studio was started: a REV:PATH's PATH is read from here, as `simulate --compare` does
        self.workdir = Path.cwd()
        self.watcher = Watcher(self.data_root, out_dir=None)
        self.generation = 0
        self.snapshot = Snapshot(0, None, {}, [], 0.0, 0, 0)
        self.clean: dict[str, Clean] = {}
        self._listeners: list = []  # callables taking a list of event names (studio/app.py's queues)
        self._lock = threading.Lock()
        self.built_at = 0.0  # time.time() of the last build's end (the bench reads it)

    # --- building -----------------------------------------------------------------------------------
    def build(self, changed: list[Path] | None = None) -> list[str]:
        """Rebuild (incrementally after the first time), make the new snapshot and tell the listeners
        which events it makes; returns them."""
        report = self.watcher.build(changed)
        result = report.result
        self.generation += 1
        old = self.snapshot
        games = self._games(result, old)
        loose = [d for d in result.diags if _game_of(d, games) is None]
        for game, snap in games.items():
            if snap.clean and game in result.games:
                names = hashlib.sha1(repr([(c.id, c.name) for c in snap.cards.values()]).encode(
                    "utf-8", "surrogatepass")).hexdigest()
                before = self.clean.get(game)
                self.clean[game] = Clean(
                    result, self.generation, {cid: c.record for cid, c in snap.cards.items()},
                    face_keys={cid: hashlib.sha1("\x00".join([c.record, snap.vocab_key, names]).encode(
                        "utf-8", "surrogatepass")).hexdigest() for cid, c in snap.cards.items()},
                    faces=dict(before.faces) if before is not None else {},
                    modules={cid: c.module for cid, c in snap.cards.items()})
        for snap in games.values():
            known = self.clean.get(snap.id)
            for cid, c in snap.cards.items():
                stale_face = known is None or known.records.get(cid) != c.record
                marks = "\n".join(_ident(d) for d in snap.diags(cid))
                snap.versions[cid] = hashlib.sha1(
                    "\x00".join([c.record, snap.vocab_key, marks, str(stale_face), str(c.first)]).encode(
                        "utf-8", "surrogatepass")).hexdigest()[:16]
        snap_new = Snapshot(self.generation, result, games, loose, report.seconds,
                            sum(1 for d in result.diags if d.severity == "error"),
                            sum(1 for d in result.diags if d.severity != "error"))
        events = [STATUS_EVENT]
        for game, snap in games.items():
            before = old.games.get(game)
            if before is None or _game_changed(before, snap):
                events.append(snap.event)
            if before is not None and list(before.cards) != list(snap.cards):
                events.append(snap.cards_event)
            for cid, version in snap.versions.items():
                if before is None or before.versions.get(cid) != version:
                    events.append(snap.cards[cid].event)
            if before is not None:  # a card that is gone: its tile removes itself on its event
                events += [c.event for cid, c in before.cards.items() if cid not in snap.cards]
        with self._lock:
            self.snapshot = snap_new
            listeners = list(self._listeners)
        self.built_at = time.time()
        for tell in listeners:
            tell(events)
        return events

    def _games(self, result: BuildResult, old: Snapshot) -> dict[str, GameSnap]:
        games: dict[str, GameSnap] = {}
        folders = discover_games(self.data_root) if self.data_root.is_dir() else []
        for folder in folders:
            gb = result.games.get(folder.name)
            before = old.games.get(folder.name)
            name = gb.vocab.name if gb is not None and gb.vocab is not None else (before.name if before else folder.name)
            snap = GameSnap(folder.name, name, folder)
            snap.vocab_key = hashlib.sha1(repr(gb.vocab.source).encode("utf-8", "surrogatepass")).hexdigest() \
                if gb is not None and gb.vocab is not None else (before.vocab_key if before else "")
            loaded = set()
            if gb is not None:
                for stem, doc in gb.modules.items():
                    if doc is None:
                        continue
                    loaded.add(Path(doc.path).name)
                    for c in _cards_of(folder.name, stem, doc):
                        snap.cards.setdefault(c.id, c)
            if before is not None:
                # a module that could not be read this time (a YAML error) keeps its cards as they were,
                # so that its error can be shown on the card it is in
                for c in before.cards.values():
                    if c.path.name not in loaded and c.path.exists() and c.id not in snap.cards:
                        snap.cards[c.id] = c
                snap.cards = dict(sorted(snap.cards.items(), key=lambda kv: (kv[1].path.name, kv[1].index)))
            games[folder.name] = snap
        for d in result.diags:
            game = _game_of(d, games)
            if game is None:
                continue
            snap = games[game]
            card = _card_of(d, snap)
            if card is not None:
                snap.card_diags.setdefault(card, []).append(d)
            else:
                snap.other_diags.append(d)
            if d.severity == "error":
                snap.clean = False
        return games

    # --- listening ----------------------------------------------------------------------------------
    def listen(self, tell) -> None:
        with self._lock:
            self._listeners.append(tell)

    def unlisten(self, tell) -> None:
        with self._lock:
            if tell in self._listeners:
                self._listeners.remove(tell)

    def watch(self, stop: threading.Event) -> None:
        """Rebuild on every save until ``stop`` is set (run in a thread of its own)."""
        for changed in self.watcher.changes(interval=0.2, stop=stop):
            self.build(changed)

    def start(self) -> threading.Event:
        """The first build, then the watching thread; returns the event that stops it."""
        self.watcher.poll()  # the files' stamps as they are now: the first save is a change
        self.build()
        self.watcher.settle()
        stop = threading.Event()
        threading.Thread(target=self.watch, args=(stop,), name="studio-watch", daemon=True).start()
        return stop


def _ident(d: Diagnostic) -> str:
    return f"{d.severity}|{d.code}|{d.file}|{d.line}|{d.column}|{d.message}|{d.hint}"


def _game_changed(before: GameSnap, now: GameSnap) -> bool:
    return (before.vocab_key != now.vocab_key or before.clean != now.clean or list(before.cards) != list(now.cards)
            or [_ident(d) for d in before.other_diags] != [_ident(d) for d in now.other_diags]
            or before.versions != now.versions)


def _cards_of(game: str, stem: str, doc) -> list[CardInfo]:
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    out = []
    for i, rec in enumerate(cards if isinstance(cards, list) else []):
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            continue
        pos = doc.positions.get(("cards", i))
        first, last = (pos.line + 1, max(pos.end_line, pos.line + 1)) if pos is not None else (1, 1)
        name = rec.get("name") if isinstance(rec.get("name"), str) else rec["id"]
        kind = rec.get("kind") if isinstance(rec.get("kind"), str) else ""
        out.append(CardInfo(game, rec["id"], name, kind, stem, doc.file, Path(doc.path), first, last, repr(rec), i))
    return out


def _real(path: str | Path) -> str:
    """The path with its folder resolved, not the file itself: a linked file belongs to the folder it
    is in (a module linked to a file elsewhere is that game's module, and its error that game's)."""
    p = Path(path)
    return os.path.join(os.path.realpath(p.parent), p.name) if p.name else os.path.realpath(p)


def _game_of(d: Diagnostic, games: dict[str, GameSnap]) -> str | None:
    if not d.file:
        return None
    where = _real(d.file)
    for game, snap in games.items():
        root = _real(snap.folder)
        if where == root or where.startswith(root + os.sep):
            return game
    return None


def _card_of(d: Diagnostic, snap: GameSnap) -> str | None:
    """The card a diagnostic belongs to: the one it names, else the one whose lines hold its line."""
    if d.card and d.card in snap.cards:
        return d.card
    if d.line is None or not d.file:
        return None
    where = _real(d.file)
    for c in snap.cards.values():
        if c.first <= d.line <= c.last and _real(c.path) == where:
            return c.id
    return None
