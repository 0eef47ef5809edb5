"""Checking and compiling the data: validate, compile, build, watch."""
from __future__ import annotations

import sys

import click

from compiler.diagnostics import display_path

from .common import (ContentError, UsageProblem, compile_tree, data_argument, emit, format_option, output_dir,
                     plural, status, write_generated)


@click.command()
@data_argument
@click.option("--fit", "check_fit", is_flag=True,
              help="Also lay out every card face (poker size, or --size) in headless Chromium and report text that "
                   "does not fit even at its kind's smallest type (E801).")
@click.option("--size", default="poker", show_default=True, help="With --fit: the card size to check.")
@click.option("--strict", is_flag=True, help="With --fit: text that does not fit is an error, not a warning.")
@format_option
def validate(path, data, check_fit, size, strict, fmt):
    """Check the data under PATH (default: ./data or the bundled games); write nothing.

    \b
    Examples:
      cardwright validate
      cardwright validate data --fit --size bridge --format json
    """
    # everything compile checks, without generating code (--fit lays the cards out: it needs the code in memory)
    result = compile_tree(data, emit=check_fit, keep_documents=check_fit)  # --fit lays out the cards' documents
    if check_fit and result.ok:
        from compiler.cardsheet import SheetError, SheetSpec, TemplateError, deck, fit_text, parse_size
        from compiler.reference import PdfError

        try:
            spec = SheetSpec(card=parse_size(size))
        except SheetError as exc:
            raise UsageProblem(str(exc)) from None
        for g in sorted(result.games):
            if fmt == "text":
                status(f"{g}: fitting the text of the cards")
            try:
                fit_text(result, g, deck(result, g, spec, data / g), spec, result.diags, strict)
            except TemplateError as exc:  # a designer's card template: located, like any content error
                status(None)
                result.diags.append(exc.diagnostic)
                emit(result.diags, fmt, {"games": sorted(result.games)})
                sys.exit(1)
            except PdfError as exc:
                raise ContentError(str(exc)) from None
    status(None)
    emit(result.diags, fmt, {"games": sorted(result.games)})
    if result.ok and fmt == "text":
        cards = sum(g.card_count for g in result.games.values())
        effects = sum(g.effect_count for g in result.games.values())
        click.echo(f"ok: {len(result.games)} games, {cards} cards, {effects} effects checked.")
    sys.exit(0 if result.ok else 1)


@click.command("compile")
@data_argument
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: generated/ beside the data).")
@click.option("--check", is_flag=True, help="Write nothing; fail listing stale files if generated/ is out of date.")
@format_option
def compile_cmd(path, data, out, check, fmt):
    """Compile every effect into Python modules under generated/.

    \b
    Examples:
      cardwright compile
      cardwright compile data --check
    """
    from compiler.build import stale_files

    out_dir = output_dir(data, "generated", out)
    result = compile_tree(data, keep_documents=False)  # it writes code: the documents can go as it goes
    if not result.ok:
        emit(result.diags, fmt)
        sys.exit(1)
    if check:
        stale = stale_files(result, out_dir)
        if fmt == "json":
            emit(result.diags, fmt, {"stale": stale})
        elif stale:
            click.echo(f"{display_path(out_dir)} is stale; run `cardwright compile`:", err=True)
            for s in stale:
                click.echo(f"  {s}", err=True)
        else:
            click.echo(f"{display_path(out_dir)} is up to date ({len(result.outputs)} files).")
        sys.exit(1 if stale else 0)
    changed = write_generated(result, out_dir, fmt)
    if fmt == "json":
        emit(result.diags, fmt, {"changed": changed, "out": display_path(out_dir)})
    else:
        click.echo(f"compiled {len(result.games)} games into {display_path(out_dir)} "
                   f"({plural(len(changed), 'file')} changed).")


