"""The Scavengers State Pack (rulebook 001_98b215467e46d1ec.txt, clauses S01–S14).

What is data (data/fifty_first_state/): the icon-to-Good table (game.yaml ``icons``, S09), the
Personal Discard piles (zone ``personal_discard``, ``access: others``: an effect can only name
another player's pile, S07/S08 — the checker says E207, the runtime refuses), the [symbol]
(thing ``symbol card``: the top card of another player's Personal Discard pile), the Yellow
Connection pile (zone ``yellow_connections``, card source ``yellow connection``), the cards
(scavengers.yaml) and the rules ``take_yellow_connection`` and ``starting_discard``.

What is here (procedures, not card effects):
- setup (S01/S02): the Yellow Connection pile; starting hands, of which each player discards 2;
- where discards go (S02/S04): every card a player discards goes to that player's own pile;
- Lookout (S03): reveal the top Yellow Connection card; the (stand-in) draft's left-over card goes
  to the current Starting Player's Personal Discard pile, by the ``discard_pile`` hook;
- take or play a Yellow Connection (S05); Cleanup (S06): the revealed card, if not taken, is
  discarded;
- the verb ``demolish`` (Demolition Mike / Tommy, S14).

Decisions on cases the rulebook leaves open (also in docs/decisions.md, "51st State — Scavengers"):
- A Yellow Connection card discarded at Cleanup belongs to no player: it goes to the shared
  Connection discard pile, which is shuffled into a new Yellow Connection pile when that runs out.
- A Yellow Connection card played from hand is then discarded by its player: to their Personal
  Discard pile (S04: any card discarded from your hand).
- Taking a Yellow Connection takes the top card of the pile, revealed or not; a revealed card
  taken during the round is not replaced until the next Lookout.
- The base game's Lookout draft and starting hand are not in the rulebooks: the draft is the
  stand-in base turn's (game.yaml ``lookout_draft``), the starting hand provisional
  (``starting_hand`` in scavengers.yaml).
- A card discarded by no player (none of the above) still goes to the central discard pile.
"""
from __future__ import annotations

from runtime.context import Ctx, face_view
from runtime.engine import Outcome
from runtime.errors import Refused
from runtime.events import Played
from runtime.refs import THING, VAR
from runtime.verbs import AMOUNTS, Slot, verb

from ..stepspec import number
from .engine import FiftyFirstState, Pack, register_pack
from .verbs import pick_targets

E = "fifty_first_state"


