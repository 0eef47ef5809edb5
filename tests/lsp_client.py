"""A real LSP client for the tests: pygls's ``LanguageClient`` talking JSON-RPC over the stdio of a
``cardwright lsp`` subprocess (the installed command), driven synchronously from a test through an
event loop the session owns."""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 30.0  # seconds a test waits for an answer on a loaded machine before it fails


def server_command() -> list[str]:
    exe = shutil.which("cardwright", path=str(Path(sys.executable).parent))
    if exe:
        return [exe, "lsp"]
    return [sys.executable, "-c", "import sys; from cli import main; sys.argv = ['cardwright', 'lsp']; main()"]


class Session:
    """One language server process and a client connected to it."""

    def __init__(self, cwd: Path, options: dict | None = None):
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("cardwright-tests", "1")
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.published: dict[str, int] = {}
        self.published_version: dict[str, int | None] = {}
        self.versions: dict[str, int] = {}
        self.logs: list[str] = []
        self._changed = asyncio.Event()

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams):
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.published[params.uri] = self.published.get(params.uri, 0) + 1
            self.published_version[params.uri] = params.version
            self._changed.set()

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams):
            self.logs.append(params.message)

        cmd = server_command()
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.run(self.client.start_io(cmd[0], *cmd[1:], cwd=str(cwd), env=env))
        self.run(self.client.initialize_async(types.InitializeParams(
            process_id=os.getpid(), root_uri=from_fs_path(str(cwd)),
            capabilities=types.ClientCapabilities(),
            initialization_options=options or {"debounceMs": 20})))
        self.client.initialized(types.InitializedParams())

    def run(self, coro, timeout: float = TIMEOUT):
        return self.loop.run_until_complete(asyncio.wait_for(coro, timeout))

    # --- documents ----------------------------------------------------------------------------
    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        text = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri] = 1
        seen = self.published.get(uri, 0)
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        self.wait_for(uri, seen)
        return uri

    def change(self, uri: str, text: str) -> list[types.Diagnostic]:
        """Replace the whole text; the diagnostics published after it. A document this session has
        not opened yet is opened with the text (a test may run alone, without the one that opened it)."""
        if uri not in self.versions:
            path = Path(to_fs_path(uri))
            self.open(path, text)
            return list(self.diagnostics.get(uri, []))
        return self._did_change(uri, types.TextDocumentContentChangeWholeDocument(text=text))

    def edit(self, uri: str, line: int, start: int, end: int, new: str) -> list[types.Diagnostic]:
        """An incremental change of one range, as editors send while typing."""
        rng = types.Range(types.Position(line, start), types.Position(line, end))
        return self._did_change(uri, types.TextDocumentContentChangePartial(range=rng, text=new))

    def _did_change(self, uri: str, change) -> list[types.Diagnostic]:
        """Send one change as the document's next version; the diagnostics published after it."""
        self.versions[uri] += 1
        seen = self.published.get(uri, 0)
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]), [change]))
        return self.wait_for(uri, seen)

    def save(self, uri: str) -> list[types.Diagnostic]:
        seen = self.published.get(uri, 0)
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri)))
        return self.wait_for(uri, seen)

    def wait_for(self, uri: str, seen: int) -> list[types.Diagnostic]:
        """The diagnostics of the first publication after ``seen`` that is of the text last sent."""
        def fresh() -> bool:
            if self.published.get(uri, 0) <= seen:
                return False
            version = self.published_version.get(uri)
            return version is None or uri not in self.versions or version >= self.versions[uri]

        async def until():
            while not fresh():
                self._changed.clear()
                await self._changed.wait()
        self.run(until())
        return self.diagnostics[uri]

    # --- requests -----------------------------------------------------------------------------
    def completion(self, uri: str, line: int, col: int) -> list[types.CompletionItem]:
        res = self.run(self.client.text_document_completion_async(types.CompletionParams(
            types.TextDocumentIdentifier(uri), types.Position(line, col))))
        if res is None:
            return []
        return list(res.items if isinstance(res, types.CompletionList) else res)

    def hover(self, uri: str, line: int, col: int) -> str | None:
        res = self.run(self.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(line, col))))
        return res.contents.value if res is not None else None

    def definition(self, uri: str, line: int, col: int):
        return self.run(self.client.text_document_definition_async(types.DefinitionParams(
            types.TextDocumentIdentifier(uri), types.Position(line, col))))

    def references(self, uri: str, line: int, col: int):
        return self.run(self.client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, col),
            context=types.ReferenceContext(include_declaration=True))))

    def code_actions(self, uri: str, diagnostics: list[types.Diagnostic]):
        rng = diagnostics[0].range
        return self.run(self.client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), rng, types.CodeActionContext(diagnostics=diagnostics))))

    def alive(self) -> bool:
        return self.client._server is not None and self.client._server.returncode is None

    def close(self) -> None:
        try:
            if self.alive():
                self.run(self.client.shutdown_async(None), timeout=10)
                self.client.exit(None)
            self.run(self.client.stop(), timeout=10)
        finally:
            self.loop.close()
