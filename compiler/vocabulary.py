"""Checks on a game's vocabulary (``data/<game>/game.yaml``) that its schema cannot make, and the
possessive owners an effect text may write.

The vocabulary itself — every name an effect may use, its Goods, zones, things, icons, phases and
card kinds — is read once into the typed game model (runtime/model.py ``GameModel``), which the
checker, the English, the language server, the reference and the runtime all read. This module
only reads game.yaml as a located document, before a model exists: a name that refers to an
undeclared one must be reported at its line and column.
"""
from __future__ import annotations

from runtime.words import did_you_mean

# Possessive owners the grammar accepts ("another player's") mapped to the runtime's owner words.
POSSESSIVES = {
    (None, "opponent"): "opponent", ("another", "player"): "another", ("any", "player"): "any",
    ("each", "player"): "each", ("its", "owner"): "owner", (None, "owner"): "owner",
    ("another", "opponent"): "another",
    ("left", "neighbour"): "left", ("right", "neighbour"): "right",  # issue 28: "left neighbour's hand"
}


# --- names inside game.yaml that refer to other names ------------------------------------------
# The schema checks each section's shape; it cannot check that the zone a thing lives in is one of
# the zones declared above it. A typo there used to pass `validate` and surface at run time,
# pointing at a scenario. Every such reference is checked here, located, with "did you mean".

SLOT_KINDS = ("effect", "condition", "trigger", "cost", "ability", "quantity")  # cost: "this costs 1 less per …"; ability, quantity (issue 28)
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
    # card source forms (issue 28): each a pattern in the safe subset compiler/sourceforms.py reads
    from .sourceforms import FormError, compile_form

    forms = data.get("source_forms")
    for i, spec in enumerate(forms if isinstance(forms, list) else ()):
        pattern = spec.get("pattern") if isinstance(spec, dict) else None
        if isinstance(pattern, str):
            try:
                compile_form(pattern)
            except FormError as exc:
                line, col, src = doc.where(("source_forms", i, "pattern"))
                diags.error("E401", f"source form {pattern[:40]!r}: {exc}", file=doc.file, line=line,
                            column=col, source_line=src, path=_path_text(("source_forms", i, "pattern")))
    # verb aliases (issue 28): each names a verb of the game's engine and is not one already
    aliases = section("verb_aliases")
    if aliases:
        from runtime.verbs import verbs_for

        verbs = verbs_for(str(data.get("engine") or "core"))
        for alias, target in aliases.items():
            expect(("verb_aliases", alias), target, "verb", sorted(verbs), f" for the alias '{alias}'")
            if alias in verbs:
                report("E202", f"'{alias}' is a verb already: an alias names a new word for a verb",
                       ("verb_aliases", alias), alias)
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
            usable = (sspec or {}).get("usable_in")  # an ability slot's zones (issue 28)
            for i, zone in enumerate(usable if isinstance(usable, list) else ()):
                expect(("card_kinds", kind, "slots", slot, "usable_in", i), zone, "zone", zones)
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
