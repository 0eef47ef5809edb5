"""The game flow of game.yaml (issue 13): checked and emitted like card effects.

``flow:`` says how a game is played — setup, turn order, rounds and phases with their steps, the
actions a player may take, when the game ends and how the winner is found (format:
docs/authoring.md, "Game flow"). The schema (data/schema/game.schema.json) checks its shape; this
module checks what a schema cannot (every action a phase names exists, setup cards and zones exist,
cost Goods exist) and sends every effect text in it through the same parse → check → IR → codegen as
a card's effects (``compile_text``, the build's own slot compiler). The result is one generated
module, ``generated/<game>/flow.py``, whose ``FLOW`` table is the flow with each text replaced by
its compiled function; the core engine (runtime/flow.py) plays it. The same module carries ``BOTS``,
game.yaml's top-level ``bots`` (the greedy bot's heuristic, for any game, with a flow or not).
"""
from __future__ import annotations

from typing import Any, Callable

from runtime.model import model_of
from runtime.words import did_you_mean

from . import ast as A
from .codegen import identifier, literal
from .diagnostics import Diagnostics
from .loader import Document
from .parser import parse_effect

FLOW_MODULE = "flow"  # generated/<game>/flow.py (FLOW, BOTS); a data module of that name is refused (E503)

# compile_text(path, text, slot kind, function name) -> generated function name, or None on errors
CompileText = Callable[[tuple, str, str, str], "str | None"]


class Fn:
    """A compiled function's name in the FLOW table: emitted as a bare name, never as a literal."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


def table_source(value: Any) -> str:
    """Python source of a FLOW table: plain data through ``literal``, functions by their name."""
    if isinstance(value, Fn):
        return value.name
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {table_source(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(table_source(v) for v in value) + "]"
    return literal(value)


class FlowCompiler:
    """Checks and compiles one game's ``flow``; ``table()`` is the FLOW table (None on errors)."""

    def __init__(self, gdoc: Document, vocab_data: dict, card_ids: set[str], compile_text: CompileText,
                 diags: Diagnostics):
        self.doc = gdoc
        self.vocab = vocab_data
        self.card_ids = card_ids
        self.compile_text = compile_text
        self.diags = diags
        self.ok = True

    # --- reporting --------------------------------------------------------------------------------
    def error(self, code: str, message: str, path: tuple, hint: str | None = None, key: bool = False) -> None:
        """Report at the value at ``path`` (``key``: at the mapping key that ends ``path``)."""
        self.ok = False
        kp = self.doc.key_positions.get(path) if key else None
        if kp is not None:
            line, col, src = kp.line + 1, kp.column + 1, self.doc.source_line(kp.line)
            length = len(str(path[-1]))
        else:
            line, col, src = self.doc.where(path)
            value = self.doc.get(path)
            length = len(str(value)) if isinstance(value, str) else 1
        self.diags.error(code, message, file=self.doc.file, line=line, column=col, length=length,
                         path=".".join(map(str, path)), hint=hint, source_line=src)

    def name_in(self, name: str, known, what: str, path: tuple, key: bool = False) -> bool:
        if name in known:
            return True
        self.error("E201", f"unknown {what} '{name}' in the game's flow", path, did_you_mean(name, known), key)
        return False

    def text(self, path: tuple, kind: str, fname: str):
        """Compile the effect text at ``path``; an Fn, or None when it has errors."""
        text = self.doc.get(path)
        name = self.compile_text(path, text, kind, identifier("flow", *fname.split("/")))
        if name is None:
            self.ok = False
            return None
        return Fn(name)

    # --- the flow ---------------------------------------------------------------------------------
    def table(self) -> dict | None:
        flow = self.doc.data["flow"]
        base = ("flow",)
        out: dict[str, Any] = {k: flow[k] for k in ("first_player", "note", "stand_in") if k in flow}
        if "players" in flow:  # how many a game seats is said once, by game.yaml ``seats`` (GameModel.seats)
            self.error("E401", "how many players the game seats is game.yaml's `seats`, not the flow's: "
                       "move `players: {min, max}` to the top level as `seats: {min, max}`", base + ("players",))
        out["starting_player"] = dict(flow.get("starting_player") or {})
        out["setup"] = [self.setup_step(base + ("setup", i), s, i) for i, s in enumerate(flow.get("setup") or [])]
        actions = flow.get("actions") or {}
        out["actions"] = {aid: self.action(base + ("actions", aid), aid, a) for aid, a in actions.items()}
        out["round"] = [self.phase(base + ("round", i), p, actions, "round") for i, p in enumerate(flow["round"])]
        end = dict(flow.get("end") or {})
        if "when" in end:
            end["when"] = self.text(base + ("end", "when"), "condition", "end/when")
        out["end"] = end
        score = dict(flow["score"])
        score["points"] = self.text(base + ("score", "points"), "quantity", "score/points")
        score["final"] = [self.step(base + ("score", "final", i), s, f"score/final/{i}")
                          for i, s in enumerate(score.get("final") or [])]
        breaks = []
        for i, tb in enumerate(score.get("tie_breaks") or []):
            (how, _), = tb.items()
            breaks.append({"how": how, "text": tb[how],
                           "fn": self.text(base + ("score", "tie_breaks", i, how), "quantity", f"tie/{i}")})
        score["tie_breaks"] = breaks
        out["score"] = score
        return out if self.ok else None

    def bots(self) -> dict | None:
        """game.yaml's top-level ``bots`` (any game, with a flow or not): the greedy heuristic, a
        quantity compiled like the flow's scores. None when it has errors."""
        bots = dict(self.doc.data.get("bots") or {})
        if "greedy" in bots:
            bots["greedy_text"] = bots["greedy"]
            bots["greedy"] = self.text(("bots", "greedy"), "quantity", "bots/greedy")
        return bots if self.ok else None

    def step(self, path: tuple, step: dict, fname: str) -> dict:
        out = {k: v for k, v in step.items() if k != "effect"}
        out["text"] = step["effect"]
        out["fn"] = self.text(path + ("effect",), "effect", fname)
        return out

    def setup_step(self, path: tuple, step: dict, i: int) -> dict:
        zones = model_of(self.vocab).zones
        if "effect" in step:
            return {"do": "effect", **self.step(path, step, f"setup/{i}")}
        if "shuffle" in step:
            self.name_in(step["shuffle"], zones, "zone", path + ("shuffle",))
            return {"do": "shuffle", **step}
        self.name_in(step["into"], zones, "zone", path + ("into",))
        if isinstance(step["create"], dict):
            for cid in step["create"]:
                self.name_in(cid, self.card_ids, "card", path + ("create", cid), key=True)
        return {"do": "create", **step}

    def action(self, path: tuple, aid: str, action: dict) -> dict:
        goods = model_of(self.vocab).goods
        for good in action.get("cost") or {}:
            self.name_in(good, goods, "good", path + ("cost", good), key=True)
        out = {k: v for k, v in action.items() if k not in ("effect", "requires")}
        out["id"] = aid
        out.setdefault("name", aid.replace("_", " "))
        out["text"] = action["effect"]
        out["fn"] = self.text(path + ("effect",), "effect", f"action/{aid}")
        effect, problem = parse_effect(action["effect"])
        # "choose … as NAME; …": each option of that first choice is its own move (runtime/flow.py)
        first = effect.statements[0] if problem is None and effect.statements else None
        amount = first.selector.amount if isinstance(first, A.Choose) else False
        out["per_choice"] = amount is None or (isinstance(amount, A.Num) and amount.value == 1)
        if "requires" in action:
            out["requires_text"] = action["requires"]
            out["requires"] = self.text(path + ("requires",), "condition", f"action/{aid}/requires")
        return out

    def phase(self, path: tuple, phase: dict, actions: dict, level: str) -> dict:
        out = {k: v for k, v in phase.items() if k not in ("steps", "turns")}
        out["steps"] = [self.step(path + ("steps", i), s, f"{phase['id']}/{i}")
                        for i, s in enumerate(phase.get("steps") or [])]
        for i, aid in enumerate(phase.get("actions") or []):
            self.name_in(aid, actions, "action", path + ("actions", i))
        # abilities as moves (issue 28): the slots named must be ability slots of some card kind
        ability_slots = {sk for spec in (self.vocab.get("card_kinds") or {}).values()
                         for sk, ss in ((spec or {}).get("slots") or {}).items() if (ss or {}).get("kind") == "ability"}
        for i, slot in enumerate(phase.get("abilities") or []):
            self.name_in(slot, ability_slots, "ability slot", path + ("abilities", i))
        if "turns" in phase:
            if level == "turn":
                self.error("E401", "a turn cannot hold turns: `turns` belongs to a phase of the round",
                           path + ("turns",))
            out["turns"] = [self.phase(path + ("turns", i), p, actions, "turn")
                            for i, p in enumerate(phase["turns"])]
        out.setdefault("order", "in turn" if level == "turn" else "alternate")
        return out


