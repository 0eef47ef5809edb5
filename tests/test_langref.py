"""The generated language reference: current, complete, and every example in it compiles."""
from __future__ import annotations

import json
import re

from cli import main
from compiler import langref
from runtime.verbs import REGISTRY, verbs_for


def test_language_md_is_current(root):
    ref = langref.render_language_reference()
    assert ref.problems == []
    current = (root / "docs" / "language.md").read_text(encoding="utf-8")
    assert current == ref.text, "docs/language.md is stale: run `python cli.py docs`"


def test_docs_check_command(runner, tmp_path):
    out = tmp_path / "language.md"
    stale = runner.invoke(main, ["docs", "--check", "--out", str(out)])
    assert stale.exit_code == 1 and "stale" in stale.output
    wrote = runner.invoke(main, ["docs", "--out", str(out)])
    assert wrote.exit_code == 0, wrote.output
    ok = runner.invoke(main, ["docs", "--check", "--out", str(out)])
    assert ok.exit_code == 0, ok.output
    out.write_text(out.read_text(encoding="utf-8").replace("## Verbs", "## Verbz"), encoding="utf-8")
    assert runner.invoke(main, ["docs", "--check", "--out", str(out)]).exit_code == 1


def test_every_verb_of_every_engine_is_documented(root):
    verbs_for("core")
    text = (root / "docs" / "language.md").read_text(encoding="utf-8")
    for engine, verbs in REGISTRY.items():
        title = "### Core verbs (every game)" if engine == "core" else f"### Engine `{engine}`"
        assert title in text
        section = text.split(title, 1)[1].split("\n### ", 1)[0]
        for name in verbs:
            assert f"#### `{name}`" in section, f"verb {name} of {engine} missing"


def test_every_grammar_rule_is_documented():
    documented = set().union(*(c.rules for c in langref.CONSTRUCTS))
    assert langref.grammar_rules() <= documented
    # the coverage check can fail: a rule nobody documents is reported
    assert "requires" in langref.grammar_rules()


def test_undocumented_rule_and_broken_example_are_problems(monkeypatch):
    broken = langref.Construct("Statements", "Broken", "x", "x", (("gain 2 fule", "mini"),), ("start",))
    monkeypatch.setattr(langref, "CONSTRUCTS", (broken,))
    problems = langref.render_language_reference().problems
    assert any("gain 2 fule" in p and "E201" in p for p in problems)
    assert any("grammar rule 'requires' is not documented" in p for p in problems)


def test_verb_usage_line():
    verbs = verbs_for("core")
    assert langref.usage(verbs["give"]) == "give CARD|THING [from ZONE] to PLAYER"
    assert langref.usage(verbs["spend"]) == "spend GOOD[, GOOD…]"


def test_verbs_command_text_and_json(runner, root):
    mini = str(root / "tests" / "fixtures" / "mini")
    res = runner.invoke(main, ["verbs", "--game", "mini", "--data", mini])
    assert res.exit_code == 0, res.output
    assert "verbs for mini (engine core)" in res.output
    assert "give CARD|THING [from ZONE] to PLAYER" in res.output
    assert "example: gain 2 fuel" in res.output
    res = runner.invoke(main, ["verbs", "--game", "mini", "--data", mini, "--format", "json"])
    payload = json.loads(res.output)
    names = [v["name"] for v in payload["verbs"]]
    assert names == sorted(verbs_for("core"))
    gain = next(v for v in payload["verbs"] if v["name"] == "gain")
    assert {k: gain["object"][k] for k in ("categories", "required", "many")} == \
        {"categories": ["good", "card", "thing"], "required": True, "many": True}
    assert gain["object"]["honours"]["good"]["filters"] == ["matching"]
    assert "instead of" not in gain["phrases"]  # the core gain never honoured it (issue 17)


def test_verbs_command_unknown_game(runner, root):
    res = runner.invoke(main, ["verbs", "--game", "nope", "--data", str(root / "tests" / "fixtures" / "mini")])
    assert res.exit_code == 2
    assert "error: no game 'nope' under " in res.output and "games: mini" in res.output


def test_every_engine_verb_example_compiles_on_its_engine():
    """A verb's example is checked against a game on that verb's engine (or any game for core)."""
    verbs_for("core")
    for engine, verbs in REGISTRY.items():
        for name, v in verbs.items():
            game = langref.example_game_for(v)
            assert game is not None, f"{engine}.{name}: {v.example!r} compiles on no game"
            if engine != "core":
                assert langref.vocabulary_of(game).engine == engine


def test_language_md_examples_name_their_game(root):
    text = (root / "docs" / "language.md").read_text(encoding="utf-8")
    fences = re.findall(r"^```effect (.*)$", text, re.M)
    assert fences and all(f.startswith("game=") for f in fences)


def test_docs_outside_a_checkout_needs_out(runner, monkeypatch):
    import compiler.resources as resources

    monkeypatch.setattr(resources, "is_checkout", lambda: False)
    res = runner.invoke(main, ["docs"])
    assert res.exit_code == 2 and "pass --out FILE" in res.output
