"""Issue 11, classes 1–3 (files): what sits in a data folder besides ordinary YAML files — a FIFO,
a device, a symbolic link in a loop or to nothing, two files that would make one Python module —
is a located error with exit 1; never a traceback, a hang, or a file silently dropped."""
from __future__ import annotations

import json
import os
import shutil
import threading

import pytest

import cli

from .conftest import MINI
from .guards import finishes_within


@pytest.fixture
def data(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "data" / "mini"


def diagnostics(runner, *args):
    res = runner.invoke(cli.main, ["validate", "data", "--format", "json", *args])
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    return json.loads(res.stdout)["diagnostics"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_named_yaml_is_refused_without_blocking(data, runner):
    os.mkfifo(data / "pipe.yaml")
    with finishes_within(10):
        (d,) = diagnostics(runner)
    assert d["code"] == "E110" and d["file"] == "data/mini/pipe.yaml" and (d["line"], d["column"]) == (1, 1)
    assert "named pipe" in d["message"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_behind_a_yaml_name_is_refused(data, runner):
    os.symlink("/dev/zero", data / "zero.yaml")
    with finishes_within(10):
        (d,) = diagnostics(runner)
    assert d["code"] == "E110" and d["file"] == "data/mini/zero.yaml" and "a device" in d["message"]


def test_a_symlink_loop_is_a_located_error(data, runner):
    os.symlink("loop.yaml", data / "loop.yaml")
    (d,) = diagnostics(runner)
    assert d["code"] == "E101" and d["file"] == "data/mini/loop.yaml"
    assert "symbolic link in a loop" in d["message"]


def test_a_dangling_symlink_is_reported_under_its_own_name(data, runner):
    os.symlink("missing.yaml", data / "extra.yaml")
    (d,) = diagnostics(runner)
    assert d["code"] == "E101" and d["file"] == "data/mini/extra.yaml"  # not ".../missing.yaml"
    assert "symbolic link to 'missing.yaml', which does not exist" in d["message"]


def test_two_files_that_make_one_python_module_are_both_named(data, runner):
    text = (data / "base.yaml").read_text(encoding="utf-8")
    (data / "a-b.yaml").write_text(text.replace("id: ", "id: x_"), encoding="utf-8")
    (data / "a_b.yaml").write_text(text.replace("id: ", "id: y_"), encoding="utf-8")
    (d,) = diagnostics(runner)
    assert d["code"] == "E503" and d["file"] == "data/mini/a_b.yaml"
    assert "'a_b.yaml' and 'a-b.yaml' would both be compiled to 'a_b.py'" in d["message"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_watch_once_with_a_fifo_does_not_block(data, runner):
    os.mkfifo(data / "pipe.yaml")
    result = {}

    def watch():
        result["res"] = runner.invoke(cli.main, ["watch", "data", "--once", "--no-write"])

    t = threading.Thread(target=watch, daemon=True)
    t.start()
    t.join(20)
    if t.is_alive():  # unblock the reader so the suite can go on, then fail
        fd = os.open(data / "pipe.yaml", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("watch blocked on a FIFO")
    assert result["res"].exit_code == 1 and "E110" in result["res"].output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_game_file_that_is_a_fifo_is_named_not_skipped(data, runner):
    (data / "game.yaml").unlink()
    os.mkfifo(data / "game.yaml")
    with finishes_within(10):
        (d,) = diagnostics(runner)
    assert d["code"] == "E110" and d["file"] == "data/mini/game.yaml"  # not "no game folders found"


def test_a_dangling_game_file_link_is_named(data, runner):
    (data / "game.yaml").unlink()
    os.symlink("gone.yaml", data / "game.yaml")
    (d,) = diagnostics(runner)
    assert d["code"] == "E101" and d["file"] == "data/mini/game.yaml" and "gone.yaml" in d["message"]
