"""Statistics that say how sure they are (runtime/stats.py; issue 16 item 1), checked against
published values, and as the simulation report uses them."""
from __future__ import annotations

import json

import pytest

from compiler.build import load_game_folder
from runtime.simulate import METHOD_PEERS, METHOD_RAW, SimConfig, render_html, simulate
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
    r = simulate(SimConfig("deckbuild", games=120, data=str(ROOT / "tests/fixtures/flow"), loader=load_game_folder))
    for seat in r["win_rate_by_seat_ci"].values():
        assert seat["low"] <= seat["rate"] <= seat["high"] and seat["n"] == 120
    played = r["card_effects"]["played"]
    assert played, "the deck-builder publishes Played events"
    methods = set()
    for cid, e in played.items():
        methods.add(e["method"])
        if e["difference"] is not None:
            assert e["low"] <= e["difference"] <= e["high"]
            controlled = e["method"] == METHOD_PEERS
            assert e["finding"] == (controlled and e["with"]["n"] >= MIN_SIDE and e["without"]["n"] >= MIN_SIDE
                                    and (e["low"] > 0 or e["high"] < 0))
            # the deck-builder's kind is "card" for all: the peers are the cards of the same cost
            assert controlled == (cid in ("silver", "village")) and e["peers"] == sorted({"silver", "village"} - {cid}) \
                if controlled else e["peers"] == []
            if not controlled:
                assert e["with"]["n"] + e["without"]["n"] == 120 * 2  # every player-game on one side
    assert methods == {METHOD_PEERS, METHOD_RAW}
    html = render_html(r)
    assert "Win rate by seat (95 % interval" in html and "Difference in win rate when played, against its peers" in html


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
    cfg = SimConfig("deckbuild", games=24, data=str(ROOT / "tests/fixtures/flow"), loader=load_game_folder)
    local = simulate(cfg)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        import dataclasses

        remote = simulate(dataclasses.replace(cfg, executor="dask", scheduler=cl.scheduler_address))
    assert json.dumps(remote, sort_keys=True) == json.dumps(local, sort_keys=True)


@pytest.mark.slow
def test_the_dask_executor_without_a_scheduler_runs_on_a_local_cluster(tmp_path):
    # issue 24: as `distributed.Client()` does, a local cluster is started for the run (it used to refuse)
    from click.testing import CliRunner

    from cli import main

    pytest.importorskip("distributed")
    res = CliRunner().invoke(main, ["simulate", "deckbuild", "--data", str(ROOT / "tests/fixtures/flow"), "--games", "2",
                                    "--executor", "dask", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "deckbuild-2p-seed0.json").read_text(encoding="utf-8"))["games"] == 2


def test_tableau_effects_and_score_spread_where_the_game_has_them():
    # 51st State declares rules.tableau: [state] and scores VP: both appear; the deck-builder has no tableau
    r = simulate(SimConfig("fifty_first_state", games=12))
    assert "tableau" in r["card_effects"] and r["card_effects"]["tableau"]
    sp = r["score_spread"]
    assert sp is not None and sp["margin_mean"] >= 0 and sum(sp["margin_histogram"].values()) == 12
    html = render_html(r)
    assert "in its tableau" in html and "Score spread" in html
    flow = simulate(SimConfig("deckbuild", games=10, data=str(ROOT / "tests/fixtures/flow"), loader=load_game_folder))
    assert "tableau" not in flow["card_effects"]


