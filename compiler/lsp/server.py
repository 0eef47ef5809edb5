"""The language server: pygls wiring over compiler/lsp's protocol-free parts.

Diagnostics are published for every open data file (game.yaml, modules, scenarios) when it is
opened, after every change (debounced: ``debounceMs`` in the client's initialization options,
default 100 ms), and when it is saved; a change to game.yaml re-checks every open file of its game,
a module's change the open modules built after it (their duplicate ids). Each LSP diagnostic
carries the stable code, the message with its card and its did-you-mean, and the exact range of
the bad word (effect-text offsets mapped back through the YAML scalar, quoted or folded).

A handler never lets an exception out: whatever a malformed file does to a stage, the server logs
it (window/logMessage) and answers with nothing, so the editor's session goes on.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import re
import traceback
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from ..diagnostics import Diagnostic
from . import complete, navigate
from .checking import file_kind
from .locate import EffectAt, effect_at, offset_at, spot_at, word_at
from .project import Project

log = logging.getLogger(__name__)

SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "information": types.DiagnosticSeverity.Information, "hint": types.DiagnosticSeverity.Hint}
ITEM_KINDS = {"verb": types.CompletionItemKind.Function, "keyword": types.CompletionItemKind.Keyword,
              "name": types.CompletionItemKind.Constant, "variable": types.CompletionItemKind.Variable,
              "field": types.CompletionItemKind.Field, "slot": types.CompletionItemKind.Property,
              "kind": types.CompletionItemKind.Class, "card": types.CompletionItemKind.Reference}


class CardwrightServer(LanguageServer):
    def __init__(self):
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("cardwright")
        except PackageNotFoundError:  # pragma: no cover - a checkout that was never installed
            v = "0"
        super().__init__("cardwright", v)
        self.project = Project()
        self.debounce = 0.1
        self.uris: dict[Path, str] = {}
        self.pending: dict[Path, asyncio.TimerHandle] = {}
        self.write_schemas = True  # initialization option writeSchemas

    # --- helpers ------------------------------------------------------------------------------
    def path_of(self, uri: str) -> Path:
        path = Path(to_fs_path(uri) or uri).absolute()
        self.uris.setdefault(path, uri)
        return path

    def lines_of(self, path: Path) -> list[str]:
        text = self.project.text_of(path)
        return (text or "").split("\n")

    def client_range(self, path: Path, line: int, start: int, end: int, lines: list[str] | None = None) -> types.Range:
        lines = self.lines_of(path) if lines is None else lines
        codec = self.workspace.position_codec
        return codec.range_to_client_units(lines, types.Range(types.Position(line, start), types.Position(line, end)))

    def server_position(self, path: Path, pos: types.Position) -> tuple[int, int]:
        p = self.workspace.position_codec.position_from_client_units(self.lines_of(path), pos)
        return p.line, p.character

    def to_lsp(self, path: Path, d: Diagnostic, lines: list[str]) -> types.Diagnostic:
        line = max(0, (d.line or 1) - 1)
        col = max(0, (d.column or 1) - 1)
        text = lines[line] if line < len(lines) else ""
        end = min(col + max(1, d.length), len(text)) if col < len(text) else col
        message = d.message + (f" in card '{d.card}'" if d.card is not None else "") + \
            (f" ({d.hint})" if d.hint else "")
        fix = navigate.replacement(d.hint)
        return types.Diagnostic(range=self.client_range(path, line, col, end, lines), message=message, code=d.code or None,
                                source="cardwright", severity=SEVERITY.get(d.severity, types.DiagnosticSeverity.Error),
                                data={"replacement": fix} if fix else None)

    def publish(self, path: Path) -> None:
        uri = self.uris.get(path) or from_fs_path(str(path))
        try:
            found = self.project.check(path).diagnostics
            lines = self.lines_of(path)  # once: a big module's text is not split per diagnostic
            diagnostics = [self.to_lsp(path, d, lines) for d in found]
        except Exception:  # noqa: BLE001 - a stage's bug on a strange file must not end the session
            self.log(f"cardwright could not check {path}:\n{traceback.format_exc()}")
            diagnostics = [types.Diagnostic(range=types.Range(types.Position(0, 0), types.Position(0, 1)),
                                            message="cardwright could not check this file (an internal error; "
                                            "see the language server's log)", source="cardwright",
                                            severity=types.DiagnosticSeverity.Warning)]
        version = None
        if path in self.project.buffers:  # which text the diagnostics are of, so a client can drop stale ones
            version = getattr(self.workspace.text_documents.get(uri), "version", None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics,
                                                                             version=version))

    def cancel_pending(self, path: Path) -> None:
        """Drop the debounced check still waiting for ``path``, if any."""
        handle = self.pending.pop(path, None)
        if handle is not None:
            handle.cancel()

    def refresh(self, path: Path) -> None:
        """Check and publish a file and the open files that depend on it."""
        self.cancel_pending(path)  # a debounced check still waiting: this one does its work
        self.publish(path)
        for dep in self.project.dependents(path):
            self.publish(dep)

    def schedule(self, path: Path) -> None:
        self.cancel_pending(path)
        loop = asyncio.get_event_loop()
        self.pending[path] = loop.call_later(self.debounce, guarded(lambda: self.refresh(path)))

    def log(self, message: str) -> None:
        log.error(message)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))
        except Exception:  # noqa: BLE001 - no client to tell
            pass

    def update_schema(self, game_dir: Path) -> None:
        """After game.yaml is saved: rewrite the game's per-game schema (what its modules' modelines
        name, data/schema/games/<game>.module.schema.json) — only where the data folder already has
        one (`cardwright new game` writes it), and only from a game.yaml that checks clean, so the YAML
        language server's card checks follow the game's kinds. ``writeSchemas: false`` turns it off."""
        from ..schemaexport import game_schema_path, write_game_schema

        ctx = self.project.context(game_dir)
        if not self.write_schemas or not ctx.usable or ctx.diags.errors:
            return
        if game_schema_path(game_dir.parent, ctx.vocab.game).is_file():
            write_game_schema(game_dir.parent, ctx.gdoc.data)

    def sync(self, uri: str) -> Path:
        """Hand the project the text the workspace now holds for ``uri`` (after a change or a save)."""
        path = self.path_of(uri)
        self.project.set_text(path, self.workspace.get_text_document(uri).source)
        return path

    def current(self, path: Path):
        """The check of the buffer as it is now (a pending debounced check is done at once)."""
        if path in self.pending:  # the change a request comes after is checked (and published) first
            self.refresh(path)
        elif path not in self.project.checked:
            self.project.check(path)
        return self.project.checked.get(path)


def guarded(fn):
    """Run a handler; log any exception and answer None instead of letting it out."""
    @functools.wraps(fn)
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:  # noqa: BLE001 - see the module docstring
            server.log(f"cardwright: {getattr(fn, '__name__', 'handler')} failed:\n{traceback.format_exc()}")
            return None
    return run


server = CardwrightServer()


@server.feature(types.INITIALIZE)
@guarded
def initialize(ls: CardwrightServer, params: types.InitializeParams):
    options = params.initialization_options or {}
    if isinstance(options, dict):
        ms = options.get("debounceMs")
        if isinstance(ms, (int, float)) and 0 <= ms <= 10_000:
            ls.debounce = ms / 1000
        ls.write_schemas = bool(options.get("writeSchemas", True))


@server.feature(types.INITIALIZED)
@guarded
def initialized(ls: CardwrightServer, params: types.InitializedParams):
    """Ask to hear of data files changed outside the editor (a git checkout, another tool), where
    the client can watch files for a server."""
    caps = ls.client_capabilities.workspace
    watched = getattr(caps, "did_change_watched_files", None) if caps is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern="**/*.yaml")])
    ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
        id="cardwright-yaml-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guarded
def watched_files_changed(ls: CardwrightServer, params: types.DidChangeWatchedFilesParams):
    """A data file changed on disk: every open file of its game is checked again (an open file's
    own buffer is what counts for it; the others are read from disk by their new stamps)."""
    games = set()
    for change in params.changes:
        path = ls.path_of(change.uri)
        game_dir = ls.project.game_dir_of(path)
        if game_dir is not None:
            games.add(game_dir)
    for game_dir in sorted(games):
        for path in ls.project.open_files_of(game_dir):
            ls.publish(path)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded
def did_open(ls: CardwrightServer, params: types.DidOpenTextDocumentParams):
    path = ls.path_of(params.text_document.uri)
    ls.project.set_text(path, params.text_document.text)
    ls.refresh(path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@guarded
def did_change(ls: CardwrightServer, params: types.DidChangeTextDocumentParams):
    ls.schedule(ls.sync(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@guarded
def did_save(ls: CardwrightServer, params: types.DidSaveTextDocumentParams):
    path = ls.sync(params.text_document.uri)
    if file_kind(path) == "game":  # before the diagnostics go out: a client sees both together
        ls.update_schema(path.parent)
    ls.refresh(path)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded
def did_close(ls: CardwrightServer, params: types.DidCloseTextDocumentParams):
    path = ls.path_of(params.text_document.uri)
    ls.cancel_pending(path)
    ls.project.close(path)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))
    for dep in ls.project.dependents(path):
        ls.publish(dep)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" "]))
@guarded
def completion(ls: CardwrightServer, params: types.CompletionParams):
    path = ls.path_of(params.text_document.uri)
    line, col = ls.server_position(path, params.position)
    kind = file_kind(path)
    if kind not in ("module", "scenario", "game"):
        return None
    checked = ls.current(path)
    game_dir = ls.project.game_dir_of(path)
    ctx = ls.project.context(game_dir)
    ids = sorted(navigate.card_declarations(ls.project, game_dir))
    doc = checked.doc if checked is not None else None
    lines = ls.lines_of(path)
    line_text = lines[line] if line < len(lines) else ""
    if kind in ("module", "game") and ctx.vocab is not None and ctx.usable:
        # a game.yaml's flow texts are effect texts too (compiler/lsp/locate.py game_texts)
        eff = effect_at(doc, ctx.vocab, line, col) if doc is not None else \
            _effect_on_line(ctx, line_text, col) if kind == "module" else None
        if eff is not None:
            start, items = complete.effect_completions(eff.text, eff.offset, ctx.vocab, ctx.verbs, eff.slot_kind, ids)
            start_col = col - (eff.offset - start)
            return _items(ls, path, line, start_col, col, items)
    if kind == "game":
        return None  # its keys are the JSON Schema's: a YAML language server completes them
    # a key being typed does not load as YAML ("    ro"): the card is found in the last text that did
    shape = doc if doc is not None else ls.project.last_loaded.get(path)
    card, card_col, faces = _card_at(shape, line) if shape is not None else (None, None, {})
    start, items = complete.yaml_completions(kind, line_text, col, card, card_col, ctx.vocab, ids, faces)
    return _items(ls, path, line, start, col, items)


def _effect_on_line(ctx, line_text: str, col: int):
    """While the YAML does not load (a half-typed line), an effect slot is still recognised on the
    cursor's line: ``<slot>: <text>`` with the key a slot of some card kind."""
    m = re.match(r"^\s*(?:- +)?([a-z_][a-z0-9_]*): +(['\"]?)", line_text)
    if m is None or col < m.end():
        return None
    slots = {sl.key: sl.kind for spec in ctx.vocab.kinds.values() for sl in spec.slots}
    if m.group(1) not in slots:
        return None
    text = line_text[m.end():col]
    return EffectAt((), text, slots[m.group(1)], None, len(text))


