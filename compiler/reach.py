"""What validates but can never happen in a game: warnings, not errors (issue 26).

- A trigger slot that listens in no zone — no ``listens_in`` and no ``rules.in_play`` — fires only
  for events about the card itself ("when you gain this card"); a trigger about anything else in it
  ("whenever an opponent plays an attack card", "at the start of your turn") never fires (E213).
- A card that no setup step of the game's flow creates is never in a game the flow plays: the core
  engine makes cards only at setup (runtime/flow.py, ``setup``). Only for a game with a flow whose
  setup lists the cards it creates (``create: all`` makes every card; an engine with its own setup,
  51st State or the Moon, says itself which cards it makes) (E214).

The build (compiler/build.py) and the language server (compiler/lsp) call the same functions.
"""
from __future__ import annotations

from .diagnostics import Diagnostics
from .loader import Document


def triggers_that_never_fire(gdoc: Document, diags: Diagnostics) -> None:
    """E213 at each trigger slot of game.yaml's card kinds that listens in no zone."""
    data = gdoc.data if isinstance(gdoc.data, dict) else {}
    rules = data.get("rules") if isinstance(data.get("rules"), dict) else {}
    if rules.get("in_play"):
        return  # every trigger slot without listens_in listens there
    for kind, spec in sorted((data.get("card_kinds") or {}).items()):
        slots = (spec or {}).get("slots") if isinstance(spec, dict) else None
        for slot, sspec in sorted((slots or {}).items()):
            if isinstance(sspec, dict) and sspec.get("kind") == "trigger" and not sspec.get("listens_in"):
                path = ("card_kinds", kind, "slots", slot)
                line, col, src = gdoc.where(path)
                diags.error("E213", f"trigger slot '{slot}' of card kind '{kind}' listens in no zone: its "
                            "triggers never fire, except those about the card itself ('when you gain this "
                            "card')", file=gdoc.file, line=line, column=col, source_line=src,
                            path=".".join(path), severity="warning",
                            hint="give the slot `listens_in: [zones]`, or declare `rules.in_play`")


def created_by_setup(gdoc_data: dict) -> set[str] | None:
    """The card ids the flow's setup creates; None when it may create any card (no flow, or a
    ``create: all`` step)."""
    flow = gdoc_data.get("flow") if isinstance(gdoc_data, dict) else None
    if not isinstance(flow, dict):
        return None
    made: set[str] = set()
    for step in flow.get("setup") or []:
        wanted = step.get("create") if isinstance(step, dict) else None
        if wanted == "all":
            return None
        if isinstance(wanted, dict):
            made |= {k for k in wanted if isinstance(k, str)}
    return made


def e214_held_back(gdoc_data: dict, card_ids) -> bool:
    """True when E214 would only follow from an earlier error: a setup step names a card that is not
    one (E201: the misspelt name is most likely the card "never created"), or some module could not
    be read (compiler/cardids.py)."""
    made = created_by_setup(gdoc_data)
    if made is None:
        return False
    return not getattr(card_ids, "complete", True) or any(cid not in card_ids for cid in made)


def cards_no_setup_creates(gdoc_data: dict, doc: Document, diags: Diagnostics) -> None:
    """E214 at the id of each card of module ``doc`` that the flow's setup never creates (the caller
    drops them when ``e214_held_back``)."""
    made = created_by_setup(gdoc_data)
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    if made is None or not isinstance(cards, list):
        return
    for i, card in enumerate(cards):
        cid = card.get("id") if isinstance(card, dict) else None
        if isinstance(cid, str) and cid not in made:
            line, col, src = doc.where(("cards", i, "id"))
            # the message names the card (a card= would repeat it in the headline)
            diags.error("E214", f"no setup step of the game's flow creates card '{cid}': it is never in a game",
                        file=doc.file, line=line, column=col, length=len(cid), path=f"cards[{i}].id",
                        source_line=src, severity="warning",
                        hint="add it to a `create:` step of flow.setup, or create `all`")
