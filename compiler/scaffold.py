"""Scaffolding: a new game folder that builds and plays at once, and skeleton cards.

``new_game`` writes a minimal game (vocabulary with a flow that plays to a winner, one module with
one card, one scenario) from text
templates, so the files carry comments that teach. ``new_card`` *inserts text* at the end of a module's
card list, never re-dumping the YAML, so the designer's comments and layout survive; the result is checked by
the real pipeline and the file is restored when it does not build. Skeleton values are marked
``provisional`` (DESIGN: never invent card values silently). Nothing here prints.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from runtime.model import GameModel
from runtime.words import did_you_mean

from .build import GAME_FILE, compile_tree, load_game, module_files
from .diagnostics import Diagnostics, display_path
from .loader import load_file
from .schema import field_schema, load_schema

NAME_RE = re.compile(r"^[a-z][a-z0-9_]*\Z")  # \Z, not $: "name\n" is not a name
RESERVED = {"schema", "scenarios"}
SCHEMAS = ("game", "module", "scenario")


class ScaffoldError(Exception):
    """A request that cannot be scaffolded; the message says why in a designer's words."""


@dataclass
class Scaffolded:
    created: list[Path] = field(default_factory=list)
    changed: list[Path] = field(default_factory=list)
    card_id: str | None = None
    text: str = ""


def title(name: str) -> str:
    return " ".join(w.capitalize() for w in name.split("_"))


GAME_YAML = """\
# yaml-language-server: $schema=../schema/game.schema.json
# {title}: the vocabulary. Every name the cards' effects use is declared here, and the compiler
# checks each effect against it. See docs/authoring.md and docs/language.md.
game: {name}
name: {title}
engine: core
source: example
goods:
  coin: {{name: Coin}}
  vp: {{name: Victory Point, aliases: [victory point, victory points]}}
zones:
  hand: {{per: player, name: Hand}}
  deck: {{per: game, name: Draw pile}}
  discard: {{per: player, name: Discard pile}}
phases: [play, cleanup]
card_kinds:
  action:
    name: Action card
    slots:
      effect: {{name: Effect}}
    fields:
      cost: int
rules:
  hand: hand
  draw_from: deck
  discard_to: discard
  play_to: discard
  play_slot: effect
seats: {{min: 2, max: 4}}  # how many players the game seats: simulate and play take no other number
# How the game is played (docs/authoring.md, "Game flow"): try `cardwright play --data data {name}`
# or `cardwright simulate --data data {name} --games 100`.
flow:
  setup:
    - {{create: all, into: deck}}        # every card, as many copies as its `count`
    - {{shuffle: deck}}
    - {{effect: draw 3 cards, for: each player}}
  round:
    - id: turns
      name: Turns
      turns:                           # each player in turn order takes a turn of these phases
        - id: play
          name: Play phase
          steps:
            - effect: gain 1 coin
          actions: [play_card]         # a player may also pass, which ends the phase
        - id: cleanup
          name: Cleanup
          steps:
            - effect: "if number of cards in your hand < 3: draw 1 card"
  actions:
    play_card:
      name: Play a card
      effect: choose 1 card in your hand as card; play card
      limit: {{times: 1, per: turn}}
  end:
    when: number of vp >= 3            # checked for every player
    check: after each turn
    rounds: 30                         # at the latest
  score:
    points: number of vp
    tie_breaks:
      - most: number of coin
"""

MODULE_YAML = """\
# yaml-language-server: $schema=../schema/games/{name}.module.schema.json
# The base set of {title}. Add cards at the end of the list (or: cardwright new card --game {name} --kind action).
name: {title} base set
source: example
cards:
  - id: first_card
    kind: action
    name: First Card
    source: example
    cost: 1
    count: 20
    effect: "spend 1 coin: gain 1 vp and draw 1 card"
"""

SCENARIO_YAML = """\
# yaml-language-server: $schema=../../schema/scenario.schema.json
# Try it: cardwright run {rel}
scenario: first card
game: {name}
players: [Ann, Bob]
state:
  Ann:
    goods: {{coin: 1}}
    zones: {{hand: [first_card]}}
  game:
    zones: {{deck: [first_card]}}
steps:
  # Ann plays the card from her hand: she pays 1 coin, gains 1 vp and draws the deck's card.
  - {{card: first_card, slot: effect, player: Ann}}
  # She has no coin left: the cost cannot be paid, so nothing happens (refused).
  - {{card: first_card, slot: effect, player: Ann, expect: refused}}
expect:
  players:
    Ann:
      goods: {{coin: 0, vp: 1}}
      zones: {{hand: [first_card, first_card]}}
  game:
    zones: {{deck: 0}}
"""


