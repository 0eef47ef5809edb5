"""Editor support: export the JSON Schemas, generic and per game, for any YAML-aware editor.

``cardwright schema --out DIR`` writes the generic schemas of ``data/schema/`` and, for every game,
``<game>.module.schema.json``: the module schema whose cards are checked against the game's own card
schema (made from its vocabulary by compiler.schema.card_schema), so an editor completes a Machine's
fields, a Good or a value of a field type the game's engine adds (runtime/fieldtypes.py) while the
designer types. Enumerations of Goods, icons, card kinds and those values carry ``enumDescriptions``
from their printed names. A ``vscode-settings.json`` beside them maps each
schema to its files for the YAML extension (the ``# yaml-language-server: $schema=…`` comment at the
top of a data file takes precedence). Nothing here prints.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

from runtime.fieldtypes import field_types_of

from .build import GAME_FILE, discover_games
from .diagnostics import Diagnostics
from .loader import load_file
from .resources import SCHEMA_DIR
from .schema import card_schema, load_schema

BASE_ID = "https://cardwright.dev/schema/"


def _names(section: dict | None) -> dict[str, str]:
    return {k: ((v or {}).get("name") or k) if isinstance(v, dict) or v is None else k
            for k, v in (section or {}).items()}


def _describe_enums(node, tables: list[dict[str, str]]) -> None:
    """Add ``enumDescriptions`` to every enum whose values all come from one names table."""
    if isinstance(node, dict):
        values = node.get("enum")
        if isinstance(values, list) and values and "enumDescriptions" not in node:
            for names in tables:
                if all(isinstance(v, str) and v in names for v in values):
                    node["enumDescriptions"] = [names[v] for v in values]
                    break
        for v in node.values():
            _describe_enums(v, tables)
    elif isinstance(node, list):
        for v in node:
            _describe_enums(v, tables)


def game_card_schema(vocab_data: dict) -> dict:
    schema = card_schema(vocab_data)
    schema.pop("$schema", None)  # embedded in the module schema: only a schema resource's root names it
    kinds = {k: (v or {}).get("name") or k for k, v in (vocab_data.get("card_kinds") or {}).items()}
    # the value names of the field types the game's engine adds (runtime/fieldtypes.py)
    engine_names = [ft.names(vocab_data) for ft in field_types_of(vocab_data).values()]
    _describe_enums(schema, [kinds, _names(vocab_data.get("goods")), _names(vocab_data.get("icons")), *engine_names])
    return schema


def game_module_schema(vocab_data: dict) -> dict:
    """The module schema of one game: generic module fields, cards checked against the game's kinds."""
    game = vocab_data["game"]
    schema = copy.deepcopy(load_schema("module"))
    schema["$id"] = f"{BASE_ID}{game}.module.schema.json"
    schema["title"] = f"{vocab_data.get('name', game)} content module (data/{game}/<module>.yaml)"
    items = schema["properties"]["cards"]["items"]
    schema["properties"]["cards"]["items"] = {"allOf": [items, game_card_schema(vocab_data)]}
    return schema


def _dump(schema: dict) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


# The per-game schemas a data folder carries, so that its modules' modelines
# (``# yaml-language-server: $schema=../schema/games/<game>.module.schema.json``) check cards
# against their game's kinds with no editor set-up. Written by `cardwright new game`, kept current
# by the language server when game.yaml is saved, and checked for the bundled games by the tests.
GAMES_DIR = "games"


def game_schema_path(data_root: Path, game: str) -> Path:
    return data_root / "schema" / GAMES_DIR / f"{game}.module.schema.json"


def game_schema_text(vocab_data: dict) -> str:
    return _dump(game_module_schema(vocab_data))


def write_game_schema(data_root: Path, vocab_data: dict) -> Path | None:
    """Write ``data_root/schema/games/<game>.module.schema.json`` when its content changed (atomically,
    so an editor never reads half a schema). Returns the path when it was written."""
    import os
    import tempfile

    from .outputs import check_output

    path = game_schema_path(data_root, vocab_data["game"])
    # the data folder is a stranger's: its schema/ may be a link out of it (OutputRefused, an OSError)
    check_output(path.parent, data_root)
    text = game_schema_text(vocab_data)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def write_game_schemas(data_root: Path) -> list[Path]:
    """Rewrite the per-game schema of every readable game under ``data_root``; the files written."""
    written = []
    for game_dir in discover_games(data_root):
        gdoc = load_file(game_dir / GAME_FILE, Diagnostics())
        if gdoc is not None and isinstance(gdoc.data, dict) and gdoc.data.get("game") == game_dir.name:
            p = write_game_schema(data_root, gdoc.data)
            if p is not None:
                written.append(p)
    return written


def export(data_root: Path, out_dir: Path, only: str | None = None,
           diags: Diagnostics | None = None) -> list[Path]:
    """Write the schemas and a VS Code settings example into ``out_dir``; return the files written."""
    diags = diags if diags is not None else Diagnostics()
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []

    def write(name: str, text: str) -> None:
        p = out_dir / name
        p.write_text(text, encoding="utf-8", newline="\n")
        written.append(p)

    for src in sorted(SCHEMA_DIR.glob("*.schema.json")):
        write(src.name, _dump(load_schema(src.name[: -len(".schema.json")])))
    games = []
    for game_dir in discover_games(data_root) if data_root.is_dir() else []:
        if only and game_dir.name != only:
            continue
        gdoc = load_file(game_dir / GAME_FILE, diags)
        if gdoc is None or not isinstance(gdoc.data, dict) or gdoc.data.get("game") != game_dir.name:
            continue
        write(f"{game_dir.name}.module.schema.json", _dump(game_module_schema(gdoc.data)))
        games.append(game_dir.name)
    if only and only not in games:
        diags.error("E101", f"no readable game '{only}'", file=str(data_root / only / GAME_FILE))
    write("vscode-settings.json", json.dumps(vscode_settings(out_dir, data_root, games), indent=2) + "\n")
    return written


def vscode_settings(schema_dir: Path, data_root: Path, games: list[str]) -> dict:
    """``.vscode/settings.json`` content mapping schemas to data files (paths relative to the project)."""
    base = Path(".")

    def rel(p: Path) -> str:
        try:
            return "./" + p.resolve().relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return p.resolve().as_posix()

    data = rel(data_root) if data_root != base else "."
    data = data[2:] if data.startswith("./") else data
    mapping = {
        rel(schema_dir / "game.schema.json"): [f"{data}/*/game.yaml"],
        rel(schema_dir / "scenario.schema.json"): [f"{data}/*/scenarios/*.yaml"],
    }
    for g in games:
        mapping[rel(schema_dir / f"{g}.module.schema.json")] = [f"{data}/{g}/*.yaml"]
    return {"yaml.schemas": mapping, "yaml.validate": True, "yaml.completion": True, "yaml.hover": True}
