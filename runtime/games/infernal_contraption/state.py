"""Infernal Contraption's game state: ``ICGame`` (the machines' layout, the turn's bookkeeping) and
``Stop``, the control flow that elimination raises through what was resolving."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from runtime.errors import Halt, Refused
from runtime.state import CardInst, GameState
from runtime.statecopy import counter

from .machine import SIDES, Machine, _socket_codes

NAME = "infernal_contraption"

HAND_LIMIT = 10  # cleanup scraps down to this (I19); the invariant tests check it


def _plain(value):
    """An immutable value (a number, a string, None): the copy holds the same."""
    return value


class Stop(Halt):
    """Control flow, not an error: elimination ended what was resolving (I12).

    ``reason`` is "out" (the acting player is out), "alone" (no opponents left: the machine stops at
    once) or "opponent" (the chosen opponent is out but others remain: the card that was resolving
    stops, the acting player chooses a new opponent for the rest of the activation).
    """


@dataclass(frozen=True)
class DeckTemplate:
    """A new game's deck as ``create_many`` makes it in a game with no card yet: the card ids in
    deck order, their uids (1…n), each uid's kind and socket codes, and which uids are Power Cores.
    Taken once per compiled game and deck choice (``InfernalContraption.create_deck``) from the
    first game set up, so that setting up the next ones copies tables instead of working each card
    out again (tests/infernal_contraption/test_setup_template.py compares both ways)."""

    card_ids: tuple[str, ...]
    uids: tuple[int, ...]
    kind_of: dict  # uid -> kind (never changed: copied into each game)
    sock_of: dict  # uid -> socket codes
    cores: tuple[int, ...]  # the Power Cores' uids, in deck order
    rest: tuple[int, ...]  # every other uid, in deck order

    @classmethod
    def taken_from(cls, game: "ICGame", card_ids: list[str], uids: list[int]) -> "DeckTemplate":
        kinds = game.kind_of
        return cls(tuple(card_ids), tuple(uids), {u: kinds[u] for u in uids},
                   {u: game.sock_of[u] for u in uids},
                   tuple(u for u in uids if kinds[u] == "power_core"),
                   tuple(u for u in uids if kinds[u] != "power_core"))


class ICGame(GameState):
    """GameState plus the machines' layout and the turn's bookkeeping."""

    # per compiled game: never changed by play
    SHARED = GameState.SHARED + ("card_info", "socket_codes", "deck_templates")
    # a Monte Carlo playout copies the game on every candidate move: the machines and the per-uid
    # tables by hand (their values are immutable), the turn's plain values as they are
    COPIERS = {"machines": lambda ms: [m.copy() for m in ms], "kind_of": dict, "sock_of": dict,
               "stats": lambda st: None if st is None else {k: counter(v) for k, v in st.items()},
               **{name: _plain for name in ("turn", "first_player", "winner", "over", "capped", "step",
                                            "plays", "refitted", "_eliminating")}}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.machines = [Machine() for _ in self.players]
        self.kind_of: dict[int, str] = {}
        self.sock_of: dict[int, tuple[int, int, int, int]] = {}
        self.socket_codes = _socket_codes(self.vocab)
        self.card_info: dict[str, tuple] = {}  # card id -> (kind, socket codes); shared per compiled game
        self.deck_templates: dict[tuple, DeckTemplate] = {}  # deck choice -> its template; shared likewise
        self.turn = 0  # turns begun
        self.first_player: int | None = None
        self.winner: int | None = None
        self.over = False
        self.capped = False  # the turn cap ended the game (simulation): a finding, not a hang
        self.left_with: dict[int, tuple[int, ...]] = {}  # an eliminated player -> its Machine when it went out
        self.step = "attach"  # setup → "start"; then "attach" during the attach step; "over"
        self.plays = 0  # cards attached this turn
        self.refitted = False  # scrapped-and-drew instead of playing this turn
        self.stats: dict | None = None  # {"plays": Counter, "activations": Counter} when recording
        self.observer: Callable | None = None  # observer(game, event, player) at step boundaries (tests)
        self._eliminating = False

    def create(self, card_id, zone, face="front", owner=None):
        inst = super().create(card_id, zone, face, owner)
        self._note_kind(inst.uid)
        return inst

    def _note_kind(self, uid: int) -> None:
        """The new card's kind and socket codes, by uid (read by placement and legal moves)."""
        card_id = self.instances[uid].card_id
        info = self.card_info.get(card_id)
        if info is None:  # computed once per card id (a hot path in simulations)
            rec = self.cards[card_id]
            s = rec.get("sockets") or {}
            codes = self.socket_codes
            info = self.card_info[card_id] = (rec["kind"], tuple(codes.get(s.get(k), -1) for k in SIDES))
        self.kind_of[uid] = info[0]
        self.sock_of[uid] = info[1]

    def create_many(self, card_ids, zone, owner=None):
        uids = super().create_many(card_ids, zone, owner)
        instances, info, kind_of, sock_of = self.instances, self.card_info, self.kind_of, self.sock_of
        for uid in uids:
            known = info.get(instances[uid].card_id)
            if known is None:
                self._note_kind(uid)
            else:
                kind_of[uid], sock_of[uid] = known
        return uids

    def no_card_yet(self, zone) -> bool:
        """No card made yet and ``zone`` empty: the state a ``DeckTemplate`` is taken from and made
        into (``InfernalContraption.create_deck`` and ``create_deck`` below ask the same question)."""
        return self._next_uid == 1 and not self.instances and not self.zones[zone]

    def create_deck(self, deck: "DeckTemplate", zone) -> list[int]:
        """``create_many(deck.card_ids, zone)``, for a game with no card yet made from the template
        of that deck (the state create_many made when the template was taken: the same uids, card
        instances, zone, index and kinds); any other game goes the general way."""
        if not self.no_card_yet(zone) or self.model.piled(zone[0]):
            return self.create_many(deck.card_ids, zone)
        uids = deck.uids
        owner = zone[1]
        new_counter = Counter.__new__  # an empty Counter without Counter.__init__'s update call
        self.instances.update({uid: CardInst(uid, card_id, "front", new_counter(Counter), owner, {})
                               for uid, card_id in zip(uids, deck.card_ids)})
        self.zones[zone].extend(uids)
        self.where.update(dict.fromkeys(uids, zone))
        self.kind_of.update(deck.kind_of)
        self.sock_of.update(deck.sock_of)
        self._next_uid = len(uids) + 1
        self.card_moves += len(uids)
        return list(uids)

    # a card leaves a machine by the machine's rules (``leaving``; GameState.move and move_many ask it),
    # so that the ~150 moves of a game that leave no machine are the core's move alone
    ruled_zones = frozenset({"machine"})

    def leaving(self, uid, src, to):
        if src == to:
            return
        m = self.machines[src[1]]
        if not self._eliminating:
            # any verb (a core one too: "draw 1 card from your machine") meets the machine's rules
            if self.kind_of[uid] == "power_core":
                raise Refused("the Power Core can never be destroyed, scrapped or moved (I03)")
            if uid not in m.base and m.touching(uid) > 1:
                raise Refused("only a terminal (a card attached at one socket) can leave a machine (I01)")
        m.detach(uid)

    def snapshot(self) -> dict:
        s = super().snapshot()
        s["machines"] = [m.layout() for m in self.machines]
        s["turn"] = (self.turn, self.turn_player, self.first_player, self.step, self.plays, self.refitted,
                     self.winner, self.over)
        return s

    def check_conservation(self) -> list[str]:
        problems = super().check_conservation()
        for p, m in enumerate(self.machines):
            laid = m.cards()
            zone = self.zones[("machine", p)]
            if sorted(laid) != sorted(zone) or len(set(laid)) != len(laid):
                problems.append(f"machine of {self.players[p]}: layout {sorted(laid)} != zone {sorted(zone)}")
        return problems
