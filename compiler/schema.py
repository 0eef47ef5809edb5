"""Stage 2 — validate: JSON Schema (draft 2020-12) for every kind of data file.

The generic schemas live in ``data/schema/``. Cards are further checked against a per-game schema
made from the game's vocabulary (``card_schema``): each kind's fields, effect slots and faces, with
no other properties — so a misspelt field ("defence") is caught, not silently ignored.
Every violation of a run is reported, each at the file, line and column of the offending value.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Callable

from runtime.fieldtypes import field_types_of
from runtime.words import did_you_mean

from .diagnostics import Diagnostics
from .loader import Document, path_text
from .resources import SCHEMA_DIR

_SHORTHAND = {
    "int": {"type": "integer"}, "number": {"type": "number"}, "bool": {"type": "boolean"},
    "str": {"type": "string"}, "text": {"type": "string"},
}
# every game's field types; an engine adds its own (Engine.field_types), named in game.yaml the same way
CORE_FIELD_TYPES = ("int", "bool", "str", "good", "goods", "icon", "icons", "text", "number")


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


# A JSON Schema pattern is an ECMA-262 regular expression, where '$' (no multiline flag) matches only
# at the very end; in Python's re it also matches before a final newline, so "oil_rig\n" would pass
# as an id ("^[a-z][a-z0-9_]*$"). The schemas keep the portable spelling (editors read them); here
# every unescaped '$' outside a character class is read as Python's '\Z', which is what ECMA means.
_DOLLAR = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]|\$", re.S)


@lru_cache(maxsize=None)
def ecma_regex(pattern: str) -> re.Pattern:
    """``pattern`` compiled with ECMA-262's meaning of '$' (the end of the text, never before a
    trailing newline)."""
    return re.compile(_DOLLAR.sub(lambda m: r"\Z" if m.group() == "$" else m.group(), pattern))


def _pattern(validator, patrn, instance, schema):
    from jsonschema import ValidationError

    if validator.is_type(instance, "string") and not ecma_regex(patrn).search(instance):
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _whole_number(checker, instance) -> bool:
    """JSON Schema's "integer" takes 3.0 and 1e3 (a number with no fraction); cardwright does not: a
    field declared ``int`` holds an int in every output (the reference would print "1000.0"), and a
    designer who wrote 3.0 may have meant 3.5. So a float is never a whole number here (issue 26)."""
    return type(instance) is int


@lru_cache(maxsize=None)
def _validator_class():
    """The draft 2020-12 validator with the ECMA reading of "pattern" (and so of "propertyNames"
    patterns), and "integer" meaning a number written without a decimal point or exponent. Made on
    first use: a clean build passes every value through the fast checks (``fast_check``) and never
    needs jsonschema, whose import was an eighth of the compiler's."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {"pattern": _pattern},
                             type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number))


class Prepared:
    """A schema made ready once: the full jsonschema validator (made when first asked for), and a
    fast check where one exists.

    ``quick(value)`` returning True means the value is valid (jsonschema would report nothing);
    False only means "not sure": the full validator then runs and words every error.
    """

    def __init__(self, schema: dict, quick: Callable[[Any], bool] | None = None):
        self.schema = schema
        self._full = None
        self.quick = quick if quick is not None else fast_check(schema)

    @property
    def validator(self):
        if self._full is None:
            self._full = _validator_class()(self.schema)
        return self._full


@lru_cache(maxsize=None)
def _validator(name: str) -> Prepared:
    # A shipped schema (data/schema/), never one read from a game folder: that it is a valid JSON
    # Schema is a fact of the release, held by tests/test_schemaexport.py, not re-proved by every
    # build (checking it against the meta-schema was a fifth of a 10-card build's CPU).
    return Prepared(load_schema(name))


