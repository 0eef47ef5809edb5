"""Issue 28 (players by position and choice, cards by name, printed wording, data): what the corpus
(tests/language/corpus/namesake.yaml) cannot show by one scenario each — menu labels against
`cardwright explain`, errors located in game.yaml for verb aliases and source forms, the safe matcher
of source forms against Python's own regular expressions, and "or" next to an icon list's "or"."""
from __future__ import annotations

import json
import random
import re
import shutil

import pytest
from click.testing import CliRunner

import cli
from compiler import ast as A
from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect, menu_labels
from compiler.parser import parse_effect
from compiler.sourceforms import MAX_SOURCE, FormError, compile_form, matches, source_ok
from runtime.agents import Agent
from runtime.context import MenuOption
from runtime.engine import engine_for, load_from_sources
from runtime.model import model_of
from tests.conftest import ROOT

NAMESAKE = ROOT / "tests" / "language" / "games"


@pytest.fixture(scope="module")
def namesake():
    result = compile_tree(NAMESAKE / "namesake")
    assert result.ok, [d.render() for d in result.diags.errors]
    return load_from_sources(result.outputs, "namesake")


# --- menu labels: what the runtime offers is what `cardwright explain` prints -------------------------


class _Recorder(Agent):
    """Picks the first option; keeps the labels of every menu it was offered."""

    def __init__(self):
        self.menus = []

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        if options and all(isinstance(o, MenuOption) for o in options):
            self.menus.append(tuple(o.label for o in options))
        return list(options[:k]) if low is None else list(options[:max(low, min(k, 1))])


MENU_TEXTS = [
    "choose one: gain 2 coin; or draw 1 card",
    "choose one: (the player to your left: gain 2 coin); or scrap 1 card from your hand",
    "choose two: gain 1 favour; or gain 2 war token; or (target opponent: discard 1 card from your hand)",
    "name a card as n; choose one: scrap all cards named n from your hand; or gain 1 coin per card named n in "
    "left neighbour's tableau",
]


@pytest.mark.parametrize("text", MENU_TEXTS)
def test_menu_labels_at_run_time_are_those_explain_prints(namesake, tmp_path, text):
    data = tmp_path / "data"
    shutil.copytree(NAMESAKE / "namesake", data / "namesake")
    res = CliRunner().invoke(cli.main, ["explain", text, "--game", "namesake", "--data", str(data), "--format", "json"])
    assert res.exit_code == 0, res.output
    printed = [tuple(m) for m in json.loads(res.output)["menus"]]
    text_out = CliRunner().invoke(cli.main, ["explain", text, "--game", "namesake", "--data", str(data)]).output
    assert [tuple(line[len("menu:      "):].split(" | ")) for line in text_out.splitlines()
            if line.startswith("menu:")] == printed
    ex = explain_effect(text, model_of(namesake.vocab))
    engine = engine_for(namesake)
    rec = _Recorder()
    game = engine.new_game(namesake, ["Ann", "Bob"], setup=False, agents={0: rec, 1: _Recorder()})
    for cid in ("well", "loom"):
        game.create(cid, game.zone_key("hand", 0), owner=0)
    engine.run(game, effect_function(ex), 0)
    assert rec.menus and rec.menus == printed[:len(rec.menus)]
    assert printed == menu_labels(ex.ir)
    assert all(label[0].isupper() and label.endswith(".") for m in printed for label in m)


# --- "or" between conditions keeps the "or" of icon lists and bounds --------------------------------------


def test_or_between_conditions_and_inside_an_icon_list():
    effect, problem = parse_effect("if a card with icon craft or trade in your hand or 1 favour: gain 1 coin")
    assert problem is None
    cond = effect.statements[0].condition
    assert isinstance(cond, A.Either) and len(cond.conditions) == 2
    icons = cond.conditions[0].selector.filters[0]
    assert [i.text for i in icons.icons] == ["craft", "trade"]
    effect, problem = parse_effect("if a card with cost 3 or more in your hand or 2 coin: gain 1 coin")
    assert problem is None and isinstance(effect.statements[0].condition, A.Either)
    bound = effect.statements[0].condition.conditions[0].selector.filters[0]
    assert bound.op == ">=" and bound.form == "or more"


