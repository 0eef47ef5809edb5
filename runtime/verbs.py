"""The verb registry: every verb of the effect language is one Python function registered here.

A verb has a typed signature (which noun categories its object and each prepositional phrase
accept), an English template for the rules reference, and an example. The checker matches every
statement against the signature; the generated code calls ``ctx.call(name, objects, phrases)``.

Verbs are registered per engine: ``core`` verbs serve every game, a game engine adds its own (or
replaces a core verb of the same name for that game only). Adding a verb never touches the grammar.

Semantics shared by all verbs (DESIGN §3): an action does as much as it can ("draw 2 from a pile
of 1 draws 1") unless called ``strict`` — as the left side of a cost ``spend …: gain …`` — where it
must be done in full or raise ``Refused`` before changing anything.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .errors import Nowhere, Refused, RulesError
from .events import Played, PlayedAgain, Playing
from .refs import CARD, GOOD, PLAYER, THING, VAR, ZONE, Every, Query, UpToN
from .registry import load_engines

# --- what a slot honours ----------------------------------------------------------------------
#
# Truthfulness (DESIGN §3): a verb's signature declares, per slot, every part of a text its
# implementation honours. The checker rejects any other part with a located error, so a text is
# never accepted and then silently half-done. The words below are the forms the checker reads off
# a selector; each is what the designer wrote, not an implementation detail.

# amount forms
ONE = "one"            # no amount, or "a"/"an"
NUMBER = "number"      # "2 cards"
X = "x"                # "x cards" (the card's X)
EXPR = "expression"    # "(7 - number of cards in your hand) cards"
PER = "per"            # "1 vp per ruins"
UP_TO = "up to"        # the chooser picks 0..N — only where the verb offers that choice
ALL = "all"            # every matching thing — only where the verb takes them all
ANY = "any number"     # "any number of cards": up to every such thing — only where the verb picks among them
COUNTED = frozenset({ONE, NUMBER, X, EXPR, PER})  # each becomes one number through Ctx.amount
AMOUNTS = (ONE, NUMBER, X, EXPR, PER, UP_TO, ALL)
# "any number of" is named by each core slot that picks among things that exist (not in AMOUNTS, so a
# game engine's verb honours it only when it says so)

# owner forms (of the selector itself: "enemy locations", "another player's discard pile")
OWNERS = ("you", "enemy", "another", "any", "each", "opponent", "owner", "chosen", "left", "right")
# filter forms ("named": "named n", "with the same name as t", issue 28)
FILTERS = ("icon", "with", "without", "matching", "field", "other than", "not", "named")
# what "name a card as n" binds: a card name of the game (issue 28)
CARD_NAME = "cardname"
# reference forms inside a selector
REFS = ("in", "of")


@dataclass(frozen=True)
class Slot:
    """One object or phrase of a verb: the noun categories it accepts and the forms it honours.

    ``owners``/``filters``/``refs`` left as None take the default of the shared selection code for
    the slot's categories (see :func:`honoured`); a verb that selects differently says so here.
    """

    categories: tuple[str, ...]
    required: bool = False
    many: bool = False  # several objects separated by commas: "spend 1 gun, 1 worker"
    amounts: frozenset | dict = COUNTED  # or {category: forms}
    owners: frozenset | None = None
    filters: frozenset | None = None
    refs: frozenset | None = None
    # a phrase the verb honours only with objects of these categories ("gain … from" moves cards,
    # it means nothing for Goods); None: with any object
    for_objects: tuple[str, ...] | None = None


# What Ctx's shared selection honours, by category (runtime/context.py: options, things, count,
# zone_for, good_of). A slot that names no forms of its own honours exactly these.
_ALL_FILTERS = frozenset(FILTERS)
DEFAULTS: dict[str, tuple[frozenset, frozenset, frozenset]] = {
    # category: (owners, filters, refs)
    THING: (frozenset(OWNERS), _ALL_FILTERS, frozenset(REFS)),
    CARD: (frozenset(), _ALL_FILTERS, frozenset({"in"})),   # whose: say it on the zone ("in opponent's hand")
    VAR: (frozenset(), _ALL_FILTERS, frozenset()),           # filters narrow the chosen cards
    GOOD: (frozenset({"you"}), frozenset({"matching"}), frozenset()),
    # a zone named in a phrase is ONE zone: "another player's" asks whose; "each player's" would be
    # many, which a single source or destination cannot honour
    ZONE: (frozenset(OWNERS) - {"each"}, frozenset(), frozenset()),
    # "each enemy player", "another player": Ctx.options picks players by owner
    PLAYER: (frozenset({"enemy", "another", "any", "each"}), frozenset(), frozenset()),
    "phase": (frozenset(), frozenset(), frozenset()),
    "icon": (frozenset(), frozenset(), frozenset({"of"})),
}


def amounts_for(slot: Slot, category: str) -> frozenset:
    """The amount forms ``slot`` honours for a noun of ``category`` (``amounts`` may be a mapping
    from category to forms, for a verb that treats Goods and cards differently)."""
    if isinstance(slot.amounts, dict):
        return slot.amounts.get(category, COUNTED)
    return slot.amounts


def honoured(slot: Slot, category: str) -> tuple[frozenset, frozenset, frozenset]:
    """(owners, filters, refs) that ``slot`` honours for a noun of ``category``."""
    owners, filters, refs = DEFAULTS.get(category, (frozenset(), frozenset(), frozenset()))
    return (slot.owners if slot.owners is not None else owners,
            slot.filters if slot.filters is not None else filters,
            slot.refs if slot.refs is not None else refs)


@dataclass(frozen=True)
class Signature:
    obj: Slot | None = None
    phrases: dict = field(default_factory=dict)  # prep -> Slot ("from", "to", "on", "instead of", "until")
    one_of: tuple[str, ...] = ()  # exactly one of these phrases is given ("into", "on top of", …)
    # rules the game must declare (game.yaml `rules:`) for this verb, e.g. "trash_to", or
    # (category, rule) when only an object of that category needs it ("gain 1 card": gain_from)
    needs: tuple = ()


@dataclass(frozen=True)
class Verb:
    name: str
    fn: Callable
    signature: Signature
    template: str  # English: "{obj}" and "{<prep>}" placeholders, "[ … ]" optional groups
    example: str
    engine: str
    doc: str = ""
    binds: str | None = None  # "… as NAME" binds what the verb returns: the cards it acted on ("card")


REGISTRY: dict[str, dict[str, Verb]] = {"core": {}}


def verb(name: str, *, template: str, example: str, obj: Slot | None = None,
         phrases: dict | None = None, engine: str = "core", one_of: tuple = (), needs: tuple = (),
         binds: str | None = None):
    """Register ``fn(ctx, objs, ph, strict)`` as verb ``name`` for ``engine`` (default: every game)."""

    def deco(fn: Callable) -> Callable:
        REGISTRY.setdefault(engine, {})[name] = Verb(name, fn, Signature(obj, dict(phrases or {}), one_of, needs),
                                                     template, example, engine, (fn.__doc__ or "").strip(), binds)
        return fn

    return deco


def verbs_for(engine: str) -> dict[str, Verb]:
    """The verbs a game on ``engine`` may use: the core verbs, overridden by the engine's own."""
    load_engines()  # importing the engines registers their verbs
    out = dict(REGISTRY["core"])
    if engine != "core":
        out.update(REGISTRY.get(engine, {}))
    return out


