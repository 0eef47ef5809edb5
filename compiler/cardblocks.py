"""A loaded module kept as card blocks, so that an edit inside one card re-reads that card alone.

A module's cards are written one ``- `` item each in a block sequence; a card's *block* is its
lines, from its ``- `` to the next card's. After an edit that stays inside one block, only that
block is read again as YAML (alone: PyYAML's lines count from the block's first, so the positions
are moved to the file's) and stitched into the module's Document: the card's value and position
entries replaced, every later entry moved by the lines the edit added or removed. Anything else —
an edit outside the cards or across two, one that adds a card, a block that no longer reads as one
card, odd line breaks — answers None, and the caller loads the whole text.

Two callers: the language server (compiler/lsp/checking.py, on every keystroke, which also keeps
each card's findings per block) and watch mode's build (compiler/cache.py ``ModuleCache.load``,
on every save of a large module). The card's value is the loader's own reading of its lines (the
loader refuses anchors and aliases, so a card's value depends on its own lines only);
tests/test_cardblocks.py holds the stitched Document to a full load of the same text.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostics
from .loader import Document, load_text

# Line breaks other than "\n" (and what str.splitlines also splits on) make PyYAML's line count
# and ours disagree; a text holding any of them is always loaded whole.
ODD_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


@dataclass
class Block:
    start: int  # first line (0-based) of the card's block: the line of its "- "
    end: int  # the line after its block
    keys: list = field(default_factory=list)  # its paths in doc.positions
    kkeys: list = field(default_factory=list)  # its paths in doc.key_positions


def odd_breaks(text: str) -> bool:
    return any(b in text for b in ODD_BREAKS)


def card_blocks(doc: Document, lines: list[str], make=Block) -> list | None:
    """Each card's lines, and its keys in the position tables (``make(start, end)`` for each card);
    None when the cards are not written one "- " line each in a block sequence (then every edit
    loads the whole text). ``lines``: the text split on "\\n"."""
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    if not isinstance(cards, list):
        return None
    out = []
    for i in range(len(cards)):
        t = dict.get(doc.positions, ("cards", i))
        if t is None:
            return None
        line, col = t[0], t[1]
        lead = lines[line][:col] if line < len(lines) else ""
        if lead.strip() != "-" or not lead.endswith(" "):
            return None
        out.append(make(line, line))
    seq = dict.get(doc.positions, ("cards",))
    if seq is None:
        return None
    for i in range(len(out) - 1):
        out[i].end = out[i + 1].start
    if out:
        end_line, end_col = seq[2], seq[3]
        out[-1].end = min(end_line + (1 if end_col > 0 else 0), len(lines))
        if out[-1].end <= out[-1].start:
            return None
    for table, attr in ((doc.positions, "keys"), (doc.key_positions, "kkeys")):
        for k in dict.keys(table):
            if len(k) >= 2 and k[0] == "cards" and type(k[1]) is int and k[1] < len(out):
                getattr(out[k[1]], attr).append(k)
    return out


def reread(doc: Document, blocks: list, old: list[str], new: list[str], file: str,
           path: Path | None) -> tuple[int, Document, int] | None:
    """The card whose block holds every line that differs between ``old`` and ``new`` (the texts
    split on "\\n"), read alone: (its index, its Document, lines added). None: load the whole text."""
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[-1 - s] == new[-1 - s]:
        s += 1
    old_end = len(old) - s  # changed: old[p:old_end] became new[p:len(new) - s]
    starts = [c.start for c in blocks]
    i = bisect.bisect_right(starts, p) - 1
    if i > 0 and old_end == p == blocks[i].start:
        i -= 1  # lines inserted just before a card's "- ": the tail of the card before it
    if i < 0:
        return None
    card = blocks[i]
    if not (card.start <= p and old_end <= card.end):
        return None
    delta = len(new) - len(old)
    block = new[card.start:card.end + delta]
    if not block:
        return None
    lead_col = dict.__getitem__(doc.positions, ("cards", i))[1]
    if block[0][:lead_col] != old[card.start][:lead_col]:
        return None  # the "- " itself changed
    dash = lead_col - 2
    for ln in block[1:]:  # every other line belongs to this card: indented past its "-"
        stripped = ln.lstrip(" ")
        if stripped and not stripped.startswith("#") and len(ln) - len(stripped) <= dash:
            return None
    diags = Diagnostics()
    part = load_text("\n".join(block) + "\n", file, diags, path)
    if part is None or diags or not isinstance(part.data, list) or len(part.data) != 1:
        return None  # a YAML error or a second card: a whole load says it as the file has it
    at = dict.get(part.positions, (0,))
    if at is None or at[0] != 0 or at[1] != lead_col:
        return None
    return i, part, delta


def stitch(doc: Document, blocks: list, i: int, part: Document, text: str, delta: int) -> Document:
    """The module's Document for ``text``, made from ``doc`` and card ``i`` read alone (``part``,
    whose lines count from the card's first): the position tables are updated in place (so ``doc``
    must not be read again) — the card's entries replaced, every later one moved by ``delta`` lines —
    and the blocks after the card moved with them."""
    card = blocks[i]
    value = part.data[0]
    data = dict(doc.data)
    data["cards"] = list(data["cards"])
    data["cards"][i] = value
    boundary = card.end  # old lines from here on move by delta
    # A mapping that ends with the block ends, in the file, where the next card (or key) starts;
    # the block read alone ends at the end of its own text instead.
    part_end = dict.__getitem__(part.positions, (0,))[2:4]
    old_end = dict.__getitem__(doc.positions, ("cards", i))[2:4]
    file_end = (old_end[0] + delta if old_end[0] >= boundary else old_end[0], old_end[1])
    first = card.start
    for table, src, attr in ((doc.positions, part.positions, "keys"),
                             (doc.key_positions, part.key_positions, "kkeys")):
        for k in getattr(card, attr):
            dict.pop(table, k, None)
        if delta:
            for k, t in list(dict.items(table)):
                if t[2] >= boundary:
                    dict.__setitem__(table, k, (t[0] + delta if t[0] >= boundary else t[0], t[1],
                                                t[2] + delta, *t[3:]))
        keys = []
        for k, t in dict.items(src):
            if k and k[0] == 0:
                if len(t) >= 4 and (t[2], t[3]) == part_end:
                    end = file_end
                else:
                    end = (t[2] + first, t[3])
                nk = ("cards", i) + k[1:]
                dict.__setitem__(table, nk, (t[0] + first, t[1], *end, *t[4:]))
                keys.append(nk)
        setattr(card, attr, keys)
    if delta:
        card.end += delta
        for c in blocks[i + 1:]:
            c.start += delta
            c.end += delta
    return Document(file=doc.file, path=doc.path, text=text, data=data, positions=doc.positions,
                    key_positions=doc.key_positions, rel=doc.rel)
