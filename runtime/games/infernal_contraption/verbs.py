"""The Infernal Contraption verbs of the effect language: scrap, take, put, repeat."""
from __future__ import annotations

from runtime.context import Ctx
from runtime.errors import Refused
from runtime.refs import CARD, THING, VAR, ZONE, Every, Query, UpToN
from runtime.verbs import AMOUNTS, Slot, verb

from .machine import is_terminal
from .state import NAME, ICGame

# _pick honours every amount ("up to" asks how many) but no filters: it takes cards as the pile or
# hand holds them (the top of a pile, at random from a hidden hand)
_OBJ = Slot((CARD, THING, VAR), required=True, amounts=frozenset(AMOUNTS), filters=frozenset())
_PILE = Slot((ZONE, VAR))


def _amount(ctx: Ctx, sel: Query) -> tuple[int, int]:
    """(most, least) to pick: "up to 3" lets the chooser pick 0..3; "all" takes every one."""
    a = sel.amount
    if isinstance(a, UpToN):
        return ctx.amount(sel), 0
    if isinstance(a, Every):
        return 10**9, 10**9
    n = ctx.amount(sel)
    return n, n


def _pick(ctx: Ctx, sel: Query, src: Query | None, verb_name: str, strict: bool, one_at_a_time: bool = False):
    """The cards a scrap/take/put takes, as much as possible (DESIGN §3), without moving them.

    - from a parts pile or the scrap pile: the top cards (I11);
    - from your own hand: you choose; from another player's hand: at random (you cannot see it);
    - from a machine: only terminals (I01), never a Power Core (I03), never the card resolving.
    Returns (zone kind, list of uids or a generator for machines, wanted)."""
    g = ctx.game
    if src is not None and sel.category != CARD:
        sel = sel.at(src)  # things are selected in the place; cards are taken from it (below)
    most, least = _amount(ctx, sel)
    if sel.category == CARD:
        place = src if src is not None else sel.place  # "… from <zone>" given to the verb wins
        zone = ctx.zone_for(place) if place is not None else (ctx.hand_zone(), ctx.player)
        cards = g.zones[zone]
        if zone[0] == "machine":
            opts = [u for u in reversed(cards) if _removable(g, u, ctx.card)]
        elif zone[0] == "hand":
            if zone[1] != ctx.player:
                # at random (nobody sees another's hand); "up to" lets you decide how many first
                k = ctx.how_many(min(most, len(cards)), min(least, len(cards)), verb_name)
                picks = g.rng.sample(cards, k) if k < len(cards) else list(reversed(cards))
                return zone, picks, most
            opts = list(reversed(cards))
        else:  # a pile: from the top; "up to" lets you decide how many first
            k = ctx.how_many(min(most, len(cards)), min(least, len(cards)), verb_name)
            return zone, list(reversed(cards[-k:])) if k > 0 else [], most
    else:
        opts = [u for u in ctx.options(sel) if isinstance(u, int) and _removable(g, u, ctx.card)]
        zone = None
    if not opts or most <= 0:
        return zone, [], most
    if least >= len(opts) and most >= len(opts):
        return zone, opts, most
    picks = ctx.ask(opts, min(most, len(opts)), low=least if least < most else None, prompt=f"{verb_name} {sel.key}")
    return zone, picks, most


def _removable(g: ICGame, uid: int, resolving: int | None) -> bool:
    z = g.where[uid]
    if z[0] != "machine":
        return True
    return uid != resolving and g.kind_of[uid] != "power_core" and is_terminal(g, uid)


def _move_all(ctx: Ctx, picks: list[int], to: tuple, owner: int | None) -> int:
    g = ctx.game
    n = 0
    for uid in picks:
        z = g.where[uid]
        if z[0] == "machine" and not _removable(g, uid, ctx.card):
            continue  # an earlier pick changed the machine: stays (as much as possible)
        g.move(uid, to)
        if owner is not None:
            g.instances[uid].owner = owner
        n += 1
    return n


def _strict_check(picks, most, verb_name, strict):
    if strict and len(picks) < most:
        raise Refused(f"cannot {verb_name} {most}: only {len(picks)} available")


@verb("scrap", template="scrap {obj}[ from {from}]", example="scrap 2 cards from opponent's parts pile",
      obj=_OBJ, phrases={"from": _PILE}, engine=NAME)
def scrap(ctx, objs, ph, strict):
    """Put cards face up on top of the scrap pile (I11): from your hand (you choose), another player's
    hand (at random), the top of a parts pile, or terminals of a machine (never a Power Core)."""
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "scrap", strict)
    _strict_check(picks, most, "scrap", strict)
    if zone is None and picks:
        zone = ctx.game.where[picks[0]]
    n = _move_all(ctx, picks, ("scrap", None), None)
    g = ctx.game
    if g.tracing:
        src = f" from {g.zone_words(zone, ctx.player)}" if zone else ""
        g.emit("scrap", ctx.player, f"scraps {n} card{'s' if n != 1 else ''}{src}", n=n)


@verb("take", template="take {obj} from {from}", example="take 1 card from opponent's hand",
      obj=_OBJ, phrases={"from": Slot((ZONE, VAR), required=True)}, engine=NAME)
def take(ctx, objs, ph, strict):
    """Put cards into your hand: the top of a pile (I11), or at random from another player's hand."""
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "take", strict)
    _strict_check(picks, most, "take", strict)
    if zone is None and picks:
        zone = ctx.game.where[picks[0]]
    n = _move_all(ctx, picks, ("hand", ctx.player), ctx.player)
    g = ctx.game
    if g.tracing:
        g.emit("take", ctx.player, f"takes {n} card{'s' if n != 1 else ''} from "
               f"{g.zone_words(zone, ctx.player) if zone else 'play'}", n=n)


@verb("put", template="put {obj}[ from {from}] onto {onto}", example="put 2 cards from your hand onto your parts pile",
      obj=_OBJ, phrases={"from": _PILE, "onto": Slot((ZONE, VAR), required=True)}, engine=NAME)
def put(ctx, objs, ph, strict):
    """Put cards on top of a pile (a parts pile or the scrap pile)."""
    dest = ctx.zone_for(ph["onto"])
    if dest[0] not in ("parts_pile", "scrap"):
        raise Refused("cards are put onto a parts pile or the scrap pile")
    zone, picks, most = _pick(ctx, objs[0], ph.get("from"), "put", strict)
    _strict_check(picks, most, "put", strict)
    n = _move_all(ctx, picks, dest, dest[1])
    g = ctx.game
    if g.tracing:
        g.emit("put", ctx.player, f"puts {n} card{'s' if n != 1 else ''} onto {g.zone_words(dest, ctx.player)}", n=n)


@verb("repeat", template="repeat the effect of the Contraption it is attached to", example="repeat",
      engine=NAME)
def repeat(ctx, objs, ph, strict):
    """An Upgrade's modification: the attached Contraption's effect happens once more (its
    requirement was met already; its Upgrades do not apply again)."""
    c = ctx.bindings.get("_contraption")
    if c is None:
        return  # not resolving as an Upgrade: nothing to repeat
    g = ctx.game
    fn = g.cards[g.instances[c].card_id]["slots"].get("effect")
    if fn is not None:
        g.emit("repeat", ctx.player, f"repeats {ctx.engine.name_of(g, c)}")
        ctx.engine.run(g, fn, ctx.player, c, ctx.opponent)

