"""Reading a scenario step's value into typed fields, with errors in a designer's words.

Game engines' scenario adapters use these instead of indexing the raw YAML: a malformed step
(a number where a mapping belongs, a missing or misspelt key) is a ``RulesError`` that names the
step and what it needs — the scenario runner reports it at the step's file, line and column —
never a ``KeyError`` or an ``AttributeError`` from deep inside an engine.
"""
from __future__ import annotations

from typing import Any

from runtime.errors import RulesError


def kind_of(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def mapping(step: str, value: Any, keys: dict[str, str], required: tuple = ()) -> dict:
    """``value`` as a mapping with only ``keys`` (key -> what it is, for the message)."""
    shape = "with " + ", ".join(keys)
    if not isinstance(value, dict):
        raise RulesError(f"step '{step}' takes a mapping {shape}, not {kind_of(value)}")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise RulesError(f"step '{step}' has no key {unknown[0]!r} (its keys: {', '.join(keys)})")
    for k in required:
        if value.get(k) is None:
            raise RulesError(f"step '{step}' needs '{k}' ({keys[k]})")
    return value


def text(step: str, key: str, value: Any, what: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RulesError(f"step '{step}': '{key}' is {what}, not {kind_of(value)}")
    return str(value)


def texts(step: str, key: str, value: Any, what: str, optional: bool = False) -> tuple[str, ...]:
    if value is None and optional:
        return ()
    if not isinstance(value, list) or not value:
        raise RulesError(f"step '{step}': '{key}' is a list of {what}, not {kind_of(value)}")
    return tuple(text(step, key, v, what) for v in value)


def number(step: str, key: str, value: Any, what: str = "a whole number", least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RulesError(f"step '{step}': '{key}' is {what}" + (f" (at least {least})" if least else "")
                         + f", not {kind_of(value)}")
    return value
