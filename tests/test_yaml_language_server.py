"""The bundled modules' modelines work in the real YAML language server, with no settings: a
misspelt field is reported and ``kind:`` completes the game's card kinds.

Needs Red Hat's ``yaml-language-server`` (npm), which the Python test extra cannot install: the test
runs when it is on PATH or named by ``CARDWRIGHT_YAML_LS`` and is skipped otherwise. Run it with
``npm install --prefix /tmp/yls yaml-language-server@1`` and
``CARDWRIGHT_YAML_LS=/tmp/yls/node_modules/.bin/yaml-language-server pytest tests/test_yaml_language_server.py``.
The jsonschema-level checks of the same schemas run everywhere (tests/test_schemaexport.py).
"""
from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from compiler.resources import BUNDLED_DATA

from . import lsp_client

YAML_LS = os.environ.get("CARDWRIGHT_YAML_LS") or shutil.which("yaml-language-server")

pytestmark = pytest.mark.skipif(not YAML_LS, reason="yaml-language-server (npm) is not installed")


def test_a_bundled_modules_modeline_gives_card_checks_and_kind_completion(tmp_path, monkeypatch):
    shutil.copytree(BUNDLED_DATA, tmp_path / "data")
    module = tmp_path / "data" / "fifty_first_state" / "moloch.yaml"
    text = module.read_text(encoding="utf-8").replace("    defense: 4\n", "    defence: 4\n", 1)
    assert "defence: 4" in text
    monkeypatch.setattr(lsp_client, "server_command", lambda: [YAML_LS, "--stdio"])
    session = lsp_client.Session(tmp_path, {})
    try:
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
            settings={"yaml": {"validate": True, "completion": True, "schemaStore": {"enable": False}}}))
        uri = session.open(module, text)
        for _ in range(40):  # the server fetches the schema from the modeline's path, then validates
            if any("defence" in d.message for d in session.diagnostics.get(uri, [])):
                break
            session.run(asyncio.sleep(0.25))
        messages = [d.message for d in session.diagnostics.get(uri, [])]
        assert "Property defence is not allowed." in messages, messages
        lines = text.split("\n")
        line = next(i for i, ln in enumerate(lines) if ln.strip().startswith("kind:"))
        col = lines[line].index("kind:") + len("kind: ")
        labels = {i.label for i in session.completion(uri, line, col)}
        assert {"machine", "location", "connection", "faction_action"} <= labels, labels
    finally:
        session.close()
