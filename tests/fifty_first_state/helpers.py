"""Helpers for the 51st State tests: the REAL compiled game (generated/fifty_first_state) and
scenarios from data/fifty_first_state/scenarios, run through compiler.scenario."""
from __future__ import annotations

from pathlib import Path

from compiler.diagnostics import Diagnostics
from compiler.scenario import load_scenario
from runtime.agents import Scripted
from runtime.engine import engine_for, load_compiled

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "data" / "fifty_first_state" / "scenarios"
GAME = "fifty_first_state"


def compiled():
    return load_compiled(GAME)


def run_scenario(name: str):
    """Run a bundled scenario on the committed generated code; fail with its diagnostics."""
    diags = Diagnostics()
    sc = load_scenario(SCENARIOS / f"{name}.yaml", lambda g: load_compiled(g), diags)
    assert sc is not None, "\n".join(d.render() for d in diags.sorted())
    run = sc.run()
    assert run.ok, "\n".join(d.render() for d in run.diags.sorted()) + "\n" + run.trace()
    return sc, run


def new_game(players=("Ann", "Bob"), state: dict | None = None, answers: dict | None = None,
             round: int = 2, **options):
    """A game laid out by hand: ``state`` maps a player name (or 'game') to {zone: [card ids]} and
    'goods'. Returns (game, engine, uids) where uids maps 'card_id' (or 'card_id#n') to uid."""
    c = compiled()
    eng = engine_for(c)
    agents = {players.index(p): Scripted(a) for p, a in (answers or {}).items()}
    game = eng.new_game(c, list(players), seed=1, agents=agents, options=options, setup=False)
    game.round = round
    uids: dict[str, int] = {}
    for holder, spec in (state or {}).items():
        owner = None if holder == "game" else players.index(holder)
        for good, n in (spec.get("goods") or {}).items():
            game.players[owner].goods[good] = n
        for zone, cards in spec.items():
            if zone == "goods":
                continue
            for entry in cards:
                cid, face = (entry.split(":") + ["front"])[:2]
                inst = game.create(cid, game.zone_key(zone, owner), face, owner=owner)
                if zone == "state" and face != "ruins":
                    row = eng.row_of(game, inst.uid)
                    if row:
                        inst.props["row"] = row
                key = cid if cid not in uids else f"{cid}#{sum(k.split('#')[0] == cid for k in uids) + 1}"
                uids[key] = inst.uid
    return game, eng, uids


def pack(game, name="moloch"):
    return next(p for p in game.engine.packs(game) if p.name == name)


def run_effect(game, text: str, player: int = 0, card: int | None = None):
    """Compile an effect text through the real pipeline (parse, check, emit) and run it."""
    from compiler.explain import effect_function, explain_effect
    from runtime.model import model_of

    ex = explain_effect(text, model_of(game.vocab))
    assert not ex.diags.errors, [d.message for d in ex.diags.errors]
    return game.engine.run(game, effect_function(ex), player, card)
