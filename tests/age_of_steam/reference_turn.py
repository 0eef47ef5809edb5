"""The slow originals of what the Moon's turn now reads from tables (issue 27), kept as the reference
the fast path is held to (tests/age_of_steam/test_turn_shortcuts.py), used by nothing else — as
reference_moves.py keeps the listing's. Keep them unchanged unless the rules change; a rule change goes
into the engine and here together."""
from __future__ import annotations

from runtime.errors import RulesError


def goods_growth(e, game, dice: list | None = None) -> None:
    """``AgeOfSteam.goods_growth`` as it was before its Cities were kept per Sun side
    (``_growth_cities``): every City looked up, grouped by number and asked whether it is day there,
    at every Goods Growth."""
    m = game.moon
    per = (game.model.table("goods_growth") or {}).get("dice_per_player", 2)
    n = per * len(game.active_players())
    if dice is None:
        dice = [game.rng.randint(1, 6) for _ in range(n)]
    elif len(dice) != n:
        raise RulesError(f"Goods Growth rolls {n} dice ({per} per player), {len(dice)} given")
    trace = game.tracing
    if trace:
        game.emit("growth", None, f"Goods Growth: rolls {', '.join(map(str, dice))}")
    connected = e.connected(game)
    by_number: dict = {}
    for h, city in sorted(e.cities(game).items()):
        by_number.setdefault(city.get("number"), []).append((h, city))
    for d in dice:
        for h, city in by_number.get(d, ()):
            col = city.get("id") if h in m.new_cities else str(d)
            why = None
            if not e.is_day(game, h):
                why = "is on the night side"
            elif h not in connected:
                why = "is not connected to the Landing hex by Complete Links"
            elif not m.display.get(col):
                why = f"has no cube left in its Goods Display column {col}"
            if why:
                if trace:
                    game.emit("growth", None, f"  {d}: {e.label(game, h)} {why}: no cube")
                continue
            c = m.display[col].pop(0)
            m.cubes.setdefault(h, []).append(c)
            if trace:
                game.emit("growth", None, f"  {d}: {e.label(game, h)} receives a {c} cube")
    other = [s for s in sorted(m.map.sun_spaces) if s != m.sun]
    m.sun = other[0] if other else m.sun
    m.turn += 1
    if trace:
        game.emit("sun", None,
                  f"the Sun moves to {m.sun}: {e.day_label(game)} is day; turn marker to {m.turn}")
