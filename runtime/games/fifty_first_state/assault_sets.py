"""What a Machine's Assault trial reads and writes, so that the Assault search (moloch.py, M04) can
carry a trial's answer from one step of its search to the next instead of running it again.

The search tries every remaining Machine from every state it reaches. After Machine B resolved,
Machine A's trial from the new state is the trial it had from the state before B whenever B wrote
nothing A's trial reads: the same choice points, targets, units and words, and the same changes
(the things A writes are things it reads — a Raze reads the Location it flips, a discard appends to
a pile it then holds — so B left them as they were). Then the search needs no copy and no run to
know A's outcome there, nor the fingerprint of the state after it (the old state's fingerprint
patched with what A changed, ``FingerprintPatch``) — and most such states were reached before by
the other order, so the search stops there without ever building them.

- **Reads** (``Touches``; ``EffectReads``, then a variant's own) come from the effect's statements:
  an effect the compiler marks ``verbs_only`` (runtime/tables.py: it only calls verbs on constant
  selectors, the fact carried from its IR) is run once against ``StatementRecorder``, which lists its
  calls without running a verb. A call of ``raze``, ``discard`` or ``block`` reads the zones its
  selector lists candidates from (``Ctx.thing_zones``, the listing's own rule) — their contents and
  order —, the candidates its trial listed (``AssaultTrial.listed``: faces, Goods, props) and, of
  every other card there, only whether it passes the selector (a card another step wrote is tested
  again on that step's state, ``passes``); ``lose`` reads the Goods it loses (the hand, for cards); a
  ``per`` count reads every card of its zones; every trial reads its Machine's own card; a Raze also
  reads what the razed Locations' Deals read (``gain``s of named Goods: what is held, capped; a Card
  drawn: the Deck's order and top cards, the hand it goes to) and, for a Hacked card, the Ruins
  taken from the top of the Deck (``deal_reads``). What a trial writes it reads too (an append to a
  pile depends on the pile). Anything else — another verb, a filter or amount that reads beyond the
  card (a cost change, a bound name), a selector of another player, a Good group (it asks), a trial
  that takes more cards from the Deck than it holds (the refill shuffles with the game's generator),
  a game whose cards listen to events — reads *everything*: never carried over. That is partial on
  purpose: every bundled Assault is known, but a Raze that may empty the Deck is tried again at
  every step.
- **Writes** are observed, not declared (``trial_writes``): the zones and players' Goods the trial's
  copy holds otherwise than the state it was copied from, and every card the copy looked up for
  writing (the copy-on-write ``Instances`` keeps exactly those) — a superset of what it wrote.

tests/fifty_first_state/test_assault_sets.py holds the reads to what trials really read (each bundled
Assault's variants at every Assault of seeded games, run again on the state changed at random outside
its reads, give the same answer and the patched fingerprint); test_assault_search_reference.py holds
the search to the reference search's plans, order and trial count; and the search itself checks
every carried state it goes on from (``AssaultSearch.made``: a mismatch is an error, not a guess).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from runtime.context import COST_FIELD, Ctx, face_view
from runtime.refs import (
    CARD,
    GOOD,
    THING,
    Default,
    Every,
    Exactly,
    FieldCompare,
    HasField,
    HasIcon,
    Not,
    UpToN,
    Who,
)
from runtime.statecopy import Instances, peek
from runtime.tables import verbs_only

# verbs whose reads this module knows (what they read besides their selector: see ``call_reads``)
KNOWN_VERBS = frozenset({"raze", "discard", "block", "lose"})


@dataclass(frozen=True)
class Touches:
    """Parts of a game state: zones (zone keys), cards (uids: face, Goods, props), players' Goods
    ((seat, Good)); ``everything``: any part at all."""

    zones: frozenset = frozenset()
    cards: frozenset = frozenset()
    goods: frozenset = frozenset()
    everything: bool = False

    def meets(self, other: Touches) -> bool:
        if self.everything or other.everything:
            return True
        return not (self.zones.isdisjoint(other.zones) and self.cards.isdisjoint(other.cards)
                    and self.goods.isdisjoint(other.goods))

    def __or__(self, other: Touches) -> Touches:
        if self.everything or other.everything:
            return EVERYTHING
        return Touches(self.zones | other.zones, self.cards | other.cards, self.goods | other.goods)


EVERYTHING = Touches(everything=True)
NOTHING = Touches()


class StatementRecorder(Ctx):
    """A context that lists the verb calls of an effect instead of running them. Only for effects
    the compiler marks ``verbs_only``: they do nothing else, so the list is all they do."""

    def __init__(self, game, player: int, card: int | None = None):
        super().__init__(game, player, card)
        self.calls: list[tuple] = []

    def call(self, name: str, objs: tuple = (), ph: dict | None = None, strict: bool = False):
        self.calls.append((name, objs, ph or {}))
        return []


def statements(fn, game, player: int, card: int | None) -> list[tuple] | None:
    """The (verb, selectors, phrases) an effect calls, in order; None when it is not ``verbs_only``."""
    if not verbs_only(fn):
        return None
    rec = StatementRecorder(game, player, card)
    fn(rec)
    return rec.calls


def _filters_local(filters) -> bool:
    """Whether every filter reads only the card it tests (its record, face, props) — not a bound
    name or this turn's cost changes."""
    for f in filters:
        t = type(f)
        if t is HasIcon or t is HasField:
            continue
        if t is Not and _filters_local((f.filter,)):
            continue
        if t is FieldCompare and f.key is None and f.field != COST_FIELD:
            continue
        return False
    return True


