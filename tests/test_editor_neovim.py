"""Issue 26, item 5: the documented Neovim set-up (docs/editor/neovim/cardwright.lua) works on the
Neovim Debian stable ships (0.7), run headless: it starts `cardwright lsp` for a data file, the
file's diagnostics arrive on the misspelt word, and completion inside an effect text answers.
`.ci/run` installs Neovim from Debian (apt-get), as it does Chromium; outside CI the test is skipped
when there is no `nvim`."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

CONFIG = ROOT / "docs" / "editor" / "neovim" / "cardwright.lua"

PROBE = """
vim.g.cardwright_cmd = %(cmd)s
dofile(%(config)s)
vim.cmd("edit data/mini/base.yaml")
local out = { version = vim.version().major .. "." .. vim.version().minor }
out.waited = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
out.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(out.diagnostics, { line = d.lnum, col = d.col, message = d.message })
end
local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = %(line)d, character = %(col)d } }
local replies = vim.lsp.buf_request_sync(0, "textDocument/completion", params, 20000) or {}
out.labels = {}
for _, reply in pairs(replies) do
  local items = reply.result and (reply.result.items or reply.result) or {}
  for _, item in ipairs(items) do table.insert(out.labels, item.label) end
end
vim.fn.writefile({ vim.fn.json_encode(out) }, "probe.json")
vim.cmd("qall!")
"""


def _nvim() -> str:
    found = shutil.which("nvim")
    if found:
        return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("nvim is missing, but CI must run the editor test (.ci/run installs Debian's neovim)")
    pytest.skip("nvim is not installed")


def test_the_documented_neovim_setup_checks_and_completes(tmp_path):
    nvim = _nvim()
    shutil.copytree(ROOT / "tests" / "fixtures" / "mini", tmp_path / "data")
    base = tmp_path / "data" / "mini" / "base.yaml"
    text = base.read_text(encoding="utf-8").replace("production: gain 2 fuel", "production: gain 2 fule")
    base.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.split("\n")) if "gain 2 fule" in ln)
    col = text.split("\n")[line].index("gain 2 ") + len("gain 2 ")
    exe = shutil.which("cardwright", path=str(Path(sys.executable).parent))
    cmd = [exe, "lsp"] if exe else [sys.executable, str(ROOT / "cli.py"), "lsp"]
    lua = lambda v: json.dumps(v).replace("[", "{").replace("]", "}")  # noqa: E731 - a Lua table of strings
    probe = tmp_path / "probe.lua"
    probe.write_text(PROBE % {"cmd": lua(cmd), "config": json.dumps(str(CONFIG)), "line": line, "col": col},
                     encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "share"), XDG_STATE_HOME=str(tmp_path / "state"))
    proc = subprocess.run([nvim, "--headless", "--clean", "-c", f"luafile {probe}"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    out = json.loads((tmp_path / "probe.json").read_text(encoding="utf-8"))
    assert out["waited"] is True, out
    assert [(d["line"], d["message"]) for d in out["diagnostics"]] == \
        [(line, "unknown good 'fule' in card 'oil_rig' (did you mean 'fuel'?)")]
    d = out["diagnostics"][0]
    assert text.split("\n")[line][d["col"]:d["col"] + 4] == "fule"
    assert "fuel" in out["labels"] and "worker" in out["labels"], out["labels"]
