"""The attach step's legal moves as Infernal Contraption's engine listed them before issue 27's
fast listing (``InfernalContraption.legal_moves``): the slow, obvious originals that
test_fast_play.py holds the fast listing to (the same moves in the same order). Used by tests only."""
from __future__ import annotations

from runtime.games.infernal_contraption.machine import MAIN_KINDS, POWER_KINDS
from runtime.games.infernal_contraption.moves import END, REFIT, Move


def open_slots(game, player: int) -> tuple[list, list, list]:
    """Free places: (ends of the player's main line, plug places in the player's machine, plug
    places in opponents' machines). Each is (owner, anchor, side, anchor's socket there, index
    of the new card's touching socket, anchor is a Power Source)."""
    kinds = game.kind_of
    socks = game.sock_of
    ends, own, opp = [], [], []
    for owner in game.active_players():
        m = game.machines[owner]
        main = m.main
        if not main:
            continue
        mine = owner == player
        if mine:
            ends.append((owner, main[0], "left", socks[main[0]][0], 1, False))
            ends.append((owner, main[-1], "right", socks[main[-1]][1], 0, False))
        out = own if mine else opp
        top, bottom = m.top, m.bottom
        for c in main:
            pw = kinds[c] in POWER_KINDS
            sc = socks[c]
            if c not in top:
                out.append((owner, c, "top", sc[2], 3, pw))
            if c not in bottom:
                out.append((owner, c, "bottom", sc[3], 2, pw))
    return ends, own, opp


def legal_moves(game) -> list[Move]:
    """Every legal decision of the attach step for the player whose turn it is (I14).

    Two copies of one card in hand have the same moves: only the first is listed."""
    if game.step != "attach" or game.over:
        return []
    p = game.turn_player
    moves = [END]
    if game.refitted:
        return moves
    hand = game.zones[("hand", p)]
    if game.plays == 0 and hand:
        moves.append(REFIT)
    if game.plays >= 1 and len(hand) < 2:  # an extra play needs another card to scrap first
        return moves
    ends, own, opp = open_slots(game, p)
    kinds = game.kind_of
    socks = game.sock_of
    instances = game.instances
    seen = set()
    add = moves.append
    for uid in hand:
        key = instances[uid].card_id
        if key in seen:
            continue
        seen.add(key)
        kind = kinds[uid]
        s = socks[uid]
        if kind == "sabotage":
            places = opp
        else:
            if kind in MAIN_KINDS:
                for owner, anchor, side, need, f, _ in ends:
                    mine = s[f]
                    if mine == need or mine == 0 or need == 0:
                        add(Move("play", uid, owner, anchor, side, 0, ()))
            places = own
        consumable = kind == "consumable"
        for owner, anchor, side, need, f, power in places:
            if consumable and not power:
                continue
            mine = s[f]
            if mine == need or mine == 0 or need == 0:
                add(Move("play", uid, owner, anchor, side, 0, ()))
    return moves

