"""The diagnostics `cardwright validate` gives, for one open file, re-checked card by card.

``compiler/build.py`` is the pipeline; it loads, validates, parses, checks *and emits* every module.
An editor needs the first four on every keystroke and never the fifth, and it needs them for the
text in the editor's buffer, not the file on disk. So this module runs the same stage functions
(``load_text``, ``validate``, ``check_names``, ``check_map``, ``parse_effect``, ``Checker``) in the
same order and with the same rules as ``_compile_game``, without code generation, and keeps what
it found per card:

- a module is split into card *blocks* (the lines from one card's ``- `` to the next card's);
- after an edit that stays inside one block, only that block is read again as YAML (padded with
  blank lines so that PyYAML's line numbers are the file's), only that card is schema-checked and
  only its texts are parsed and checked; every other card's findings are kept (moved down or up by
  the lines the edit added or removed);
- anything else — an edit outside the cards, across two cards, one that adds a card or breaks the
  YAML — takes the full path: the whole buffer is loaded and every card checked (parsing and
  checking are still memoised by text, per game).

Effect-text results are memoised per game by (slot kind, text, has card), plus the set of card ids
when the text says "other than", since only then does the result depend on it.
``tests/test_lsp_checking.py`` holds this module to giving exactly what ``compile_tree`` gives.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

from runtime.engine import engine_of
from runtime.model import GameModel, model_of
from runtime.verbs import verbs_for

from .. import ast as A
from ..build import _PREFIX, GAME_FILE, Unique, check_card_source, check_game_file, declared_source_forms
from ..cardblocks import Block, card_blocks, odd_breaks, reread, stitch
from ..cardids import CardIds, loaded_cards
from ..check import Checker
from ..diagnostics import Diagnostic, Diagnostics, display_path
from ..flow import FlowCompiler, check_quantity, check_reshuffle
from ..loader import Document, load_text, path_text
from ..parser import parse_effect
from ..reach import triggers_that_never_fire
from ..schema import Prepared, load_schema, prepare_cards, validate
from ..vocabulary import check_names



def load_buffer(path: Path, text: str, diags: Diagnostics) -> Document | None:
    """An editor buffer as the loader reads a file (a byte-order mark is dropped, as utf-8-sig does)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return load_text(text, display_path(path), diags, path)


def file_kind(path: Path) -> str | None:
    """'game', 'module' or 'scenario' for a data file of a game folder; None for anything else."""
    if path.suffix != ".yaml":
        return None
    if path.name == GAME_FILE:
        return "game"
    if path.parent.name == "scenarios" and (path.parent.parent / GAME_FILE).is_file():
        return "scenario"
    if (path.parent / GAME_FILE).is_file():
        return "module"
    return None


# --- the game file ---------------------------------------------------------------------------------


class GameContext:
    """One game as its game.yaml (buffer or file) says: the vocabulary, the checker, the card schema,
    the game file's own diagnostics, and the per-game memo of checked texts. Made again whenever
    game.yaml changes; every module of the game is then checked afresh against the new one."""

    def __init__(self, game_dir: Path, text: str):
        self.game_dir = game_dir
        self.text = text
        self.diags = Diagnostics()
        self.gdoc = load_buffer(game_dir / GAME_FILE, text, self.diags)
        self.vocab: GameModel | None = None
        self.usable = False  # True when build.py would go on to the game's modules
        self.memo: dict = {}
        gdoc = self.gdoc
        if gdoc is None or not validate(gdoc, "game", self.diags) or not check_names(gdoc, self.diags):
            return
        vocab = self.vocab = model_of(gdoc.data)
        # the checks compiler/build.py's _compile_game makes before the modules, the same function
        if not check_game_file(gdoc, vocab, game_dir, self.diags):
            return
        verbs = verbs_for(vocab.engine)
        # a game's verb aliases complete, hover and lead to their verb like the verb itself (issue 28)
        self.verbs = {**verbs, **{alias: verbs[verb] for alias, verb in vocab.verb_aliases.items() if verb in verbs}}
        self.checker = Checker(vocab, self.verbs)
        self.cschema = prepare_cards(gdoc.data)
        self.source_forms = declared_source_forms(gdoc.data)  # a card's source, as the build checks it
        self.items = _card_items()
        self.usable = True


def _card_items() -> Prepared:
    """The generic module schema's schema of one card (it has no $refs, so it stands alone)."""
    global _ITEMS
    if _ITEMS is None:
        _ITEMS = Prepared(load_schema("module")["properties"]["cards"]["items"])
    return _ITEMS


_ITEMS: Prepared | None = None


def check_scenario(path: Path, text: str) -> tuple[list[Diagnostic], Document | None]:
    """A scenario file's load and schema diagnostics (running it needs the compiled game: `run`)."""
    diags = Diagnostics()
    doc = load_buffer(path, text, diags)
    if doc is not None:
        validate(doc, "scenario", diags)
    return diags.sorted(), doc


