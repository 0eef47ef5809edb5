"""The card ids a check may name, and whether they are all known.

A game's card ids come from its module files. When one of them failed to load (a tab, an unquoted
colon: E103) or holds entries that are not cards, that failure is already reported, and the cards it
would have declared are unknown. Every check that asks "is this a card of the game?" — a setup step
that creates cards (compiler/flow.py), "other than <card>" in an effect (compiler/check.py), a
scenario's cards (compiler/scenario.py) — then gets "perhaps": one slip gives one error, not one
more per name the broken file would have declared (issue 26). When the file is fixed, the next
check has every id and reports any name that really is unknown.

The command line (compiler/build.py), watch mode (the same build) and the language server
(compiler/lsp/project.py) all make their id sets here, so they hold back the same diagnostics.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache



class CardIds(frozenset):
    """A frozen set of card ids; ``complete`` is False when some of the game's cards could not be
    read. Membership then answers whether a name *may* be a card: always yes."""

    complete: bool

    def __new__(cls, ids: Iterable = (), complete: bool = True):
        self = super().__new__(cls, ids)
        self.complete = complete
        return self

    def __contains__(self, key) -> bool:
        return not self.complete or frozenset.__contains__(self, key)

    # two sets with the same ids, one of them incomplete, answer differently: they are not equal
    # (the language server memoises checks by the id set)
    def __eq__(self, other) -> bool:
        return frozenset.__eq__(self, other) and self.complete == getattr(other, "complete", True)

    def __ne__(self, other) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((frozenset(self), self.complete))

    def __repr__(self) -> str:
        return f"CardIds({sorted(map(str, self))!r}, complete={self.complete})"


def loaded_cards(data) -> tuple[list, bool]:
    """The card ids a loaded module declares, and whether they are all of its cards: False when its
    shape is wrong (not a mapping, a top-level key the module schema does not know — a misspelt
    ``cards:`` —, ``cards`` not a list), when an entry is not a card with an id the schema accepts
    (those errors are reported by the schema), or when an id is used twice in it (E202: what the
    second card was meant to be called is not known). Read from the data, not from diagnostics, so
    that the build and the language server decide alike."""
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(cards, (list, type(None))):
        return [], False
    known_keys, id_pattern = _module_shape()
    ids, whole = [], not (set(data) - known_keys)
    for card in cards or []:
        cid = card.get("id") if isinstance(card, dict) else None
        if isinstance(cid, str):
            ids.append(cid)
        whole = whole and isinstance(cid, str) and id_pattern.search(cid) is not None
    return ids, whole and len(set(ids)) == len(ids)


@lru_cache(maxsize=None)
def _module_shape() -> tuple[frozenset, re.Pattern]:
    """The module schema's top-level keys and its card id pattern (data/schema/module.schema.json)."""
    from .schema import ecma_regex, load_schema

    schema = load_schema("module")
    return frozenset(schema["properties"]), ecma_regex(schema["properties"]["cards"]["items"]["properties"]["id"]["pattern"])
