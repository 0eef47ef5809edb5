"""The age_of_steam verbs of the effect language."""
from __future__ import annotations

from runtime.errors import RulesError
from runtime.refs import GOOD
from runtime.verbs import UP_TO, Slot, verb

ENGINE = "age_of_steam"


# "build up to N track tiles" grants an allowance: the player then builds 0..N (A03). Only the
# "up to" form says that truthfully; "build 3 track tiles" would read as an obligation it is not.
@verb("build", template="build {obj}", example="build up to 3 track tiles",
      obj=Slot((GOOD,), required=True, amounts=frozenset({UP_TO})), engine=ENGINE)
def build_allowance(ctx, objs, ph, strict):
    """Allow the player to build up to N track tiles this turn (the highest allowance granted counts)."""
    sel = objs[0]
    if sel.key != "track_tile":
        raise RulesError(f"'build' takes track tiles, not {sel.key}")
    n = ctx.amount(sel)
    p = ctx.game.players[ctx.player]
    if n > p.goods["track_tile"]:
        p.goods["track_tile"] = n
    if ctx.game.tracing:  # emit() keeps words only while tracing: they are made only then
        ctx.game.emit("build", ctx.player, f"may build up to {p.goods['track_tile']} track tiles this turn")
