"""Issue 23, class 3: cardwright writes only into its output folder, and deletes nothing outside it.
A project that ships ``generated/<game>`` or ``build/`` as a symbolic link to a folder elsewhere, or
holds a link under an output folder, is refused with a worded error before anything is written."""
from __future__ import annotations

import os
import shutil

import pytest

import cli
from compiler.outputs import OutputRefused, check_output, output_problem

from .conftest import MINI


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.py").write_text("# someone's code\n", encoding="utf-8")
    (victim / "notes.txt").write_text("keep\n", encoding="utf-8")
    return tmp_path


def untouched(victim):
    assert sorted(p.name for p in victim.iterdir()) == ["notes.txt", "precious.py"]
    assert (victim / "precious.py").read_text(encoding="utf-8") == "# someone's code\n"


def refused(res):
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception  # never a traceback
    assert "error: the output folder" in res.output and ("symbolic link" in res.output or "outside" in res.output)


def test_compile_refuses_a_linked_game_folder_and_deletes_nothing(project, runner):
    (project / "generated").mkdir()
    os.symlink(project / "victim", project / "generated" / "mini")
    refused(runner.invoke(cli.main, ["compile", "data"]))
    untouched(project / "victim")


def test_compile_refuses_a_linked_generated_folder(project, runner):
    os.symlink(project / "victim", project / "generated")
    refused(runner.invoke(cli.main, ["compile", "data"]))
    untouched(project / "victim")


def test_build_refuses_a_linked_build_folder(project, runner):
    os.symlink(project / "victim", project / "build")
    refused(runner.invoke(cli.main, ["build", "data"]))
    untouched(project / "victim")
    assert not (project / "generated").exists()  # refused before anything was written


@pytest.mark.parametrize("args", [
    ["reference", "mini", "--data", "data"],
    ["cards", "mini", "--data", "data", "--output", "html"],
    ["watch", "data", "--once"],
])
def test_every_writer_refuses_a_linked_default_folder(project, runner, args):
    name = {"reference": "build", "cards": "build", "watch": "generated"}[args[0]]
    os.symlink(project / "victim", project / name)
    refused(runner.invoke(cli.main, args))
    untouched(project / "victim")


def test_the_cache_folder_is_checked_too(project, runner):
    os.symlink(project / "victim", project / ".cardwright-cache")
    refused(runner.invoke(cli.main, ["watch", "data", "--once", "--no-write"]))
    untouched(project / "victim")


def test_a_link_under_an_explicit_out_is_refused(project, runner):
    (project / "out").mkdir()
    os.symlink(project / "victim", project / "out" / "png")
    refused(runner.invoke(cli.main, ["cards", "mini", "--data", "data", "--output", "html", "--out", "out"]))
    untouched(project / "victim")


def test_a_stale_file_is_deleted_only_inside_the_folder(project, runner):
    assert runner.invoke(cli.main, ["compile", "data"]).exit_code == 0
    (project / "generated" / "mini" / "old_module.py").write_text("# stale\n", encoding="utf-8")
    res = runner.invoke(cli.main, ["compile", "data"])
    assert res.exit_code == 0, res.output
    assert not (project / "generated" / "mini" / "old_module.py").exists()
    untouched(project / "victim")


def test_a_default_folder_resolving_outside_the_project_is_refused(project):
    assert output_problem(project / "build" / "x", project) is None
    os.symlink(project / "victim", project / "build")
    assert "symbolic link" in output_problem(project / "build" / "x", project)
    with pytest.raises(OutputRefused):
        check_output(project / "build", project)
    assert "outside the project" in output_problem(project.parent / "elsewhere", project)


def test_new_card_never_writes_through_a_link(project, runner):
    (project / "victim" / "cards.yaml").write_text("name: x\ncards: []\n", encoding="utf-8")
    os.symlink(project / "victim" / "cards.yaml", project / "data" / "mini" / "linked.yaml")
    res = runner.invoke(cli.main, ["new", "card", "--game", "mini", "--kind", "location", "--data", "data",
                                   "--module", "linked"])
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code != 0
    assert (project / "victim" / "cards.yaml").read_text(encoding="utf-8") == "name: x\ncards: []\n"
