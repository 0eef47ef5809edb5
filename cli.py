"""cardwright's command line: the root group. The commands live in the ``commands`` package beside this
file, grouped by purpose, and are imported only when run (or when ``--help`` lists them).

Exit codes: 0 clean, 1 content errors (located diagnostics), 2 usage errors (click's, and
commands.common.UsageProblem). Bad content never produces a Python traceback; an unexpected exception
(a bug in cardwright) is one line and exit 70, with the traceback under CARDWRIGHT_TRACEBACK=1.
``--format json`` gives machines the same diagnostics.
"""
from __future__ import annotations

import importlib
import os
import sys

import click

# name -> ("module:function", the summary `cardwright --help` lists). The summaries are here so that the
# list costs no import of the command modules (tests/test_cli.py holds each to its command's own first
# sentence). Adding a command is one line here and a function in its module.
COMMANDS = {
    "validate": ("commands.build:validate",
                 "Check the data under PATH (default: ./data or the bundled games); write nothing."),
    "compile": ("commands.build:compile_cmd", "Compile every effect into Python modules under generated/."),
    "build": ("commands.build:build", "Validate, compile and render the rules references: the main job."),
    "watch": ("commands.build:watch",
              "Revalidate and recompile on every save; print only the errors that appear or go away."),
    "run": ("commands.playing:run",
            "Play one or more SCENARIO files with the compiled cards and print their traces."),
    "play": ("commands.playing:play", "Play GAME in the terminal against bots, as a player at the table sees it."),
    "simulate": ("commands.simulating:simulate",
                 "Play GAME many times with seeded agents and report the deck's balance (JSON + HTML)."),
    "reference": ("commands.printing:reference",
                  "Render the printable rules reference of GAME (default: every game) as HTML, Markdown or PDF."),
    "cards": ("commands.printing:cards", "Print and play: GAME's cards (default: every game) as sheets with crop "
              "marks, PNGs and a TTS deck."),
    "board": ("commands.printing:board",
              "Print GAME's hex maps at board size, tiled over several pages with overlap marks."),
    "explain": ("commands.language:explain", "Show how EFFECT parses, reads in English and compiles, for GAME."),
    "verbs": ("commands.language:verbs",
              "List the verbs of the effect language: signature, English template, description, example."),
    "docs": ("commands.language:docs",
             "Generate the language reference docs/language.md from the grammar and the verb registry."),
    "schema": ("commands.language:schema",
               "Export the JSON Schemas (generic and per game) and a VS Code settings example, for editors."),
    "lsp": ("commands.language:lsp",
            "Run the language server (diagnostics, completion, hover in effect text) for an editor."),
    "new": ("commands.authoring:new", "Create a new game folder or a skeleton card."),
    "studio": ("commands.studio:studio", "Serve the studio for every game under PATH on 127.0.0.1: cards, "
               "rulebook, balance, play, live."),
    "diff": ("commands.authoring:diff",
             "List cards added, removed and changed between two data folders (effects in English)."),
}

INTERNAL_ERROR = 70  # sysexits' EX_SOFTWARE: neither the data (1) nor the command line (2) is at fault


class LazyGroup(click.Group):
    """A group whose commands are imported on first use: ``cardwright validate`` imports one module of
    commands, ``cardwright --help`` none (its list comes from the table above)."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        where = COMMANDS.get(name)
        if where is None:
            return None
        module, attr = where[0].split(":")
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx, formatter):
        """The command list with each summary whole (click cuts them at the terminal's width minus the
        names; here they wrap instead)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, COMMANDS[name][1]) for name in self.list_commands(ctx)])

    def invoke(self, ctx):
        """Every refusal is a ClickException or SystemExit; anything else is a bug, reported on one
        line (a designer never sees a traceback) unless CARDWRIGHT_TRACEBACK asks for it."""
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("stopped.", err=True)
            sys.exit(130)
        except OSError as exc:  # the disk or the system said no (full, read-only, not a folder): not a bug
            where = f" ({exc.filename})" if exc.filename else ""
            click.echo(f"error: cannot go on: {exc.strerror or exc}{where}", err=True)
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - the last line of defence, by design
            if os.environ.get("CARDWRIGHT_TRACEBACK", "") not in ("", "0"):
                raise
            click.echo(f"internal error: {type(exc).__name__}: {exc}\n"
                       "This is a bug in cardwright, not in your data. Run again with CARDWRIGHT_TRACEBACK=1 "
                       "for the traceback and report it.", err=True)
            sys.exit(INTERNAL_ERROR)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="cardwright")
def main() -> None:
    """cardwright: compile card and map data with effect text into playable, printable games.

    \b
    Example:
      cardwright new game mygame && cardwright build && cardwright play mygame
    """


def entry() -> None:
    """The ``cardwright`` program: ``main``, then, when a command that built the data succeeded, an
    exit that skips the interpreter's teardown (freeing every object of a 10,000-card build one by
    one took about a second). Only on success: a failure exits the ordinary way. Everything the
    command wrote is closed by then (write_outputs closes each file before renaming it); stdout and
    stderr are flushed here first."""
    import commands

    commands.ONE_SHOT = True
    try:
        main()
    except SystemExit as exc:
        if commands.FAST_EXIT and exc.code in (0, None):
            _flush_and_exit()
        raise
    if commands.FAST_EXIT:
        _flush_and_exit()


def _flush_and_exit() -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: exit the ordinary way, which reports it
        return
    os._exit(0)


if __name__ == "__main__":
    entry()
