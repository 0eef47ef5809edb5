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

from collections.abc import Iterable


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
    """The card ids a loaded module declares, and whether every entry of its ``cards`` is a card
    with a string id (an entry that is not, is a schema error already: its id is unknown)."""
    cards = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(data, dict) or not isinstance(cards, (list, type(None))):
        return [], False
    ids, whole = [], True
    for card in cards or []:
        if isinstance(card, dict) and isinstance(card.get("id"), str):
            ids.append(card["id"])
        else:
            whole = False
    return ids, whole
