"""`cardwright simulate`: seeded, identical whatever --jobs, JSON + offline HTML report."""
from __future__ import annotations

import json
from xml.etree import ElementTree

from cli import main
from runtime.simulate import SimConfig, game_seed, render_html, simulate


def test_same_seed_same_result_whatever_jobs():
    one = simulate(SimConfig("infernal_contraption", games=24, players=3, seed=5, jobs=1))
    two = simulate(SimConfig("infernal_contraption", games=24, players=3, seed=5, jobs=2))
    assert one == two
    other = simulate(SimConfig("infernal_contraption", games=24, players=3, seed=6, jobs=1))
    assert other != one
    assert game_seed(5, 3) == game_seed(5, 3) != game_seed(5, 4)


def test_result_counts_are_consistent():
    r = simulate(SimConfig("infernal_contraption", games=40, players=2, seed=1, agent="greedy"))
    assert r["games"] == 40
    assert sum(r["wins_by_seat"].values()) + r["no_winner"] + r["capped"]["count"] == 40
    assert abs(sum(r["win_rate_by_seat"].values()) - sum(r["wins_by_seat"].values()) / 40) < 1e-3
    assert sum(r["length"]["histogram"].values()) == 40
    ids = {c["id"] for c in r["cards"]}
    assert "power_core" not in ids and "entropic_processor" in ids
    assert set(r["never_activated"]) <= ids
    assert all(c["activations"] == 0 for c in r["cards"] if c["id"] in r["never_activated"])


def test_turn_cap_is_reported_not_a_hang():
    r = simulate(SimConfig("infernal_contraption", games=10, players=2, seed=2, turn_cap=2))
    assert r["capped"]["count"] > 0
    assert r["capped"]["count"] + sum(r["wins_by_seat"].values()) + r["no_winner"] == 10
    assert "turn cap" in render_html(r)


def test_html_report_is_offline_svg_without_scripts():
    r = simulate(SimConfig("infernal_contraption", games=10, players=2, seed=3))
    page = render_html(r)
    assert page.count("<svg") >= 4 and "<script" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    body = page[page.index("<body>"):page.index("</body>") + 7]
    ElementTree.fromstring(body)  # well-formed markup


def test_cli_simulate_writes_json_and_html(runner, tmp_path):
    out = tmp_path / "sim"
    res = runner.invoke(main, ["simulate", "infernal_contraption", "--games", "12", "--players", "2",
                               "--seed", "4", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "win rate by seat" in res.output and "turn cap" in res.output
    data = json.loads((out / "infernal_contraption-2p-seed4.json").read_text())
    assert data["games"] == 12 and data["seed"] == 4
    assert (out / "infernal_contraption-2p-seed4.html").read_text().startswith("<!DOCTYPE html>")


def test_cli_simulate_unknown_game(runner, tmp_path):
    res = runner.invoke(main, ["simulate", "no_such_game", "--games", "1", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "no game 'no_such_game'" in res.output


def test_mixed_agents_by_player():
    r = simulate(SimConfig("infernal_contraption", games=30, players=2, seed=9, agent="greedy,random"))
    assert r["agents_by_player"] == {"P1": "greedy", "P2": "random"}
    assert sum(r["wins_by_player"].values()) == sum(r["wins_by_seat"].values())
    assert r["win_rate_by_agent"]["greedy"] == round(r["wins_by_player"]["P1"] / 30, 4)


def test_unknown_agent_is_a_usage_error(runner, tmp_path):
    res = runner.invoke(main, ["simulate", "infernal_contraption", "--games", "1", "--agent", "clever",
                               "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown agent 'clever'" in res.output


def test_simulate_in_a_real_subprocess_with_jobs(tmp_path):
    """End to end as a user runs it: progress bar on stderr, summary on stdout, files written."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "sim"
    proc = subprocess.run([sys.executable, str(root / "cli.py"), "simulate", "infernal_contraption",
                           "--games", "8", "--players", "3", "--seed", "2", "--jobs", "2", "--out", str(out)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "simulating infernal_contraption" in proc.stderr
    assert "8 games of infernal_contraption, 3 players" in proc.stdout
    one = json.loads((out / "infernal_contraption-3p-seed2.json").read_text())
    assert one == simulate(SimConfig("infernal_contraption", games=8, players=3, seed=2))


def test_every_simulated_game_keeps_the_invariants():
    """Conservation (every card in one zone, the machines' layout matching their zones) after every
    move of every game, and a legal move whenever the game runs."""
    for agent in ("random", "greedy,mcts:1"):
        r = simulate(SimConfig("infernal_contraption", games=12, players=3, seed=8, agent=agent, check_moves=True))
        assert r["invariants"] == {"checked": "after every move", "games_broken": 0, "problems": [],
                                   "names": ["card conservation", "Goods never negative unless signed",
                                             "machine shape", "an eliminated player holds no cards",
                                             "a running game has a legal move"]}
        assert sum(r["wins_by_seat"].values()) + r["no_winner"] + r["capped"]["count"] == 12