def check_quantity(effect: A.Effect) -> str | None:
    """A quantity text (compiled as ``x is …``) must be one quantity, nothing more."""
    if len(effect.statements) != 1 or not isinstance(effect.statements[0], A.Let):
        return "a quantity is expected here (for example: number of vp), not statements"
    return None


def check_reshuffle(gdoc: Document, diags: Diagnostics) -> bool:
    """``rules.reshuffle: {draw pile: discard pile}`` names two declared zones (the core engine's
    refill, runtime/engine.py ``Engine.refill``). True when sound."""
    rules = gdoc.data.get("rules") or {}
    if "reshuffle" not in rules:
        return True
    zones = gdoc.data.get("zones") or {}
    value = rules["reshuffle"]
    base = ("rules", "reshuffle")

    def report(code: str, message: str, path: tuple, hint: str | None = None) -> None:
        line, col, src = gdoc.where(path)
        diags.error(code, message, file=gdoc.file, line=line, column=col, path=".".join(map(str, path)),
                    hint=hint, source_line=src)

    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        report("E401", "rules.reshuffle maps a draw pile to the pile shuffled into it when it is empty "
               "(for example: {deck: discard})", base)
        return False
    ok = True
    for draw, source in value.items():
        for name, path in ((draw, base + (draw,)), (source, base + (draw,))):
            if name not in zones:
                report("E201", f"unknown zone '{name}' in rules.reshuffle", path, did_you_mean(name, zones))
                ok = False
    return ok