def check_name(name: str, what: str) -> None:
    if not NAME_RE.match(name or ""):
        raise ScaffoldError(f"{what} '{name}' must be lower case letters, digits and underscores, "
                            f"starting with a letter (for example: my_{what.split()[-1]})")


def export_generic_schemas(out_dir: Path) -> list[Path]:
    """Write the generic JSON Schemas (game, module, scenario) into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        p = out_dir / f"{name}.schema.json"
        text = json.dumps(load_schema(name), indent=2, ensure_ascii=False) + "\n"
        if not p.is_file() or p.read_text(encoding="utf-8") != text:
            p.write_text(text, encoding="utf-8")
            written.append(p)
    return written


def new_game(name: str, data_root: Path) -> Scaffolded:
    """Create ``data_root/<name>/`` with game.yaml, base.yaml and scenarios/first_card.yaml."""
    check_name(name, "game name")
    if name in RESERVED:
        raise ScaffoldError(f"'{name}' is reserved for the data folder's own use; choose another game name")
    game_dir = data_root / name
    if game_dir.exists():
        raise ScaffoldError(f"{display_path(game_dir)} already exists; choose another name or remove it")
    out = Scaffolded()
    if not (data_root / "schema").is_dir():  # the $schema comments below point here
        out.created += export_generic_schemas(data_root / "schema")
    scen_rel = f"{display_path(game_dir / 'scenarios' / 'first_card.yaml')}"
    files = {
        game_dir / GAME_FILE: GAME_YAML.format(name=name, title=title(name)),
        game_dir / "base.yaml": MODULE_YAML.format(name=name, title=title(name)),
        game_dir / "scenarios" / "first_card.yaml": SCENARIO_YAML.format(name=name, rel=scen_rel),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        out.created.append(path)
    # the module's modeline names the game's own schema: its cards are checked against its kinds
    from .schemaexport import write_game_schema

    gdoc = load_file(game_dir / GAME_FILE, Diagnostics())
    try:
        written = write_game_schema(data_root, gdoc.data) if gdoc is not None else None
    except OSError as exc:
        raise ScaffoldError(f"cannot write the game's schema: {exc.strerror or exc}") from None
    if written is not None:
        out.created.append(written)
    return out


# --- skeleton cards -------------------------------------------------------------------------------


def _skeleton_value(schema: dict, vocab_data: dict):
    """A valid placeholder for a field schema (marked provisional by the caller)."""
    if "const" in schema:
        return schema["const"]
    if "enum" in schema and schema["enum"]:
        return schema["enum"][0]
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), t[0])
    if t == "integer" or t == "number":
        return max(0, schema.get("minimum", 0))
    if t == "boolean":
        return False
    if t == "string":
        return "TODO"
    if t == "array":
        n = schema.get("minItems", 0)
        item = _skeleton_value(schema.get("items") or {}, vocab_data) if n else None
        return [item] * n
    if t == "object":
        props = schema.get("properties") or {}
        return {k: _skeleton_value(v, vocab_data) for k, v in props.items() if k in (schema.get("required") or [])}
    return None


def _flow(value) -> str:
    """A YAML flow rendering of a skeleton value (plain builtins only)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    return json.dumps(str(value), ensure_ascii=False)


def skeleton_card(vocab: GameModel, kind: str, card_id: str, indent: str = "  ") -> str:
    """The YAML text of one list item: a valid card of ``kind`` with every field and slot shown."""
    spec = vocab.kinds[kind]
    lines = [f"- id: {card_id}", f"kind: {kind}", f"name: {json.dumps(title(card_id))}", "source: example"]
    provisional = []
    for f in spec.fields:
        fname = f.key
        value = _skeleton_value(field_schema(f.type, vocab.source), vocab.source)
        if value is None:
            lines.append(f"# {fname}: (set this field)")
            continue
        lines.append(f"{fname}: {_flow(value)}")
        provisional.append(fname)
    for sl in spec.slots:
        if sl.kind == "condition":
            lines.append(f"# {sl.key}: a condition ({sl.name}), e.g. 1 card in your hand")
        elif sl.kind == "ability":  # issue 28
            lines.append(f"# {sl.key}: abilities ({sl.name}), e.g. once per turn: …, or trash this card: …")
        elif sl.kind == "quantity":
            lines.append(f"# {sl.key}: a quantity ({sl.name}), e.g. number of cards in your hand")
        else:
            lines.append(f"# {sl.key}: effect text ({sl.name}); see `cardwright verbs --game {vocab.game}`")
    for face in spec.faces:
        lines.append(f"# {face.key}: {{...}}  the {face.key} face: " + ", ".join(
            [sl.key for sl in face.slots] + [f.key for f in face.fields]))
    if provisional:
        lines.append("provisional:")
        for f in provisional:
            lines.append(f"  {f}: skeleton value from `cardwright new card`; replace it with the printed value")
    out = [indent + lines[0]] + [indent + "  " + ln for ln in lines[1:]]
    return "\n".join(out) + "\n"


_TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:")
_ITEM = re.compile(r"^(\s*)- ")


def _insert_point(text: str) -> tuple[int, str, bool]:
    """Where to insert a card: (line index, item indentation, whether a ``cards:`` line is needed).

    The card goes at the end of the block-style ``cards:`` list: before the next top-level key and
    the comments and blank lines right above it (they belong to that key), or at the end of the file.
    """
    lines = text.splitlines()
    top = [(i, m.group(1)) for i, ln in enumerate(lines) if (m := _TOP_KEY.match(ln))]
    cards_at = [i for i, k in top if k == "cards"]
    if not cards_at:
        return len(lines), "  ", True
    i = cards_at[0]
    if lines[i].split(":", 1)[1].split("#", 1)[0].strip():
        raise ScaffoldError("`cards:` is written in flow style ([...]); write it as a block list to append to it")
    end = next((j for j, _ in top if j > i), len(lines))
    if end < len(lines):
        while end - 1 > i and (not lines[end - 1].strip() or lines[end - 1].startswith("#")):
            end -= 1
    indent = "  "
    for ln in lines[i + 1:end]:
        m = _ITEM.match(ln)
        if m:
            indent = m.group(1)
            break
    return end, indent, False


def _choose_module(game_dir: Path, kind: str, module: str | None) -> Path:
    mods = module_files(game_dir)
    if module:
        p = game_dir / (module if module.endswith(".yaml") else f"{module}.yaml")
        if p not in mods:
            raise ScaffoldError(f"no module '{module}' in {display_path(game_dir)} "
                                f"(modules: {', '.join(m.stem for m in mods) or 'none'})")
        return p
    if len(mods) == 1:
        return mods[0]
    with_kind = [m for m in mods if re.search(rf"^\s*kind:\s*{re.escape(kind)}\s*$",
                                              m.read_text(encoding="utf-8"), re.M)]
    if len(with_kind) == 1:
        return with_kind[0]
    choices = ", ".join(m.stem for m in (with_kind or mods)) or "none"
    raise ScaffoldError(f"which module should the card go in? Pass --module (one of: {choices})")


def new_card(data_root: Path, game: str, kind: str, card_id: str | None = None,
             module: str | None = None) -> Scaffolded:
    """Append a skeleton card of ``kind`` to a module of ``game``; keep the file only if it builds."""
    game_dir = data_root / game
    diags = Diagnostics()
    _, vocab = load_game(game_dir / GAME_FILE, diags)
    if vocab is None:
        raise ScaffoldError(f"no readable game '{game}' under {display_path(data_root)}")
    if kind not in vocab.kinds:
        hint = did_you_mean(kind, vocab.kinds)
        raise ScaffoldError(f"unknown card kind '{kind}' in {game}" + (f" ({hint})" if hint else "")
                            + f"; kinds: {', '.join(sorted(vocab.kinds))}")
    before = compile_tree(data_root, only={game})
    used = {c.get("id") for d in (before.games[game].modules.values() if game in before.games else [])
            for c in (d.data.get("cards") or []) if isinstance(c, dict)}
    if card_id is None:
        card_id, n = f"new_{kind}", 2
        while card_id in used:
            card_id, n = f"new_{kind}_{n}", n + 1
    check_name(card_id, "card id")
    if card_id in used:
        raise ScaffoldError(f"card id '{card_id}' is already used in {game}")
    path = _choose_module(game_dir, kind, module)
    from .loader import leaves_game_folder

    if leaves_game_folder(path):  # never read or rewrite a file a link leads to outside the game
        raise ScaffoldError(f"{path.name} is a symbolic link that leads outside the game folder: "
                            "cardwright does not write through it")
    original = path.read_text(encoding="utf-8")
    at, indent, add_key = _insert_point(original)
    text = ("cards:\n" if add_key else "") + skeleton_card(vocab, kind, card_id, indent)
    lines = original.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    path.write_text("".join(lines[:at]) + text + "".join(lines[at:]), encoding="utf-8", newline="\n")
    after = compile_tree(data_root, only={game})
    new_errors = {d.headline() for d in after.diags.errors} - {d.headline() for d in before.diags.errors}
    if new_errors:
        path.write_text(original, encoding="utf-8", newline="\n")
        raise ScaffoldError("the skeleton card does not build, so the file was left unchanged:\n  "
                            + "\n  ".join(sorted(new_errors)))
    return Scaffolded(changed=[path], card_id=card_id, text=text)
