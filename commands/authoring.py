"""A designer's scaffolding and review: new game, new card, diff."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from compiler.diagnostics import display_path

from .common import GAME, UsageProblem, data_option, format_option


@click.group()
def new():
    """Create a new game folder or a skeleton card.

    \b
    Examples:
      cardwright new game mygame
      cardwright new card --game mygame --kind location --id barracks
    """


@new.command("game")
@click.argument("name")
@click.option("--path", "data_path", type=click.Path(file_okay=False), default="data", show_default=True,
              help="The data folder to create the game in.")
@format_option
def new_game_cmd(name, data_path, fmt):
    """Create data/NAME/: a vocabulary, one module with one card and one scenario, ready to build.

    \b
    Example:
      cardwright new game mygame --path data
    """
    from compiler.scaffold import ScaffoldError, new_game

    try:
        made = new_game(name, Path(data_path))
    except ScaffoldError as exc:
        raise UsageProblem(str(exc)) from None
    data = display_path(Path(data_path))
    scen = display_path(Path(data_path) / name / "scenarios" / "first_card.yaml")
    nxt = f"cardwright validate {data} && cardwright run {scen} --data {data}"
    if fmt == "json":
        click.echo(json.dumps({"ok": True, "created": [display_path(p) for p in made.created], "next": nxt},
                              indent=2))
        return
    for p in made.created:
        click.echo(f"created {display_path(p)}")
    click.echo(f"next: {nxt}")


@new.command("card")
@click.option("--game", required=True, type=GAME, help="The game to add the card to.")
@click.option("--kind", required=True, help="A card kind declared in the game's game.yaml.")
@click.option("--id", "card_id", help="The new card's id (default: new_<kind>).")
@click.option("--module", help="The module file to append to (default: the one holding cards of this kind).")
@data_option
@format_option
def new_card_cmd(game, kind, card_id, module, data, fmt):
    """Append a skeleton card of KIND to a module file (comments and layout are kept).

    \b
    Example:
      cardwright new card --game mygame --kind location --id barracks
    """
    from compiler.scaffold import ScaffoldError, new_card

    try:
        made = new_card(data, game, kind, card_id, module)
    except ScaffoldError as exc:
        raise UsageProblem(str(exc)) from None
    if fmt == "json":
        click.echo(json.dumps({"ok": True, "card": made.card_id, "file": display_path(made.changed[0]),
                               "text": made.text}, indent=2))
        return
    click.echo(f"appended card '{made.card_id}' to {display_path(made.changed[0])}:")
    click.echo(made.text.rstrip("\n"))


def _side(spec: str, hint: str, scratch: Path) -> Path:
    """One side of ``diff``: a data folder, or REV:PATH read from git. A path that is not a folder (a
    file, or nothing) is a usage error, as for every command's data folder."""
    from compiler.carddiff import git_tree

    path = Path(spec)
    if path.exists() or ":" not in spec:
        if not path.exists():
            raise click.BadParameter(f"Path '{spec}' does not exist.", param_hint=hint)
        if not path.is_dir():
            raise click.BadParameter(f"'{spec}' is a file; name a data folder (or REV:PATH).", param_hint=hint)
        return path
    where = git_tree(spec, Path.cwd(), scratch)
    if isinstance(where, str):
        raise UsageProblem(where)
    if where.is_symlink():  # git archive holds the link, not what it points to
        raise click.BadParameter(f"'{spec}' is a symbolic link in that revision; name the folder it points to.",
                                 param_hint=hint)
    if not where.is_dir():
        raise click.BadParameter(f"'{spec}' is not a folder in that revision; name a data folder.",
                                 param_hint=hint)
    return where


def _named_as_typed(diags, sides: list[tuple[Path, str]]) -> None:
    """A file of a REV:PATH side is named REV:PATH/…, as the designer typed it, not by the scratch
    folder it was extracted into (which is gone when the command ends)."""
    import dataclasses
    import os

    for i, d in enumerate(diags):
        for root, spec in sides:
            prefix = os.path.realpath(root)
            if d.file and os.path.realpath(os.path.dirname(d.file)).startswith(prefix):
                rel = os.path.relpath(os.path.join(os.path.realpath(os.path.dirname(d.file)),
                                                   os.path.basename(d.file)), prefix)
                diags[i] = dataclasses.replace(d, file=spec.rstrip("/") + "/" + rel.replace(os.sep, "/"))


@click.command()
@click.argument("old_path", type=click.Path())
@click.argument("new_path", type=click.Path())
@format_option
def diff(old_path, new_path, fmt):
    """List cards added, removed and changed between two data folders (effects in English).

    Either side may be a git revision and path, REV:PATH (e.g. v1.0:data), read with `git archive`.

    \b
    Examples:
      cardwright diff old-data data
      cardwright diff v1.0:data data --format json
    """
    import tempfile

    from compiler.carddiff import diff_trees, render_text

    with tempfile.TemporaryDirectory(prefix="cardwright-diff-") as tmp:
        sides = [_side(old_path, "'OLD_PATH'", Path(tmp) / "0"), _side(new_path, "'NEW_PATH'", Path(tmp) / "1")]
        result = diff_trees(sides[0], sides[1])
        _named_as_typed(result.diags, [(root, spec) for root, spec in zip(sides, (old_path, new_path))
                                       if str(root).startswith(tmp)])
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        for d in result.diags.sorted():
            click.echo(d.render(), err=True)
        for line in render_text(result):
            click.echo(line)
    sys.exit(1 if result.diags.errors else 0)
