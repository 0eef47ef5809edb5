"""Incremental build: a content-hash cache of per-module compile results.

``compile_tree(data, cache=ModuleCache(...))`` asks the cache before compiling each module file. An
entry is keyed by the hash of the module file's bytes, the hash of its game's ``game.yaml`` (the
vocabulary, the card schema, the engine), the compiler version (a hash of the compiler's and the
runtime's Python sources, the grammar and the JSON Schemas, so any change to them invalidates
everything) and where the file sits (the generated code and the diagnostics name it). It holds what
compiling the module produced: its diagnostics, its generated module text, its card ids (for the
cross-module duplicate check, which is always re-run) and its card and effect counts. A hit replays
that; a miss compiles the module as usual and stores the result.

Entries live in memory and, when a folder is given, as JSON files under it (``.cardwright-cache/``
by default, gitignored). JSON, not pickle: reading the cache never runs code. A corrupt or foreign
file is a miss. Deleting the folder is always safe. Only watch mode and the benchmark use the cache;
``cardwright compile`` always builds from scratch.

Inside a module that did change, ``CardCache`` (one per game, in memory only) keeps each card's
piece — its generated functions and table entry, ``compiler.codegen.CardPiece`` — keyed by the
card's loaded data, the lines of its texts relative to the card, and its file; it is emptied when the
game's ``game.yaml`` or the compiler changes. A piece is reused only when, besides, every card id its
texts asked about ("other than <card>") is still there (or still not) and its function names are
free in the module; a card that had any diagnostic is never cached. So one edited card in a module of
any size is re-checked and re-generated alone, and the module is put together again from the pieces
(the same code path as a cold build, hence the same bytes). The check memo (one check per distinct
text) is kept here too, across rebuilds.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import asdict, dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from .cardblocks import card_blocks, odd_breaks, reread, stitch
from .diagnostics import Diagnostic, display_path
from .loader import Document, leaves_game_folder, load_text, read_text
from .resources import GRAMMAR_DIR, SCHEMA_DIR

FORMAT = 2
_HERE = Path(__file__).resolve().parent
_RUNTIME = _HERE.parent / "runtime"


@lru_cache(maxsize=1)
def compiler_version() -> str:
    """A hash of every source file that can change what a module compiles to."""
    h = hashlib.sha256(f"cardwright-cache-{FORMAT}".encode())
    files = sorted(_HERE.glob("*.py")) + sorted(_RUNTIME.rglob("*.py")) + sorted(GRAMMAR_DIR.glob("*.lark")) \
        + sorted(SCHEMA_DIR.glob("*.json"))
    for p in files:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()


@dataclass
class Entry:
    diags: list[Diagnostic]
    output: str | None  # the generated module, None when it was not rendered (errors)
    ids: list[tuple[str, str]]  # (card id, "file:line") in order
    cards: int
    effects: int
    module: str  # the module's stem (its name in the game package)
    whole: bool = True  # every card of it could be read (compiler/cardids.py): its replay says so too

    @cached_property
    def id_map(self) -> dict:
        """The card ids as a mapping (made once: the duplicate check runs against it every build)."""
        return dict(self.ids)

    def to_json(self) -> dict:
        return {"format": FORMAT, "diags": [asdict(d) for d in self.diags], "output": self.output,
                "ids": self.ids, "cards": self.cards, "effects": self.effects, "module": self.module,
                "whole": self.whole}

    @classmethod
    def from_json(cls, data: dict) -> "Entry":
        if data.get("format") != FORMAT:
            raise ValueError("cache format")
        return cls([Diagnostic(**d) for d in data["diags"]], data["output"], [tuple(x) for x in data["ids"]],
                   int(data["cards"]), int(data["effects"]), str(data["module"]), bool(data["whole"]))


@dataclass
class CardEntry:
    piece: object  # compiler.codegen.CardPiece
    asked: dict  # card id -> whether it existed, for each id the card's texts asked about
    effects: int  # effect texts on the card (the build's counts)


@dataclass
class _Looked:
    """One module's look-up in the per-card cache, for the build in progress."""

    rel: str
    keys: dict  # card index -> key
    hits: dict  # card index -> CardEntry that may be reused
    dirty: set = field(default_factory=set)  # card indexes with a schema diagnostic: never stored
    kept: dict = field(default_factory=dict)  # key -> CardEntry reused or made by this build

    def keep(self, i: int, entry: CardEntry) -> None:
        self.kept[self.keys[i]] = entry


