"""cardwright's command line: the only module that talks to the terminal.

Exit codes: 0 clean, 1 content errors (located diagnostics), 2 usage errors. Bad content never
produces a Python traceback; ``--format json`` gives machines the same diagnostics.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from compiler import resources
from compiler.diagnostics import Diagnostics, display_path

# The compiler is imported when a command needs it, not here: `cardwright --help` (and a usage
# error) then costs Python and click, not the whole compiler (bench/scale.py measures it).


def compile_tree(data: Path, only: set[str] | None = None, emit: bool = True):
    """compiler.build.compile_tree, for a command that exits when it is done.

    Run as the ``cardwright`` program (``entry``), the cyclic garbage collector stays off from here
    to the end of the process: everything the build makes lives until the command ends, so a
    collection would only scan it (compile_tree pauses the collector during the build in any case;
    a one-shot command also skips the collection of the whole young heap that switching it back on
    would cost), and on success the process leaves through ``entry``'s fast exit, without freeing
    that heap object by object. Called in-process (click's test runner) nothing of this happens.
    """
    from compiler.build import compile_tree as build_tree

    global _FAST_EXIT
    if _ONE_SHOT:
        import gc

        gc.disable()
        _FAST_EXIT = True
    return build_tree(data, only=only, emit=emit)


def stale_files(result, out_dir: Path) -> list[str]:
    from compiler.build import stale_files as stale

    return stale(result, out_dir)


def write_outputs(result, out_dir: Path) -> list[str]:
    from compiler.build import write_outputs as write

    return write(result, out_dir)


_ONE_SHOT = False  # running as the `cardwright` program, which exits when the command is done
_FAST_EXIT = False  # set once such a command has built a large heap that exit would otherwise free


def entry() -> None:
    """The ``cardwright`` program: ``main``, then, when a command that built the data succeeded, an
    exit that skips the interpreter's teardown (freeing every object of a 10,000-card build one by
    one took about a second). Only on success: a failure exits the ordinary way. Everything the
    command wrote is closed by then (write_outputs closes each file before renaming it); stdout and
    stderr are flushed here first."""
    global _ONE_SHOT
    _ONE_SHOT = True
    try:
        main()
    except SystemExit as exc:
        if _FAST_EXIT and exc.code in (0, None):
            _flush_and_exit()
        raise
    if _FAST_EXIT:
        _flush_and_exit()


def _flush_and_exit() -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: exit the ordinary way, which reports it
        return
    os._exit(0)

FORMATS = click.Choice(["text", "json"])
# No table seats more; a bigger --players would only make setup build that many players before
# the game's own check (its deck) refuses. Decision: docs/decisions.md.
MAX_PLAYERS = 64


def default_data() -> Path:
    """./data when the current folder is a cardwright project, else the bundled games."""
    here = Path("data")
    if here.is_dir() and any((p / "game.yaml").is_file() for p in here.iterdir() if p.is_dir()):
        return here
    return resources.BUNDLED_DATA


def default_out(data: Path, name: str) -> Path:
    """Outputs go beside the data folder; for the bundled (installed) games, into the current folder."""
    if data.resolve() == resources.BUNDLED_DATA.resolve() and not resources.is_checkout():
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
        click.echo(f"error: {problem}", err=True)
        sys.exit(1)
    return path


def _emit(diags: Diagnostics, fmt: str, extra: dict | None = None) -> None:
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


def _write(result, out_dir: Path, fmt: str) -> list[str]:
    """Write the generated files; a disk problem is an E502 diagnostic and exit 1, not a traceback."""
    try:
        return write_outputs(result, out_dir)
    except OSError as exc:
        result.diags.error("E502", f"cannot write the generated code: {exc.strerror or exc}",
                           file=display_path(exc.filename or out_dir))
        _emit(result.diags, fmt)
        sys.exit(1)


def _data_arg(path: str | None) -> Path:
    return Path(path) if path else default_data()


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
    return (f"error: no game '{game}' under {where}" + (f" ({hint})" if hint else "")
            + f"; games: {', '.join(sorted(choices)) or 'none'}")


def require_game(game: str, data: Path) -> None:
    """Exit 2 (a usage error, as for any wrong argument) when ``game`` is not a game under ``data``,
    before anything is read further or written."""
    names = game_names(data)
    if game not in names:
        click.echo(unknown_game(game, names, display_path(data)), err=True)
        sys.exit(2)


# A PATH argument or --data option that does not exist is a usage error (exit 2), as click has it.
DATA_PATH = click.Path(exists=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardwright")
def main() -> None:
    """cardwright: compile card and map data with effect text into playable, printable games."""


@main.command()
@click.argument("path", required=False, type=DATA_PATH)
@click.option("--fit", "check_fit", is_flag=True,
              help="Also lay out every card face (poker size, or --size) in headless Chromium and report text that "
                   "does not fit even at its kind's smallest type (E801).")
@click.option("--size", default="poker", show_default=True, help="With --fit: the card size to check.")
@click.option("--strict", is_flag=True, help="With --fit: text that does not fit is an error, not a warning.")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def validate(path, check_fit, size, strict, fmt):
    """Check the data under PATH (default: ./data or the bundled games); write nothing."""
    data = _data_arg(path)
    # everything compile checks, without generating code (--fit lays the cards out: it needs the code in memory)
    result = compile_tree(data, emit=check_fit)
    if check_fit and result.ok:
        from compiler.cardsheet import SheetError, SheetSpec, deck, fit_text, parse_size
        from compiler.reference import PdfError

        try:
            spec = SheetSpec(card=parse_size(size))
        except SheetError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        for g in sorted(result.games):
            if fmt == "text":
                _status(f"{g}: fitting the text of the cards")
            try:
                fit_text(result, g, deck(result, g, spec, data / g), spec, result.diags, strict)
            except PdfError as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(1)
    _status(None)
    _emit(result.diags, fmt, {"games": sorted(result.games)})
    if result.ok and fmt == "text":
        cards = sum(g.card_count for g in result.games.values())
        effects = sum(g.effect_count for g in result.games.values())
        click.echo(f"ok: {len(result.games)} games, {cards} cards, {effects} effects checked.")
    sys.exit(0 if result.ok else 1)


@main.command("compile")
@click.argument("path", required=False, type=DATA_PATH)
@click.option("--out", type=click.Path(), help="Output folder (default: generated/ beside the data).")
@click.option("--check", is_flag=True, help="Write nothing; fail listing stale files if generated/ is out of date.")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def compile_cmd(path, out, check, fmt):
    """Compile every effect into Python modules under generated/."""
    data = _data_arg(path)
    out_dir = output_dir(data, "generated", out)
    result = compile_tree(data)
    if not result.ok:
        _emit(result.diags, fmt)
        sys.exit(1)
    if check:
        stale = stale_files(result, out_dir)
        if fmt == "json":
            _emit(result.diags, fmt, {"stale": stale})
        elif stale:
            click.echo(f"{display_path(out_dir)} is stale; run `cardwright compile`:", err=True)
            for s in stale:
                click.echo(f"  {s}", err=True)
        else:
            click.echo(f"{display_path(out_dir)} is up to date ({len(result.outputs)} files).")
        sys.exit(1 if stale else 0)
    changed = _write(result, out_dir, fmt)
    if fmt == "json":
        _emit(result.diags, fmt, {"changed": changed, "out": display_path(out_dir)})
    else:
        click.echo(f"compiled {len(result.games)} games into {display_path(out_dir)} "
                   f"({len(changed)} file{'s' if len(changed) != 1 else ''} changed).")


@main.command()
@click.argument("path", required=False, type=DATA_PATH)
@click.option("--out", type=click.Path(), help="Folder for the generated code (default: generated/).")
@click.option("--reference-out", type=click.Path(), help="Folder for the rules references (default: build/reference).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def build(path, out, reference_out, fmt):
    """Validate, compile and render the rules references: the main job."""
    data = _data_arg(path)
    out_dir = output_dir(data, "generated", out)
    ref_dir = output_dir(data, "build", reference_out, "reference")
    result = compile_tree(data)
    if not result.ok:
        _emit(result.diags, fmt)
        sys.exit(1)
    changed = _write(result, out_dir, fmt)
    from compiler.reference import render_all

    written = render_all(result, data, ref_dir, formats=("html",))
    if fmt == "json":
        _emit(result.diags, fmt, {"changed": changed, "references": written})
        return
    cards = sum(g.card_count for g in result.games.values())
    click.echo(f"built {len(result.games)} games ({cards} cards): code in {display_path(out_dir)} "
               f"({len(changed)} changed)")
    for w in written:
        click.echo(f"  reference: {display_path(w)}")


@main.command()
@click.argument("game", required=False)
@click.option("--format", "formats", type=click.Choice(["html", "md", "pdf", "json"]), multiple=True,
              help="html (default), md or pdf; repeat for several. 'json' reports the written files as JSON.")
@click.option("--out", type=click.Path(), help="Output folder (default: build/reference beside the data).")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size for PDF (the HTML prints on both).")
@click.option("--audience", type=click.Choice(["players", "designers"]), default="players", show_default=True,
              help="players: a rulebook for playtesters (page numbers, turn summary, no file paths, test names "
                   "or clause table); designers: every traceability detail.")
@click.option("--coords", is_flag=True, help="Print each hex's coordinates on the maps.")
def reference(game, formats, out, data_path, paper, audience, coords):
    """Render the printable rules reference of GAME (default: every game) as HTML, Markdown or PDF."""
    from compiler.reference import PdfError, render_all

    data = _data_arg(data_path)
    if game:
        require_game(game, data)
    as_json = "json" in formats
    kinds = tuple(dict.fromkeys(f for f in formats if f != "json")) or ("html",)
    result = compile_tree(data, only={game} if game else None)
    if not result.ok:
        _emit(result.diags, "json" if as_json else "text")
        sys.exit(1)
    out_dir = output_dir(data, "build", out, "reference")
    try:
        written = render_all(result, data, out_dir, formats=kinds, paper=paper, audience=audience, coords=coords)
    except PdfError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    if as_json:
        _emit(result.diags, "json", {"references": [display_path(w) for w in written]})
        return
    click.echo(f"rules reference of {len(result.games)} game{'s' if len(result.games) != 1 else ''} "
               f"in {display_path(out_dir)}:")
    for w in written:
        click.echo(f"  {display_path(w)}")


@main.command()
@click.argument("game", required=False)
@click.option("--size", default="poker", show_default=True,
              help="Card size: poker 63x88, bridge 56x88, mini 44x63, tarot 70x120, square 70x70, or WxH in mm.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--bleed", type=float, default=3.0, show_default=True, help="Bleed around each card, mm.")
@click.option("--safe-zone", "safe", type=float, default=0.0, show_default=True,
              help="Draw a safe-zone guide this many mm inside each card's trim (0: none).")
@click.option("--duplex/--no-duplex", default=False, show_default=True,
              help="Put each sheet's backs on the following page, mirrored for a long-edge flip.")
@click.option("--output", "outputs", type=click.Choice(["pdf", "png", "tts", "html"]), multiple=True,
              help="pdf, png (one per card, 300 dpi), tts (Tabletop Simulator deck), html; repeat for several "
                   "(default: all).")
@click.option("--image-url", help="Prefix of the image URLs in the TTS JSON (default: the tts/ folder as file://).")
@click.option("--margin", type=float, default=5.0, show_default=True,
              help="Nothing is printed closer than this to the sheet's edge, mm (home printers clip 3-5 mm).")
@click.option("--png-size", help="Per-card PNGs of exactly WxH pixels at 300 dpi, a print service's template "
                                 "(e.g. 822x1122); default: the card with its bleed.")
@click.option("--strict", is_flag=True, help="Text that does not fit on a card is an error (exit 1), not a warning.")
@click.option("--out", type=click.Path(), help="Output folder (default: build/cards/GAME beside the data).")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def cards(game, size, paper, bleed, safe, duplex, outputs, image_url, margin, png_size, strict, out, data_path, fmt):
    """Print and play: GAME's cards (default: every game) as sheets with crop marks, PNGs and a TTS deck."""
    import re

    from compiler.cardsheet import (SheetError, SheetSpec, TemplateError, copies_of, more_per_sheet, parse_size,
                                    write_cards)
    from compiler.reference import PdfError

    data = _data_arg(data_path)
    if game:
        require_game(game, data)
    try:
        png = None
        if png_size is not None:
            m = re.fullmatch(r"\s*([0-9]{2,5})\s*[x×]\s*([0-9]{2,5})\s*(?:px)?\s*", png_size)
            if not m:
                raise SheetError(f"--png-size {png_size!r}: use WxH in pixels, e.g. 822x1122")
            png = (int(m.group(1)), int(m.group(2)))
        spec = SheetSpec(card=parse_size(size), paper=paper, bleed=bleed, safe=safe, duplex=duplex, margin=margin,
                         png_size=png)
        from compiler.cardsheet import fit

        grid = fit(spec)
    except SheetError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    result = compile_tree(data, only={game} if game else None)
    if not result.ok:
        _emit(result.diags, fmt)
        sys.exit(1)
    kinds = tuple(dict.fromkeys(outputs)) or ("pdf", "png", "tts", "html")
    written: dict[str, list[str]] = {}
    copies: dict[str, str] = {}
    for g in sorted(result.games):
        out_dir = output_dir(data, "build", str(Path(out) / g) if out and not game else out, "cards", g)
        try:
            files = write_cards(result, g, out_dir, spec, kinds, game_dir=data / g, image_url=image_url,
                                diags=result.diags, strict=strict, progress=_status if fmt == "text" else None)
        except TemplateError as exc:  # a designer's template: located, like any content error
            result.diags.append(exc.diagnostic)
            _emit(result.diags, fmt)
            sys.exit(1)
        except (PdfError, SheetError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)
        written[g] = [display_path(p) for p in files]
        copies[g] = copies_of(result, g).summary()
    _status(None)
    better = more_per_sheet(spec)
    layout = (f"{grid.cols}×{grid.rows} = {grid.per_sheet} {size} cards a sheet on {paper.upper()} with "
              f"{bleed:g} mm bleed inside a {margin:g} mm margin")
    if better:
        layout += f" (--bleed {better[0]:g} fits {better[1]}×{better[2]})"
    if fmt == "json":
        _emit(result.diags, "json", {"cards": written, "per_sheet": grid.per_sheet, "layout": layout,
                                     "copies": copies})
        sys.exit(1 if result.diags.errors else 0)
    _emit(result.diags, "text")
    click.echo(layout)
    for g, files in written.items():
        pngs = [f for f in files if f.endswith(".png")]
        click.echo(f"{g}: {len(files)} files in {display_path(Path(files[0]).parent) if files else '-'}; "
                   f"{copies[g]}")
        for f in files:
            if not f.endswith(".png"):
                click.echo(f"  {f}")
        if pngs:
            click.echo(f"  … and {len(pngs)} PNG images")
    sys.exit(1 if result.diags.errors else 0)


