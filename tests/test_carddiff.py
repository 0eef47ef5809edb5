"""`cardwright diff`: added, removed and changed cards; effects compared as ASTs, shown in English."""
from __future__ import annotations

import json
import shutil

from cli import main
from compiler import carddiff
from compiler.carddiff import diff_trees, render_text


def _pair(mini_game, tmp_path):
    new = tmp_path / "new"
    shutil.copytree(mini_game, new)
    return mini_game, new


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_identical_and_layout_only_changes_are_no_change(mini_game, tmp_path):
    old, new = _pair(mini_game, tmp_path)
    base = new / "mini" / "base.yaml"
    _edit(base, "production: gain 2 fuel", "production: >-\n      Gain   2\n      FUEL")
    _edit(base, 'action: "spend 1 gun, 1 worker: gain 1 vp"', 'action: "spend 1 gun,1 worker : gain 1 vp"')
    result = diff_trees(old, new)
    assert all(g.empty for g in result.games)
    assert render_text(result) == ["no card changes."]


def test_rewording_that_keeps_the_meaning_is_no_change(mini_game, tmp_path):
    # slots are compared by their checked IR: an alias for a Good's key, "a" for "1" mean the same
    old, new = _pair(mini_game, tmp_path)
    base = new / "mini" / "base.yaml"
    _edit(base, 'action: "spend 1 gun, 1 worker: gain 1 vp"', 'action: "spend a gun, 1 worker: gain 1 victory point"')
    assert all(g.empty for g in diff_trees(old, new).games)
    _edit(base, 'gain 1 victory point"', 'gain 2 victory points"')  # a change of meaning still shows
    (eff,) = [e for g in diff_trees(old, new).games for c in g.changed for e in c.effects]
    assert eff.new == "Spend a Gun and 1 Worker to gain 2 Victory Points."


def test_added_removed_changed_with_english(mini_game, tmp_path):
    old, new = _pair(mini_game, tmp_path)
    base = new / "mini" / "base.yaml"
    _edit(base, "production: gain 2 fuel", "production: gain 3 fuel")
    _edit(base, "icons: [green]", "icons: [green, worker]")
    text = base.read_text(encoding="utf-8")
    start = text.index("  - id: library")
    base.write_text(text[:start] + "  - id: well\n    kind: location\n    name: Well\n    source: example\n"
                    "    production: gain 1 fuel\n", encoding="utf-8")
    result = diff_trees(old, new)
    (g,) = [g for g in result.games if not g.empty]
    assert [c.id for c in g.added] == ["well"] and [c.id for c in g.removed] == ["library"]
    (ch,) = g.changed
    assert ch.id == "oil_rig" and ch.fields == {"icons": (["green"], ["green", "worker"])}
    (eff,) = ch.effects
    assert (eff.slot, eff.old_text, eff.new_text) == ("production", "gain 2 fuel", "gain 3 fuel")
    assert result.renderer == "english"
    assert (eff.old, eff.new) == ("Gain 2 Fuel.", "Gain 3 Fuel.")
    lines = render_text(result)
    assert lines[0] == "mini: 1 added, 1 removed, 1 changed"
    assert "  + well (location, base.yaml): Well" in lines
    assert "      icons: ['green'] -> ['green', 'worker']" in lines
    assert "        - Gain 2 Fuel." in lines and "        + Gain 3 Fuel." in lines


def test_falls_back_to_canonical_text_without_english(mini_game, tmp_path, monkeypatch):
    # English is rendered from the checked IR: a side that cannot check its texts shows them canonically
    old, new = _pair(mini_game, tmp_path)
    _edit(new / "mini" / "base.yaml", "production: gain 2 fuel", "production: GAIN 3 fuel")

    real_init = carddiff._Effects.__init__

    def no_english(self, vocab):
        real_init(self, vocab)
        self.checker = None

    monkeypatch.setattr(carddiff._Effects, "__init__", no_english)
    result = diff_trees(old, new)
    (eff,) = [e for g in result.games for c in g.changed for e in c.effects]
    assert (eff.old, eff.new) == ("gain 2 fuel", "gain 3 fuel")
    assert result.renderer == "canonical"


def test_moved_card_slot_added_and_removed(mini_game, tmp_path):
    old, new = _pair(mini_game, tmp_path)
    base = new / "mini" / "base.yaml"
    text = base.read_text(encoding="utf-8")
    start = text.index("  - id: library")
    base.write_text(text[:start], encoding="utf-8")
    (new / "mini" / "promo.yaml").write_text("name: Promo\ncards:\n" + text[start:], encoding="utf-8")
    _edit(base, "production: gain 2 fuel", "action: draw 1 card")
    result = diff_trees(old, new)
    changed = {c.id: c for g in result.games for c in g.changed}
    assert changed["library"].old_module == "base.yaml" and changed["library"].module == "promo.yaml"
    effects = {e.slot: e for e in changed["oil_rig"].effects}
    assert effects["production"].new is None and effects["action"].old is None
    assert effects["action"].new == "Draw 1 card."


