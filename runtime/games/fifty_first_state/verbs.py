"""Verbs of the 51st State effect language (registered for the ``fifty_first_state`` engine only).

``gain`` and ``discard`` replace the core verbs for this game: gaining a Good group ("1 resource")
asks which, gaining a Card draws it, "gain goods of target" produces another Location's Goods (M17);
a discarded card goes where the State Packs' hooks say (a Hacked card to the Machine discard
pile, M12). ``raze``, ``block`` and ``store`` are new.

Targeted verbs (``raze``, ``discard``) pick their cards through ``pick_targets``: normally the
acting player's agent chooses; during an Assault the efficient assignment decides (M04, see
``moloch.AssaultPlan``).
"""
from __future__ import annotations

from collections import Counter
from functools import partial

from runtime.context import MAX_HELD, Ctx, face_view
from runtime.errors import Refused
from runtime.events import GoodsGained, Razed
from runtime.refs import CARD, GOOD, MANY, PLAYER, THING, VAR, ZONE, Every, Exactly, Query, UpToN
from runtime.statecopy import counter
from runtime.verbs import AMOUNTS, Slot, verb

E = "fifty_first_state"


# pick_targets (and the core draw for card sources) honours every amount: "up to" asks, "all" takes all
_PICKED = frozenset(AMOUNTS)


def pick_targets(ctx: Ctx, sel: Query, verb_name: str, strict: bool) -> list[int]:
    """The cards a targeted verb acts on. Costs (``strict``) need them all or refuse first."""
    trial = ctx.game.assault
    if trial is not None and ctx.card is not None:
        return trial.targets(ctx, sel, verb_name)
    options = ctx.options(sel)
    if sel.category == VAR or isinstance(sel.amount, Every):
        return options
    if isinstance(sel.amount, UpToN):
        return ctx.ask(options, sel.amount.n, low=0, prompt=f"{verb_name} up to {sel.amount.n} {sel.key}")
    n = ctx.amount(sel)
    if strict and len(options) < n:
        raise Refused(f"not enough {sel.key.replace('_', ' ')} to {verb_name} (needs {n}, has {len(options)})")
    return ctx.ask(options, min(n, len(options)), prompt=f"{verb_name} {sel.key}")


def give_goods(ctx: Ctx, player: int, good: str, n: int) -> None:
    """``player`` gains ``n`` of ``good`` (a group asks which; a Card is drawn from the Deck)."""
    g = ctx.game
    groups = g.model.good_groups
    if n <= 0:
        return
    if good in groups:
        asker = Ctx(g, player, ctx.card, ctx.opponent)
        for _ in range(n):
            pick = asker.ask(sorted(groups[good]), 1, prompt=f"choose a {good}")[0]
            give_goods(ctx, player, pick, 1)
        return
    if good == "card":
        Ctx(g, player, ctx.card, ctx.opponent).draw_cards(Query(CARD, "card", amount=Exactly(n)), None, strict=False)
        return
    n = min(n, max(0, MAX_HELD - g.players[player].goods[good]))  # what a player can hold (context.py)
    g.players[player].goods[good] += n
    if g.tracing:
        g.tell(GoodsGained(player, good=good, n=n))


@verb("gain", template="gain {obj}[ instead of {instead of}]", example="choose enemy production location without feature as target; gain goods of target instead of target's owner",
      obj=Slot((GOOD, THING), required=True, many=True, refs=frozenset({"of"})),
      # "instead of <the Location's owner>": the only player the diversion can name (M17)
      phrases={"instead of": Slot((PLAYER, VAR), owners=frozenset({"chosen"}))}, engine=E)
def gain(ctx, objs, ph, strict):
    """Gain Goods. "1 resource" lets you choose which; a Card is drawn from the Deck. "goods of
    <Location>" gains what that Location's Production provides, counted in its owner's State
    (M17); with "instead of <its owner>" the owner does not get it this round. "1 ruins" gains a
    Ruins (M11)."""
    g = ctx.game
    for sel in objs:
        if sel.category == THING:
            if sel.key != "ruins":
                raise Refused(f"cannot gain {sel.key}: only Goods and Ruins are gained")
            for _ in range(ctx.amount(sel)):  # M11: a card from the Deck, face down in the State
                g.engine.gain_ruins(g, g.gain_to.get(ctx.player, ctx.player))
            continue
        if sel.key in ("goods", "good") and sel.of is not None:
            for uid in ctx.options(sel.of):
                produce_for(ctx, uid, diverted="instead of" in ph)
            continue
        recipient = g.gain_to.get(ctx.player, ctx.player)
        give_goods(ctx, recipient, ctx.good_of(sel), ctx.amount(sel))