# --- core verbs --------------------------------------------------------------------------------

_GOODS = Slot((GOOD,), required=True, many=True)
_CARDS = Slot((CARD, THING, VAR), required=True)
_WHO = Slot((PLAYER, VAR))
_CHOSEN_BY_YOU = frozenset(AMOUNTS) | {ANY}  # the acting player picks which (and, for "up to", how many)


@verb("gain", template="gain {obj}[ from {from}][ into {into}]", example="gain 2 fuel",
      obj=Slot((GOOD, CARD, THING), required=True, many=True,
               amounts={GOOD: COUNTED, CARD: COUNTED | {UP_TO, ALL, ANY}, THING: COUNTED | {UP_TO, ALL, ANY}}),
      phrases={"from": Slot((ZONE, VAR), for_objects=(CARD, THING)),
               "into": Slot((ZONE, VAR), for_objects=(CARD, THING))}, needs=((CARD, "gain_from"),))
def gain(ctx, objs, ph, strict):
    """The acting player gains Goods from the supply, or cards: "gain 1 card costing up to 4" takes
    one from `rules.gain_from` (or the "from" zone) into `rules.gain_to` (the discard pile when the
    game names none) or the "into" zone; you choose which. "up to" and "all" are for cards only."""
    g = ctx.game
    for sel in objs:
        if sel.category == GOOD or (sel.category == VAR and isinstance(ctx.bindings.get(sel.key), str)):
            if isinstance(sel.amount, (UpToN, Every)):
                raise RulesError("'up to' and 'all' gain cards, not Goods")  # the checker rejects it first
            ctx.gain_goods(sel)
            continue
        rules = g.model.rules
        src = ph.get("from") or Query(ZONE, rules.gain_from)
        to = ctx.zone_for(ph["into"]) if "into" in ph else g.zone_key(rules.gain_into, ctx.player)
        ctx.move_cards(sel, src, to, strict=strict, verb="gain")


