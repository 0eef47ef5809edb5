"""The Moloch State Pack (rulebook 000_3e37b2ec99b6decd.txt, clauses M01–M21).

Procedures that are rules rather than card effects: the Machine deck and Deploy (M06), efficient
Assault (M04/M05), Hack (M07) and Destroy (M08) with RAGE (M09), the Collaboration variant
(M20, ``options: {collaboration: true}``), Hacked cards' discard pile (M12) and the end-game
penalty (M10, written in data as the rule ``end_game_penalty``).

Decisions on cases the rulebook leaves open (also in docs/decisions.md):
- M09: RAGE is evaluated at the moment a Destroy is performed (or completed, in Collaboration),
  counting the Machine being destroyed among the Deployed Machines.
- M10: every player tied for the most Victory Points loses the penalty; VP never go below 0.
- M20: Goods left on a Machine that leaves play (Hacked, Destroyed) return to the supply; a
  completed Hack whose cost an opponent partly paid gives nobody the card: it is discarded.
"""
from __future__ import annotations

from collections import Counter
from itertools import combinations

from runtime.context import Ctx, face_view
from runtime.engine import Outcome
from runtime.errors import Nowhere, Refused, RulesError, Unmet
from runtime.events import Used
from runtime.refs import VAR, Every, UpToN
from runtime.statecopy import peek
from runtime.tables import verbs_only

from ..stepspec import kind_of, number, text
from .assault_sets import EVERYTHING, NO_PATCH, NOTHING, deal_reads, effect_reads, passes, trial_writes
from .engine import FiftyFirstState, Pack, register_pack
from .state import goods_text

DEFAULT_DIFFICULTY = "recruit"


SEARCH_BUDGET = 400   # Assault trials (one Machine's effect run on a copy) per player's Assault phase
# In a bot's what-if copy (``game.imagined``, runtime/bots.py) no search: the Machines are resolved in
# Deployed order with their first choices, as past the budget. The profile of one 2-player game of
# ``mcts:24`` against greedy put 91 % of its CPU in this search inside the bot's descents (docs/simulate.md,
# "How well the bots play"); the game being played always searches.
IMAGINED_BUDGET = 0
PLAN_LIMIT = 16       # equally efficient outcomes offered to the player's agent


class FirstStatement:
    """What an Assault probe found of an effect's first statement from a state, for the trials run
    from that state (``AssaultSearch.variants``): its selector, its candidates, the units it asks for
    and the units it can take (``AssaultTrial._counted``) — and its distinct choices
    (``distinct_choices``), made by the first of those trials that takes something and handed to the
    others. Each trial's copy starts equal to the state, so they are the same for every one."""

    __slots__ = ("sel", "options", "n", "k", "choices")

    def __init__(self, sel, options: list, n: int, k: int):
        self.sel, self.options, self.n, self.k = sel, options, n, k
        self.choices = None


class WouldAct(Exception):
    """An Assault probe (``AssaultProbe``) met a statement that would resolve something: the trial
    must be run for real on a copy. ``counted``: when it was the effect's first statement and it
    targets, what ``AssaultTrial._counted`` found for it (``FirstStatement``: the trials from the same
    state reuse it)."""

    def __init__(self, verb_name: str, counted: FirstStatement | None = None):
        super().__init__(verb_name)
        self.counted = counted


class _StatementDone(Exception):
    """An Assault probe's statement resolved nothing: it stops there, before its verb changes anything."""


class AssaultTrial:
    """What the targeted verbs consult while one Machine's Assault runs (M04).

    ``script`` gives, for each targeted statement in turn, which of its distinct target
    choices to take (index into ``choices``; past the script's end, the first). The trial records
    every choice point (how many distinct choices it had), what was picked, and how much of the
    effect resolved: each target taken and each Good or card lost is one unit resolved, each one
    missing a unit ignored ("If an effect cannot be resolved, just ignore it").

    What each statement did is kept as data (``notes``: the card's and the targets' ids and faces at
    that moment) and put into words only for a plan the search keeps (``words``): a search runs
    thousands of trials whose words nobody reads.
    """

    def __init__(self, script: tuple = (), picks: tuple | None = None, first: FirstStatement | None = None):
        self.script = script
        # the first statement as a probe of the same state found it: the trial's copy starts equal to
        # that state, so it is the same
        self.first = first
        self.replay = picks          # executing a chosen plan: the recorded target uids
        self.points: list[int] = []  # number of distinct choices at each choice point
        self.taken: list[int] = []
        self.picked: list[tuple] = []
        self.wanted = 0
        self.resolved = 0
        self.notes: list[tuple] = []
        self.listed: list[list] = []  # each targeted statement's candidates (what its choice read)

    def _counted(self, ctx: Ctx, sel) -> tuple:
        """(the candidates, the units the statement asks for, how many it can take)."""
        first = self.first
        if first is not None and not self.picked and first.sel == sel:
            self.listed.append(first.options)
            return first.options, first.n, first.k
        options = ctx.options(sel)
        self.listed.append(options)
        if sel.category == VAR or isinstance(sel.amount, Every):
            n = len(options)
        elif isinstance(sel.amount, UpToN):
            n = sel.amount.n
        else:
            n = ctx.amount(sel)
        return options, n, min(n, len(options))

    def targets(self, ctx: Ctx, sel, verb_name: str) -> list[int]:
        g = ctx.game
        options, n, k = self._counted(ctx, sel)
        i = len(self.picked)
        if self.replay is not None:
            want = self.replay[i] if i < len(self.replay) else ()
            pick = tuple(t for t in want if t in options)[:k]
            if len(pick) < k:  # the state drifted (an agent's other choice): complete with the first free
                pick += tuple(t for t in options if t not in pick)[:k - len(pick)]
        else:
            first = self.first
            if i == 0 and first is not None and options is first.options:  # the probe's first statement
                choices = first.choices
                if choices is None:
                    choices = first.choices = distinct_choices(g, options, k)
            else:
                choices = distinct_choices(g, options, k)
            j = self.script[i] if i < len(self.script) else 0
            self.points.append(len(choices))
            self.taken.append(j)
            pick = choices[j]
        self._took(ctx, verb_name, n, pick)
        return list(pick)

    def _took(self, ctx: Ctx, verb_name: str, n: int, pick: tuple) -> None:
        self.picked.append(pick)
        self.wanted += n
        self.resolved += len(pick)
        held = ctx.game.instances
        picked = tuple(_face_of(held, t) for t in pick)
        self.notes.append(("targets", _face_of(held, ctx.card), verb_name, picked))

    def paying(self, ctx: Ctx, verb_name: str, wanted: int, got: int) -> None:
        """A loss is about to be paid (``got`` of ``wanted`` units): nothing to do in a trial that runs."""

    def paid(self, ctx: Ctx, verb_name: str, wanted: int, got: int) -> None:
        """A loss (``lose 2 fuel``, ``lose 1 vp per deployed machine``): units resolved = units lost."""
        self.wanted += wanted
        self.resolved += got
        self.notes.append(("paid", _face_of(ctx.game.instances, ctx.card), verb_name, wanted, got))

    @staticmethod
    def words(game, notes) -> list[str]:
        """``notes`` (of trials of ``game`` or of its copies) in the trace's words."""
        name = lambda key: game.engine.name_of_face(game, *key)  # noqa: E731
        out = []
        for note in notes:
            if note[0] == "targets":
                _, card, verb_name, pick = note
                what = ", ".join(name(t) for t in pick) or "nothing (ignored)"
                out.append(f"{name(card)} {verb_name}s: {what}")
            else:
                _, card, verb_name, wanted, got = note
                out.append(f"{name(card)} {verb_name}s {got}" + (f" of {wanted}" if got < wanted else ""))
        return out


