"""The typed game model: what a game's vocabulary declares, read once (DESIGN §9, issue 22).

A game's ``game.yaml`` declares its Goods, zones, things (selectable cards), icons, card sources and
rules. The build validates it and emits it as a plain dict (``generated/<game>/__init__.py`` VOCAB);
:func:`model_of` reads that dict once into frozen dataclasses, and every reader — the runtime's
selection, the verbs, the engines' draw piles, the checker's ``others_only``, the English — asks the
model instead of looking sections up by string. Each rule that depends on the vocabulary has one
home here: "only another player's pile" (:meth:`GameModel.others_only`), "a thing named without an
owner is yours" (:meth:`GameModel.yours_by_default`), the zones of the house rules
(:class:`Rules`).

The model is built from a validated vocabulary: a missing optional section is empty, never an error.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Mapping

from .options import OptionSpec, option_specs, seats
from .refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, ZONE
from .words import plurals

_EMPTY: Mapping = MappingProxyType({})


@dataclass(frozen=True)
class Printed:
    """How a game.yaml entry is printed: the name it declares (None: the reader's default from the
    key), the other names a text may use, and a declared plural."""

    declared: str | None = None
    aliases: tuple[str, ...] = ()
    plural: str | None = None


_NO_PRINT = Printed()


def _printed(spec: dict) -> Printed:
    name, plural = spec.get("name"), spec.get("plural")
    return Printed(str(name) if name else None, _names(spec.get("aliases")), str(plural) if plural else None)


@dataclass(frozen=True)
class GoodSpec:
    key: str
    name: str
    signed: bool  # may go below zero (a debt)
    printed: Printed = _NO_PRINT
    kind: str | None = None  # what sort of Good it is, for the reference ("currency", "score"…)
    note: str | None = None


@dataclass(frozen=True)
class ZoneSpec:
    key: str
    name: str
    per_player: bool       # each player has one (else one, shared by the game)
    hidden: bool           # face down: its order is not known (the Monte Carlo bot redraws it)
    others_only: bool      # ``access: others``: effects may use only another player's (S07/S08)
    card_piles: bool       # ``piles: card``: one pile per card id (a deck-builder's supply)
    printed: Printed = _NO_PRINT
    note: str | None = None


@dataclass(frozen=True)
class ThingSpec:
    """A thing: cards selected from zones, narrowed by kind, face, fields and an engine's filter."""

    key: str
    name: str
    zones: tuple[str, ...]
    kinds: frozenset | None          # None: any kind
    faces: frozenset | None          # None: any face
    where: tuple[tuple[str, tuple], ...]  # (field, values): the card's field has one of the values
    engine_filter: str | None        # a predicate the game's engine computes (by name)
    top_only: bool                   # only the top card of each zone ("the [symbol]")
    per_player: bool                 # looked for in the owners' zones (else the game's shared zones)
    others_only: bool                # declared so, or selects from an ``access: others`` zone
    printed: Printed = _NO_PRINT
    listed_kinds: tuple[str, ...] = ()  # ``kinds`` as game.yaml lists them (the reference keeps that order)
    note: str | None = None


@dataclass(frozen=True)
class IconSpec:
    key: str
    name: str
    good: str | None  # the Good the icon-to-Good table gives it
    printed: Printed = _NO_PRINT
    uncertain: str | None = None  # why the reading of the icon (from the rulebook's art) is uncertain
    note: str | None = None
    # how printed matter draws it (compiler/reference.py icon_html): the badge's letter, colour and
    # shape, or the game's own picture (a path under the game folder, checked by the build)
    letter: str | None = None
    colour: str | None = None
    shape: str | None = None
    image: str | None = None


@dataclass(frozen=True)
class CardSource:
    """A noun that draws from a pile ("draw 1 hacked": the bottom of the Machine deck, Hacked up)."""

    key: str
    zone: str
    bottom: bool
    face: str | None
    printed: Printed = _NO_PRINT
    note: str | None = None


