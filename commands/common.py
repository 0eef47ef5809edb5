"""What every command shares: the data folder and game options, the two kinds of refusal (exit 1 and
exit 2), the output folders, the diagnostics printer and the progress lines.

Nothing here imports the compiler or the runtime at module level: ``cardwright --help`` and a usage
error cost Python and click only (bench/scale.py measures it); a command imports what it needs.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from compiler import resources
from compiler.diagnostics import Diagnostics, display_path

# --- the two kinds of refusal --------------------------------------------------------------------------


class ContentError(click.ClickException):
    """The data (or something it leads to: a template, a printer, the disk) is wrong: exit 1.
    Located diagnostics go through ``emit``; this is for the one-line refusals."""

    exit_code = 1

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True, file=file)


class UsageProblem(click.UsageError):
    """What was typed cannot be done (a game that is not there, a seat beyond the players): exit 2,
    as click has it for any wrong argument — worded in one line, without click's usage banner, so
    that every command words a wrong game name the same way."""

    def show(self, file=None) -> None:
        click.echo(f"error: {self.format_message()}", err=True, file=file)


# --- the build, for a command that exits when it is done -------------------------------------------------

def compile_tree(data: Path, only: set[str] | None = None, emit: bool = True, scenarios: bool = True,
                 keep_documents: bool = True):
    """compiler.build.compile_tree, for a command that exits when it is done.

    Run as the ``cardwright`` program (``cli.entry``), the cyclic garbage collector stays off from here
    to the end of the process: everything the build makes lives until the command ends, so a
    collection would only scan it (compile_tree pauses the collector during the build in any case;
    a one-shot command also skips the collection of the whole young heap that switching it back on
    would cost), and on success the process leaves through ``entry``'s fast exit, without freeing
    that heap object by object. Called in-process (click's test runner) nothing of this happens.
    """
    import commands
    from compiler.build import compile_tree as build_tree

    if commands.ONE_SHOT:
        import gc

        gc.disable()
        commands.FAST_EXIT = True
    return build_tree(data, only=only, emit=emit, scenarios=scenarios, keep_documents=keep_documents)


# --- the data folder and its games: the one way of finding a game ----------------------------------------


def default_data() -> Path:
    """./data when the current folder is a cardwright project, else the bundled games."""
    here = Path("data")
    if here.is_dir() and any((p / "game.yaml").is_file() for p in here.iterdir() if p.is_dir()):
        return here
    return resources.BUNDLED_DATA


def is_bundled(data: Path) -> bool:
    """The bundled games, whose compiled code is the ``generated`` package (kept current by
    ``cardwright compile --check`` in CI): they play from it instead of being compiled again."""
    return data.resolve() == resources.BUNDLED_DATA.resolve()


def game_names(data: Path) -> list[str]:
    """The games under a data folder (each folder holding a game.yaml), or none if it is unreadable."""
    from compiler.build import discover_games

    try:
        return [p.name for p in discover_games(data)] if data.is_dir() else []
    except OSError:
        return []


def unknown_game(game: str, choices: list[str], where: str) -> str:
    """The one message every command gives for a game name that does not exist."""
    from runtime.words import did_you_mean

    hint = did_you_mean(game, choices)
    return (f"no game '{game}' under {where}" + (f" ({hint})" if hint else "")
            + f"; games: {', '.join(sorted(choices)) or 'none'}")


def game_dir(data: Path, game: str) -> Path:
    """A game's folder: ``data/<game>``, or ``data`` itself when the data folder is one game's folder."""
    return data if (data / "game.yaml").is_file() and data.name == game else data / game


def game_engine(data: Path, game: str) -> str | None:
    """The engine named by the game's game.yaml (None when unreadable)."""
    from compiler.loader import load_file

    gdoc = load_file(game_dir(data, game) / "game.yaml", Diagnostics())
    if gdoc is None or not isinstance(gdoc.data, dict):
        return None
    engine = gdoc.data.get("engine", "core")
    return engine if isinstance(engine, str) else None


class GameLoader:
    """The compiled games of one data folder: the bundled ones from the ``generated`` package (kept
    current by ``compile --check``), any other folder — or any folder at all when ``fresh`` — compiled
    in memory once. ``play``, ``simulate`` and ``run`` all load games through it."""

    def __init__(self, data: Path, fresh: bool = False):
        self.data = data
        self.fresh = fresh  # compile even the bundled games (run: a scenario checks the data as it is now)
        self._result = None

    def __call__(self, game: str):
        """The compiled ``game``; LookupError (worded) when the data has errors or no such game."""
        from runtime.engine import load_compiled, load_from_sources

        if not self.fresh and is_bundled(self.data) and game in game_names(self.data):
            return load_compiled(game)
        if self._result is None:  # the scenario files are `run`'s own to check (load_scenario)
            self._result = compile_tree(self.data, scenarios=False)
        if not self._result.ok:
            raise LookupError(f"the game's data has errors (first: {self._result.diags.errors[0].headline()}); "
                              "run `cardwright validate`")
        if game not in self._result.games:
            raise LookupError(unknown_game(game, sorted(self._result.games), display_path(self.data)))
        return load_from_sources(self._result.outputs, game)


# --- shared options --------------------------------------------------------------------------------------


def game_options(fn):
    """``--option NAME=VALUE`` and ``--pack NAME``: the options a game declares (game.yaml ``options``,
    runtime/options.py), for the commands that set a game up (simulate, play, reference)."""
    fn = click.option("--pack", "packs", multiple=True, metavar="NAME",
                      help="A State Pack / expansion to play (repeat for several): the game's option 'packs'.")(fn)
    return click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE",
                        help="A game option declared in its game.yaml, e.g. difficulty=veteran (repeat for several).")(fn)