class AssaultProbe(AssaultTrial):
    """Whether a Machine's Assault would resolve nothing from a state, answered on that state itself,
    without a copy (``AssaultSearch.probe``). Each statement stops at the point where its verb asks
    the trial what to take (``targets``) or tells what a loss will take (``paying``) — before it
    changes anything: taking something raises ``WouldAct`` (the search then runs the trial for real),
    taking nothing is recorded exactly as a trial records it and ends the statement
    (``_StatementDone``). Only for the verbs in ``PROBED_VERBS`` and effects that do nothing but
    call verbs (``runtime.tables.verbs_only``, the compiler's fact)."""

    def targets(self, ctx: Ctx, sel, verb_name: str) -> list[int]:
        options, n, k = self._counted(ctx, sel)
        if k:
            raise WouldAct(verb_name, FirstStatement(sel, options, n, k) if not self.notes else None)
        # as AssaultTrial.targets with nothing to take: one choice point with one (empty) choice
        self.points.append(1)
        self.taken.append(self.script[len(self.picked)] if len(self.picked) < len(self.script) else 0)
        self._took(ctx, verb_name, n, ())
        raise _StatementDone

    def paying(self, ctx: Ctx, verb_name: str, wanted: int, got: int) -> None:
        if got:
            raise WouldAct(verb_name)
        self.paid(ctx, verb_name, wanted, 0)
        raise _StatementDone


# Verbs an Assault probe may run: each reads only, up to its call of ``pick_targets`` (raze, discard,
# block) or the trial's ``paying`` (lose, through verbs.pay), and changes nothing when that takes
# nothing (an empty pick: its loop runs no round; a loss of 0: only Goods lowered by 0). A verb not
# named here is never probed: its trial runs on a copy.
PROBED_VERBS = frozenset({"raze", "discard", "block", "lose"})


class _ProbeCtx(Ctx):
    """The context an Assault probe runs an effect with: a verb outside ``PROBED_VERBS`` is not run."""

    def call(self, name: str, objs: tuple = (), ph: dict | None = None, strict: bool = False):
        if name not in PROBED_VERBS:
            raise WouldAct(name)
        try:
            return self.verbs[name].fn(self, objs, ph or {}, strict)
        except _StatementDone:
            return []


def _face_of(held, uid) -> tuple:
    inst = peek(held, uid)
    return inst.card_id, inst.face


def distinct_choices(game, options: list[int], k: int) -> list[tuple]:
    """The ways to take ``k`` of ``options``, one per set of indistinguishable cards (same card, face,
    Goods and props: razing either of two Oil Rigs is the same outcome)."""
    if k <= 0:
        return [()]
    seen: dict = {}
    if k == 1:  # every bundled Assault takes one target: the loop below without its 1-tuples to sort
        for uid in options:
            seen.setdefault(_signature(game, uid), (uid,))
        return list(seen.values())
    for combo in combinations(options, k):
        sig = tuple(sorted(_signature(game, u) for u in combo))
        seen.setdefault(sig, combo)
    return list(seen.values())


def _signature(game, uid: int) -> tuple:
    inst = peek(game.instances, uid)  # read only: a trial's candidates are not copied
    return (inst.card_id, inst.face, tuple(sorted(inst.goods.items())), repr(sorted(inst.props.items())),
            game.where[uid])


