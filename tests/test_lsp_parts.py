"""compiler/lsp's protocol-free parts on the bundled games: completion contexts inside effect text,
completion outside it, the cursor-to-offset mapping of quoted and folded scalars, names under the
cursor. (tests/test_lsp.py runs the same through a real client over stdio.)"""
from __future__ import annotations

from pathlib import Path

import pytest

from compiler.build import load_game
from compiler.diagnostics import Diagnostics
from compiler.loader import load_text
from compiler.lsp import complete, navigate
from compiler.lsp.locate import effect_at, offset_at, spot_at
from compiler.resources import BUNDLED_DATA
from runtime.verbs import verbs_for


@pytest.fixture(scope="module")
def fifty():
    _, vocab = load_game(BUNDLED_DATA / "fifty_first_state" / "game.yaml", Diagnostics())
    return vocab, verbs_for(vocab.engine)


def labels(text, vocab, verbs, **kw):
    start, items = complete.effect_completions(text, len(text), vocab, verbs, **kw)
    return start, [i.label for i in items]


def test_effect_completion_follows_the_grammar_and_the_verb(fifty):
    vocab, verbs = fifty
    _, got = labels("gain 2 ", vocab, verbs)
    assert {"fuel", "gun", "iron", "brick", "worker", "vp"} <= set(got) and "draw" not in got
    _, got = labels("", vocab, verbs)
    assert {"gain", "draw", "raze", "if", "choose", "requires"} <= set(got) and "fuel" not in got
    _, got = labels("raze 1 of your locations with icon ", vocab, verbs)
    assert set(got) == set(vocab.icons)  # only icon keys: what the checker takes there
    _, got = labels("draw 1 card from your ", vocab, verbs)
    assert "hand" in got and "fuel" not in got  # 'from' takes a zone
    _, got = labels("choose 1 of your locations as target; raze 1 location matching ", vocab, verbs)
    assert got == ["target"]
    _, got = labels("gain 2 fuel ", vocab, verbs)
    assert {"from", "to", "per", "with", "as"} <= set(got)  # keywords the grammar accepts there
    start, got = labels("gain 2 fu", vocab, verbs)
    assert start == len("gain 2 ") and "fuel" in got and all(g.startswith("fu") for g in got)
    _, got = labels("discard 1 card other than ", vocab, verbs, card_ids=["oil_rig", "mother"])
    assert got[:2] == ["oil_rig", "mother"]
    _, got = labels("gain 2 ) fuel ", vocab, verbs)  # does not parse: every name, nothing guessed
    assert "gain" in got and "fuel" in got


def test_completion_outside_effect_text(fifty):
    vocab, verbs = fifty
    card = {"id": "mother", "kind": "machine", "name": "Mother"}
    _, items = complete.yaml_completions("module", "    ", 4, card, 4, vocab, [])
    got = [i.label for i in items]
    assert "defense" in got and "assault" in got and "hacked" in got  # a field, a slot, a face
    assert "name" not in got and "kind" not in got  # already there
    _, items = complete.yaml_completions("module", "    de", 6, card, 4, vocab, [])
    assert [i.label for i in items] == ["defense"]
    _, items = complete.yaml_completions("module", "    kind: ma", 12, card, 4, vocab, [])
    assert [i.label for i in items] == ["machine"]
    _, items = complete.yaml_completions("scenario", "    hand: [oil_rig, ", 20, None, None, vocab, ["oil_rig", "x"])
    assert [i.label for i in items] == ["oil_rig", "x"]
    _, items = complete.yaml_completions("scenario", "  - {card: ", 11, None, None, vocab, ["oil_rig"])
    assert [i.label for i in items] == ["oil_rig"]


QUOTED = '''\
cards:
  - id: a
    kind: location
    name: A
    production: "gain 2 \\
      fule"
    action: >
      spend 1 gun:
      gain 1 fule
'''


