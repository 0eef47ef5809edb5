"""What one player at the table sees, as plain data: everyone's Goods and cards in front of them, your
hand, the shared board, and the text of any card — with the game's printed names only.

``table_view(game, seat)`` builds it; runtime/terminal.py draws it with rich. What belongs to one
game (the Moon's hex map, an Infernal Contraption Machine's layout, 51st State's rows) comes from the
engine's ``board_sections`` and ``seat_sections`` hooks; the neutral defaults here list the zones a
game.yaml declares. Nothing here prints, and nothing face down is shown: a hidden zone is counted
only where the engine says a player may count it (``Engine.may_count``).
"""
from __future__ import annotations

from dataclasses import dataclass

# a zone holding more cards than this is shown as a count and its top card (a discard pile), not a list
LISTED = 8
# card fields that are bookkeeping, not what the card says
_NOT_PRINTED = {"id", "kind", "name", "source", "note", "provisional", "at", "texts", "slots", "faces", "text",
                "set", "count", "aliases"}


@dataclass(frozen=True)
class Section:
    """A titled part of the table: plain ``lines`` (kept as they are: a map keeps its spacing) and/or
    a ``grid`` of cells (rows of equal length: a Machine's layout)."""

    title: str
    lines: tuple[str, ...] = ()
    grid: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class SeatView:
    name: str
    you: bool
    goods: str  # "12 Money, 1 Brick" or "no Goods"
    hand: int  # cards in hand (yours are listed in TableView.hand)
    out: bool  # out of the game (eliminated)
    to_act: bool
    sections: tuple[Section, ...]  # the cards in front of this player (tableau, State, Machine…)


@dataclass(frozen=True)
class CardLine:
    uid: int
    name: str
    summary: str  # cost and kind, one line: what a menu shows beside the name


@dataclass(frozen=True)
class TableView:
    title: str  # "Infernal Contraption — round 2, attach step"
    seats: tuple[SeatView, ...]
    hand: tuple[CardLine, ...]
    board: tuple[Section, ...]
    has_hand: bool = True  # the game gives players a hand (the Moon does not)


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def goods_text(game, goods) -> str:
    """Goods with their printed names: "12 Money, 1 Brick" ("no Goods" when none)."""
    return ", ".join(game.goods_words(k, n) for k, n in sorted(goods.items()) if n) or "no Goods"


def card_name(game, uid: int) -> str:
    """The card's printed name as the engine shows it (a Ruins, a Hacked card), with Goods on it."""
    name = game.engine.name_of(game, uid) if game.engine is not None else \
        str(game.record(uid).get("name", game.instances[uid].card_id))
    on = game.instances[uid].goods
    return name + (f" ({goods_text(game, on)} on it)" if any(on.values()) else "")


