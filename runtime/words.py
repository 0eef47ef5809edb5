"""Words shared by the runtime and the compiler: a vocabulary key as a printed term, English plurals
(a printed name counted: "2 Bricks", "2 Fuel"), and the "did you mean" of a near miss. The compiler's English and diagnostics use them, and so do the
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


# English mass nouns a game's Goods are often named by: "2 Fuel", not "2 Fuels". A game can say
# otherwise for any Good with `plural:` in its game.yaml entry.
MASS_NOUNS = {"fuel", "iron", "steel", "wood", "food", "water", "oil", "money", "gold", "silver", "coal", "stone",
              "ore", "steam", "energy", "power", "scrap", "cash", "grain", "wheat", "sand", "clay", "cloth", "salt",
              "spice", "sugar", "coffee", "tea", "rice", "meat", "fish", "copper", "lumber", "timber", "glass",
              "livestock", "research", "influence", "prestige", "information", "knowledge", "fame", "corn"}


def plurals(name: str) -> list[str]:
    last = name.split(" ")[-1]
    head = name[: len(name) - len(last)]
    if last.endswith("s"):
        return []
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        return [head + last[:-1] + "ies"]
    if last.endswith(("sh", "ch", "x")):
        return [head + last + "es"]
    return [head + last + "s"]


def english_plural(name: str) -> str:
    if not name:
        return name
    last = name.split(" ")[-1]
    if last.isupper() or last.endswith("s") or not last[-1:].isalpha():
        return name
    return (plurals(name) or [name])[0]


def counted(n: int, name: str, plural: str | None = None) -> str:
    """A printed name counted: "1 Brick", "2 Bricks", "2 Fuel" (a mass noun), or the declared plural."""
    if n == 1:
        return f"{n} {name}"
    if plural:
        return f"{n} {plural}"
    return f"{n} {name if name.split(' ')[-1].lower() in MASS_NOUNS else english_plural(name)}"


def has(subject: str, many: bool = False) -> str:
    """"has" or "have" for a subject: several players, or a player named "You" (what `cardwright play`
    calls the person at the terminal) — "You have 12 points", never "You has"."""
    return "have" if many or subject.strip().lower() == "you" else "has"