@verb("spend", template="spend {obj}", example="spend 1 gun, 1 worker: gain 1 vp", obj=_GOODS)
def spend(ctx, objs, ph, strict):
    """Pay Goods to the supply. As a cost (before ':') all of it must be paid or nothing is; anywhere
    else it pays what the player has, as every statement does as much as it can (DESIGN §3)."""
    # It was all-or-nothing wherever it stood: "spend 3 coin; gain 1 vp" with 1 coin refused the rest
    # of the effect, which only a cost or 'requires' may do (found writing the reference, issue 22)
    ctx.pay_goods(objs, strict=strict, below_zero=False)


@verb("lose", template="lose {obj}", example="lose 1 vp per card in your hand",
      obj=Slot((GOOD,), required=True, many=True, amounts=COUNTED | {ALL}))
def lose(ctx, objs, ph, strict):
    """Lose Goods to the supply, as many as the player has (never below zero, but a signed Good such as
    a debt goes below); "lose all debt" loses what the player has; a group ("1 resource") asks which."""
    ctx.pay_goods(objs, strict=strict)


@verb("draw", template="draw {obj}[ from {from}]", example="draw 2 cards from opponent's parts pile",
      obj=Slot((CARD,), required=True, amounts=COUNTED | {UP_TO}, filters=frozenset(), refs=frozenset()),
      phrases={"from": Slot((ZONE, VAR))}, binds=CARD)
def draw(ctx, objs, ph, strict):
    """Take cards from the top of a pile (the game's draw pile by default) into your hand; "up to N"
    lets you decide how many; "… as d" names the cards drawn."""
    return ctx.draw_cards(objs[0], ph.get("from"), strict=strict)


_TOP_OF = Slot((CARD,), required=True, filters=frozenset(), refs=frozenset())


@verb("reveal", template="reveal and set aside the top {obj}[ of {from}]", example="reveal 3 cards from your deck as r",
      obj=_TOP_OF, phrases={"from": Slot((ZONE, VAR))}, binds=CARD)
def reveal(ctx, objs, ph, strict):
    """Show everyone the top N cards of a pile (the game's draw pile by default) and set them aside
    while the effect runs, so a draw in the same effect takes the next card; "… as r" names them.
    A revealed set keeps only the cards still set aside, so after some are moved away, r is the
    rest; any the text leaves go back on top of the pile, as they were, when the effect ends."""
    return ctx.top_cards(objs[0], ph.get("from"), "reveals")


@verb("look", template="look at the top {at}[ of {from}]", example="look at 2 cards from your deck as l",
      phrases={"at": Slot((CARD,), required=True, filters=frozenset(), refs=frozenset()), "from": Slot((ZONE, VAR))},
      binds=CARD)
def look(ctx, objs, ph, strict):
    """Look at the top N cards of a pile yourself (nobody else sees them), leaving them there; "… as
    l" names them, as "reveal" does."""
    return ctx.top_cards(ph["at"], ph.get("from"), "looks at")


@verb("discard", template="discard {obj}[ from {from}]", example="discard 1 card from your hand",
      obj=Slot((CARD, THING, VAR), required=True, amounts=_CHOSEN_BY_YOU),
      phrases={"from": Slot((ZONE, VAR), owners=frozenset({"you"}))})
def discard(ctx, objs, ph, strict):
    """Put cards of yours into the game's discard zone (its `discard_to`): each card into its
    owner's. You choose which; "up to N" also how many."""
    ctx.move_cards(objs[0], ph.get("from"), lambda uid: ctx.discard_zone_for(ctx.owner_of_card(uid)),
                   strict=strict, verb="discard")