def _value(v) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {_value(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    return str(v).replace("_", " ") if isinstance(v, str) else str(v)


def card_fields(rec: dict) -> list[tuple[str, str]]:
    """The printed fields of a card record (cost, VP, icons, distance…), in the record's order."""
    return [(k.replace("_", " "), _value(v)) for k, v in rec.items()
            if k not in _NOT_PRINTED and v not in (None, "", [], {}) and not callable(v)]


def card_summary(game, card_id: str, with_text: bool = False) -> str:
    """One line for a menu: the kind's printed name and the card's cost-like fields; ``with_text``
    adds what the card does (its printed text, else its effects) — a buy menu's line."""
    rec = game.cards[card_id]
    kind = game.model.kinds.get(rec.get("kind"))
    bits = [kind.name if kind is not None else str(rec.get("kind", "")).replace("_", " ")]
    bits += [f"{k} {v}" for k, v in card_fields(rec) if k in ("cost", "vp", "distance", "price")]
    line = ", ".join(b for b in bits if b)
    if with_text:
        does = str(rec["text"]) if rec.get("text") else "; ".join(effect_lines(game, rec))
        line += f" — {does}" if does else ""
    return line


def effect_lines(game, rec: dict) -> list[str]:
    """Each effect of a card with its slot's printed name: "Production: gain 1 brick"."""
    kind = game.model.kinds.get(rec.get("kind"))
    slot_names = {s.key: s.name for s in kind.slots} if kind is not None else {}
    return [f"{slot_names.get(slot) or slot.replace('_', ' ').capitalize()}: {text}"
            for slot, text in (rec.get("texts") or {}).items()]


def card_text(game, card_id: str) -> list[str]:
    """The whole card as a player reads it: name and kind, its fields, its printed text and each
    effect with the slot's printed name ("Production: gain 1 brick")."""
    rec = game.cards[card_id]
    kind = game.model.kinds.get(rec.get("kind"))
    lines = [f"{rec.get('name', card_id)} — {kind.name if kind is not None else rec.get('kind', 'card')}"]
    lines += [f"{k}: {v}" for k, v in card_fields(rec)]
    if rec.get("text"):
        lines.append(str(rec["text"]))
    return lines + effect_lines(game, rec)


def zone_lines(game, key, seat: int) -> tuple[str, ...]:
    """What may be seen of one zone: the cards' names (up to LISTED), else a count and the top card;
    a face-down zone only counted, and only where the engine allows counting it."""
    spec = game.model.zones.get(key[0])
    cards = game.zones.get(key, [])
    # the pile cards are drawn from is face down whether or not game.yaml says `hidden`
    if spec is not None and (spec.hidden or key[0] == game.model.rules.draw_from):
        if game.engine is not None and not game.engine.may_count(game, key[0]):
            return ("face down",)
        return (plural(len(cards), "card") + ", face down",)
    names = [card_name(game, u) for u in cards]
    if len(set(names)) <= LISTED:
        return (", ".join(_grouped(names)),) if names else ("empty",)
    return (f"{plural(len(cards), 'card')}; on top: {names[-1]}",)


def _grouped(names: list[str]) -> list[str]:
    """Names in their order, a repeated one once with its count: "First Card ×2"."""
    counts: dict[str, int] = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return [n if c == 1 else f"{n} ×{c}" for n, c in counts.items()]


def default_seat_sections(game, player: int, seat: int) -> list[Section]:
    """Every zone a player has of their own, except the hand: listed (the tableau), counted (piles)."""
    model = game.model
    out = []
    for zkey, spec in model.zones.items():
        if not spec.per_player or zkey == model.rules.hand:
            continue
        key = (zkey, player)
        if key not in game.zones or (not game.zones[key] and zkey not in model.rules.tableau):
            continue
        out.append(Section(spec.name, zone_lines(game, key, seat)))
    return out


def default_board_sections(game, seat: int) -> list[Section]:
    """The zones the game shares, with what is in them."""
    out = []
    for zkey, spec in game.model.zones.items():
        key = (zkey, None)
        if spec.per_player or not game.zones.get(key):
            continue
        out.append(Section(spec.name, zone_lines(game, key, seat)))
    return out


def table_view(game, seat: int, to_act: int | None = None) -> TableView:
    """What ``seat`` sees of ``game`` now."""
    engine = game.engine
    hand_zone = game.model.rules.hand
    seats = []
    for p, pl in enumerate(game.players):
        hand = game.zones.get((hand_zone, p), [])
        sections = engine.seat_sections(game, p, seat) if engine is not None else default_seat_sections(game, p, seat)
        seats.append(SeatView(pl.name, p == seat, goods_text(game, pl.goods), len(hand), bool(pl.out), p == to_act,
                              tuple(sections)))
    hand = tuple(CardLine(u, card_name(game, u), card_summary(game, game.instances[u].card_id))
                 for u in game.zones.get((hand_zone, seat), []))
    board = engine.board_sections(game, seat) if engine is not None else default_board_sections(game, seat)
    phase = f", {game.phase.replace('_', ' ')}" if game.phase else ""
    title = f"{game.model.name or game.vocab.get('name', '')} — round {game.round}{phase}"
    return TableView(title, tuple(seats), hand, tuple(board), (hand_zone, seat) in game.zones)


def card_of(game, value):
    """The card an option is about: a card instance (uid) or a card id (a supply pile), found in a
    move's key or a choice's value; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value in game.instances:
        return game.instances[value].card_id
    if isinstance(value, str) and value in game.cards:
        return value
    if isinstance(value, tuple):
        for v in value:
            found = card_of(game, v)
            if found is not None:
                return found
    key = getattr(value, "key", None)
    if key is not None and key is not value:
        return card_of(game, key)
    return None
