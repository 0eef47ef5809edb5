"""``context.face_view`` looks a card's face up only when the card has faces: it must give what the
expression it replaced gives, for every card record of the bundled games and every face name."""
from __future__ import annotations

from types import SimpleNamespace

from runtime.context import face_view
from runtime.engine import load_compiled


def _before(rec: dict, inst) -> dict:
    face = (rec.get("faces") or {}).get(inst.face)
    if not face:
        return rec
    return {**rec, **face}


def test_face_view_is_the_expression_it_replaced():
    seen_faces = 0
    for game in ("fifty_first_state", "infernal_contraption", "age_of_steam"):
        for rec in load_compiled(game).cards.values():
            names = {"front", "back", "ruins", "hacked", "", None} | set(rec.get("faces") or ())
            for name in names:
                inst = SimpleNamespace(face=name)
                got, want = face_view(rec, inst), _before(rec, inst)
                assert got == want and (got is rec) == (want is rec), (rec.get("id"), name)
                seen_faces += got is not rec
    for rec in ({}, {"faces": None}, {"faces": {}}, {"faces": {"b": {}}}, {"faces": {"b": {"x": 1}}, "x": 0}):
        for name in ("a", "b"):
            inst = SimpleNamespace(face=name)
            assert face_view(rec, inst) == _before(rec, inst)
    assert seen_faces  # some bundled card shows another face (a Hacked Machine)