@verb("give", template="give {obj}[ from {from}] to {to}",
      example="give 1 card from your hand to opponent", obj=Slot((CARD, THING, VAR), required=True,
                                                                 amounts=_CHOSEN_BY_YOU),
      phrases={"from": Slot((ZONE, VAR), owners=frozenset({"you"})), "to": Slot((PLAYER, VAR), required=True, owners=frozenset())})
def give(ctx, objs, ph, strict):
    """Put cards from one of your zones into another player's hand."""
    to_player = ctx.player_of(ph["to"])
    ctx.move_cards(objs[0], ph.get("from"), ctx.game.zone_key(ctx.hand_zone(), to_player), strict=strict,
                   verb="give")


@verb("place", template="place {obj} on {on}", example="choose 1 of your locations as target; place 1 fuel on target", obj=_GOODS,
      phrases={"on": Slot((THING, VAR), required=True, amounts=frozenset({ONE}))})
def place(ctx, objs, ph, strict):
    """Place Goods from the general supply on a card."""
    uid = ctx.one_card(ph["on"])
    for sel in objs:
        ctx.place_goods(sel, uid)


# --- moving cards between zones ----------------------------------------------------------------

_MOVED = Slot((CARD, THING, VAR), required=True, amounts=_CHOSEN_BY_YOU)
_FROM_YOURS = Slot((ZONE, VAR), owners=frozenset({"you"}))
_DEST = Slot((ZONE, VAR))
_DESTINATIONS = ("into", "onto", "on top of", "at the bottom of")


@verb("put", template="put {obj}[ from {from}][ into {into}][ onto {onto}][ on top of {on top of}]"
      "[ at the bottom of {at the bottom of}]", example="put 1 card from your hand on top of your deck",
      obj=_MOVED, phrases={"from": _FROM_YOURS, **{d: _DEST for d in _DESTINATIONS}}, one_of=_DESTINATIONS)
def put(ctx, objs, ph, strict):
    """Move cards of yours to any declared zone: "into"/"onto"/"on top of" put them on top, "at the
    bottom of" underneath. You choose which cards; "up to N" also how many."""
    dest_phrase = next(d for d in _DESTINATIONS if d in ph)
    dest = ctx.zone_for(ph[dest_phrase])
    ctx.move_cards(objs[0], ph.get("from"), dest, strict=strict, verb="put",
                   bottom=dest_phrase == "at the bottom of")


@verb("move", template="move {obj}[ from {from}][ into {into}][ onto {onto}][ on top of {on top of}]"
      "[ at the bottom of {at the bottom of}]", example="move 1 card from your discard pile into your hand",
      obj=_MOVED, phrases={"from": _FROM_YOURS, **{d: _DEST for d in _DESTINATIONS}}, one_of=_DESTINATIONS)
def move(ctx, objs, ph, strict):
    """The same as "put": move cards of yours to any declared zone, on top or ("at the bottom of")
    underneath."""
    put(ctx, objs, ph, strict)


@verb("trash", template="trash {obj}[ from {from}]", example="trash 1 card from your hand",
      obj=_MOVED, phrases={"from": _FROM_YOURS}, needs=("trash_to",))
def trash(ctx, objs, ph, strict):
    """Move cards of yours to the zone the game declares as `rules.trash_to` (out of play)."""
    to = ctx.game.zone_key(ctx.game.model.rules.trash_to, ctx.player)
    ctx.move_cards(objs[0], ph.get("from"), to, strict=strict, verb="trash")


@verb("remove", template="remove {obj}[ in {from}] from the game", example="remove this card",
      obj=_MOVED, phrases={"from": _FROM_YOURS}, needs=("remove_to",))
def remove(ctx, objs, ph, strict):
    """Move cards of yours to the zone the game declares as `rules.remove_to` (out of the game)."""
    to = ctx.game.zone_key(ctx.game.model.rules.remove_to, ctx.player)
    ctx.move_cards(objs[0], ph.get("from"), to, strict=strict, verb="remove")


@verb("play", template="play {obj}[ from {from}]", example="play 1 card with icon action from your hand",
      obj=Slot((CARD, THING, VAR), required=True, amounts=_CHOSEN_BY_YOU), phrases={"from": _FROM_YOURS},
      needs=("play_to", "play_slot"))