_status_open = False


def _status(message: str | None) -> None:
    """The step a long render is at, on stderr: one line rewritten in place on a terminal, plain lines
    when piped (a log keeps every step); ``None`` ends it. (``_progress`` below is the bar for a known
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


@main.command()
@click.argument("game")
@click.option("--hex-mm", type=float, default=40.0, show_default=True, help="A hex's width across its flats, mm.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--overlap", type=float, default=10.0, show_default=True, help="Overlap between tiles, mm.")
@click.option("--coords", is_flag=True, help="Print each hex's coordinates.")
@click.option("--output", "outputs", type=click.Choice(["pdf", "html"]), multiple=True, help="pdf and/or html (default both).")
@click.option("--out", type=click.Path(), help="Output folder (default: build/board beside the data).")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
def board(game, hex_mm, paper, overlap, coords, outputs, out, data_path):
    """Print GAME's hex maps at board size, tiled over several pages with overlap marks."""
    from compiler.boardprint import write_board
    from compiler.cardsheet import SheetError
    from compiler.reference import PdfError, _exec_generated
    from compiler.codegen import identifier
    from runtime.engine import engine_of

    data = _data_arg(data_path)
    require_game(game, data)
    result = compile_tree(data, only={game})
    if not result.ok:
        _emit(result.diags, "text")
        sys.exit(1)
    gb = result.games[game]
    engine = engine_of(gb.vocab.data)  # the map format and its drawing are the engine's
    hex_px = engine.map_hex_px()
    out_dir = output_dir(data, "build", out, "board")
    kinds = set(outputs) or {"pdf", "html"}
    done = 0
    for stem in gb.modules:
        rel = f"{game}/{identifier(stem)}.py"
        if rel not in result.outputs:
            continue
        ns = _exec_generated(result.outputs[rel], f"_cardwright_board_{game}_{identifier(stem)}")
        svg = engine.render_map_svg(ns["MAP"], gb.vocab, coords=coords, legend=False) if ns.get("MAP") else None
        if svg is None or hex_px is None:
            continue
        title = f"{gb.vocab.name}: {ns['MAP'].get('name') or stem}"
        try:
            t, files, pages = write_board(svg, out_dir, f"{game}-{identifier(stem)}", title, hex_mm, paper, overlap,
                                   pdf="pdf" in kinds, hex_px=hex_px)
        except (SheetError, PdfError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2 if isinstance(exc, SheetError) else 1)
        if "html" not in kinds:
            files[0].unlink()
            files = files[1:]
        done += 1
        click.echo(f"{title}: {t.board[0]:.0f}×{t.board[1]:.0f} mm on {pages} {paper.upper()} pages "
                   f"({t.cols}×{t.rows} tiles{', landscape' if t.landscape else ''}, blank ones left out)")
        for f in files:
            click.echo(f"  {display_path(f)}")
    if not done:
        click.echo(f"{game} has no hex map to print", err=True)
        sys.exit(1)


