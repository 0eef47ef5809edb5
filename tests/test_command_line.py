"""Issue 26, items 3 and 4: one command line in click's idiom — a lazy root group, shared options
(--data defaulting to ./data everywhere, --format json wherever a command reports), one game-name type
(exit 2, did-you-mean), a path of the wrong kind as a usage error, an example in every --help, and no
traceback anywhere."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

import cli

from .conftest import MINI, ROOT

# play, watch, lsp and studio talk with a person, an editor or a browser as they go: no one document to report
INTERACTIVE = {"play", "watch", "lsp", "studio"}


@pytest.fixture
def project(tmp_path, monkeypatch):
    shutil.copytree(MINI, tmp_path / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _commands() -> dict[str, click.Command]:
    """Every command and sub-command by its full name (``new game``)."""
    out = {}
    for name in cli.COMMANDS:
        cmd = cli.main.get_command(None, name)
        out[name] = cmd
        if isinstance(cmd, click.Group):
            for sub, c in cmd.commands.items():
                out[f"{name} {sub}"] = c
    return out


def no_traceback(res) -> None:
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception


# --- item 4: the root group, the help pages ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(_commands()))
def test_every_help_page_has_an_example(runner, name):
    res = runner.invoke(cli.main, [*name.split(), "--help"], terminal_width=100)
    assert res.exit_code == 0, res.output
    example = re.search(r"^  Examples?[^:]*:\n((?:    cardwright .+\n)+)", res.output, re.M)
    assert example, res.output
    # the example runs the command the page is about
    assert all(line.strip().startswith(f"cardwright {name}") for line in example.group(1).splitlines()
               if name != "new"), example.group(1)


def test_the_command_list_gives_each_commands_own_summary_whole(runner):
    """The root's table of summaries (kept so that --help imports no command) says what each command's
    own help says, in full: click's list cut them at the terminal's width."""
    for name, (_, summary) in cli.COMMANDS.items():
        assert summary == cli.main.get_command(None, name).get_short_help_str(limit=1000), name
    res = runner.invoke(cli.main, ["--help"], terminal_width=80)
    flat = " ".join(res.output.split())
    for name, (_, summary) in cli.COMMANDS.items():
        assert f"{name} {summary}" in flat


def test_help_imports_no_command_module_and_nothing_of_the_compiler():
    probe = ("import sys\nsys.argv = ['cardwright', '--help']\nimport cli\ntry:\n    cli.main()\n"
             "except SystemExit:\n    pass\n"
             "loaded = sorted(m for m in sys.modules if m.startswith(('commands.', 'compiler', 'runtime', 'jinja2',"
             " 'lark')))\nprint('LOADED', loaded)\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "LOADED []" in out.stdout, out.stdout + out.stderr
    assert "Commands:" in out.stdout


def test_a_command_imports_only_its_own_module():
    probe = ("import sys\nsys.argv = ['cardwright', 'verbs', '--format', 'json']\nimport cli\ntry:\n    cli.main()\n"
             "except SystemExit:\n    pass\nprint('LOADED', sorted(m for m in sys.modules if m.startswith('commands.')))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "LOADED ['commands.common', 'commands.language']" in out.stdout, out.stdout[-500:] + out.stderr


# --- item 4: shared options ------------------------------------------------------------------------------


def _options(cmd: click.Command) -> dict[str, click.Parameter]:
    return {o: p for p in cmd.params for o in getattr(p, "opts", [])}


@pytest.mark.parametrize("name", sorted(n for n in _commands() if n.split()[0] not in INTERACTIVE and n != "new"))
def test_every_reporting_command_takes_format_json(name):
    """The README's claim, for every command it covers."""
    fmt = _options(_commands()[name]).get("--format")
    assert fmt is not None and "json" in fmt.type.choices, name


def test_the_readme_says_which_commands_take_format_json():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert ("Every command that reports takes `--format json`: all but the interactive `play`, `watch`, "
            "`lsp` and `studio`") in readme
    assert INTERACTIVE == {"play", "watch", "lsp", "studio"}


@pytest.mark.parametrize("name", sorted(n for n in _commands() if n not in ("new", "new game", "docs", "lsp",
                                                                             "diff")))
def test_every_command_that_reads_a_data_folder_takes_data(name):
    assert "--data" in _options(_commands()[name]), name


@pytest.mark.parametrize("args", [
    ["validate"], ["compile", "--out", "gen"], ["build", "--out", "gen", "--reference-out", "ref"],
    ["run", "data/mini/scenarios/barracks.yaml"], ["explain", "gain 1 fuel", "--game", "mini"],
    ["verbs", "--game", "mini"], ["schema", "--out", "schemas"], ["reference", "--out", "ref", "--output", "md"],
    ["new", "card", "--game", "mini", "--kind", "location", "--id", "depot"], ["new", "game", "other"],
    ["diff", "data", "data"],
])
def test_format_json_gives_one_json_document(project, runner, args):
    res = runner.invoke(cli.main, [*args, "--format", "json"])
    assert res.exit_code == 0, res.output
    json.loads(res.stdout)


