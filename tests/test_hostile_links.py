"""Issue 23, class 4: a symbolic link in a game folder that leads out of it is refused, E101 under
the link's own name, and the file it leads to is never read: its text appears nowhere — not in
validate's errors, not in diff's values, not in the language server's diagnostics."""
from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

import cli
from compiler.lsp.project import Project

from .conftest import MINI

SECRET = "hunter2-secret-token"
# the target is YAML a schema would reject, so an error quoting it would show the secret
SECRET_YAML = f"name: x\ncards:\n  - id: {SECRET}\n    kind: {SECRET}\n    password: {SECRET}\n"


@pytest.fixture
def data(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "credentials.yaml").write_text(SECRET_YAML, encoding="utf-8")
    return tmp_path / "data" / "mini"


def validate(runner):
    res = runner.invoke(cli.main, ["validate", "data", "--format", "json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception  # no traceback
    return res


def test_a_module_linked_out_of_the_folder_is_refused_unquoted(data, runner, tmp_path):
    os.symlink(tmp_path / "outside" / "credentials.yaml", data / "extra.yaml")
    res = validate(runner)
    assert res.exit_code == 1 and SECRET not in res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E101" and d["file"] == "data/mini/extra.yaml" and "outside the game folder" in d["message"]
    text = runner.invoke(cli.main, ["validate", "data"])
    assert SECRET not in text.output and "data/mini/extra.yaml:1:1: E101" in text.output


def test_a_relative_link_out_and_back_in_through_dotdot(data, runner, tmp_path):
    os.symlink("../../outside/credentials.yaml", data / "extra.yaml")
    res = validate(runner)
    assert res.exit_code == 1 and SECRET not in res.output
    assert json.loads(res.stdout)["diagnostics"][0]["code"] == "E101"


def test_a_link_inside_the_folder_still_reads(data, runner):
    (data / "spare").mkdir()
    (data / "base.yaml").rename(data / "spare" / "base.yaml")
    os.symlink("spare/base.yaml", data / "base.yaml")
    res = validate(runner)
    assert res.exit_code == 0, res.output


def test_a_game_folder_linked_out_of_the_data_folder_is_refused(tmp_path, runner, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI / "mini", tmp_path / "elsewhere")
    (tmp_path / "elsewhere" / "secret.yaml").write_text(SECRET_YAML, encoding="utf-8")
    (tmp_path / "data").mkdir()
    os.symlink(tmp_path / "elsewhere", tmp_path / "data" / "mini")
    res = validate(runner)
    assert res.exit_code == 1 and SECRET not in res.output
    assert {d["code"] for d in json.loads(res.stdout)["diagnostics"]} == {"E101"}


def test_a_scenario_linked_out_is_refused(data, runner, tmp_path):
    os.symlink(tmp_path / "outside" / "credentials.yaml", data / "scenarios" / "leak.yaml")
    res = runner.invoke(cli.main, ["run", "data/mini/scenarios/leak.yaml"])
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code != 0 and SECRET not in res.output and "outside the game folder" in res.output


def test_diff_never_prints_a_linked_file(data, runner, tmp_path):
    shutil.copytree(tmp_path / "data", tmp_path / "old")
    os.symlink(tmp_path / "outside" / "credentials.yaml", data / "extra.yaml")
    res = runner.invoke(cli.main, ["diff", "old", "data"])
    assert isinstance(res.exception, SystemExit), res.exception
    assert SECRET not in res.output and "E101" in res.output


def test_diff_of_a_git_revision_never_prints_a_linked_file(data, runner, tmp_path):
    os.symlink(tmp_path / "outside" / "credentials.yaml", data / "extra.yaml")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for cmd in (["git", "init", "-q"], ["git", "add", "data"], ["git", "commit", "-qm", "x"]):
        subprocess.run(cmd, check=True, env=env, capture_output=True)
    res = runner.invoke(cli.main, ["diff", "HEAD:data", "data"])
    assert isinstance(res.exception, SystemExit), res.exception
    assert SECRET not in res.output


def test_the_language_server_never_reads_a_linked_file(data, tmp_path):
    os.symlink(tmp_path / "outside" / "credentials.yaml", data / "extra.yaml")
    project = Project()
    (d,) = project.check(data / "extra.yaml").diagnostics
    assert d.code == "E101" and SECRET not in d.message
    # another module's card ids are read from disk too: the linked file adds none
    found = project.check(data / "base.yaml")
    assert all(SECRET not in x.message for x in found.diagnostics)
