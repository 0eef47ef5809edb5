"""A game's vocabulary: every name its effect texts may use, read from ``data/<game>/game.yaml``.

The checker resolves each noun of an effect against this index. Nothing of one game is hard-coded
in the compiler: Goods, icons, zones, things (selectable cards), phases and card kinds all come
from the game file. Plurals are derived ("location" → "locations", "ruins" stays) unless a name
lists its own aliases.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, ZONE

# Nouns every game has. "card"/"cards" select cards in a place; players are who acts and who is
# acted on. A game may add more players' nouns in its vocabulary.
BUILTIN_NOUNS: dict[str, tuple[str, str]] = {
    "card": (CARD, "card"), "cards": (CARD, "card"),
    "you": (PLAYER, "you"), "opponent": (PLAYER, "opponent"), "owner": (PLAYER, "owner"),
    "player": (PLAYER, "player"), "players": (PLAYER, "player"),
    "icon": (ICON, "icon"), "icons": (ICON, "icon"),
    "good": (GOOD, "good"), "goods": (GOOD, "goods"),
}

# Possessive owners the grammar accepts ("another player's") mapped to the runtime's owner words.
POSSESSIVES = {
    (None, "opponent"): "opponent", ("another", "player"): "another", ("any", "player"): "any",
    ("each", "player"): "each", ("its", "owner"): "owner", (None, "owner"): "owner",
    ("another", "opponent"): "another",
}


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


@dataclass
class Vocabulary:
    game: str
    name: str
    engine: str
    data: dict  # the game file as loaded (plain values), emitted into generated/<game>/__init__.py
    nouns: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # phrase -> [(category, key)]
    card_kinds: dict[str, dict] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)

    @classmethod
    def from_data(cls, data: dict) -> "Vocabulary":
        v = cls(game=data["game"], name=data.get("name", data["game"]), engine=data.get("engine", "core"),
                data=data)
        for phrase, (cat, key) in BUILTIN_NOUNS.items():
            v.add(phrase, cat, key)
        for cat, section in ((GOOD, "goods"), (ZONE, "zones"), (THING, "things"), (ICON, "icons")):
            for key, spec in (data.get(section) or {}).items():
                spec = spec or {}
                names = [key.replace("_", " "), *(spec.get("aliases") or [])]
                for n in list(names):
                    names += plurals(n)
                for n in names:
                    v.add(n, cat, key)
        for key, spec in (data.get("zones") or {}).items():
            if (spec or {}).get("piles") == "card":  # "supply piles", "empty supply piles"
                for n in [key.replace("_", " "), *((spec or {}).get("aliases") or [])]:
                    for noun, k in ((f"{n} pile", key), (f"empty {n} pile", f"empty:{key}")):
                        for form in (noun, *plurals(noun)):
                            v.add(form, PILE, k)
        for key, members in (data.get("good_groups") or {}).items():
            for n in [key.replace("_", " "), *plurals(key.replace("_", " "))]:
                v.add(n, GOOD, key)
        for key, spec in (data.get("card_sources") or {}).items():
            for n in [key.replace("_", " "), *(spec.get("aliases") or [])]:
                v.add(n, CARD, key)
        for ph in data.get("phases") or []:
            pid = ph if isinstance(ph, str) else ph["id"]
            v.phases.append(pid)
            v.add(pid.replace("_", " "), PHASE, pid)
        for key, spec in (data.get("players") or {}).items():
            v.add(key.replace("_", " "), PLAYER, key)
        v.card_kinds = dict(data.get("card_kinds") or {})
        return v

    def add(self, phrase: str, category: str, key: str) -> None:
        entries = self.nouns.setdefault(phrase, [])
        if (category, key) not in entries:
            entries.append((category, key))

    def lookup(self, phrase: str) -> list[tuple[str, str]]:
        return self.nouns.get(phrase, [])

    def names_in(self, category: str | None = None) -> list[str]:
        return sorted(p for p, entries in self.nouns.items()
                      if category is None or any(c == category for c, _ in entries))

    def slots_of(self, kind: str) -> dict[str, Any]:
        return (self.card_kinds.get(kind) or {}).get("slots") or {}

    def field_names(self) -> set[str]:
        """Every card field and slot name, for ``with``/``without`` filters."""
        out: set[str] = set()
        for spec in self.card_kinds.values():
            out |= set((spec or {}).get("slots") or {})
            out |= set((spec or {}).get("fields") or {})
        out |= set(self.data.get("card_flags") or {})
        return out

    def numeric_fields(self) -> set[str]:
        """Card fields a comparison may read: declared ``int`` (or ``number``, or a JSON Schema
        fragment of type integer) in some card kind."""
        out: set[str] = set()
        for spec in self.card_kinds.values():
            for name, ftype in ((spec or {}).get("fields") or {}).items():
                if ftype in ("int", "number") or (isinstance(ftype, dict) and ftype.get("type") in ("integer", "number")):
                    out.add(name)
        return out

    def others_only(self, category: str, key: str) -> bool:
        """True when effects may name only ANOTHER player's one of this zone (``access: others``), or
        for a thing, when it is declared so or selects from such a zone (Scavengers S07/S08)."""
        zones = self.data.get("zones") or {}
        if category == ZONE:
            return ((zones.get(key) or {}).get("access") == "others")
        if category == CARD:  # a card source ("hacked") that draws from such a zone: always yours
            spec = (self.data.get("card_sources") or {}).get(key) or {}
            return (zones.get(spec.get("zone")) or {}).get("access") == "others"
        if category == THING:
            spec = (self.data.get("things") or {}).get(key) or {}
            return spec.get("access") == "others" or any(
                (zones.get(z) or {}).get("access") == "others" for z in spec.get("zones") or ())
        return False

    def icon_names(self) -> list[str]:
        return sorted(self.data.get("icons") or {})