# --- modules ---------------------------------------------------------------------------------------


@dataclass
class _Card(Block):
    """A card's block (compiler/cardblocks.py) and what was found in it."""

    schema: list | None = None  # its schema diagnostics
    texts: list | None = None  # its effect-text diagnostics (None: not checked yet)
    ids_dependent: bool = False  # a text says "other than": its result depends on the card ids


@dataclass
class ModuleResult:
    diagnostics: list[Diagnostic]
    mode: str  # "full", "card" (one card's block re-read) or "none" (the game cannot be checked)
    doc: Document | None


class ModuleChecker:
    """One module file, checked as compiler/build.py checks it, remembered card by card."""

    def __init__(self, path: Path):
        self.path = path
        self.file = display_path(path)
        self.ctx: GameContext | None = None
        self.earlier: dict | None = None
        self.earlier_whole = True  # every earlier module's cards could be read (compiler/cardids.py)
        self._shape: tuple | None = None  # the module's ids, card count and keys when _own_whole was found
        self._own_whole = True
        self.text: str | None = None
        self.lines: list[str] = []
        self.doc: Document | None = None
        self.cards: list[_Card] = []
        self.top: list[Diagnostic] = []
        self.card_ids: frozenset = frozenset()
        self.rules: list | None = None
        self.incremental = False  # the last full load's card blocks can be re-read one by one

    def check(self, text: str, ctx: GameContext, earlier: dict[str, str], earlier_whole: bool = True) -> ModuleResult:
        """Diagnostics for ``text``. ``earlier``: card id -> "file:line" of the game's modules that
        come before this one (build order: sorted file names), for duplicate ids and "other than";
        ``earlier_whole``: False when one of those modules could not be read."""
        if earlier_whole != self.earlier_whole:
            self.earlier_whole = earlier_whole
            self.card_ids = frozenset()  # "other than" texts are checked again (``_collect``)
        if not ctx.usable:
            self._forget()
            diags = Diagnostics()
            doc = load_buffer(self.path, text, diags)
            if doc is not None:
                validate(doc, "module", diags)
            return ModuleResult(diags.sorted(), "none", doc)
        if (self.incremental and ctx is self.ctx and earlier == self.earlier and self.text is not None
                and not odd_breaks(text)):
            if text == self.text:
                return ModuleResult(self._collect(), "card", self.doc)
            if self._edit_one_card(text):
                return ModuleResult(self._collect(), "card", self.doc)
        return self._full(text, ctx, earlier)

    def _forget(self) -> None:
        self.ctx = None
        self.text = None
        self.doc = None
        self.cards = []
        self.rules = None
        self.card_ids = frozenset()
        self.incremental = False

    # --- the full path ------------------------------------------------------------------------
    def _full(self, text: str, ctx: GameContext, earlier: dict) -> ModuleResult:
        self._forget()
        diags = Diagnostics()
        doc = load_buffer(self.path, text, diags)
        if doc is None:
            return ModuleResult(diags.sorted(), "full", None)
        data = doc.data
        if not isinstance(data, dict) or not isinstance(data.get("cards", []), (list, type(None))):
            validate(doc, "module", diags)  # nothing more is checked (build.py's _usable)
            return ModuleResult(diags.sorted(), "full", doc)
        self.ctx, self.earlier, self.doc, self.text = ctx, dict(earlier), doc, text
        self.lines = text.split("\n")
        cards = data.get("cards") or []
        self.cards = self._blocks(doc, cards)
        self.incremental = self.cards is not None and not odd_breaks(text)
        if self.cards is None:
            self.cards = [_Card(0, 0) for _ in cards]
        self.top = self._module_level(doc)
        for i, card in enumerate(cards):
            self.cards[i].schema = self._card_schema(doc, i, card)
        return ModuleResult(self._collect(), "full", doc)

    def _blocks(self, doc: Document, cards: list) -> list[_Card] | None:
        """Each card's block (compiler/cardblocks.py); None when the cards are not written one "- "
        line each in a block sequence (then every edit takes the full path)."""
        return card_blocks(doc, self.lines, _Card)

    def _module_level(self, doc: Document) -> list[Diagnostic]:
        """What is not one card's: the module's own fields, its map, its rules' texts."""
        diags = Diagnostics()
        data = doc.data
        # the cards are checked one by one (``_card_schema``); a ``cards`` that is not a list is the
        # module's own problem ("expected a list, found nothing"), reported here
        view = dataclasses.replace(doc, data={**data, "cards": []}) if isinstance(data.get("cards"), list) else doc
        validate(view, "module", diags)
        ctx = self.ctx
        if isinstance(data.get("map"), dict) and validate(doc, "map", diags, ("map",)):
            # the game's map format is its engine's, as in the build (compiler/build.py)
            engine_of(ctx.gdoc.data).check_map(data["map"], ctx.gdoc.data, doc.reporter(diags, ("map",), "E601"))
        return list(diags)

    def _rules(self, doc: Document) -> list[Diagnostic]:
        diags = Diagnostics()
        rule_texts = doc.data.get("rules") if isinstance(doc.data.get("rules"), dict) else {}
        for rname, text in rule_texts.items():
            if isinstance(text, str):
                check_slot(self.ctx, doc, ("rules", rname), text, None, "effect", self.card_ids, diags)
        return list(diags)

    def _card_schema(self, doc: Document, i: int, card) -> list[Diagnostic]:
        diags = Diagnostics()
        validate(doc, self.ctx.items, diags, ("cards", i))
        if isinstance(card, dict):
            validate(doc, self.ctx.cschema, Unique(diags), ("cards", i))
            check_card_source(doc, i, card, self.ctx.source_forms, diags)
        return list(diags)

    def _card_texts(self, doc: Document, i: int, card: dict, state: _Card) -> list[Diagnostic]:
        diags = Diagnostics()
        state.ids_dependent = False
        for path, text, slot_kind in card_texts(self.ctx.vocab, card, i):
            state.ids_dependent |= _names_cards(text)
            # the card's id as written (a number stays one), as build.py's _compile_card passes it
            check_slot(self.ctx, doc, path, text, card.get("id"), slot_kind, self.card_ids, diags)
        return list(diags)

    # --- putting it together (both paths) ------------------------------------------------------
    def _collect(self) -> list[Diagnostic]:
        """Every diagnostic of the module: the per-card ones kept, the duplicate-id pass (cheap, and
        it decides whose texts are checked) and the rules made again."""
        doc = self.doc
        cards = doc.data.get("cards") or []
        own = frozenset(c.get("id") for c in cards if isinstance(c, dict))
        shape = (own, len(cards), tuple(doc.data))  # what loaded_cards' answer depends on, cheaply compared
        if shape != self._shape:  # a keystroke in one card's text changes none of it: not read again
            self._shape, self._own_whole = shape, loaded_cards(doc.data)[1]
        ids = CardIds(own | frozenset(self.earlier),
                      self.earlier_whole and self._own_whole and self.earlier.keys().isdisjoint(own))
        if ids != self.card_ids:
            self.card_ids = ids
            for c in self.cards:
                if c.ids_dependent:
                    c.texts = None
            self.rules = None
        if self.rules is None:
            self.rules = self._rules(doc)
        out = list(self.top)
        seen: dict[str, int | str] = dict(self.earlier)  # id -> "file:line" (earlier modules) or card index
        for i, card in enumerate(cards):
            state = self.cards[i]
            if state.schema:
                out += state.schema
            if type(card) is not dict:
                continue
            cid = card.get("id")
            if type(cid) is str:
                first = seen.get(cid)
                if first is not None:  # the line of the first place is looked up only for a duplicate
                    where = first if type(first) is str else f"{doc.file}:{self._id_line(first)}"
                    line, col, src = doc.where(("cards", i, "id"))
                    out.append(Diagnostic("E202", f"card id '{cid}' is already used at {where}",
                                          file=doc.file, line=line, column=col, length=len(cid), card=cid,
                                          source_line=src))
                    continue
                seen[cid] = i
            if state.texts is None:
                state.texts = self._card_texts(doc, i, card, state)
            if state.texts:
                out += state.texts
        out += self.rules
        return Diagnostics(out).sorted()

    def _id_line(self, i: int) -> int:
        t = dict.get(self.doc.positions, ("cards", i, "id"))
        return t[0] + 1 if t is not None else 1

    # --- the one-card path ---------------------------------------------------------------------
    def _edit_one_card(self, text: str) -> bool:
        """Re-read only the card whose block holds every changed line. False: take the full path."""
        new = text.split("\n")
        found = reread(self.doc, self.cards, self.lines, new, self.file, self.path)
        if found is None:
            return False
        i, part, delta = found
        try:
            self._stitch(i, part, text, new, delta)
        except Exception:
            self._forget()  # half-stitched tables must never be read again: the next check is a full one
            raise
        return True

    def _stitch(self, i: int, part: Document, text: str, lines: list[str], delta: int) -> None:
        """The module's document for ``text`` (compiler/cardblocks.py ``stitch``), every later card's
        findings moved by ``delta`` lines, card ``i``'s schema checked again and its texts marked."""
        card = self.cards[i]
        boundary = card.end  # old lines from here on move by delta
        self.doc = stitch(self.doc, self.cards, i, part, text, delta)
        self.text, self.lines = text, lines
        if delta:
            for c in self.cards[i + 1:]:
                c.schema = _moved(c.schema, boundary, delta)
                c.texts = _moved(c.texts, boundary, delta)
            self.top = _moved(self.top, boundary, delta)
            self.rules = _moved(self.rules, boundary, delta)
        card.schema = self._card_schema(self.doc, i, part.data[0])
        card.texts = None