def _card_at(doc, line: int):
    """The card whose block holds ``line``, the column its keys start at, and its faces written as
    mappings above ``line`` (face -> (line, column) of the face's keys)."""
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    best = (None, None, {})
    for i, card in enumerate(cards if isinstance(cards, list) else ()):
        pos = doc.positions.get(("cards", i))
        if pos is None or pos.line > line:
            break
        faces = {}
        for key, value in (card.items() if isinstance(card, dict) else ()):
            fpos = doc.positions.get(("cards", i, key)) if isinstance(value, dict) else None
            if fpos is not None and fpos.line <= line:
                faces[key] = (fpos.line, fpos.column)
        best = (card if isinstance(card, dict) else None, pos.column, faces)
    return best


def _items(ls, path: Path, line: int, start: int, col: int, items) -> types.CompletionList:
    rng = ls.client_range(path, line, start, col)
    out = [types.CompletionItem(label=it.label, kind=ITEM_KINDS.get(it.kind), detail=it.detail or None,
                                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=it.doc)
                                if it.doc else None,
                                text_edit=types.TextEdit(range=rng, new_text=it.label), sort_text=f"{k:04d}")
           for k, it in enumerate(items)]
    return types.CompletionList(is_incomplete=False, items=out)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded
def hover(ls: CardwrightServer, params: types.HoverParams):
    path = ls.path_of(params.text_document.uri)
    line, col = ls.server_position(path, params.position)
    checked = ls.current(path)
    if checked is None or checked.doc is None or checked.kind not in ("module", "scenario", "game"):
        return None
    game_dir = ls.project.game_dir_of(path)
    ctx = ls.project.context(game_dir)
    if not ctx.usable:
        return None
    doc = checked.doc
    eff = effect_at(doc, ctx.vocab, line, col) if checked.kind in ("module", "game") else None
    if eff is not None:
        ids = _checker_ids(ls, path, ctx) or frozenset(navigate.card_declarations(ls.project, game_dir))
        text = navigate.hover_effect(ctx, eff, ids)
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
    spot = spot_at(doc, line, col)
    cards = navigate.card_declarations(ls.project, game_dir)
    if spot is not None and not spot.is_key and isinstance(spot.value, str) and spot.value in cards \
            and _names_a_card(checked.kind, spot.path):
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value=navigate.describe_card(ls.project, cards[spot.value],
                                                                                     spot.value)))
    if spot is not None and not spot.is_key and spot.path[-1:] == ("kind",) and isinstance(spot.value, str):
        spec = ctx.vocab.kinds.get(spot.value)
        if spec is not None:
            at = navigate.kind_declaration(ctx, spot.value)
            text = f"**{spot.value}** — card kind: {spec.declared or spot.value}" + \
                (f"\n\ndeclared in game.yaml, line {at[0] + 1}" if at else "")
            return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))
    return None


