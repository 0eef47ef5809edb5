"""The language server's diagnostics are `validate`'s: for every bundled file and every case of the
bad-input corpus, compiler/lsp's per-file check gives exactly what ``compile_tree`` reports for that
file; and after edits taken by the one-card path, exactly what a fresh full check of the same text
gives (so the incremental path can never drift from the full one)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.build import compile_tree, discover_games, module_files
from compiler.diagnostics import display_path
from compiler.lsp.checking import GameContext, ModuleChecker
from compiler.lsp.project import Project
from compiler.resources import BUNDLED_DATA
from compiler.scenario import scenario_files

from .test_bad_inputs import BAD, CASES, MINI, overlay


def _key(d):
    return (d.file or "", d.line or 0, d.column or 0, d.code, d.message, d.length, d.card, d.path, d.hint)


def _same_as_validate(data: Path) -> None:
    want: dict[str, list] = {}
    for d in compile_tree(data, scenarios=True).diags:  # as `cardwright validate` builds
        want.setdefault(d.file, []).append(d)
    project = Project()
    files = []
    for game_dir in discover_games(data):
        files += [game_dir / "game.yaml", *module_files(game_dir), *scenario_files(game_dir)]
    for path in files:
        got = [d for d in project.check(path).diagnostics if d.severity != "information"]
        assert sorted(map(_key, got)) == sorted(map(_key, want.pop(display_path(path), []))), path
    assert not want, f"validate reported more files: {sorted(want)}"


def test_bundled_games_check_as_validate_does(monkeypatch):
    monkeypatch.chdir(BUNDLED_DATA.parent)
    _same_as_validate(Path("data"))


HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("folder", ["language/games", "fixtures/hostile", "fixtures/truth", "fixtures/flow"])
def test_the_test_games_check_as_validate_does(folder, monkeypatch):
    monkeypatch.chdir(HERE)
    _same_as_validate(Path(folder))


@pytest.mark.parametrize("case", [c for c in CASES if (BAD / c / "mini").is_dir()])
def test_bad_input_checks_as_validate_does(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    overlay(case, tmp_path / "data")
    _same_as_validate(Path("data"))


@pytest.mark.parametrize("old, new", [
    ("gain 1 action; gain 1 buy", "gain 1 acton; gain 1 buy"),                  # a phase step's text: E201
    ("points: number of vp", "points: number of vp; draw 1 card"),            # a quantity with statements: E311
    ("  greedy: number of vp +", "  greedy: number of pv +"),                 # bots.greedy
    ("when: number of cards with icon victory in supply = 0", "when: number of cards ="),  # does not parse
    ("actions: [play_kingdom]", "actions: [play_kingdoms]"),                  # an action a phase names
    ("{create: {copper: 7, estate: 3}, into: deck}", "{create: {coppr: 7, estate: 3}, into: deck}"),  # a card
])
def test_game_yaml_flow_and_bots_texts_check_as_validate_does(old, new, tmp_path, monkeypatch):
    # the game file's own texts (flow, bots) are checked in the editor as the build checks them
    monkeypatch.chdir(tmp_path)
    shutil.copytree(HERE / "fixtures" / "flow", tmp_path / "data")
    gy = tmp_path / "data" / "deckbuild" / "game.yaml"
    text = gy.read_text(encoding="utf-8")
    assert old in text
    gy.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert any(d.file.endswith("game.yaml") for d in compile_tree(Path("data")).diags.errors)
    _same_as_validate(Path("data"))


MODULE = """\
# yaml-language-server: $schema=../schema/module.schema.json
name: Test module
cards:
  - id: oil_rig
    kind: location
    name: Oil Rig
    production: gain 1 fuel
  - id: barracks
    kind: location
    name: Barracks
    # a comment inside the card
    production: "gain 2 gun"
  - id: school
    kind: location
    name: School
    production: >
      gain 1
      fuel
rules:
  cleanup: draw 1 card