def _mine(owner) -> bool:
    return owner is None or owner is Who.YOU


def listing_zones(ctx: Ctx, sel) -> list | None:
    """The zones ``sel``'s candidates are listed from, when the listing reads nothing but those zones
    and each card's own record, face and props; None when it may read more. Its ``per`` not included."""
    if sel.filters and not _filters_local(sel.filters):
        return None
    if type(sel.amount) not in (Exactly, UpToN, Every, Default):
        return None
    if sel.category == THING:
        spec = ctx.game.model.things.get(sel.key)
        if spec is None or spec.engine_filter is not None or not _mine(sel.owner) or sel.of is not None:
            return None
        if sel.place is not None and not _mine(sel.place.owner):
            return None
        return ctx.thing_zones(sel)
    if sel.category == CARD:
        if sel.place is not None:
            return ctx.ref_zones(sel.place) if _mine(sel.place.owner) else None
        return [ctx.game.zone_key(ctx.hand_zone(), ctx.player)]
    return [] if sel.category == GOOD else None


def _per_zones(ctx: Ctx, sel) -> list | None:
    """The zones a ``per`` count of ``sel`` reads, every card in them (its candidates are not kept)."""
    if sel.per is None:
        return []
    zones = listing_zones(ctx, sel.per)
    more = _per_zones(ctx, sel.per) if zones is not None else None
    return None if more is None else zones + more


@dataclass(frozen=True)
class EffectReads:
    """What an Assault effect's statements read (``effect_reads``), besides what it writes (observed)
    and the Deals of the Locations it razes (``deal_reads``): the zones it reads — their contents and
    order —; in ``plain`` zones every card; in each ``listings`` selector's zones its candidates
    (the trial keeps them, ``AssaultTrial.listed``) and whether each other card passes the selector
    (``passes``: a card written elsewhere may pass it now); players' Goods; the Machine's own card."""

    zones: frozenset
    plain: frozenset
    listings: tuple   # ((selector, its zones), …)
    goods: frozenset
    machine: int

    def at(self, game, listed=()) -> Touches:
        """These reads on ``game``, with the candidates its trial listed."""
        held = game.zones
        cards = {self.machine}
        for z in self.plain:
            cards.update(held.get(z, ()))
        for options in listed:
            cards.update(options)
        return Touches(self.zones, frozenset(cards), self.goods)


def call_reads(ctx: Ctx, name: str, objs: tuple, ph: dict) -> tuple[set, list, set] | None:
    """(plain zones, listings, players' Goods) one verb call of an Assault reads (``EffectReads``);
    None: it may read anything."""
    if name not in KNOWN_VERBS:
        return None
    g = ctx.game
    plain: set = set()
    goods: set = set()
    if name == "lose":
        for sel in objs:
            if sel.category != GOOD:
                return None
            good = ctx.good_of(sel)
            if good in g.model.good_groups:
                return None  # "lose 1 resource" asks which
            if good == "card":  # paid from the hand
                plain.add(g.zone_key(ctx.hand_zone(), ctx.player))
            else:
                goods.add((ctx.player, good))
            more = _per_zones(ctx, sel)
            if more is None:
                return None
            plain.update(more)
        return plain, [], goods
    sel = objs[0]
    if name == "discard" and ph.get("from") is not None:
        sel = sel.at(ph["from"])
    if sel.category not in (THING, CARD) or (name != "discard" and ph.get("from") is not None):
        return None
    zones, more = listing_zones(ctx, sel), _per_zones(ctx, sel)
    if zones is None or more is None:
        return None
    plain.update(more)
    if sel.category == CARD and not sel.filters:  # every card of the zone is a candidate
        plain.update(zones)
        return plain, [], goods
    return plain, [(sel, frozenset(zones))], goods