class AssaultPlan:
    """One way to resolve every Deployed Machine's Assault: the order and each effect's targets.

    ``label`` (the plan in the trace's words, what a script or a person picks it by) is made when it is
    first read, from the notes its trials kept (``AssaultTrial.words``): a search keeps up to
    ``PLAN_LIMIT`` plans and a game without a trace reads none of their labels. The words depend only
    on the cards' ids and faces in the notes (``name_of_face``), so a label made later is the label
    made at once. Equal plans: the same steps, units and label, as when this was a frozen dataclass.
    """

    __slots__ = ("steps", "resolved", "wanted", "_label", "_said")

    def __init__(self, steps: tuple, resolved: int, wanted: int, label: str | None = None, said: tuple = ()):
        self.steps = steps          # ((machine uid, (targets of each targeted statement, …)), …)
        self.resolved = resolved    # effect units that resolve
        self.wanted = wanted        # effect units the Assaults ask for
        self._label = label
        self._said = said           # (game, notes): the label's words, until it is read

    @property
    def label(self) -> str:
        if self._label is None:
            game, notes = self._said
            self._label = "; ".join(AssaultTrial.words(game, notes)) or "nothing to resolve"
            self._said = ()
        return self._label

    def _key(self) -> tuple:
        return self.steps, self.resolved, self.wanted, self.label

    def __eq__(self, other) -> bool:
        if type(other) is not AssaultPlan:
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"AssaultPlan(steps={self.steps!r}, resolved={self.resolved!r}, wanted={self.wanted!r}, " \
               f"label={self.label!r})"

    def __str__(self) -> str:
        return self.label

    def targets(self, machine: int) -> tuple:
        for uid, picks in self.steps:
            if uid == machine:
                return picks
        return ()


class _Variant:
    """One way a Machine's Assault went from a state (a trial, counted when the search takes it):
    ``reads`` — what it read, what it wrote included (assault_sets) —, ``writes``, ``patch`` — what it
    changed in the fingerprint —, ``probed`` — answered by a probe —, ``twin`` — the state after it
    where it was run (None: a probe) —, ``after`` — that state's fingerprint —, ``home`` — the step
    whose state it was tried from. ``listings``: the selectors whose candidates it read (a card
    another step writes may become one, ``disturbed_by``). Carried to the next step of the search
    while that step writes nothing it reads."""

    __slots__ = ("script", "trial", "got", "patch", "reads", "writes", "probed", "twin", "after", "listings",
                 "home", "_passing")

    def __init__(self, script, trial, got, patch, reads, writes, probed, twin, listings, after, home):
        self.script, self.trial, self.got, self.patch, self.after = script, trial, got, patch, after
        self.home = home
        self.reads, self.writes, self.probed, self.twin, self.listings = reads, writes, probed, twin, listings
        self._passing: dict = {}

    def passing(self, listing: tuple, player: int) -> bool:
        """Whether a card this variant wrote lies in the zones of ``listing`` (selector, its zones) and
        is a candidate of its selector after it (read on its own state after: what it wrote is the same
        wherever it is carried). Remembered by the listing's identity, not its value: hashing the
        selector (a dataclass of dataclasses) at every question was two thirds of this method. A
        listing is an entry of an ``EffectReads`` the search holds (``AssaultSearch.reads``; the game
        keeps it too, ``FiftyGame.effect_reads``) for as long as its variants live, so its ``id`` names
        it alone while this memo exists."""
        key = id(listing)
        got = self._passing.get(key)
        if got is None:
            sel, zones = listing
            twin = self.twin
            where = twin.where
            got = False  # any(...) written as a loop (no generator): the same calls, stopping at the first
            for u in self.writes.cards:
                if where.get(u) in zones and passes(twin, player, sel, u):
                    got = True
                    break
            self._passing[key] = got
        return got

    def disturbed_by(self, step: "_Variant", player: int) -> bool:
        """Whether ``step`` (the variant resolved since this one was tried) wrote something it reads."""
        if self.reads.meets(step.writes):
            return True
        for listing in self.listings:
            if step.passing(listing, player):
                return True
        return False


class _Step:
    """A state the search reached: its fingerprint, the variant that made it (``by``), and the state
    itself — made only when the search needs it (a trial to run from it), by running ``by`` again
    from the parent's state (a carried variant: its outcome and the fingerprint after it were known
    without a copy)."""

    __slots__ = ("fp", "state", "by", "parent", "uid")

    def __init__(self, fp, state, by, parent=None, uid=None):
        self.fp, self.state, self.by, self.parent, self.uid = fp, state, by, parent, uid


