"""The pipeline, end to end: discover games under a data folder, run every stage, collect outputs.

``compile_tree`` runs load → validate → parse → check → emit for every game and returns the
generated files *in memory* with all diagnostics; nothing touches the disk until ``write_outputs``,
which is only called when there are no errors. Writing is atomic per file (temp file + rename), so
a failed build leaves the previous ``generated/`` untouched. ``stale_files`` compares in memory for
``compile --check``.
"""
from __future__ import annotations

import gc
import os
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from runtime.engine import ENGINES, engine_of, load_from_sources
from runtime.model import GameModel, model_of
from runtime.verbs import verbs_for
from runtime.words import did_you_mean

from . import ast as A
from .cache import CardEntry
from .cardids import CardIds, loaded_cards
from .check import Checker
from .codegen import (HEADER, CardPiece, Function, ModuleWriter, UnsafeValue, card_entry, comment, identifier,
                      literal, make_body)
from .diagnostics import Diagnostics, display_path
from .flow import FLOW_MODULE, FlowCompiler, check_quantity, check_reshuffle, table_source
from .loader import Document, load_file, path_text
from .options import check_options
from .parser import parse_effect
from .printassets import check_art, check_fonts, check_icons
from .reach import cards_no_setup_creates, e214_held_back, triggers_that_never_fire
from .schema import prepare_cards, validate, validate_module
from .sourceforms import BUILTIN_WORDS, FormError, compile_form, source_ok
from .vocabulary import check_names

GAME_FILE = "game.yaml"
SKIP_DIRS = {"schema", "scenarios"}


@dataclass
class GameBuild:
    game: str
    vocab: GameModel | None = None
    modules: dict[str, Document] = field(default_factory=dict)
    card_count: int = 0
    effect_count: int = 0
    checked: dict = field(default_factory=dict)  # (slot kind, text, on a card) -> _Memo: one check per text
    checker: Checker | None = field(default=None, repr=False)
    cards_compiled: int = 0  # cards checked and generated afresh (not taken from the per-card cache)
    icon_images: dict[str, str] = field(default_factory=dict)  # icon key -> its image as a data: URI
    game_dir: Path | None = None  # the game's folder: its fonts/ and pictures for the printed matter
    card_ids: CardIds = field(default_factory=CardIds)  # every module's cards (incomplete: one failed to load)

    def effect_ir(self, text: str, kind: str, has_card: bool = True):
        """The checked IR of one of this game's effect texts: what the reference renders (it never
        parses or checks a text itself). A text this build compiled is looked up; one of a module
        replayed from the cache is checked here, once, by the build's own checker. None when the
        text does not parse or check (a compiled module's texts always do)."""
        memo = self.checked.get((kind, text, has_card))
        if memo is None:
            if self.checker is None:
                return None
            effect, problem = parse_effect(_PREFIX.get(kind, "") + text)
            if problem is not None:
                return None
            memo = _check_once(self, self.checker, effect, text, kind, has_card)
        return memo.checked.ir


@dataclass
class BuildResult:
    diags: Diagnostics
    outputs: dict[str, str] = field(default_factory=dict)  # path relative to the output dir -> text
    games: dict[str, GameBuild] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.diags.errors


def discover_games(data_root: Path) -> list[Path]:
    """Game folders: sub-folders of the data root that hold a game.yaml, sorted by name."""
    if _has_game_file(data_root):
        return [data_root]
    return sorted(p for p in data_root.iterdir() if p.is_dir() and p.name not in SKIP_DIRS
                  and _has_game_file(p))


def _has_game_file(folder: Path) -> bool:
    """A game.yaml of any kind, even one that cannot be read (a FIFO, a dangling link): the loader
    then says what is wrong with it, instead of the game silently not being there."""
    return os.path.lexists(folder / GAME_FILE) and not (folder / GAME_FILE).is_dir()


def module_files(game_dir: Path) -> list[Path]:
    return sorted(p for p in game_dir.glob("*.yaml") if p.name != GAME_FILE)


def load_game(game_file: Path, diags: Diagnostics) -> tuple[Document | None, GameModel | None]:
    """Load a game.yaml and validate it against its schema; the GameModel only when both succeed.

    Every command that needs a game's names goes through here, so a game file the schema rejects is
    always a located diagnostic, never a KeyError in ``Vocabulary.from_data``.
    """
    gdoc = load_file(game_file, diags)
    if gdoc is None or not validate(gdoc, "game", diags) or not check_names(gdoc, diags):
        return gdoc, None
    return gdoc, model_of(gdoc.data)