def test_cli_json_and_missing_folder(runner, mini_game, tmp_path):
    old, new = _pair(mini_game, tmp_path)
    _edit(new / "mini" / "base.yaml", "name: Oil Rig", "name: Oil Derrick")
    res = runner.invoke(main, ["diff", str(old), str(new), "--format", "json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.output)
    (g,) = payload["games"]
    assert g["changed"][0]["fields"] == {"name": {"old": "Oil Rig", "new": "Oil Derrick"}}
    res = runner.invoke(main, ["diff", str(old), str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "does not exist" in res.output  # a usage error, as click has it


def test_bundled_games_against_themselves_have_no_changes(root):
    result = diff_trees(root / "data", root / "data")
    assert result.games and all(g.empty for g in result.games) and not result.diags.errors


def test_face_slots_are_compared_as_effects(mini_game, tmp_path):
    game = mini_game / "mini" / "game.yaml"
    _edit(game, "      icons: icons\n", "      icons: icons\n    faces:\n      ruined:\n        slots:\n"
          "          production: {name: Production}\n")
    _edit(mini_game / "mini" / "base.yaml", "    production: gain 2 fuel\n",
          "    production: gain 2 fuel\n    ruined: {production: gain 1 fuel}\n")
    old, new = _pair(mini_game, tmp_path)
    _edit(new / "mini" / "base.yaml", "ruined: {production: gain 1 fuel}", "ruined: {production: GAIN  1 fuel}")
    assert all(g.empty for g in diff_trees(old, new).games)
    _edit(new / "mini" / "base.yaml", "ruined: {production: GAIN  1 fuel}", "ruined: {production: gain 1 vp}")
    (eff,) = [e for g in diff_trees(old, new).games for c in g.changed for e in c.effects]
    assert (eff.slot, eff.old, eff.new) == ("ruined.production", "Gain 1 Fuel.", "Gain 1 Victory Point.")


def test_diff_against_a_git_revision(runner, mini_game, monkeypatch):
    import subprocess

    repo = mini_game.parent
    monkeypatch.chdir(repo)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for cmd in (["git", "init", "-q"], ["git", "add", "data"], ["git", "commit", "-qm", "release"]):
        subprocess.run(cmd, check=True, env={**__import__("os").environ, **env})
    _edit(mini_game / "mini" / "base.yaml", "production: gain 2 fuel", "production: gain 4 fuel")
    res = runner.invoke(main, ["diff", "HEAD:data", "data"])
    assert res.exit_code == 0, res.output
    assert "~ oil_rig (base.yaml): Oil Rig" in res.output and "+ Gain 4 Fuel." in res.output
    res = runner.invoke(main, ["diff", "nosuchrev:data", "data"])
    assert res.exit_code == 2 and "cannot read 'nosuchrev:data' from git" in res.output


def test_other_values_tables_map_and_rules(tmp_path, root):
    old = root / "data"
    new = tmp_path / "data"
    shutil.copytree(old, new)
    _edit(new / "age_of_steam" / "game.yaml", "      track_cost: 3\n", "      track_cost: 4\n")
    _edit(new / "age_of_steam" / "moon.yaml", '- {at: "1,1", terrain: crater}',
          '- {at: "1,1", terrain: crater, town: {name: Hyginus}}')
    _edit(new / "age_of_steam" / "moon.yaml", "build_track: build up to 2 track tiles",
          "build_track: Build up to 2   track tiles")
    result = diff_trees(old, new)
    (g,) = [g for g in result.games if not g.empty]
    assert g.other == {"game.yaml: tables.terrain.crater.track_cost": (3, 4),
                       "moon.yaml: map.hexes[at=1,1].town.name": (None, "Hyginus")}
    assert "  * game.yaml: tables.terrain.crater.track_cost: 3 -> 4" in render_text(result)
    _edit(new / "age_of_steam" / "moon.yaml", "build_track: Build up to 2   track tiles",
          "build_track: build up to 3 track tiles")
    (g,) = [g for g in diff_trees(old, new).games if not g.empty]
    old_rule, new_rule = g.other["moon.yaml: rules.build_track"]
    assert "2" in old_rule and "3" in new_rule