def test_per_copy_figures_count_copies_from_hand_built_records():
    # two-copy card "a": player-games with 0, 1 and 2 copies played, and who won; the figures follow
    from runtime.simulate import copy_effects

    recs = []
    for i in range(30):
        # seat 0 plays both copies and wins; seat 1 plays one copy (i even) or none (i odd) and loses
        recs.append({"winners": [0], "played_by": [["a", "a", "b"], ["a"] if i % 2 == 0 else []]})
    out = copy_effects(recs, 2, {"a": 2, "b": 1})
    a = out["played"]["a"]
    assert set(out["played"]) == {"a"}  # a single-copy card has no per-copy figures
    assert {m: (v["k"], v["n"]) for m, v in a["by_copies"].items()} == {"0": (0, 15), "1": (0, 15), "2": (30, 30)}
    more = a["more_than_one"]
    assert more["difference"] == 1.0 and more["beyond_noise"] and more["low"] > 0
    assert not more["finding"] and more["method"].startswith("two or more copies against exactly one (not controlled")
    # copies played per game: 2 by seat 0, plus seat 1's when it played one, capped at the 2 copies
    assert (a["per_copy"]["k"], a["per_copy"]["n"]) == (60, 60)


def test_the_report_carries_per_copy_figures_that_add_up():
    r = simulate(SimConfig("infernal_contraption", games=60))
    copies = {c["id"]: c["copies"] for c in r["cards"]}
    played = r["copy_effects"]["played"]
    assert played and all(copies[cid] > 1 for cid in played)
    for cid, e in played.items():
        assert sum(v["n"] for v in e["by_copies"].values()) == 60 * 2  # every player-game has some count
        assert e["per_copy"]["n"] == copies[cid] * 60
        assert e["more_than_one"]["with"]["n"] == sum(e["by_copies"][str(m)]["n"] for m in range(2, copies[cid] + 1))
    for c in r["cards"]:
        pr = c["play_rate"]
        assert pr["k"] == c["games_played_in"] and pr["n"] == 60 and pr["low"] <= pr["rate"] <= pr["high"]
    html = render_html(r)
    assert "Per copy (cards with several copies)" in html and "Two or more copies played against one" in html


def test_a_player_who_went_out_keeps_its_machine_as_its_final_tableau():
    # Infernal Contraption removes an eliminated player's Machine from the game (I12); the report's
    # "in the final tableau" reads the Machine it went out with, not the empty zone
    r = simulate(SimConfig("infernal_contraption", games=40))
    tab = r["card_effects"]["tableau"]
    losers_with_a_machine = sum(e["with"]["n"] - e["with"]["k"] for e in tab.values())
    assert losers_with_a_machine > 0, "every card in a final tableau was a winner's: losers' Machines were lost"


# --- issue 24, item 5: findings that mean something ------------------------------------------------