@dataclass(frozen=True)
class PhaseSpec:
    key: str
    name: str
    skip_in_round: frozenset  # rounds in which the phase does not happen (Moloch's Assault in round 1)
    declared: str | None = None  # the name game.yaml gives it (``name`` falls back to the key)
    note: str | None = None


@dataclass(frozen=True)
class SlotSpec:
    key: str
    name: str
    kind: str                          # "effect" | "trigger" | "condition" | "cost" | "ability" | "quantity"
    listens_in: tuple[str, ...] | None  # a trigger slot's zones (None: the game's rules.in_play)
    declared: str | None = None  # the name game.yaml gives it
    usable_in: tuple[str, ...] | None = None  # an ability slot's zones (None: the game's rules.in_play)


@dataclass(frozen=True)
class FieldSpec:
    """A card field a kind (or one of its faces) declares."""

    key: str
    title: str | None  # the title game.yaml gives it
    type: Any          # as game.yaml declares it: a shorthand type name or a JSON Schema fragment
    numeric: bool      # ``int``/``number`` (or a schema of that type): a comparison may read it


def _find(items: tuple, key: str):
    return next((i for i in items if i.key == key), None)


@dataclass(frozen=True)
class FaceSpec:
    """Another face of a double-sided card kind (a Machine's Hacked side): its own slots and fields."""

    key: str
    declared: str | None  # the name game.yaml gives it
    slots: tuple[SlotSpec, ...] = ()
    fields: tuple[FieldSpec, ...] = ()

    def slot(self, key: str) -> SlotSpec | None:
        return _find(self.slots, key)

    def field(self, key: str) -> FieldSpec | None:
        return _find(self.fields, key)


@dataclass(frozen=True)
class KindSpec:
    key: str
    name: str
    slots: tuple[SlotSpec, ...]  # in game.yaml's order
    declared: str | None = None  # the name game.yaml gives it
    note: str | None = None
    fields: tuple[FieldSpec, ...] = ()  # in game.yaml's order
    faces: tuple[FaceSpec, ...] = ()    # in game.yaml's order
    required: tuple[str, ...] = ()      # the fields (or faces) every card of the kind must have
    colour: str | None = None           # its frame colour on a printed card (checked when drawn)
    min_font_size: float | None = None  # the smallest body text its printed faces may shrink to, in points

    def slot(self, key: str) -> SlotSpec | None:
        return _find(self.slots, key)

    def field(self, key: str) -> FieldSpec | None:
        return _find(self.fields, key)

    def face(self, key: str) -> FaceSpec | None:
        return _find(self.faces, key)


@dataclass(frozen=True)
class Rules:
    """The zones and slots the core verbs use (game.yaml ``rules``), with the core engine's defaults."""

    hand: str = "hand"
    draw_from: str = "deck"
    discard_to: str = "discard"
    trash_to: str | None = None
    remove_to: str | None = None
    gain_from: str | None = None
    gain_to: str | None = None      # where gained cards go (default: the discard zone)
    play_to: str | None = None
    play_slot: str | None = None
    in_play: tuple[str, ...] = ()
    tableau: tuple[str, ...] = ()
    reshuffle: Mapping = field(default_factory=lambda: _EMPTY)  # empty draw pile -> the pile shuffled into it

    @property
    def gain_into(self) -> str:
        return self.gain_to or self.discard_to


