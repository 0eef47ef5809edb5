"""A cheap copy of a game state, for trials (efficient Assault, legal-move checks) and playouts.

``copy.deepcopy`` of a GameState also copies the trace and walks every object; a game copied
hundreds of times a turn (Monte Carlo playouts, an Assault search) needs better. ``copy_state``
duplicates what play changes — zones, cards, players, the RNG, the events — shares what never
changes (the compiled cards, the vocabulary, the engine, the verbs) and starts an empty trace with
tracing off. Card instances are shared until touched (``Instances``, copy-on-access): a trial that
touches five cards of 130 copies five. A game's own fields are copied by the ``special`` copiers its state class passes
(field name -> function); any other field is deep-copied, so a new field is never shared by mistake.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # state.py imports this module (GameState.copy): the classes are taken from the values
    from .state import GameState

# GameState fields a copy shares: play never changes them
SHARED = frozenset({"vocab", "model", "cards", "engine", "compiled", "verbs", "default_agent", "listening"})


def counter(c: Counter) -> Counter:
    out = Counter.__new__(Counter)  # Counter(c) goes through Counter.update: far slower for a copy
    if c:
        dict.update(out, c)
    return out


_PLAIN = (str, int, float, bool, type(None), tuple)


def props(p: dict) -> dict:
    """A card's props: strings, numbers and flags are shared; lists and dicts are copied."""
    if not p:
        return {}
    if all(type(v) in _PLAIN for v in p.values()):
        return dict(p)
    return {k: (list(v) if type(v) is list else copy.deepcopy(v) if isinstance(v, (dict, set)) else v)
            for k, v in p.items()}


def card(i):
    """A copy of one card instance (its Goods and props its own), made without the dataclass
    __init__: a copy-on-access ``Instances`` makes one per card a copied game touches."""
    c = object.__new__(type(i))
    d = c.__dict__
    d.update(i.__dict__)
    g = Counter.__new__(Counter)
    if i.goods:
        dict.update(g, i.goods)
    d["goods"] = g
    p = i.props
    if not p:
        d["props"] = {}
    elif all(type(x) in _PLAIN for x in p.values()):
        d["props"] = dict(p)
    else:
        d["props"] = props(p)
    return c