def given_options(pairs, packs) -> dict:
    """The options as typed; a malformed one is a usage error (exit 2). Their values are checked
    against the game's declaration where the game is set up (Engine.match_options)."""
    from runtime.options import OptionError, parse_assignments

    try:
        return parse_assignments(pairs, packs)
    except OptionError as exc:
        raise UsageProblem(str(exc)) from None


FORMATS = click.Choice(["text", "json"])
# No table seats more; a bigger --players would only make setup build that many players before
# the game's own check (its deck) refuses. Decision: docs/decisions.md.
MAX_PLAYERS = 64

# A data folder: it must exist and be a folder — a file where a folder is expected is a usage error
# (exit 2) found before anything is read, as click has it for a path that does not exist.
DATA_PATH = click.Path(exists=True, file_okay=False)


def _resolve_data(ctx: click.Context, param: click.Parameter, value):
    if value is None:
        # a positional PATH (validate, compile, build, watch) given before --data was looked at
        value = ctx.params.get("path")
    return Path(value) if value else default_data()


def data_option(f):
    """``--data DIR``, for every command: the data folder, default ./data (when the current folder is a
    project) else the bundled games. Eager, so that a GAME argument is checked against it."""
    return click.option("--data", "data", type=DATA_PATH, is_eager=True, callback=_resolve_data,
                        help="Data folder (default: ./data when it holds a game, else the bundled games).")(f)


def data_argument(f):
    """The optional PATH of validate, compile, build and watch: the same as ``--data``."""
    f = click.argument("path", required=False, type=DATA_PATH, is_eager=True)(f)
    return data_option(f)


def format_option(f):
    """``--format text|json``: how a command reports (every command that reports; not the interactive
    ``play``, ``watch`` and ``lsp``)."""
    return click.option("--format", "fmt", type=FORMATS, default="text", show_default=True,
                        help="text for people; json for tools (the same diagnostics, one document on stdout).")(f)


class GameName(click.ParamType):
    """A game under the command's data folder. Unknown: exit 2 with a did-you-mean, before anything is
    read further or written. (The data option is eager, so it is known when a game name is converted.)"""

    name = "game"

    def convert(self, value, param, ctx):
        data = ctx.params.get("data") if ctx is not None else None
        data = data if data is not None else default_data()
        names = game_names(data)
        if value not in names:
            raise UsageProblem(unknown_game(value, names, display_path(data)), ctx=ctx)
        return value


GAME = GameName()


