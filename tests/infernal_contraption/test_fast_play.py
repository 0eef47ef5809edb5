"""Infernal Contraption's fast paths for random play (issue 27) hold to the slow paths they replace:
on many seeded games, the same legal moves in the same order, the same state, events and generator
after every move. Each test names the shortcut it holds."""
from __future__ import annotations

import pytest

from runtime.agents import SeededRandom
from runtime.simulate import play_one


def _events(g) -> list[str]:
    return [type(e).__name__ + repr(sorted(vars(e).items())) for e in g.events]


def _new(eng, ic, players, seed, **kw):
    return eng.new_match(ic, [f"P{i + 1}" for i in range(players)], seed=seed,
                         agents={i: SeededRandom() for i in range(players)}, **kw)


def test_the_simulator_traces_a_traced_game_from_its_set_up():
    args = ("infernal_contraption", None, 2, 27, 3, "random", 400, False, None, (), True)
    trace = play_one(args)["trace"]
    assert "goes first" in trace and "deals" in trace


def _course(eng, ic, players, seed) -> list:
    """A seeded random game's whole course: after set-up and after every move, the legal moves (in
    order), the state, every event and the generator's state."""
    match = _new(eng, ic, players, seed, tracing=False)
    g = match.game
    out = []
    while True:
        legal = [] if match.terminal() else match.legal_moves()
        out.append(([m.key for m in legal], g.snapshot(), _events(g), g.rng.getstate()))
        if not legal or g.turn > 300:
            return out
        match.apply(g.agent(match.to_act()).pick(match, legal))


GAMES = [(players, seed) for players in (2, 3, 4) for seed in range(12)]


@pytest.fixture(scope="module")
def courses(ic):
    """Every game of GAMES as the fast paths play it (a fresh engine: no state shared with others)."""
    from runtime.games.infernal_contraption.engine import InfernalContraption

    eng = InfernalContraption()
    return {(p, s): _course(eng, ic, p, s) for p, s in GAMES}


def _slow_courses_equal(ic, courses, monkeypatch, patch) -> None:
    from runtime.games.infernal_contraption.engine import InfernalContraption

    patch(monkeypatch)
    eng = InfernalContraption()
    for p, s in GAMES:
        assert _course(eng, ic, p, s) == courses[(p, s)], f"{p} players, seed {s}"


def test_the_listing_is_the_slow_listing(ic, courses, monkeypatch):
    """``InfernalContraption.legal_moves`` (places as move tails, a play made from one) lists what the
    loop it replaced listed (reference_listing.py), in the same order, in every position of the games,
    and the games it plays are the games that loop plays."""
    from runtime.games.infernal_contraption.engine import InfernalContraption

    from .reference_listing import legal_moves

    eng = InfernalContraption()
    for p, s in GAMES[::3]:
        match = _new(eng, ic, p, s, tracing=False)
        while not match.terminal():
            assert eng.legal_moves(match.game) == legal_moves(match.game)
            legal = match.legal_moves()
            match.apply(match.game.agent(match.to_act()).pick(match, legal))
    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(
        InfernalContraption, "legal_moves", lambda self, game: legal_moves(game)))


def test_draws_recorded_without_the_bus_are_draws_published(ic, courses, monkeypatch):
    """``Ctx.draw_cards`` appends its Drawn events itself when ``GameState.unheard`` (nobody listens):
    the same games as publishing each one."""
    from runtime.state import GameState

    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(GameState, "unheard", lambda self: False))


def test_moving_the_top_card_by_pop_is_moving_it_by_remove(ic, courses, monkeypatch):
    """``GameState.move`` pops a card that is on top of its zone instead of searching the zone for
    it: the same games as ``list.remove`` (a card is in its zone once)."""
    from runtime.state import GameState
    from tests.test_runtime_moves import slow_move  # the move as it was, one copy for both tests

    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(GameState, "move", slow_move))


def test_cards_taken_from_a_place_without_a_query_for_it(ic, courses, monkeypatch):
    """The game's verbs (scrap, take, put) take cards "from <zone>" from that zone without making the
    query ``sel.at(src)`` first: the same games as making it (the verbs called as before, with the
    place inside the query and no ``from``)."""
    from runtime.games.infernal_contraption import verbs

    fast = verbs._pick

    def slow(ctx, sel, src, *args, **kw):
        return fast(ctx, sel.at(src) if src is not None else sel, None, *args, **kw)

    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(verbs, "_pick", slow))


def test_a_finished_game_is_freed_without_the_cyclic_collector(eng, ic):
    """An elimination's Stop, raised again from the activation (``_raise_halt``), leaves no cycle
    (Stop, traceback, frame, Stop) holding the game: every game is freed by reference counting when
    play ends, so the cyclic collector has nothing to find in a simulation."""
    import gc
    import weakref

    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for players, seed in GAMES:
            match = _new(eng, ic, players, seed, tracing=False)
            while not match.terminal():
                match.apply(match.game.agent(match.to_act()).pick(match, match.legal_moves()))
            assert match.game.winner is not None or match.game.capped or match.game.over
            gone = weakref.ref(match.game)
            del match
            assert gone() is None, f"{players} players, seed {seed}: the game is held in a reference cycle"
    finally:
        if was:
            gc.enable()