def _compiled_for(data: Path):
    """Compile the data in memory and load the named game from it (always fresh, never stale)."""
    from runtime.engine import load_from_sources

    cache: dict = {}

    def get(game: str):
        if "result" not in cache:
            cache["result"] = compile_tree(data)
        result = cache["result"]
        if not result.ok:
            raise LookupError("the game's data has errors; run `cardwright validate`")
        if game not in result.games:
            raise LookupError(unknown_game(game, sorted(result.games), display_path(data))[len("error: "):])
        return load_from_sources(result.outputs, game)

    return get


@main.command()
@click.argument("scenario", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@click.option("--quiet", is_flag=True, help="Do not print the trace.")
def run(scenario, data_path, fmt, quiet):
    """Play one or more SCENARIO files with the compiled cards and print their traces."""
    from compiler.scenario import load_scenario

    data = _data_arg(data_path)
    compiled_for = _compiled_for(data)
    diags = Diagnostics()
    reports = []
    for path in scenario:
        # each file is judged on its own diagnostics: one failing scenario never marks the next FAILED
        own = Diagnostics()
        sc = load_scenario(Path(path), compiled_for, own)
        if sc is None:
            diags.extend(own)
            continue
        r = sc.run()  # its diagnostics are `own`: what loading and running this file found
        diags.extend(own)
        reports.append({"scenario": r.name, "file": display_path(path), "ok": r.ok,
                        "outcomes": [o.status for o in r.outcomes], "trace": r.trace().splitlines()})
        if fmt == "text":
            click.echo(f"== {r.name} ({display_path(path)})")
            if not quiet:
                click.echo(r.trace())
            click.echo("ok" if r.ok else "FAILED")
    _emit(diags, fmt, {"scenarios": reports})
    sys.exit(0 if not diags.errors else 1)


@main.command()
@click.argument("effect")
@click.option("--game", required=True, help="The game whose vocabulary and verbs to use.")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def explain(effect, game, data_path, fmt):
    """Show how EFFECT parses, reads in English and compiles, for GAME."""
    import json

    from compiler.build import load_game
    from compiler.english import render_effect
    from compiler.explain import explain_effect
    from compiler.printer import print_effect

    data = _data_arg(data_path)
    require_game(game, data)
    diags = Diagnostics()
    _, vocab = load_game(_game_dir(data, game) / "game.yaml", diags)
    if vocab is None:
        _emit(diags, fmt)
        sys.exit(1)
    ex = explain_effect(effect, vocab)
    if ex.diags.errors:
        _emit(ex.diags, fmt)
        sys.exit(1)
    english = render_effect(ex.ir, vocab)
    if fmt == "json":
        click.echo(json.dumps({"ok": True, "canonical": print_effect(ex.effect), "english": english,
                               "ast": repr(ex.effect), "ir": repr(ex.ir), "python": ex.source}, indent=2))
        return
    click.echo("canonical: " + print_effect(ex.effect))
    if english:
        click.echo("english:   " + english)
    click.echo("ast:       " + repr(ex.effect))
    click.echo("ir:        " + repr(ex.ir))
    click.echo("python:\n" + ex.source)


def _game_dir(data: Path, game: str) -> Path:
    """A game's folder: ``data/<game>``, or ``data`` itself when PATH names one game's folder."""
    return data if (data / "game.yaml").is_file() and data.name == game else data / game


def _game_engine(data: Path, game: str) -> str | None:
    """The engine named by ``data/<game>/game.yaml`` (None, with diagnostics, when unreadable)."""
    from compiler.loader import load_file

    diags = Diagnostics()
    gdoc = load_file(_game_dir(data, game) / "game.yaml", diags)
    if gdoc is None or not isinstance(gdoc.data, dict):
        return None
    engine = gdoc.data.get("engine", "core")
    return engine if isinstance(engine, str) else None


@main.command()
@click.option("--game", help="Only the verbs available to this game's engine.")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def verbs(game, data_path, fmt):
    """List the verbs of the effect language: signature, English template, description, example."""
    import json

    from compiler.langref import verb_docs

    engine = None
    if game:
        data = _data_arg(data_path)
        require_game(game, data)
        engine = _game_engine(data, game)
        if engine is None:
            click.echo(f"error: no readable game '{game}' under {display_path(data)}", err=True)
            sys.exit(2)
    docs = verb_docs(engine)
    if fmt == "json":
        click.echo(json.dumps({"game": game, "engine": engine, "verbs": [d.to_json() for d in docs]},
                              indent=2, sort_keys=True))
        return
    if game:
        click.echo(f"verbs for {game} (engine {engine}): {len(docs)}")
    for d in docs:
        click.echo("")
        click.echo(f"{d.usage}" + ("" if d.engine == "core" else f"    [{d.engine}]")
                   + ("  (replaces the core verb)" if d.overrides_core else ""))
        click.echo(f"  english: {d.template}")
        if d.honours:
            click.echo(f"  honours {d.honours}")
        if d.doc:
            click.echo(f"  {' '.join(d.doc.split())}")
        click.echo(f"  example: {d.example}")


@main.command()
@click.option("--check", is_flag=True, help="Write nothing; fail when docs/language.md is stale.")
@click.option("--out", type=click.Path(dir_okay=False), help="Where to write (default: docs/language.md).")
def docs(check, out):
    """Generate the language reference docs/language.md from the grammar and the verb registry."""
    from compiler.langref import language_md_path, render_language_reference

    if not out and not resources.is_checkout():
        click.echo("error: docs/language.md belongs to a source checkout; outside one, pass --out FILE", err=True)
        sys.exit(2)
    target = Path(out) if out else language_md_path()
    ref = render_language_reference()
    for p in ref.problems:
        click.echo(f"error: {p}", err=True)
    if ref.problems:
        sys.exit(1)
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    if check:
        if current != ref.text:
            click.echo(f"{display_path(target)} is stale; run `cardwright docs`.", err=True)
            sys.exit(1)
        click.echo(f"{display_path(target)} is up to date.")
        return
    if current == ref.text:
        click.echo(f"{display_path(target)} is up to date.")
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(ref.text, encoding="utf-8", newline="\n")
    click.echo(f"wrote {display_path(target)}.")


@main.group()
def new():
    """Create a new game folder or a skeleton card."""


@new.command("game")
@click.argument("name")
@click.option("--path", "data_path", type=click.Path(file_okay=False), default="data", show_default=True,
              help="The data folder to create the game in.")
def new_game_cmd(name, data_path):
    """Create data/NAME/: a vocabulary, one module with one card and one scenario, ready to build."""
    from compiler.scaffold import ScaffoldError, new_game

    try:
        made = new_game(name, Path(data_path))
    except ScaffoldError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    for p in made.created:
        click.echo(f"created {display_path(p)}")
    data = display_path(Path(data_path))
    scen = display_path(Path(data_path) / name / "scenarios" / "first_card.yaml")
    click.echo(f"next: cardwright validate {data} && cardwright run {scen} --data {data}")


@new.command("card")
@click.option("--game", required=True, help="The game to add the card to.")
@click.option("--kind", required=True, help="A card kind declared in the game's game.yaml.")
@click.option("--id", "card_id", help="The new card's id (default: new_<kind>).")
@click.option("--module", help="The module file to append to (default: the one holding cards of this kind).")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
def new_card_cmd(game, kind, card_id, module, data_path):
    """Append a skeleton card of KIND to a module file (comments and layout are kept)."""
    from compiler.scaffold import ScaffoldError, new_card

    data = _data_arg(data_path)
    require_game(game, data)
    try:
        made = new_card(data, game, kind, card_id, module)
    except ScaffoldError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    click.echo(f"appended card '{made.card_id}' to {display_path(made.changed[0])}:")
    click.echo(made.text.rstrip("\n"))


@main.command()
@click.argument("old_path", type=click.Path())
@click.argument("new_path", type=click.Path())
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def diff(old_path, new_path, fmt):
    """List cards added, removed and changed between two data folders (effects in English).

    Either side may be a git revision and path, REV:PATH (e.g. v1.0:data), read with `git archive`.
    """
    import json

    import tempfile

    from compiler.carddiff import diff_trees, git_tree, render_text

    with tempfile.TemporaryDirectory(prefix="cardwright-diff-") as tmp:
        sides = []
        for i, spec in enumerate((old_path, new_path)):
            if ":" not in spec and not Path(spec).exists():
                raise click.BadParameter(f"Path '{spec}' does not exist.",
                                         param_hint="'OLD_PATH'" if i == 0 else "'NEW_PATH'")
            if ":" in spec and not Path(spec).exists():
                where = git_tree(spec, Path.cwd(), Path(tmp) / str(i))
                if isinstance(where, str):
                    click.echo(f"error: {where}", err=True)
                    sys.exit(2)
                sides.append(where)
            else:
                sides.append(Path(spec))
        result = diff_trees(sides[0], sides[1])
    if fmt == "json":
        click.echo(json.dumps(result.to_json(), indent=2, sort_keys=True, ensure_ascii=False))
    else:
        for d in result.diags.sorted():
            click.echo(d.render(), err=True)
        for line in render_text(result):
            click.echo(line)
    sys.exit(1 if result.diags.errors else 0)


@main.command()
@click.option("--game", help="Only this game's per-game schema (the generic ones are always written).")
@click.option("--data", "data_path", type=DATA_PATH, help="Data folder (default: ./data or bundled).")
@click.option("--out", type=click.Path(file_okay=False), help="Folder to write the schemas to.")
@click.option("--in-data", is_flag=True,
              help="Refresh the per-game schemas the data files' first lines point at (DATA/schema/games/), "
                   "after an edit of game.yaml made without the language server.")
def schema(game, data_path, out, in_data):
    """Export the JSON Schemas (generic and per game) and a VS Code settings example, for editors."""
    from compiler.schemaexport import export, write_game_schemas

    if not out and not in_data:
        raise click.UsageError("say where: --out DIR, or --in-data")
    data = _data_arg(data_path)
    if game:
        require_game(game, data)  # before any schema is written
    diags = Diagnostics()
    if in_data:
        try:
            schemas = write_game_schemas(data)
        except OSError as exc:  # compiler/outputs.py: the data folder's schema/ leads elsewhere
            click.echo(f"error: {exc.strerror or exc}", err=True)
            sys.exit(1)
        for p in schemas:
            click.echo(f"wrote {display_path(p)}")
        if not out:
            sys.exit(0)
    written = export(data, output_dir(data, "", out), game, diags)
    _emit(diags, "text")
    for p in written:
        click.echo(f"wrote {display_path(p)}")
    sys.exit(1 if diags.errors else 0)


@main.command()
@click.argument("game", required=False)
@click.option("--data", "data_path", type=DATA_PATH,
              help="Play the game of this data folder, compiled in memory (default: the compiled games).")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="How many games to play.")
