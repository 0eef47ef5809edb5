"""Stage 2 — validate: JSON Schema (draft 2020-12) for every kind of data file.

The generic schemas live in ``data/schema/``. Cards are further checked against a per-game schema
made from the game's vocabulary (``card_schema``): each kind's fields, effect slots and faces, with
no other properties — so a misspelt field ("defence") is caught, not silently ignored.
Every violation of a run is reported, each at the file, line and column of the offending value.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator

from .diagnostics import Diagnostics
from .loader import Document, path_text
from .resources import SCHEMA_DIR

_SHORTHAND = {
    "int": {"type": "integer"}, "number": {"type": "number"}, "bool": {"type": "boolean"},
    "str": {"type": "string"}, "text": {"type": "string"},
}


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def validate(doc: Document, schema: str | dict, diags: Diagnostics, base: tuple = ()) -> bool:
    """Validate ``doc.data`` (or the part at ``base``) and report every error. True when clean."""
    validator = _validator(schema) if isinstance(schema, str) else Draft202012Validator(schema)
    value = doc.get(base) if base else doc.data
    ok = True
    for err in sorted(validator.iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        ok = False
        path = base + tuple(err.absolute_path)
        where = path
        message = _message(err)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = _extras(err)
            if extra:
                where = path + (extra[0],)
                line, col, src = _key_where(doc, where)
                diags.error("E401", message, file=doc.file, line=line, column=col, length=len(extra[0]),
                            card=card_of(doc, path), path=path_text(path) or None, source_line=src)
                continue
        line, col, src = doc.where(where)
        diags.error("E401", message, file=doc.file, line=line, column=col, card=card_of(doc, path),
                    path=path_text(path) or None, source_line=src)
    return ok


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
    return sorted(k for k in err.instance if k not in allowed)


def _message(err) -> str:
    """jsonschema's messages, reworded where a designer would not understand them."""
    v = err.validator
    if v == "required":
        return err.message.replace("is a required property", "is missing (it is required)")
    if v == "additionalProperties":
        extra = _extras(err)
        if extra:
            from .diagnostics import did_you_mean

            hint = did_you_mean(extra[0], err.schema.get("properties", {}))
            return f"unknown field '{extra[0]}'" + (f" ({hint})" if hint else "")
    if v == "type":
        want = err.validator_value
        want = " or ".join(_TYPE_WORDS.get(w, w) for w in want) if isinstance(want, list) else \
            _TYPE_WORDS.get(want, want)
        return f"expected {want}, found {_kind(err.instance)} {_short(err.instance)}"
    if v == "enum":
        from .diagnostics import did_you_mean

        text = f"{_short(err.instance)} is not one of: {', '.join(map(str, err.validator_value))}"[:300]
        hint = did_you_mean(err.instance, map(str, err.validator_value)) if isinstance(err.instance, str) else None
        return text + (f" ({hint})" if hint else "")
    if v == "pattern":
        return f"{err.instance!r} does not match the required form {err.validator_value}"
    return err.message[:300]


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
    if spec == "sockets":
        sockets = sorted((vocab_data.get("tables") or {}).get("sockets") or {}) or None
        item = {"enum": sockets} if sockets else {"type": "string"}
        return {"type": "object", "additionalProperties": False, "required": ["left", "right", "top", "bottom"],
                "properties": {s: item for s in ("left", "right", "top", "bottom")}}
    return {}


_COMMON = {"id", "kind", "name", "count", "source", "provisional", "uncertain", "note", "text"}


def card_schema(vocab_data: dict) -> dict:
    """A schema for one card of this game: one branch per kind, closed to unknown fields."""
    branches = []
    for kind, spec in sorted((vocab_data.get("card_kinds") or {}).items()):
        spec = spec or {}
        props: dict = {k: {} for k in _COMMON}
        props["kind"] = {"const": kind}
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