class AssaultSearch:
    """M04: search resolution orders (and targets) on copies of the state that really run the effects.

    Depth first, from the Deployed order: at each step one remaining Machine (one per card: two
    Mothers are interchangeable) is tried next, with each of its distinct target choices, on a fresh
    copy of the game, for real — a Raze flips the Location and gives its Deal, so a later "discard
    1 card" or "lose 2 fuel" can take what the Deal gave. The best plans resolve the most effect
    units; plans reaching the same final state are one outcome (the first found: the Deployed order
    where the order does not matter).

    Pruning, each exact for the Assault texts the game has:
    - a Machine whose Assault would do nothing now (nothing resolved, nothing changed) is not tried
      next: trying it later can only do as well;
    - branch and bound: units so far + what the Machines left ask for (measured once, on the state
      the Assault phase starts from) below the best plan found cannot win.
    The search is exhaustive up to ``SEARCH_BUDGET`` trials; past it, the Machines left are resolved
    in Deployed order with their first choices, and the trace says so.

    Cheaper, not fewer, trials (the same trials are counted, in the same order, so the budget stops at
    the same point and the plans and their order are those of the exhaustive search; tests/
    fifty_first_state/test_assault_search_reference.py compares them with ``assault_reference.
    ReferenceAssaultSearch``, the search as it was):
    - a trial that would resolve nothing is answered by a probe on the state itself, without a copy
      (``AssaultProbe``);
    - a trial from a state whose step there (the Machine resolved last) wrote nothing the trial reads
      is the trial from the state before (``_Variant``, assault_sets.py: reads from the effect's
      statements, writes observed): its outcome is carried over, and the state after it is known by
      its fingerprint only (``_Step``) — made (the trial run again, not counted again) only when the
      search goes on from it, which it seldom does: mostly the other order reached it first;
    - a trial's words are made only for the plans kept.
    """

    def __init__(self, engine, game, player: int, machines: list[int], budget: int = SEARCH_BUDGET):
        self.engine, self.player = engine, player
        self.budget = budget
        self.root = game
        self.machines = machines
        self.trials = 0
        self.probed = 0  # trials answered by a probe (counted in ``trials`` too)
        self.carried = 0  # trials answered by a variant carried from the step before (counted too)
        self.truncated = False
        self.top = -1
        self.found: list = []
        self.finals: set = set()
        self.asks: dict[str, int] = {}
        self.seen: dict = {}
        held = game.instances
        # a Machine's card id and Assault never change while its Assault is searched
        self.cid = {uid: peek(held, uid).card_id for uid in machines}
        self.effect = {uid: game.cards[self.cid[uid]]["slots"]["assault"] for uid in machines}
        self.safe = {uid: verbs_only(fn) for uid, fn in self.effect.items()}
        # what each effect reads is a fact of the compiled game, the Machine and the player (``effect_reads``
        # reads no state: the effect's constant selectors, the game model's zones): found once a game
        known = game.effect_reads
        self.reads = {}
        for uid, fn in self.effect.items():
            key = (uid, self.cid[uid], player)
            reads = known.get(key, known)
            if reads is known:
                reads = known[key] = effect_reads(game, fn, player, uid)
            self.reads[uid] = reads
        self.heard = bool(engine.trigger_slots(game)[0])  # cards listening to events (a Razed)
        self.uids = None       # the cards of the fingerprints patches apply to, in order
        self.position: dict = {}

    def run_one(self, state, uid: int, script: tuple = (), first: FirstStatement | None = None,
                counted: bool = True):
        twin = state.copy(agents={})  # first-legal for the choices an effect leaves to the player
        trial = AssaultTrial(script, first=first)
        twin.assault = trial
        out = self.engine.run(twin, self.effect[uid], self.player, uid)
        twin.assault = None
        if counted:
            self.trials += 1
        got = trial.resolved if out.status == "done" else 0
        return twin, trial, got

    def probe(self, state, uid: int, counted: bool = True) -> tuple:
        """(trial, first): the trial of ``uid``'s Assault from ``state`` with its first choices when it
        would resolve nothing and change nothing (what ``run_one`` would record), answered without a
        copy and counted as a trial; else (None, what the probe found of the first statement, or None),
        and ``run_one`` runs it."""
        if not self.safe[uid]:
            return None, None
        trial = AssaultProbe()
        state.assault = trial
        try:
            self.effect[uid](_ProbeCtx(state, self.player, uid))
        except WouldAct as acts:
            return None, acts.counted
        except (Refused, Unmet, Nowhere):  # the real trial says what a refusal does
            return None, None
        finally:
            state.assault = None
        if counted:
            self.trials += 1
            self.probed += 1
        return trial, None

    def variants(self, step: _Step, uid: int, carried: dict) -> list:
        """Every distinct way this Machine's Assault can go from ``step``'s state, in the search's
        order, none counted yet: carried over from the step before where ``carried`` has it, else a
        probe or a trial on a copy (the state made first if it was not)."""
        before = step.fp
        out = []
        reads = self.reads[uid]
        listings = reads.listings if reads is not None else ()
        first = None
        if () not in carried:
            state = self.made(step)
            trial, first = self.probe(state, uid, counted=False)
            if trial is not None:  # one choice point of one choice (or none): no other variant
                read = reads.at(state, trial.listed) if reads is not None else EVERYTHING
                return [_Variant((), trial, 0, NO_PATCH, read, NOTHING, True, None, listings, before, step)]
        todo = [()]
        while todo:
            script = todo.pop(0)
            v = carried.get(script)
            if v is None:
                state = self.made(step)
                twin, trial, got = self.run_one(state, uid, script, first, counted=False)
                writes, patch, after = trial_writes(state, before, twin, self.position, self.uids)
                touched = (reads.at(state, trial.listed) if reads is not None else EVERYTHING) | writes
                if not touched.everything and trial.picked:
                    touched = touched | deal_reads(state, trial.picked, trial.notes, self.heard)
                v = _Variant(script, trial, got, patch, touched, writes, False, twin, listings, after, step)
            out.append(v)
            trial = v.trial
            if v.probed:
                break
            for i in range(len(script), len(trial.points)):
                for j in range(1, trial.points[i]):
                    todo.append(tuple(trial.taken[:i]) + (j,))
        return out

    def made(self, step: _Step):
        """The state of ``step``: its variant's own state after, or — carried over — that variant run
        again from the parent step's state (not counted: the search counted it when it took it)."""
        if step.state is not None:
            return step.state
        parent = self.made(step.parent)
        twin = self.run_one(parent, step.uid, step.by.script, counted=False)[0]
        if twin.fingerprint() != step.fp:
            raise RuntimeError(f"Assault search: a carried trial of {self.cid[step.uid]} did not reach the state "
                               "its reads and writes promised (assault_sets.py)")
        step.state = twin
        return twin

    def record(self, final: tuple, score: int, wanted: int, steps: tuple, notes: tuple) -> None:
        if score > self.top:
            self.top, self.found, self.finals = score, [], set()
        if score == self.top and final not in self.finals and len(self.found) < PLAN_LIMIT:
            self.finals.add(final)
            self.found.append(AssaultPlan(steps, score, wanted, said=(self.root, notes)))

    def full(self) -> bool:
        return len(self.found) >= PLAN_LIMIT

    def dfs(self, step: _Step, left: tuple, score: int, wanted: int, steps: tuple, notes: tuple,
            before_step: dict) -> None:
        before = step.fp
        if not left:
            self.record(before, score, wanted, steps, notes)
            return
        asks, cid = self.asks, self.cid
        # lists, not generators, in the search's hottest lines: the same values, fewer frames resumed
        bound = score + sum([asks[cid[u]] for u in left])
        if bound < self.top or (bound == self.top and self.full()):
            return
        # the same Machines left on the same state (effects that commute) reached before with as
        # many units: everything from here was explored then (the incumbent only grows since)
        key = (tuple(sorted([cid[u] for u in left])), before)
        if self.seen.get(key, -1) >= score:
            return
        self.seen[key] = score
        if self.trials >= self.budget:
            self.truncated = True
            state = self.made(step)
            # Deployed order, first choices (one that would do nothing leaves the state as it is)
            for uid in left:
                trial, first = self.probe(state, uid)
                if trial is not None:
                    got = 0
                else:
                    state, trial, got = self.run_one(state, uid, (), first)
                score, wanted = score + got, wanted + trial.wanted
                steps, notes = steps + ((uid, tuple(trial.picked)),), notes + tuple(trial.notes)
            self.record(state.fingerprint(), score, wanted, steps, notes)
            return
        # every Machine's variants from here before any is taken: the steps below carry them over
        tried, firsts = set(), []
        for uid in left:
            if cid[uid] not in tried:
                tried.add(cid[uid])
                firsts.append(uid)
        here = {}
        by, player = step.by, self.player
        for uid in firsts:
            if by is None:  # the first step: tried when the bound was measured (``plans``)
                here[uid] = self.first_step[uid]
                continue
            kept = before_step.get(uid)
            if kept:
                carried = [v for v in kept if not v.disturbed_by(by, player)]
                if len(carried) == len(kept):  # all of them: the same variants, in the same order
                    here[uid] = kept
                    continue
                carried = {v.script: v for v in carried}
            else:
                carried = {}
            here[uid] = self.variants(step, uid, carried)
        inert = []
        for uid in firsts:
            rest = tuple([u for u in left if u != uid])
            for v in here[uid]:
                trial, got = v.trial, v.got
                self.trials += 1
                if v.probed:
                    self.probed += 1
                    after, child = before, None
                elif v.home is step:  # tried from this very state: its state after is made
                    after, child = v.after, _Step(v.after, v.twin, v, step, uid)
                else:
                    self.carried += 1
                    after = v.patch.patched(before)
                    child = _Step(after, None, v, step, uid)
                if got == 0 and after == before:
                    inert.append((uid, trial))  # does nothing now: try it later, never first
                    break
                self.dfs(child, rest, score + got, wanted + trial.wanted,
                         steps + ((uid, tuple(trial.picked)),), notes + tuple(trial.notes), here)
                if self.full() and score + got + sum(asks[cid[u]] for u in rest) <= self.top:
                    break
        if len(inert) == len(tried):  # every Machine left does nothing from here: they are ignored
            for uid in left:
                trial = next(t for u, t in inert if cid[u] == cid[uid])
                wanted += trial.wanted
                steps, notes = steps + ((uid, tuple(trial.picked)),), notes + tuple(trial.notes)
            self.record(before, score, wanted, steps, notes)

    def plans(self) -> list[AssaultPlan]:
        start = self.root.copy(agents={})
        fp = start.fingerprint()
        self.uids = fp[2][0]
        self.position = {u: i for i, u in enumerate(self.uids)}
        root = _Step(fp, start, None)
        # what each Machine's Assault asks for (the bound): its first trial from the start, counted —
        # the very trial the search's first step takes again (``dfs`` is given them: run once, yet
        # counted again there, as the reference search counts the bound's trial and the first step's)
        self.first_step = {}
        # a budget these first trials use up stops the search at once: only they are run (a bot's
        # what-if copy, IMAGINED_BUDGET)
        eager = self.budget > len(set(self.cid.values()))
        for uid in self.machines:
            if self.cid[uid] in self.asks:
                continue
            if eager:
                variants = self.first_step[uid] = self.variants(root, uid, {})
                self.trials += 1
                self.probed += variants[0].probed
                trial = variants[0].trial
            else:
                trial, first = self.probe(start, uid)
                trial = trial or self.run_one(start, uid, (), first)[1]
            self.asks[self.cid[uid]] = trial.wanted
        self.dfs(root, tuple(self.machines), 0, 0, (), (), {})
        return self.found


