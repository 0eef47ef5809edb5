"""Statistics that say how sure they are (runtime/stats.py; issue 16 item 1), checked against
published values, and as the simulation report uses them."""
from __future__ import annotations

import pytest

from runtime.simulate import SimConfig, render_html, simulate
from runtime.stats import MIN_SIDE, difference, effect, wilson
from tests.conftest import ROOT


@pytest.mark.parametrize("k, n, low, high", [
    (5, 10, 0.2366, 0.7634),   # the textbook Wilson interval
    (0, 10, 0.0, 0.2775),      # no successes: the interval still has width
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval(k, n, low, high):
    lo, hi = wilson(k, n)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


def test_newcombe_difference_matches_the_published_examples():
    # Newcombe (1998), method 10: 56/70 − 48/80 and 9/10 − 3/10
    assert [round(v, 4) for v in difference(56, 70, 48, 80)] == [0.2, 0.0524, 0.3339]
    assert [round(v, 4) for v in difference(9, 10, 3, 10)] == [0.6, 0.1705, 0.809]


def test_a_finding_needs_an_interval_that_excludes_zero_and_enough_games():
    assert effect(60, 100, 40, 100)["finding"]            # +20 %, interval clear of zero
    assert not effect(52, 100, 48, 100)["finding"]        # noise
    assert not effect(MIN_SIDE - 1, MIN_SIDE - 1, 0, 100)["finding"]  # too few on one side
    assert effect(3, 5, 0, 0)["difference"] is None       # nothing to compare with


def test_the_report_carries_intervals_and_per_card_effects():
    r = simulate(SimConfig("deckbuild", games=120, data=str(ROOT / "tests/fixtures/flow")))
    for seat in r["win_rate_by_seat_ci"].values():
        assert seat["low"] <= seat["rate"] <= seat["high"] and seat["n"] == 120
    played = r["card_effects"]["played"]
    assert played, "the deck-builder publishes Played events"
    for e in played.values():
        if e["difference"] is not None:
            assert e["low"] <= e["difference"] <= e["high"]
            assert e["finding"] == (e["with"]["n"] >= MIN_SIDE and e["without"]["n"] >= MIN_SIDE
                                    and (e["low"] > 0 or e["high"] < 0))
            assert e["with"]["n"] + e["without"]["n"] == 120 * 2  # every player-game on one side
    html = render_html(r)
    assert "Win rate by seat (95 % interval" in html and "Difference in win rate when played" in html


def test_simulate_compare_reports_the_data_change_beside_the_result_change(tmp_path):
    # the Market made much stronger: the diff says so in English, and the results carry intervals
    import json
    import shutil

    from click.testing import CliRunner

    from cli import main

    data = tmp_path / "data"
    shutil.copytree(ROOT / "tests/fixtures/flow", data)
    base = data / "deckbuild" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("gain 1 buy; gain 1 coin}", "gain 1 buy; gain 3 coin}"),
                    encoding="utf-8")
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["simulate", "deckbuild", "--data", str(data), "--games", "40", "--compare",
                                    str(ROOT / "tests/fixtures/flow"), "--out", str(out)])
    assert res.exit_code == 0, res.output
    cmp = json.loads((out / "deckbuild-2p-seed0-compare.json").read_text(encoding="utf-8"))
    assert any("gain 3 Coins" in line for line in cmp["data_changes"])
    assert set(cmp["seats"]) == {"1", "2"}
    market = cmp["cards"]["market"]["won_when_played"]
    assert market["low"] <= market["difference"] <= market["high"]
    assert "gain 3 Coins" in (out / "deckbuild-2p-seed0-compare.html").read_text(encoding="utf-8")
    # same seeds: comparing a folder with itself changes nothing at all
    res = CliRunner().invoke(main, ["simulate", "deckbuild", "--data", str(ROOT / "tests/fixtures/flow"), "--games",
                                    "20", "--compare", str(ROOT / "tests/fixtures/flow"), "--out", str(out)])
    same = json.loads((out / "deckbuild-2p-seed0-compare.json").read_text(encoding="utf-8"))
    assert all(d["difference"] == 0 for d in same["seats"].values()) and same["data_changes"][-1].endswith("no card changes.")


def test_a_dask_run_matches_the_local_run_byte_for_byte():
    # runs on a Dask LocalCluster (two workers); the same seeds and game count give the same JSON
    import json

    distributed = pytest.importorskip("distributed")
    cfg = SimConfig("deckbuild", games=24, data=str(ROOT / "tests/fixtures/flow"))
    local = simulate(cfg)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        import dataclasses

        remote = simulate(dataclasses.replace(cfg, executor="dask", scheduler=cl.scheduler_address))
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


def test_the_dask_executor_without_a_scheduler_is_a_usage_error():
    from click.testing import CliRunner

    from cli import main

    res = CliRunner().invoke(main, ["simulate", "deckbuild", "--data", str(ROOT / "tests/fixtures/flow"), "--games", "2",
                                    "--executor", "dask"])
    assert res.exit_code == 2 and "--scheduler" in res.output


def test_tableau_effects_and_score_spread_where_the_game_has_them():
    # 51st State declares rules.tableau: [state] and scores VP: both appear; the deck-builder has no tableau
    r = simulate(SimConfig("fifty_first_state", games=12))
    assert "tableau" in r["card_effects"] and r["card_effects"]["tableau"]
    sp = r["score_spread"]
    assert sp is not None and sp["margin_mean"] >= 0 and sum(sp["margin_histogram"].values()) == 12
    html = render_html(r)
    assert "in its tableau" in html and "Score spread" in html
    flow = simulate(SimConfig("deckbuild", games=10, data=str(ROOT / "tests/fixtures/flow")))
    assert "tableau" not in flow["card_effects"]