def effect_reads(game, fn, player: int, machine: int) -> EffectReads | None:
    """What Machine ``machine``'s effect ``fn`` reads when ``player`` resolves it, or None: anything."""
    calls = statements(fn, game, player, machine)
    if calls is None:
        return None
    ctx = Ctx(game, player, machine)
    plain: set = set()
    listings: list = []
    goods: set = set()
    for name, objs, ph in calls:
        got = call_reads(ctx, name, objs, ph)
        if got is None:
            return None
        plain.update(got[0])
        listings += got[1]
        goods.update(got[2])
    zones = frozenset(plain).union(*(z for _, z in listings))
    return EffectReads(zones, frozenset(plain), tuple(listings), frozenset(goods), machine)


def passes(game, player: int, sel, uid: int) -> bool:
    """Whether card ``uid`` is a candidate of ``sel`` on ``game`` (``Ctx.things``' test, one card)."""
    ctx = Ctx(game, player)
    inst = peek(game.instances, uid)
    rec = face_view(game.cards[inst.card_id], inst)
    if sel.category == THING and not ctx.is_thing(game.model.things[sel.key], uid, inst, rec):
        return False
    return all(ctx._filter(f, rec, inst) for f in sel.filters)


def deal_reads(game, picked: list, notes: list, heard: bool) -> Touches:
    """What the Locations a trial razed read (``raze_location``) — read on the state the trial started
    from: their Deals (their owner gains the Deal's Goods, capped by what they hold; a Card is drawn
    from the Deck into the hand, ``verbs.give_goods``), and for a Hacked card the Ruins its owner
    gains from the Deck (M12; the card itself goes to the Machine discard pile, a write observed).
    Cards taken from the Deck read its top cards (their Goods and props go with them) and its order;
    the hand a card is drawn into is a write (observed, so read too). Only while the Deck holds every
    card the trial takes: a Deck that may run out is refilled by a shuffle (``engine.refill``: the
    discard piles and the game's generator), read as *everything*. ``heard``: some card of the game
    listens to events (``Engine.trigger_slots``), the Razed and Drawn events included."""
    out = NOTHING
    from_deck = 0  # cards the trial's razes take off the top of the Deck, in turn
    drawers: set = set()  # who draws a Deal's cards into their hand
    targets = [n for n in notes if n[0] == "targets"]
    for note, pick in zip(targets, picked):
        if note[2] != "raze" or not pick:
            continue
        if heard:
            return EVERYTHING
        for uid in pick:
            inst = peek(game.instances, uid)
            owner = inst.owner if inst.owner is not None else game.where[uid][1]
            if inst.face == "hacked":  # M12: to the Machine discard pile, a Ruins from the Deck
                from_deck += 1
            deal = face_view(game.record(uid), inst).get("slots", {}).get("deal")
            if deal is None:
                continue
            calls = statements(deal, game, owner, None)
            if calls is None:
                return EVERYTHING
            ctx = Ctx(game, owner)
            for name, objs, ph in calls:
                if name != "gain" or ph:
                    return EVERYTHING
                for sel in objs:
                    if sel.category != GOOD or sel.per is not None or sel.of is not None:
                        return EVERYTHING
                    good = ctx.good_of(sel)
                    if good in game.model.good_groups:
                        return EVERYTHING  # a choice
                    recipient = game.gain_to.get(owner, owner)
                    if good == "card":  # drawn from the Deck (``Ctx.draw_cards``), none capped
                        if game.model.card_sources.get("card") is not None:
                            return EVERYTHING  # drawn from a source of its own
                        from_deck += ctx.amount(sel)
                        drawers.add(recipient)
                        continue
                    out = out | Touches(goods=frozenset(((recipient, good),)))
    if from_deck:
        deck = game.zone_key("deck", None)
        pile = game.zones.get(deck, ())
        if len(pile) < from_deck or any(game.zone_key(game.model.rules.draw_from, p) != deck for p in drawers):
            return EVERYTHING  # a refill's shuffle, or a draw from another pile
        hands = {game.zone_key(Ctx(game, p).hand_zone(), p) for p in drawers}
        out = out | Touches(frozenset(hands | {deck}), frozenset(pile[-from_deck:]))
    return out