def only_game(data: Path, game: str | None) -> str:
    """GAME left out: the one game of the data folder, else a usage error naming the choices."""
    if game is not None:
        return game
    names = game_names(data)
    if len(names) == 1:
        return names[0]
    raise UsageProblem(f"name a game: {display_path(data)} holds {', '.join(names) or 'none'}")


# --- outputs ---------------------------------------------------------------------------------------------


def default_out(data: Path, name: str) -> Path:
    """Outputs go beside the data folder; for the bundled (installed) games, into the current folder."""
    if is_bundled(data) and not resources.is_checkout():
        return Path(name)
    return data.resolve().parent / name


def output_dir(data: Path, name: str, out: str | None, *sub: str) -> Path:
    """The folder a command writes into: ``--out`` when given, else ``name/sub…`` beside the data —
    checked before anything is written (compiler/outputs.py): a folder beside the data must resolve
    inside the project, and no output folder is or holds a symbolic link. Refused: exit 1, worded."""
    from compiler.outputs import output_problem

    if out:
        path, project = Path(out), None
    else:
        base = default_out(data, name)
        path, project = base.joinpath(*sub), base.parent
    problem = output_problem(path, project)
    if problem is not None:
        raise ContentError(problem)
    return path


def emit(diags: Diagnostics, fmt: str, extra: dict | None = None) -> None:
    """The diagnostics: located text on stderr, or one JSON document on stdout with ``extra``."""
    import json

    if fmt == "json":
        payload = {"ok": not diags.errors, "diagnostics": [d.to_json() for d in diags.sorted()]}
        payload.update(extra or {})
        click.echo(json.dumps(payload, indent=2, sort_keys=True))
        return
    for d in diags.sorted():
        click.echo(d.render(), err=True)
    if diags.errors:
        n = len(diags.errors)
        click.echo(f"{n} error{'s' if n != 1 else ''}.", err=True)


def write_generated(result, out_dir: Path, fmt: str) -> list[str]:
    """Write the generated files; a disk problem is an E502 diagnostic and exit 1, not a traceback."""
    from compiler.build import write_outputs

    try:
        return write_outputs(result, out_dir)
    except OSError as exc:
        result.diags.error("E502", f"cannot write the generated code: {exc.strerror or exc}",
                           file=display_path(exc.filename or out_dir))
        emit(result.diags, fmt)
        sys.exit(1)


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


# --- progress --------------------------------------------------------------------------------------------

_status_open = False


def status(message: str | None) -> None:
    """The step a long render is at, on stderr: one line rewritten in place on a terminal, plain lines
    when piped (a log keeps every step); ``None`` ends it. (``Progress`` below is the bar for a known
    number of games; a render's steps are not known in advance.)"""
    global _status_open
    err = sys.stderr
    tty = err.isatty()
    if message is None:
        if tty and _status_open:
            err.write("\r\033[K")
            err.flush()
        _status_open = False
        return
    if tty:
        err.write("\r\033[K" + message[:max(10, shutil.get_terminal_size().columns - 1)])
        _status_open = True
    else:
        err.write(message + "\n")
    err.flush()


class Progress:
    """A progress bar on a terminal; plain progress lines (about every tenth) when piped."""

    def __init__(self, total: int, label: str):
        self.total, self.label, self.done = total, label, 0
        self.bar = click.progressbar(length=total, label=label, file=sys.stderr) if sys.stderr.isatty() else None

    def __enter__(self):
        if self.bar is not None:
            self.bar.__enter__()
        else:
            click.echo(f"{self.label}: 0/{self.total} games", err=True)
        return self.step

    def step(self, n: int) -> None:
        before, self.done = self.done, self.done + n
        if self.bar is not None:
            self.bar.update(n)
        elif self.done * 10 // self.total != before * 10 // self.total or self.done == self.total:
            click.echo(f"{self.label}: {self.done}/{self.total} games", err=True)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False


def debug_tracebacks() -> bool:
    """CARDWRIGHT_TRACEBACK=1: let an unexpected exception show its traceback (for a bug report)."""
    return os.environ.get("CARDWRIGHT_TRACEBACK", "") not in ("", "0")