class Moloch(Pack):
    name = "moloch"
    module = "moloch"
    phases = ("assault", "deploy")
    # "contribute" first: its steps also carry a "hack:"/"destroy:" key (what the payment is for)
    steps = {"contribute": "step_contribute", "hack": "step_hack", "destroy": "step_destroy",
             "deploy": "step_deploy", "assault": "step_assault"}

    # --- setup (M02) -------------------------------------------------------------------------
    def setup(self, engine: FiftyFirstState, game) -> None:
        """The Moloch cards are already in the Deck (their ``set``); the Machines form the
        Machine deck; a difficulty level is chosen (``options["difficulty"]``)."""
        level = self.difficulty(game)
        mdeck = game.zone_key("machine_deck", None)
        for cid, rec in sorted(game.cards.items()):
            if rec.get("kind") == "machine":
                for _ in range(rec.get("count", 1)):
                    game.create(cid, mdeck)
        game.shuffle(mdeck)
        game.emit("setup", None, f"the Machine deck holds {len(game.zones[mdeck])} Machines; difficulty {level}")

    def difficulty(self, game) -> str:
        level = game.options.get("difficulty", DEFAULT_DIFFICULTY)
        table = game.compiled.table("deploy") or {}
        if level not in table:
            raise RulesError(f"unknown difficulty {level!r} (levels: {', '.join(sorted(table))})")
        return level

    def deploy_count(self, game) -> int:
        """M06: Machines per round by difficulty and number of players."""
        row = game.compiled.table("deploy")[self.difficulty(game)]
        n = len(game.players)
        if not 1 <= n <= len(row):
            raise RulesError(f"the deploy table has no column for {n} players")
        return int(row[n - 1])

    # --- piles -------------------------------------------------------------------------------
    def discard_pile(self, engine, game, uid, player):
        """M12: a discarded Hacked card goes to the Machine discard pile (Machine side up)."""
        inst = game.instances[uid]
        if game.record(uid).get("kind") == "machine":
            self._leaves_play(game, uid)
            inst.face, inst.owner = "front", None
            return game.zone_key("machine_discard", None)
        return None

    def refill(self, engine, game, zone) -> None:
        """M06: when the Machine deck runs out, the Machine discard pile is shuffled into a new one."""
        if zone != game.zone_key("machine_deck", None):
            return
        pile = game.zone_key("machine_discard", None)
        if not game.zones[pile]:
            return
        for uid in list(game.zones[pile]):
            game.move(uid, zone)
            game.instances[uid].face = "front"
        game.shuffle(zone)
        game.emit("reshuffle", None, f"the Machine discard pile is shuffled into a new Machine deck "
                  f"({len(game.zones[zone])} Machines)")

    # --- phases ------------------------------------------------------------------------------
    def phase(self, engine, game, name) -> None:
        if name == "assault":
            for p in game.active_players():
                self.assault(engine, game, p)
        elif name == "deploy":
            self.deploy(engine, game, self.deploy_count(game))

    def deploy(self, engine, game, n: int) -> list[int]:
        """M06: take each Machine from the BOTTOM of the Machine deck, Machine side up."""
        deck = game.zone_key("machine_deck", None)
        out = []
        for _ in range(n):
            if not game.zones[deck]:
                self.refill(engine, game, deck)
            if not game.zones[deck]:
                game.emit("deploy", None, "no Machine left to deploy")
                break
            uid = game.zones[deck][0]
            game.move(uid, game.zone_key("deployed", None))
            inst = game.instances[uid]
            inst.face, inst.owner = "front", None
            out.append(uid)
            # Nobody looks at the Hacked side (M06): the trace names the Machine side only.
            game.emit("deploy", None, f"deploys {engine.name_of(game, uid)} from the bottom of the Machine deck")
        return out

    def assault(self, engine: FiftyFirstState, game, player: int) -> AssaultPlan | None:
        """M04: ``player`` resolves the Assault of every Deployed Machine, efficiently.

        1. Search (``AssaultSearch``): orders and targets, each tried for real on a copy of the game.
        2. The plans resolving the most effect units; the player's agent picks one when several
           equally efficient ones lead to different outcomes.
        3. Execute the chosen plan on the real game, in its order, each targeted statement acting on
           the targets the plan gives it. Effects that cannot be resolved are ignored.
        """
        machines = [u for u in game.zone("deployed") if "assault" in game.record(u).get("slots", {})]
        if not machines:
            game.emit("assault", player, "no Deployed Machine assaults")
            return None
        search = AssaultSearch(engine, game, player, machines,
                               IMAGINED_BUDGET if game.imagined else SEARCH_BUDGET)
        plans = search.plans()
        choice = plans[0] if len(plans) == 1 else Ctx(game, player).ask(
            plans, 1, prompt="equally efficient Assault outcomes")[0]
        tracing = game.tracing  # the words below (the plan's label above all) only for a trace
        if tracing:
            game.emit("assault", player, f"efficient Assault: {choice.resolved} of {choice.wanted} effect units "
                      f"can resolve — {choice.label}")
        if search.truncated and tracing:
            game.emit("assault", player, f"(the search stopped after {search.trials} trials: the Machines "
                      "left were taken in Deployed order)")
        for uid, picks in choice.steps:
            game.assault = AssaultTrial(picks=picks)
            try:
                if tracing:
                    game.emit("assault", player, f"{engine.name_of(game, uid)} assaults")
                engine.run(game, game.record(uid)["slots"]["assault"], player, uid)
                # the Machine's Assault ran: an activation the simulation report counts (not a play)
                game.publish(Used(player, card=uid, turn=game.turn_number, round=game.round))
            finally:
                game.assault = None
        return choice

    # --- Hack (M07), Destroy (M08), RAGE (M09) -------------------------------------------------
    def _deployed(self, engine, game, player, uid) -> Refused | None:
        if game.where.get(uid) != game.zone_key("deployed", None):
            return Refused(f"{engine.name_of(game, uid)} is not a Deployed Machine")
        return None

    def defense(self, game, uid) -> int:
        """The Defense to break now. M09: RAGE adds +1 while the number of Deployed Machines is at
        most the number of players — evaluated at the moment of the Destroy (decision), with the
        Machine itself counted as Deployed."""
        rec = game.record(uid)
        base = int(rec["defense"])
        if rec.get("rage") and len(game.zone("deployed")) <= len(game.active_players()):
            return base + 1
        return base

    def _stores(self, game, player, purpose: str) -> list[int]:
        """Player's Locations whose Goods may pay for ``purpose`` (hack/destroy) only (M14)."""
        out = []
        for uid in game.zone("state", player):
            inst = peek(game.instances, uid)  # read only
            if inst.face != "ruins" and purpose in (face_view(game.record(uid), inst).get("holds_for") or ()):
                out.append(uid)
        return out

    def _payment(self, game, player, need: Counter, purpose: str,
                 stores: list[int] | None = None) -> list[tuple]:
        """How ``player`` pays ``need``: Goods stored for this purpose first (they can serve
        nothing else), then the player's own. Refused, listing what is missing, before any change.
        ``stores``: ``_stores(game, player, purpose)`` when the caller has it (the legal moves ask for
        every Deployed Machine on one state)."""
        plan, missing = self._plan(game, player, need, self._stores(game, player, purpose) if stores is None else stores)
        if missing:
            raise Refused(f"cannot {purpose}: missing {goods_text(missing)}")
        return plan

    def _plan(self, game, player, need: Counter, stores: list[int]) -> tuple[list, Counter]:
        """(how ``player`` pays ``need`` from ``stores`` then their own Goods, what is missing), read
        without changing anything (``_payment``; the legal moves ask only whether something is missing)."""
        plan, missing = [], Counter()
        for good, n in sorted(need.items()):
            left = n
            for uid in stores:
                take = min(left, peek(game.instances, uid).goods[good])  # read only (a plan, not a payment)
                if take:
                    plan.append((uid, good, take))
                    left -= take
            take = min(left, game.players[player].goods[good])
            if take:
                plan.append((None, good, take))
                left -= take
            if left:
                missing[good] = left
        return plan, missing

    def missing_any(self, game, player, uid, purpose: str, stores: list[int]) -> bool:
        """Whether ``player`` lacks something to pay what is left of ``uid``'s ``purpose`` cost now:
        what ``_plan(game, player, _remaining(game, uid, purpose), stores)[1]`` says, read without
        building its Counters (the Action listing asks it of every Deployed Machine, for the Hack and
        for the Destroy, at every Action: those Counters were 7 % of a random game). The same walk as
        ``_plan``, Good by Good (stores first, then the player's own); a good asked 0 or less is
        dropped as ``_remaining``'s ``+need`` drops it. With parts already placed (Collaboration, M20)
        it asks ``_plan``. tests/fifty_first_state/test_hack_destroy_listing.py holds it to ``_plan``."""
        held = game.instances
        if peek(held, uid).props.get(f"{purpose}_paid"):
            return bool(self._plan(game, player, self._remaining(game, uid, purpose), stores)[1])
        if purpose == "hack":
            code = game.record(uid)["code"]  # a list of Goods (``Counter(code)`` in ``_remaining``)
            need = code.items() if isinstance(code, dict) else ((good, code.count(good)) for good in dict.fromkeys(code))
        else:
            need = (("red_contact", self.defense(game, uid)),)
        own = game.players[player].goods
        for good, n in need:
            if n <= 0:
                continue
            left = n
            for s in stores:
                take = min(left, peek(held, s).goods[good])
                if take:
                    left -= take
            take = min(left, own[good])
            if take:
                left -= take
            if left:
                return True
        return False

    def _pay(self, engine, game, player, plan) -> None:
        for uid, good, n in plan:
            if uid is None:
                game.players[player].goods[good] -= n
                game.emit("spend", player, f"pays {n} {good}", good=good, n=n)
            else:
                game.instances[uid].goods[good] -= n
                if not game.instances[uid].goods[good]:
                    del game.instances[uid].goods[good]
                game.emit("spend", player, f"pays {n} {good} stored on {engine.name_of(game, uid)}", good=good, n=n)

    def _paid(self, game, uid, purpose) -> dict:
        return dict(peek(game.instances, uid).props.get(f"{purpose}_paid") or {})  # a copy of what is read

    def _remaining(self, game, uid, purpose) -> Counter:
        if purpose == "hack":
            need = Counter(game.record(uid)["code"])
        else:
            need = Counter({"red_contact": self.defense(game, uid)})
        # what each player placed towards it (Collaboration, M20); read only: the legal moves ask this
        # of every Deployed Machine
        paid = peek(game.instances, uid).props.get(f"{purpose}_paid")
        if not paid and all(n > 0 for n in need.values()):
            return need  # nothing placed: the whole cost (``+need`` would be the same Counter)
        for goods in (paid or {}).values():
            need.subtract(goods)
        return +need

    def _others_paid(self, game, uid, purpose, player) -> list[str]:
        me = game.players[player].name
        return sorted(n for n, goods in self._paid(game, uid, purpose).items() if n != me and sum(goods.values()))

    def _leaves_play(self, game, uid) -> None:
        """M20 (decision): Goods left on a Machine that leaves play return to the supply."""
        inst = game.instances[uid]
        if sum(inst.goods.values()):
            game.emit("return", None, f"the Goods left on {game.record(uid).get('name')} "
                      f"({goods_text(inst.goods)}) return to the supply")
        inst.goods.clear()
        inst.props.pop("hack_paid", None)
        inst.props.pop("destroy_paid", None)

    def hack(self, engine, game, player: int, uid: int) -> Outcome:
        """M07: spend every Resource (and Worker) of the Code, then take the Machine into your
        hand Hacked side up."""
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        need = self._remaining(game, uid, "hack")
        try:
            plan = self._payment(game, player, need, "hack")
        except Refused as exc:
            return engine.refuse(game, player, f"{exc.reason} of the Code of {engine.name_of(game, uid)} "
                                 f"({goods_text(Counter(game.record(uid)['code']))})")
        name = engine.name_of(game, uid)
        self._pay(engine, game, player, plan)
        partners = self._others_paid(game, uid, "hack", player)
        self._leaves_play(game, uid)
        if partners:
            # M20: completing a Hack an opponent partly paid gives no card; the Machine leaves play.
            game.emit("hack", player, f"completes the Hack of {name} partly paid by {', '.join(partners)}: "
                      f"no card is gained")
            engine.discard_card(game, uid, None)
            return Outcome("done")
        game.move(uid, game.zone_key("hand", player))
        inst = game.instances[uid]
        inst.face, inst.owner = "hacked", player
        game.emit("hack", player, f"hacks {name} and takes it into hand, Hacked side up")
        return Outcome("done")

    def destroy(self, engine, game, player: int, uid: int) -> Outcome:
        """M08: spend Red Contacts equal to the Defense (M09 RAGE included), gain 1 VP, and
        discard the Machine to the Machine discard pile."""
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        defense = self.defense(game, uid)
        need = self._remaining(game, uid, "destroy")
        name = engine.name_of(game, uid)
        try:
            plan = self._payment(game, player, need, "destroy")
        except Refused as exc:
            return engine.refuse(game, player, f"{exc.reason}: the Defense of {name} is {defense}"
                                 + (" (RAGE +1)" if defense != game.record(uid)["defense"] else ""))
        self._pay(engine, game, player, plan)
        partners = self._others_paid(game, uid, "destroy", player)
        self._leaves_play(game, uid)
        game.emit("destroy", player, f"destroys {name} (Defense {defense})")
        if partners:
            game.emit("destroy", player, f"the Destroy was partly paid by {', '.join(partners)}: no Victory Point")
        else:
            game.players[player].goods["vp"] += 1
            game.emit("gain", player, "gains 1 vp", good="vp", n=1)
        game.move(uid, game.zone_key("machine_discard", None))
        return Outcome("done")

    def contribute(self, engine, game, player: int, uid: int, purpose: str, goods: Counter) -> Outcome:
        """M20 (Collaboration variant): as an Action, place part of a Hack cost (Goods matching
        the Code) or of a Destroy cost (Red Contacts) on a Machine."""
        if not game.options.get("collaboration"):
            return engine.refuse(game, player, "partial payments need the Collaboration variant")
        bad = self._deployed(engine, game, player, uid)
        if bad:
            return engine.refuse(game, player, bad.reason)
        if purpose not in ("hack", "destroy") or not goods or any(n <= 0 for n in goods.values()):
            return engine.refuse(game, player, "a partial payment names 'hack' or 'destroy' and some Goods")
        need = self._remaining(game, uid, purpose)
        name = engine.name_of(game, uid)
        extra = +(goods - need)
        if extra:
            return engine.refuse(game, player, f"{goods_text(extra)} does not match what the {purpose} of {name} "
                                 f"still needs ({goods_text(need)})")
        if not +(need - goods):
            return engine.refuse(game, player, f"that pays the whole {purpose} cost of {name}: {purpose} it instead")
        try:
            plan = self._payment(game, player, goods, purpose)
        except Refused as exc:
            return engine.refuse(game, player, exc.reason)
        self._pay(engine, game, player, plan)
        inst = game.instances[uid]
        paid = self._paid(game, uid, purpose)
        mine = Counter(paid.get(game.players[player].name) or {})
        mine.update(goods)
        paid[game.players[player].name] = dict(sorted(mine.items()))
        inst.props[f"{purpose}_paid"] = dict(sorted(paid.items()))
        inst.goods.update(goods)
        game.emit("contribute", player, f"places {goods_text(goods)} on {name} towards its {purpose} "
                  f"(still needed: {goods_text(self._remaining(game, uid, purpose))})")
        return Outcome("done")

    # --- end of game (M10) -------------------------------------------------------------------
    def end_game(self, engine, game) -> None:
        """Before Locations' VP are counted, the player with the most VP loses 2 VP per Deployed
        Machine (rule ``end_game_penalty`` in moloch.yaml). Decision: every player tied for the
        most loses it."""
        active = game.active_players()
        top = max(game.players[p].goods["vp"] for p in active)
        leaders = [p for p in active if game.players[p].goods["vp"] == top]
        game.emit("end", None, f"most Victory Points ({top}): {', '.join(game.players[p].name for p in leaders)}; "
                  f"{len(game.zone('deployed'))} Deployed Machines")
        for p in leaders:
            engine.run(game, game.compiled.rules["end_game_penalty"], p)

    # --- scenario steps ----------------------------------------------------------------------
    def machine_uid(self, game, scenario, name: str) -> int:
        """A Machine named in the scenario's state, else the first Deployed Machine with that card id
        (for scenarios that run the full setup and act on what was deployed)."""
        try:
            return scenario.card_uid(name)
        except RulesError:
            for uid in game.zone("deployed"):
                if game.instances[uid].card_id == name:
                    return uid
            raise RulesError(f"no Machine called {name!r} in the scenario's state or among the Deployed Machines")

    def _machine(self, game, scenario, step, key: str) -> int:
        return self.machine_uid(game, scenario, text(key, key, step[key], "a Machine (its card id or `as:` name)"))

    def step_hack(self, engine, game, step, scenario) -> Outcome:
        return self.hack(engine, game, scenario.player_index(step.get("player")), self._machine(game, scenario, step, "hack"))

    def step_destroy(self, engine, game, step, scenario) -> Outcome:
        return self.destroy(engine, game, scenario.player_index(step.get("player")),
                            self._machine(game, scenario, step, "destroy"))

    def step_contribute(self, engine, game, step, scenario) -> Outcome:
        """``contribute: MACHINE`` with ``hack: {good: n}`` (part of the Code) or ``destroy: n`` (Red Contacts)."""
        if ("hack" in step) == ("destroy" in step):
            raise RulesError("step 'contribute' names what the payment is for: 'hack: {good: n}' or 'destroy: n'")
        if "hack" in step:
            spec = step["hack"]
            if not isinstance(spec, dict) or not spec:
                raise RulesError(f"step 'contribute': 'hack' is a mapping of Goods to amounts (e.g. {{iron: 1}}), "
                                 f"not {kind_of(spec)}")
            goods = Counter({text("contribute", "hack", g, "a Good"): number("contribute", f"hack.{g}", n, least=1)
                             for g, n in spec.items()})
            purpose = "hack"
        else:
            goods = Counter({"red_contact": number("contribute", "destroy", step["destroy"],
                                                   "a number of Red Contacts", least=1)})
            purpose = "destroy"
        return self.contribute(engine, game, scenario.player_index(step.get("player")),
                               self._machine(game, scenario, step, "contribute"), purpose, goods)

    def step_deploy(self, engine, game, step, scenario) -> Outcome:
        n = step["deploy"]
        if n not in ("table", None):
            n = number("deploy", "deploy", n, "a number of Machines or 'table'")
        self.deploy(engine, game, self.deploy_count(game) if n in ("table", None) else n)
        return Outcome("done")

    def step_assault(self, engine, game, step, scenario) -> Outcome:
        who = step.get("assault")
        self.assault(engine, game, scenario.player_index(who if isinstance(who, str) else step.get("player")))
        return Outcome("done")

MOLOCH = register_pack(Moloch())
