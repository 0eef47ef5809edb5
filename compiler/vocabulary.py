"""A game's vocabulary: every name its effect texts may use, read from ``data/<game>/game.yaml``.

The checker resolves each noun of an effect against this index. Nothing of one game is hard-coded
in the compiler: Goods, icons, zones, things (selectable cards), phases and card kinds all come
from the game file. Plurals are derived ("location" → "locations", "ruins" stays) unless a name
lists its own aliases.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from runtime.model import GameModel, model_of
from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, ZONE
from runtime.words import did_you_mean, plurals  # noqa: F401 - plurals re-exported

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
        out |= set(self.model.card_flags)
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

    @cached_property
    def model(self) -> GameModel:
        """The typed model of this vocabulary (runtime/model.py), which the runtime reads too: read once
        (the checker and the English ask it for every noun)."""
        return model_of(self.data)

    @cached_property
    def written_names(self) -> frozenset[str]:
        """Every noun phrase that is written somewhere — in game.yaml (a key's words, an alias, a pile's
        "supply pile") or among the built-in nouns — rather than derived as a plural (what the language
        server offers to complete); worked out once per vocabulary."""
        data = self.data
        out = set(BUILTIN_NOUNS)
        for section in ("goods", "zones", "things", "icons", "card_sources", "good_groups", "players"):
            for key, spec in (data.get(section) or {}).items():
                out.add(key.replace("_", " "))
                if isinstance(spec, dict):
                    out |= {a for a in spec.get("aliases") or [] if isinstance(a, str)}
        for key, spec in (data.get("zones") or {}).items():
            if (spec or {}).get("piles") == "card":
                for n in [key.replace("_", " "), *((spec or {}).get("aliases") or [])]:
                    out |= {f"{n} pile", f"{n} piles", f"empty {n} pile", f"empty {n} piles"}
        out |= {(ph if isinstance(ph, str) else ph.get("id", "")).replace("_", " ") for ph in data.get("phases") or []}
        return frozenset(out)

    def others_only(self, category: str, key: str) -> bool:
        """True when effects may name only ANOTHER player's one (``access: others``): the model's rule."""
        return self.model.others_only(category, key)

    def icon_names(self) -> list[str]:
        return sorted(self.model.icons)


# --- names inside game.yaml that refer to other names ------------------------------------------
# The schema checks each section's shape; it cannot check that the zone a thing lives in is one of
# the zones declared above it. A typo there used to pass `validate` and surface at run time,
# pointing at a scenario. Every such reference is checked here, located, with "did you mean".

SLOT_KINDS = ("effect", "condition", "trigger")
# rules settings that name a zone (or, for in_play, a list of zones); play_slot names a slot
RULE_ZONES = ("hand", "draw_from", "discard_to", "trash_to", "gain_from", "gain_to", "play_to", "remove_to")
COMMON_FIELDS = ("id", "kind", "name", "count", "source", "provisional", "uncertain", "note", "text")


def check_names(doc, diags) -> bool:
    """Report every name in a schema-valid game file that refers to an undeclared one (E201) and
    every phase listed twice (E202). True when there is none."""
    data = doc.data
    before = len(diags)

    def section(name: str) -> dict:
        value = data.get(name)
        return value if isinstance(value, dict) else {}

    def report(code: str, message: str, path: tuple, name, choices=()) -> None:
        line, col, src = doc.where(path)
        hint = did_you_mean(str(name), [str(c) for c in choices]) if choices else None
        diags.error(code, message, file=doc.file, line=line, column=col, length=len(str(name)),
                    hint=hint, source_line=src, path=_path_text(path))

    def expect(path: tuple, name, what: str, choices, where: str = "") -> None:
        if isinstance(name, str) and name not in choices:
            report("E201", f"unknown {what} '{name}'{where}", path, name, choices)

    goods, zones, kinds = section("goods"), section("zones"), section("card_kinds")
    groups = section("good_groups")
    for icon, spec in section("icons").items():
        expect(("icons", icon, "good"), (spec or {}).get("good"), "good", {**goods, **groups})
    for group, members in groups.items():
        for i, good in enumerate(members or ()):
            expect(("good_groups", group, i), good, "good", goods)
    fields_of = {k: set(COMMON_FIELDS) | set((spec or {}).get("fields") or {})
                 | set((spec or {}).get("slots") or {}) for k, spec in kinds.items()}
    flags = set(section("card_flags"))
    for thing, spec in section("things").items():
        for i, zone in enumerate(spec.get("zones") or ()):
            expect(("things", thing, "zones", i), zone, "zone", zones)
        for i, kind in enumerate(spec.get("kinds") or ()):
            expect(("things", thing, "kinds", i), kind, "card kind", kinds)
        known = [k for k in spec.get("kinds") or () if k in kinds] or list(kinds)
        fields = set().union(*(fields_of[k] for k in known)) | flags if known else flags
        for key, value in (spec.get("where") or {}).items():
            if key not in fields:
                report("E201", f"unknown card field '{key}' in the 'where' of thing '{thing}'",
                       ("things", thing, "where", key), key, sorted(fields))
                continue
            allowed = _allowed_values(key, known, kinds, data)
            # a list means any of its values (runtime/context.py _field_has): each must be a value
            for i, one in enumerate(value if isinstance(value, list) else [value]):
                if allowed is not None and isinstance(one, str) and one not in allowed:
                    path = ("things", thing, "where", key) + ((i,) if isinstance(value, list) else ())
                    report("E201", f"'{one}' is not a value of field '{key}'", path, one, allowed)
    for source, spec in section("card_sources").items():
        expect(("card_sources", source, "zone"), spec.get("zone"), "zone", zones)
    rules = section("rules")
    for key in RULE_ZONES:
        expect(("rules", key), rules.get(key), "zone", zones)
    for i, zone in enumerate(rules.get("in_play") if isinstance(rules.get("in_play"), list) else ()):
        expect(("rules", "in_play", i), zone, "zone", zones)
    all_slots = {s for spec in kinds.values() for s in ((spec or {}).get("slots") or {})}
    expect(("rules", "play_slot"), rules.get("play_slot"), "effect slot", all_slots)
    # a field's shorthand type: a core one or one the game's engine adds (runtime/fieldtypes.py)
    from runtime.fieldtypes import field_types_of

    from .schema import CORE_FIELD_TYPES

    field_kinds = [*CORE_FIELD_TYPES, *field_types_of(data)]
    for kind, spec in kinds.items():
        spec = spec or {}
        slots = spec.get("slots") or {}
        for slot, sspec in slots.items():
            expect(("card_kinds", kind, "slots", slot, "kind"), (sspec or {}).get("kind"), "slot kind",
                   SLOT_KINDS)
            listens = (sspec or {}).get("listens_in")
            for i, zone in enumerate(listens if isinstance(listens, list) else ()):
                expect(("card_kinds", kind, "slots", slot, "listens_in", i), zone, "zone", zones)
        check_field_types(kind, spec, field_kinds, report)
        declared = fields_of[kind] | set(spec.get("faces") or {})
        for i, name in enumerate(spec.get("required") or ()):
            expect(("card_kinds", kind, "required", i), name, "field", declared,
                   f" in the required fields of card kind '{kind}'")
    seen: dict[str, int] = {}
    for i, phase in enumerate(data.get("phases") or ()):
        pid = phase if isinstance(phase, str) else (phase or {}).get("id")
        if not isinstance(pid, str):
            continue
        if pid in seen:
            path = ("phases", i) if isinstance(phase, str) else ("phases", i, "id")
            report("E202", f"phase '{pid}' is listed twice (first as phase {seen[pid] + 1})", path, pid)
        seen.setdefault(pid, i)
    return len(diags) == before


def check_field_types(kind: str, spec: dict, known: list[str], report) -> None:
    """E401 for a field (of the kind or of one of its faces) whose shorthand type is neither a core
    type nor one of the engine's: the schema lets any identifier through, since engines add types."""
    places = [(("card_kinds", kind, "fields"), spec.get("fields"))]
    places += [(("card_kinds", kind, "faces", face, "fields"), (fspec or {}).get("fields"))
               for face, fspec in (spec.get("faces") or {}).items() if isinstance(fspec, dict)]
    for base, fields in places:
        for name, ftype in (fields or {}).items() if isinstance(fields, dict) else ():
            if isinstance(ftype, str) and ftype not in known:
                # worded as the schema words a value outside its list (compiler/schema.py)
                hint = did_you_mean(ftype, known)
                report("E401", f"'{ftype}' is not one of: {', '.join(known)}" + (f" ({hint})" if hint else ""),
                       base + (name,), ftype)


def _allowed_values(field: str, kinds: list, card_kinds: dict, data: dict) -> list | None:
    """The closed set of values a card field may hold (its enum, or its items' enum), if it has one."""
    from .schema import field_schema

    out: set = set()
    for kind in kinds:
        spec = ((card_kinds.get(kind) or {}).get("fields") or {}).get(field)
        if spec is None:
            continue
        schema = field_schema(spec, data)
        if not isinstance(schema, dict):
            return None
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        enum = schema.get("enum") or items.get("enum")
        if not enum:
            return None  # an open field in one of the kinds: any value may be meant
        out |= {str(v) for v in enum}
    return sorted(out) or None


def _path_text(path: tuple) -> str:
    from .loader import path_text

    return path_text(path)
