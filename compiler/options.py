"""game.yaml ``seats`` and ``options`` beyond their schema (issue 24): what a JSON Schema cannot say.

The schema (data/schema/game.schema.json) gives each option's shape; this stage checks that a default
is one of the option's values (a list of them for ``many``; true or false for a flag) and that
``seats.min`` is not above ``seats.max``. Each problem is located in game.yaml (E401). The runtime
reads the declaration through runtime/options.py.
"""
from __future__ import annotations

from .diagnostics import Diagnostics
from .loader import Document


def check_options(gdoc: Document, diags: Diagnostics) -> bool:
    """True when the declared seats and options are sound."""
    ok = True

    def report(message: str, path: tuple) -> None:
        nonlocal ok
        ok = False
        line, col, src = gdoc.where(path)
        diags.error("E401", message, file=gdoc.file, line=line, column=col, path=".".join(map(str, path)),
                    source_line=src)

    seats = gdoc.data.get("seats")
    if isinstance(seats, dict) and isinstance(seats.get("min"), int) and isinstance(seats.get("max"), int) \
            and seats["min"] > seats["max"]:
        report(f"seats: min {seats['min']} is more than max {seats['max']}", ("seats", "min"))
    options = gdoc.data.get("options")
    for key, spec in (options.items() if isinstance(options, dict) else ()):
        if not isinstance(spec, dict) or "default" not in spec:
            continue
        default, path = spec["default"], ("options", key, "default")
        if spec.get("flag"):
            if not isinstance(default, bool):
                report(f"option '{key}' is a flag: its default is true or false, not {default!r}", path)
            continue
        values = [v for v in spec.get("values") or [] if isinstance(v, str)]
        if spec.get("many"):
            items = default if isinstance(default, list) else None
            if items is None or any(v not in values for v in items):
                report(f"option '{key}' takes several of {', '.join(values)}: its default is a list of them, "
                       f"not {default!r}", path)
        elif default not in values:
            report(f"option '{key}': the default {default!r} is not one of its values ({', '.join(values)})", path)
    return ok