@click.option("--players", type=click.IntRange(min=2, max=MAX_PLAYERS), default=2, show_default=True,
              help="Players per game; the game's own setup may allow fewer (its deck decides).")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is seeded from (seed, i).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes; the result is the same whatever this is.")
@click.option("--agents", "--agent", "agent", default="random", show_default=True,
              help="first, random, greedy, mcts (or mcts:N playouts), one per seat separated by commas "
                   "(e.g. mcts,random).")
@click.option("--turn-cap", type=click.IntRange(min=1), default=200, show_default=True,
              help="A game still running after this many turns (or rounds) stops without a winner (reported).")
@click.option("--check-moves", is_flag=True, help="Check the invariants after every move, not only after every game.")
@click.option("--out", type=click.Path(file_okay=False), default="build/simulate", show_default=True,
              help="Folder for <game>-<players>p-seed<seed>.json and .html.")
@click.option("--compare", "compare_with", metavar="OTHER",
              help="Also play OTHER — another data folder, or REV:PATH of a git revision as `diff` reads — with "
                   "the same seeds, and report what changed in the data beside what changed in the results.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: this machine's processes (--jobs); dask: a Dask distributed cluster (--scheduler; "
                   "without it a local cluster of --jobs workers is started for the run).")
@click.option("--scheduler", metavar="ADDRESS",
              help="The Dask scheduler's address, e.g. tls://10.0.0.5:8786. Its results are unpickled: the "
                   "scheduler and workers can run code as you, so use only a cluster you run, over TLS or a "
                   "private network (docs/security.md).")