def _at_cursor(ls, params):
    """(path, line, column, the file's current check, its game folder) at a request's position, or
    None when the file has no parsed document or belongs to no game."""
    path = ls.path_of(params.text_document.uri)
    line, col = ls.server_position(path, params.position)
    checked = ls.current(path)
    game_dir = ls.project.game_dir_of(path)
    if checked is None or checked.doc is None or game_dir is None:
        return None
    return path, line, col, checked, game_dir


def _checker_ids(ls, path: Path, ctx) -> frozenset | None:
    checker = ls.project.modules.get(path)
    return checker.card_ids if checker is not None and checker.ctx is ctx else None


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded
def definition(ls: CardwrightServer, params: types.DefinitionParams):
    at = _at_cursor(ls, params)
    if at is None:
        return None
    path, line, col, checked, game_dir = at
    ctx = ls.project.context(game_dir)
    if not ctx.usable:
        return None
    doc = checked.doc
    game_file = game_dir / "game.yaml"
    eff = effect_at(doc, ctx.vocab, line, col) if checked.kind in ("module", "game") else None
    if eff is not None:
        cards = navigate.card_declarations(ls.project, game_dir)
        word = _word(eff.text, eff.offset)
        if word in cards and "other than" in eff.text.lower():
            return _location(ls, cards[word])
        verb_at = navigate.verb_source(ctx, eff.text, eff.offset)
        if verb_at is not None:  # a verb: the runtime function that is it
            return _location(ls, verb_at)
        name = navigate.name_at(eff.text, eff.offset, ctx.vocab)
        if name is not None:
            for cat, key in name.entries:
                at = navigate.declaration(ctx, cat, key)
                if at is not None:
                    return _location(ls, navigate.Place(game_file, at[0], at[1], at[1] + at[2]))
        return None
    spot = spot_at(doc, line, col)  # only off an effect text (effect_at looks the spot up for itself)
    if spot is not None and not spot.is_key and isinstance(spot.value, str):
        if spot.path[-1:] == ("kind",):
            at = navigate.kind_declaration(ctx, spot.value)
            if at is not None:
                return _location(ls, navigate.Place(game_file, at[0], at[1], at[1] + at[2]))
        cards = navigate.card_declarations(ls.project, game_dir)
        if spot.value in cards and _names_a_card(checked.kind, spot.path):
            return _location(ls, cards[spot.value])
    return None


