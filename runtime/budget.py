"""Run-time budgets: how much work one effect, and one move, may do (issue 23).

Text that validates can still ask for unbounded work: twelve copies of a trigger that answers every
"put" with a "put" fire 12! times (no slot re-enters itself, but each copy re-enters every other),
and nested ``until`` loops multiply their caps (100 × 100 × …). Every unit of work an effect does
goes through one of three doors, and each door charges this one budget:

- a **trigger firing** (``Engine.dispatch``, the event bus),
- a **loop round** (``Ctx.repeat``/``each``/``menu``/``acting``: ``until``, ``for each``, a menu, an
  acting-player clause),
- a **statement** (``Ctx.call``: every verb the effect runs).

Each is counted per effect (from the outermost effect's start: a played card's effect with every
trigger it sets off) and per move (``new_move``: a match's ``apply``, a scenario's step). Past a
limit, the run stops with ``OverBudget``: a refusal that names the card and YAML line it stopped
in. What ran so far stands (as after a ``Halt``): the work is bounded, the state is not rolled back.

The numbers are far above anything a bundled game does (the most any bundled effect or move
spends is a few hundred statements) and far below what takes a noticeable time: a statement costs
microseconds, so a whole move's budget is well under a second. docs/security.md states them.
"""
from __future__ import annotations

import sys

from .errors import Refused
from .tables import statement_place

FIRINGS, ROUNDS, STATEMENTS = 0, 1, 2
WHAT = ("trigger firings", "loop rounds", "statements")
# per effect, per move: (trigger firings, loop rounds, statements)
PER_EFFECT = (1_000, 10_000, 50_000)
PER_MOVE = (10_000, 100_000, 500_000)


class OverBudget(Refused):
    """An effect or a move did more work than its budget allows; the run stops here. A refusal, so
    every caller that reports refusals (run, simulate, play, watch) reports this one too."""

    def __init__(self, reason: str):
        super().__init__(reason, "budget")


class Budget:
    """The counters of one game state. ``Engine.run`` and ``Engine.dispatch`` start an effect when
    none is running; whoever applies a move starts a move."""

    __slots__ = ("effect", "move")

    def __init__(self) -> None:
        self.effect = [0, 0, 0]
        self.move = [0, 0, 0]

    def __deepcopy__(self, memo) -> "Budget":  # a copied state (Monte Carlo playouts) counts afresh
        return Budget()

    def new_effect(self) -> None:
        self.effect = [0, 0, 0]

    def new_move(self) -> None:
        self.move = [0, 0, 0]
        self.effect = [0, 0, 0]

    def spend(self, kind: int, game, where_fn=None) -> None:
        """Charge one unit of ``kind``; ``OverBudget`` past either limit. ``where_fn``: the
        generated function about to run (a trigger), else the innermost one running is named."""
        e, m = self.effect, self.move
        e[kind] += 1
        m[kind] += 1
        if e[kind] > PER_EFFECT[kind]:
            raise OverBudget(_worded(kind, PER_EFFECT[kind], "effect", where_fn))
        if m[kind] > PER_MOVE[kind]:
            raise OverBudget(_worded(kind, PER_MOVE[kind], "move", where_fn))


def _worded(kind: int, limit: int, scope: str, where_fn) -> str:
    where = _where(where_fn)
    return (f"stopped: more than {limit:,} {WHAT[kind]} in one {scope}"
            + (f", at {where}" if where else "")
            + " (cardwright's run-time budget: see docs/security.md)")


def _where(fn) -> str | None:
    """The YAML place (``file:line card 'id' slot``) of ``fn``, or of the innermost generated
    function on the stack, from its module's LINE_MAP (compiler/codegen.py)."""
    if fn is not None:  # a trigger about to run: its first statement
        place = statement_place(getattr(fn, "__globals__", {}), fn.__name__, 0)
        if place is not None:
            return place
    frame = sys._getframe(1)
    while frame is not None:  # the statement running in the innermost generated function
        place = statement_place(frame.f_globals, frame.f_code.co_name, frame.f_lineno - frame.f_code.co_firstlineno)
        if place is not None:
            return place
        frame = frame.f_back
    return None