@dataclass
class CardCache:
    """The pieces of one game's cards (see the module docstring); in memory only."""

    version: tuple = ()
    modules: dict = field(default_factory=dict)  # file (rel) -> {key: CardEntry}
    memo: dict = field(default_factory=dict)  # the build's check memo (compiler.build._Memo per text)
    reused: int = 0
    # file (rel) -> {card index: (card object, its key)} of the module's last look-up. A save re-reads one
    # card and stitches it into the last Document (compiler/cardblocks.py): every other card is the very
    # object looked up last time, at the same lines relative to its card, so its key is known without
    # a repr of it (a fifth of a save in a 1,000-card module, issue 27). Checked by identity, per index
    # (an alias puts one object at two places, with two keys); a module loaded whole has new objects.
    known_keys: dict = field(default_factory=dict)
    # module file -> {card index: card object} that passed the module schema (compiler/schema.py
    # validate_module)
    module_passed: dict = field(default_factory=dict)

    @staticmethod
    def key(doc, i: int, card: dict) -> tuple:
        """What a card's piece is made from: its data (repr: the types are part of it), and the line
        of each of its values relative to the card's first line (where its functions say they are).
        Raw position tuples (line first), without the Pos objects ``doc.pos`` makes: a value with no
        position of its own is placed at its parent's, which the key already holds."""
        get = dict.get
        positions = doc.positions
        base = get(positions, ("cards", i))
        base = base[0] if base else 0
        lines = []
        for k, v in card.items():
            p = get(positions, ("cards", i, k))
            lines.append(p[0] - base if p else None)
            if type(v) is dict:
                for fk in v:
                    p = get(positions, ("cards", i, k, fk))
                    lines.append(p[0] - base if p else None)
        return (repr(card), tuple(lines))

    def lookup(self, doc, cards: list, ids) -> _Looked:
        known = self.modules.get(doc.rel, {})
        last = self.known_keys.get(doc.rel, {})
        now = self.known_keys[doc.rel] = {}
        keys, hits = {}, {}
        for i, card in enumerate(cards):
            if card is None:
                continue
            was = last.get(i)
            k = keys[i] = was[1] if was is not None and was[0] is card else self.key(doc, i, card)
            now[i] = (card, k)
            entry = known.get(k)
            if entry is not None and ids.still(entry.asked):
                hits[i] = entry
        return _Looked(doc.rel, keys, hits)

    def finish(self, looked: _Looked) -> None:
        """Keep exactly the pieces of the module as it is now (an edited card's old piece goes)."""
        self.reused += sum(1 for i, e in looked.hits.items() if looked.kept.get(looked.keys[i]) is e)
        self.modules[looked.rel] = looked.kept


