"""The simulation report says how games ended, keeps traces, compares like with like, and starts its
own Dask cluster (issue 24, item 6)."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import main
from compiler.build import load_game_folder
from runtime.simulate import SimConfig, compare, render_html, simulate

ROOT = Path(__file__).resolve().parents[1]
FLOW = ROOT / "tests" / "fixtures" / "flow"


@pytest.mark.parametrize("cfg, reasons", [
    (SimConfig("infernal_contraption", games=12, seed=2), {"one player remains"}),
    (SimConfig("age_of_steam", games=3, players=3, seed=2), {"8 turns were played (stand-in)"}),
    (SimConfig("deckbuild", games=10, seed=2, data=str(FLOW), loader=load_game_folder),
     {"40 rounds have been played", "the end condition holds after a turn",
      "the end condition holds at the end of a round"}),
])
def test_end_reasons_count_every_game_by_how_it_ended(cfg, reasons):
    r = simulate(cfg)
    assert sum(r["end_reasons"].values()) == cfg.games
    assert set(r["end_reasons"]) <= reasons and r["end_reasons"]
    html = render_html(r)
    assert "How the games ended" in html
    for why, k in r["end_reasons"].items():
        assert f"<td>{why}</td><td>{k}</td>" in html


def test_a_game_stopped_by_the_simulators_cap_says_so():
    r = simulate(SimConfig("age_of_steam", games=2, players=3, seed=2, turn_cap=2))
    assert r["end_reasons"] == {"stopped at the simulator's turn cap (2)": 2}


def test_trace_writes_the_first_n_games_and_changes_no_result(tmp_path):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["simulate", "infernal_contraption", "--games", "5", "--trace", "2",
                                    "--out", str(out), "--format", "json"])
    assert res.exit_code == 0, res.output
    files = sorted(p.name for p in out.iterdir())
    assert files == ["infernal_contraption-2p-seed0-trace-0.txt", "infernal_contraption-2p-seed0-trace-1.txt",
                     "infernal_contraption-2p-seed0.html", "infernal_contraption-2p-seed0.json"]
    assert json.loads(res.output.strip().splitlines()[-1])["traces"] == [str(out / f) for f in files[:2]]
    text = (out / files[0]).read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("infernal_contraption, game 0 of the run (game seed ")
    assert "P1: draws 7 cards from their Parts pile" in lines and len(lines) > 20
    assert lines[-1].startswith("result: ") and lines[-1].endswith("is the last player remaining")
    traced = json.loads((out / files[3]).read_text(encoding="utf-8"))
    plain = simulate(SimConfig("infernal_contraption", games=5))
    assert json.dumps(traced, sort_keys=True) == json.dumps(plain, sort_keys=True)


def test_compare_reads_the_same_game_only(tmp_path):
    """A folder holding a second game, changed (even broken), changes nothing of the comparison: the
    other folder is compiled for this game alone and its data diff lists this game alone."""
    this, other = tmp_path / "this", tmp_path / "other"
    for root in (this, other):
        shutil.copytree(FLOW, root)
    shutil.copytree(FLOW / "deckbuild", other / "second")
    game = other / "second" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("game: deckbuild", "game: second"), encoding="utf-8")
    (other / "second" / "base.yaml").write_text("cards: [not, a card\n", encoding="utf-8")  # broken
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["simulate", "deckbuild", "--data", str(this), "--games", "4", "--compare",
                                    str(other), "--out", str(out)])
    assert res.exit_code == 0, res.output
    cmp = json.loads((out / "deckbuild-2p-seed0-compare.json").read_text(encoding="utf-8"))
    assert not any("second" in line for line in cmp["data_changes"]), cmp["data_changes"]
    assert all(d["difference"] == 0 for d in cmp["seats"].values())


def test_compare_refuses_results_of_another_game():
    a = simulate(SimConfig("infernal_contraption", games=2))
    b = dict(a, game="age_of_steam")
    with pytest.raises(ValueError, match="different game"):
        compare(a, b)


@pytest.mark.slow
def test_the_dask_executor_without_a_scheduler_starts_a_local_cluster():
    """As ``distributed.Client()`` does: the run works out of the box, and its result is the local run's."""
    pytest.importorskip("distributed")
    cfg = SimConfig("deckbuild", games=6, data=str(FLOW), loader=load_game_folder)
    local = simulate(cfg)
    remote = simulate(dataclasses.replace(cfg, executor="dask"))
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)
