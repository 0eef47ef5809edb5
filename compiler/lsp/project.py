"""The files a language server has open, the games they belong to, and what was found in them.

A ``Project`` knows nothing of the protocol: the server (compiler/lsp/server.py) hands it buffer
texts by path and asks for diagnostics; the tests and bench/lsp.py drive it the same way. A file
that is not open is read from disk (another module's card ids, a game.yaml nobody opened).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..build import GAME_FILE, module_files
from ..cardids import CardIds, loaded_cards
from ..codegen import identifier
from ..diagnostics import Diagnostic, Diagnostics, display_path
from ..loader import MAX_FILE_BYTES, Document, load_file, read_regular
from ..reach import cards_no_setup_creates, created_by_setup, e214_held_back
from .checking import (GameContext, ModuleChecker, ModuleResult, check_game_texts, check_scenario, file_kind,
                       load_buffer)


@dataclass
class Checked:
    """The last check of one file: its diagnostics and the document they were found in."""

    kind: str | None
    diagnostics: list[Diagnostic]
    doc: Document | None = None
    mode: str = "full"
    text: str | None = None  # the buffer's text that was checked (None: read from disk)


class Project:
    def __init__(self):
        self.buffers: dict[Path, str] = {}
        self.contexts: dict[Path, GameContext] = {}
        self.modules: dict[Path, ModuleChecker] = {}
        self.checked: dict[Path, Checked] = {}
        self.last_loaded: dict[Path, Document] = {}  # the last text of each file that loaded as YAML
        self._ids: dict[Path, tuple] = {}  # module path -> (its text or disk stamp, its card ids)
        self._disk: dict[Path, tuple] = {}  # path -> ((mtime, size, inode), text) of files read from disk

    # --- buffers -----------------------------------------------------------------------------
    def set_text(self, path: Path, text: str) -> None:
        self.buffers[_norm(path)] = text

    def close(self, path: Path) -> None:
        path = _norm(path)
        self.buffers.pop(path, None)
        self.modules.pop(path, None)
        self.checked.pop(path, None)
        self.last_loaded.pop(path, None)

    def text_of(self, path: Path, diags: Diagnostics | None = None) -> str | None:
        """The buffer's text when the file is open, else the file's (None when it cannot be read)."""
        path = _norm(path)
        diags = diags if diags is not None else Diagnostics()
        if path in self.buffers:
            text = self.buffers[path]
            # the command line's size limit holds for a buffer too: a pasted 20 MB dump would
            # otherwise be parsed on every keystroke (a gigabyte of memory for its YAML nodes)
            if len(text) > MAX_FILE_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
                size = len(text.encode("utf-8", "surrogatepass"))
                diags.error("E107", f"file is {size / 1e6:.1f} MB; data files are limited to "
                            f"{MAX_FILE_BYTES / 1e6:.1f} MB (split it into modules)", file=display_path(path),
                            line=1, column=1)
                return None
            return text
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            stamp = None
        cached = self._disk.get(path)
        if stamp is not None and cached is not None and cached[0] == stamp:
            return cached[1]  # unchanged on disk since it was last read (a game.yaml read per keystroke)
        raw = read_regular(path, display_path(path), diags)
        if raw is None:
            return None
        if not raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            try:
                text = raw.decode("utf-8-sig")
                if stamp is not None:
                    self._disk[path] = (stamp, text)
                return text
            except UnicodeDecodeError:
                pass
        load_file(path, diags)  # not UTF-8: the loader's own words for it (E102), located
        return None

    # --- games -------------------------------------------------------------------------------
    def context(self, game_dir: Path) -> GameContext:
        """The game's context for its current game.yaml text (made again only when that changed)."""
        game_dir = _norm(game_dir)
        read = Diagnostics()
        text = self.text_of(game_dir / GAME_FILE, read)
        ctx = self.contexts.get(game_dir)
        if ctx is not None and ctx.text == text:
            return ctx
        ctx = GameContext(game_dir, text if text is not None else "")
        if text is None:
            ctx.diags = read
            ctx.usable = False
        self.contexts[game_dir] = ctx
        return ctx

    def game_dir_of(self, path: Path) -> Path | None:
        path = _norm(path)
        kind = file_kind(path)
        if kind in ("game", "module"):
            return path.parent
        if kind == "scenario":
            return path.parent.parent
        return self.orphan_of(path)

    def orphan_of(self, path: Path) -> Path | None:
        """The folder of a game this server knew whose game.yaml is gone (deleted, renamed, not yet
        checked out), when ``path`` is one of its data files; else None."""
        path = _norm(path)
        if path.suffix != ".yaml" or path.name == GAME_FILE and (path.parent / GAME_FILE).is_file():
            return None
        for folder in (path.parent, path.parent.parent if path.parent.name == "scenarios" else None):
            if folder is not None and folder in self.contexts and not (folder / GAME_FILE).is_file():
                return folder
        return None

    def modules_of(self, game_dir: Path) -> list[Path]:
        """The game's module files in build order, with any open (perhaps unsaved) module among them."""
        paths = {_norm(p) for p in module_files(game_dir)}
        paths |= {p for p in self.buffers if p.parent == game_dir and file_kind(p) == "module"}
        return sorted(paths)

    def open_files_of(self, game_dir: Path) -> list[Path]:
        return sorted(p for p in self.buffers if self.game_dir_of(p) == game_dir)

    # --- checking ----------------------------------------------------------------------------
    def check(self, path: Path) -> Checked:
        """Check one file as `cardwright validate` would (the buffer's text if it is open)."""
        path = _norm(path)
        kind = file_kind(path)
        diags = Diagnostics()
        if kind is None:
            gone = self.orphan_of(path)
            # a game's file whose game.yaml is gone: said, rather than its diagnostics silently cleared
            result = Checked(None, [] if gone is None else [Diagnostic(
                "", f"no {GAME_FILE} in {display_path(gone)}: this file cannot be checked without its game's "
                f"{GAME_FILE} (restore it, or create one with `cardwright new game`)", file=display_path(path),
                line=1, column=1, severity="warning")])
        elif kind == "game":
            ctx = self.context(path.parent)
            # the flow's and bots' texts too; a setup step may create any card of the game's modules
            ids = self.game_card_ids(path.parent)
            found = Diagnostics(ctx.diags)
            found.extend(check_game_texts(ctx, ids))
            result = Checked(kind, found.sorted(), ctx.gdoc)
        elif kind == "scenario":
            text = self.text_of(path, diags)
            found, doc = check_scenario(path, text) if text is not None else (diags.sorted(), None)
            if doc is not None and not any(d.severity == "error" for d in found):
                found = Diagnostics(found + self._scenario_names(path, doc)).sorted()
            result = Checked(kind, found, doc)
        else:
            result = self._check_module(path, diags)
        result.text = self.buffers.get(path)
        self.checked[path] = result
        if result.doc is not None:
            self.last_loaded[path] = result.doc
        return result

    def _scenario_names(self, path: Path, doc: Document) -> list[Diagnostic]:
        """The names of a scenario (Goods, cards, zones, steps, players) against the game it names,
        with the function ``validate`` and ``run`` use (compiler/scenario.py ``check_names``)."""
        from runtime.engine import ENGINES
        from runtime.words import did_you_mean

        from ..scenario import check_names

        diags = Diagnostics()
        name = doc.data["game"]
        data_root = path.parent.parent.parent  # <data>/<game>/scenarios/<file>
        here = path.parent.parent
        folder = here if self.context(here).vocab is not None and self.context(here).vocab.game == name \
            else data_root / str(name)
        if not (folder / GAME_FILE).is_file():
            games = sorted(p.name for p in data_root.iterdir() if (p / GAME_FILE).is_file())
            line, col, src = doc.where(("game",))
            diags.error("E701", f"cannot load game '{name}': no such game in the data folder", file=doc.file,
                        line=line, column=col, source_line=src, hint=did_you_mean(str(name), games))
            return list(diags)
        ctx = self.context(folder)
        if not ctx.usable:  # its game.yaml's errors are reported there; nothing here can be judged
            return []
        check_names(doc, ctx.vocab, self.game_card_ids(folder), ENGINES[ctx.vocab.engine], diags)
        return list(diags)

    def _check_module(self, path: Path, diags: Diagnostics) -> Checked:
        game_dir = path.parent
        text = self.text_of(path, diags)
        if text is None:
            return Checked("module", diags.sorted())
        ctx = self.context(game_dir)
        modules = self.modules_of(game_dir)  # one look at the folder for both passes below
        clash = self._name_clash(path, modules)
        if clash is not None:
            return Checked("module", [clash])
        checker = self.modules.get(path)
        if checker is None:
            checker = self.modules[path] = ModuleChecker(path)
        earlier = self.earlier_ids(path, modules) if ctx.usable else {}
        result: ModuleResult = checker.check(text, ctx, earlier,
                                             self.game_card_ids(game_dir, path, modules=modules).complete)
        out = list(result.diagnostics)
        if ctx.usable and result.doc is not None and isinstance(result.doc.data, dict) \
                and created_by_setup(ctx.gdoc.data) is not None:  # a flow that lists the cards it creates
            found = Diagnostics()
            cards_no_setup_creates(ctx.gdoc.data, result.doc, found)  # as the build warns (compiler/reach.py)
            if found and not e214_held_back(ctx.gdoc.data, self.game_card_ids(game_dir, own=(path, result.doc),
                                                                              modules=modules)):
                out = Diagnostics(out + found).sorted()
        if not ctx.usable:
            # a note, not a finding of validate: it has no code of its own
            out.append(Diagnostic("", "the game's game.yaml has errors: this file's effect texts are checked once "
                                  "it is fixed", file=display_path(path), line=1, column=1, severity="information"))
        return Checked("module", out, result.doc, result.mode)

    def _name_clash(self, path: Path, modules: list[Path]) -> Diagnostic | None:
        """E503 as compiler/build.py gives it: a module whose Python name an earlier file already has
        (``modules``: the game's, from ``modules_of``)."""
        first: dict[str, Path] = {}
        for p in modules:
            first.setdefault(identifier(p.stem), p)
        winner = first.get(identifier(path.stem))
        if winner is not None and winner != path:
            return Diagnostic("E503", f"module file '{path.name}' and '{winner.name}' would both be compiled to "
                              f"'{identifier(path.stem)}.py': rename one of them", file=display_path(path),
                              line=1, column=1)
        return None

    def earlier_ids(self, path: Path, modules: list[Path]) -> dict[str, str]:
        """Card id -> "file:line" of every module of ``modules`` (the game's, from ``modules_of``)
        built before ``path`` (the first place wins)."""
        seen: dict[str, str] = {}
        names: set[str] = set()
        for p in modules:
            if p == path:
                break
            if identifier(p.stem) in names:
                continue  # E503: build.py never reads it
            names.add(identifier(p.stem))
            for cid, where in self.card_ids_of(p):
                seen.setdefault(cid, where)
        return seen

    def game_card_ids(self, game_dir: Path, before: Path | None = None, own: tuple | None = None,
                      modules: list[Path] | None = None) -> CardIds:
        """The card ids of the game's modules (only those built before ``before``, when given),
        incomplete when one of them could not be read: the build's rule (compiler/cardids.py).
        ``own``: (path, document) of the module being checked, whose document is read as it is
        (not loaded a second time from its buffer: a keystroke in a big module)."""
        ids, whole = [], True
        names: set[str] = set()
        for p in modules if modules is not None else self.modules_of(game_dir):
            if p == before:
                break
            if identifier(p.stem) in names:
                whole = False  # E503: build.py never reads it
                continue
            names.add(identifier(p.stem))
            if own is not None and p == own[0]:
                theirs, read = loaded_cards(own[1].data)
            else:
                theirs = [cid for cid, _ in self.card_ids_of(p)]
                known = self._ids.get(_norm(p))  # filled by card_ids_of, unless the file cannot be read
                read = known is not None and known[2]
            # an id an earlier module already has is E202: as in the build (compiler/cardids.py)
            whole = whole and read and set(ids).isdisjoint(theirs)
            ids += theirs
        return CardIds(ids, whole)

    def card_ids_of(self, path: Path) -> list[tuple[str, str]]:
        """(id, "file:line") of a module's cards, as duplicate-id messages name them."""
        file = display_path(path)
        return [(cid, f"{file}:{line + 1}") for cid, line, _ in self.cards_of(path)]

    def cards_of(self, path: Path) -> list[tuple[str, int, int]]:
        """(id, line, column) of a module's cards (0-based, where each ``id:`` value is written),
        memoised by the buffer's text or the file's stamp; an open module's last check is used as is."""
        path = _norm(path)
        if path in self.buffers:
            stamp = self.buffers[path]
        else:
            try:
                st = os.stat(path)
                stamp = (st.st_mtime_ns, st.st_size)
            except OSError:
                return []
        cached = self._ids.get(path)
        if cached is not None and (cached[0] is stamp or cached[0] == stamp):
            return cached[1]
        checked = self.checked.get(path)
        if checked is not None and checked.text is stamp and checked.doc is not None:
            doc = checked.doc  # the buffer as just checked: no second load of a big module
        else:
            text = self.text_of(path)
            doc = load_buffer(path, text, Diagnostics()) if text is not None else None
        found: list[tuple[str, int, int]] = []
        whole = doc is not None and loaded_cards(doc.data)[1]  # every card of it read (compiler/cardids.py)
        if doc is not None and isinstance(doc.data, dict) and isinstance(doc.data.get("cards", []), (list, type(None))):
            for i, card in enumerate(doc.data.get("cards") or []):
                if isinstance(card, dict) and isinstance(card.get("id"), str):
                    pos = doc.positions.get(("cards", i, "id"))
                    line, col = (pos.line, pos.column) if pos is not None else (0, 0)
                    if pos is not None and pos.style in ("'", '"'):
                        col += 1  # the id itself, inside its quotes
                    found.append((card["id"], line, col))
        self._ids[path] = (stamp, found, whole)
        return found

    def dependents(self, path: Path) -> list[Path]:
        """Open files whose diagnostics may change when ``path`` changes: every open file of the game
        for its game.yaml; the open modules built after it for a module (its card ids)."""
        path = _norm(path)
        game_dir = self.game_dir_of(path)
        if game_dir is None:
            return []
        kind = file_kind(path)
        if kind == "game":
            return [p for p in self.open_files_of(game_dir) if p != path]
        if kind == "module":
            # the modules built after it (its card ids), and game.yaml (its flow's setup names cards)
            return [p for p in self.open_files_of(game_dir)
                    if (file_kind(p) == "module" and p > path) or file_kind(p) == "game"]
        return []


def _norm(path: Path) -> Path:
    return Path(os.path.abspath(path))