def produce_for(ctx: Ctx, uid: int, diverted: bool) -> None:
    """Run Location ``uid``'s Production as its owner would (counting in the owner's State,
    M17), but the Goods go to the acting player."""
    g = ctx.game
    inst = g.instances[uid]
    owner = inst.owner if inst.owner is not None else g.where[uid][1]
    rec = face_view(g.record(uid), inst)
    fn = rec.get("slots", {}).get("production")
    name = g.engine.name_of(g, uid)
    if fn is None or inst.face == "ruins":
        g.emit("gain", ctx.player, f"{name} provides nothing")
        return
    g.emit("divert" if diverted else "copy", ctx.player,
           f"takes the Production of {name} ({g.players[owner].name})" + (" instead of its owner" if diverted else ""))
    if diverted:
        inst.props["diverted_round"] = g.round
    saved = dict(g.gain_to)
    g.gain_to = {**saved, owner: ctx.player}
    try:
        fn(Ctx(g, owner, uid, ctx.opponent))
    finally:
        g.gain_to = saved


def _price(ctx: Ctx, objs) -> tuple:
    """What paying ``objs`` asks: (Goods by name, cards from hand, [(Good group, n)] to choose, units)."""
    groups = ctx.game.model.good_groups
    need: Counter = counter({})  # an empty Counter, without Counter.__init__'s call of update
    cards = 0
    picks = []
    wanted = 0
    for sel in objs:
        good, n = ctx.good_of(sel), ctx.amount(sel)
        wanted += n
        if good == "card":
            cards += n
        elif good in groups:
            picks.append((good, n))
        else:
            need[good] += n
    return need, cards, picks, wanted


def paid_with_first_choices(ctx: Ctx, objs) -> bool | None:
    """Whether ``spend`` of ``objs`` as a cost is paid in full when each Good group it names ("1
    resource") takes the first Good offered — ``pay``'s own choices, made as an Action's first trial
    makes them (turn.py ``Explorer``) —, read without changing anything. False: refused whatever is
    chosen (a named Good or cards missing, or a group with nothing to offer before any real choice);
    None: refused with these choices, another might pay (only a trial says)."""
    groups = ctx.game.model.good_groups
    me = ctx.game.players[ctx.player]
    need, cards, picks, _ = _price(ctx, objs)
    hand = ctx.game.zones[ctx.game.zone_key(ctx.hand_zone(), ctx.player)]
    # a pick only takes a Good held beyond what is already needed: it never makes a named Good short
    if any(me.goods[k] < n for k, n in need.items()) or cards > sum(1 for u in hand if u != ctx.card):
        return False
    chose = False  # a choice among several Goods was made (another could leave the next one something)
    for group, n in picks:
        for _ in range(n):
            options = [m for m in sorted(groups[group]) if me.goods[m] - need[m] > 0]
            if not options:
                return None if chose else False
            chose = chose or len(options) > 1
            need[options[0]] += 1
    return True


def pay(ctx: Ctx, objs, strict: bool, verb_name: str) -> None:
    """Pay Goods: a Good group ("1 resource") asks which of the Goods you have; a Card is
    discarded from hand (S09: "spent from your hand"). ``strict`` (a cost): all or refuse first."""
    g = ctx.game
    me = g.players[ctx.player]
    groups = g.model.good_groups
    need, cards, picks, wanted = _price(ctx, objs)
    for group, n in picks:
        for _ in range(n):
            options = [m for m in sorted(groups[group]) if me.goods[m] - need[m] > 0]
            if not options:
                if strict:
                    raise Refused(f"not enough {group} to {verb_name}")
                break
            need[ctx.ask(options, 1, prompt=f"which {group} to {verb_name}")[0]] += 1
    hand = g.zone_key(ctx.hand_zone(), ctx.player)
    # the card being played (a Connection card still in hand, S05) cannot pay for itself
    in_hand = [u for u in reversed(g.zones[hand]) if u != ctx.card]
    if strict:
        short = {k: n - me.goods[k] for k, n in need.items() if me.goods[k] < n}
        if short or cards > len(in_hand):
            parts = [f"{k.replace('_', ' ')} (needs {need[k]}, has {me.goods[k]})" for k in sorted(short)]
            if cards > len(in_hand):
                parts.append(f"cards in hand (needs {cards}, has {len(in_hand)})")
            raise Refused("not enough " + ", ".join(parts))
    if g.assault is not None and ctx.card is not None:  # M04: an Assault's probe stops here if nothing is lost
        g.assault.paying(ctx, verb_name, wanted, sum(min(n, me.goods[k]) for k, n in need.items())
                         + min(cards, len(in_hand)))
    got = 0
    for k in sorted(need):
        n = min(need[k], me.goods[k])
        me.goods[k] -= n
        got += n
        if g.tracing:  # words only for a trace (an Assault trial's "lose" runs untraced)
            g.emit("spend" if verb_name != "lose" else "lose", ctx.player,
                   f"{'loses' if verb_name == 'lose' else 'pays'} {n} {k}", good=k, n=n)
    if cards:
        options = in_hand
        for uid in ctx.ask(options, min(cards, len(options)), prompt=f"cards to {verb_name}"):
            g.engine.discard_card(g, uid, ctx.player)
            got += 1
    if g.assault is not None and ctx.card is not None:  # M04: how much of an Assault's loss resolved
        g.assault.paid(ctx, verb_name, wanted, got)