@click.command()
@data_argument
@click.option("--out", type=click.Path(file_okay=False), help="Folder for the generated code (default: generated/).")
@click.option("--reference-out", type=click.Path(file_okay=False), help="Folder for the rules references (default: build/reference).")
@format_option
def build(path, data, out, reference_out, fmt):
    """Validate, compile and render the rules references: the main job.

    \b
    Examples:
      cardwright build
      cardwright build data --out generated --reference-out build/reference
    """
    out_dir = output_dir(data, "generated", out)
    ref_dir = output_dir(data, "build", reference_out, "reference")
    result = compile_tree(data)
    if not result.ok:
        emit(result.diags, fmt)
        sys.exit(1)
    changed = write_generated(result, out_dir, fmt)
    from compiler.reference import render_all

    written = render_all(result, data, ref_dir, formats=("html",))
    if fmt == "json":
        emit(result.diags, fmt, {"changed": changed, "references": written})
        return
    cards = sum(g.card_count for g in result.games.values())
    click.echo(f"built {len(result.games)} games ({cards} cards): code in {display_path(out_dir)} "
               f"({len(changed)} changed)")
    for w in written:
        click.echo(f"  reference: {display_path(w)}")


def _watch_report(rep, first: bool) -> None:
    from datetime import datetime

    stamp = datetime.now().strftime("%H:%M:%S")
    what = "build" if first else ", ".join(display_path(p) for p in rep.changed_files[:3]) + \
        (f" and {len(rep.changed_files) - 3} more" if len(rep.changed_files) > 3 else "") + " changed"
    counts = []
    if rep.new:
        counts.append(plural(len(rep.new), "new error"))
    if rep.fixed:
        counts.append(f"{len(rep.fixed)} fixed")
    if not counts:
        counts.append("no change in errors" if rep.errors else "ok")
    click.echo(f"[{stamp}] {what}: {', '.join(counts)} ({plural(rep.errors, 'error')} "
               f"in all; {rep.seconds:.2f} s, {plural(rep.reparsed, 'module')} "
               f"recompiled ({plural(rep.cards, 'card')}), {rep.reused} reused"
               + (f", {plural(len(rep.scenarios), 'scenario')} run" if rep.scenarios else "") + ")")
    for d in rep.fixed:
        click.echo(f"  fixed: {d.headline()}")
    for d in rep.new:
        click.echo("  new:   " + d.render().replace("\n", "\n         "))
    for w in rep.written:
        click.echo(f"  wrote {w}")


@click.command()
@data_argument
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: generated/ beside the data).")
@click.option("--interval", type=float, default=0.3, show_default=True,
              help="Seconds between looks, where the folder's file events cannot be watched.")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help="Cache folder (default: .cardwright-cache/ beside the data; safe to delete).")
@click.option("--no-write", is_flag=True, help="Only revalidate; do not write generated code.")
@click.option("--scenarios/--no-scenarios", default=True, show_default=True,
              help="Re-run the scenarios of a game whose code or scenarios changed.")
@click.option("--once", is_flag=True, help="Build once (filling the cache), report, and exit.")
def watch(path, data, out, interval, cache_dir, no_write, scenarios, once):
    """Revalidate and recompile on every save; print only the errors that appear or go away.

    \b
    Examples:
      cardwright watch
      cardwright watch data --no-write --no-scenarios
    """
    from compiler.cache import ModuleCache
    from compiler.watch import Watcher

    out_dir = None if no_write else output_dir(data, "generated", out)
    cache = ModuleCache(output_dir(data, ".cardwright-cache", cache_dir))
    watcher = Watcher(data, out_dir, cache, run_scenarios=scenarios)
    watcher.poll()
    rep = watcher.build()
    _watch_report(rep, first=True)
    if once:
        sys.exit(0 if rep.ok else 1)
    watcher.settle()
    click.echo(f"watching {display_path(data)} ({plural(len(watcher.stamps), 'file')}); Ctrl-C to stop.")
    try:
        for changed in watcher.changes(interval):
            _watch_report(watcher.build(changed), first=False)
    except KeyboardInterrupt:
        pass
    click.echo("stopped.")