def _moved(diags: list | None, boundary: int, delta: int) -> list | None:
    """Diagnostics at or after 0-based line ``boundary`` moved by ``delta`` lines."""
    if not diags:
        return diags
    return [dataclasses.replace(d, line=d.line + delta) if d.line is not None and d.line - 1 >= boundary else d
            for d in diags]


# --- one card's texts, one text ------------------------------------------------------------------


def card_texts(vocab: GameModel, card: dict, i: int):
    """(path, text, slot kind) of every effect text of card ``i``, as compiler/build.py finds them."""
    kind = card.get("kind")
    spec = vocab.kinds.get(kind) if isinstance(kind, str) else None
    if spec is None:
        return
    for key, value in card.items():
        slot, face = spec.slot(key), spec.face(key)
        if slot is not None and isinstance(value, str):
            yield ("cards", i, key), value, slot.kind
        elif face is not None and isinstance(value, dict):
            for fk, fv in value.items():
                fslot = face.slot(fk)
                if fslot is not None and isinstance(fv, str):
                    yield ("cards", i, key, fk), fv, fslot.kind


def check_slot(ctx: GameContext, doc: Document, path: tuple, text: str, card: str | None, slot_kind: str,
               card_ids: frozenset, diags: Diagnostics) -> None:
    """Parse and check one effect text (compiler/build.py's _compile_slot without the emitting),
    reporting at the file's line and column of each problem."""
    prefix = _PREFIX.get(slot_kind, "")
    where = path_text(path)

    def report(code: str, message: str, span: A.Span, hint: str | None = None, length: int | None = None):
        off = max(0, span.start - len(prefix))
        line, col, src = doc.where(path, off)
        diags.error(code, message, file=doc.file, line=line, column=col,
                    length=length or max(1, span.end - span.start), card=card, path=where, hint=hint,
                    source_line=src)

    for args in problems_of(ctx, text, slot_kind, card is not None, card_ids):
        report(*args)