def validate(doc: Document, schema: str | dict | Prepared, diags: Diagnostics, base: tuple = ()) -> bool:
    """Validate ``doc.data`` (or the part at ``base``) and report every error. True when clean."""
    prepared = _validator(schema) if isinstance(schema, str) else \
        schema if isinstance(schema, Prepared) else Prepared(schema)
    value = doc.get(base) if base else doc.data
    if prepared.quick is not None and prepared.quick(value):
        return True
    validator = prepared.validator
    ok = True
    for err in sorted(validator.iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        ok = False
        err = _meant(err)
        path = base + tuple(err.absolute_path)
        where = path
        message = _message(err)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = _extras(err)
            if extra:
                where = path + (extra[0],)
                line, col, src = _key_where(doc, where)
                diags.error("E401", message, file=doc.file, line=line, column=col, length=len(str(extra[0])),
                            card=card_of(doc, path), path=path_text(path) or None, source_line=src)
                continue
        if "propertyNames" in err.schema_path and isinstance(doc.get(path), dict):
            # a bad name is reported at the key itself, not at the mapping's first line
            line, col, src = _key_where(doc, path + (err.instance,))
            diags.error("E401", _name_message(err), file=doc.file, line=line, column=col,
                        length=len(str(err.instance)), card=card_of(doc, path), path=path_text(path) or None,
                        source_line=src)
            continue
        line, col, src = doc.where(where)
        diags.error("E401", message, file=doc.file, line=line, column=col, card=card_of(doc, path),
                    path=path_text(path) or None, source_line=src)
    return ok


def validate_module(doc: Document, diags: Diagnostics, passed: dict | None = None) -> bool:
    """``validate(doc, "module", diags)``, told which cards already passed it: ``passed`` maps a card's
    index to the card object (as loaded) that passed the module schema at that index, and is updated to
    this Document's cards when they all pass. Watch mode keeps it per module file: a save re-reads one
    card and stitches it into the last Document (compiler/cardblocks.py), so every other card is the
    very object that passed — checking a 1,000-card module's schema again was a fifth of a save
    (issue 27). Exact because the module schema constrains ``cards`` only item by item (``items``: no
    count, no uniqueness): the module passes exactly when its other keys and every card pass. Any
    failure runs the whole validation, so the errors are worded and placed as before."""
    prepared = _validator("module")
    cards = doc.data.get("cards") if type(doc.data) is dict else None
    if passed is None or prepared.quick is None or type(cards) is not list:
        return validate(doc, prepared, diags)
    fresh = [c for i, c in enumerate(cards) if passed.get(i) is not c]
    if prepared.quick({**doc.data, "cards": fresh}):
        passed.clear()
        passed.update(enumerate(cards))
        return True
    passed.clear()
    return validate(doc, prepared, diags)


def _key_where(doc: Document, path: tuple):
    kp = doc.key_positions.get(path)
    if kp is None:
        return doc.where(path)
    return kp.line + 1, kp.column + 1, doc.source_line(kp.line)


def _extras(err) -> list[str]:
    allowed = set(err.schema.get("properties", {}))
    patterns = err.schema.get("patternProperties", {})
    if patterns:
        return []
    # keys may be numbers (`2: gain 1 fuel` inside a card): compare and sort them as text
    return sorted((k for k in err.instance if k not in allowed), key=str)


def _name_message(err) -> str:
    """A key that is not a valid name: say what a name looks like, never the regular expression."""
    key = err.instance
    if not isinstance(key, str):
        return f"the name {key!r} is a number: names are words (lower-case letters, digits and _)"
    return (f"'{_clip(key)}' is not a valid name: names are lower-case letters, digits and _"
            + (" (and spaces)" if " " in str(err.schema.get("pattern", "")) else "")
            + ", starting with a letter")


def _clip(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


# The patterns the schemas use, in words: a designer is never shown a regular expression.
_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "a lower-case id: letters, digits and _, starting with a letter (oil_rig)",
    "^[a-z][a-z0-9_ ]*$": "lower-case words: letters, digits, _ and spaces, starting with a letter",
    "^[a-z][a-z0-9_' ]*$": "lower-case words: letters, digits, _, ' and spaces, starting with a letter",
    "^[A-Za-z][A-Za-z0-9_]*$": "an id: letters, digits and _, starting with a letter (X1)",
    "\\S": "a text that says something (not empty)",
    "^[MSAI][0-9]{2}$": "a rule clause id: M, S, A or I and two digits (M04)",
    "^(rulebook [0-9]{3}_[0-9a-f]+(\\.txt)?|example)": "'example', or 'rulebook ' and a rulebook's file name "
                                                      "(rulebook 000_3e37b2ec99b6decd.txt)",
}


def _message(err) -> str:
    """jsonschema's messages, reworded in a designer's words: what was expected and what was found,
    with "did you mean" for a closed set — never "is not valid under any of the given schemas", a
    regular expression, or Python's None."""
    v = err.validator
    if v == "required":
        return err.message.replace("is a required property", "is missing (it is required)")
    if v == "additionalProperties":
        extra = _extras(err)
        if extra:
            hint = did_you_mean(str(extra[0]), err.schema.get("properties", {}))
            return f"unknown field '{extra[0]}'" + (f" ({hint})" if hint else "")
    if v == "type":
        if type(err.instance) is float and "integer" in (err.validator_value if isinstance(err.validator_value, list)
                                                         else [err.validator_value]):
            exact = err.instance.is_integer() and abs(err.instance) < 2 ** 53
            return (f"expected {_type_words(err.validator_value)}, found {_short(err.instance)} (a number with a "
                    "decimal point or an exponent)" + (f": write {int(err.instance)}" if exact else ""))
        return f"expected {_type_words(err.validator_value)}, found {_found(err.instance)}"
    if v == "enum":
        choices = ', '.join(map(str, err.validator_value))
        text = (f"expected one of: {choices}; found nothing" if err.instance is None else
                f"{_short(err.instance)} is not one of: {choices}")[:300]
        hint = did_you_mean(err.instance, map(str, err.validator_value)) if isinstance(err.instance, str) else None
        return text + (f" ({hint})" if hint else "")
    if v == "const":
        return f"expected {_short(err.validator_value)}, found {_found(err.instance)}"
    if v == "pattern":
        words = _PATTERN_WORDS.get(err.validator_value)
        if words:
            return f"{_short(err.instance)} is not {words}"
        return f"{_short(err.instance)} is not in the form expected here" + \
            (f": {err.schema['description']}" if err.schema.get("description") else "")
    if v in ("oneOf", "anyOf"):
        return _alternatives(err)
    if v == "minItems":
        n = err.validator_value
        return f"needs at least {n} item{'s' if n != 1 else ''}, found {len(err.instance)}"
    if v == "maxItems":
        return f"holds at most {err.validator_value} items, found {len(err.instance)}"
    if v == "minimum":
        return f"must be at least {err.validator_value}, found {_short(err.instance)}"
    if v == "maximum":
        return f"must be at most {err.validator_value}, found {_short(err.instance)}"
    if v == "maxLength":
        return (f"is at most {err.validator_value} characters long, found {len(err.instance)}: "
                f"{_short(err.instance)}")
    if v == "minLength":
        return f"is at least {err.validator_value} characters long, found {_short(err.instance)}"
    if v == "uniqueItems":
        return "lists the same value twice"
    if v == "propertyNames":
        return _name_message(err)
    return err.message[:300].replace("None", "nothing")


def _meant(err):
    """For "one of several forms", the error inside the form the value was meant to have (the one
    of its type), so that it is worded and located as that form's own error; else ``err``."""
    while err.validator in ("oneOf", "anyOf"):
        meant = [e for e in err.context or () if not (e.validator == "type" and not e.relative_path)]
        branches = {e.schema_path[0] for e in meant if e.schema_path}
        if not meant or len(branches) != 1:
            return err
        from jsonschema.exceptions import best_match

        err = best_match(meant)
    return err


def _alternatives(err) -> str:
    """One of several forms was expected: word the form the value was meant to have (the branch of
    its own type), or list the forms when it has none of their types."""
    subs = list(err.context or ())
    by_branch: dict[int, list] = {}
    for sub in subs:
        by_branch.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
    types, meant = [], []
    for branch, errors in sorted(by_branch.items()):
        wrong_type = [e for e in errors if e.validator == "type" and not e.relative_path]
        if wrong_type:
            want = wrong_type[0].validator_value
            types.extend(want if isinstance(want, list) else [want])
        else:
            meant.extend(errors)
    if meant:  # the value has a branch's type: what is wrong inside that branch
        from jsonschema.exceptions import best_match

        best = best_match(meant)
        inner = _message(best)
        if best.relative_path:
            inner = f"{path_text(tuple(best.relative_path))}: {inner}"
        return inner
    return f"expected {_type_words(list(dict.fromkeys(types)))}, found {_found(err.instance)}" if types \
        else f"{_found(err.instance)} is not allowed here"


def _type_words(want) -> str:
    if isinstance(want, list):
        return " or ".join(_TYPE_WORDS.get(w, w) for w in want)
    return _TYPE_WORDS.get(want, want)


def _found(value: Any) -> str:
    """'nothing' for an empty value (never Python's None), else the kind and the value."""
    if value is None:
        return "nothing"
    return f"{_kind(value)} {_short(value)}"


_TYPE_WORDS = {"object": "a mapping", "array": "a list", "string": "text", "integer": "a whole number",
               "number": "a number", "boolean": "true or false", "null": "nothing"}


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _kind(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "text", list: "list", dict: "mapping",
            type(None): "nothing"}.get(type(value), type(value).__name__)


def card_of(doc: Document, path: tuple) -> str | None:
    """The id of the card a path points into, for diagnostics."""
    if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
        card = doc.get(path[:2])
        if isinstance(card, dict) and isinstance(card.get("id"), str):
            return card["id"]
    return None


def field_schema(spec: Any, vocab_data: dict) -> dict:
    """A card field's JSON Schema from the vocabulary's shorthand."""
    if isinstance(spec, dict):
        return spec
    goods = sorted(vocab_data.get("goods") or {})
    icons = sorted(vocab_data.get("icons") or {})
    if spec in _SHORTHAND:
        return dict(_SHORTHAND[spec])
    if spec == "good":
        return {"enum": goods}
    if spec == "goods":
        return {"type": "array", "items": {"enum": goods}}
    if spec == "icon":
        return {"enum": icons}
    if spec == "icons":
        return {"type": "array", "items": {"enum": icons}}
    engine_type = field_types_of(vocab_data).get(spec) if isinstance(spec, str) else None
    if engine_type is not None:  # a type the game's engine adds (runtime/fieldtypes.py)
        return engine_type.schema(vocab_data)
    return {}


# A tuple, not a set: the order of a schema's properties is its order in the exported file, which must
# be the same on every run (a set's order changes with the interpreter's string hashing).
_COMMON = ("id", "kind", "name", "count", "source", "provisional", "uncertain", "note", "text", "stand_in")
# a card (or any flow entry of game.yaml) that is a stand-in says so: `stand_in: {note: ...}`
STAND_IN = {"type": "object", "required": ["note"], "additionalProperties": False,
            "description": "This card is a stand-in: written for this project so that whole games can be played, "
                           "not the published game. Shown as such in the rules reference and simulation reports.",
            "properties": {"note": {"type": "string", "pattern": "\\S",
                                    "description": "What the stand-in is and why it is needed."}}}


def card_schema(vocab_data: dict) -> dict:
    """A schema for one card of this game: one branch per kind, closed to unknown fields."""
    branches = []
    for kind, spec in sorted((vocab_data.get("card_kinds") or {}).items()):
        spec = spec or {}
        props: dict = {k: {} for k in _COMMON}
        props["kind"] = {"const": kind}
        props["stand_in"] = STAND_IN
        for slot, sspec in (spec.get("slots") or {}).items():
            props[slot] = {"type": "string", "description": (sspec or {}).get("name", slot)}
        for fname, fspec in (spec.get("fields") or {}).items():
            props[fname] = field_schema(fspec, vocab_data)
        for face, fspec in (spec.get("faces") or {}).items():
            face_props = {}
            for slot in (fspec.get("slots") or {}):
                face_props[slot] = {"type": "string"}
            for fname, ff in (fspec.get("fields") or {}).items():
                face_props[fname] = field_schema(ff, vocab_data)
            props[face] = {"type": "object", "properties": face_props, "additionalProperties": False}
        branches.append({"if": {"properties": {"kind": {"const": kind}}},
                         "then": {"properties": props, "additionalProperties": False,
                                  "required": list(spec.get("required") or [])}})
    kinds = sorted((vocab_data.get("card_kinds") or {}))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object", "properties": {"kind": {"enum": kinds}}, "allOf": branches}


def prepare_cards(vocab_data: dict) -> Prepared:
    """The per-game card schema, prepared once per build, with a fast check per card kind."""
    schema = card_schema(vocab_data)
    kinds = {}
    for branch in schema["allOf"]:
        kind = branch["if"]["properties"]["kind"]["const"]
        check = fast_check({"type": "object", **branch["then"]})
        if check is None:
            return Prepared(schema, quick=None)
        kinds[kind] = check

    def quick(card: Any) -> bool:
        if type(card) is not dict:
            return False
        check = kinds.get(card.get("kind")) if type(card.get("kind")) is str else None
        return check is not None and check(card)

    return Prepared(schema, quick)


# --- a fast check for the simple schemas cardwright writes ---------------------------------------
# jsonschema walks every card through ~30 keyword functions (a third of a 10,000-card build). Our
# schemas use a handful of keywords; ``fast_check`` turns such a schema into nested closures that
# answer "valid" quickly. It is conservative: any keyword it does not know makes it give up (None),
# and each closure returns True only where jsonschema would find no error — when unsure it returns
# False and the full validator decides. So the fast path can skip work, never hide an error.

_ANNOTATIONS = {"description", "title", "$schema", "$id", "$comment", "default", "examples",
                "markdownDescription", "deprecated", "readOnly", "writeOnly"}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,  # as _whole_number
    "number": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "null": lambda v: v is None,
}