@dataclass(frozen=True)
class GameModel:
    game: str
    engine: str
    goods: Mapping[str, GoodSpec]
    zones: Mapping[str, ZoneSpec]
    things: Mapping[str, ThingSpec]
    icons: Mapping[str, IconSpec]
    good_groups: Mapping[str, tuple[str, ...]]
    card_sources: Mapping[str, CardSource]
    rules: Rules
    phases: tuple[PhaseSpec, ...] = ()
    kinds: Mapping[str, KindSpec] = field(default_factory=lambda: _EMPTY)
    # a game's own tables (deploy counts, costs, sockets…), read by its engine: opaque values here
    tables: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    name: str = ""  # the game's printed name
    players: Mapping[str, Printed] = field(default_factory=lambda: _EMPTY)  # player nouns a game adds
    card_flags: tuple[str, ...] = ()
    provenance: str | None = None  # game.yaml ``source``: where the rules come from
    note: str | None = None
    options: Mapping[str, OptionSpec] = field(default_factory=lambda: _EMPTY)  # what is chosen at setup
    seats: tuple[int, int] | None = None  # (min, max) players, when game.yaml says
    seats_note: str | None = None
    # words a game prints for a verb ("scrap" for trash, issue 28): alias -> verb name
    verb_aliases: Mapping[str, str] = field(default_factory=lambda: _EMPTY)
    # the vocabulary it was read from, for pickling only (a mappingproxy does not pickle): a pickled
    # model is rebuilt from it
    source: dict | None = field(default=None, compare=False, repr=False)

    def printed(self, category: str, key: str) -> Printed | None:
        """How a Good, zone, thing or icon is printed (categories as in runtime/refs.py); None when the
        game declares no such entry."""
        section = {"good": self.goods, "zone": self.zones, "thing": self.things, "icon": self.icons}.get(category)
        spec = section.get(key) if section is not None else None
        return spec.printed if spec is not None else None

    def __deepcopy__(self, memo):  # immutable: a copied game state shares its model
        return self

    def __reduce__(self):
        return (build_model, (self.source,))

    @cached_property  # read by every payment: worked out once (it lands in __dict__, not through setattr)
    def signed_goods(self) -> frozenset:
        return frozenset(k for k, g in self.goods.items() if g.signed)

    # --- the nouns an effect text may use (the checker, the English, the language server) ----
    @cached_property
    def _nouns(self) -> tuple[dict, frozenset]:
        return _noun_index(self)

    @property
    def nouns(self) -> Mapping[str, tuple[tuple[str, str], ...]]:
        """Every noun phrase -> its (category, key) readings (categories as in runtime/refs.py);
        plurals derived ("location" -> "locations") unless a name lists its own aliases."""
        return self._nouns[0]

    @property
    def written_names(self) -> frozenset:
        """The noun phrases written somewhere (game.yaml or the built-ins) rather than derived as
        plurals: what the language server offers to complete."""
        return self._nouns[1]

    def lookup(self, phrase: str) -> tuple[tuple[str, str], ...]:
        return self.nouns.get(phrase, ())

    def names_in(self, category: str | None = None) -> list[str]:
        return sorted(p for p, entries in self.nouns.items()
                      if category is None or any(c == category for c, _ in entries))

    @cached_property
    def field_names(self) -> frozenset:
        """Every card field, slot and card flag name, for ``with``/``without`` filters."""
        out = set(self.card_flags)
        for kind in self.kinds.values():
            out |= {s.key for s in kind.slots} | {f.key for f in kind.fields}
        return frozenset(out)

    @cached_property
    def numeric_fields(self) -> frozenset:
        """Card fields a comparison may read: declared numeric in some card kind."""
        return frozenset(f.key for kind in self.kinds.values() for f in kind.fields if f.numeric)

    @cached_property
    def quantity_slots(self) -> frozenset:
        """Slots of kind ``quantity`` (a card's worth computed in play, e.g. its VP at the game's end):
        ``the SLOT of CARD`` runs the card's slot (issue 28)."""
        return frozenset(s.key for kind in self.kinds.values() for s in kind.slots if s.kind == "quantity")

    @cached_property
    def cost_slots(self) -> frozenset:
        """Slots of kind ``cost`` ("this costs 1 less per …": a card's own cost change, read for whoever
        reads the cost, issue 28)."""
        return frozenset(s.key for kind in self.kinds.values() for s in kind.slots if s.kind == "cost")

    @property
    def phase_keys(self) -> tuple[str, ...]:
        return tuple(ph.key for ph in self.phases)

    @cached_property
    def slot_keys(self) -> tuple[str, ...]:
        """Every effect slot some card kind declares (its front), sorted."""
        return tuple(sorted({s.key for kind in self.kinds.values() for s in kind.slots}))

    def good_name(self, key: str) -> str:
        g = self.goods.get(key)
        return g.name if g is not None else key

    def table(self, name: str) -> Any:
        """A game table by name (None when the game declares none)."""
        return self.tables.get(name)

    def piled(self, zone: str) -> bool:
        """``piles: card``: the zone is one pile per card id (a zone the engine made is not)."""
        z = self.zones.get(zone)
        return z is not None and z.card_piles

    def zone_name(self, key: str) -> str:
        z = self.zones.get(key)
        return z.name if z is not None else key.replace("_", " ")

    def others_only(self, category: str, key: str) -> bool:
        """True when effects may name only ANOTHER player's one of this zone (``access: others``); for
        a thing, when it is declared so or selects from such a zone; for a card source, when it draws
        from such a zone (Scavengers S07/S08). Category names as in runtime/refs.py."""
        if category == "zone":
            z = self.zones.get(key)
            return z is not None and z.others_only
        if category == "thing":
            t = self.things.get(key)
            return t is not None and t.others_only
        if category == "card":
            src = self.card_sources.get(key)
            z = self.zones.get(src.zone) if src is not None else None
            return z is not None and z.others_only
        return False

    def yours_by_default(self, thing: str) -> bool:
        """A thing named without an owner is the acting player's when it lives in per-player zones
        and is not one an effect may only take from others (Ctx.things; the English says "you have")."""
        t = self.things.get(thing)
        if t is None or not t.per_player or t.others_only:
            return False
        return all(z in self.zones and self.zones[z].per_player and not self.zones[z].others_only
                   for z in t.zones)


