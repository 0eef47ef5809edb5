"""Moloch: Machine cards (M01), setup (M02), phases (M03), Deploy (M06), the content's coverage."""
from __future__ import annotations

from collections import Counter

import pytest

from runtime.engine import engine_for

from .helpers import compiled, new_game, pack, run_scenario


def machines():
    return {cid: rec for cid, rec in compiled().cards.items() if rec["kind"] == "machine"}


@pytest.mark.rule("M01")
def test_every_machine_has_code_defense_assault_and_a_hacked_side():
    icons = compiled().vocab["icons"]
    for cid, rec in machines().items():
        assert rec["code"] and isinstance(rec["defense"], int), cid
        assert "assault" in rec["slots"], cid
        hacked = rec["faces"]["hacked"]
        assert hacked["distance"] == 1 and hacked["spoils"] == 3, cid
        # The first Resource of the Code is the Hacked side's type: they always match.
        assert icons[hacked["icons"][0]]["good"] == rec["code"][0], cid


@pytest.mark.rule("M01")
def test_hacked_side_is_what_a_hacked_card_shows():
    sc, run = run_scenario("hack")
    g = run.game
    mother = sc.card_uid("mother")
    assert g.instances[mother].face == "hacked"
    assert g.instances[mother].props["row"] == "production"  # the Hacked side's row, not the Machine's
    assert "Ann: pays 1 blue_contact" in g.trace_text()      # Distance 1: a Deal for 1 Blue Contact


def test_content_exercises_every_mechanic():
    ms = machines()
    assert len(ms) >= 8
    assert any(r.get("rage") for r in ms.values()) and any(not r.get("rage") for r in ms.values())
    assert any("worker" in r["code"] for r in ms.values()) and any("worker" not in r["code"] for r in ms.values())
    kinds = {r["texts"]["assault"].split()[0] + (" per" if " per " in r["texts"]["assault"] else "")
             for r in ms.values()}
    assert len(kinds) >= 4, kinds
    for r in ms.values():
        assert r["source"] == "example" or r["source"].startswith("rulebook 000_")
    texts = [t for r in compiled().cards.values() for t in r["texts"].values()]
    assert any("draw 1 hacked" in t for t in texts)
    assert any("x is the number of deployed machines (min 1)" in t for t in texts)
    assert any("production" in r["slots"] and "feature" in r["slots"] for r in compiled().cards.values())
    assert any(r.get("holds_for") == ["hack", "destroy"] for r in compiled().cards.values())


@pytest.mark.rule("M02")
def test_setup_deck_machine_deck_and_difficulty():
    c = compiled()
    eng = engine_for(c)
    game = eng.new_game(c, ["Ann", "Bob"], seed=5, options={"difficulty": "veteran", "packs": ["moloch"]})
    # the Deck as setup made it: what is left of it, the starting hands and the discarded starting cards
    made = game.zone("deck") + game.zone("discard") + [u for p in game.players for u in game.zone("hand", p.index)]
    sets = Counter(c.cards[game.instances[u].card_id].get("set") for u in made)
    assert sets["moloch"] == sum(r.get("count", 1) for r in c.cards.values()
                                 if r["kind"] == "location" and r.get("set") == "moloch")
    assert sets["base"] == c.table("base_set")["cards"] == 88  # M02: "the 88 cards of the Base Set"
    mdeck = sorted(game.instances[u].card_id for u in game.zone("machine_deck"))
    assert mdeck == sorted(machines())
    assert game.zone("machine_discard") == [] and game.zone("deployed") == []
    assert pack(game).deploy_count(game) == 4
    assert sorted(c.table("deploy")) == ["private", "recruit", "veteran"]


@pytest.mark.rule("M02")
def test_unknown_difficulty_is_refused_with_the_levels():
    c = compiled()
    with pytest.raises(Exception, match="unknown difficulty 'expert'.*private, recruit, veteran"):
        engine_for(c).new_game(c, ["Ann"], options={"difficulty": "expert"})


@pytest.mark.rule("M03")
def test_phase_order_and_assault_skipped_in_round_one():
    sc, run = run_scenario("rounds_and_deploy")
    g = run.game
    assert g.engine.phase_order(g) == ["lookout", "production", "assault", "deploy", "action", "cleanup"]
    phases = [e.text for e in g.log if e.verb == "phase"]
    assert phases[:6] == ["round 1: lookout phase", "round 1: production phase",
                          "round 1: assault phase skipped in round 1", "round 1: deploy phase",
                          "round 1: action phase", "round 1: cleanup phase"]
    assert "round 2: assault phase" in phases
    assert g.round == 3


@pytest.mark.rule("M03")
def test_without_moloch_there_is_no_assault_or_deploy():
    game, eng, _ = new_game(packs=[])
    assert eng.phase_order(game) == ["lookout", "production", "action", "cleanup"]


# Every cell of the rulebook's table (M06), written out here from the rulebook, not read from the data.
RULEBOOK_DEPLOY = {"recruit": (1, 2, 3, 4), "private": (2, 3, 4, 5), "veteran": (3, 4, 5, 6)}


@pytest.mark.rule("M06")
@pytest.mark.parametrize("level,players,n", [(lvl, k + 1, n) for lvl, row in RULEBOOK_DEPLOY.items()
                                             for k, n in enumerate(row)])
def test_deploy_table(level, players, n):
    names = ["P1", "P2", "P3", "P4"][:players]
    game, eng, _ = new_game(players=tuple(names), difficulty=level)
    assert pack(game).deploy_count(game) == n
    # and the Deploy phase really deploys that many, from a Machine deck larger than any cell
    for _ in range(8):
        game.create("leech", game.zone_key("machine_deck", None))
    eng.phase(game, "deploy")
    assert len(game.zone("deployed")) == n and len(game.zone("machine_deck")) == 8 - n


@pytest.mark.rule("M06")
def test_deploy_takes_from_the_bottom_and_reshuffles_the_discard():
    sc, run = run_scenario("deploy_reshuffle")
    g = run.game
    deployed = [g.instances[u].card_id for u in g.zone("deployed")]
    assert deployed[:2] == ["leech", "mother"]  # bottom first
    assert deployed[2] in ("shredder", "wrecker")
    assert all(g.instances[u].face == "front" for u in g.zone("deployed"))  # Machine side up
    assert not any("Hacked" in e.text for e in g.log if e.verb == "deploy")  # nobody looks at the Hacked side


@pytest.mark.rule("M02")
def test_bad_difficulty_in_a_scenario_is_a_located_diagnostic(tmp_path, runner):
    from cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("scenario: bad\ngame: fifty_first_state\nplayers: [Ann]\nsetup: true\n"
                   "options: {difficulty: expert}\nsteps:\n  - {phase: deploy}\n")
    res = runner.invoke(main, ["run", str(bad)])
    assert res.exit_code == 1
    assert ("bad.yaml:5:23: E701 cannot start the game: option 'difficulty' (Difficulty (Moloch)): 'expert' is not "
            "one of recruit, private, veteran") in res.output  # checked against game.yaml's options
    assert "Traceback" not in res.output


def test_unknown_state_pack_is_refused():
    with pytest.raises(Exception, match="unknown State Pack 'molloch'"):
        new_game(packs=["molloch"])