class Scavengers(Pack):
    name = "scavengers"
    module = "scavengers"
    steps = {"take_connection": "step_take_connection", "play_connection": "step_play_connection",
             "draft": "step_draft"}

    # --- setup (S01, S02) --------------------------------------------------------------------
    def setup(self, engine: FiftyFirstState, game) -> None:
        """S01: the Scavengers cards are already in the Deck (their ``set``); the Yellow
        Connection cards form a face-down pile. (S02: the starting hands are the base setup's; the
        2 cards each player discards go to their own Personal Discard pile by ``discard_pile``.)"""
        pile = game.zone_key("yellow_connections", None)
        for cid, rec in sorted(game.cards.items()):
            if rec.get("kind") == "connection" and rec.get("colour") == "yellow":
                for _ in range(rec.get("count", 1)):
                    game.create(cid, pile)
        game.shuffle(pile)
        game.emit("setup", None, f"the Yellow Connection pile holds {len(game.zones[pile])} cards, face down")

    # --- piles (S02, S04) --------------------------------------------------------------------
    def discard_pile(self, engine, game, uid, player):
        """S02/S04: a card a player discards (from hand or State: Raze, Develop…) goes to that
        player's own Personal Discard pile, face up. (Moloch's hook comes first: a Hacked card
        still goes to the Machine discard pile, M12.)"""
        if player is None:
            return None
        inst = game.instances[uid]
        inst.face, inst.owner = "front", player
        inst.props.pop("revealed", None)
        return game.zone_key("personal_discard", player)

    def refill(self, engine, game, zone) -> None:
        """Decision: an empty Yellow Connection pile is refilled from the Connection discard pile.
        Stand-in (game.yaml ``deck_out``): when the Deck runs out, each Personal Discard pile but its
        top card (the [symbol] other players may still take, S07) goes into the new Deck — its Deck
        cards only. Decision: a Yellow Connection card under the top (a played Connection is discarded
        to its player's pile, S04) goes back to the Connection discard pile, where the Yellow
        Connection pile refills from: a Connection is never a Deck card, so it is never drawn as a
        Ruins (S11) and then rebuilt into a State as a "Location" it is not (S12). Found by 1,000
        seeded 4-player games (a rebuilt Connection had no row to raze by); docs/decisions.md."""
        if zone == game.zone_key("deck", None) and (game.compiled.table("deck_out") or {}).get("reshuffle"):
            used = game.zone_key("connection_discard", None)
            for p in game.players:
                pile = game.zones[game.zone_key("personal_discard", p.index)]
                for uid in list(pile[:-1]):  # the pile's top is its last card
                    game.move(uid, used if _is_connection(game, uid) else zone)
            return
        if zone != game.zone_key("yellow_connections", None):
            return
        used = game.zone_key("connection_discard", None)
        if not game.zones[used]:
            return
        for uid in list(game.zones[used]):
            game.move(uid, zone)
        game.shuffle(zone)
        game.emit("reshuffle", None, f"the Connection discard pile is shuffled into a new Yellow Connection pile "
                  f"({len(game.zones[zone])} cards)")

    def reshufflable(self, engine, game) -> int:
        """The Deck cards a refill would take from the Personal Discard piles (not their tops, not
        Connections: ``refill``)."""
        return sum(1 for p in game.players for uid in game.zones[game.zone_key("personal_discard", p.index)][:-1]
                   if not _is_connection(game, uid))

    # --- phases (S03, S06) -------------------------------------------------------------------
    def phase(self, engine, game, name) -> None:
        """S03: the Lookout also reveals the top Yellow Connection card (the draft itself is the base
        turn's, ``FiftyFirstState.draft``; its left-over goes to the current Starting Player's pile
        through ``discard_pile``). S06: Cleanup discards it if nobody took it."""
        if name == "lookout":
            self.reveal_yellow(engine, game)
        elif name == "cleanup":
            self.cleanup_yellow(engine, game)

    def reveal_yellow(self, engine, game) -> int | None:
        """S03: reveal the top card of the Yellow Connection pile (it stays on top of the pile)."""
        pile = game.zone_key("yellow_connections", None)
        if not game.zones[pile]:
            engine.refill(game, pile)
        if not game.zones[pile]:
            return None
        uid = game.zones[pile][-1]
        game.instances[uid].props["revealed"] = True
        game.emit("reveal", None, f"reveals {game.record(uid).get('name')} on top of the Yellow Connection pile")
        return uid

    def cleanup_yellow(self, engine, game) -> None:
        """S06: the revealed Yellow Connection card, if nobody took it, is discarded (decision: to
        the shared Connection discard pile — it is no player's discard)."""
        pile = game.zone_key("yellow_connections", None)
        top = game.zones[pile][-1] if game.zones[pile] else None
        if top is not None and game.instances[top].props.pop("revealed", None):
            game.move(top, game.zone_key("connection_discard", None))
            game.emit("discard", None, f"{game.record(top).get('name')} was not taken: it goes to the "
                      "Connection discard pile")

    # --- Yellow Connection cards (S05) -------------------------------------------------------
    def take_connection(self, engine, game, player: int) -> Outcome:
        """S05: discard 2 cards to draw the top card of the Yellow Connection pile (rule
        ``take_yellow_connection``: a cost, all or nothing). Refused, nothing changed, when
        there is no card to take."""
        pile = game.zone_key("yellow_connections", None)
        if not game.zones[pile] and not game.zones[game.zone_key("connection_discard", None)]:
            return engine.refuse(game, player, "the Yellow Connection pile is empty")
        top = game.zones[pile][-1] if game.zones[pile] else None
        out = engine.run(game, game.compiled.rules["take_yellow_connection"], player)
        if out.status != "done":
            return Outcome("refused", out.reason)
        if top is not None and game.where[top] == game.zone_key("hand", player):
            if game.instances[top].props.pop("revealed", None):
                game.emit("take", player, f"takes the revealed {game.record(top).get('name')}")
        return out

    def play_connection(self, engine, game, player: int, uid: int) -> Outcome:
        """S05: play a Yellow Connection card from hand: its effect resolves, then the card is
        discarded (decision: to its player's Personal Discard pile, S04)."""
        rec = game.record(uid)
        if game.where[uid] != game.zone_key("hand", player):
            return engine.refuse(game, player, f"{rec.get('name')} is not in your hand")
        if rec.get("kind") != "connection":
            return engine.refuse(game, player, f"{rec.get('name')} is not a Connection card")
        game.emit("play", player, f"plays {rec.get('name')}")
        out = engine.run(game, rec["slots"]["play"], player, uid)
        if out.status != "done":
            return Outcome("refused", out.reason)
        # a Connection played from hand: the typed event the simulation report's plays read
        game.publish(Played(player, card=uid, turn=game.turn_number, round=game.round))
        engine.discard_card(game, uid, player)
        return out

    # --- scenario steps ----------------------------------------------------------------------
    def step_take_connection(self, engine, game, step, scenario) -> Outcome:
        return self.take_connection(engine, game, scenario.player_index(step.get("player")))

    def step_play_connection(self, engine, game, step, scenario) -> Outcome:
        return self.play_connection(engine, game, scenario.player_index(step.get("player")),
                                    engine._uid(game, scenario, step["play_connection"], "play_connection"))

    def step_draft(self, engine, game, step, scenario) -> Outcome:
        for _ in range(number("draft", "draft", step["draft"], "a number of drafting rounds")):
            engine.draft(game)
        return Outcome("done")


