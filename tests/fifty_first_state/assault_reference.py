"""The Assault search (M04) as it was before it was made faster (moloch.py at b56fe33), kept as the
reference the fast search is compared with (test_assault_search_reference.py), and used by that test
only: every trial runs on a copy, each trial's words are made as it runs. The one change: the no-op
``paying`` hook that ``verbs.pay`` calls since the probe (``moloch.AssaultProbe``) came."""
from __future__ import annotations

from runtime.context import Ctx
from runtime.refs import VAR, Every, UpToN
from runtime.games.fifty_first_state.moloch import PLAN_LIMIT, SEARCH_BUDGET, AssaultPlan, distinct_choices


class ReferenceAssaultTrial:
    """What the targeted verbs consult while one Machine's Assault runs (M04).

    ``script`` gives, for each targeted statement in turn, which of its distinct target
    choices to take (index into ``choices``; past the script's end, the first). The trial records
    every choice point (how many distinct choices it had), what was picked, and how much of the
    effect resolved: each target taken and each Good or card lost is one unit resolved, each one
    missing a unit ignored ("If an effect cannot be resolved, just ignore it").
    """

    def __init__(self, script: tuple = (), picks: tuple | None = None):
        self.script = script
        self.replay = picks          # executing a chosen plan: the recorded target uids
        self.points: list[int] = []  # number of distinct choices at each choice point
        self.taken: list[int] = []
        self.picked: list[tuple] = []
        self.wanted = 0
        self.resolved = 0
        self.parts: list[str] = []

    def targets(self, ctx: Ctx, sel, verb_name: str) -> list[int]:
        g = ctx.game
        options = ctx.options(sel)
        if sel.category == VAR or isinstance(sel.amount, Every):
            n = len(options)
        elif isinstance(sel.amount, UpToN):
            n = sel.amount.n
        else:
            n = ctx.amount(sel)
        k = min(n, len(options))
        i = len(self.picked)
        if self.replay is not None:
            want = self.replay[i] if i < len(self.replay) else ()
            pick = tuple(t for t in want if t in options)[:k]
            if len(pick) < k:  # the state drifted (an agent's other choice): complete with the first free
                pick += tuple(t for t in options if t not in pick)[:k - len(pick)]
        else:
            choices = distinct_choices(g, options, k)
            j = self.script[i] if i < len(self.script) else 0
            self.points.append(len(choices))
            self.taken.append(j)
            pick = choices[j]
        self.picked.append(pick)
        self.wanted += n
        self.resolved += len(pick)
        name = g.engine.name_of(g, ctx.card)
        what = ", ".join(g.engine.name_of(g, t) for t in pick) or "nothing (ignored)"
        self.parts.append(f"{name} {verb_name}s: {what}")
        return list(pick)

    def paying(self, ctx: Ctx, verb_name: str, wanted: int, got: int) -> None:
        """The hook verbs.pay calls before a loss since the probe came (a trial that runs ignores it)."""

    def paid(self, ctx: Ctx, verb_name: str, wanted: int, got: int) -> None:
        """A loss (``lose 2 fuel``, ``lose 1 vp per deployed machine``): units resolved = units lost."""
        self.wanted += wanted
        self.resolved += got
        name = ctx.game.engine.name_of(ctx.game, ctx.card)
        self.parts.append(f"{name} {verb_name}s {got}" + (f" of {wanted}" if got < wanted else ""))



class ReferenceAssaultSearch:
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
    """

    def __init__(self, engine, game, player: int, machines: list[int], budget: int = SEARCH_BUDGET):
        self.engine, self.player = engine, player
        self.budget = budget
        self.root = game
        self.machines = machines
        self.trials = 0
        self.truncated = False
        self.top = -1
        self.found: list = []
        self.finals: set = set()
        self.asks: dict[str, int] = {}
        self.seen: dict = {}

    def run_one(self, state, uid: int, script: tuple = ()):
        twin = state.copy(agents={})  # first-legal for the choices an effect leaves to the player
        trial = ReferenceAssaultTrial(script)
        twin.assault = trial
        out = self.engine.run(twin, twin.record(uid)["slots"]["assault"], self.player, uid)
        twin.assault = None
        self.trials += 1
        got = trial.resolved if out.status == "done" else 0
        return twin, trial, got

    def variants(self, state, uid: int):
        """Each distinct way this Machine's Assault can go from ``state``, lazily: (state after, trial, units)."""
        todo = [()]
        while todo:
            script = todo.pop(0)
            twin, trial, got = self.run_one(state, uid, script)
            yield twin, trial, got
            for i in range(len(script), len(trial.points)):
                for j in range(1, trial.points[i]):
                    todo.append(tuple(trial.taken[:i]) + (j,))

    def record(self, state, score: int, wanted: int, steps: tuple, parts: tuple) -> None:
        final = state.fingerprint()
        if score > self.top:
            self.top, self.found, self.finals = score, [], set()
        if score == self.top and final not in self.finals and len(self.found) < PLAN_LIMIT:
            self.finals.add(final)
            self.found.append(AssaultPlan(steps, score, wanted, "; ".join(parts) or "nothing to resolve"))

    def full(self) -> bool:
        return len(self.found) >= PLAN_LIMIT

    def dfs(self, state, left: tuple, score: int, wanted: int, steps: tuple, parts: tuple) -> None:
        if not left:
            self.record(state, score, wanted, steps, parts)
            return
        bound = score + sum(self.asks[state.instances[u].card_id] for u in left)
        if bound < self.top or (bound == self.top and self.full()):
            return
        # the same Machines left on the same state (effects that commute) reached before with as
        # many units: everything from here was explored then (the incumbent only grows since)
        before = state.fingerprint()
        key = (tuple(sorted(state.instances[u].card_id for u in left)), before)
        if self.seen.get(key, -1) >= score:
            return
        self.seen[key] = score
        if self.trials >= self.budget:
            self.truncated = True
            for uid in left:  # Deployed order, first choices
                state, trial, got = self.run_one(state, uid)
                score, wanted = score + got, wanted + trial.wanted
                steps, parts = steps + ((uid, tuple(trial.picked)),), parts + tuple(trial.parts)
            self.record(state, score, wanted, steps, parts)
            return
        inert, tried = [], set()
        for uid in left:
            cid = state.instances[uid].card_id
            if cid in tried:
                continue
            tried.add(cid)
            rest = tuple(u for u in left if u != uid)
            for twin, trial, got in self.variants(state, uid):
                if got == 0 and twin.fingerprint() == before:
                    inert.append((uid, trial))  # does nothing now: try it later, never first
                    break
                self.dfs(twin, rest, score + got, wanted + trial.wanted,
                         steps + ((uid, tuple(trial.picked)),), parts + tuple(trial.parts))
                if self.full() and score + got + sum(self.asks[twin.instances[u].card_id] for u in rest) <= self.top:
                    break
        if len(inert) == len(tried):  # every Machine left does nothing from here: they are ignored
            for uid in left:
                trial = next(t for u, t in inert if state.instances[u].card_id == state.instances[uid].card_id)
                wanted += trial.wanted
                steps, parts = steps + ((uid, tuple(trial.picked)),), parts + tuple(trial.parts)
            self.record(state, score, wanted, steps, parts)

    def plans(self) -> list[AssaultPlan]:
        start = self.root.copy(agents={})
        for uid in self.machines:  # what each Machine's Assault asks for (the bound)
            cid = start.instances[uid].card_id
            if cid not in self.asks:
                self.asks[cid] = self.run_one(start, uid)[1].wanted
        self.dfs(start, tuple(self.machines), 0, 0, (), ())
        return self.found
