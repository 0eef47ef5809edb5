"""Printed output: the rules reference, the card sheets, the board.

All three choose what to write the same way — ``--output KIND``, repeatable — and report with
``--format text|json``. (``reference --format html|md|pdf`` is the old spelling of ``--output``, still
accepted; docs/decisions.md.)
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

from compiler.diagnostics import display_path

from .common import (GAME, ContentError, UsageProblem, compile_tree, data_option, emit, format_option,
                     game_options, given_options, output_dir, plural, status)

REFERENCE_KINDS = ("html", "md", "pdf")


@click.command()
@click.argument("game", required=False, type=GAME)
@click.option("--output", "outputs", type=click.Choice(REFERENCE_KINDS), multiple=True,
              help="html (default), md or pdf; repeat for several.")
@click.option("--format", "formats", type=click.Choice(["text", "json", *REFERENCE_KINDS]), multiple=True,
              help="text (default) or json: how the written files are reported. (html, md, pdf: the old "
                   "spelling of --output, still accepted.)")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: build/reference beside the data).")
@data_option
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size for PDF (the HTML prints on both).")
@click.option("--audience", type=click.Choice(["players", "designers"]), default="players", show_default=True,
              help="players: a rulebook for playtesters (page numbers, turn summary, no file paths, test names "
                   "or clause table); designers: every traceability detail.")
@click.option("--coords", is_flag=True, help="Print each hex's coordinates on the maps.")
@game_options
def reference(game, outputs, formats, out, data, paper, audience, coords, option_pairs, packs):
    """Render the printable rules reference of GAME (default: every game) as HTML, Markdown or PDF.

    \b
    Examples:
      cardwright reference
      cardwright reference age_of_steam --output pdf --output md --paper letter --coords
      cardwright reference fifty_first_state --pack moloch --option difficulty=veteran
    """
    from compiler.reference import PdfError, render_all

    fmt = "json" if "json" in formats else "text"
    kinds = tuple(dict.fromkeys([*outputs, *(f for f in formats if f in REFERENCE_KINDS)])) or ("html",)
    result = compile_tree(data, only={game} if game else None)
    if not result.ok:
        emit(result.diags, fmt)
        sys.exit(1)
    out_dir = output_dir(data, "build", out, "reference")
    given = given_options(option_pairs, packs)
    if given and not game:
        raise UsageProblem("--option and --pack choose one game's options: name the GAME")
    try:
        written = render_all(result, data, out_dir, formats=kinds, paper=paper, audience=audience, coords=coords,
                             options=given)
    except PdfError as exc:
        raise ContentError(str(exc)) from None
    except ValueError as exc:  # OptionError: an option the game does not declare, a value it does not allow
        raise UsageProblem(str(exc)) from None
    if fmt == "json":
        emit(result.diags, "json", {"references": [display_path(w) for w in written]})
        return
    click.echo(f"rules reference of {plural(len(result.games), 'game')} in {display_path(out_dir)}:")
    for w in written:
        click.echo(f"  {display_path(w)}")


@click.command()
@click.argument("game", required=False, type=GAME)
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
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: build/cards/GAME beside the data).")
@data_option
@format_option
def cards(game, size, paper, bleed, safe, duplex, outputs, image_url, margin, png_size, strict, out, data, fmt):
    """Print and play: GAME's cards (default: every game) as sheets with crop marks, PNGs and a TTS deck.

    \b
    Examples:
      cardwright cards infernal_contraption
      cardwright cards infernal_contraption --size bridge --paper letter --output pdf --safe-zone 3
    """
    import re

    from compiler.cardsheet import (
        SheetError,
        SheetSpec,
        TemplateError,
        copies_of,
        fit,
        more_per_sheet,
        parse_size,
        write_cards,
    )
    from compiler.reference import PdfError

    try:
        png = None
        if png_size is not None:
            m = re.fullmatch(r"\s*([0-9]{2,5})\s*[x×]\s*([0-9]{2,5})\s*(?:px)?\s*", png_size)
            if not m:
                raise SheetError(f"--png-size {png_size!r}: use WxH in pixels, e.g. 822x1122")
            png = (int(m.group(1)), int(m.group(2)))
        spec = SheetSpec(card=parse_size(size), paper=paper, bleed=bleed, safe=safe, duplex=duplex, margin=margin,
                         png_size=png)
        grid = fit(spec)
    except SheetError as exc:
        raise UsageProblem(str(exc)) from None
    result = compile_tree(data, only={game} if game else None)
    if not result.ok:
        emit(result.diags, fmt)
        sys.exit(1)
    kinds = tuple(dict.fromkeys(outputs)) or ("pdf", "png", "tts", "html")
    written: dict[str, list[str]] = {}
    copies: dict[str, str] = {}
    for g in sorted(result.games):
        out_dir = output_dir(data, "build", str(Path(out) / g) if out and not game else out, "cards", g)
        try:
            files = write_cards(result, g, out_dir, spec, kinds, game_dir=data / g, image_url=image_url,
                                diags=result.diags, strict=strict, progress=status if fmt == "text" else None)
        except TemplateError as exc:  # a designer's template: located, like any content error
            result.diags.append(exc.diagnostic)
            emit(result.diags, fmt)
            sys.exit(1)
        except (PdfError, SheetError) as exc:
            raise ContentError(str(exc)) from None
        written[g] = [display_path(p) for p in files]
        copies[g] = copies_of(result, g).summary()
    status(None)
    better = more_per_sheet(spec)
    layout = (f"{grid.cols}×{grid.rows} = {grid.per_sheet} {size} cards a sheet on {paper.upper()} with "
              f"{bleed:g} mm bleed inside a {margin:g} mm margin")
    if better:
        layout += f" (--bleed {better[0]:g} fits {better[1]}×{better[2]})"
    if fmt == "json":
        emit(result.diags, "json", {"cards": written, "per_sheet": grid.per_sheet, "layout": layout,
                                    "copies": copies})
        sys.exit(1 if result.diags.errors else 0)
    emit(result.diags, "text")
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


@click.command()
@click.argument("game", type=GAME)
@click.option("--hex-mm", type=float, default=40.0, show_default=True, help="A hex's width across its flats, mm.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--overlap", type=float, default=10.0, show_default=True, help="Overlap between tiles, mm.")
@click.option("--coords", is_flag=True, help="Print each hex's coordinates.")
@click.option("--output", "outputs", type=click.Choice(["pdf", "html"]), multiple=True,
              help="pdf and/or html (default both).")
@click.option("--out", type=click.Path(file_okay=False), help="Output folder (default: build/board beside the data).")
@data_option
@format_option
def board(game, hex_mm, paper, overlap, coords, outputs, out, data, fmt):
    """Print GAME's hex maps at board size, tiled over several pages with overlap marks.

    \b
    Examples:
      cardwright board age_of_steam
      cardwright board age_of_steam --hex-mm 35 --paper letter --output pdf --coords
    """
    import json

    from compiler.boardprint import write_board
    from compiler.cardsheet import SheetError
    from compiler.codegen import identifier
    from compiler.reference import PdfError, _exec_generated
    from runtime.engine import engine_of

    result = compile_tree(data, only={game})
    if not result.ok:
        emit(result.diags, fmt)
        sys.exit(1)
    gb = result.games[game]
    engine = engine_of(gb.vocab.source)  # the map format and its drawing are the engine's
    hex_px = engine.map_hex_px()
    out_dir = output_dir(data, "build", out, "board")
    kinds = set(outputs) or {"pdf", "html"}
    boards = []
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
        except SheetError as exc:
            raise UsageProblem(str(exc)) from None
        except PdfError as exc:
            raise ContentError(str(exc)) from None
        if "html" not in kinds:
            files[0].unlink()
            files = files[1:]
        boards.append({"title": title, "mm": [round(t.board[0]), round(t.board[1])], "pages": pages,
                       "tiles": [t.cols, t.rows], "landscape": t.landscape,
                       "files": [display_path(f) for f in files]})
        if fmt == "text":
            click.echo(f"{title}: {t.board[0]:.0f}×{t.board[1]:.0f} mm on {pages} {paper.upper()} pages "
                       f"({t.cols}×{t.rows} tiles{', landscape' if t.landscape else ''}, blank ones left out)")
            for f in files:
                click.echo(f"  {display_path(f)}")
    if not boards:
        raise ContentError(f"{game} has no hex map to print")
    if fmt == "json":
        click.echo(json.dumps({"ok": True, "boards": boards}, indent=2, sort_keys=True))
