"""The printed matter the studio shows, made by the same functions as ``cardwright cards`` and
``cardwright reference``, from each game's last clean build (studio/workspace.py ``Clean``).

- A card's **face** (or back) is the ``cards`` command's one-card-a-page document
  (``compiler.cardsheet.render_singles``) of a deck holding that card alone: the same template, the
  same stylesheet, the same policy (no script, nothing fetched) as the PNGs it prints. The deck it is
  taken from is its module file's (rendered once per clean build, at the first face asked for).
- A game's **reference** is ``compiler.reference.render_game`` for the players or the designers.

Each is rendered once per clean build and kept with it.
"""
from __future__ import annotations

from dataclasses import replace

from markupsafe import Markup

from .workspace import Clean

AUDIENCES = ("players", "designers")


class NotRendered(Exception):
    """The printed matter cannot be made now (the game never built cleanly, a template failed)."""


def _deck(clean: Clean, game: str, module: str):
    """The deck of one module file's cards (``compiler.cardsheet.deck`` over a copy of the build that
    holds that module alone): a face is the same whichever cards are printed beside it, and a module
    of 100 cards renders in a tenth of the time of a 1,000-card game's whole deck."""
    import copy

    from compiler.cardsheet import SheetSpec, TemplateError, deck

    key = ("deck", module)
    with clean.lock:
        if key not in clean.cache:
            gb = clean.result.games[game]
            part = copy.copy(gb)
            part.modules = {module: gb.modules[module]} if module in gb.modules else {}
            alone = copy.copy(clean.result)
            alone.games = {**clean.result.games, game: part}
            try:
                clean.cache[key] = deck(alone, game, SheetSpec(), gb.game_dir)
            except TemplateError as exc:  # a designer's template: located, shown instead of the face
                clean.cache[key] = NotRendered(exc.diagnostic.headline())
        found = clean.cache[key]
    if isinstance(found, NotRendered):
        raise found
    return found


def face_document(clean: Clean, game: str, card_id: str, back: bool = False) -> str:
    """The HTML page of one side of one card, as ``cardwright cards --output png`` prints it: from the
    faces carried over from earlier clean builds when what it is made of has not changed (the card's
    record, the game file, the cards' names: the files the studio watches), else from this build's deck."""
    key = clean.face_keys.get(card_id)
    with clean.lock:
        kept = clean.faces.get((card_id, back))
    if kept is not None and key is not None and kept[0] == key:
        return kept[1]
    html = _face_document(clean, game, card_id, back)
    with clean.lock:
        clean.faces[(card_id, back)] = (key, html)
    return html


def _face_document(clean: Clean, game: str, card_id: str, back: bool) -> str:
    from compiler.cardsheet import SheetSpec, render_singles

    if card_id not in clean.modules:
        raise NotRendered(f"card '{card_id}' is not in the last clean build of {game}")
    d = _deck(clean, game, clean.modules[card_id])
    pc = next((c for c in d.cards if c.id == card_id), None)
    if pc is None:
        raise NotRendered(f"card '{card_id}' is not in the last clean build of {game}")
    if back:  # the card's own back (its other face), else its kind's back, as the only page
        one = replace(pc, face=pc.back, unique_back=False)
    else:
        one = replace(pc, unique_back=False)
    single = replace(d, cards=[one], backs={})
    return render_singles(single, SheetSpec())


def card_view(clean: Clean, game: str, card_id: str):
    """The reference's view of one card (its fields and effects in English), or None."""
    from compiler.reference import game_view

    with clean.lock:
        if "view" not in clean.cache:
            clean.cache["view"] = game_view(clean.result, game)
        view = clean.cache["view"]
    return next((c for m in view.modules for c in m.cards if c.id == card_id), None)


def reference_document(clean: Clean, game: str, audience: str, data_root) -> str:
    """The game's rules reference for ``audience``, as ``cardwright reference --audience`` writes it."""
    from compiler.reference import build_views, g_icons, render_game

    if audience not in AUDIENCES:
        raise NotRendered(f"no audience '{audience}'")
    key = ("reference", audience)
    with clean.lock:
        if key not in clean.cache:
            games, _, _ = build_views(clean.result, data_root, only={game})
            clean.cache[key] = render_game(games[0], "html", g_icons(clean.result, game), audience=audience)
        return clean.cache[key]


def marked(text: str) -> Markup:
    """Effect English with the reference's icon markers, escaped (the studio shows it as text)."""
    from compiler.reference import _marked_html

    return Markup(_marked_html(text, None))
