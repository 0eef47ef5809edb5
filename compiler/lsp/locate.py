"""From a cursor in a YAML file to what is under it, and between effect-text offsets and the file.

Positions here are 0-based lines and columns counted in characters (code points), as the loader
counts them; the server converts to and from the client's units (UTF-16 by default).

``Document.where`` maps an offset inside a scalar's *value* to the file; ``offset_at`` is its
inverse — the cursor in the file to the offset in the value — with the same alignment
(compiler/scalarmap.py), so quoted, escaped, folded and literal scalars are handled alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from runtime.model import GameModel

from .. import scalarmap
from ..loader import Document
from .checking import card_texts


@dataclass(frozen=True)
class Spot:
    """The scalar under a cursor."""

    path: tuple
    value: object
    start: tuple[int, int]
    end: tuple[int, int]
    style: str | None
    is_key: bool = False


def _inside(t: tuple, line: int, col: int) -> bool:
    return (t[0], t[1]) <= (line, col) <= (t[2], t[3])


def spot_at(doc: Document, line: int, col: int) -> Spot | None:
    """The scalar value (or mapping key) whose text holds (line, col), innermost first."""
    best = None
    for table, is_key in ((doc.key_positions, True), (doc.positions, False)):
        for path, t in dict.items(table):
            if len(t) < 5 or not (t[0] <= line <= t[2]) or not _inside(t, line, col):
                continue  # only scalars carry a style slot (mappings and sequences have four fields)
            if best is None or (t[0], t[1]) > best[1][:2]:
                best = (path, t, is_key)
    if best is None:
        return None
    path, t, is_key = best
    value = path[-1] if is_key else doc.get(path)
    return Spot(path, value, (t[0], t[1]), (t[2], t[3]), t[4], is_key)


def offset_at(doc: Document, spot: Spot, line: int, col: int) -> int:
    """The offset inside ``spot``'s string value of the file position (line, col)."""
    value = spot.value
    if not isinstance(value, str):
        return 0
    (l0, c0), (l1, c1) = spot.start, spot.end
    if l0 == l1 and spot.style is None:
        return max(0, min(len(value), col - c0))
    written = scalarmap.units(doc.lines, spot.start, spot.end, spot.style)
    offsets = _unit_offsets(value, written)
    for k, u in enumerate(written):
        if (u.line, u.column) >= (line, col):
            return offsets[k] if k < len(offsets) else len(value)
    return len(value)


def _unit_offsets(value: str, written: list) -> list[int]:
    """For each written unit, the offset of the value character it produces (scalarmap.locate's walk)."""
    out = []
    u = 0
    for i, ch in enumerate(value):
        if u < len(written) and written[u].char == ch and (written[u].escaped or ch not in scalarmap.YAML_SPACE):
            out.append(i)
            u += 1
    return out


# --- effect texts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class EffectAt:
    path: tuple
    text: str
    slot_kind: str
    card: object  # the card's id, or None for a rule
    offset: int  # the cursor's offset inside the text


def game_texts(doc: Document) -> list[tuple[tuple, str, str]]:
    """(path, text, slot kind) of every effect text of a game.yaml — its flow's setup, steps, actions
    (their ``requires`` conditions), end condition, scores, tie-breaks and ``bots.greedy`` — found by
    the compiler's own FlowCompiler (compiler/flow.py), so the editor knows exactly the texts the
    build compiles. Memoised on the document."""
    found = getattr(doc, "_flow_texts", None)
    if found is not None:
        return found
    from ..cardids import CardIds
    from ..diagnostics import Diagnostics
    from ..flow import FlowCompiler

    found = []

    def note(path, text, kind, fname):
        if isinstance(text, str):
            found.append((tuple(path), text, kind))
        return fname

    data = doc.data if isinstance(doc.data, dict) else {}
    fc = FlowCompiler(doc, data, CardIds((), complete=False), note, Diagnostics())
    try:
        if isinstance(data.get("flow"), dict):
            fc.table()
        if isinstance(data.get("bots"), dict):
            fc.bots()
    except (KeyError, TypeError, AttributeError, ValueError):  # a half-typed flow: what was found so far
        pass
    doc._flow_texts = found  # a document never changes once loaded
    return found


def effect_slots(doc: Document, vocab: GameModel):
    """(path, text, slot kind, card id) of every effect text of a module document, or of a game.yaml."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if "card_kinds" in data and "cards" not in data:  # a game file: its flow's texts
        for path, text, kind in game_texts(doc):
            yield path, text, kind, None
        return
    cards = data.get("cards") if isinstance(data.get("cards"), list) else []
    for i, card in enumerate(cards):
        if isinstance(card, dict):
            for path, text, kind in card_texts(vocab, card, i):
                yield path, text, kind, card.get("id")
    rules = data.get("rules") if isinstance(data.get("rules"), dict) else {}
    for name, text in rules.items():
        if isinstance(text, str):
            yield ("rules", name), text, "effect", None


def effect_at(doc: Document, vocab: GameModel, line: int, col: int) -> EffectAt | None:
    """The effect text under the cursor, if the cursor is in one — or just after a plain one on its
    line (YAML drops a plain scalar's trailing spaces: "gain 2 " is read "gain 2"), or on an
    effect slot with no text yet ("production: ")."""
    slots = {path: (text, kind, card) for path, text, kind, card in effect_slots(doc, vocab)}
    spot = spot_at(doc, line, col)
    if spot is not None and not spot.is_key and spot.path in slots and isinstance(spot.value, str):
        text, kind, card = slots[spot.path]
        return EffectAt(spot.path, text, kind, card, offset_at(doc, spot, line, col))
    src = doc.source_line(line) or ""
    for path, (text, kind, card) in slots.items():
        t = dict.get(doc.positions, path)
        if t is not None and t[4] is None and t[2] == line and t[3] <= col and not src[t[3]:col].strip(" "):
            padded = text + " " * (col - t[3])
            return EffectAt(path, padded, kind, card, len(padded))
    return empty_slot_at(doc, vocab, line, col)


def empty_slot_at(doc: Document, vocab: GameModel, line: int, col: int) -> EffectAt | None:
    """An effect slot written with no value yet ("production: " as the cursor's line)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    cards = data.get("cards") if isinstance(data.get("cards"), list) else []
    for path, t in dict.items(doc.key_positions):
        if t[0] != line or len(path) != 3 or path[0] != "cards" or not isinstance(path[1], int):
            continue
        card = cards[path[1]] if path[1] < len(cards) else None
        if not isinstance(card, dict) or card.get(path[2]) is not None:
            continue
        kind = card.get("kind")
        spec = vocab.kinds.get(kind) if isinstance(kind, str) else None
        slot = spec.slot(path[2]) if spec is not None else None
        if slot is not None and col > t[3]:
            return EffectAt(path, "", slot.kind, card.get("id"), 0)
    return None


_WORD = re.compile(r"[A-Za-z0-9_']+")


def word_at(text: str, offset: int) -> tuple[int, int] | None:
    """(start, end) of the word of ``text`` around ``offset`` (letters, digits, _ and ')."""
    for m in _WORD.finditer(text):
        if m.start() <= offset <= m.end():
            return m.start(), m.end()
        if m.start() > offset:
            break
    return None