@dataclass(frozen=True)
class FingerprintPatch:
    """What a trial changed in ``GameState.fingerprint``: (player index, ((Good, count now), …)), (zone
    position, zone part), (card position, face). ``patched`` puts it on another state's fingerprint of the same
    shape (same zones in the same order, same cards in the same order)."""

    goods: tuple = ()
    zones: tuple = ()
    faces: tuple = ()

    def patched(self, fp: tuple) -> tuple:
        goods, zones, (uids, faces) = fp
        if self.goods:
            goods = list(goods)
            for i, changed in self.goods:  # Good by Good: another step may have changed the others
                held = dict(goods[i])
                held.update(changed)
                goods[i] = tuple(sorted([(k, v) for k, v in held.items() if v]))  # a list: no generator
            goods = tuple(goods)
        if self.zones:
            zones = list(zones)
            for i, part in self.zones:
                zones[i] = part
            zones = tuple(zones)
        if self.faces:
            faces = list(faces)
            for i, face in self.faces:
                faces[i] = face
            faces = tuple(faces)
        return goods, zones, (uids, faces)

    def __bool__(self) -> bool:
        return bool(self.goods or self.zones or self.faces)


NO_PATCH = FingerprintPatch()


def goods_differ(a: Counter, b: Counter) -> bool:
    """``a != b`` for two Counters of Goods (a Good at 0 equals a Good absent, as in the fingerprint):
    equal as dicts first, in C — a copy's Counter is its original's items in the same order, and most
    trials leave a player's Goods as they were —, else Counter's own comparison, a Python loop over
    every Good (a test holds it to ``!=``)."""
    return not dict.__eq__(a, b) and a != b


def trial_writes(state, before: tuple, twin, position: dict, uids: tuple) -> tuple[Touches, FingerprintPatch | None,
                                                                                tuple]:
    """(what a trial wrote, its fingerprint patch, the fingerprint after it), read off the trial's copy
    ``twin`` of ``state`` (fingerprint ``before``) without fingerprinting the copy: the players' Goods
    and the zones compared with the state's, the faces of the cards the copy looked up (copy-on-write:
    the others are the state's own objects) — the fingerprint after is the patched one; a change of
    shape (a card created, a zone added) writes everything, has no patch, and the copy is
    fingerprinted."""
    g0, z0, (u0, f0) = before
    inst = twin.instances
    zones0, zones1 = state.zones, twin.zones
    if type(inst) is not Instances or (u0 is not uids and u0 != uids) or len(inst) != len(u0) \
            or len(zones1) != len(z0) or len(twin.players) != len(g0):
        return EVERYTHING, None, twin.fingerprint()
    cards = frozenset(dict.keys(inst))
    df = []
    for uid in cards:
        i = position.get(uid)
        if i is None:  # a card the fingerprint does not know
            return EVERYTHING, None, twin.fingerprint()
        face = dict.__getitem__(inst, uid).face
        if face != f0[i]:
            df.append((i, face))
    df.sort()
    dz, zones = [], set()
    for i, (key, held) in enumerate(zones1.items()):
        if z0[i][0] != key:
            return EVERYTHING, None, twin.fingerprint()
        if held != zones0[key]:
            dz.append((i, (key, tuple(held))))
            zones.add(key)
    dg, goods = [], set()
    for i, (p0, p1) in enumerate(zip(state.players, twin.players)):
        a, b = p0.goods, p1.goods
        if goods_differ(a, b):
            changed = tuple(sorted((k, b[k]) for k in a.keys() | b.keys() if a[k] != b[k]))
            dg.append((i, changed))
            goods.update((i, k) for k, _ in changed)
    patch = FingerprintPatch(tuple(dg), tuple(dz), tuple(df))
    return Touches(frozenset(zones), cards, frozenset(goods)), patch, patch.patched(before)