def _after_verb_by_calls(self, ctx) -> None:
    """``InfernalContraption.after_verb`` as it was: every question asked by a call."""
    from runtime.games.infernal_contraption.state import Stop

    game = ctx.game
    self.check_eliminations(game)
    if game.players[ctx.player].out:
        raise Stop("out")
    if not game.others(ctx.player):
        raise Stop("alone")
    if ctx.opponent is not None and game.players[ctx.opponent].out:
        raise Stop("opponent")


def test_the_check_after_a_verb_is_the_check_by_calls(ic, courses, monkeypatch):
    """``after_verb`` asks whether anybody's parts pile is empty, whether the player is out and whether
    another player is still in without calling ``check_eliminations`` and ``GameState.others``: the
    same games (eliminations mid-effect included) as asking by the calls."""
    from runtime.games.infernal_contraption.engine import InfernalContraption

    _slow_courses_equal(ic, courses, monkeypatch,
                        lambda mp: mp.setattr(InfernalContraption, "after_verb", _after_verb_by_calls))


def _move_by_override(self, uid, to, bottom=False):
    """``ICGame.move`` as it was, an override that called the core's move after the machine's rules."""
    from runtime.errors import Refused
    from runtime.state import GameState

    src = self.where[uid]
    if src[0] == "machine" and src != to:
        m = self.machines[src[1]]
        if not self._eliminating:
            if self.kind_of[uid] == "power_core":
                raise Refused("the Power Core can never be destroyed, scrapped or moved (I03)")
            if uid not in m.base and len(m.neighbours(uid)) > 1:
                raise Refused("only a terminal (a card attached at one socket) can leave a machine (I01)")
        m.detach(uid)
    GameState.move(self, uid, to, bottom)


def _move_many_by_override(self, uids, to):
    """``ICGame.move_many`` as it was: the machine's rules card by card, else the core's."""
    from runtime.state import GameState

    if any(z[0] == "machine" for z in set(map(self.where.__getitem__, uids))):
        for uid in uids:
            self.move(uid, to)
        return
    GameState.move_many(self, uids, to)


def test_leaving_a_machine_by_its_rules_is_the_override_it_replaced(ic, courses, monkeypatch):
    """A card leaves a machine by ``ICGame.leaving``, which the core's ``move`` and ``move_many`` ask
    for a zone of ``ruled_zones``: the same games as the ``move``/``move_many`` overrides it replaced
    (eliminations, scrapped terminals, refused Power Cores)."""
    from runtime.games.infernal_contraption.state import ICGame

    def patch(mp):
        mp.setattr(ICGame, "ruled_zones", frozenset())
        mp.setattr(ICGame, "move", _move_by_override, raising=False)
        mp.setattr(ICGame, "move_many", _move_many_by_override)

    _slow_courses_equal(ic, courses, monkeypatch, patch)


def _draw_cards_card_by_card(self, sel, src, strict):
    """``Ctx.draw_cards`` as it was: every card drawn by its own ``move``."""
    from runtime.context import ZONE, CardsDrawn, Drawn, Refused, UpToN, card_event

    g = self.game
    n = self.amount(sel)
    source = g.model.card_sources.get(sel.key)
    if src is not None:
        zone = self.zone_for(src)
        bottom, face = False, None
    elif source is not None:
        if self.others_only(ZONE, source.zone):
            self._not_mine([self.player], source.zone)
        zone = g.zone_key(source.zone, self.player)
        bottom, face = source.bottom, source.face
    else:
        zone = g.zone_key(g.model.rules.draw_from, self.player)
        bottom, face = False, None
    hand = g.zone_key(self.hand_zone(), self.player)
    if isinstance(sel.amount, UpToN):
        n = self.how_many(n, 0, "draw")
    available = self.engine.drawable(g, zone) if strict else None
    if available is not None and available < n:
        raise Refused(f"{zone[0]} has only {available} cards")
    drawn = []
    zones, instances, move, player = g.zones, g.instances, g.move, self.player
    unheard, turn, round_ = g.unheard(), g.turn_number, g.round
    for _ in range(n):
        if not zones[zone]:
            self.engine.refill(g, zone)
        pile = zones[zone]
        if not pile:
            if strict:
                raise Refused(f"{zone[0]} has only {len(drawn)} cards")
            break
        uid = pile[0] if bottom else pile[-1]
        move(uid, hand)
        if face:
            instances[uid].face = face
        instances[uid].owner = player
        drawn.append(uid)
        if unheard:
            g.events.append(card_event(Drawn, player, uid, turn, round_))
        else:
            self.publish_card(Drawn, uid)
    if g.tracing:
        g.tell(CardsDrawn(self.player, n=len(drawn), wanted=n, zone=zone))
    self.engine.after_draw(g, zone)
    return drawn