class Instances(dict):
    """A game's card instances (uid -> CardInst), shared with its copies until each card is touched.

    Search copies a game hundreds of times a turn (51st State's Assault search and Action trials,
    Monte Carlo descents), and a trial touches a few of its 100–200 cards. ``share()`` hands every
    card instance to a new Instances for the copy: both then hold the same objects in ``shared``
    (read by nobody for writing) and each makes its own copy of a card the first time it is looked
    up (``__missing__``: the look-up of a card already copied stays a plain dict look-up, at C
    speed). Iterating (``items``, ``values``, ``keys``, ``len``) copies every card first, in the
    order the cards were created, so anything that walks the cards sees exactly what a full copy
    would. ``peek`` and ``peek_items`` read without copying, for readers that never write (a
    card's id, a fingerprint, the invariants).

    A game starts with a plain dict and gets an Instances at its first copy (``shared_instances``).
    The one rule that comes with sharing: a CardInst — or the game's ``instances`` mapping itself —
    taken from a game *before* that game is copied must be taken again after the copy before a card
    is written (the object it holds now belongs to the copy too). Engines look cards up by uid where
    they write them; nothing in the runtime keeps either across a ``copy()``.
    """

    __slots__ = ("shared", "copied")

    def __init__(self, *args, **kwargs):
        dict.__init__(self, *args, **kwargs)
        self.shared = None  # uid -> CardInst held with other games, never written; None: nothing shared
        self.copied = 0  # own entries whose uid is also in ``shared`` (so len() is a sum, not a walk)

    def __missing__(self, uid):
        shared = self.shared
        if shared is None:
            raise KeyError(uid)
        mine = card(shared[uid])  # a KeyError here: no such card
        dict.__setitem__(self, uid, mine)
        self.copied += 1
        return mine

    def __setitem__(self, uid, inst) -> None:  # a card created (rare next to look-ups)
        if self.shared is not None and uid in self.shared and not dict.__contains__(self, uid):
            self.copied += 1
        dict.__setitem__(self, uid, inst)

    def share(self) -> "Instances":
        """The copy's Instances: every card of this game, shared (this game copies them again
        itself when it next touches them)."""
        if dict.__len__(self):
            own = dict(dict.items(self))  # not dict(self): that would go through items() and copy
            shared = {**self.shared, **own} if self.shared else own  # the cards' order kept
            dict.clear(self)
            self.shared = shared
            self.copied = 0
        twin = Instances()
        twin.shared = self.shared
        return twin

    def _own_all(self) -> None:
        """Copy every card still shared, keeping the order the cards were created in."""
        shared = self.shared
        if shared is None:
            return
        own = dict(dict.items(self))
        dict.clear(self)
        for uid, inst in shared.items():
            mine = own.pop(uid, None)
            dict.__setitem__(self, uid, mine if mine is not None else card(inst))
        dict.update(self, own)  # cards created since the share, in the order they were created
        self.shared = None
        self.copied = 0

    def peek(self, uid):
        """The card instance ``uid`` for reading only: it may be shared with other games."""
        inst = dict.get(self, uid)
        if inst is None:
            if self.shared is None:
                raise KeyError(uid)
            return self.shared[uid]
        return inst

    def peek_items(self):
        """(uid, CardInst) pairs in creation order, for reading only (nothing is copied)."""
        return self.peek_all().items()

    def peek_all(self) -> dict:
        """uid -> CardInst, every card in creation order, as a plain dict for reading only."""
        if self.shared is None:
            return dict(dict.items(self))
        return {**self.shared, **dict(dict.items(self))}

    def __contains__(self, uid) -> bool:
        return dict.__contains__(self, uid) or (self.shared is not None and uid in self.shared)

    def get(self, uid, default=None):
        try:
            return self[uid]
        except KeyError:
            return default

    def __len__(self) -> int:
        shared = self.shared
        if shared is None:
            return dict.__len__(self)
        return len(shared) + dict.__len__(self) - self.copied

    def __iter__(self):
        self._own_all()
        return dict.__iter__(self)

    def keys(self):
        self._own_all()
        return dict.keys(self)

    def values(self):
        self._own_all()
        return dict.values(self)

    def items(self):
        self._own_all()
        return dict.items(self)

    def __delitem__(self, uid) -> None:
        self._own_all()
        dict.__delitem__(self, uid)

    def pop(self, *args):
        self._own_all()
        return dict.pop(self, *args)

    def setdefault(self, uid, default=None):
        if uid in self:
            return self[uid]
        self[uid] = default
        return default

    def popitem(self):
        self._own_all()
        return dict.popitem(self)

    def clear(self) -> None:
        dict.clear(self)
        self.shared = None
        self.copied = 0

    def copy(self) -> "Instances":
        self._own_all()
        return Instances(dict.items(self))

    def __eq__(self, other) -> bool:
        mine = dict(self.peek_items())
        return mine == (dict(other.peek_items()) if isinstance(other, Instances) else other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"Instances({dict(self.peek_items())!r})"

    def __reduce__(self):  # pickle and copy.deepcopy: a plain mapping of every card, nothing shared
        self._own_all()
        return (Instances, (dict(dict.items(self)),))


def shared_instances(game) -> Instances:
    """The card instances of a copy of ``game``, shared with it until touched. A game that was never
    copied keeps a plain dict (the fastest look-up: a game played without search never pays for
    sharing); its first copy turns it into an ``Instances``."""
    mine = game.__dict__["instances"]
    if type(mine) is not Instances:
        mine = game.__dict__["instances"] = Instances(mine)
    return mine.share()


def peek(instances: dict, uid: int):
    """Card ``uid`` for reading only, whichever mapping the game holds now (nothing is copied).
    ``Instances.peek`` written out here (own card first, then the shared one): readers call this tens
    of thousands of times a game, and the method call was half of its cost."""
    if type(instances) is not Instances:
        return instances[uid]
    inst = dict.get(instances, uid)
    if inst is not None:
        return inst
    shared = instances.shared
    if shared is None:
        raise KeyError(uid)
    return shared[uid]


def peeker(instances: dict):
    """For loops that read many cards and write none (selecting candidates by their filters): the
    look-up ``uid -> CardInst`` that copies nothing of a shared ``Instances`` (a search's trial would
    otherwise copy every card it looks at), or None for a plain dict, read by subscription (faster
    than any call)."""
    return instances.peek if type(instances) is Instances else None


def peek_items(instances: dict):
    """(uid, CardInst) pairs in creation order for reading only, whichever mapping the game holds."""
    return instances.peek_items() if type(instances) is Instances else instances.items()


def peek_all(instances: dict) -> dict:
    """uid -> CardInst in creation order, for reading only, whichever mapping the game holds."""
    return instances.peek_all() if type(instances) is Instances else instances


def _rng(r: random.Random) -> random.Random:
    out = random.Random.__new__(random.Random)  # random.Random() would first seed itself from the OS
    out.setstate(r.getstate())
    return out


class _Pending(random.Random):
    """A game's random generator not yet used since the game was copied: it draws from the state of
    ``_source`` (a ``random.Random`` nobody draws from any more) once it is first used, and is from
    then on a plain ``random.Random`` (its class is switched back).

    Reading a Mersenne Twister's state costs about 18 µs and setting it 5 µs: that was most of a
    51st State copy, and most copies (an Assault trial, a Monte Carlo descent, which sets its own
    generator) never draw. So a copy shares its original's generator as a frozen source: the original
    and the copy each get a pending generator over it, and only the one that draws pays for a state.
    Every draw goes through ``random`` or ``getrandbits`` (``random.Random``'s other methods are
    built on them), which wake it; so do ``getstate``, ``setstate``, ``seed`` and ``gauss``.
    """

    def _wake(self) -> None:
        if type(self) is _Pending:  # a method bound before the wake may call again: only once
            source = self.__dict__.pop("_source")
            self.__class__ = random.Random
            random.Random.setstate(self, source.getstate())

    def random(self):
        _Pending._wake(self)
        return random.Random.random(self)

    def getrandbits(self, k):
        _Pending._wake(self)
        return random.Random.getrandbits(self, k)

    def getstate(self):
        _Pending._wake(self)
        return random.Random.getstate(self)

    def setstate(self, state):
        _Pending._wake(self)
        return random.Random.setstate(self, state)

    def seed(self, *args, **kwargs):
        _Pending._wake(self)
        return random.Random.seed(self, *args, **kwargs)

    def gauss(self, *args, **kwargs):
        _Pending._wake(self)
        return random.Random.gauss(self, *args, **kwargs)

    def __reduce__(self):  # pickle, copy, deepcopy: a plain generator in the same state
        _Pending._wake(self)
        return random.Random.__reduce__(self)


def _pending(source: random.Random) -> _Pending:
    out = _Pending.__new__(_Pending)
    out.__dict__["_source"] = source
    return out


def shared_rng(game) -> random.Random:
    """The random generator of a copy of ``game``: the same state, paid for only when it is used
    (``_Pending``). A generator of another class is copied at once (``_rng``)."""
    mine = game.__dict__["rng"]
    kind = type(mine)
    if kind is _Pending:
        return _pending(mine.__dict__["_source"])  # neither has drawn since: one frozen source
    if kind is not random.Random:
        return _rng(mine)
    game.__dict__["rng"] = _pending(mine)  # the original's generator becomes the frozen source
    return _pending(mine)


def _agents(v: dict) -> dict:
    """A deep copy of the seats' agents. ``copy.deepcopy`` copies a ``random.Random`` through its
    pickled state, one call per number of its 625-number state: a Monte Carlo descent spent most of
    its copy there. The generators an agent holds (``SeededRandom.rng``, ``EpsilonGreedy.rng``) are
    copied first with ``_rng`` and handed to ``deepcopy`` in its memo, so the copy is the same (same
    state, the same sharing between an agent and its parts) and the rest is deep-copied as before."""
    memo: dict = {}
    for agent in v.values():
        for x in getattr(agent, "__dict__", {}).values():
            if type(x) in (random.Random, _Pending) and id(x) not in memo:
                memo[id(x)] = _rng(x)
    return copy.deepcopy(v, memo)


def same(value):
    """A value the copy holds as it is (a number, a string, None: immutable)."""
    return value


_CORE: dict[str, Callable[[Any], Any]] = {
    "zones": lambda v: {z: list(cards) for z, cards in v.items()},
    "where": dict,
    "players": lambda v: [type(p)(p.index, p.name, counter(p.goods), dict(p.flags), p.out) for p in v],
    "log": lambda v: [],
    "events": list,       # typed events are frozen: shared items, a new list
    "until": list,        # (phase, callable taking the game): shared callables, a new list
    "fired": dict,
    "resolving": set,
    "playing": dict,
    "pending": list,       # Pending entries are immutable: shared items, a new list
    "cost_changes": list,  # (query, n, player, names): immutable tuples
    "immune": lambda v: {k: set(s) for k, s in v.items()},
    "extra_turns": list,
    "pile_ids": lambda v: {k: set(s) for k, s in v.items()},
    "options": dict,      # the game's options: plain values, set at the start
    "set_aside_from": dict,  # uid -> zone key: immutable values
    "budget": lambda v: type(v)(),  # a copy counts its work afresh (Budget.__deepcopy__ says the same)
    "flow_refusals": lambda v: {k: list(x) for k, x in v.items()},  # place -> [times, first reason]
    # numbers, strings, None: the copy holds the same values
    **{name: same for name in ("seed", "round", "phase", "turn_player", "starting_player", "turn_number",
                                "running", "_next_uid", "card_moves", "tracing")},
}


# (state class, id of the ``special`` table, the state's field names in order) -> (special, the steps):
# what ``copy_state`` does with each field depends on nothing else, so it is decided once per class
# and table instead of at every copy (a search copies a game thousands of times; the decisions were
# about a sixth of a 51st State copy). The table itself is held in the entry, so its id cannot be
# reused by another table while the entry lives; a table must not change after its first copy (every
# game's table is made once, at import or once per class: ``GameState.copy``).
_PLANS: dict[tuple, tuple] = {}
_NO_SPECIAL: dict = {}
_AGENTS = object()  # a plan step's mark: the seats' agents (they depend on the call's ``agents``)


def _copy_plan(keys: tuple, special: dict) -> tuple:
    """The steps that copy a state with these fields: (field, function, whether it takes the whole
    game) for each field that is not held as it is, in the fields' order — the same choice, field by
    field and in the same order of precedence, as the loop ``copy_state`` ran before it had plans."""
    steps = []
    for k in keys:
        if k in SHARED:
            continue
        if k in special:
            f = special[k]
            if f is not same:
                steps.append((k, f, False))
        elif k == "instances":
            steps.append((k, shared_instances, True))
        elif k == "rng":
            steps.append((k, shared_rng, True))
        elif k in _CORE:
            if _CORE[k] is not same:
                steps.append((k, _CORE[k], False))
        elif k == "agents":
            steps.append((k, _AGENTS, False))
        else:
            steps.append((k, copy.deepcopy, False))
    return tuple(steps)


def copy_state(game: GameState, special: dict[str, Callable[[Any], Any]] | None = None,
               agents: dict | None = None) -> GameState:
    """An independent copy of ``game`` (same class), not tracing. ``agents`` replaces the seats'
    agents (``{}``: every seat first-legal), else they are deep-copied with their own RNG state.
    ``special`` is a table made once and never changed (its plan is kept: ``_PLANS``)."""
    src = game.__dict__
    special = special or _NO_SPECIAL
    key = (type(game), id(special), tuple(src))
    entry = _PLANS.get(key)
    if entry is None:
        entry = _PLANS[key] = (special, _copy_plan(key[2], special))
    twin = object.__new__(key[0])
    d = twin.__dict__
    d.update(src)  # every field in its order; the shared ones (and plain values) stay as they are
    for k, f, whole in entry[1]:
        if whole:
            d[k] = f(game)
        elif f is _AGENTS:
            d[k] = dict(agents) if agents is not None else _agents(src[k])
        else:
            d[k] = f(src[k])
    twin.tracing = False
    return twin