class _Timer:
    def __init__(self, timings: dict):
        self.timings = timings

    def add(self, stage: str, start: float) -> float:
        now = time.perf_counter()
        self.timings[stage] = self.timings.get(stage, 0.0) + (now - start)
        return now


def compile_tree(data_root: Path, only: set[str] | None = None, cache=None, emit: bool = True,
                 scenarios: bool = False, keep_documents: bool = True) -> BuildResult:
    """``cache``: a compiler.cache.ModuleCache (watch mode) that replays unchanged modules and, in a
    module that changed, unchanged cards. ``emit=False`` (``cardwright validate``): load, validate,
    parse and check everything, but generate no code (``outputs`` then holds no modules).
    ``scenarios``: also check every game's scenario files (YAML, schema, names) as ``run`` does
    before it plays one (compiler/scenario.py ``check_scenarios``): the commands that report on the
    data (``validate``, ``build``, ``compile``, ``watch``, …: cli.py's ``compile_tree``) ask for it;
    ``run`` itself, ``simulate`` and ``play`` do not, so a broken scenario never stops a game loading.
    ``keep_documents=False``: each module's loaded Document is let go once the module is compiled, and
    ``GameBuild.modules`` stays empty — for a caller that only writes code or reports diagnostics
    (``compile``, ``validate``, a game loaded to be played): the Documents (every value's position)
    were half of what a 10,000-card build held at its end (issue 27: 30,000 cards within 500 MB).
    Whatever renders the cards (the reference, card sheets, the studio) keeps them.

    The cyclic garbage collector is paused while the build runs: a build allocates millions of
    objects that all stay alive until it ends (documents, ASTs, generated lines), so every
    collection during it scans a growing heap and frees next to nothing — measured at a tenth of a
    cold 10,000-card build, and it made parsing cost more per text the bigger the corpus. Reference
    counting still frees everything acyclic at once; the collector is switched back on (if it was
    on) when the build returns, and collects whatever cycles were left then.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _compile_tree(data_root, only, cache if emit else None, emit, scenarios, keep_documents)
    finally:
        if was_enabled:
            gc.enable()


def load_game_folder(game: str, data: str):
    """The compiled game ``game`` of the data folder ``data``, compiled in memory: how ``simulate``
    (SimConfig.loader), ``play`` and the Dask workers turn a folder into a game. ValueError (a usage
    error) when the data has errors or no such game."""
    # only this game (another game of the folder, broken or slow to build, is none of this run's business),
    # without the scenario check: a broken scenario does not stop a game
    result = compile_tree(Path(data), only={game}, scenarios=False, keep_documents=False)
    if not result.ok:
        first = result.diags.errors[0].headline()
        raise ValueError(f"the data in {data} has errors (first: {first}); run `cardwright validate`")
    if game not in result.games:
        raise ValueError(f"no game '{game}' in {data} (games: {', '.join(sorted(result.games)) or 'none'})")
    return load_from_sources(result.outputs, game)


def _compile_tree(data_root: Path, only: set[str] | None, cache, emit: bool, scenarios: bool,
                  keep_documents: bool = True) -> BuildResult:
    result = BuildResult(Diagnostics())
    diags = result.diags
    if not data_root.exists():
        diags.error("E101", "data folder does not exist", file=display_path(data_root))
        return result
    games = discover_games(data_root)
    if not games:
        diags.error("E101", f"no game folders with a {GAME_FILE} found", file=display_path(data_root))
    timer = _Timer(result.timings)
    result.outputs["__init__.py"] = _package_init()
    checked, failed = [], set()
    for game_dir in games:
        if only and game_dir.name not in only:
            continue
        checked.append(game_dir)
        gb = _compile_game(game_dir, data_root, result, timer, cache, emit, keep_documents)
        if gb is not None:
            result.games[gb.game] = gb
        else:
            failed.add(game_dir.name)
    if scenarios:
        from .scenario import check_scenarios  # it imports the runtime's agents: only when asked

        t = time.perf_counter()
        check_scenarios(checked, result.games, failed, diags)
        timer.add("scenarios", t)
    return result


def _package_init() -> str:
    return HEADER.format(source="the data folder") + '"""Compiled games, one package per game."""\n'


def check_game_file(gdoc: Document, vocab: GameModel, game_dir: Path, diags: Diagnostics,
                    folder_named: bool = True) -> bool:
    """The checks of a loaded game.yaml that come before its modules (the build's and the language
    server's): its game id is its folder's name (``folder_named``: unless the data folder is the
    game's own), its engine exists, and so do the thing filters it names of that engine. False when
    the game's modules cannot be checked; an unknown thing filter is reported and they still are."""
    if folder_named and vocab.game != game_dir.name:
        line, col, src = gdoc.where(("game",))
        diags.error("E401", f"game id '{vocab.game}' must match its folder name '{game_dir.name}'",
                    file=gdoc.file, line=line, column=col, source_line=src)
        return False
    if vocab.engine not in ENGINES:
        line, col, src = gdoc.where(("engine",))
        diags.error("E201", f"unknown engine '{vocab.engine}'", file=gdoc.file, line=line, column=col,
                    source_line=src, hint=did_you_mean(vocab.engine, ENGINES))
        return False
    engine = ENGINES[vocab.engine]
    for tname, tspec in sorted((gdoc.data.get("things") or {}).items()):
        ef = (tspec or {}).get("engine_filter")
        if ef is not None and ef not in engine.thing_filters:
            line, col, src = gdoc.where(("things", tname, "engine_filter"))
            diags.error("E201", f"the '{vocab.engine}' engine has no thing filter '{ef}'", file=gdoc.file,
                        line=line, column=col, source_line=src, hint=did_you_mean(ef, engine.thing_filters))
    return True


def _compile_game(game_dir: Path, data_root: Path, result: BuildResult, timer: _Timer,
                  cache=None, emit: bool = True, keep_documents: bool = True) -> GameBuild | None:
    diags = result.diags
    t = time.perf_counter()
    known = cache.game_file(game_dir / GAME_FILE) if cache is not None else None
    if known is not None:  # watch mode, game.yaml unchanged and clean last time
        gdoc, vocab, cschema = known
    else:
        n_diags = len(diags)
        gdoc, vocab = load_game(game_dir / GAME_FILE, diags)
        cschema = prepare_cards(gdoc.data) if vocab is not None else None
        if cache is not None and vocab is not None and len(diags) == n_diags:
            cache.keep_game_file(game_dir / GAME_FILE, (gdoc, vocab, cschema))
    t = timer.add("validate", t)
    if vocab is None:
        return None
    gb = GameBuild(vocab.game, vocab)
    gb.game_dir = game_dir
    if not check_game_file(gdoc, vocab, game_dir, diags, folder_named=game_dir != data_root):
        return None
    check_reshuffle(gdoc, diags)  # the core engine's refill rule (compiler/flow.py)
    triggers_that_never_fire(gdoc, diags)  # warnings: what validates but can never happen (compiler/reach.py)
    check_options(gdoc, diags)  # seats and options: defaults among the values (compiler/options.py)
    gb.icon_images = check_icons(gdoc, game_dir, diags)  # icon pictures for the printed matter
    check_fonts(gdoc, game_dir, diags)
    checker = gb.checker = Checker(vocab, verbs_for(vocab.engine))
    source_forms = declared_source_forms(gdoc.data)  # issue 28: the forms a card's source may take
    pieces = cache.cards_for(game_dir / GAME_FILE, vocab.game) if cache is not None else None
    if pieces is not None:
        gb.checked = pieces.memo  # the check memo is kept across rebuilds while game.yaml is unchanged
    seen_ids: dict[str, str] = {}
    module_names = []
    rel_root = data_root if game_dir != data_root else data_root.parent
    python_names: dict[str, Path] = {}  # generated module name -> the file that makes it
    # False once a module's cards could not all be read (its error is reported): from then on no
    # check calls a name an unknown card, since it may be one of them (compiler/cardids.py)
    whole = True
    for path in module_files(game_dir):
        first = python_names.setdefault(identifier(path.stem), path)
        if identifier(path.stem) == FLOW_MODULE and ("flow" in gdoc.data or "bots" in gdoc.data):
            diags.error("E503", f"module file '{path.name}' would be compiled to '{FLOW_MODULE}.py', which "
                        "holds the game's flow: rename it", file=display_path(path), line=1, column=1)
            whole = False
            continue
        if first != path:
            # 'a-b.yaml' and 'a_b.yaml' would both be written as a_b.py: one would silently replace
            # the other. Neither is guessed at; the designer renames one (E503).
            diags.error("E503", f"module file '{path.name}' and '{first.name}' would both be compiled to "
                        f"'{identifier(path.stem)}.py': rename one of them", file=display_path(path),
                        line=1, column=1)
            whole = False
            continue
        replayed = cache.replay(path, game_dir, rel_root, result, gb, seen_ids, module_names) \
            if cache is not None else False
        if replayed is not False:  # unchanged since it was last compiled (compiler/cache.py)
            whole = whole and replayed is True
            continue
        mark = cache.mark(result, gb, seen_ids, module_names) if cache is not None else None
        t = time.perf_counter()
        # watch mode: an edit inside one card of a module re-reads that card alone (compiler/cardblocks.py)
        doc = cache.load(path, diags) if cache is not None else load_file(path, diags)
        t = timer.add("load", t)
        if doc is None:
            whole = False
            continue
        ids, module_whole = loaded_cards(doc.data)
        module_whole = module_whole and seen_ids.keys().isdisjoint(ids)  # else E202: see loaded_cards
        whole = whole and module_whole
        # watch mode: the cards that passed the module schema unchanged are not checked again
        passed = pieces.module_passed.setdefault(str(path), {}) if pieces is not None and emit else None
        if not validate_module(doc, diags, passed) and not _usable(doc):
            timer.add("validate", t)
            continue
        # A schema error inside one card (a missing name) does not end the file: every card is
        # still checked and compiled, so the same run reports that card's other errors and the
        # next card's (a build with errors never writes anything, so nothing half-made escapes).
        cards = [c if isinstance(c, dict) else None for c in doc.data.get("cards") or []]
        # "other than <card>" may name a card of this module or of an earlier one
        checker.card_ids = _AskedIds(set(seen_ids) | {c.get("id") for c in cards if c is not None}, whole)
        rel = f"{rel_root.name}/{path.relative_to(rel_root).as_posix()}"
        doc.rel = rel  # generated code names this, never the cwd-dependent display path
        # watch mode: the cards made from the same data as last time come from the per-card cache
        # (their schema check, texts and code were all clean then and depend on nothing that changed)
        looked = pieces.lookup(doc, cards, checker.card_ids) if pieces is not None and emit else None
        unique = Unique(diags, doc.file)
        for i, card in enumerate(cards):
            if card is not None and (looked is None or i not in looked.hits):
                before = unique.count
                validate(doc, cschema, unique, ("cards", i))
                check_card_source(doc, i, card, source_forms, unique)
                if looked is not None and unique.count != before:
                    looked.dirty.add(i)
        if isinstance(doc.data.get("map"), dict) and validate(doc, "map", diags, ("map",)):
            # what a schema cannot express belongs to the game's map format: its engine checks it (E601)
            engine_of(gdoc.data).check_map(doc.data["map"], gdoc.data, doc.reporter(diags, ("map",), "E601"))
        t = timer.add("validate", t)
        if keep_documents:
            gb.modules[path.stem] = doc
        cards_no_setup_creates(gdoc.data, doc, diags)
        mw = ModuleWriter(rel, cards=True)
        table_ok = _compile_cards(doc, cards, looked, vocab, checker, mw, diags, timer, gb, seen_ids, emit, pieces)
        if pieces is not None and looked is not None:
            pieces.finish(looked)
        t = time.perf_counter()
        rules = []
        rule_texts = doc.data.get("rules") if isinstance(doc.data.get("rules"), dict) else {}
        for rname, text in rule_texts.items():
            if not isinstance(text, str):
                continue  # reported by the schema
            body = _compile_slot(doc, ("rules", rname), text, None, vocab, checker, diags, timer, gb, "effect",
                                 emit)
            if body is not None:
                pos = doc.pos(("rules", rname))
                where = f"{rel}:{pos.line + 1} {rname}".replace("\n", " ")
                rules.append((rname, mw.function(identifier("rule", rname), body, where)))
        module_names.append(path.stem)
        t = time.perf_counter()
        if emit and table_ok and not result.diags.errors:
            tables = [
                ("MODULE", literal({"id": doc.data.get("module", path.stem), "name": doc.data.get("name", path.stem),
                                    "source": doc.data.get("source"), "note": doc.data.get("note"),
                                    "setup": doc.data.get("setup") or [], "file": rel,
                                    # only when marked: the other modules' tables stay as they were
                                    **({"stand_in": doc.data["stand_in"]} if "stand_in" in doc.data else {})})),
                ("RULES", "{" + ", ".join(f"{literal(k)}: {v}" for k, v in rules if v) + "}"),
                ("TABLES", literal(doc.data.get("tables") or {})),
                ("MAP", literal(doc.data.get("map"))),
            ]
            try:
                result.outputs[f"{vocab.game}/{identifier(path.stem)}.py"] = mw.render(tables)
            except SyntaxError as exc:  # pragma: no cover - a compiler bug, reported as such
                diags.error("E501", f"generated code does not compile: {exc}", file=doc.file)
        timer.add("emit", t)
        if cache is not None:
            cache.store(path, game_dir, rel_root, result, gb, seen_ids, module_names, mark, module_whole)
    gb.card_ids = CardIds(seen_ids, whole)
    if e214_held_back(gdoc.data, gb.card_ids):  # "never created" would follow from a misspelt create
        diags[:] = [d for d in diags if d.code != "E214"]
    has_flow = _compile_flow(gdoc, vocab, checker, gb.card_ids, result, timer, gb, rel_root)
    result.outputs[f"{vocab.game}/__init__.py"] = _game_init(vocab, module_names, gdoc, rel_root, has_flow)
    return gb


def _compile_flow(gdoc: Document, vocab: GameModel, checker: Checker, card_ids: set[str], result: BuildResult,
                  timer: _Timer, gb: GameBuild, rel_root: Path) -> bool:
    """game.yaml's ``flow`` and ``bots`` (compiler/flow.py) → generated/<game>/flow.py (FLOW, None
    without a flow; BOTS). True when emitted; a game with neither writes no such module."""
    has_flow = isinstance(gdoc.data.get("flow"), dict)
    if not has_flow and not isinstance(gdoc.data.get("bots"), dict):
        return False
    diags = result.diags
    rel = f"{rel_root.name}/{vocab.game}/{GAME_FILE}"
    gdoc.rel = rel
    mw = ModuleWriter(rel)
    checker.card_ids = card_ids

    def compile_text(path, text, kind, fname):
        body = _compile_slot(gdoc, path, text, None, vocab, checker, diags, timer, gb, kind)
        if body is None:
            return None
        pos = gdoc.pos(path)
        return mw.function(fname, body, f"{rel}:{pos.line + 1 if pos else 1} {path[-1]}".replace("\n", " "))

    fc = FlowCompiler(gdoc, gdoc.data, card_ids, compile_text, diags)
    table = fc.table() if has_flow else None
    bots = fc.bots()
    if (has_flow and table is None) or bots is None or diags.errors:
        return False
    try:
        result.outputs[f"{vocab.game}/{FLOW_MODULE}.py"] = mw.render([("FLOW", table_source(table)),
                                                                      ("BOTS", table_source(bots))])
    except SyntaxError as exc:  # pragma: no cover - a compiler bug, reported as such
        diags.error("E501", f"generated code does not compile: {exc}", file=gdoc.file)
        return False
    return True


def _compile_cards(doc: Document, cards: list, looked, vocab: GameModel, checker: Checker,
                   mw: ModuleWriter, diags: Diagnostics, timer: _Timer, gb: GameBuild, seen_ids: dict,
                   emit: bool, pieces) -> bool:
    """Check and emit every card of one module into ``mw``, in file order, taking a card's piece from
    the per-card cache (``pieces``, watch mode) when it was made from the same card. Returns False when
    the card table cannot be written (a card's record holds a value no literal can carry)."""
    ok = True
    for i, card in enumerate(cards):
        if card is None:
            continue
        cid = card.get("id")
        if not isinstance(cid, str):
            cid = None  # reported by the schema; the card's texts are still checked
        elif cid in seen_ids:
            line, col, src = doc.where(("cards", i, "id"))
            diags.error("E202", f"card id '{cid}' is already used at {seen_ids[cid]}", file=doc.file,
                        line=line, column=col, length=len(str(cid)), card=cid, source_line=src)
            continue
        else:
            # the line only: the source line ``where`` reads is wanted for an error alone (a save in a
            # 1,000-card module passes here for every card)
            at = doc.pos(("cards", i, "id"))
            seen_ids[cid] = f"{doc.file}:{at.line + 1 if at is not None else 1}"
        check_art(doc, i, card, diags)  # before the cache: a missing picture is reported on every build
        pos = doc.pos(("cards", i))
        first = pos.line + 1 if pos else 1
        hit = looked.hits.get(i) if looked is not None else None
        if hit is not None and mw.fits(hit.piece):
            mw.add_card(first, hit.piece)
            looked.keep(i, hit)
            gb.card_count += 1
            gb.effect_count += hit.effects
            continue
        n_diags, n_effects = len(diags), gb.effect_count
        asked = checker.card_ids.asked = {}
        try:
            piece = _compile_card(doc, i, card, first, vocab, checker, mw, diags, timer, gb, emit)
        except UnsafeValue as exc:  # pragma: no cover - the loader makes no value literal() refuses
            diags.error("E501", f"generated code cannot hold this card: {exc}", file=doc.file, card=cid)
            ok = False
            continue
        gb.cards_compiled += 1
        if piece is not None:
            mw.add_card(first, piece, reserved=True)
            if looked is not None and cid is not None and len(diags) == n_diags and i not in looked.dirty:
                looked.keep(i, CardEntry(piece, dict(asked), gb.effect_count - n_effects))
    return ok


def _usable(doc: Document) -> bool:
    """A module the schema rejected whose cards can still be checked one by one: a mapping whose
    ``cards`` (if any) is a list. Anything else has nothing more to report."""
    return isinstance(doc.data, dict) and isinstance(doc.data.get("cards", []), (list, type(None)))


class Unique:
    """A Diagnostics front that drops a diagnostic already reported at the same place (the module
    schema and a card's own schema can both see one problem). ``file``: only that file's earlier
    diagnostics count as already reported (the build's list holds every file's); the language
    server checks one file per list and gives none."""

    def __init__(self, diags: Diagnostics, file: str | None = None):
        self.diags = diags
        self.seen = {(d.code, d.message, d.line, d.column) for d in diags if file is None or d.file == file}
        self.count = 0  # every diagnostic offered, dropped or not

    def error(self, code: str, message: str, **kw):
        self.count += 1
        key = (code, message, kw.get("line"), kw.get("column"))
        if key in self.seen:
            return None
        self.seen.add(key)
        return self.diags.error(code, message, **kw)


def _compile_card(doc: Document, i: int, card: dict, first: int, vocab: GameModel,
                  checker: Checker, mw: ModuleWriter, diags: Diagnostics, timer: _Timer, gb: GameBuild,
                  emit: bool) -> CardPiece | None:
    """Check one card's texts and (``emit``) make its piece: its functions, named in ``mw``, and its
    record for the card table. ``first`` is the card's first line: the piece holds lines relative to it."""
    cid = card.get("id")  # as written, even if the schema refused it: diagnostics name the card so
    kind = card.get("kind")
    spec = vocab.kinds.get(kind) if isinstance(kind, str) else None
    gb.card_count += 1
    record: dict[str, Any] = {}
    slots: dict[str, list] = {}
    texts: dict[str, str] = {}
    faces: dict[str, dict] = {}
    functions: list[Function] = []
    slot_specs = {sl.key: sl for sl in spec.slots} if spec is not None else {}
    face_specs = {f.key: f for f in spec.faces} if spec is not None else {}
    who = f" card {cid!r}" if cid else ""

    def slot(path: tuple, text: str, kind: str, into: dict) -> None:
        body = _compile_slot(doc, path, text, cid, vocab, checker, diags, timer, gb, kind, emit)
        if body is not None:
            name = mw.unique(identifier(str(cid), *path[2:]))
            pos = doc.pos(path)
            offset = (pos.line + 1 if pos else first) - first
            functions.append(Function(name, offset, f"{who} {path[-1]}", body))
            # each statement's place, relative to the card's first line: [line in the function, line, column]
            # (what doc.where(path, at) gives, the text's position looked up once for all its statements)
            if pos is None:
                places = [[fn_line, 1 - first, 1] for fn_line, _at in body.stmts]
            else:
                places = [[fn_line, line0 + 1 - first, col0 + 1] for fn_line, (line0, col0) in
                          ((fn_line, doc._map_offset(pos, text, at)) for fn_line, at in body.stmts)]
            # runtime/tables.py links the name to the function; "verbs": codegen's Body.verbs_only
            into[path[-1]] = [name, offset, places] + (["verbs"] if body.verbs_only else [])

    for key, value in card.items():
        if key in slot_specs and isinstance(value, str):
            slot(("cards", i, key), value, slot_specs[key].kind, slots)
            texts[key] = value
        elif key in face_specs and isinstance(value, dict):
            fslots, ftexts, ffields = {}, {}, {}
            fspec = face_specs[key]
            for fk, fv in value.items():
                fslot = fspec.slot(fk)
                if fslot is not None and isinstance(fv, str):
                    slot(("cards", i, key, fk), fv, fslot.kind, fslots)
                    ftexts[fk] = fv
                else:
                    ffields[fk] = fv
            face = dict(ffields)
            face["texts"] = ftexts
            face["slots"] = fslots
            faces[key] = face
        else:
            record[key] = value
    if not emit:
        return None
    record["at"] = None  # runtime/tables.py writes "file:line" here
    record["texts"] = texts
    record["slots"] = slots
    record["faces"] = faces
    return CardPiece(tuple(functions), card_entry(record))


@dataclass
class _Memo:
    """What checking one text found, kept for every other card that prints it (and, in watch mode,
    for later builds): the result, its problems, the card ids it asked about ("other than <card>": the
    result holds only while each is still there, or still not) and, once made, the function body."""

    checked: Any
    problems: list
    asked: dict
    body: Any = None


class _AskedIds(set):
    """The card ids "other than <card>" may name; remembers which ids the checker asked about.
    ``complete`` as in compiler/cardids.py: when False, every name may be a card."""

    asked: dict

    def __init__(self, ids, complete: bool = True):
        super().__init__(ids)
        self.asked = {}
        self.complete = complete

    def _has(self, key) -> bool:
        return not self.complete or set.__contains__(self, key)

    def __contains__(self, key) -> bool:
        found = self._has(key)
        self.asked[key] = found
        return found

    def still(self, asked: dict) -> bool:
        """True when every id in ``asked`` is (or is not) here as it was then."""
        return all(self._has(k) == v for k, v in asked.items())


def _compile_slot(doc: Document, path: tuple, text: str, card: str | None, vocab: GameModel, checker: Checker,
                  diags: Diagnostics, timer: _Timer, gb: GameBuild, slot_kind: str, emit: bool = True):
    """Parse, check and (``emit``) generate one effect text. Returns its function body, or None."""
    gb.effect_count += 1
    prefix = _PREFIX.get(slot_kind, "")
    t = time.perf_counter()
    effect, problem = parse_effect(prefix + text)
    t = timer.add("parse", t)

    def report(code: str, message: str, span: A.Span, hint: str | None = None, length: int | None = None):
        off = max(0, span.start - len(prefix))
        line, col, src = doc.where(path, off)
        diags.error(code, message, file=doc.file, line=line, column=col,
                    length=length or max(1, span.end - span.start), card=card,
                    path=path_text(path), hint=hint, source_line=src)

    if problem is not None:
        report(problem.code, problem.message, A.Span(problem.offset, problem.offset + problem.length))
        return None
    if slot_kind == "quantity":
        wrong = check_quantity(effect)
        if wrong:
            report("E311", wrong, A.Span(len(prefix), len(prefix) + len(text)))
            return None
    memo = _check_once(gb, checker, effect, text, slot_kind, card is not None)
    for args in memo.problems:
        report(*args)
    t = timer.add("check", t)
    if not memo.checked.ok or not emit:
        return None
    if memo.body is None:  # generated once per text, like the check (which lowered it)
        memo.body = make_body(slot_kind, memo.checked.ir, text, gb.vocab)
    timer.add("emit", t)
    return memo.body


# a condition slot holds a bare condition; a quantity (the game flow's scores) is read as "x is …"
_PREFIX = {"condition": "requires ", "quantity": "x is "}


def _check_once(gb: GameBuild, checker: Checker, effect: A.Effect, text: str, slot_kind: str,
                has_card: bool) -> _Memo:
    """The check of one text, memoised per game: a text checks the same way everywhere, unless it
    names card ids ("other than <card>") whose presence changed since (watch mode)."""
    ids = checker.card_ids
    tracked = isinstance(ids, _AskedIds)  # else a caller's own set (or None: no card ids checked)
    key = (slot_kind, text, has_card)
    memo = gb.checked.get(key)
    if memo is None or (tracked and not ids.still(memo.asked)):
        problems: list[tuple] = []
        outer = ids.asked if tracked else None
        if tracked:
            ids.asked = {}
        checked = checker.check(effect, lambda *args: problems.append(args),
                                kind="effect" if slot_kind == "quantity" else slot_kind, has_card=has_card)
        memo = gb.checked[key] = _Memo(checked, problems, ids.asked if tracked else {})
        if tracked:
            outer.update(ids.asked)
            ids.asked = outer
    elif tracked:
        ids.asked.update(memo.asked)
    return memo


def _game_init(vocab: GameModel, modules: list[str], gdoc: Document, rel_root: Path,
               has_flow: bool = False) -> str:
    mods = [identifier(m) for m in modules]
    lines = [HEADER.format(source=comment(f"{rel_root.name}/{vocab.game}/")),
             f'"""Compiled game {vocab.game!r}: its vocabulary and the tables of its modules."""',
             "from . import " + ", ".join(mods) + "  # noqa: F401" if mods else "",
             "",
             f"GAME = {literal(vocab.game)}",
             f"ENGINE = {literal(vocab.engine)}",
             f"VOCAB = {literal(gdoc.data)}",
             f"MODULES = {literal(tuple(mods))}",
             "CARDS = {" + ", ".join(f"**{m}.CARDS" for m in mods) + "}",
             "RULES = {" + ", ".join(f"**{m}.RULES" for m in mods) + "}",
             "TABLES = {" + ", ".join(f"{literal(m)}: {m}.TABLES" for m in mods) + "}",
             "MAPS = {" + ", ".join(f"{literal(m)}: {m}.MAP" for m in mods) + "}",
             *([f"from . import {FLOW_MODULE}  # noqa: E402", f"FLOW = {FLOW_MODULE}.FLOW",
                f"BOTS = {FLOW_MODULE}.BOTS"] if has_flow else []),
             ""]
    src = "\n".join(lines)
    _compiles(src, f"{vocab.game}/__init__.py")
    return src


@lru_cache(maxsize=64)
def _compiles(src: str, name: str) -> None:
    """compile() a game's __init__.py, once per distinct text (watch mode makes the same one every save)."""
    compile(src, name, "exec")


# --- writing ---------------------------------------------------------------------------------------


def stale_files(result: BuildResult, out_dir: Path) -> list[str]:
    """Generated files that differ from (or are missing in, or are extra in) ``out_dir``."""
    stale = []
    for rel, text in sorted(result.outputs.items()):
        p = out_dir / rel
        if not p.is_file() or p.read_text(encoding="utf-8") != text:
            stale.append(rel)
    for game in result.games:
        gdir = out_dir / game
        if gdir.is_dir():
            for p in sorted(gdir.glob("*.py")):
                rel = f"{game}/{p.name}"
                if rel not in result.outputs:
                    stale.append(rel + " (no longer generated)")
    return stale


def _write_order(item: tuple[str, str]) -> tuple:
    """Modules before the ``__init__.py`` that imports them, the top package last: a build killed
    between two renames leaves at worst new modules that nothing imports yet, never an
    ``__init__.py`` importing a module that is not there."""
    rel = item[0]
    is_init = rel.rsplit("/", 1)[-1] == "__init__.py"
    return (is_init, -rel.count("/"), rel)


def _file_mode() -> int:
    """0666 less the umask, as ``open()`` would create a file (0644 under the usual umask 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_outputs(result: BuildResult, out_dir: Path) -> list[str]:
    """Write changed files atomically; remove files no longer generated. Returns what changed."""
    if not result.ok:
        raise RuntimeError("refusing to write a failed build")
    from .outputs import check_output

    # the caller has checked it already; here too, because below files are deleted: never through a link
    check_output(out_dir)
    changed = []
    out_dir.mkdir(parents=True, exist_ok=True)
    mode = _file_mode()
    for rel, text in sorted(result.outputs.items(), key=_write_order):
        p = out_dir / rel
        if p.is_file() and p.read_text(encoding="utf-8") == text:
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
            os.chmod(tmp, mode)  # mkstemp makes 0600; a generated file is an ordinary one
            os.replace(tmp, p)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        changed.append(rel)
    for game in result.games:
        gdir = out_dir / game
        for p in sorted(gdir.glob("*.py")):
            rel = f"{game}/{p.name}"
            if rel not in result.outputs:
                p.unlink()
                changed.append(rel + " (removed)")
    return changed


# --- a card's source (issue 28, item 4) ------------------------------------------------------------


def declared_source_forms(game_data: dict) -> tuple:
    """The compiled ``source_forms`` of game.yaml (those that compile: vocabulary.check_names reports
    the rest, located)."""
    out = []
    for spec in game_data.get("source_forms") or ():
        if isinstance(spec, dict) and isinstance(spec.get("pattern"), str):
            try:
                out.append(compile_form(spec["pattern"]))
            except FormError:
                pass
    return tuple(out)


def check_card_source(doc, i: int, card, forms: tuple, diags) -> None:
    """A card's ``source`` is of a built-in form or of one the game declares (E401, at the value)."""
    source = card.get("source") if isinstance(card, dict) else None
    if not isinstance(source, str) or source_ok(source, forms):
        return
    path = ("cards", i, "source")
    line, col, src = doc.where(path)
    declared = ", or one of the game's source_forms" if forms else " (a game may declare its own: source_forms)"
    diags.error("E401", f"'{source[:60]}' is not {BUILTIN_WORDS}{declared}",
                file=doc.file, line=line, column=col, length=min(len(source), 60), source_line=src,
                card=card.get("id") if isinstance(card.get("id"), str) else None)