@pytest.fixture
def new_project(tmp_path, monkeypatch, runner):
    """A project made as a designer starts one: ./data/tiny from `cardwright new game` (it plays)."""
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(cli.main, ["new", "game", "tiny"]).exit_code == 0
    return tmp_path


def test_simulate_and_play_look_in_dot_data_like_every_command(new_project, runner):
    """Both played only the bundled games unless told --data: the game of ./data is found, by name or
    (the folder holding one game) without one."""
    res = runner.invoke(cli.main, ["simulate", "--games", "2", "--out", "sim"])
    assert res.exit_code == 0, res.output
    assert "2 games of tiny" in res.output
    res = runner.invoke(cli.main, ["simulate", "tiny", "--games", "2", "--out", "sim", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["result"] == "sim/tiny-2p-seed0.json"
    res = runner.invoke(cli.main, ["play", "tiny"], input="q\n")
    assert res.exit_code == 0, res.output
    assert "First Card" in res.output


@pytest.mark.parametrize("args", [["simulate", "mimi", "--games", "1"], ["play", "mimi"],
                                  ["reference", "mimi"], ["board", "mimi"], ["cards", "mimi"],
                                  ["verbs", "--game", "mimi"], ["explain", "gain 1 fuel", "--game", "mimi"]])
def test_a_game_name_is_one_parameter_type_everywhere(project, runner, args):
    res = runner.invoke(cli.main, args)
    assert res.exit_code == 2
    assert res.output.strip() == "error: no game 'mimi' under data (did you mean 'mini'?); games: mini"
    no_traceback(res)


def test_reference_and_cards_choose_outputs_the_same_way(project, runner):
    """--output KIND for both; reference keeps --format html|md|pdf as the old spelling."""
    new = runner.invoke(cli.main, ["reference", "--output", "md", "--out", "a"])
    old = runner.invoke(cli.main, ["reference", "--format", "md", "--out", "b"])
    assert new.exit_code == old.exit_code == 0, new.output + old.output
    assert sorted(p.name for p in Path("a").iterdir()) == sorted(p.name for p in Path("b").iterdir())
    assert "mini.md" in [p.name for p in Path("a").iterdir()]
    for name in ("reference", "cards", "board"):
        assert "--output" in _options(cli.main.get_command(None, name))


# --- item 3: a path of the wrong kind, and no traceback --------------------------------------------------


@pytest.mark.parametrize("args", [
    ["validate", "data/mini/base.yaml"], ["compile", "data/mini/base.yaml"], ["build", "data/mini/base.yaml"],
    ["watch", "data/mini/base.yaml", "--once"], ["reference", "--data", "data/mini/base.yaml"],
    ["cards", "--data", "data/mini/base.yaml"], ["simulate", "--data", "data/mini/base.yaml"],
    ["play", "--data", "data/mini/base.yaml"], ["diff", "data/mini/base.yaml", "data"],
    ["diff", "data", "data/mini/base.yaml"], ["run", "data/mini/scenarios/barracks.yaml", "--data", "data/mini/base.yaml"],
])
def test_a_file_where_a_folder_is_expected_is_a_usage_error(project, runner, args):
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    res = runner.invoke(cli.main, args)
    assert res.exit_code == 2, res.output
    assert "data/mini/base.yaml" in res.output and "is a file" in res.output
    no_traceback(res)
    assert sorted(p.relative_to(project).as_posix() for p in project.rglob("*")) == before


def test_an_unexpected_exception_is_one_line_and_exit_70(project, runner, monkeypatch):
    import compiler.langref

    def broken(_engine):
        raise RuntimeError("something cardwright did not expect")

    monkeypatch.setattr(compiler.langref, "verb_docs", broken)
    res = runner.invoke(cli.main, ["verbs"])
    assert res.exit_code == cli.INTERNAL_ERROR == 70
    assert res.output.splitlines()[0] == "internal error: RuntimeError: something cardwright did not expect"
    assert "CARDWRIGHT_TRACEBACK=1" in res.output
    no_traceback(res)
    monkeypatch.setenv("CARDWRIGHT_TRACEBACK", "1")  # for a bug report: the traceback itself
    res = runner.invoke(cli.main, ["verbs"])
    assert isinstance(res.exception, RuntimeError)


def test_the_real_program_prints_no_traceback_for_a_file_as_data(tmp_path):
    shutil.copytree(MINI, tmp_path / "data")
    exe = Path(sys.executable).with_name("cardwright")
    argv = [str(exe)] if exe.is_file() else [sys.executable, str(ROOT / "cli.py")]
    for args in (["validate", "data/mini/base.yaml"], ["simulate", "--data", "data/mini/base.yaml"]):
        proc = subprocess.run(argv + args, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=""))
        assert proc.returncode == 2, proc.stderr
        assert "Traceback" not in proc.stderr and "is a file" in proc.stderr


# --- item 3: a committed tree with symbolic links under diff REV:PATH -------------------------------------

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}


def _commit(*links: tuple[str, str]) -> None:
    for name, target in links:
        os.symlink(target, name)
    for cmd in (["git", "add", "-A"], ["git", "commit", "-qm", "links"]):
        subprocess.run(cmd, check=True, env={**os.environ, **GIT_ENV}, capture_output=True)