def test_a_draw_of_cards_on_the_pile_taken_at_once_is_the_draw_card_by_card(ic, courses, monkeypatch):
    """``Ctx.draw_cards`` takes the top cards in one step (``GameState.take_top``) when they are all on
    the pile and nobody hears a draw: the same games as drawing them one by one, as it did."""
    from runtime.context import Ctx

    _slow_courses_equal(ic, courses, monkeypatch,
                        lambda mp: mp.setattr(Ctx, "draw_cards", _draw_cards_card_by_card))


def _every_machine_card(eng, ic):
    """(game, owner, card) for every card of every machine, in every position of a third of GAMES played
    with random seats (the game moves on once the caller has looked at all of a position's cards)."""
    for p, s in GAMES[::3]:
        match = _new(eng, ic, p, s, tracing=False)
        g = match.game
        while not match.terminal():
            for owner, m in enumerate(g.machines):
                for uid in m.cards():
                    yield g, owner, uid
            match.apply(g.agent(match.to_act()).pick(match, match.legal_moves()))


def test_powered_asked_in_place_is_powered_by_the_neighbours_list(ic, courses, monkeypatch):
    """``InfernalContraption.powered`` asks each neighbour in place: the same answer as reading
    ``Machine.neighbours``' list, in every position of the games, for every card of every machine; and
    the same games as the list's way."""
    from runtime.games.infernal_contraption.engine import InfernalContraption
    from runtime.games.infernal_contraption.machine import POWER_KINDS

    def slow(self, game, player, uid):
        return any(game.kind_of[n] in POWER_KINDS for n in game.machines[player].neighbours(uid))

    eng = InfernalContraption()
    asked = 0
    for g, owner, uid in _every_machine_card(eng, ic):
        assert eng.powered(g, owner, uid) == slow(eng, g, owner, uid)
        asked += 1
    assert asked > 1000
    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(InfernalContraption, "powered", slow))


def test_kinds_skipped_without_a_call_are_the_kinds_resolve_skips(ic, courses, monkeypatch):
    """``activate`` skips a Power Core or an Upgrade without calling ``resolve``, which returns "skip"
    for them at once: the same games as calling it for every card (an activation written without the
    shortcut)."""
    from runtime.games.infernal_contraption import engine as engine_mod

    _slow_courses_equal(ic, courses, monkeypatch,
                        lambda mp: mp.setattr(engine_mod, "_SKIPPED_KINDS", frozenset()))


def test_a_listed_move_found_by_identity_is_the_move_found_by_key(ic, courses, monkeypatch):
    """``ICMatch.apply`` finds a move it listed by identity: it is the move ``refuse_unless_legal``
    finds by key only when no listing holds one key twice — held here in every position of the games
    — and the games are the games found by key (``apply`` as it was)."""
    from runtime.errors import Refused
    from runtime.games.infernal_contraption.engine import InfernalContraption
    from runtime.games.infernal_contraption.match import ICMatch
    from runtime.protocol import refuse_unless_legal

    eng = InfernalContraption()
    for p, s in GAMES:
        match = _new(eng, ic, p, s, tracing=False)
        while not match.terminal():
            legal = match.legal_moves()
            keys = [m.key for m in legal]
            assert len(set(keys)) == len(keys), f"{p} players, seed {s}: a key listed twice"
            match.apply(match.game.agent(match.to_act()).pick(match, legal))

    def by_key(self, move):
        g = self.game
        legal = refuse_unless_legal(move, self._legal(), g)
        self._listed = None
        out = g.engine.apply(g, legal.key, listed=True)
        if out.status == "refused":
            raise Refused(out.reason)
        if not g.over and self.turn_cap is not None and g.turn > self.turn_cap:
            from runtime.events import CapReached

            g.capped = True
            g.tell(CapReached(None, cap=self.turn_cap))

    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(ICMatch, "apply", by_key))


def test_cards_touching_counted_without_a_list_are_the_neighbours_listed(ic, courses, monkeypatch):
    """``Machine.touching`` counts a card's neighbours without listing them (``is_terminal``, a card
    leaving a machine): ``len(neighbours)`` for every card of every machine in every position of the
    games, and the same games as counting the list."""
    from runtime.games.infernal_contraption.engine import InfernalContraption
    from runtime.games.infernal_contraption.machine import Machine

    asked = 0
    for g, owner, uid in _every_machine_card(InfernalContraption(), ic):
        m = g.machines[owner]
        assert m.touching(uid) == len(m.neighbours(uid))
        asked += 1
    assert asked > 1000

    def by_the_list(self, uid):
        return len(self.neighbours(uid))

    _slow_courses_equal(ic, courses, monkeypatch, lambda mp: mp.setattr(Machine, "touching", by_the_list))