# the rules that name one zone or slot (Rules' other fields are lists or a mapping)
_RULE_NAMES = ("hand", "draw_from", "discard_to", "trash_to", "remove_to", "gain_from", "gain_to", "play_to",
               "play_slot")


def _section(vocab: dict, name: str) -> dict:
    """A mapping section, each entry a mapping. The schema guarantees both for a validated game; the
    language server and the schema hooks may read a game.yaml that has not passed yet, so anything
    else reads as empty rather than failing here (the validator reports it)."""
    section = vocab.get(name)
    if not isinstance(section, dict):
        return {}
    return {k: (v if isinstance(v, dict) else {}) for k, v in section.items()}


def _values(value: Any) -> tuple:
    return tuple(value) if isinstance(value, list) else (value,)


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _text(value) -> str | None:
    """An optional text of game.yaml (a name, a note): None when absent or empty."""
    return str(value) if value not in (None, "") and not isinstance(value, (dict, list)) else None


def _names(value) -> tuple:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def build_model(vocab: dict) -> GameModel:
    """The model of a vocabulary (the only reader of its sections by name). Built for a validated
    game; a value of the wrong shape (which the validator reports) reads as absent."""
    zones_raw = _section(vocab, "zones")
    zones = {k: ZoneSpec(k, str(z.get("name") or k.replace("_", " ")), z.get("per", "player") == "player",
                         bool(z.get("hidden")), z.get("access") == "others", z.get("piles") == "card", _printed(z),
                         _text(z.get("note")))
             for k, z in zones_raw.items()}
    things = {}
    for k, t in _section(vocab, "things").items():
        tz = _names(t.get("zones"))
        things[k] = ThingSpec(
            k, str(t.get("name") or k.replace("_", " ")), tz,
            frozenset(_names(t.get("kinds"))) or None,
            frozenset(_names(t.get("faces"))) or None,
            tuple((f, _values(v)) for f, v in _mapping(t.get("where")).items()),
            t.get("engine_filter") if isinstance(t.get("engine_filter"), str) else None,
            bool(t.get("top_only")), t.get("per", "player") == "player",
            t.get("access") == "others" or any(zones[z].others_only for z in tz if z in zones), _printed(t),
            _names(t.get("kinds")), _text(t.get("note")))
    rules_raw = _mapping(vocab.get("rules"))
    rules = Rules(**{name: rules_raw[name] for name in _RULE_NAMES if isinstance(rules_raw.get(name), str)},
                  in_play=_names(rules_raw.get("in_play")), tableau=_names(rules_raw.get("tableau")),
                  reshuffle=MappingProxyType({k: v for k, v in _mapping(rules_raw.get("reshuffle")).items()
                                              if isinstance(v, str)}))
    kinds = {}
    for k, spec in _section(vocab, "card_kinds").items():
        faces = tuple(FaceSpec(f, _text(v.get("name")), _slots(v), _fields(v))
                      for f, v in _section(spec, "faces").items())
        kinds[k] = KindSpec(k, str(spec.get("name") or k), _slots(spec), _text(spec.get("name")), _text(spec.get("note")),
                            _fields(spec), faces, _names(spec.get("required")), _text(spec.get("colour")),
                            _points(spec.get("min_font_size")))
    return GameModel(
        game=str(vocab.get("game", "")), engine=str(vocab.get("engine") or "core"),
        goods=MappingProxyType({k: GoodSpec(k, str(g.get("name") or k), bool(g.get("signed")), _printed(g),
                                            _text(g.get("kind")), _text(g.get("note")))
                                for k, g in _section(vocab, "goods").items()}),
        zones=MappingProxyType(zones), things=MappingProxyType(things),
        icons=MappingProxyType({k: IconSpec(k, str(i.get("name") or k),
                                            i.get("good") if isinstance(i.get("good"), str) else None, _printed(i),
                                            _text(i.get("uncertain")), _text(i.get("note")), _text(i.get("letter")),
                                            _text(i.get("colour")), _text(i.get("shape")), _text(i.get("image")))
                                for k, i in _section(vocab, "icons").items()}),
        good_groups=MappingProxyType({k: tuple(sorted(_names(v))) for k, v in _mapping(vocab.get("good_groups")).items()}),
        card_sources=MappingProxyType({k: CardSource(k, s["zone"], s.get("end") == "bottom", s.get("face"), _printed(s),
                                                     _text(s.get("note")))
                                       for k, s in _section(vocab, "card_sources").items()
                                       if isinstance(s.get("zone"), str)}),
        rules=rules,
        phases=tuple(_phase(ph) for ph in (vocab.get("phases") if isinstance(vocab.get("phases"), list) else ())
                     if isinstance(ph, str) or (isinstance(ph, dict) and isinstance(ph.get("id"), str))),
        kinds=MappingProxyType(kinds),
        tables=MappingProxyType(dict(_mapping(vocab.get("tables")))),
        name=str(vocab.get("name") or vocab.get("game", "")),
        players=MappingProxyType({k: _printed(p) for k, p in _section(vocab, "players").items()}),
        card_flags=tuple(k for k in _mapping(vocab.get("card_flags")) if isinstance(k, str)),
        provenance=_text(vocab.get("source")), note=_text(vocab.get("note")),
        options=MappingProxyType(option_specs(vocab)), seats=seats(vocab),
        seats_note=_text(_mapping(vocab.get("seats")).get("note")),
        verb_aliases=MappingProxyType({k: v for k, v in _mapping(vocab.get("verb_aliases")).items()
                                       if isinstance(k, str) and isinstance(v, str)}),
        source=vocab)