@verb("spend", template="spend {obj}", example="spend 1 resource, 1 card: gain 1 vp",
      obj=Slot((GOOD,), required=True, many=True), engine=E)
def spend(ctx, objs, ph, strict):
    """Pay Goods to the supply; "1 resource" lets you choose which; a Card is discarded from hand.
    As a cost (before ':') all of it must be paid or nothing is."""
    pay(ctx, objs, True, "spend")


@verb("lose", template="lose {obj}", example="lose 2 vp per deployed machine",
      obj=Slot((GOOD,), required=True, many=True), engine=E)
def lose(ctx, objs, ph, strict):
    """Lose Goods (a Card: discard one from hand), as many as the player has (never below zero)."""
    pay(ctx, objs, strict, "lose")


@verb("discard", template="discard {obj}[ from {from}]", example="discard 1 card from your hand",
      obj=Slot((CARD, THING, VAR), required=True, amounts=_PICKED), phrases={"from": Slot((ZONE, VAR))}, engine=E)
def discard(ctx, objs, ph, strict):
    """Discard cards (from your hand, or Deals/Locations of yours); each goes where the State
    Packs say (a Hacked card to the Machine discard pile, M12)."""
    sel = objs[0]
    if ph.get("from") is not None:
        sel = sel.at(ph["from"])
    g = ctx.game
    for uid in pick_targets(ctx, sel, "discard", strict):
        owner = g.where[uid][1] if g.where[uid][1] is not None else ctx.player
        if g.where[uid][0] == "state":
            g.engine.leave_state(g, uid, "removed from the State")
        g.engine.discard_card(g, uid, owner)


@verb("draw", template="draw {obj}[ from {from}]", example="draw 1 symbol card",
      obj=Slot((CARD, THING, VAR), required=True, amounts=_PICKED), phrases={"from": Slot((ZONE, VAR))}, engine=E)
def draw(ctx, objs, ph, strict):
    """Take cards into your hand: from the Deck; "1 hacked" from the bottom of the Machine deck
    (M13); "1 symbol card" — the top card of another player's Personal Discard pile (Scavengers
    S08; you choose whose, never your own). From "another player's <pile>" you choose among the
    piles that have cards."""
    g = ctx.game
    sel = objs[0]
    if sel.category in (THING, VAR):
        picks = pick_targets(ctx, sel, "draw", strict)
        hand = g.zone_key(ctx.hand_zone(), ctx.player)
        for uid in picks:
            frm = g.where[uid]
            g.move(uid, hand)
            g.instances[uid].owner = ctx.player
            g.instances[uid].props.pop("row", None)
            pile = g.model.zone_name(frm[0])
            g.emit("draw", ctx.player, f"draws {g.engine.name_of(g, uid)} from the {pile}"
                   + (f" of {g.players[frm[1]].name}" if frm[1] is not None else ""), n=1)
        if not picks:
            g.emit("draw", ctx.player, f"draws nothing: there is no {sel.key}", n=0)
        return
    src = ph.get("from")
    if src is not None and src.category == ZONE and src.owner in MANY:
        zones = [z for z in ctx.ref_zones(src) if g.zones[z]]
        pile = g.model.zone_name(src.key)
        if not zones:
            if strict:
                raise Refused(f"every {pile} you may draw from is empty")
            g.emit("draw", ctx.player, f"draws nothing: every {pile} you may draw from is empty", n=0)
            return
        pick = ctx.ask(zones, 1, prompt=f"choose whose {pile}")[0]
        ctx.bind("__pile", ("zone", pick))
        src = Query(VAR, "__pile")
    ctx.draw_cards(sel, src, strict=strict)


@verb("place", template="place {obj} on {on}", example="for each up to 3 of your ruins as r: place 1 resource on r",
      obj=Slot((GOOD,), required=True, many=True), phrases={"on": Slot((THING, VAR), required=True)}, engine=E)
