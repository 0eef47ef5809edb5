"""Specialised code for the quantities and conditions whose answer the game model fixes at build time
(issue 27 item 1).

Generated code asks the runtime's selection (``Ctx.count``, ``Ctx.test``) with a query, and the runtime
works out, on every call, whose zone a query names, whether the zone is per player, whether only another
player's may be used, whether a Good is a group… For the shapes below every one of those answers is a fact
of the game model, so the code generator writes the answer itself: "number of cards in your hand" becomes
``len(ctx.game.zones[('hand', ctx.player)])``, "number of fuel" ``ctx.game.players[ctx.player].goods['fuel']``.

What is specialised, and why each is exactly what ``Ctx`` does (runtime/context.py), so that the
reference interpreter (compiler/interpret.py) stays the one semantics; the differential test
(tests/test_differential.py) runs the generated code against it:

- **cards in one zone, no filters** (``CARD``, no filter, placed in a zone of ``you`` or of no owner
  written, or no place: the hand): ``Ctx.count`` sums the sizes of ``ref_zones(place)``; for such a
  place that is ``zone_for(place)``, whose owners are ``players_for(Who.YOU)`` = the acting player
  (unaffected players are never taken out of "you"), narrowed only by ``access: others`` — a zone
  declared so is left to the generic path, which refuses it — and keyed by ``GameState.zone_key``:
  ``(zone, player)`` for a per-player zone, ``(zone, None)`` for the game's.
- **a plain Good the acting player holds** (``GOOD``, no filter, not a group, owner ``you`` or none):
  ``Ctx.count`` sums ``goods[good]`` over ``players_for(owner)`` = the acting player (a ``Counter``:
  a Good never held reads 0).
- **"there is at least N of it"** (``Ctx.test``) for the two shapes above, N a literal amount (no
  ``per``): ``count >= N``. ``Ctx.amount`` caps N at ``max(MAX_HELD, cards in the game)``, which a literal
  (at most 999, compiler/parser.py ``MAX_LITERAL``) never reaches.

Everything else stays a call into ``Ctx``: any filter, an owner other than ``you`` (an opponent is
chosen, another player's zone asks whose, immunity narrows them), a variable, a thing (its spec, faces and
engine filter), a computed amount. Which queries were specialised is not recorded anywhere else: the
decision is this module's, and it is the same for the same query and model, so a build is deterministic.
"""
from __future__ import annotations

from runtime.model import GameModel
from runtime.refs import CARD, DEFAULT, GOOD, ZONE, Default, Every, Exactly, Query, UpToN, Who

from .parser import MAX_LITERAL  # a literal amount past it is left to Ctx.amount (which caps it)

_STATIC_AMOUNTS = (Default, Exactly, UpToN, Every)


def count_expr(q: Query, model: GameModel | None) -> str | None:
    """The Python expression of ``Ctx.count(q)`` specialised against ``model``, or None (use the call)."""
    if model is None or q.filters or q.of is not None or q.per is not None \
            or type(q.amount) not in _STATIC_AMOUNTS:  # a computed amount is computed (it may refuse)
        return None
    if q.category == CARD and q.owner is None and q.place is None:  # "number of cards": the hand
        return _zone_size(model.rules.hand, model)
    if q.category == CARD and q.owner is None and _plain_zone(q.place, model):
        return _zone_size(q.place.key, model)
    if q.category == GOOD and q.owner in (None, Who.YOU) and q.place is None and q.key in model.goods \
            and q.key not in model.good_groups:
        return f"ctx.game.players[ctx.player].goods[{q.key!r}]"
    return None


def test_expr(q: Query, model: GameModel | None) -> str | None:
    """The Python expression of ``Ctx.test(q)`` specialised against ``model``, or None (use the call)."""
    a = q.amount
    if type(a) is Default:
        need = 1
    elif type(a) is Exactly and 0 <= a.n <= MAX_LITERAL:
        need = a.n
    else:
        return None
    size = count_expr(q._with(amount=DEFAULT), model)
    return None if size is None else f"({size} >= {need})"


def _plain_zone(place: Query | None, model: GameModel) -> bool:
    """A place that names one zone by itself: the acting player's (``your hand``, or no owner written)
    or the game's, nothing else about it (``_zone_size`` then asks the model about the zone)."""
    return (place is not None and place.category == ZONE and place.owner in (None, Who.YOU)
            and not place.filters and place.of is None and place.place is None and place.per is None)


def _zone_size(zone: str, model: GameModel) -> str | None:
    """The size of ``zone`` for the acting player (or the game's), or None: a zone the model does not
    declare, or one declared ``access: others`` (the generic path refuses it)."""
    spec = model.zones.get(zone)
    if spec is None or spec.others_only:
        return None
    owner = "ctx.player" if spec.per_player else "None"
    return f"len(ctx.game.zones[({zone!r}, {owner})])"