def play(ctx, objs, ph, strict):
    """Put cards of yours into `rules.play_to` and run their `rules.play_slot` effect, one by one."""
    g = ctx.game
    rules = g.model.rules
    to = g.zone_key(rules.play_to, ctx.player)
    options = ctx.options(objs[0])
    if any(uid in g.playing for uid in options):  # "play this card" inside its own play
        # it is being played already: this play does nothing and the effect goes on, as every
        # statement does as much as it can (issue 22; it ended the whole effect)
        raise Nowhere("a card cannot be played again while its effect is resolving")
    if objs[0].category == VAR and options and all(uid in ctx.played for uid in options):
        # "play c; play c": a card this effect already played is played again where it lies — its
        # effect runs, it is not moved (a card that trashed itself stays in the trash). Issue 22,
        # docs/decisions.md.
        picks = options
        if g.tracing:
            g.tell(PlayedAgain(ctx.player, shown=ctx.describe(picks)))
    else:
        picks = ctx.move_cards(objs[0], ph.get("from"), to, strict=strict, verb="play")
    for uid in picks:
        ctx.played.add(uid)
        if rules.play_slot in (g.record(uid).get("slots") or {}):
            ctx.publish_card(Playing, uid)  # reactions first: "you are unaffected by it" (h28b)
            g.playing[uid] = ctx.player
            try:
                g.engine.run_slot(g, uid, rules.play_slot, ctx.player, ctx.opponent)
            finally:
                g.playing.pop(uid, None)
                g.immune.pop(uid, None)
        ctx.publish_card(Played, uid)  # after its effect: "whenever you play …" sees it done


# --- copying (issue 28) --------------------------------------------------------------------------


@verb("copy", template="copy {obj} (its play effect runs as this card's)", example="choose 1 card other than this card in your play area as s; copy s",
      obj=Slot((CARD, THING, VAR), required=True, amounts=frozenset({ONE})), needs=("play_slot",))
def copy(ctx, objs, ph, strict):
    """Run one card's `rules.play_slot` effect as if it were this card's: "this card" in it is the
    copying card, and neither card moves (the copied one is not played: no Played event). Only the
    play effect is copied — the copied card's abilities and triggers are not, and this card's own limits
    stay its own (docs/decisions.md). A copy that would copy again while it resolves does nothing."""
    g = ctx.game
    options = ctx.options(objs[0])
    picks = ctx.ask(options, 1, prompt="copy")
    for uid in picks:
        fn = (g.record(uid).get("slots") or {}).get(g.model.rules.play_slot)
        if fn is None:
            continue  # a card without a play effect: there is nothing to copy
        key = ("copy", ctx.card)
        if key in g.resolving:
            raise Nowhere("a copy cannot copy again while it resolves")
        g.resolving.add(key)
        try:
            g.engine.run(g, fn, ctx.player, ctx.card, ctx.opponent)
        finally:
            g.resolving.discard(key)


# --- players by position, cards by name (issue 28) ----------------------------------------------


@verb("pass", template="pass {obj}[ from {from}] to {to}",
      example="each player: pass 1 card from your hand to left neighbour's hand",
      obj=_MOVED, phrases={"from": _FROM_YOURS, "to": Slot((ZONE, VAR), required=True)})
def pass_(ctx, objs, ph, strict):
    """Pass cards of yours into another zone (usually a neighbour's hand). Inside an acting clause
    ("each player: pass …") every player chooses first and the passed cards move together when the
    clause ends, so no card is passed twice; elsewhere they move at once."""
    to = ctx.zone_for(ph["to"])
    ctx.move_cards(objs[0], ph.get("from"), to, strict=strict, verb="pass", defer=ctx.passing)


@verb("name", template="name {obj}", example="name a card as n; reveal 1 card from your deck as r; "
      "if r named n: put r into your hand",
      obj=Slot((CARD,), required=True, amounts=frozenset({ONE}), filters=frozenset(), refs=frozenset()),
      binds=CARD_NAME)
def name_(ctx, objs, ph, strict):
    """Name a card: the acting player picks one card name of the game (every name its cards print,
    offered sorted); "… as n" holds it, and "named n" matches cards of that name."""
    names = ctx.card_names()
    return ("name", ctx.ask(names, 1, prompt="name a card")[0]) if names else []


__all__ = ["verb", "verbs_for", "Verb", "Signature", "Slot", "REGISTRY", "Refused"]
