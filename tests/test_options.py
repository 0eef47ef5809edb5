"""Game options and player counts as data (issue 24, item 2): game.yaml ``seats`` and ``options``,
checked when compiled (compiler/options.py), resolved where a game is set up (runtime/options.py), and
taken by `simulate`, `play`, scenarios and the reference."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from compiler.diagnostics import Diagnostics
from compiler.loader import load_text
from compiler.options import check_options
from runtime.engine import engine_for, load_compiled
from runtime.options import OptionError, option_specs, parse_assignments, resolve

GAME = """game: g
name: G
seats: {min: 2, max: 3}
options:
  packs: {name: Packs, values: [red, blue], many: true, default: [red, blue]}
  level: {name: Level, values: [easy, hard], default: easy}
  coop: {name: Co-op, flag: true, default: false}
"""


def specs():
    diags = Diagnostics()
    return option_specs(load_text(GAME, "game.yaml", diags).data)


def test_defaults_fill_what_is_not_chosen_and_values_are_checked():
    s = specs()
    assert resolve(s, {}) == {"packs": ["red", "blue"], "level": "easy", "coop": False}
    assert resolve(s, {"level": "hard", "coop": "yes", "packs": ["blue", "red"]}) == \
        {"level": "hard", "coop": True, "packs": ["red", "blue"]}  # the declared order, however listed
    assert resolve(s, {"packs": []})["packs"] == []
    assert resolve(s, {"level": "hard"}, fill=False) == {"level": "hard"}


@pytest.mark.parametrize("given, message", [
    ({"levle": "hard"}, "unknown option 'levle' (options: packs, level, coop)"),
    ({"level": "nightmare"}, "option 'level' (Level): 'nightmare' is not one of easy, hard"),
    ({"coop": "maybe"}, "option 'coop' (Co-op) is on or off: 'maybe' is not true or false"),
    ({"packs": ["red", "green"]}, "option 'packs' (Packs): 'green' is not one of red, blue"),
    ({"packs": ["red", "red"]}, "option 'packs' (Packs) names a value twice"),
])
def test_a_wrong_option_is_refused_in_words_naming_it(given, message):
    with pytest.raises(OptionError) as exc:
        resolve(specs(), given)
    assert str(exc.value) == message and exc.value.option == next(iter(given))


def test_an_engine_setting_passes_unchecked_and_a_game_without_options_takes_none():
    assert resolve(specs(), {"draft_rounds": 0}, {"draft_rounds"}, fill=False) == {"draft_rounds": 0}
    with pytest.raises(OptionError, match="declares no options"):
        resolve({}, {"level": "hard"})


def test_command_line_assignments():
    assert parse_assignments(["level=hard", "coop", "packs=red,blue"]) == \
        {"level": "hard", "coop": "true", "packs": ["red", "blue"]}
    assert parse_assignments([], ["red"]) == {"packs": ["red"]}
    for bad in (["=x"], ["a=1", "a=2"]):
        with pytest.raises(OptionError):
            parse_assignments(bad)
    with pytest.raises(OptionError, match="either with --pack or with --option packs"):
        parse_assignments(["packs=red"], ["blue"])


@pytest.mark.parametrize("old, new, message, line", [
    ("default: easy", "default: medium", "option 'level': the default 'medium' is not one of its values (easy, hard)", 6),
    ("default: [red, blue]", "default: red", "option 'packs' takes several of red, blue: its default is a list", 5),
    ("default: false", "default: sometimes", "option 'coop' is a flag: its default is true or false", 7),
    ("max: 3", "max: 1", "seats: min 2 is more than max 1", 3),
])
def test_a_default_that_is_not_a_value_is_a_located_error(old, new, message, line):
    diags = Diagnostics()
    doc = load_text(GAME.replace(old, new), "game.yaml", diags)
    assert not check_options(doc, diags)
    [err] = diags.errors
    assert err.code == "E401" and err.message.startswith(message) and err.line == line, err.render()


def test_the_bundled_51st_state_declares_its_seats_and_options():
    c = load_compiled("fifty_first_state")
    eng = engine_for(c)
    assert eng.match_options(c, {}) == {"packs": ["moloch", "scavengers"], "difficulty": "recruit",
                                        "collaboration": False}
    for n in (2, 3, 4):
        eng.check_players(c, n)
    for n in (1, 5):
        with pytest.raises(Exception, match=f"seats 2 to 4 players \\(game.yaml seats\\), not {n}"):
            eng.check_players(c, n)


def cardwright(*args, cwd):
    return subprocess.run([sys.executable, "-c", "from cli import entry; entry()", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def test_simulate_with_a_wrong_player_count_or_option_is_a_usage_error(root, tmp_path):
    for args, said in ((["--players", "5"], "cannot be played by 5 players: the game seats 2 to 4 players"),
                       (["--option", "difficulty=hard"], "'hard' is not one of recruit, private, veteran"),
                       (["--pack", "molloch"], "'molloch' is not one of moloch, scavengers"),
                       (["--option", "=x"], "write NAME=VALUE")):
        res = cardwright("simulate", "fifty_first_state", "--games", "1", "--out", str(tmp_path), *args, cwd=root)
        assert res.returncode == 2, (args, res.stderr)
        assert said in res.stderr and "Traceback" not in res.stderr, res.stderr


def test_simulate_plays_and_reports_the_chosen_options(root, tmp_path):
    res = cardwright("simulate", "fifty_first_state", "--games", "1", "--out", str(tmp_path), "--pack", "moloch",
                     "--option", "difficulty=veteran", "--option", "collaboration=on", "--format", "json", cwd=root)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["result"].endswith("fifty_first_state-2p-seed0-collaboration-on-difficulty-veteran-packs-moloch.json")
    result = json.loads(open(out["result"], encoding="utf-8").read())
    assert result["options"] == {"packs": ["moloch"], "difficulty": "veteran", "collaboration": True}
    assert result["options_text"] == ["State Packs: moloch", "Difficulty (Moloch): veteran",
                                      "Collaboration variant (Moloch): on"]
    # the Scavengers pack was not played: its cards are not in the report
    assert not {"school", "squatters"} & {c["id"] for c in result["cards"]}
    assert "Played with: State Packs: moloch" in open(out["report"], encoding="utf-8").read()


def test_play_shows_the_options_and_refuses_a_wrong_one(runner):
    from cli import main

    res = runner.invoke(main, ["play", "fifty_first_state", "--bots", "first", "--option", "difficulty=private"],
                        input="q\n")
    assert "Options: State Packs: moloch, scavengers; Difficulty (Moloch): private" in res.output, res.output
    bad = runner.invoke(main, ["play", "fifty_first_state", "--option", "variant=x"])
    assert bad.exit_code == 2 and "unknown option 'variant'" in bad.output
    seats = runner.invoke(main, ["play", "fifty_first_state", "--players", "5"])
    assert seats.exit_code == 2 and "seats 2 to 4 players" in seats.output


def test_the_reference_lists_the_players_and_options(runner, tmp_path):
    from cli import main

    res = runner.invoke(main, ["reference", "fifty_first_state", "--format", "md", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "fifty_first_state.md").read_text(encoding="utf-8")
    assert "## Players and options" in md and "Players: 2 to 4 players." in md
    assert "| `difficulty` | Difficulty (Moloch) | recruit, private, veteran | recruit | M02, M06 |" in md
    assert "| `collaboration` | Collaboration variant (Moloch) | on or off | off | M20 |" in md


def test_the_reference_of_a_game_set_up_with_options_leaves_out_the_packs_not_played(runner, tmp_path):
    from cli import main

    res = runner.invoke(main, ["reference", "fifty_first_state", "--format", "md", "--out", str(tmp_path),
                               "--pack", "moloch", "--option", "difficulty=veteran"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "fifty_first_state.md").read_text(encoding="utf-8")
    assert ("This reference is of the game set up with** State Packs: moloch; Difficulty (Moloch): veteran; "
            "Collaboration variant (Moloch): off") in md
    assert "## 51st State: Master Set — Moloch" in md and "Scouring the Ruins" not in md
    bad = runner.invoke(main, ["reference", "fifty_first_state", "--option", "difficulty=x", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "'x' is not one of recruit, private, veteran" in bad.output


def test_the_game_model_holds_the_options_and_seats():
    # one reading of game.yaml's options (issue 22): the engine, simulate, play and the reference ask
    # the model, never the vocabulary's section by name
    from runtime.model import model_of

    data = load_text(GAME, "game.yaml", Diagnostics()).data
    m = model_of(data)
    assert dict(m.options) == option_specs(data) and list(m.options) == ["packs", "level", "coop"]
    assert m.seats == (2, 3) and m.options["coop"].flag and m.options["packs"].default == ("red", "blue")
