"""Issue 26, item 5: the editor and the command line agree.

- A scenario file gets ``validate``'s diagnostics (its names: Goods, cards, zones, steps, players),
  from the same function (tests/test_lsp_checking.py holds every file of the test games to that).
- game.yaml's flow texts complete, hover and go to definition like a card's effect text.
- Completion offers only words a designer wrote or the language has, once each.
- A file whose game.yaml is gone says so instead of losing its diagnostics in silence.
"""
from __future__ import annotations

import collections
import shutil
from pathlib import Path

import pytest
from pygls.uris import from_fs_path, to_fs_path

from compiler.build import compile_tree
from compiler.lsp.complete import effect_completions
from compiler.lsp.project import Project
from compiler.resources import BUNDLED_DATA
from runtime.verbs import verbs_for

from .lsp_client import Session

HERE = Path(__file__).resolve().parent
FLOW = HERE / "fixtures" / "flow"


def _line(text: str, needle: str) -> tuple[int, int]:
    for i, ln in enumerate(text.split("\n")):
        if needle in ln:
            return i, ln.index(needle) + len(needle)
    raise AssertionError(needle)


# --- scenarios: validate's checks -------------------------------------------------------------------

@pytest.mark.parametrize("old, new, message", [
    ("goods: {gun: 1, worker: 2}", "goods: {gnu: 1, worker: 2}", "unknown good 'gnu'"),
    ("zones: {state: [barracks, oil_rig]}", "zones: {state: [barracks, oil_rigg]}", "unknown card 'oil_rigg'"),
    ("{card: barracks, slot: action, player: Ann}\n", "{card: barracks, slot: action, player: Anne}\n",
     "unknown player 'Anne'"),
    ("{effect: \"draw 2 cards\", player: Ann}", "{efect: \"draw 2 cards\", player: Ann}", "unknown step key 'efect'"),
])
def test_a_scenarios_names_are_checked_in_the_editor_as_validate_checks_them(old, new, message, tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(HERE / "fixtures" / "mini", tmp_path / "data")
    path = Path("data/mini/scenarios/barracks.yaml")
    text = path.read_text(encoding="utf-8")
    assert old in text
    project = Project()
    assert [d for d in project.check(path).diagnostics if d.severity == "error"] == []
    project.set_text(path, text.replace(old, new, 1))  # an unsaved buffer, as the editor sends it
    got = [(d.code, d.message) for d in project.check(path).diagnostics if d.severity == "error"]
    assert got == [("E201", message)]
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    want = [(d.code, d.message) for d in compile_tree(Path("data"), scenarios=True).diags.errors]
    assert want == got


# --- completion offers real words, once each --------------------------------------------------------

@pytest.mark.parametrize("before", ["gain 1 ", "raze 1 of your ", "draw 1 card from ", "for each ",
                                    "spend 1 fuel: gain 1 ", "choose 1 of your locations as t; raze "])
def test_completion_offers_only_written_words_once(before):
    result = compile_tree(BUNDLED_DATA, only={"fifty_first_state"}, emit=False)
    vocab = result.games["fifty_first_state"].vocab
    _, items = effect_completions(before, len(before), vocab, verbs_for(vocab.engine))
    labels = [it.label for it in items]
    assert labels and not [w for w, n in collections.Counter(labels).items() if n > 1]
    for non_word in ("deployeds", "states", "fuels", "vps", "hands", "decks"):
        assert non_word not in labels, (before, non_word)


def test_a_derived_plural_is_still_accepted_though_not_offered():
    from compiler.explain import explain_effect

    result = compile_tree(BUNDLED_DATA, only={"fifty_first_state"}, emit=False)
    ex = explain_effect("gain 2 fuels", result.games["fifty_first_state"].vocab)
    assert not ex.diags.errors


# --- game.yaml's flow texts in the editor -----------------------------------------------------------

@pytest.fixture(scope="module")
def flow_game(tmp_path_factory):
    root = tmp_path_factory.mktemp("lspflow")
    shutil.copytree(FLOW, root / "data")
    return root


@pytest.fixture(scope="module")
def session(flow_game):
    s = Session(flow_game)
    yield s
    s.close()


def test_flow_texts_complete_in_game_yaml(session, flow_game):
    path = flow_game / "data" / "deckbuild" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    uri = session.open(path)
    typed = text.replace("- effect: gain 1 action; gain 1 buy", "- effect: gain 1 action; gain 1 ")
    session.change(uri, typed)
    line, col = _line(typed, "- effect: gain 1 action; gain 1 ")
    labels = [i.label for i in session.completion(uri, line, col)]
    assert "buy" in labels and "coin" in labels and "draw" not in labels, labels
    # a statement's start in a final-scoring text: the verbs
    typed = text.replace("put all cards from your hand into your discard pile;\n          put all cards from your deck",
                         "put all cards from your hand into your discard pile;\n          pu")
    session.change(uri, typed)
    line, col = _line(typed, "          pu")
    assert "put" in [i.label for i in session.completion(uri, line, col)]
    session.change(uri, text)


def test_flow_texts_hover_and_go_to_definition(session, flow_game):
    path = flow_game / "data" / "deckbuild" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    uri = session.open(path)
    session.change(uri, text)
    line, col = _line(text, "- effect: gain 1 action; gain 1 bu")
    shown = session.hover(uri, line, col)
    assert shown is not None and "**buy**" in shown and "Good" in shown, shown
    loc = session.definition(uri, line, col)
    want_line = next(i for i, ln in enumerate(text.split("\n")) if ln.startswith("  buy:"))
    assert Path(to_fs_path(loc.uri)).resolve() == path.resolve() and loc.range.start.line == want_line
    line, col = _line(text, "points: number of v")  # a quantity (score.points)
    assert "**vp**" in (session.hover(uri, line, col) or "")


def test_a_module_whose_game_yaml_is_gone_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(HERE / "fixtures" / "mini", tmp_path / "data")
    project = Project()
    module = Path("data/mini/base.yaml")
    assert [d for d in project.check(module).diagnostics if d.severity == "error"] == []
    (tmp_path / "data" / "mini" / "game.yaml").unlink()
    found = project.check(module).diagnostics
    assert [(d.severity, d.line) for d in found] == [("warning", 1)]
    assert "no game.yaml in data/mini" in found[0].message
    scen = project.check(Path("data/mini/scenarios/barracks.yaml")).diagnostics
    assert [d.severity for d in scen] == ["warning"] and "no game.yaml" in scen[0].message
    # a YAML file of a folder that never was a game's gets nothing
    other = tmp_path / "notes.yaml"
    other.write_text("a: 1\n", encoding="utf-8")
    assert project.check(other).diagnostics == []


def test_the_server_republishes_when_game_yaml_is_deleted(tmp_path):
    shutil.copytree(HERE / "fixtures" / "mini", tmp_path / "data")
    s = Session(tmp_path)
    try:
        uri = s.open(tmp_path / "data" / "mini" / "base.yaml")
        assert s.diagnostics[uri] == []
        (tmp_path / "data" / "mini" / "game.yaml").unlink()
        from lsprotocol import types

        seen = s.published.get(uri, 0)
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[types.FileEvent(
            uri=from_fs_path(str(tmp_path / "data" / "mini" / "game.yaml")), type=types.FileChangeType.Deleted)]))
        found = s.wait_for(uri, seen)
        assert len(found) == 1 and "no game.yaml" in found[0].message
    finally:
        s.close()