def problems_of(ctx: GameContext, text: str, slot_kind: str, has_card: bool, card_ids: frozenset) -> list[tuple]:
    """The (code, message, span, hint[, length]) problems of one text, memoised per game."""
    key = (slot_kind, text, has_card, card_ids if _names_cards(text) else None)
    found = ctx.memo.get(key)
    if found is not None:
        return found
    prefix = _PREFIX.get(slot_kind, "")
    effect, problem = parse_effect(prefix + text)
    if problem is not None:
        found = [(problem.code, problem.message, A.Span(problem.offset, problem.offset + problem.length))]
    elif slot_kind == "quantity" and (wrong := check_quantity(effect)):
        found = [("E311", wrong, A.Span(len(prefix), len(prefix) + len(text)))]
    else:
        found = []
        checker = ctx.checker
        checker.card_ids = card_ids
        # a quantity is checked as the effect "x is …", as compiler/build.py checks it
        checker.check(effect, lambda *args: found.append(args), kind="effect" if slot_kind == "quantity" else slot_kind,
                      has_card=has_card)
    ctx.memo[key] = found
    return found


def check_game_texts(ctx: GameContext, card_ids: frozenset) -> list[Diagnostic]:
    """game.yaml's own texts — the flow (setup, phases, actions, end, scoring) and bots.greedy — and
    the flow's names (actions, zones, setup cards), checked as compiler/build.py's _compile_flow
    checks them, without emitting: the same FlowCompiler, its texts through check_slot."""
    diags = Diagnostics()
    gdoc = ctx.gdoc
    if not ctx.usable or gdoc is None:
        return []
    check_reshuffle(gdoc, diags)
    triggers_that_never_fire(gdoc, diags)
    if not isinstance(gdoc.data.get("flow"), dict) and not isinstance(gdoc.data.get("bots"), dict):
        return diags.sorted()

    def compile_text(path, text, kind, fname):
        before = len(diags.errors)
        check_slot(ctx, gdoc, path, text, None, kind, card_ids, diags)
        return None if len(diags.errors) > before else fname

    fc = FlowCompiler(gdoc, gdoc.data, card_ids, compile_text, diags)
    if isinstance(gdoc.data.get("flow"), dict):
        fc.table()
    fc.bots()
    return diags.sorted()


_OTHER_THAN = re.compile(r"other\s+than", re.IGNORECASE)


def _names_cards(text: str) -> bool:
    """True when a text may name card ids ("other than <card>"): only its check reads them."""
    return _OTHER_THAN.search(text) is not None