def test_cursor_offsets_in_quoted_and_folded_scalars(fifty):
    vocab, _ = fifty
    doc = load_text(QUOTED, "m.yaml", Diagnostics(), Path("m.yaml"))
    lines = QUOTED.split("\n")
    line = 5
    col = lines[line].index("fule") + 2
    spot = spot_at(doc, line, col)
    assert spot.path == ("cards", 0, "production") and spot.value == "gain 2 fule"
    assert offset_at(doc, spot, line, col) == len("gain 2 fu")
    eff = effect_at(doc, vocab, line, col)
    assert eff.text == "gain 2 fule" and eff.offset == len("gain 2 fu")
    line = 8
    col = lines[line].index("fule")
    eff = effect_at(doc, vocab, line, col)
    assert eff.path == ("cards", 0, "action") and eff.text[eff.offset:] == "fule\n"
    # and back: the offset maps to the same place, as diagnostics are placed
    assert doc.where(eff.path, eff.offset)[:2] == (line + 1, col + 1)


def test_a_plain_scalars_trailing_space_is_still_its_text(fifty):
    vocab, _ = fifty
    text = "cards:\n  - id: a\n    kind: location\n    name: A\n    production: gain 2 \n"
    doc = load_text(text, "m.yaml", Diagnostics(), Path("m.yaml"))
    eff = effect_at(doc, vocab, 4, len("    production: gain 2 "))
    assert eff.text == "gain 2 " and eff.offset == len("gain 2 ")


def test_the_longest_name_under_the_cursor(fifty):
    vocab, _ = fifty
    found = navigate.name_at("raze 1 enemy production location", len("raze 1 enemy produ"), vocab)
    assert found.phrase == "production location" and found.entries
    assert navigate.replacement("did you mean 'fuel'?") == "fuel"
    assert navigate.replacement("write 'each opponent: …'") is None


def test_hover_summary_is_the_slots_own_compilation():
    from compiler.lsp.checking import GameContext

    game_dir = BUNDLED_DATA / "infernal_contraption"
    ctx = GameContext(game_dir, (game_dir / "game.yaml").read_text(encoding="utf-8"))
    shown = navigate.effect_summary(ctx, "1 card in your hand", "condition", True, frozenset())
    assert "**English:** You have at least 1 card in your" in shown
    assert "def slot(ctx" in shown and "LINE_MAP" not in shown and "Generated by" not in shown
    shown = navigate.effect_summary(ctx, "draw 2 crads", "effect", True, frozenset())
    assert shown.startswith("This effect has 1 error")


def test_lsp_without_pygls_says_how_to_install_it(runner, monkeypatch):
    import sys

    from cli import main

    monkeypatch.delitem(sys.modules, "compiler.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls", None)  # as if the lsp extra were not installed
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)
    res = runner.invoke(main, ["lsp"])
    assert res.exit_code == 2 and "pip install 'cardwright[lsp]'" in res.output


def test_completion_of_a_faces_keys(fifty):
    vocab, _ = fifty
    card = {"id": "mother", "kind": "machine", "name": "Mother", "hacked": {"distance": 1}}
    faces = {"hacked": (10, 6)}  # the face's keys start at column 6, on line 10
    _, items = complete.yaml_completions("module", "      ", 6, card, 4, vocab, [], faces)
    got = [i.label for i in items]
    spec = vocab.source["card_kinds"]["machine"]["faces"]["hacked"]  # game.yaml as written
    assert set(got) == (set(spec.get("slots") or {}) | set(spec.get("fields") or {})) - {"distance"}
    assert got and "name" not in got


def test_hover_on_a_bound_name():
    assert navigate.describe_bound("choose 1 of your locations as target; raze target", "target") == \
        "**target** — a name this effect binds: `choose 1 of your locations as target`"
    assert navigate.describe_bound("for each of your locations: gain 1 fuel", "it").startswith("**it**")
    assert navigate.describe_bound("gain 1 fuel", "fuel") is None


def test_definition_of_a_verb_is_its_runtime_function():
    from compiler.lsp.checking import GameContext

    game_dir = BUNDLED_DATA / "fifty_first_state"
    ctx = GameContext(game_dir, (game_dir / "game.yaml").read_text(encoding="utf-8"))
    place = navigate.verb_source(ctx, "spend 1 gun: raze 1 of your locations", len("spend 1 gun: ra"))
    line = place.path.read_text(encoding="utf-8").splitlines()[place.line]
    assert line[place.col:place.end] == ctx.verbs["raze"].fn.__name__ and line.lstrip().startswith("def ")
    assert navigate.verb_source(ctx, "gain 1 fuel", len("gain 1 fu")) is None  # a Good, not a verb
