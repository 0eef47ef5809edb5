"""Item 11: a corpus of bad inputs, each run through the real CLI.

Every case under ``tests/bad_inputs/<case>/`` is a set of files laid over a copy of the mini
fixture game (``tests/fixtures/mini``): the case's ``mini/base.yaml`` replaces the fixture's, and
so on. For each case, ``cardwright compile`` must

- exit with code 1, never with a Python traceback;
- report located diagnostics: file:line:column for every diagnostic, the expected stable code,
  and the card id where the problem sits inside a card;
- leave an existing ``generated/`` folder byte-for-byte untouched (no temp files left either);

and the rendered diagnostics are snapshotted (paths are relative to the temporary project, so stable).
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import cli
from runtime.refs import PHASE, THING, CARD
from runtime.verbs import REGISTRY, Signature, Slot, Verb

HERE = Path(__file__).resolve().parent
BAD = HERE / "bad_inputs"
MINI = HERE / "fixtures" / "mini"

# case -> (a code that must be reported, the card it must name or None)
EXPECT = {
    "alias_bomb": ("E105", None),
    "anchor_and_alias": ("E105", None),
    "bad_card_id": ("E401", "Oil-Rig"),
    "card_not_a_mapping": ("E401", None),
    "cards_not_a_list": ("E401", None),
    "comments_only": ("E106", None),
    "control_character": ("E103", None),
    "deep_nesting": ("E103", None),
    "duplicate_card_id": ("E202", "oil_rig"),
    "duplicate_key": ("E104", None),
    "effect_construct_not_yet": ("E301", "oil_rig"),
    "effect_ends_early": ("E301", "barracks"),
    "effect_if_without_colon": ("E301", "oil_rig"),
    "effect_nested_too_deep": ("E301", "oil_rig"),
    "effect_too_many_operators": ("E301", "oil_rig"),
    "empty_file": ("E106", None),
    "enum_near_miss": ("E401", "oil_rig"),
    "game_duplicate_good": ("E104", None),
    "game_file_empty": ("E106", None),
    "game_id_mismatch": ("E401", None),
    "game_missing_name": ("E401", None),
    "game_unknown_section": ("E401", None),
    "guard_after_action": ("E304", "oil_rig"),
    "injection_in_effect": ("E301", "oil_rig"),
    "malformed_yaml": ("E103", None),
    "missing_name": ("E401", "oil_rig"),
    "non_utf8": ("E102", None),
    "python_tag": ("E108", None),
    "several_errors": ("E302", "library"),
    "syntax_error": ("E301", "oil_rig"),
    "tab_indentation": ("E103", None),
    "two_documents": ("E103", None),
    "unexpected_character": ("E301", "oil_rig"),
    "unknown_card_kind": ("E401", "oil_rig"),
    "unknown_engine": ("E201", None),
    "unknown_field_in_module": ("E401", None),
    "unknown_field_near_miss": ("E401", "oil_rig"),
    "unknown_good_folded": ("E201", "oil_rig"),
    "unknown_good_near_miss": ("E201", "oil_rig"),
    "unknown_good_quoted": ("E201", "barracks"),
    "unknown_icon_in_effect": ("E201", "oil_rig"),
    "unknown_icon_in_field": ("E401", "oil_rig"),
    "unknown_owner": ("E201", "library"),
    "unknown_phase_until": ("E201", "oil_rig"),
    "unknown_rule_good": ("E201", None),
    "unknown_verb": ("E302", "oil_rig"),
    "unquoted_colon_in_effect": ("E103", None),
    "utf16": ("E102", None),
    "verb_missing_object": ("E303", "oil_rig"),
    "verb_missing_required_phrase": ("E303", "oil_rig"),
    "verb_phrase_not_taken": ("E303", "oil_rig"),
    "verb_too_many_objects": ("E303", "library"),
    "wrong_role": ("E205", "oil_rig"),
    "wrong_type_count": ("E401", "oil_rig"),
    "wrong_type_icons": ("E401", "oil_rig"),
    "wrong_type_slot": ("E401", "oil_rig"),
    "x_before_defined": ("E305", "oil_rig"),
    # issue 11, hostile and careless input
    "caret_block_ends_in_nbsp": ("E301", "oil_rig"),
    "caret_double_quoted_continuation": ("E201", "oil_rig"),
    "caret_double_quoted_escapes": ("E201", "oil_rig"),
    "caret_folded_ends_in_ideographic_space": ("E301", "oil_rig"),
    "caret_folded_quoted_lines": ("E201", "oil_rig"),
    "caret_single_quoted_doubled_quote": ("E201", "library"),
    "effect_min_past_limit": ("E320", "library"),
    "effect_number_past_digit_limit": ("E320", "oil_rig"),
    "effect_number_past_limit": ("E320", "oil_rig"),
    "effect_up_to_past_limit": ("E320", "library"),
    "float_too_large": ("E109", None),
    "game_card_source_unknown_zone": ("E201", None),
    "game_field_type_near_miss": ("E401", None),
    "game_group_unknown_good": ("E201", None),
    "game_icon_unknown_good": ("E201", None),
    "game_phase_listed_twice": ("E202", None),
    "game_player_name_not_a_name": ("E401", None),
    "game_required_unknown_field": ("E201", None),
    "game_rules_unknown_draw_zone": ("E201", None),
    "game_rules_unknown_hand_zone": ("E201", None),
    "game_several_name_errors": ("E201", None),
    "game_slot_kind_unknown": ("E401", None),
    "game_thing_unknown_kind": ("E201", None),
    "game_thing_unknown_zone": ("E201", None),
    "game_thing_where_unknown_field": ("E201", None),
    "game_thing_where_unknown_value": ("E201", None),
    "id_not_text_hides_nothing": ("E401", None),
    "inf_in_table": ("E109", None),
    "integer_key_in_card": ("E401", "oil_rig"),
    "integer_key_in_goods": ("E401", None),
    "integer_key_top_level": ("E401", None),
    "integer_with_too_many_digits": ("E109", None),
    "missing_name_hides_nothing": ("E401", "oil_rig"),
    "nan_in_field": ("E109", None),
    "negative_inf_in_game": ("E109", None),
    "scenario_nan_good": ("E109", None),
    "scenario_refused_without_expect": ("E702", None),
    "scenario_unknown_card": ("E201", None),
    "scenario_unknown_good_in_expect": ("E201", None),
    "scenario_unknown_good_in_state": ("E201", None),
    "scenario_unknown_player_in_state": ("E201", None),
    "scenario_unknown_step_key": ("E201", None),
    "scenario_unknown_step_player": ("E201", None),
    "scenario_unknown_zone_in_expect": ("E201", None),
    "scenario_unknown_zone_in_state": ("E201", None),
    "schema_errors_in_two_cards": ("E401", "library"),
    "two_files_one_module": ("E503", None),
}

# Hints the designer must see for the near misses the issue names.
HINTS = {
    "effect_construct_not_yet": "is not in the language yet",
    "effect_if_without_colon": "'if' needs ':' after its condition",
    "unknown_good_near_miss": "did you mean 'fuel'?",
    "unknown_verb": "did you mean 'gain'?",
    "unknown_field_near_miss": "did you mean 'icons'?",
    "enum_near_miss": "did you mean 'production'?",
    "unknown_engine": "did you mean 'core'?",
    "unknown_phase_until": "did you mean 'cleanup'?",
    "unknown_icon_in_effect": "did you mean 'green'?",
    "game_icon_unknown_good": "did you mean 'gun'?",
    "game_thing_unknown_zone": "did you mean 'state'?",
    "game_thing_unknown_kind": "did you mean 'location'?",
    "game_thing_where_unknown_field": "did you mean 'row'?",
    "game_thing_where_unknown_value": "did you mean 'production'?",
    "game_rules_unknown_draw_zone": "did you mean 'deck'?",
    "game_rules_unknown_hand_zone": "did you mean 'hand'?",
    "game_field_type_near_miss": "did you mean 'int'?",
    "game_slot_kind_unknown": "did you mean 'condition'?",
    "game_group_unknown_good": "did you mean 'gun'?",
    "game_card_source_unknown_zone": "did you mean 'deck'?",
    "game_required_unknown_field": "did you mean 'row'?",
    "scenario_unknown_good_in_expect": "did you mean 'gun'?",
    "scenario_unknown_zone_in_state": "did you mean 'state'?",
    "scenario_unknown_zone_in_expect": "did you mean 'hand'?",
    "scenario_unknown_player_in_state": "did you mean 'Ann'?",
    "scenario_unknown_step_key": "did you mean 'player'?",
    "scenario_unknown_card": "did you mean 'library'?",
    "scenario_unknown_step_player": "did you mean 'Ann'?",
}

# Cases that are scenarios: the data builds, `cardwright run` of the case's scenario must fail.
SCENARIO_CASES = sorted(p.parent.parent.parent.name for p in BAD.glob("*/mini/scenarios/*.yaml"))

CASES = sorted(p.name for p in BAD.iterdir() if p.is_dir())
LOCATED = re.compile(r"^data/mini/[a-z_/-]+\.yaml:\d+:\d+: E\d{3} ", re.M)


def test_corpus_is_complete():
    """Every case folder has expectations (and there are at least 30 of them)."""
    assert sorted(EXPECT) == CASES
    assert len(CASES) >= 100  # 56 before issue 11, which added 47


@pytest.fixture
def until_verb(monkeypatch):
    """A verb taking 'until <phase>' (core has none; the game engines add theirs), for the E201 case."""

    def block(ctx, objs, ph, strict):  # pragma: no cover - never run: the case fails to compile
        raise AssertionError

    v = Verb("block", block, Signature(Slot((CARD, THING), required=True), {"until": Slot((PHASE,), required=True)}),
             "block {obj} until {until}", "block 1 card until cleanup", "core")
    monkeypatch.setitem(REGISTRY["core"], "block", v)
    return v


def snapshot_tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def make_project(tmp_path: Path, runner) -> tuple[Path, dict[str, bytes]]:
    """A temporary project: data/ (the mini game) and a generated/ compiled from it."""
    shutil.copytree(MINI, tmp_path / "data")
    res = runner.invoke(cli.main, ["compile", "data"])
    assert res.exit_code == 0, res.output
    before = snapshot_tree(tmp_path / "generated")
    assert "mini/base.py" in before
    return tmp_path / "data", before


def overlay(case: str, data: Path) -> None:
    for src in sorted((BAD / case).rglob("*")):
        if src.is_file():
            dst = data / src.relative_to(BAD / case)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)


def check_failed_run(res, tmp_path: Path, before: dict[str, bytes]) -> None:
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    assert snapshot_tree(tmp_path / "generated") == before  # nothing changed, no temp file left


@pytest.mark.parametrize("case", CASES)
def test_bad_input(case, tmp_path, monkeypatch, runner, snapshot, until_verb):
    monkeypatch.chdir(tmp_path)
    data, before = make_project(tmp_path, runner)
    overlay(case, data)
    code, card = EXPECT[case]
    command = ["compile", "data"]
    if case in SCENARIO_CASES:  # the data builds; running the case's scenario must fail
        command = ["run", *(f"data/mini/scenarios/{p.name}" for p in sorted((BAD / case).rglob("*.yaml"))),
                   "--data", "data", "--quiet"]

    res = runner.invoke(cli.main, command)
    check_failed_run(res, tmp_path, before)
    text = res.output
    assert LOCATED.search(text), text
    assert f" {code} " in text
    assert snapshot == text

    res = runner.invoke(cli.main, [*command, "--format", "json"])
    check_failed_run(res, tmp_path, before)
    payload = json.loads(res.stdout)
    assert payload["ok"] is False
    diags = payload["diagnostics"]
    assert diags and all(d["file"] and d["line"] and d["column"] for d in diags), diags
    assert code in {d["code"] for d in diags}
    if card is not None:
        assert any(d["card"] == card and d["code"] == code for d in diags), diags
    if case in HINTS:
        assert any(HINTS[case] in (d["hint"] or "") or HINTS[case] in d["message"] for d in diags), diags

    # validate checks what run checks before it plays (issue 26): only a failure of playing is run's alone
    res = runner.invoke(cli.main, ["validate", "data"])
    assert res.exit_code == (0 if code == "E702" else 1) and "Traceback" not in res.output
    if case in SCENARIO_CASES and code != "E702":
        assert f" {code} " in res.output, res.output


def test_several_errors_are_all_reported(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    data, before = make_project(tmp_path, runner)
    overlay("several_errors", data)
    res = runner.invoke(cli.main, ["compile", "data", "--format", "json"])
    codes = sorted(d["code"] for d in json.loads(res.stdout)["diagnostics"])
    assert codes == ["E201", "E302", "E401"]


@pytest.mark.parametrize("case, codes", [("missing_name_hides_nothing", ["E201", "E302", "E401"]),
                                         ("id_not_text_hides_nothing", ["E201", "E401"]),
                                         ("schema_errors_in_two_cards", ["E401", "E401"]),
                                         ("game_several_name_errors", ["E201", "E201", "E201"])])
def test_one_error_hides_no_other(case, codes, tmp_path, monkeypatch, runner):
    """Issue 11, class 5: a card missing its name (or with a bad id) still has its effects checked,
    and the next card too; every name error of a game file is reported in one run."""
    monkeypatch.chdir(tmp_path)
    data, before = make_project(tmp_path, runner)
    overlay(case, data)
    res = runner.invoke(cli.main, ["compile", "data", "--format", "json"])
    assert sorted(d["code"] for d in json.loads(res.stdout)["diagnostics"]) == codes


def test_twenty_megabyte_file(tmp_path, monkeypatch, runner, snapshot):
    """A 20 MB module (generated here, never committed) is refused before it is parsed."""
    monkeypatch.chdir(tmp_path)
    data, before = make_project(tmp_path, runner)
    card = "  - {id: c%07d, kind: location, name: Filler, production: gain 2 fuel}\n"
    with open(data / "mini" / "huge.yaml", "w", encoding="utf-8") as fh:
        fh.write("name: huge\ncards:\n")
        i = 0
        while fh.tell() < 20 * 1024 * 1024:
            fh.write("".join(card % (i + k) for k in range(1000)))
            i += 1000
    res = runner.invoke(cli.main, ["compile", "data"])
    check_failed_run(res, tmp_path, before)
    assert re.search(r"^data/mini/huge\.yaml:1:1: E107 file is 2\d\.\d MB", res.output, re.M), res.output
    assert snapshot == res.output


def test_every_code_is_documented():
    """docs/diagnostics.md has a table row for every code, and names every corpus case it cites."""
    from compiler.diagnostics import CODES

    doc = (HERE.parent / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    missing = [code for code in CODES if f"| {code} |" not in doc]
    assert not missing, f"undocumented codes: {missing}"
    rows = [line for line in doc.splitlines() if line.startswith("| E")]
    cited = [case for case in CASES if any(f"`{case}`" in row for row in rows)]
    for case in cited:  # a case is cited in the row of the code it must report
        assert any(f"`{case}`" in row and row.startswith(f"| {EXPECT[case][0]} |") for row in rows), case
    assert len(cited) >= 90, sorted(set(CASES) - set(cited))
