"""Issue 26, item 1: one slip, one error. A module that fails to load (an unquoted colon, a tab, one
space too many) is reported once; the names its cards would have declared are not reported again
as unknown by the game's flow, by "other than <card>" in a later module, or by a scenario — in the
command line, in watch mode and in the language server alike (compiler/cardids.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.build import compile_tree
from compiler.lsp.project import Project
from compiler.scaffold import new_game
from compiler.watch import Watcher

IDS = [f"gear_{i:02d}" for i in range(16)]

MORE = "name: More cards\nsource: example\ncards:\n" + "".join(
    f"  - id: {cid}\n    kind: action\n    name: Gear {cid[-2:]}\n    source: example\n    cost: 1\n"
    f"    count: 1\n    effect: \"gain 1 coin\"\n" for cid in IDS)

LATER = """name: Later cards
source: example
cards:
  - id: zz_last
    kind: action
    name: Last
    source: example
    cost: 1
    count: 1
    effect: "discard 1 card other than gear_03 from your hand"
"""

# three ways a designer breaks the YAML of more.yaml's first card; each is one E103
SLIPS = {
    "unquoted colon": ('    effect: "gain 1 coin"\n', "    effect: spend 1 coin: gain 1 vp\n"),
    "tab": ("    cost: 1\n", "\tcost: 1\n"),
    "one space too many": ("    cost: 1\n", "     cost: 1\n"),
}


@pytest.fixture
def game(tmp_path) -> Path:
    data = tmp_path / "data"
    new_game("quick", data)
    gfile = data / "quick" / "game.yaml"
    text = gfile.read_text(encoding="utf-8")
    creates = ", ".join(f"{cid}: 1" for cid in IDS)
    text = text.replace("    - {create: all, into: deck}", "    - {create: all, into: deck}\n"
                        f"    - {{create: {{{creates}}}, into: deck}}")
    gfile.write_text(text, encoding="utf-8")
    (data / "quick" / "more.yaml").write_text(MORE, encoding="utf-8")
    (data / "quick" / "zlater.yaml").write_text(LATER, encoding="utf-8")
    scen = data / "quick" / "scenarios" / "first_card.yaml"  # a scenario that names one of more.yaml's cards
    scen.write_text(scen.read_text(encoding="utf-8").replace("zones: {deck: [first_card]}",
                                                             "zones: {deck: [first_card, gear_02]}"), encoding="utf-8")
    assert compile_tree(data, scenarios=True).ok, [d.render() for d in compile_tree(data, scenarios=True).diags]
    return data


def _break(data: Path, slip: str) -> None:
    old, new = SLIPS[slip]
    path = data / "quick" / "more.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_a_module_that_fails_to_load_gives_one_error_on_the_command_line(game, slip):
    _break(game, slip)
    errors = compile_tree(game, scenarios=True).diags.errors  # as `cardwright validate`
    assert [(d.code, Path(d.file).name) for d in errors] == [("E103", "more.yaml")], \
        [d.headline() for d in errors]


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_watch_reports_the_one_error_and_then_its_fix(game, slip):
    w = Watcher(game, None)
    w.poll()
    assert w.build().ok
    _break(game, slip)
    rep = w.build(w.poll())
    assert [d.code for d in rep.new] == ["E103"] and rep.errors == 1
    (game / "quick" / "more.yaml").write_text(MORE, encoding="utf-8")
    rep = w.build(w.poll())
    assert rep.ok and [d.code for d in rep.fixed] == ["E103"] and not rep.new


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_the_language_server_holds_back_the_same_diagnostics(game, slip, monkeypatch):
    monkeypatch.chdir(game.parent)
    _break(game, slip)
    project = Project()
    folder = Path("data/quick")
    found = {name: [d.code for d in project.check(folder / name).diagnostics if d.severity == "error"]
             for name in ("game.yaml", "base.yaml", "more.yaml", "zlater.yaml", "scenarios/first_card.yaml")}
    assert found == {"game.yaml": [], "base.yaml": [], "more.yaml": ["E103"], "zlater.yaml": [],
                     "scenarios/first_card.yaml": []}


def test_a_name_that_is_really_unknown_is_still_reported_once_the_file_loads(game, monkeypatch):
    """Holding back is not hiding: with every module read again, a misspelt id is an error."""
    monkeypatch.chdir(game.parent)
    gfile = game / "quick" / "game.yaml"
    gfile.write_text(gfile.read_text(encoding="utf-8").replace("gear_05: 1", "gear_5: 1"), encoding="utf-8")
    later = game / "quick" / "zlater.yaml"
    later.write_text(LATER.replace("other than gear_03", "other than gear_3"), encoding="utf-8")
    want = [("E201", "game.yaml", "unknown card 'gear_5' in the game's flow"),
            ("E201", "zlater.yaml", "unknown card 'gear_3'")]
    got = [(d.code, Path(d.file).name, d.message) for d in compile_tree(game, scenarios=True).diags.sorted()]
    assert got == want
    project = Project()
    lsp = [(d.code, Path(d.file).name, d.message) for name in ("game.yaml", "zlater.yaml")
           for d in project.check(Path("data/quick") / name).diagnostics if d.severity == "error"]
    assert lsp == want
    # ... and held back while more.yaml is broken
    _break(game, "tab")
    assert [d.code for d in compile_tree(game, scenarios=True).diags.errors] == ["E103"]