@dataclass
class ModuleCache:
    folder: Path | None = None
    memory: dict[str, Entry] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0
    used: set[str] = field(default_factory=set)  # keys hit or stored by the current build
    _game_hash: dict[str, str] = field(default_factory=dict)
    _stat_hash: dict[str, tuple] = field(default_factory=dict)  # path -> ((mtime_ns, size), hash)
    _names: dict[tuple, tuple] = field(default_factory=dict)  # (path, root, cwd) -> (rel, display path)
    cards: dict[str, CardCache] = field(default_factory=dict)  # game -> its per-card cache
    _games: dict[str, tuple] = field(default_factory=dict)  # game.yaml -> (version, (doc, vocab, card schema))
    # module file -> (its text, its lines, its Document, its card blocks) as last loaded, so that the
    # next load after an edit inside one card re-reads that card alone (compiler/cardblocks.py)
    _loaded: dict[str, tuple] = field(default_factory=dict)
    reread: int = 0  # module loads of the current build that re-read one card instead of the file
    # entries ``put`` holds back until ``flush`` (None: written at once). Watch mode holds them while it
    # builds, so that a save's generated files are written before the cache's copy of them — the cache
    # is only for the next start, and its JSON was a tenth of a save in a 1,000-card module (issue 27)
    deferred: list | None = None

    def load(self, path: Path, diags) -> Document | None:
        """A module file's Document (as ``load_file`` gives it). When the file was loaded before and
        the edit since lies inside one card's block, only that card is read again and stitched into
        the last Document (compiler/cardblocks.py): a save in a 1,000-card module then reads one card's
        lines as YAML, not a thousand cards'."""
        text = read_text(path, diags)
        key = str(path)
        kept = self._loaded.pop(key, None)
        if text is None:
            return None
        if kept is not None and not odd_breaks(text):
            old_text, old_lines, doc, blocks = kept
            lines = text.split("\n")
            found = reread(doc, blocks, old_lines, lines, display_path(path), path) if text != old_text else None
            if found is not None:
                i, part, delta = found
                doc = stitch(doc, blocks, i, part, text, delta)  # kept is dropped: a failure loads whole next time
                self._loaded[key] = (text, lines, doc, blocks)
                self.reread += 1
                return doc
        doc = load_text(text, display_path(path), diags, path)
        if doc is not None and not odd_breaks(text):
            lines = text.split("\n")
            blocks = card_blocks(doc, lines)
            if blocks is not None:
                self._loaded[key] = (text, lines, doc, blocks)
        return doc

    def game_file(self, game_file: Path):
        """(Document, GameModel, prepared card schema) of a game.yaml loaded clean by an earlier build
        and unchanged since (same bytes, same compiler), or None."""
        try:
            digest = self._file_hash(game_file)
        except OSError:
            return None
        known = self._games.get(str(game_file))
        return known[1] if known is not None and known[0] == (compiler_version(), digest) else None

    def keep_game_file(self, game_file: Path, loaded: tuple) -> None:
        try:
            self._games[str(game_file)] = ((compiler_version(), self._file_hash(game_file)), loaded)
        except OSError:
            pass

    def cards_for(self, game_file: Path, game: str) -> CardCache | None:
        """The per-card cache of a game, emptied if its game.yaml or the compiler changed."""
        try:
            version = (compiler_version(), self._game_digest(game_file))
        except OSError:
            return None
        cc = self.cards.get(game)
        if cc is None or cc.version != version:
            cc = self.cards[game] = CardCache(version)
        return cc

    @property
    def cards_reused(self) -> int:
        return sum(c.reused for c in self.cards.values())

    # --- keys -----------------------------------------------------------------------------------
    def key(self, path: Path, game_file: Path, rel: str, shown: str) -> str:
        return _digest(compiler_version(), self._game_digest(game_file), self._file_hash(path), rel, shown)

    def _game_digest(self, game_file: Path) -> str:
        """A game.yaml's hash, looked up once per build (``begin_build`` forgets it)."""
        gkey = str(game_file)
        if gkey not in self._game_hash:
            self._game_hash[gkey] = self._file_hash(game_file)  # never blocks: a FIFO is refused
        return self._game_hash[gkey]

    def _file_hash(self, path: Path) -> str:
        """The hash of a file's bytes, re-read only when its size or modification time changed."""
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read: a miss, and the loader says why
            raise OSError(f"{path} is not a regular file")
        if leaves_game_folder(path):  # never read, not even to hash it: a miss, and the loader refuses it
            raise OSError(f"{path} leads outside the game folder")
        stamp = (st.st_mtime_ns, st.st_size)
        known = self._stat_hash.get(str(path))
        if known is not None and known[0] == stamp:
            return known[1]
        digest = _digest(path.read_bytes())
        self._stat_hash[str(path)] = (stamp, digest)
        return digest

    def begin_build(self) -> None:
        """Forget per-build state (the game files' hashes are re-read each build)."""
        self._game_hash.clear()
        self.used = set()
        self.hits = self.misses = self.reread = 0
        for c in self.cards.values():
            c.reused = 0

    # --- lookup -----------------------------------------------------------------------------------
    def get(self, key: str) -> Entry | None:
        entry = self.memory.get(key)
        if entry is None and self.folder is not None:
            p = self.folder / "modules" / f"{key}.json"
            try:
                entry = Entry.from_json(json.loads(p.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError):
                entry = None
            if entry is not None:
                self.memory[key] = entry
        return entry

    def put(self, key: str, entry: Entry) -> None:
        self.memory[key] = entry
        if self.folder is None:
            return
        if self.deferred is not None:  # watch mode: written after the build's output (``flush``)
            self.deferred.append((key, entry))
            return
        self._write_entry(key, entry)

    def flush(self) -> None:
        """Write the entries ``put`` held back (``deferred``), and stop holding them back."""
        held, self.deferred = self.deferred or [], None
        for key, entry in held:
            self._write_entry(key, entry)

    def _write_entry(self, key: str, entry: Entry) -> None:
        d = self.folder / "modules"
        try:
            d.mkdir(parents=True, exist_ok=True)
            tmp = d / f".{key}.{os.getpid()}.tmp"
            tmp.write_text(json.dumps(entry.to_json()), encoding="utf-8")
            os.replace(tmp, d / f"{key}.json")
        except OSError:  # a cache that cannot be written is only slower
            pass

    def prune(self, keep: set[str]) -> None:
        """Drop in-memory entries not used by the last build (watch mode stays small)."""
        for k in list(self.memory):
            if k not in keep:
                del self.memory[k]

    # --- the hook in compiler/build.py -----------------------------------------------------------
    def _key_for(self, path: Path, game_dir: Path, rel_root: Path) -> str:
        from .diagnostics import display_path

        where = (str(path), str(rel_root), os.getcwd())
        names = self._names.get(where)
        if names is None:  # resolving paths costs more than hashing; they only change with the cwd
            names = self._names[where] = (f"{rel_root.name}/{path.relative_to(rel_root).as_posix()}",
                                          display_path(path))
        return self.key(path, game_dir / "game.yaml", *names)

    @staticmethod
    def _output_key(gb, path: Path) -> str:
        from .codegen import identifier

        return f"{gb.game}/{identifier(path.stem)}.py"

    def replay(self, path: Path, game_dir: Path, rel_root: Path, result, gb, seen_ids: dict,
               module_names: list) -> bool | None:
        """Apply a cached module to the build in progress; False (a miss) when it must be compiled,
        else whether its cards could all be read (True, or None when not)."""
        try:
            key = self._key_for(path, game_dir, rel_root)
        except OSError:
            return False
        entry = self.get(key)
        if entry is None or not seen_ids.keys().isdisjoint(entry.id_map) or \
                (entry.output is None and not entry.diags and not result.diags.errors):
            self.misses += 1
            return False
        self.hits += 1
        self.used.add(key)
        result.diags.extend(entry.diags)
        seen_ids.update(entry.id_map)
        gb.card_count += entry.cards
        gb.effect_count += entry.effects
        if entry.module:
            module_names.append(entry.module)
        if not result.diags.errors and entry.output is not None:
            result.outputs[self._output_key(gb, path)] = entry.output
        return True if entry.whole else None

    @staticmethod
    def mark(result, gb, seen_ids: dict, module_names: list) -> tuple:
        return (len(result.diags), len(seen_ids), len(module_names), gb.card_count, gb.effect_count)

    def store(self, path: Path, game_dir: Path, rel_root: Path, result, gb, seen_ids: dict,
              module_names: list, mark: tuple, whole: bool = True) -> None:
        """Remember what compiling this module added to the build (not when ids collided)."""
        n_diags, n_ids, n_mods, n_cards, n_effects = mark
        diags = list(result.diags[n_diags:])
        if any(d.code == "E202" for d in diags):
            return  # depends on other modules' ids: never cached
        try:
            key = self._key_for(path, game_dir, rel_root)
        except OSError:
            return
        ids = list(seen_ids.items())[n_ids:]
        entry = Entry(diags, result.outputs.get(self._output_key(gb, path)), ids,
                      gb.card_count - n_cards, gb.effect_count - n_effects,
                      module_names[-1] if len(module_names) > n_mods else "", whole)
        self.used.add(key)
        self.put(key, entry)
