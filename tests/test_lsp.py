"""`cardwright lsp` end to end: a real client (pygls's) over the stdio of the installed command.

One server process serves the tests of this file in order, on a copy of the mini fixture game.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from .lsp_client import Session

MINI = Path(__file__).resolve().parent / "fixtures" / "mini"

MODULE = """\
name: LSP test module
cards:
  - id: oil_rig
    kind: location
    name: Oil Rig
    production: gain 2 fule
  - id: barracks
    kind: location
    name: Barracks
    action: "spend 1 gun: gain 1 fule"
  - id: school
    kind: location
    name: School
    production: >
      gain 1 fuel;
      gain 1 wrker
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp")
    shutil.copytree(MINI, root / "data")
    module = root / "data" / "mini" / "base.yaml"
    module.write_text(MODULE, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def session(game):
    s = Session(game)
    yield s
    s.close()


def _line(text: str, needle: str) -> tuple[int, int]:
    for i, ln in enumerate(text.split("\n")):
        if needle in ln:
            return i, ln.index(needle)
    raise AssertionError(needle)


def _range(d: types.Diagnostic) -> tuple:
    return (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character)


def test_misspelt_goods_inside_effects_are_marked_on_the_word(session, game):
    uri = session.open(game / "data" / "mini" / "base.yaml")
    diags = sorted(session.diagnostics[uri], key=_range)
    assert [d.code for d in diags] == ["E201", "E201", "E201"], [d.message for d in diags]
    plain = _line(MODULE, "gain 2 fule")
    quoted = _line(MODULE, '"spend 1 gun: gain 1 fule"')
    folded = _line(MODULE, "gain 1 wrker")
    col_plain = plain[1] + len("gain 2 ")
    col_quoted = quoted[1] + len('"spend 1 gun: gain 1 ')
    col_folded = folded[1] + len("gain 1 ")
    assert [_range(d) for d in diags] == [
        (plain[0], col_plain, plain[0], col_plain + 4),
        (quoted[0], col_quoted, quoted[0], col_quoted + 4),
        (folded[0], col_folded, folded[0], col_folded + 5),
    ]
    assert diags[0].message == "unknown good 'fule' in card 'oil_rig' (did you mean 'fuel'?)"
    assert diags[0].source == "cardwright" and diags[0].severity == types.DiagnosticSeverity.Error
    assert "did you mean 'worker'?" in diags[2].message


def test_a_did_you_mean_is_a_code_action(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    diags = sorted(session.diagnostics[uri], key=_range)
    actions = session.code_actions(uri, [diags[0]])
    assert len(actions) == 1 and actions[0].title == "Change to 'fuel'"
    (edit,) = actions[0].edit.changes[uri]
    assert edit.new_text == "fuel" and edit.range == diags[0].range


def test_fixing_the_word_clears_its_diagnostic(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    line, col = _line(MODULE, "gain 2 fule")
    col += len("gain 2 ")
    diags = session.edit(uri, line, col, col + 4, "fuel")  # typed over, as an editor sends it
    assert len(diags) == 2 and all(d.range.start.line != line for d in diags)
    text = MODULE.replace("gain 2 fule", "gain 2 fuel").replace("gain 1 fule", "gain 1 fuel") \
        .replace("wrker", "worker")
    assert session.change(uri, text) == []


def test_completion_after_an_amount_offers_the_games_goods(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("production: gain 2 fule", "production: gain 2 ")
    session.change(uri, text)
    line, col = _line(text, "production: gain 2 ")
    col += len("production: gain 2 ")
    labels = [i.label for i in session.completion(uri, line, col)]
    for good in ("fuel", "gun", "worker", "vp"):
        assert good in labels, labels
    assert "draw" not in labels and "hand" not in labels  # neither a verb nor a zone is gained
    assert "your" in labels  # a keyword the grammar accepts there
    items = session.completion(uri, line, col - 1)  # on "2 ": nothing breaks mid-word either
    assert isinstance(items, list)


def test_completion_at_a_statement_start_offers_verbs(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("production: gain 2 fule", "production: gain 2 fuel; dr")
    session.change(uri, text)
    line, col = _line(text, "gain 2 fuel; dr")
    labels = [i.label for i in session.completion(uri, line, col + len("gain 2 fuel; dr"))]
    assert "draw" in labels and "gain" not in labels  # filtered by the word being typed


def test_completion_of_a_cards_keys_and_kinds(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("    name: Oil Rig\n", "    name: Oil Rig\n    ro\n")
    session.change(uri, text)
    line, _ = _line(text, "    ro")
    labels = [i.label for i in session.completion(uri, line, 6)]
    assert "row" in labels and "name" not in labels  # 'name' is already there
    text = MODULE.replace("    kind: location\n    name: Oil Rig", "    kind: lo\n    name: Oil Rig")
    session.change(uri, text)
    line, col = _line(text, "kind: lo")
    assert [i.label for i in session.completion(uri, line, col + len("kind: lo"))] == ["location"]


def test_hover_on_an_effect_shows_its_english_and_python(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("gain 2 fule", "gain 2 fuel")
    session.change(uri, text)
    line, col = _line(text, "gain 2 fuel")
    shown = session.hover(uri, line, col + 1)  # on the verb
    assert "**English:** Gain 2 Fuel." in shown
    assert "ctx.call('gain'" in shown and "**gain** — verb" in shown
    shown = session.hover(uri, line, col + len("gain 2 f"))  # on the Good
    assert "**fuel** — Good" in shown and "Fuel" in shown and "declared in game.yaml, line" in shown


def test_definition_of_a_good_goes_into_game_yaml(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("gain 2 fule", "gain 2 fuel")
    session.change(uri, text)
    line, col = _line(text, "gain 2 fuel")
    loc = session.definition(uri, line, col + len("gain 2 fu"))
    game_yaml = (game / "data" / "mini" / "game.yaml").read_text(encoding="utf-8")
    want_line, want_col = _line(game_yaml, "  fuel:")
    assert Path(to_fs_path(loc.uri)).resolve() == (game / "data" / "mini" / "game.yaml").resolve()
    assert (loc.range.start.line, loc.range.start.character) == (want_line, want_col + 2)
    line, col = _line(text, "kind: location")
    loc = session.definition(uri, line, col + len("kind: loc"))
    assert loc.range.start.line == _line(game_yaml, "  location:\n" if False else "card_kinds:")[0] + 1


def test_references_of_a_card_id(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("gain 2 fule", "gain 2 fuel").replace(
        '"spend 1 gun: gain 1 fule"', '"discard 1 card other than oil_rig"')
    session.change(uri, text)
    line, col = _line(text, "id: oil_rig")
    refs = session.references(uri, line, col + len("id: oi"))
    lines = sorted(r.range.start.line for r in refs if r.uri == uri)
    assert lines == [line, _line(text, "other than oil_rig")[0]]


def test_a_change_to_game_yaml_rechecks_the_games_open_modules(session, game):
    module_uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    text = MODULE.replace("gain 2 fule", "gain 2 fuel").replace("gain 1 fule", "gain 1 fuel") \
        .replace("wrker", "worker")
    assert session.change(module_uri, text) == []
    game_yaml = game / "data" / "mini" / "game.yaml"
    original = game_yaml.read_text(encoding="utf-8")
    seen = session.published.get(module_uri, 0)
    game_uri = session.open(game_yaml)
    session.wait_for(module_uri, seen)  # opening game.yaml re-checks the module too
    seen = session.published.get(module_uri, 0)
    without_fuel = original.replace("  fuel: {name: Fuel}\n", "").replace("good: fuel", "good: gun")
    session.change(game_uri, without_fuel)
    diags = session.wait_for(module_uri, seen)
    assert any("unknown name 'fuel'" in d.message for d in diags), [d.message for d in diags]
    seen = session.published.get(module_uri, 0)
    session.change(game_uri, original)
    assert session.wait_for(module_uri, seen) == []


def test_saving_game_yaml_keeps_the_per_game_schema_current(session, game):
    """The modules' modelines name data/schema/games/<game>.module.schema.json; after game.yaml is
    saved with a new card kind, that schema knows the kind (what the YAML language server reads)."""
    import json

    from compiler.diagnostics import Diagnostics
    from compiler.loader import load_file
    from compiler.schemaexport import game_schema_path, write_game_schema

    data = game / "data"
    game_yaml = data / "mini" / "game.yaml"
    original = game_yaml.read_text(encoding="utf-8")
    write_game_schema(data, load_file(game_yaml, Diagnostics()).data)
    schema_file = game_schema_path(data, "mini")
    assert "gadget" not in schema_file.read_text(encoding="utf-8")
    uri = session.open(game_yaml)
    grown = original.replace("card_kinds:\n", "card_kinds:\n  gadget:\n    slots:\n      effect: {name: Effect}\n")
    game_yaml.write_text(grown, encoding="utf-8")  # what the editor does on save
    session.change(uri, grown)
    assert "gadget" not in schema_file.read_text(encoding="utf-8")  # not on every keystroke
    assert session.save(uri) == []
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    assert "gadget" in json.dumps(schema["properties"]["cards"]), session.logs
    game_yaml.write_text(original, encoding="utf-8")
    session.change(uri, original)
    session.save(uri)
    assert "gadget" not in schema_file.read_text(encoding="utf-8")


NASTY = [
    "",
    "cards: [\n  - {",
    "cards:\n  - id: a\n    production: spend 1 gun: gain 1 vp\n",  # ': ' unquoted
    "\x00\x01binary",
    "[" * 300,
    "cards:\n  - id: x\n    kind: location\n    name: X\n    production: " + "(" * 50 + "\n",
    "cards: 7\n",
    "a: &x 1\nb: *x\n",
    "cards:\n  - - - - []\n",
    "cards:\n  - {id: x, name: \"\U0001F600\", kind: location, production: gain 1 fule}\n",
]


def test_a_malformed_file_never_ends_the_server(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    for text in NASTY:
        diags = session.change(uri, text)
        assert session.alive(), text
        if text.strip():
            assert diags, repr(text)  # each is said to be wrong, somewhere
        session.completion(uri, 0, 0)
        session.hover(uri, 0, 1)
        session.definition(uri, 1, 4)
        assert session.alive(), text
    emoji = NASTY[-1]
    diags = session.change(uri, emoji)
    line, col = _line(emoji, "fule")
    fule = [d for d in diags if "fule" in d.message]
    assert fule and fule[0].range.start == types.Position(line, col + 1)  # the emoji is 2 UTF-16 units
    assert session.change(uri, MODULE) and session.alive()


CLEAN = MODULE.replace("gain 2 fule", "gain 2 fuel").replace("gain 1 fule", "gain 1 fuel").replace("wrker", "worker")


def test_a_module_changed_on_disk_rechecks_the_open_ones(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    assert session.change(uri, CLEAN) == []
    earlier = game / "data" / "mini" / "aaa.yaml"  # built before base.yaml: its ids come first
    earlier.write_text("name: Earlier\ncards:\n  - id: oil_rig\n    kind: location\n    name: Oil Rig\n",
                       encoding="utf-8")
    try:
        seen = session.published.get(uri, 0)
        session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=from_fs_path(str(earlier)), type=types.FileChangeType.Created)]))
        diags = session.wait_for(uri, seen)
        assert [d.code for d in diags] == ["E202"], [d.message for d in diags]
        assert "card id 'oil_rig' is already used at" in diags[0].message and "aaa.yaml:3" in diags[0].message
    finally:
        earlier.unlink()
    seen = session.published.get(uri, 0)
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=from_fs_path(str(earlier)), type=types.FileChangeType.Deleted)]))
    assert session.wait_for(uri, seen) == []


def test_hover_on_a_card_id(session, game):
    uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    session.change(uri, CLEAN)
    line, col = _line(CLEAN, "id: barracks")
    shown = session.hover(uri, line, col + len("id: ba"))
    assert shown.startswith("**barracks** — card: Barracks") and "kind `location`" in shown


def test_a_scenarios_card_ids_hover_and_go_to_their_cards(session, game):
    module_uri = from_fs_path(str(game / "data" / "mini" / "base.yaml"))
    session.change(module_uri, CLEAN)
    scenario = game / "data" / "mini" / "scenarios" / "barracks.yaml"
    text = scenario.read_text(encoding="utf-8")
    uri = session.open(scenario)
    assert session.hover(uri, 0, len("scenario: ba")) is None  # the scenario's own name, not the card
    assert session.definition(uri, 0, len("scenario: ba")) is None
    for needle in ("{card: barracks", "[barracks"):
        line, col = _line(text, needle)
        col += len(needle) - 2
        shown = session.hover(uri, line, col)
        assert shown is not None and shown.startswith("**barracks** — card"), needle
        loc = session.definition(uri, line, col)
        assert loc.uri == module_uri and loc.range.start.line == _line(CLEAN, "id: barracks")[0]