@pytest.fixture
def repo(project):
    subprocess.run(["git", "init", "-q"], check=True, capture_output=True)
    return project


def test_diff_reads_a_committed_tree_whose_links_stay_inside_it(repo, runner):
    _commit(("data/mini/alias.yaml", "nowhere.yaml"))
    res = runner.invoke(cli.main, ["diff", "HEAD:data", "data"])
    assert res.exit_code == 1, res.output  # the dangling link is a located error on both sides
    no_traceback(res)
    # named as typed (HEAD:data/…), never by the scratch folder the revision was extracted into
    assert "HEAD:data/mini/alias.yaml:1:1: E101 cannot read file: it is a symbolic link to 'nowhere.yaml'" \
        in res.output
    assert "cardwright-diff-" not in res.output


@pytest.mark.parametrize("target", ["/etc/passwd", "../../.."])
def test_diff_refuses_a_committed_link_out_of_the_tree(repo, runner, target):
    _commit(("data/mini/out.yaml", target))
    res = runner.invoke(cli.main, ["diff", "HEAD:data", "data"])
    assert res.exit_code == 2, res.output
    no_traceback(res)
    assert res.output.strip() == ("error: cannot read 'HEAD:data' from git: 'data/mini/out.yaml' is a symbolic "
                                  "link that leads out of the committed tree; cardwright does not follow it")


def test_diff_of_a_committed_link_named_as_the_path_is_a_usage_error(repo, runner):
    _commit(("datalink", "data"))
    res = runner.invoke(cli.main, ["diff", "HEAD:datalink", "data"])
    assert res.exit_code == 2, res.output
    no_traceback(res)
    assert "'HEAD:datalink' is a symbolic link in that revision; name the folder it points to." in res.output


# --- item 3: a card template that is not there ------------------------------------------------------------


@pytest.mark.parametrize("make, why", [
    (lambda p: os.symlink("nowhere.html.j2", p), "it is a symbolic link to 'nowhere.html.j2', which does not exist"),
    (lambda p: p.mkdir(), "it is a folder, not a file"),
])
def test_a_template_that_is_not_there_is_a_located_error_not_the_default_face(project, runner, make, why):
    (project / "data/mini/templates").mkdir()
    make(project / "data/mini/templates/location.html.j2")
    res = runner.invoke(cli.main, ["cards", "mini", "--output", "html", "--out", "out"])
    assert res.exit_code == 1, res.output
    no_traceback(res)
    assert f"data/mini/templates/location.html.j2: E504 template 'location.html.j2' cannot be read: {why}" \
        in res.output
    assert not (project / "out" / "mini-cards.html").exists()


@pytest.mark.parametrize("template", ['{% extends "nothere.html.j2" %}\n', "{% if %}\n"])
def test_validate_fit_reports_a_broken_template_without_a_traceback(project, runner, template):
    """`validate --fit` lays the faces out: a template that extends one that does not exist, or does
    not parse, was a traceback there (the cards command already reported it)."""
    (project / "data/mini/templates").mkdir()
    (project / "data/mini/templates/location.html.j2").write_text(template)
    res = runner.invoke(cli.main, ["validate", "--fit"])
    assert res.exit_code == 1, res.output
    no_traceback(res)
    assert "data/mini/templates/location.html.j2:1:1: E504 template" in res.output


# --- item 3: errors raised below the command line ---------------------------------------------------------


def test_a_game_setup_that_refuses_the_players_is_a_usage_error(runner, tmp_path):
    """51st State seats 2 to 4 (game.yaml seats): 5 players was a traceback in the setup."""
    res = runner.invoke(cli.main, ["simulate", "fifty_first_state", "--players", "5", "--games", "1",
                                   "--data", str(ROOT / "data"), "--out", str(tmp_path / "sim")])
    assert res.exit_code == 2, res.output
    no_traceback(res)
    assert res.output.startswith("error: fifty_first_state cannot be played by 5 players: the game seats 2 to 4")


@pytest.mark.parametrize("args", [["compile", "--out", "afile"], ["build", "--reference-out", "afile"],
                                  ["reference", "--out", "afile"], ["cards", "--out", "afile"],
                                  ["board", "mini", "--out", "afile"], ["watch", "--out", "afile", "--once"],
                                  ["simulate", "--out", "afile"], ["schema", "--out", "afile"]])
def test_an_output_folder_that_is_a_file_is_a_usage_error(project, runner, args):
    Path("afile").write_text("mine\n")
    res = runner.invoke(cli.main, args)
    assert res.exit_code == 2, res.output
    no_traceback(res)
    assert "'afile' is a file" in res.output and Path("afile").read_text() == "mine\n"


def test_the_system_refusing_a_write_is_an_error_not_a_bug(project, runner):
    Path("afile").write_text("mine\n")
    res = runner.invoke(cli.main, ["docs", "--out", "afile/language.md"])
    assert res.exit_code == 1, res.output
    no_traceback(res)
    assert res.output.startswith("error: cannot go on: ") and "internal error" not in res.output