@click.option("--trace", "trace", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Write the full trace of the first N games beside the report (<stem>-trace-<i>.txt).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
def simulate(game, data_path, games, players, seed, jobs, agent, turn_cap, check_moves, compare_with, executor,
             scheduler, out, fmt, trace):
    """Play GAME many times with seeded agents and report the deck's balance (JSON + HTML).

    Any game plays: a bundled one by name, or the game of a data folder with --data (GAME may then
    be left out when the folder holds one game)."""
    import json

    import time

    from compiler.build import load_game_folder
    from runtime.simulate import SimConfig, check_config, render_html
    from runtime.simulate import simulate as run_sim

    data = None
    if data_path:
        data = str(Path(data_path))
        names = game_names(Path(data_path))
        if game is None and len(names) == 1:
            game = names[0]
        if game not in names:
            click.echo(unknown_game(str(game), names, display_path(Path(data_path))), err=True)
            sys.exit(2)
    else:
        compiled = compiled_games()
        if game not in compiled:
            click.echo(unknown_game(str(game), compiled, "generated/"), err=True)
            sys.exit(2)
    cfg = SimConfig(game, games, players, seed, agent, turn_cap, jobs, data, check_moves, executor, scheduler,
                    trace=trace, loader=load_game_folder)
    traces: dict[int, str] = {}
    start = time.perf_counter()
    try:
        check_config(cfg)
        with _progress(games, f"simulating {game}") as step:
            result = run_sim(cfg, progress=step, traces=traces)
    except ModuleNotFoundError:
        click.echo(f"error: no compiled game '{game}' (run `cardwright compile`)", err=True)
        sys.exit(2)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    elapsed = time.perf_counter() - start
    out_dir = output_dir(Path("."), "", out)
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{game}-{players}p-seed{seed}"
    json_path, html_path = out_dir / f"{stem}.json", out_dir / f"{stem}.html"
    json_path.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    html_path.write_text(render_html(result), encoding="utf-8")
    trace_paths = [out_dir / f"{stem}-trace-{i}.txt" for i in sorted(traces)]
    for i, path in zip(sorted(traces), trace_paths):
        path.write_text(traces[i] + "\n", encoding="utf-8")
    if fmt == "json":
        click.echo(json.dumps({"result": str(json_path), "report": str(html_path), "seconds": round(elapsed, 3),
                               "traces": [str(p) for p in trace_paths]}))
        return
    click.echo(f"{games} games of {game}, {players} players, agents {agent}, seed {seed}: "
               f"{games / elapsed:.0f} games/s with {jobs} job{'s' if jobs != 1 else ''}")
    if result["stand_ins"]:
        click.echo(f"  played with {len(result['stand_ins'])} stand-in rules (not the published game): "
                   + "; ".join(i["what"] for i in result["stand_ins"]))
    rates = ", ".join(f"seat {s}: {v:.1%}" for s, v in result["win_rate_by_seat"].items())
    click.echo(f"  win rate by seat (seat 1 decided first): {rates}")
    if "," in agent:
        by_agent = ", ".join(f"{a}: {v:.1%}" for a, v in result["win_rate_by_agent"].items())
        click.echo(f"  win rate per player of each agent: {by_agent}")
    ln = result["length"]
    click.echo(f"  game length in {ln.get('unit', 'turns')}: mean {ln['mean']}, median {ln['median']}, min {ln['min']}, max {ln['max']}")
    click.echo(f"  games that hit the turn cap ({turn_cap}): {result['capped']['count']}")
    click.echo("  how the games ended: " + "; ".join(f"{why} x{k}" for why, k in result["end_reasons"].items()))
    inv = result["invariants"]
    click.echo(f"  invariants checked {inv['checked']}: {inv['games_broken']} games broke one")
    click.echo(f"  cards never activated: {', '.join(result['never_activated']) or 'none'}")
    click.echo(f"  wrote {display_path(json_path)} and {display_path(html_path)}")
    if trace_paths:
        click.echo(f"  wrote the traces of games 0 to {len(trace_paths) - 1}: {display_path(trace_paths[0])} …")
    if compare_with:
        _simulate_compare(cfg, result, compare_with, Path(data_path) if data_path else default_data(), out_dir, stem)
    if inv["games_broken"]:
        sys.exit(1)


def _simulate_compare(cfg, result: dict, other_spec: str, this_root: Path, out_dir: Path, stem: str) -> None:
    """``simulate --compare OTHER``: the same run on OTHER's data, and the page that sets the data's
    changes (compiler/carddiff.py, in English) beside the results' changes (runtime/simulate.compare)."""
    import dataclasses
    import json
    import tempfile

    from compiler.carddiff import diff_trees, git_tree, render_text
    from runtime.simulate import compare, render_compare_html
    from runtime.stats import interval_text
    from runtime.simulate import simulate as run_sim

    with tempfile.TemporaryDirectory(prefix="cardwright-compare-") as tmp:
        if Path(other_spec).exists():
            other_root = Path(other_spec)
        elif ":" in other_spec:
            other_root = git_tree(other_spec, Path.cwd(), Path(tmp) / "other")
            if isinstance(other_root, str):
                click.echo(f"error: {other_root}", err=True)
                sys.exit(2)
        else:
            raise click.BadParameter(f"'{other_spec}' is neither a folder nor REV:PATH", param_hint="'--compare'")
        if cfg.game not in game_names(other_root):
            click.echo(unknown_game(cfg.game, game_names(other_root), display_path(other_root)), err=True)
            sys.exit(2)
        other_cfg = dataclasses.replace(cfg, data=str(other_root))
        try:
            with _progress(cfg.games, f"simulating {cfg.game} ({other_spec})") as step:
                other = run_sim(other_cfg, progress=step)
        except ValueError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        changes = diff_trees(other_root, this_root)
        # the same game only: the folders may hold other games, whose changes are not this comparison's
        changes.games = [gd for gd in changes.games if gd.game == cfg.game]
        lines = render_text(changes)
    cmp = compare(result, other)
    cmp["data_changes"] = lines
    json_path, html_path = out_dir / f"{stem}-compare.json", out_dir / f"{stem}-compare.html"
    json_path.write_text(json.dumps(cmp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    html_path.write_text(render_compare_html(result, other, cmp, lines, "this data", other_spec), encoding="utf-8")
    click.echo(f"  compared with {other_spec} (same seeds):")
    for s, d in cmp["seats"].items():
        if d["difference"] is not None:
            click.echo(f"    seat {s}: {d['this']:.1%} against {d['other']:.1%}, change {d['difference']:+.1%} "
                       f"{interval_text(d['low'], d['high'], 0.0, True)}{' — beyond noise' if d['finding'] else ''}")
    found = [c["name"] for c in cmp["cards"].values() if (c.get("won_when_played") or {}).get("finding")]
    click.echo(f"    cards whose win rate when played changed beyond noise: {', '.join(found) or 'none'}")
    click.echo(f"  wrote {display_path(json_path)} and {display_path(html_path)}")


class _progress:
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


@main.command()
@click.argument("game", required=False)
@click.option("--data", "data_path", type=DATA_PATH,
              help="Play the game of this data folder, compiled in memory (default: the compiled games).")
@click.option("--players", type=click.IntRange(min=2, max=MAX_PLAYERS), default=2, show_default=True)
@click.option("--seat", type=click.IntRange(min=1, max=MAX_PLAYERS), default=1, show_default=True,
              help="Your seat; the other seats are bots.")
@click.option("--bots", default="greedy", show_default=True,
              help="The other seats' agents (first, random, greedy, mcts, mcts:N), one per seat separated by commas.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--name", default="You", show_default=True, help="Your name in the trace.")
def play(game, data_path, players, seat, bots, seed, name):
    """Play GAME in the terminal against bots: choose from the numbered legal moves; the trace of
    what happens is shown as it happens. Type q to stop."""
    from runtime.engine import engine_for, load_compiled
    from runtime.errors import Refused, RulesError
    from runtime.simulate import agent_list
    from runtime.standins import stand_ins

    if data_path:
        names = game_names(Path(data_path))
        game = names[0] if game is None and len(names) == 1 else game
        if game not in names:
            click.echo(unknown_game(str(game), names, display_path(Path(data_path))), err=True)
            sys.exit(2)
        try:
            compiled = _compiled_for(Path(data_path))(game)
        except LookupError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
    else:
        if game not in compiled_games():
            click.echo(unknown_game(str(game), compiled_games(), "generated/"), err=True)
            sys.exit(2)
        compiled = load_compiled(game)
    if seat > players:
        click.echo(f"error: seat {seat} of {players} players", err=True)
        sys.exit(2)
    eng = engine_for(compiled)
    if eng.playable(compiled):
        click.echo(f"error: {eng.playable(compiled)}", err=True)
        sys.exit(2)
    you = seat - 1
    try:
        kinds = agent_list(bots, players - 1, eng)
        agents = {s: eng.make_agent(kinds[i]) for i, s in enumerate(x for x in range(players) if x != you)}
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    terminal = agents[you] = _TerminalAgent()
    names_ = [name if s == you else f"Bot {s + 1}" for s in range(players)]
    try:
        eng.check_players(compiled, players)
    except (RulesError, Refused) as exc:
        click.echo(f"error: {compiled.game} cannot be played by {players} players: {exc}", err=True)
        sys.exit(2)
    # before the setup, which may already ask you something (51st State: the 2 cards to discard)
    marks = stand_ins(compiled)
    if marks:
        click.echo(f"Note: this game is played with {len(marks)} stand-in rule{'s' if len(marks) != 1 else ''} "
                   "(not the published game):")
        for m in marks:
            click.echo(f"  ‡ {m['what']}: {m['note']}")
    try:
        match = eng.new_match(compiled, names_, seed=seed, agents=agents)
    except (RulesError, Refused) as exc:
        click.echo(f"error: {compiled.game} cannot be played by {players} players: {exc}", err=True)
        sys.exit(2)
    g = match.game
    while not match.terminal():
        terminal.show_trace(g)
        who = match.to_act()
        moves = match.legal_moves()
        if who == you:
            phase = f", {g.phase.replace('_', ' ')}" if g.phase else ""
            click.echo(f"-- your move ({g.players[you].name}, round {g.round}{phase}): " + _goods_text(g, you))
            move = _TerminalAgent.pick_numbered(moves, "your move")
            if move is None:
                click.echo("stopped.")
                return
        else:
            move = agents[who].pick(match, moves)
        click.echo(f"{g.players[who].name} » {move.label}")
        match.apply(move)
    terminal.show_trace(g)
    res = match.result()
    scores = ", ".join(f"{g.players[s].name} {v}" for s, v in enumerate(res.scores))
    click.echo(f"game over: {res.reason}" + (f" (scores: {scores})" if scores else ""))


def _goods_text(game, seat: int) -> str:
    """What the player holds: Goods, and the cards in hand (``rules.hand``)."""
    names = game.vocab.get("goods") or {}
    goods = ", ".join(f"{n} {(names.get(k) or {}).get('name') or k}" for k, n in sorted(game.players[seat].goods.items())
                      if n) or "no goods"
    hand = (game.vocab.get("rules") or {}).get("hand")
    if hand and (hand, seat) in game.zones:
        cards = [str(game.cards[game.instances[u].card_id].get("name")) for u in game.zones[(hand, seat)]]
        goods += "; hand: " + (", ".join(cards) or "empty")
    return goods


class _TerminalAgent:
    """The person at the terminal: every choice is a numbered list (the runtime's Agent interface)."""

    name = "terminal"

    def __init__(self):
        self.shown = 0  # how much of the game's trace the person has seen

    def show_trace(self, game) -> None:
        """The trace since it was last shown: what happened before the person is asked anything."""
        for ev in game.log[self.shown:]:
            click.echo(f"   {ev}")
        self.shown = len(game.log)

    @staticmethod
    def pick_numbered(options, prompt: str, default: int = 1):
        """The option whose number is typed; Enter takes ``default`` (an "up to" choice: done)."""
        for i, opt in enumerate(options, 1):
            click.echo(f"  {i:>3}. {getattr(opt, 'label', opt)}")
        enter = "" if default == 1 else f", Enter = {default}"
        while True:
            answer = click.prompt(f"{prompt} [1-{len(options)}{enter}, q to stop]", default=str(default),
                                  show_default=False)
            if answer.strip().lower() in ("q", "quit"):
                return None
            if answer.strip().isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            click.echo(f"  type a number from 1 to {len(options)}")

    def pick(self, match, moves):
        return self.pick_numbered(moves, "your move")

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        self.show_trace(game)  # a choice inside an effect: first what led to it
        options = list(options)
        least = k if low is None else low
        picks: list = []
        while len(picks) < k:
            left = [o for o in options if o not in picks]
            if not left:
                break
            shown = [_Option(o, game) for o in left]
            if len(picks) >= least:
                shown.append(_Option(None, game, "done"))
            # once enough is chosen, Enter means done: pressing it never takes more than asked for
            got = self.pick_numbered(shown, f"{prompt or 'choose'} ({len(picks) + 1} of {k})",
                                     len(shown) if len(picks) >= least else 1)
            if got is None:
                raise click.Abort()
            if got.value is None:
                break
            picks.append(got.value)
        return picks


class _Option:
    def __init__(self, value, game, text: str | None = None):
        self.value = value
        if text is None:
            from runtime.context import Ctx

            text = Ctx(game, 0).describe(value) if value is not None else "done"
        self.label = text


def compiled_games() -> list[str]:
    """The games compiled into the ``generated`` package (what simulate can play)."""
    import pkgutil

    try:
        import generated
    except ImportError:  # pragma: no cover - an install without generated code
        return []
    return sorted(m.name for m in pkgutil.iter_modules(generated.__path__) if m.ispkg)


def _watch_report(rep, first: bool) -> None:
    from datetime import datetime

    stamp = datetime.now().strftime("%H:%M:%S")
    what = "build" if first else ", ".join(display_path(p) for p in rep.changed_files[:3]) + \
        (f" and {len(rep.changed_files) - 3} more" if len(rep.changed_files) > 3 else "") + " changed"
    counts = []
    if rep.new:
        counts.append(f"{len(rep.new)} new error{'s' if len(rep.new) != 1 else ''}")
    if rep.fixed:
        counts.append(f"{len(rep.fixed)} fixed")
    if not counts:
        counts.append("no change in errors" if rep.errors else "ok")
    click.echo(f"[{stamp}] {what}: {', '.join(counts)} ({rep.errors} error{'s' if rep.errors != 1 else ''} "
               f"in all; {rep.seconds:.2f} s, {rep.reparsed} module{'s' if rep.reparsed != 1 else ''} "
               f"recompiled ({rep.cards} card{'s' if rep.cards != 1 else ''}), {rep.reused} reused"
               + (f", {len(rep.scenarios)} scenario{'s' if len(rep.scenarios) != 1 else ''} run" if rep.scenarios
                  else "") + ")")
    for d in rep.fixed:
        click.echo(f"  fixed: {d.headline()}")
    for d in rep.new:
        click.echo("  new:   " + d.render().replace("\n", "\n         "))
    for w in rep.written:
        click.echo(f"  wrote {w}")


@main.command()
@click.argument("path", required=False, type=DATA_PATH)
@click.option("--out", type=click.Path(), help="Output folder (default: generated/ beside the data).")
@click.option("--interval", type=float, default=0.3, show_default=True,
              help="Seconds between looks, where the folder's file events cannot be watched.")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help="Cache folder (default: .cardwright-cache/ beside the data; safe to delete).")
@click.option("--no-write", is_flag=True, help="Only revalidate; do not write generated code.")
@click.option("--scenarios/--no-scenarios", default=True, show_default=True,
              help="Re-run the scenarios of a game whose code or scenarios changed.")
@click.option("--once", is_flag=True, help="Build once (filling the cache), report, and exit.")
def watch(path, out, interval, cache_dir, no_write, scenarios, once):
    """Revalidate and recompile on every save; print only the errors that appear or go away."""
    from compiler.cache import ModuleCache
    from compiler.watch import Watcher

    data = _data_arg(path)
    out_dir = None if no_write else output_dir(data, "generated", out)
    cache = ModuleCache(output_dir(data, ".cardwright-cache", cache_dir))
    watcher = Watcher(data, out_dir, cache, run_scenarios=scenarios)
    watcher.poll()
    rep = watcher.build()
    _watch_report(rep, first=True)
    if once:
        sys.exit(0 if rep.ok else 1)
    watcher.settle()
    click.echo(f"watching {display_path(data)} ({len(watcher.stamps)} files); Ctrl-C to stop.")
    try:
        for changed in watcher.changes(interval):
            _watch_report(watcher.build(changed), first=False)
    except KeyboardInterrupt:
        pass
    click.echo("stopped.")


@main.command()
@click.option("--stdio", is_flag=True, help="Talk over stdin/stdout (the default and only transport).")
def lsp(stdio):
    """Run the language server (diagnostics, completion, hover in effect text) for an editor."""
    try:
        from compiler.lsp.server import main as serve
    except ImportError as exc:  # the lsp extra is not installed
        click.echo(f"error: the language server needs pygls ({exc}); install it with "
                   "`pip install 'cardwright[lsp]'`", err=True)
        sys.exit(2)
    serve()


if __name__ == "__main__":
    entry()
