"""Scaffolding: `cardwright new game` builds and plays at once; `new card` appends a valid skeleton."""
from __future__ import annotations

import json
import shutil

import pytest
import yaml
from jsonschema import Draft202012Validator

from cli import main
from compiler.build import compile_tree, discover_games
from compiler.diagnostics import Diagnostics
from compiler.loader import load_file
from compiler.resources import BUNDLED_DATA
from compiler.scaffold import ScaffoldError, new_card
from compiler.schemaexport import game_schema_text


def test_new_game_validates_compiles_and_runs(runner, tmp_path):
    data = tmp_path / "data"
    made = runner.invoke(main, ["new", "game", "dice_tower", "--path", str(data)])
    assert made.exit_code == 0, made.output
    assert (data / "dice_tower" / "game.yaml").is_file()
    assert (data / "schema" / "module.schema.json").is_file()  # the $schema comments resolve
    res = runner.invoke(main, ["validate", str(data)])
    assert res.exit_code == 0, res.output
    assert "1 games, 1 cards, 8 effects" in res.output
    res = runner.invoke(main, ["compile", str(data), "--out", str(tmp_path / "generated")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "generated" / "dice_tower" / "base.py").is_file()
    scen = data / "dice_tower" / "scenarios" / "first_card.yaml"
    res = runner.invoke(main, ["run", str(scen), "--data", str(data)])
    assert res.exit_code == 0, res.output
    assert "Ann: gains 1 vp" in res.output and "refused: not enough coin" in res.output
    assert res.output.rstrip().endswith("ok")
    first = (data / "dice_tower" / "game.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../schema/game.schema.json"
    # the module's modeline names the game's own schema, written beside the generic ones
    base = data / "dice_tower" / "base.yaml"
    assert base.read_text(encoding="utf-8").splitlines()[0] == \
        "# yaml-language-server: $schema=../schema/games/dice_tower.module.schema.json"
    own = (base.parent / "../schema/games/dice_tower.module.schema.json").resolve()
    schema = json.loads(own.read_text(encoding="utf-8"))
    gdoc = load_file(data / "dice_tower" / "game.yaml", Diagnostics())
    assert own.read_text(encoding="utf-8") == game_schema_text(gdoc.data)
    card = yaml.safe_load(base.read_text(encoding="utf-8"))["cards"][0]
    validator = Draft202012Validator(schema)
    assert not list(validator.iter_errors({"cards": [card]}))
    assert any("defence" in e.message for e in validator.iter_errors({"cards": [dict(card, defence=1)]}))


def test_new_game_refuses_bad_or_taken_names(runner, tmp_path):
    data = tmp_path / "data"
    assert runner.invoke(main, ["new", "game", "ok_game", "--path", str(data)]).exit_code == 0
    again = runner.invoke(main, ["new", "game", "ok_game", "--path", str(data)])
    assert again.exit_code == 2 and "already exists" in again.output
    bad = runner.invoke(main, ["new", "game", "My Game", "--path", str(data)])
    assert bad.exit_code == 2 and "lower case" in bad.output
    assert runner.invoke(main, ["new", "game", "schema", "--path", str(data)]).exit_code == 2


def test_new_card_appends_and_keeps_comments(runner, mini_game):
    base = mini_game / "mini" / "base.yaml"
    original = "# A comment the designer wrote.\n" + base.read_text(encoding="utf-8").replace(
        "cards:\n", "cards:\n  # the oil rig is the first card\n", 1)
    base.write_text(original, encoding="utf-8")
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--id", "well",
                               "--data", str(mini_game)])
    assert res.exit_code == 0, res.output
    text = base.read_text(encoding="utf-8")
    assert text.startswith(original)  # appended, nothing rewritten
    card = yaml.safe_load(text)["cards"][-1]
    assert card["id"] == "well" and card["kind"] == "location" and card["source"] == "example"
    assert card["row"] == "production" and set(card["provisional"]) == {"row", "icons"}
    assert "# production: effect text" in text
    assert compile_tree(mini_game).ok
    # a second card gets a fresh default id
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--data", str(mini_game)])
    assert res.exit_code == 0 and "new_location" in res.output
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--data", str(mini_game)])
    assert "new_location_2" in res.output
    assert compile_tree(mini_game).ok


def test_new_card_errors_leave_the_file_alone(runner, mini_game):
    base = mini_game / "mini" / "base.yaml"
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "locaton", "--data", str(mini_game)])
    assert res.exit_code == 2 and "did you mean 'location'" in res.output
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--id", "oil_rig",
                               "--data", str(mini_game)])
    assert res.exit_code == 2 and "already used" in res.output
    flow = mini_game / "mini" / "flow.yaml"
    flow.write_text("name: Flow\ncards: []\n", encoding="utf-8")
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--module", "flow",
                               "--data", str(mini_game)])
    assert res.exit_code == 2 and "flow style" in res.output
    assert flow.read_text(encoding="utf-8") == "name: Flow\ncards: []\n"


def test_new_card_goes_at_the_end_of_the_card_list_not_the_file(runner, mini_game):
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8") + "\n# setup of the base set\nsetup: [shuffle]\n",
                    encoding="utf-8")
    res = runner.invoke(main, ["new", "card", "--game", "mini", "--kind", "location", "--id", "well",
                               "--data", str(mini_game)])
    assert res.exit_code == 0, res.output
    text = base.read_text(encoding="utf-8")
    assert text.endswith("\n# setup of the base set\nsetup: [shuffle]\n")
    data = yaml.safe_load(text)
    assert data["cards"][-1]["id"] == "well" and data["setup"] == ["shuffle"]
    assert compile_tree(mini_game).ok


def _kinds():
    out = []
    for game_dir in discover_games(BUNDLED_DATA):
        spec = yaml.safe_load((game_dir / "game.yaml").read_text(encoding="utf-8"))
        for kind in sorted(spec.get("card_kinds") or {}):
            out.append((game_dir.name, kind))
    return out


@pytest.mark.parametrize("game,kind", _kinds())
def test_skeleton_of_every_bundled_kind_builds(tmp_path, game, kind):
    data = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA / game, data / game)
    try:
        made = new_card(data, game, kind, module=None)
    except ScaffoldError as exc:
        if "which module" not in str(exc):
            raise
        module = sorted(p.stem for p in (data / game).glob("*.yaml") if p.name != "game.yaml")[0]
        made = new_card(data, game, kind, module=module)
    assert compile_tree(data).ok
    assert made.card_id in made.changed[0].read_text(encoding="utf-8")


def test_a_new_game_has_a_flow_and_plays_to_a_winner(tmp_path):
    """Issue 13, item 8: `cardwright new game` makes a game that plays through at once."""
    from compiler.build import compile_tree
    from compiler.scaffold import new_game
    from runtime.agents import SeededRandom
    from runtime.engine import engine_for, load_from_sources

    new_game("quick", tmp_path)
    result = compile_tree(tmp_path)
    assert result.ok, [d.render() for d in result.diags]
    compiled = load_from_sources(result.outputs, "quick")
    eng = engine_for(compiled)
    for seed in range(5):
        agents = {0: SeededRandom(), 1: SeededRandom()}
        match = eng.new_match(compiled, ["Ann", "Bob"], seed=seed, agents=agents)
        while not match.terminal():
            match.apply(agents[match.to_act()].pick(match, match.legal_moves()))
            assert match.game.check_conservation() == []
        res = match.result()
        assert res.winners and max(res.scores) >= 3 and "end condition" in res.reason
