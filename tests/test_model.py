"""The typed game model (runtime/model.py, issue 22): what a vocabulary declares, read once, and the
one home of the rules the checker, the English and the runtime all ask."""
from __future__ import annotations

import copy
import pickle

import pytest

from runtime.engine import load_compiled
from runtime.model import build_model, model_of

VOCAB = {
    "game": "g", "name": "G", "engine": "core",
    "goods": {"coin": {"name": "Coin"}, "debt": {"signed": True}},
    "zones": {"hand": {"per": "player"}, "pile": {"per": "player", "access": "others", "name": "Pile"},
              "supply": {"per": "game", "piles": "card"}, "deck": {"per": "player", "hidden": True}},
    "things": {"cheap card": {"zones": ["hand"], "where": {"cost": [0, 2]}},
               "loot": {"zones": ["pile"]}, "shop card": {"zones": ["supply"], "per": "game"}},
    "icons": {"gold": {"good": "coin"}, "star": {}},
    "good_groups": {"money": ["debt", "coin"]},
    "card_sources": {"scrap": {"zone": "pile", "end": "bottom"}},
    "rules": {"hand": "hand", "trash_to": "pile", "reshuffle": {"deck": "pile"}},
    "phases": ["buy", {"id": "war", "name": "War", "skip_in_round": [1]}],
    "card_kinds": {"thing": {"slots": {"react": {"kind": "trigger", "listens_in": ["hand"]}, "play": {}}}},
}


def test_the_model_reads_every_section_typed():
    m = build_model(VOCAB)
    assert m.goods["debt"].signed and not m.goods["coin"].signed and m.signed_goods == {"debt"}
    assert m.zones["supply"].card_piles and not m.zones["supply"].per_player and m.zones["deck"].hidden
    assert m.things["cheap card"].where == (("cost", (0, 2)),)  # a list of values: any of them
    assert m.icons["gold"].good == "coin" and m.icons["star"].good is None
    assert m.good_groups["money"] == ("coin", "debt")
    assert m.card_sources["scrap"].bottom and m.rules.trash_to == "pile" and m.rules.discard_to == "discard"
    assert dict(m.rules.reshuffle) == {"deck": "pile"}
    assert [(p.key, p.name, sorted(p.skip_in_round)) for p in m.phases] == [("buy", "buy", []), ("war", "War", [1])]
    assert [(s.key, s.kind, s.listens_in) for s in m.kinds["thing"].slots] == [("react", "trigger", ("hand",)),
                                                                           ("play", "effect", None)]


def test_only_another_players_pile_has_one_home():
    m = build_model(VOCAB)
    assert m.others_only("zone", "pile") and not m.others_only("zone", "hand")
    assert m.others_only("thing", "loot")        # it selects from such a zone
    assert m.others_only("card", "scrap")        # a card source that draws from it


def test_the_nouns_an_effect_may_use_are_the_models():
    # the one index the checker, the English and the language server read (no second builder)
    m = build_model({**VOCAB, "players": {"left_neighbour": {"aliases": ["left"]}},
                     "zones": {**VOCAB["zones"], "hand": {"per": "player", "aliases": ["grip"]}}})
    assert m.lookup("coins") == (("good", "coin"),)            # a plural is derived ...
    assert "coins" not in m.written_names and "coin" in m.written_names  # ... and not offered
    assert m.lookup("grip") == (("zone", "hand"),) and "grip" in m.written_names
    assert m.lookup("supply piles") == (("pile", "supply"),)
    assert m.lookup("empty supply pile") == (("pile", "empty:supply"),)
    assert m.lookup("money") == (("good", "money"),) and m.lookup("scrap") == (("card", "scrap"),)
    assert m.lookup("war") == (("phase", "war"),) and m.lookup("left neighbour") == (("player", "left_neighbour"),)
    assert ("player", "you") in m.lookup("you") and m.lookup("nothing here") == ()
    assert m.names_in("phase") == ["buy", "war"]


def test_card_kinds_are_typed_with_their_faces_and_fields():
    m = build_model({**VOCAB, "card_kinds": {"machine": {
        "name": "Machine", "colour": "#6b3a2a", "min_font_size": 6,
        "slots": {"assault": {"name": "Assault"}}, "fields": {"defense": "int", "code": "goods",
                                                              "cost": {"type": "integer", "title": "Cost"}},
        "required": ["defense"],
        "faces": {"hacked": {"name": "Hacked side", "slots": {"action": {"kind": "effect"}}, "fields": {"icons": "icons"}}}}}})
    k = m.kinds["machine"]
    assert (k.declared, k.colour, k.min_font_size, k.required) == ("Machine", "#6b3a2a", 6.0, ("defense",))
    assert [f.key for f in k.fields] == ["defense", "code", "cost"] and k.field("cost").title == "Cost"
    assert m.numeric_fields == {"defense", "cost"} and {"defense", "code", "assault"} <= m.field_names
    assert k.face("hacked").declared == "Hacked side" and k.face("hacked").slots[0].key == "action"
    assert k.slot("assault").declared == "Assault" and k.slot("nope") is None and m.slot_keys == ("assault",)


def test_a_thing_without_an_owner_is_yours_only_in_your_own_zones():
    m = build_model(VOCAB)
    assert m.yours_by_default("cheap card")
    assert not m.yours_by_default("loot") and not m.yours_by_default("shop card")


@pytest.mark.parametrize("bad", [{"zones": ["hand"]}, {"things": {"x": {"zones": "hand", "kinds": 3}}},
                                 {"rules": {"reshuffle": "discard", "in_play": "play"}}, {"phases": [{"nid": 1}, 7]},
                                 {"card_kinds": {"k": {"slots": ["play"]}}}, {"tables": []}])
def test_a_vocabulary_that_has_not_passed_validation_reads_as_absent_not_a_crash(bad):
    m = build_model({"game": "g", **bad})  # the language server reads game.yaml before it validates
    assert m.game == "g"


def test_one_model_per_compiled_game_shared_by_copies_and_pickles():
    compiled = load_compiled("fifty_first_state")
    m = model_of(compiled.vocab)
    assert model_of(compiled.vocab) is m
    assert copy.deepcopy(m) is m and pickle.loads(pickle.dumps(m)) == m


def test_how_entries_are_printed_is_in_the_model():
    m = build_model({**VOCAB, "goods": {"vp": {"name": "Victory Point", "aliases": ["victory points"],
                                               "plural": "Victory Points"}},
                     "players": {"neighbour": {"name": "Neighbour"}}, "card_flags": {"unique": {}}})
    assert m.printed("good", "vp").declared == "Victory Point" and m.printed("good", "vp").aliases == ("victory points",)
    assert m.printed("good", "vp").plural == "Victory Points" and m.printed("zone", "hand").declared is None
    assert m.printed("zone", "nowhere") is None and m.printed("phase", "buy") is None
    assert m.players["neighbour"].declared == "Neighbour" and m.card_flags == ("unique",)
    assert [p.declared for p in m.phases] == [None, "War"]