def place(ctx, objs, ph, strict):
    """Place Goods from the general supply on a card; "1 resource" lets you choose which (each
    may differ: Pony Express, S13)."""
    g = ctx.game
    uid = ctx.one_card(ph["on"])
    groups = g.model.good_groups
    for sel in objs:
        good, n = ctx.good_of(sel), ctx.amount(sel)
        if good not in groups:
            ctx.place_goods(sel, uid)
            continue
        for _ in range(n):
            pick = ctx.ask(sorted(groups[good]), 1, prompt=f"choose a {good} to place")[0]
            ctx.place_goods(Query(GOOD, pick, amount=Exactly(1)), uid)


@verb("rebuild", template="rebuild {obj}", example="rebuild 1 of your ruins",
      obj=Slot((THING, VAR), required=True, amounts=_PICKED), engine=E)
def rebuild(ctx, objs, ph, strict):
    """Rebuild Ruins: each flips face up and is a Location again, in the row its type requires;
    a Production Location produces at once (Scavengers S12)."""
    g = ctx.game
    for uid in pick_targets(ctx, objs[0], "rebuild", strict):
        g.engine.rebuild_ruins(g, uid, ctx.player)


@verb("raze", template="raze {obj}", example="raze 1 of your locations with icon green or worker",
      obj=Slot((THING, VAR), required=True, amounts=_PICKED), engine=E)
def raze(ctx, objs, ph, strict):
    """Raze Locations: each flips to its Ruins side and its owner gains its Deal Goods (M05); a
    Hacked card goes to the Machine discard pile and its owner gains a Ruins (M12)."""
    g = ctx.game
    picks = pick_targets(ctx, objs[0], "raze", strict)
    if not picks:  # nothing to raze: no name to make (an Assault search asks this thousands of times)
        return
    by = None  # the razer's name is only for the trace's words (``raze_location`` writes none untraced)
    if g.tracing:
        by = g.engine.name_of(g, ctx.card) if ctx.card is not None else g.players[ctx.player].name
    for uid in picks:
        g.engine.raze_location(g, uid, by=by)
        ctx.publish_card(Razed, uid)  # "the first time each turn you raze a location"


@verb("block", template="block {obj}[ until {until}]", example="block 1 of your faction actions with icon action until cleanup",
      obj=Slot((THING, VAR), required=True, amounts=_PICKED), engine=E, phrases={"until": Slot(("phase",))})
def block(ctx, objs, ph, strict):
    """Put a marker on Faction board Actions: they cannot be used while it is there; "until
    <phase>" removes it in that phase (the Conflagrator's gear, M18). Without "until" the marker
    stays (Appallach Federation's optional marker, M19)."""
    g = ctx.game
    picks = pick_targets(ctx, objs[0], "block", strict)
    if not picks:  # nothing to block: no marker to name
        return
    source = g.engine.name_of(g, ctx.card) if ctx.card is not None else "a card"
    until = ph.get("until")
    label = f"marker from {source}" + (f" until {until.name}" if until else "")
    for uid in picks:
        marks = list(g.instances[uid].props.get("blocked") or [])
        marks.append(label)
        g.instances[uid].props["blocked"] = marks
        if g.tracing:  # the label above is state (the marker); these words only a trace's
            g.emit("block", ctx.player, f"{g.engine.name_of(g, uid)} is blocked ({label})")
        if until is not None:
            # a partial over a module function, not a closure: a copy of the game keeps it working
            g.until.append((until.name, partial(unblock, uid=uid, label=label)))


def unblock(game, uid: int, label: str) -> None:
    """Remove the marker ``label`` from card ``uid`` (the end of a ``block … until <phase>``)."""
    left = [m for m in game.instances[uid].props.get("blocked") or [] if m != label]
    if left:
        game.instances[uid].props["blocked"] = left
    else:
        game.instances[uid].props.pop("blocked", None)
    game.emit("unblock", game.instances[uid].owner,
              f"{game.engine.name_of(game, uid)} is available again ({label} removed)")


@verb("store", template="store {obj} on this card", example="spend 1 worker: store 1 iron and store 1 red contact",
      obj=Slot((GOOD,), required=True, many=True), engine=E)
def store(ctx, objs, ph, strict):
    """Place Goods from the supply on the card whose effect this is (a Location that holds Goods
    only for Hacking/Destroying, M14)."""
    if ctx.card is None:
        raise Refused("'store' needs a card to store the Goods on")
    for sel in objs:
        ctx.place_goods(sel, ctx.card)


_ = (THING,)