"""

EDITS = [  # (old, new): each applied to the text so far
    ("gain 1 fuel\n  - id: barracks", "gain 1 fule\n  - id: barracks"),  # a misspelt Good: one card re-read
    ("gain 1 fule", "gain 1 fuel"),
    ('"gain 2 gun"', '"gain 2 gum; draw 1 crad"'),
    ("    # a comment inside the card\n", ""),  # a line fewer: the cards after it move up
    ("    name: School\n", "    name: School\n    note: added\n    defence: 2\n"),  # two lines more
    ("  cleanup: draw 1 card", "  cleanup: draw 1 cart"),  # outside the cards: the full path
    ("id: school", "id: oil_rig"),  # a duplicate id made by an edit of one card
    ("id: oil_rig\n    kind: location\n    name: School", "id: school\n    kind: location\n    name: School"),
    ('production: "gain 2', 'production: "gain 2\n'),  # breaks the quoting of one card: the full path
    ('production: "gain 2\n', 'production: "gain 2'),
    ("  - id: school", "  - id: new_card\n    kind: location\n    name: New\n  - id: school"),  # a new card
]


def test_one_card_edits_give_what_a_full_check_gives(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    path = tmp_path / "data" / "mini" / "base.yaml"
    path.write_text(MODULE, encoding="utf-8")
    project = Project()
    ctx = project.context(path.parent)
    assert ctx.usable, [d.headline() for d in ctx.diags]
    live = ModuleChecker(path)
    text = MODULE
    first = live.check(text, ctx, {})
    assert first.mode == "full" and not first.diagnostics, [d.headline() for d in first.diagnostics]
    modes = []
    for old, new in EDITS:
        assert old in text, old
        text = text.replace(old, new, 1)
        got = live.check(text, ctx, {})
        modes.append(got.mode)
        fresh = ModuleChecker(path).check(text, GameContext(path.parent, ctx.text), {})
        assert [_key(d) for d in got.diagnostics] == [_key(d) for d in fresh.diagnostics], (old, new)
        if got.doc is not None:  # the stitched document places every value where a fresh load does
            assert dict(got.doc.positions) == dict(fresh.doc.positions), (old, new)
            assert dict(got.doc.key_positions) == dict(fresh.doc.key_positions), (old, new)
            assert got.doc.data == fresh.doc.data
    assert modes[:5] == ["card"] * 5 and modes[5] == "full", modes
    assert "card" in modes[6:8]
    codes = [d.code for d in live.check(text.replace("gain 1 fuel", "gain 1 fule"), ctx, {}).diagnostics]
    assert "E201" in codes


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.floats(0, 1),
                  st.sampled_from(list("abefgilnortu 12;:,\n-#'\"")))


@pytest.fixture(scope="module")
def bundled_module():
    path = BUNDLED_DATA / "fifty_first_state" / "moloch.yaml"
    return path, path.read_text(encoding="utf-8")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits=st.lists(_EDIT, min_size=1, max_size=6))
def test_random_keystrokes_check_as_a_fresh_full_check(bundled_module, edits):
    """Any sequence of one-character edits (inside a card or not, breaking the YAML or not) leaves
    the remembered module exactly where a fresh check of the same text is."""
    path, text = bundled_module
    ctx = _bundled_context(path.parent)
    live = ModuleChecker(path)
    live.check(text, ctx, {})
    for how, where, ch in edits:
        at = int(where * len(text))
        if how == "insert":
            text = text[:at] + ch + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + 1:]
        else:
            text = text[:at] + ch + text[at + 1:]
        got = live.check(text, ctx, {})
        fresh = ModuleChecker(path).check(text, ctx, {})
        assert [_key(d) for d in got.diagnostics] == [_key(d) for d in fresh.diagnostics]
        if got.doc is not None and fresh.doc is not None:
            assert dict(got.doc.positions) == dict(fresh.doc.positions)
            assert dict(got.doc.key_positions) == dict(fresh.doc.key_positions)
            assert got.doc.data == fresh.doc.data


_CONTEXTS: dict = {}


def _bundled_context(game_dir: Path) -> GameContext:
    if game_dir not in _CONTEXTS:
        _CONTEXTS[game_dir] = GameContext(game_dir, (game_dir / "game.yaml").read_text(encoding="utf-8"))
    return _CONTEXTS[game_dir]


def test_a_module_with_windows_line_ends_checks_as_validate_does(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    broken = MODULE.replace("gain 1 fuel\n  - id: barracks", "gain 1 fule\n  - id: barracks")
    (tmp_path / "data" / "mini" / "base.yaml").write_bytes(broken.replace("\n", "\r\n").encode("utf-8"))
    _same_as_validate(Path("data"))
    project = Project()
    path = tmp_path / "data" / "mini" / "base.yaml"
    assert [d.code for d in project.check(path).diagnostics] == ["E201"]


SMALL_MODULES = {
    "cards_null": "name: x\ncards:\n",
    "no_cards": "name: x\nrules:\n  cleanup: draw 1 crad\n",
    "empty_cards": "name: x\ncards: []\n",
    "flow_cards": "cards: [{id: a, kind: location, name: A, production: gain 1 fule}]\n",
    "dash_own_line": "cards:\n  -\n    id: a\n    kind: location\n    name: A\n    production: gain 1 fule\n",
    "unknown_top_key": "name: x\ncardz: []\ncards:\n  - {id: a, kind: locaton, name: A}\n",
    "card_is_text": "cards:\n  - just text\n  - id: b\n    kind: location\n    name: B\n",
}


@pytest.mark.parametrize("case", sorted(SMALL_MODULES))
def test_small_module_shapes_check_as_validate_does(case, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    (tmp_path / "data" / "mini" / "base.yaml").write_text(SMALL_MODULES[case], encoding="utf-8")
    _same_as_validate(Path("data"))
