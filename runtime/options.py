"""Game options as data (issue 24): what a game is set up with, declared in its game.yaml.

```yaml
seats: {min: 2, max: 4}            # how many players the game seats
options:
  packs: {name: State Packs, values: [moloch, scavengers], many: true, default: [moloch, scavengers]}
  difficulty: {name: Difficulty, values: [recruit, private, veteran], default: recruit, rules: [M02, M06]}
  collaboration: {name: Collaboration variant, flag: true, default: false, rules: [M20]}
```

An option is a choice of one value (``values``), a set of values (``many: true``) or on/off
(``flag: true``). ``simulate``, ``play`` and scenarios read the chosen values through ``resolve``,
which checks them against the declaration and fills in the defaults; ``cardwright`` takes them as
``--option NAME=VALUE`` (``parse_assignments``) and ``--pack NAME`` (the option ``packs``). A wrong
name or value is an ``OptionError`` (a ValueError) in a designer's words; the command line turns it
into a usage error. The engine reads the resolved dict (``game.options``) as before.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PACKS = "packs"  # the option ``--pack`` adds to
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class OptionError(ValueError):
    """A chosen option the game does not declare, or a value it does not allow; ``option`` names it
    (a scenario's diagnostic points at it)."""

    def __init__(self, message: str, option: str | None = None):
        super().__init__(message)
        self.option = option


@dataclass(frozen=True)
class OptionSpec:
    key: str
    name: str
    values: tuple = ()       # the allowed values (a flag: (False, True))
    many: bool = False       # a set of values (e.g. the packs in play)
    flag: bool = False       # on or off
    default: Any = None
    rules: tuple = ()        # rule clause ids the option comes from (M02, M20…)
    note: str | None = None

    def describe(self, value) -> str:
        if self.flag:
            return "on" if value else "off"
        if self.many:
            return ", ".join(map(str, value)) if value else "none"
        return str(value)


def option_specs(vocab: dict) -> dict[str, OptionSpec]:
    """The options a (validated) game.yaml declares, in its order. Read once into the game's model
    (``GameModel.options``, runtime/model.py), where every other reader asks."""
    out: dict[str, OptionSpec] = {}
    raw = vocab.get("options") if isinstance(vocab, dict) else None
    for key, spec in (raw or {}).items() if isinstance(raw, dict) else ():
        spec = spec if isinstance(spec, dict) else {}
        flag = bool(spec.get("flag"))
        values = (False, True) if flag else tuple(v for v in spec.get("values") or () if isinstance(v, str))
        many = bool(spec.get("many")) and not flag
        default = spec.get("default", [] if many else (False if flag else (values[0] if values else None)))
        out[key] = OptionSpec(key, str(spec.get("name") or key.replace("_", " ")), values, many, flag,
                              tuple(default) if many else default, tuple(spec.get("rules") or ()),
                              spec.get("note") if isinstance(spec.get("note"), str) else None)
    return out


def seats(vocab: dict) -> tuple[int, int] | None:
    """(min, max) players from game.yaml ``seats``, or None when the game does not say. Read once into
    the game's model (``GameModel.seats``)."""
    raw = vocab.get("seats") if isinstance(vocab, dict) else None
    if not isinstance(raw, dict):
        return None
    low = int(raw.get("min", 1))
    return low, int(raw.get("max", low))


def parse_assignments(pairs: tuple | list, packs: tuple | list = ()) -> dict:
    """``NAME=VALUE`` texts (``--option``) and pack names (``--pack``) as raw values: a value with
    commas is a list; ``NAME`` alone is ``NAME=true``. Values are checked by ``resolve``."""
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, value = str(pair).partition("=")
        name = name.strip()
        if not name:
            raise OptionError(f"--option {pair!r}: write NAME=VALUE, e.g. difficulty=veteran")
        if name in out:
            raise OptionError(f"option {name!r} is given twice")
        value = value.strip() if eq else "true"
        out[name] = [v.strip() for v in value.split(",") if v.strip()] if "," in value else value
    if packs:
        if PACKS in out:
            raise OptionError("give the packs either with --pack or with --option packs=…, not both")
        out[PACKS] = [p.strip() for p in packs]
    return out


def resolve(specs: dict[str, OptionSpec], given: dict | None, extra: frozenset | set = frozenset(),
            fill: bool = True) -> dict:
    """The options to play with: ``given`` checked against ``specs`` (names listed in ``extra`` pass
    unchecked: an engine's own scenario settings), then every declared option not given set to its
    default (``fill``). Raises OptionError naming the option and what it allows."""
    given = dict(given or {})
    out: dict[str, Any] = {}
    for name, value in given.items():
        spec = specs.get(name)
        if spec is None:
            if name in extra:
                out[name] = value
                continue
            if not specs:
                raise OptionError(f"this game declares no options (game.yaml `options`), so {name!r} is not one", name)
            raise OptionError(f"unknown option {name!r} (options: {', '.join(specs)})", name)
        out[name] = _value(spec, value)
    if fill:
        for name, spec in specs.items():
            if name not in out:
                out[name] = list(spec.default) if spec.many else spec.default
    return out


def _value(spec: OptionSpec, value):
    allowed = ", ".join(map(str, spec.values)) if not spec.flag else "true or false"
    if spec.flag:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise OptionError(f"option {spec.key!r} ({spec.name}) is on or off: {value!r} is not {allowed}", spec.key)
    if spec.many:
        items = value if isinstance(value, (list, tuple)) else [value]
        bad = [v for v in items if v not in spec.values]
        if bad:
            raise OptionError(f"option {spec.key!r} ({spec.name}): {', '.join(map(repr, bad))} is not one of {allowed}",
                              spec.key)
        if len(set(items)) != len(items):
            raise OptionError(f"option {spec.key!r} ({spec.name}) names a value twice", spec.key)
        return [v for v in spec.values if v in items]  # the declared order: the same game however listed
    if isinstance(value, (list, tuple)) or value not in spec.values:
        raise OptionError(f"option {spec.key!r} ({spec.name}): {value!r} is not one of {allowed}", spec.key)
    return value


def describe(specs: dict[str, OptionSpec], chosen: dict) -> list[str]:
    """``Name: value`` for each declared option, in declaration order (reports, ``play``)."""
    return [f"{s.name}: {s.describe(chosen[k])}" for k, s in specs.items() if k in chosen]


def check_seats(span: tuple[int, int] | None, players: int) -> str | None:
    """Why ``players`` cannot sit at a game that seats ``span`` (game.yaml ``seats``), or None."""
    if span is None or span[0] <= players <= span[1]:
        return None
    return f"the game seats {span[0]} to {span[1]} players (game.yaml seats), not {players}"
