"""Words shared by the runtime and the compiler: a vocabulary key as a printed term, and the
"did you mean" of a near miss. The compiler's English and diagnostics use them, and so do the
engines' own pictures and checks (a socket's legend, a map's terrain), which live in runtime/ and so
may not import compiler/ (DESIGN §9: imports go one way).
"""
from __future__ import annotations

from typing import Iterable

# words a printed title keeps in lower case ("Victory Point", "Out of the Game")
SMALL_WORDS = frozenset({"of", "the", "and", "in", "on", "a", "an", "to", "for", "or", "at", "from"})


def title(key: str) -> str:
    """A vocabulary key as a printed game term: "production_location" → "Production Location"."""
    words = key.replace("_", " ").split()
    return " ".join(w if (i and w in SMALL_WORDS) else w[:1].upper() + w[1:] for i, w in enumerate(words))


def did_you_mean(name: str, choices: Iterable[str]) -> str | None:
    """'did you mean ...' for a near miss, or None when nothing is close."""
    import difflib  # here, not at the top: `cardwright --help` imports this module's users

    matches = difflib.get_close_matches(name, sorted(set(choices)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
