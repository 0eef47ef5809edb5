"""Editor support: exported schemas are valid, accept the bundled data, reject mistakes; data files
carry the YAML language server's `$schema` comment; every enumeration is described."""
from __future__ import annotations

import json
import shutil
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cli import main
from compiler.build import GAME_FILE, discover_games, module_files
from compiler.diagnostics import Diagnostics
from compiler.loader import load_file
from compiler.resources import BUNDLED_DATA, SCHEMA_DIR
from compiler.schemaexport import export, game_module_schema, game_schema_path, game_schema_text, vscode_settings

GAMES = [p.name for p in discover_games(BUNDLED_DATA)]


def _load(path: Path):
    doc = load_file(path, Diagnostics())
    assert doc is not None
    return doc.data


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("schema")
    written = export(BUNDLED_DATA, out)
    return out, written


def test_export_writes_valid_schemas(exported):
    out, written = exported
    names = {p.name for p in written}
    assert {"game.schema.json", "module.schema.json", "scenario.schema.json", "vscode-settings.json"} <= names
    for g in GAMES:
        assert f"{g}.module.schema.json" in names
    for p in written:
        data = json.loads(p.read_text(encoding="utf-8"))
        if p.name.endswith(".schema.json"):
            Draft202012Validator.check_schema(data)
            assert data["$id"].startswith("https://cardwright.dev/schema/")


@pytest.mark.parametrize("game", GAMES)
def test_per_game_schema_accepts_the_bundled_modules_and_rejects_a_misspelt_field(game):
    vocab = _load(BUNDLED_DATA / game / GAME_FILE)
    validator = Draft202012Validator(game_module_schema(vocab))
    for path in module_files(BUNDLED_DATA / game):
        errors = [e.message for e in validator.iter_errors(_load(path))]
        assert errors == [], (path.name, errors[:3])
    kind = sorted(vocab["card_kinds"])[0]
    bad = {"cards": [{"id": "x", "kind": kind, "name": "X", "defence": 3}]}
    assert list(validator.iter_errors(bad))
    kinds = game_module_schema(vocab)["properties"]["cards"]["items"]["allOf"][1]["properties"]["kind"]
    assert len(kinds["enumDescriptions"]) == len(kinds["enum"])


