"""Issue 23, class 7: the REV of ``REV:PATH`` (``cardwright diff``, ``simulate --compare``) is the
user's text, never one of git's options: it is resolved to a commit (``git rev-parse --verify
--end-of-options REV^{commit}``) before use, and a REV that starts with '-' or names no commit is a
usage error (exit 2), never a traceback and never a file written."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import cli
from tests.conftest import ROOT

ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.org"}


@pytest.fixture
def repo(tmp_path, monkeypatch):
    shutil.copytree(ROOT / "tests/fixtures/flow", tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    for cmd in (["git", "init", "-q"], ["git", "add", "data"], ["git", "commit", "-qm", "first"]):
        subprocess.run(cmd, check=True, env={**os.environ, **ENV}, capture_output=True)
    return tmp_path


BAD_REVS = [
    "--output=victim",            # git archive --output=FILE: wrote the file, then a traceback
    "--remote=ext::touch victim",  # an option that reaches out
    "-o",
    "-",
    "",                           # ':data'
    "HEAD^{tree}",                # not a commit
    "no-such-rev",
    "HEAD~99",
    "HEAD\nHEAD",
]


@pytest.mark.parametrize("rev", BAD_REVS)
def test_diff_refuses_a_rev_that_is_not_a_commit(repo, runner, rev):
    res = runner.invoke(cli.main, ["diff", "--", f"{rev}:data", "data"])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit), res.exception  # never a traceback
    assert "error:" in res.output and ("not a git revision" in res.output or "cannot read" in res.output)
    assert not (repo / "victim").exists() and not (repo / "data" / "victim").exists()


def test_diff_refuses_a_path_that_leaves_the_repository(repo, runner):
    res = runner.invoke(cli.main, ["diff", "HEAD:../..", "data"])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output


def test_a_good_rev_still_reads(repo, runner):
    res = runner.invoke(cli.main, ["diff", "HEAD:data", "data"])
    assert res.exit_code == 0, res.output
    assert "no card changes." in res.output


@pytest.mark.parametrize("rev", ["--output=victim", "HEAD^{tree}"])
def test_simulate_compare_refuses_a_bad_rev(repo, runner, rev):
    res = runner.invoke(cli.main, ["simulate", "deckbuild", "--data", "data", "--games", "2",
                                   f"--compare={rev}:data", "--out", str(repo / "out")])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    assert not (repo / "victim").exists() and not (repo / "data" / "victim").exists()