def test_a_card_is_compared_with_its_peers_so_what_every_card_of_its_kind_does_is_no_finding():
    """The 51st State confounder in small: every Location built is worth a point, so the winner built
    more Locations (two) than the loser (one), whichever they were. Locations a and b (same kind and
    cost) are built alike: the plain comparison calls a a winner, the comparison with its peer does
    not. Action c, a real edge over its peer d (the winner played it three times in four), is a finding."""
    from runtime.simulate import card_effects

    recs = []
    for i in range(480):
        win_locs = [["a", "b"], ["a", "a"], ["b", "b"]][i % 3]
        lose_locs = [["a"], ["b"]][(i // 3) % 2]
        win_act, lose_act = (["c"], ["d"]) if (i // 6) % 4 else (["d"], ["c"])
        p_win, p_lose = win_locs + win_act, lose_locs + lose_act
        recs.append({"winners": [i % 2], "played_by": [p_win, p_lose] if i % 2 == 0 else [p_lose, p_win]})
        recs[-1]["winners"] = [0] if i % 2 == 0 else [1]
    keys = {"a": ("location", 1), "b": ("location", 1), "c": ("action", 2), "d": ("action", 2)}
    out = card_effects(recs, 2, ["a", "b", "c", "d"], keys)["played"]
    assert out["a"]["raw"]["low"] > 0, "the confounder is there: plainly, building a goes with winning"
    for cid in ("a", "b"):
        assert out[cid]["method"] == METHOD_PEERS and not out[cid]["finding"]
        assert out[cid]["low"] < 0 < out[cid]["high"]
    assert out["c"]["peers"] == ["d"] and out["c"]["finding"] and out["c"]["low"] > 0
    assert out["d"]["finding"] and out["d"]["high"] < 0


def test_a_card_without_peers_is_shown_uncontrolled_and_never_a_finding():
    from runtime.simulate import card_effects

    recs = [{"winners": [0], "played_by": [["solo"], []]} for _ in range(50)]
    e = card_effects(recs, 2, ["solo"], {"solo": ("unique", None)})["played"]["solo"]
    assert e["method"] == METHOD_RAW and e["difference"] == 1.0 and e["low"] > 0 and not e["finding"]


def test_a_kind_the_engine_calls_confounded_carries_the_caveat_and_no_finding():
    from runtime.simulate import card_effects

    recs = [{"winners": [0], "drawn_by": [["a"], ["b"]]} for _ in range(50)]
    out = card_effects(recs, 2, ["a", "b"], {"a": ("k", 1), "b": ("k", 1)}, {"drawn": "drawing ends games"})
    assert out["drawn"]["a"]["difference"] == 1.0 and not out["drawn"]["a"]["finding"]
    assert out["drawn"]["a"]["confounded"] == "drawing ends games"


def test_infernal_contraption_says_drawing_is_confounded_and_the_html_shows_it():
    r = simulate(SimConfig("infernal_contraption", games=30))
    assert "drawn" in r["card_effects_caveats"]
    assert not any(e["finding"] for e in r["card_effects"]["drawn"].values())
    assert "Confounded by how the game ends: a player draws from its own parts pile" in render_html(r)


def test_a_shared_win_counts_one_kth_everywhere_and_never_as_a_loss():
    """Issue 24: the seat test counted the 49 shared wins of a run as losses. Now a k-way shared win
    is 1/k of a win to each sharer: in the seat rates, per player, per agent and per card."""
    from runtime.simulate import card_effects, win_credit

    shared = {"winners": [0, 1], "played_by": [["a"], ["a"]]}
    assert win_credit(shared, 0) == win_credit(shared, 1) == 0.5 and win_credit({"winners": [1]}, 0) == 0
    e = card_effects([shared] * 20, 2, ["a"], {"a": ("k", 0)})["played"]["a"]
    assert e["with"]["k"] == 20 and e["with"]["n"] == 40 and e["with"]["rate"] == 0.5
    # the Moon shares wins now and then: the seat credits still sum to the games won
    r = simulate(SimConfig("age_of_steam", games=6, players=3, seed=4, agent="first"))
    assert r["shared_wins"] >= 1, "the seeded run should hold a shared win (first-legal agents tie often)"
    assert abs(sum(r["wins_by_seat"].values()) - (6 - r["no_winner"] - r["capped"]["count"])) < 1e-3
    assert abs(sum(r["win_rate_by_seat"].values()) - 1.0) < 1e-3
    assert "1/k" in r["ties"]


def test_intervals_round_outward_and_print_what_they_exclude():
    from runtime.stats import down, interval_text, rate, up

    assert (down(0.47849), up(0.47841), down(0.25), up(0.25)) == (0.4784, 0.4785, 0.25, 0.25)
    r = rate(478, 1000)
    lo, hi = wilson(478, 1000)
    assert r["low"] <= lo and r["high"] >= hi
    # the case: [45.6 %, 49.99 %] rounded to one place looked like [45.6 %, 50.0 %]
    assert interval_text(0.4561, 0.4999, 0.5) == "[45.61%, 49.99%]"
    assert interval_text(0.4561, 0.4999) == "[45.6%, 50.0%]"  # no reference: outward, one place
    assert interval_text(0.0004, 0.1, 0.0, signed=True, places=0) == "[+0.04%, +10.00%]"
    assert interval_text(-0.0004, 0.1, 0.0, signed=True, places=0) == "[-1%, +10%]"
    # an effect's finding is decided on the interval it reports
    e = effect(60, 100, 40, 100)
    assert e["finding"] == (e["low"] > 0 or e["high"] < 0)