@verb("demolish", template="demolish {obj}", example="choose 1 of your locations as target; demolish target",
      obj=Slot((THING, VAR), required=True, amounts=frozenset(AMOUNTS)), engine=E)
def demolish(ctx, objs, ph, strict):
    """Take the Goods of a Location's Spoils area and of its Deal, then flip it face down: it is a
    Ruins (Demolition Mike / Tommy, Scavengers S14). Its owner gains nothing (unlike Razing)."""
    g = ctx.game
    eng = g.engine
    for uid in pick_targets(ctx, objs[0], "demolish", strict):
        inst = g.instances[uid]
        if inst.face == "ruins" or g.where[uid][0] != "state":
            raise Refused(f"{eng.name_of(g, uid)} is not a Location in a State")
        rec = face_view(g.record(uid), inst)
        name = eng.name_of(g, uid)
        g.emit("demolish", ctx.player, f"demolishes {name}: takes its Spoils and its Deal")
        for slot in ("spoils", "deal"):
            fn = rec.get("slots", {}).get(slot)
            if fn is not None:
                fn(Ctx(g, ctx.player, uid, ctx.opponent))
        eng.leave_state(g, uid, "demolished")
        owner = inst.owner if inst.owner is not None else g.where[uid][1]
        if inst.face == "hacked":
            # Decision: a Hacked card has no Ruins side; as when it is Razed (M12) it goes to the
            # Machine discard pile and its owner gains a Ruins from the Deck instead.
            eng.discard_card(g, uid, owner)
            eng.gain_ruins(g, owner)
            continue
        inst.face = "ruins"
        g.emit("ruins", owner, f"{name} is flipped face down: it is now a Ruins")


SCAVENGERS = register_pack(Scavengers())
_ = (THING, VAR)


def _is_connection(game, uid: int) -> bool:
    """A Connection card (a Yellow Connection of this pack): never a card of the main Deck."""
    return game.record(uid).get("kind") == "connection"