# --- verb aliases: checked in game.yaml, located ----------------------------------------------------------


def _namesake_copy(tmp_path, edit_game=None, edit_cards=None):
    root = tmp_path / "data"
    shutil.copytree(NAMESAKE / "namesake", root / "namesake")
    for name, edit in (("game.yaml", edit_game), ("cards.yaml", edit_cards)):
        if edit is not None:
            p = root / "namesake" / name
            p.write_text(edit(p.read_text(encoding="utf-8")), encoding="utf-8")
    return compile_tree(root)


@pytest.mark.parametrize("alias, code, words", [("scrap: thrash", "E201", "unknown verb 'thrash'"),
                                                 ("draw: trash", "E202", "'draw' is a verb already")])
def test_a_verb_alias_names_a_verb_and_is_a_new_word(tmp_path, alias, code, words):
    result = _namesake_copy(tmp_path, edit_game=lambda s: s.replace("  scrap: trash", "  " + alias))
    errors = result.diags.errors
    assert [(d.code, d.line) for d in errors if words in d.message] == [(code, _line_of(tmp_path, "  " + alias))]


def _line_of(tmp_path, text) -> int:
    lines = (tmp_path / "data" / "namesake" / "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if line.startswith(text))


def test_an_aliased_verb_is_the_verb_and_reads_as_written(namesake):
    vocab = model_of(namesake.vocab)
    scrap, trash = (explain_effect(t, vocab) for t in ("scrap 1 card from your hand", "trash 1 card from your hand"))
    assert scrap.ir == trash.ir  # one meaning (cardwright diff sees no change)
    from compiler.english import render_effect
    assert render_effect(scrap.ir, vocab) == "Scrap 1 card from your Hand."
    assert render_effect(trash.ir, vocab) == "Trash 1 card from your Hand."


# --- a card's source: the forms a game declares, matched safely --------------------------------------------


@pytest.mark.parametrize("pattern, words", [
    ("namesake list [A-Z]{2}", "anchored at both ends"),
    ("^(ns|namesake) list$", "groups and '|'"),
    ("^a|b$", "groups and '|'"),
    ("^[a-z$", "never closed"),
    ("^[z-a]$", "runs backwards"),
    ("^a{1,500}$", "at most 100"),
    ("^a{3,1}$", "runs backwards"),
    ("^*a$", "nothing before it"),
    ("^\\qa$", "not part of a source form"),
    ("^" + "a" * 300 + "$", "at most 200 characters"),
])
def test_a_source_form_outside_the_safe_subset_is_refused(pattern, words):
    with pytest.raises(FormError, match=re.escape(words)):
        compile_form(pattern)


def test_the_safe_matcher_agrees_with_pythons_regular_expressions():
    """Random patterns of the subset, random texts: the same answers as re.fullmatch (patterns made
    here, by the test, so Python's re may read them)."""
    rng = random.Random(28)
    atoms = ["a", "b", "-", ".", "\\d", "[ab]", "[^a]", "[0-9x]", "\\w", "\\s", "\\."]
    quants = ["", "", "?", "*", "+", "{2}", "{1,3}", "{0,}", "{2,}"]
    checked = agreed = 0
    for _ in range(400):
        body = "".join(rng.choice(atoms) + rng.choice(quants) for _ in range(rng.randint(1, 5)))
        form = compile_form(f"^{body}$")
        for _ in range(12):
            text = "".join(rng.choice("ab-1 x.") for _ in range(rng.randint(0, 8)))
            want = re.fullmatch(body, text) is not None
            assert matches(form, text) == want, (body, text)
            checked += 1
            agreed += want
    assert checked == 4800 and agreed > 200  # the comparison saw matches (293 here), not only refusals


def test_a_pattern_that_would_backtrack_is_matched_in_one_pass():
    """"^(a*)*b$" cannot be written; its nearest form, many a* in a row, is matched by the set of
    states (at most one per atom here), not by backtracking through every split of the text."""
    form = compile_form("^" + "a*" * 30 + "b$")
    assert matches(form, "a" * 150 + "b") and not matches(form, "a" * 150)
    assert not matches(compile_form("^a*$"), "a" * (MAX_SOURCE + 1))  # past the bounded length: refused
    assert source_ok("example", ()) and source_ok("rulebook 000_3e37b2ec99b6decd.txt", ())
    assert not source_ok("namesake list NS-001", ())


def test_a_card_source_not_of_a_declared_form_is_a_located_error(tmp_path):
    result = _namesake_copy(tmp_path, edit_cards=lambda s: s.replace("namesake list NS-006", "namesake list ns-6"))
    [d] = [d for d in result.diags.errors]
    lines = (tmp_path / "data" / "namesake" / "cards.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i + 1 for i, text in enumerate(lines) if "ns-6" in text)
    assert (d.code, d.line, d.column, d.card) == ("E401", line, lines[line - 1].index("namesake list") + 1, "well")
    assert "'namesake list ns-6' is not 'example', or 'rulebook ' and a rulebook's file name" in d.message
    assert "or one of the game's source_forms" in d.message


def test_a_bad_source_form_is_a_located_error_in_game_yaml(tmp_path):
    result = _namesake_copy(tmp_path, edit_game=lambda s: s.replace("'^namesake list", "'^(namesake|ns) list"))
    [d] = [d for d in result.diags.errors]
    assert d.code == "E401" and d.line == _line_of(tmp_path, "  - pattern:") and "groups and '|'" in d.message


def test_a_declared_source_form_is_accepted(namesake):
    assert namesake.cards["well"]["source"] == "namesake list NS-006"


# --- the editor: an alias completes and leads to its verb; a source is checked as the build does ---------


def test_the_language_server_knows_a_games_verb_aliases_and_source_forms():
    from compiler.lsp import complete, navigate
    from compiler.lsp.checking import GameContext

    game_dir = NAMESAKE / "namesake"
    ctx = GameContext(game_dir, (game_dir / "game.yaml").read_text(encoding="utf-8"))
    assert ctx.verbs["scrap"] is ctx.verbs["trash"]
    _, items = complete.effect_completions("scr", 3, ctx.vocab, ctx.verbs)
    assert "scrap" in [i.label for i in items]
    place = navigate.verb_source(ctx, "scrap 1 card from your hand", 2)
    line = place.path.read_text(encoding="utf-8").splitlines()[place.line]
    assert line[place.col:place.end] == "trash"
    assert ctx.source_forms and len(ctx.source_forms) == 1


def test_the_language_server_checks_a_cards_source_as_the_build_does(tmp_path):
    from compiler.lsp.checking import GameContext, ModuleChecker

    game_dir = tmp_path / "namesake"
    shutil.copytree(NAMESAKE / "namesake", game_dir)
    ctx = GameContext(game_dir, (game_dir / "game.yaml").read_text(encoding="utf-8"))
    path = game_dir / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert not ModuleChecker(path).check(text, ctx, {}).diagnostics
    got = ModuleChecker(path).check(text.replace("namesake list NS-006", "namesake list ns-6"), ctx, {})
    assert [(d.code, d.card) for d in got.diagnostics] == [("E401", "well")]


def test_cardwright_verbs_names_a_games_aliases(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(NAMESAKE / "namesake", data / "namesake")
    res = CliRunner().invoke(cli.main, ["verbs", "--game", "namesake", "--data", str(data), "--format", "json"])
    assert res.exit_code == 0, res.output
    by_name = {v["name"]: v for v in json.loads(res.output)["verbs"]}
    assert by_name["trash"]["aliases"] == ["scrap"] and by_name["draw"]["aliases"] == []
    text = CliRunner().invoke(cli.main, ["verbs", "--game", "namesake", "--data", str(data)]).output
    assert "also written (game.yaml verb_aliases): scrap" in text
