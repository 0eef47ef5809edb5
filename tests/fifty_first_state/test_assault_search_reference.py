"""The fast Assault search (moloch.AssaultSearch: probes instead of copies for trials that do nothing,
trials carried from one step to the next while the step wrote nothing they read — assault_sets.py)
finds the plans of the search as it was (assault_reference.ReferenceAssaultSearch), in the same order,
with the same trial count (so the budget stops at the same point), at every Assault of seeded random
games: Moloch at each difficulty with 2 to 4 players, and both State Packs. No timing is asserted."""
from __future__ import annotations

import pytest

from runtime.games.fifty_first_state import moloch
from runtime.simulate import play_one

from runtime.tables import verbs_only

from .assault_reference import ReferenceAssaultSearch


def _plans(found):
    return [(p.steps, p.resolved, p.wanted, p.label) for p in found]


CONFIGS = [(players, (("packs", ("moloch",)), ("difficulty", level)))
           for level in ("recruit", "private", "veteran") for players in (2, 3, 4)] + \
          [(2, ()), (4, ())]  # both State Packs (the default), Recruit


@pytest.mark.rule("M04")
@pytest.mark.parametrize("players,options", CONFIGS)
def test_fast_assault_search_finds_the_reference_plans_at_every_assault(monkeypatch, players, options):
    compared = []
    fast_plans = moloch.AssaultSearch.plans

    def plans(search):
        ref = ReferenceAssaultSearch(search.engine, search.root, search.player, list(search.machines),
                                     search.budget)
        want = _plans(ref.plans())
        got = fast_plans(search)
        assert _plans(got) == want
        assert (search.trials, search.truncated) == (ref.trials, ref.truncated)
        compared.append((search.probed, search.carried, search.trials))
        return got

    monkeypatch.setattr(moloch.AssaultSearch, "plans", plans)
    for index in range(2):
        play_one(("fifty_first_state", None, players, 31, index, "random", 400, False, None, options, False))
    assert compared, "no Assault was searched"
    assert sum(p for p, _, _ in compared) > 0, "no trial was answered by a probe"
    assert sum(c for _, c, _ in compared) > 0, "no trial was carried from the step before"


def test_only_effects_that_just_call_verbs_are_probed():
    from .helpers import compiled
    cards = compiled().cards
    assaults = [rec["slots"]["assault"] for rec in cards.values() if "assault" in rec.get("slots", {})]
    assert assaults and all(verbs_only(fn) for fn in assaults)
    # a choice binds a name and may ask the player: never probed, its trial runs on a copy
    assert not verbs_only(cards["conflagrator"]["faces"]["hacked"]["slots"]["production"])
    assert not verbs_only(lambda ctx: ctx.choose(None, "t"))
