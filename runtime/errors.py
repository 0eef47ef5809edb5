"""Exceptions of the runtime. ``Refused`` is the normal, expected outcome of an illegal action."""
from __future__ import annotations


class Refused(Exception):
    """An action the rules do not allow. Raised before any change: the state is unchanged."""

    def __init__(self, reason: str, code: str = "refused"):
        super().__init__(reason)
        self.reason = reason
        self.code = code


class Unmet(Refused):
    """A ``requires`` guard (or an ``x is … (min N)``) is not met: the effect does nothing at all."""

    def __init__(self, reason: str):
        super().__init__(reason, "unmet")


class Nowhere(Refused):
    """An action with nowhere to act: a place named through a choice that found nothing ("draw 1 card
    from t's hand" after "choose 1 card in the trash as t" with an empty trash), no card to place on,
    no Good matching an icon choice that found none. The action does nothing and the effect goes on
    (``Ctx.call``); as a cost it cannot be paid, and is refused (issue 22, docs/decisions.md)."""


class RulesError(Exception):
    """A bug or an impossible state (for example a card in two zones): never a designer's mistake."""


class Halt(Exception):
    """Control flow, not an error: an engine stops what is resolving (Infernal Contraption's
    elimination, I12). ``Engine.run`` catches it and returns it on the ``Outcome``, so it never
    escapes to a caller that does not know the engine; an engine that needs it to unwind further
    (an activation loop) re-raises ``outcome.halt`` itself."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