def test_schema_command(runner, tmp_path, root):
    res = runner.invoke(main, ["schema", "--game", "mini", "--data", str(root / "tests" / "fixtures" / "mini"),
                               "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    schema = json.loads((tmp_path / "mini.module.schema.json").read_text(encoding="utf-8"))
    icons = schema["properties"]["cards"]["items"]["allOf"][1]["allOf"][0]["then"]["properties"]["icons"]
    assert icons["items"]["enumDescriptions"] == ["Green", "Red", "Worker figure"]
    fresh = tmp_path / "fresh"
    res = runner.invoke(main, ["schema", "--game", "mimi", "--data", str(root / "tests" / "fixtures" / "mini"),
                               "--out", str(fresh)])
    assert res.exit_code == 2 and "no game 'mimi'" in res.output and "did you mean 'mini'?" in res.output
    assert not fresh.exists()  # nothing half-written before the game was found unknown


def test_vscode_settings_example_is_current(root, monkeypatch):
    monkeypatch.chdir(root)
    want = vscode_settings(Path("build/schema"), Path("data"), GAMES)
    have = json.loads((root / "docs" / "editor" / "vscode-settings.json").read_text(encoding="utf-8"))
    assert have == want, "regenerate: cardwright schema --out build/schema; copy its vscode-settings.json"


def _data_files():
    out = []
    for game_dir in discover_games(BUNDLED_DATA):
        out += sorted(game_dir.glob("*.yaml")) + sorted((game_dir / "scenarios").glob("*.yaml"))
    return out


@pytest.mark.parametrize("path", _data_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_data_file_names_its_schema_for_the_yaml_language_server(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    m = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
    assert m, f"{path}: first line must be '# yaml-language-server: $schema=<relative path to the schema>'"
    target = (path.parent / m.group(1)).resolve()
    kind = "game" if path.name == GAME_FILE else "scenario" if path.parent.name == "scenarios" else "module"
    if kind == "module":  # its game's own schema: cards checked against the game's kinds, out of the box
        assert target == game_schema_path(SCHEMA_DIR.parent, path.parent.name).resolve()
        assert target.is_file()
        return
    assert target.is_file() and target.parent == SCHEMA_DIR.resolve()
    assert target.name == f"{kind}.schema.json"


@pytest.mark.parametrize("game", GAMES)
def test_bundled_per_game_schemas_are_current(game):
    gdoc = load_file(BUNDLED_DATA / game / GAME_FILE, Diagnostics())
    have = game_schema_path(BUNDLED_DATA, game).read_text(encoding="utf-8")
    assert have == game_schema_text(gdoc.data), (
        "regenerate: cardwright schema --in-data (or save the game.yaml with `cardwright lsp` running)")


def test_schema_in_data_refreshes_a_stale_per_game_schema(runner, tmp_path, root):
    data = tmp_path / "data"
    shutil.copytree(root / "tests" / "fixtures" / "mini", data)
    res = runner.invoke(main, ["schema", "--data", str(data), "--in-data"])
    assert res.exit_code == 0, res.output
    path = game_schema_path(data, "mini")
    assert "wrote" in res.output and path.is_file()
    gdoc = load_file(data / "mini" / GAME_FILE, Diagnostics())
    assert path.read_text(encoding="utf-8") == game_schema_text(gdoc.data)
    res = runner.invoke(main, ["schema", "--data", str(data), "--in-data"])  # current: nothing rewritten
    assert res.exit_code == 0 and "wrote" not in res.output
    assert runner.invoke(main, ["schema", "--data", str(data)]).exit_code == 2  # where to, then?


@pytest.mark.parametrize("game", GAMES)
def test_a_modules_modeline_schema_catches_a_misspelt_field_and_lists_the_kinds(game):
    """What the YAML language server does with the modeline's schema, done with jsonschema: a card's
    unknown field is an error and ``kind:`` has the game's kinds as its choices."""
    import jsonschema

    gdoc = load_file(BUNDLED_DATA / game / GAME_FILE, Diagnostics())
    schema = json.loads(game_schema_path(BUNDLED_DATA, game).read_text(encoding="utf-8"))
    module = next(p for p in sorted((BUNDLED_DATA / game).glob("*.yaml")) if p.name != GAME_FILE
                  and (load_file(p, Diagnostics()).data or {}).get("cards"))
    data = load_file(module, Diagnostics()).data
    validator = jsonschema.Draft202012Validator(schema)
    assert not list(validator.iter_errors(data))
    card = dict(data["cards"][0], defence=4)
    errors = list(validator.iter_errors({"cards": [card]}))
    assert errors and any("defence" in e.message for e in errors)
    kinds = [b["properties"]["kind"]["enum"] for b in schema["properties"]["cards"]["items"]["allOf"]
             if "enum" in b.get("properties", {}).get("kind", {})]
    assert len(kinds) == 1 and sorted(kinds[0]) == sorted(gdoc.data["card_kinds"])


def _enums(node, path=""):
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            yield path, node
        for k, v in node.items():
            yield from _enums(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _enums(v, f"{path}/{i}")


@pytest.mark.parametrize("schema", sorted(p.name for p in SCHEMA_DIR.glob("*.schema.json")))
def test_every_choice_in_the_generic_schemas_is_described(schema):
    data = json.loads((SCHEMA_DIR / schema).read_text(encoding="utf-8"))
    for where, node in _enums(data):
        if len(node["enum"]) > 1:
            assert len(node.get("enumDescriptions") or []) == len(node["enum"]), f"{schema}{where}"


def test_every_shipped_schema_is_a_valid_json_schema():
    """The build reads data/schema/ without checking it against the meta-schema (compiler/schema.py
    ``_validator``): this test is where that is proved, for every file shipped there."""
    from compiler.resources import SCHEMA_DIR

    shipped = sorted(SCHEMA_DIR.rglob("*.schema.json"))  # games/ too (exported, also shipped)
    assert len(shipped) >= 7
    for p in shipped:
        Draft202012Validator.check_schema(json.loads(p.read_text(encoding="utf-8")))
