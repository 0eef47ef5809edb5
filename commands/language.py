"""The effect language and the editor: explain, verbs, docs, schema, lsp."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from compiler import resources
from compiler.diagnostics import Diagnostics, display_path

from .common import (GAME, ContentError, UsageProblem, data_option, emit, format_option, game_dir, game_engine,
                     output_dir)


@click.command()
@click.argument("effect")
@click.option("--game", required=True, type=GAME, help="The game whose vocabulary and verbs to use.")
@data_option
@format_option
def explain(effect, game, data, fmt):
    """Show how EFFECT parses, reads in English and compiles, for GAME.

    \b
    Example:
      cardwright explain "spend 1 gun: gain 2 vp" --game fifty_first_state
    """
    from compiler.build import load_game
    from compiler.english import render_effect
    from compiler.explain import explain_effect, menu_labels
    from compiler.printer import print_effect

    diags = Diagnostics()
    _, vocab = load_game(game_dir(data, game) / "game.yaml", diags)
    if vocab is None:
        emit(diags, fmt)
        sys.exit(1)
    ex = explain_effect(effect, vocab)
    if ex.diags.errors:
        emit(ex.diags, fmt)
        sys.exit(1)
    english = render_effect(ex.ir, vocab)
    menus = menu_labels(ex.ir)  # the labels a player is offered at run time, from the same IR field
    if fmt == "json":
        click.echo(json.dumps({"ok": True, "canonical": print_effect(ex.effect), "english": english,
                               "menus": [list(m) for m in menus],
                               "ast": repr(ex.effect), "ir": repr(ex.ir), "python": ex.source}, indent=2))
        return
    click.echo("canonical: " + print_effect(ex.effect))
    if english:
        click.echo("english:   " + english)
    for labels in menus:
        click.echo("menu:      " + " | ".join(labels))
    click.echo("ast:       " + repr(ex.effect))
    click.echo("ir:        " + repr(ex.ir))
    click.echo("python:\n" + ex.source)


@click.command()
@click.option("--game", type=GAME, help="Only the verbs available to this game's engine.")
@data_option
@format_option
def verbs(game, data, fmt):
    """List the verbs of the effect language: signature, English template, description, example.

    \b
    Examples:
      cardwright verbs
      cardwright verbs --game age_of_steam --format json
    """
    from compiler.langref import verb_docs

    engine = None
    if game:
        engine = game_engine(data, game)
        if engine is None:
            raise UsageProblem(f"no readable game '{game}' under {display_path(data)}")
    docs = verb_docs(engine)
    aliases = _verb_aliases(data, game) if game else {}  # issue 28: the game's own words for verbs
    if fmt == "json":
        out = [dict(d.to_json(), aliases=sorted(a for a, v in aliases.items() if v == d.name)) for d in docs] \
            if game else [d.to_json() for d in docs]
        click.echo(json.dumps({"game": game, "engine": engine, "verbs": out}, indent=2, sort_keys=True))
        return
    if game:
        click.echo(f"verbs for {game} (engine {engine}): {len(docs)}")
    for d in docs:
        click.echo("")
        click.echo(f"{d.usage}" + ("" if d.engine == "core" else f"    [{d.engine}]")
                   + ("  (replaces the core verb)" if d.overrides_core else ""))
        click.echo(f"  english: {d.template}")
        written = sorted(a for a, v in aliases.items() if v == d.name)
        if written:
            click.echo(f"  also written (game.yaml verb_aliases): {', '.join(written)}")
        if d.honours:
            click.echo(f"  honours {d.honours}")
        if d.doc:
            click.echo(f"  {' '.join(d.doc.split())}")
        click.echo(f"  example: {d.example}")


def _verb_aliases(data, game: str) -> dict:
    """game.yaml ``verb_aliases`` of ``game`` (alias -> verb), as written; {} when unreadable."""
    from compiler.loader import load_file

    gdoc = load_file(game_dir(data, game) / "game.yaml", Diagnostics())
    raw = gdoc.data.get("verb_aliases") if gdoc is not None and isinstance(gdoc.data, dict) else None
    return {k: v for k, v in raw.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(raw, dict) else {}


@click.command()
@click.option("--check", is_flag=True, help="Write nothing; fail when docs/language.md is stale.")
@click.option("--out", type=click.Path(dir_okay=False), help="Where to write (default: docs/language.md).")
@format_option
def docs(check, out, fmt):
    """Generate the language reference docs/language.md from the grammar and the verb registry.

    \b
    Examples:
      cardwright docs
      cardwright docs --check
    """
    from compiler.langref import language_md_path, render_language_reference

    if not out and not resources.is_checkout():
        raise UsageProblem("docs/language.md belongs to a source checkout; outside one, pass --out FILE")
    target = Path(out) if out else language_md_path()
    ref = render_language_reference()
    if ref.problems:
        if fmt == "json":
            click.echo(json.dumps({"ok": False, "problems": ref.problems}, indent=2))
            sys.exit(1)
        for p in ref.problems[:-1]:
            click.echo(f"error: {p}", err=True)
        raise ContentError(ref.problems[-1])
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    stale = current != ref.text
    if not check and stale:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(ref.text, encoding="utf-8", newline="\n")
    if fmt == "json":
        click.echo(json.dumps({"ok": not (check and stale), "file": display_path(target),
                               "stale": check and stale, "written": not check and stale}, indent=2))
    elif check and stale:
        click.echo(f"{display_path(target)} is stale; run `cardwright docs`.", err=True)
    elif stale:
        click.echo(f"wrote {display_path(target)}.")
    else:
        click.echo(f"{display_path(target)} is up to date.")
    sys.exit(1 if check and stale else 0)


@click.command()
@click.option("--game", type=GAME, help="Only this game's per-game schema (the generic ones are always written).")
@data_option
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write the schemas to.")
@click.option("--in-data", is_flag=True,
              help="Refresh the per-game schemas the data files' first lines point at (DATA/schema/games/), "
                   "after an edit of game.yaml made without the language server.")
@format_option
def schema(game, data, out, in_data, fmt):
    """Export the JSON Schemas (generic and per game) and a VS Code settings example, for editors.

    \b
    Examples:
      cardwright schema --out editor-schemas
      cardwright schema --in-data --data data
    """
    from compiler.schemaexport import export, write_game_schemas

    if not out and not in_data:
        raise click.UsageError("say where: --out DIR, or --in-data")
    diags = Diagnostics()
    written: list[Path] = []
    if in_data:
        try:
            written += write_game_schemas(data)
        except OSError as exc:  # compiler/outputs.py: the data folder's schema/ leads elsewhere
            raise ContentError(exc.strerror or str(exc)) from None
    if out:
        written += export(data, output_dir(data, "", out), game, diags)
    emit(diags, fmt, {"written": [display_path(p) for p in written]})
    if fmt == "text":
        for p in written:
            click.echo(f"wrote {display_path(p)}")
    sys.exit(1 if diags.errors else 0)


@click.command()
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only transport).")
def lsp(stdio):
    """Run the language server (diagnostics, completion, hover in effect text) for an editor.

    \b
    Example (what an editor runs; see docs/editor.md):
      cardwright lsp --stdio
    """
    try:
        from compiler.lsp.server import main as serve
    except ImportError as exc:  # the lsp extra is not installed
        raise UsageProblem(f"the language server needs pygls ({exc}); install it with "
                           "`pip install 'cardwright[lsp]'`") from None
    serve()