def _slots(spec: dict) -> tuple[SlotSpec, ...]:
    return tuple(SlotSpec(slot, str(ss.get("name") or slot), str(ss.get("kind") or "effect"),
                          _names(ss.get("listens_in")) or None, _text(ss.get("name")),
                          _names(ss.get("usable_in")) or None)
                 for slot, ss in _section(spec, "slots").items())


def _fields(spec: dict) -> tuple[FieldSpec, ...]:
    return tuple(FieldSpec(f, _text(t.get("title")) if isinstance(t, dict) else None, t, _numeric(t))
                 for f, t in _mapping(spec.get("fields")).items())


def _points(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _numeric(ftype) -> bool:
    """A field a comparison may read: ``int`` or ``number``, or a schema fragment of that type."""
    return ftype in ("int", "number") or (isinstance(ftype, dict) and ftype.get("type") in ("integer", "number"))


# Nouns every game has. "card"/"cards" select cards in a place; players are who acts and who is
# acted on. A game may add more players' nouns in its vocabulary.
BUILTIN_NOUNS: dict[str, tuple[str, str]] = {
    "card": (CARD, "card"), "cards": (CARD, "card"),
    "you": (PLAYER, "you"), "opponent": (PLAYER, "opponent"), "owner": (PLAYER, "owner"),
    "player": (PLAYER, "player"), "players": (PLAYER, "player"),
    "icon": (ICON, "icon"), "icons": (ICON, "icon"),
    "good": (GOOD, "good"), "goods": (GOOD, "goods"),
}


def _words(key: str) -> str:
    return key.replace("_", " ")


def _pile_nouns(zone: ZoneSpec) -> list[tuple[str, str]]:
    """A ``piles: card`` zone's piles as nouns: "supply pile(s)", "empty supply pile(s)"."""
    out = []
    for n in (_words(zone.key), *zone.printed.aliases):
        for noun, key in ((f"{n} pile", zone.key), (f"empty {n} pile", f"empty:{zone.key}")):
            out += [(form, key) for form in (noun, *plurals(noun))]
    return out


def _noun_index(m: "GameModel") -> tuple[dict[str, tuple[tuple[str, str], ...]], frozenset]:
    """Every noun phrase an effect may use -> its (category, key) readings, and the phrases written
    somewhere (a key's words, an alias, a pile, a built-in) rather than derived as plurals."""
    index: dict[str, list[tuple[str, str]]] = {}
    written = set(BUILTIN_NOUNS)

    def add(phrase: str, category: str, key: str) -> None:
        entries = index.setdefault(phrase, [])
        if (category, key) not in entries:
            entries.append((category, key))

    for phrase, (cat, key) in BUILTIN_NOUNS.items():
        add(phrase, cat, key)
    for cat, section in ((GOOD, m.goods), (ZONE, m.zones), (THING, m.things), (ICON, m.icons)):
        for key, spec in section.items():
            names = [_words(key), *spec.printed.aliases]
            written.update(names)
            for n in list(names):
                names += plurals(n)
            for n in names:
                add(n, cat, key)
    for zone in m.zones.values():
        if zone.card_piles:
            for noun, key in _pile_nouns(zone):
                add(noun, PILE, key)
                written.add(noun)
    for key in m.good_groups:
        written.add(_words(key))
        for n in (_words(key), *plurals(_words(key))):
            add(n, GOOD, key)
    for key, src in m.card_sources.items():
        for n in (_words(key), *src.printed.aliases):
            add(n, CARD, key)
            written.add(n)
    for ph in m.phases:
        add(_words(ph.key), PHASE, ph.key)
        written.add(_words(ph.key))
    for key, printed in m.players.items():
        add(_words(key), PLAYER, key)
        written.update((_words(key), *printed.aliases))
    return {k: tuple(v) for k, v in index.items()}, frozenset(written)


def _phase(ph) -> PhaseSpec:
    if isinstance(ph, str):
        return PhaseSpec(ph, ph, frozenset())
    skip = ph.get("skip_in_round")
    return PhaseSpec(ph["id"], str(ph.get("name") or ph["id"]), frozenset(skip if isinstance(skip, list) else ()),
                     str(ph["name"]) if ph.get("name") else None, _text(ph.get("note")))


# One model per vocabulary dict: a compiled game's VOCAB is a module constant shared by every game
# state and every copy, so its model is built once. The cache keeps the dict itself alongside, so an
# entry can never answer for another dict that later reuses the same id.
_MODELS: dict[int, tuple[dict, GameModel]] = {}


def model_of(vocab: dict) -> GameModel:
    hit = _MODELS.get(id(vocab))
    if hit is not None and hit[0] is vocab:
        return hit[1]
    model = build_model(vocab)
    if len(_MODELS) > 256:  # in-memory builds (watch, tests) make new dicts: keep the cache bounded
        _MODELS.clear()
    _MODELS[id(vocab)] = (vocab, model)
    return model


__all__ = ["GameModel", "GoodSpec", "ZoneSpec", "ThingSpec", "IconSpec", "CardSource", "Rules", "PhaseSpec",
           "KindSpec", "SlotSpec", "FieldSpec", "FaceSpec", "BUILTIN_NOUNS",
           "build_model", "model_of"]
