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
"""
from __future__ import annotations

import hashlib
import json
import stat
import os
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path

from .diagnostics import Diagnostic
from .resources import GRAMMAR_DIR, SCHEMA_DIR

FORMAT = 1
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

    def to_json(self) -> dict:
        return {"format": FORMAT, "diags": [asdict(d) for d in self.diags], "output": self.output,
                "ids": self.ids, "cards": self.cards, "effects": self.effects, "module": self.module}

    @classmethod
    def from_json(cls, data: dict) -> "Entry":
        if data.get("format") != FORMAT:
            raise ValueError("cache format")
        return cls([Diagnostic(**d) for d in data["diags"]], data["output"], [tuple(x) for x in data["ids"]],
                   int(data["cards"]), int(data["effects"]), str(data["module"]))


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

    # --- keys -----------------------------------------------------------------------------------
    def key(self, path: Path, game_file: Path, rel: str, shown: str) -> str:
        gkey = str(game_file)
        if gkey not in self._game_hash:
            self._game_hash[gkey] = self._file_hash(game_file)  # never blocks: a FIFO is refused
        return _digest(compiler_version(), self._game_hash[gkey], self._file_hash(path), rel, shown)

    def _file_hash(self, path: Path) -> str:
        """The hash of a file's bytes, re-read only when its size or modification time changed."""
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block the read: a miss, and the loader says why
            raise OSError(f"{path} is not a regular file")
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
        self.hits = self.misses = 0

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
               module_names: list) -> bool:
        """Apply a cached module to the build in progress; False (a miss) when it must be compiled."""
        try:
            key = self._key_for(path, game_dir, rel_root)
        except OSError:
            return False
        entry = self.get(key)
        if entry is None or any(cid in seen_ids for cid, _ in entry.ids) or \
                (entry.output is None and not entry.diags and not result.diags.errors):
            self.misses += 1
            return False
        self.hits += 1
        self.used.add(key)
        result.diags.extend(entry.diags)
        seen_ids.update(dict(entry.ids))
        gb.card_count += entry.cards
        gb.effect_count += entry.effects
        if entry.module:
            module_names.append(entry.module)
        if not result.diags.errors and entry.output is not None:
            result.outputs[self._output_key(gb, path)] = entry.output
        return True

    @staticmethod
    def mark(result, gb, seen_ids: dict, module_names: list) -> tuple:
        return (len(result.diags), len(seen_ids), len(module_names), gb.card_count, gb.effect_count)

    def store(self, path: Path, game_dir: Path, rel_root: Path, result, gb, seen_ids: dict,
              module_names: list, mark: tuple) -> None:
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
                      module_names[-1] if len(module_names) > n_mods else "")
        self.used.add(key)
        self.put(key, entry)