def _scalar_key(v: Any):
    """A hashable key that keeps types apart (jsonschema: 1 != True, '1' != 1)."""
    return (type(v).__name__, v) if v is None or type(v) in (str, int, bool) else None


def fast_check(schema: Any) -> Callable[[Any], bool] | None:
    """A predicate equivalent-or-stricter than ``schema``, or None when the schema is not simple."""
    if schema is True or schema == {}:
        return lambda v: True
    if not isinstance(schema, dict):
        return None
    checks: list[Callable[[Any], bool]] = []
    for key, arg in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key == "type":
            names = arg if isinstance(arg, list) else [arg]
            if not all(n in _TYPES for n in names):
                return None
            fns = [_TYPES[n] for n in names]
            checks.append(fns[0] if len(fns) == 1 else (lambda v, fns=fns: any(f(v) for f in fns)))
        elif key in ("enum", "const"):
            members = arg if key == "enum" else [arg]
            keys = {_scalar_key(m) for m in members}
            if None in keys:
                return None
            checks.append(lambda v, keys=keys: _scalar_key(v) in keys)
        elif key == "pattern":
            rx = ecma_regex(arg)
            checks.append(lambda v, rx=rx: type(v) is not str or rx.search(v) is not None)
        elif key == "minimum":
            checks.append(lambda v, m=arg: type(v) not in (int, float) or v >= m)
        elif key == "maximum":
            checks.append(lambda v, m=arg: type(v) not in (int, float) or v <= m)
        elif key == "minItems":
            checks.append(lambda v, m=arg: type(v) is not list or len(v) >= m)
        elif key == "minLength":  # code points, as jsonschema counts them (a card's source, issue 28)
            checks.append(lambda v, m=arg: type(v) is not str or len(v) >= m)
        elif key == "maxLength":
            checks.append(lambda v, m=arg: type(v) is not str or len(v) <= m)
        elif key == "required":
            req = tuple(arg)
            checks.append(lambda v, req=req: type(v) is not dict or all(r in v for r in req))
        elif key == "items":
            item = fast_check(arg)
            if item is None:
                return None
            checks.append(lambda v, item=item: type(v) is not list or all(item(x) for x in v))
        elif key == "propertyNames":
            name = fast_check(arg)
            if name is None:
                return None
            checks.append(lambda v, name=name: type(v) is not dict or all(name(k) for k in v))
        elif key in ("properties", "additionalProperties"):
            continue  # handled together below
        else:
            return None
    if "properties" in schema or "additionalProperties" in schema:
        if "patternProperties" in schema:
            return None
        props = {}
        for name, sub in (schema.get("properties") or {}).items():
            props[name] = fast_check(sub)
            if props[name] is None:
                return None
        extra_schema = schema.get("additionalProperties", True)
        extra = None if extra_schema is False else fast_check(extra_schema)
        if extra is None and extra_schema is not False:
            return None

        def objects(v, props=props, extra=extra):
            if type(v) is not dict:
                return True
            for k, x in v.items():
                f = props.get(k) if type(k) is str else None
                if f is None:
                    if extra is None or not extra(x):
                        return False
                elif not f(x):
                    return False
            return True

        checks.append(objects)
    if len(checks) == 1:
        return checks[0]
    return lambda v, checks=tuple(checks): all(c(v) for c in checks)