def _names_a_card(kind: str, path: tuple) -> bool:
    """A value that is a card id: a card's ``id``, a step's ``card``, an entry of a scenario's zone list."""
    return path[-1] in ("id", "card") or (kind == "scenario" and isinstance(path[-1], int))


def _word(text: str, offset: int) -> str:
    span = word_at(text.lower(), offset)
    return text.lower()[span[0]:span[1]] if span else ""


def _location(ls, place) -> types.Location:
    place_path = Path(place.path).absolute()
    uri = ls.uris.get(place_path) or from_fs_path(str(place_path))
    return types.Location(uri=uri, range=ls.client_range(place_path, place.line, place.col, place.end))


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded
def references(ls: CardwrightServer, params: types.ReferenceParams):
    at = _at_cursor(ls, params)
    if at is None:
        return None
    path, line, col, checked, game_dir = at
    doc = checked.doc
    cards = navigate.card_declarations(ls.project, game_dir)
    spot = spot_at(doc, line, col)
    card_id = None
    if spot is not None and not spot.is_key and isinstance(spot.value, str):
        if spot.value in cards and _names_a_card(checked.kind, spot.path):
            card_id = spot.value
        elif "other than" in spot.value.lower():  # "… other than oil_rig" in an effect text
            word = _word(spot.value, offset_at(doc, spot, line, col))
            card_id = word if word in cards else None
    if card_id is None:
        return None
    places = navigate.references(ls.project, game_dir, card_id)
    if not params.context.include_declaration:
        places = [p for p in places if p != cards[card_id]]
    return [_location(ls, p) for p in places]


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
@guarded
def code_action(ls: CardwrightServer, params: types.CodeActionParams):
    actions = []
    for d in params.context.diagnostics:
        if d.source != "cardwright" or not isinstance(d.data, dict) or not d.data.get("replacement"):
            continue
        new = str(d.data["replacement"])
        edit = types.WorkspaceEdit(changes={params.text_document.uri: [types.TextEdit(range=d.range, new_text=new)]})
        actions.append(types.CodeAction(title=f"Change to '{new}'", kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[d], edit=edit, is_preferred=True))
    return actions


def main() -> None:
    """Serve on stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING)
    server.start_io()
