"""Issue 23, class 6: sizes are bounded where the data says them. A card's ``count`` is at most 999
(the schema says so, and cards/simulate build one entry per copy); an id is the whole string (a
schema pattern's '$' has ECMA's meaning, not Python's "or before a final newline"); the language
server holds a buffer to the command line's 16 MB file limit."""
from __future__ import annotations

import json
import shutil

import pytest

import cli
from compiler.loader import MAX_FILE_BYTES
from compiler.lsp.project import Project
from compiler.schema import ecma_regex, load_schema

from .conftest import MINI
from .guards import finishes_within


@pytest.fixture
def data(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data" / "mini"


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def diagnostics(runner, *args):
    res = runner.invoke(cli.main, ["validate", "data", "--format", "json", *args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception  # no traceback
    return res.exit_code, json.loads(res.stdout)["diagnostics"]


@pytest.mark.parametrize("count", ["999999999999999999", "1000", "1e9"])
def test_an_astronomical_count_is_refused(data, runner, count):
    _edit(data / "base.yaml", "    production: gain 2 fuel\n", f"    production: gain 2 fuel\n    count: {count}\n")
    with finishes_within(20):
        code, diags = diagnostics(runner)
        res = runner.invoke(cli.main, ["cards", "mini", "--data", "data", "--output", "html", "--out", "out"])
    assert code == 1 and diags and all(d["code"] in ("E401", "E109") for d in diags), diags
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output


def test_the_count_cap_is_stated_and_999_is_accepted(data, runner):
    spec = load_schema("module")["properties"]["cards"]["items"]["properties"]["count"]
    assert spec["maximum"] == 999 and "999" in spec["description"]
    _edit(data / "base.yaml", "    production: gain 2 fuel\n", "    production: gain 2 fuel\n    count: 999\n")
    code, diags = diagnostics(runner)
    assert code == 0 and diags == []


@pytest.mark.parametrize("value", ['"oil_rig\\n"', '"oil_rig\\n\\n"', '"oil rig"', '"Oil_rig"'])
def test_an_id_is_the_whole_string(data, runner, value):
    _edit(data / "base.yaml", "  - id: oil_rig\n", f"  - id: {value}\n")
    code, diags = diagnostics(runner)
    assert code == 1 and any(d["code"] == "E401" and "lower-case id" in d["message"] for d in diags), diags


def test_ecma_dollar_is_the_end_of_the_text():
    rx = ecma_regex("^[a-z][a-z0-9_]*$")
    assert rx.search("oil_rig") and not rx.search("oil_rig\n")
    assert ecma_regex("a[$]$").search("a$") and not ecma_regex("a[$]$").search("a$\n")
    assert ecma_regex(r"cost\$$").search("cost$")


def test_new_game_refuses_a_name_with_a_newline(tmp_path, runner, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(cli.main, ["new", "game", "ok_name\n"])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert not any(tmp_path.rglob("game.yaml"))


def test_the_language_server_refuses_a_buffer_over_the_file_limit(data):
    project = Project()
    path = data / "base.yaml"
    text = path.read_text(encoding="utf-8")
    filler = "# " + "x" * 1000 + "\n"
    project.set_text(path, text + filler * (MAX_FILE_BYTES // len(filler) + 1))
    with finishes_within(20):
        checked = project.check(path)
    (d,) = checked.diagnostics
    assert d.code == "E107" and "16.8 MB" in d.message and d.line == 1
    project.set_text(path, text)  # back under the limit: checked as usual
    assert project.check(path).diagnostics == []
