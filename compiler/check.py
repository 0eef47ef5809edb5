"""Stage 4 — check: every name against the game's vocabulary, every statement against its verb, into
the typed IR.

The checker is one pass over an effect's AST (a :class:`~compiler.visitor.Visitor`). Each visit checks
its node and returns the node's typed IR (compiler/ir.py):
- names are resolved against the vocabulary ("did you mean" when unknown) into typed queries —
  categories and keys, owners as ``Who``/``Bound``, typed filters and amounts — the very objects
  generated code passes to the runtime (runtime/refs.py);
- statements are checked against their verb's signature (a part the verb would ignore is an error,
  E306) and guards must come before actions;
- each diagnostic is located by its span in the effect text.
An effect without errors leaves as its IR (``Checked.ir``); one with errors leaves none (parts of it
are ``None`` where a name did not resolve). There is no side table and no second walk: what the
checker accepted is what it built (issue 22). The AST stays untouched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from runtime import verbs as V
from runtime.events import BEFORE_PLAY, EVENT_VERBS
from runtime.model import GameModel
from runtime.refs import ANY_NUMBER, CARD, DEFAULT, GOOD, ICON, PHASE, PILE, PLAYER, THING, VAR, ZONE
from runtime.verbs import Slot, Verb
from runtime.words import did_you_mean

from . import ast as A
from . import ir
from .english import option_labeller
from .printer import fmt
from .syntaxhelp import RESERVED_NAMES
from .visitor import Visitor
from .vocabulary import POSSESSIVES

_CATEGORY_WORDS = {GOOD: "good", THING: "thing", ZONE: "zone or pile", PLAYER: "player", PHASE: "phase",
                   ICON: "icon", VAR: "chosen name", CARD: "card", PILE: "pile of a supply",
                   V.CARD_NAME: "card name"}

Report = Callable[[str, str, A.Span, "str | None"], None]

# What the statements that are not verbs honour (runtime/context.py: choose, each, test, count).
_ANY = (THING, CARD, ICON, PLAYER, ZONE, GOOD, VAR)
_CHOOSE = Slot(_ANY, amounts=frozenset(V.AMOUNTS) | {V.ANY})
_EACH = Slot(_ANY, amounts=(frozenset(V.AMOUNTS) | {V.ANY}) - {V.PER})  # Ctx.each reads no "per"
_EXISTS = Slot(_ANY, amounts=V.COUNTED,                                 # "if 3 ruins:", "requires 1 card in …"
               owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))
_COUNT = Slot(_ANY + (PILE,), amounts=frozenset({V.ONE}),              # "number of …" counts, it takes no amount
              owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))
_REF = Slot(_ANY, owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))  # inside "in …", "of …", "per …"
# the card of an event ("… plays a card with icon attack"): one card, filtered; whose is the subject's
_EVENT_CARD = Slot((CARD, THING, VAR), amounts=frozenset({V.ONE}), owners=frozenset(), refs=frozenset())
# h28b: the cards a cost change names ("this turn, action cards cost 1 less"): every such card, wherever
# it is (matched as printed, as an event's card is), so no amount, owner or place
# "costing …" and other number fields are not among its filters: a change that depended on the cost it
# changes would read itself (Ctx.changed_cost)
_COST_CHANGE = Slot((CARD, THING), amounts=frozenset({V.ONE}), owners=frozenset(), refs=frozenset(),
                    filters=frozenset({"icon", "with", "without", "other than", "not"}))
# h28b: in a trigger's body, the names of what its event is about: "it" (the event's card, a bound
# name like any other) and "they" (its player, the acting-player clause "they …")
EVENT_CARD = "it"
EVENT_PLAYER = "\x00they"

_WHO = {w.value: w for w in ir.Who}
# Issue 28: verbs designers try first for an ability, and the form to write instead (when the game
# has no such verb)
_VERB_HINTS = {
    "scrap": "to scrap this card for an effect, write 'trash this card: …' in a slot of kind ability",
    "activate": "an ability the player uses when they choose goes in a slot of kind ability: 'once per turn: …'",
    "use": "an ability the player uses when they choose goes in a slot of kind ability: 'once per turn: …'",
}


@dataclass
class Checked:
    """The checker's result for one effect: whether it is accepted and, if so, its typed IR —
    what codegen, English, the reference, ``explain`` and ``diff`` read."""

    effect: A.Effect
    ok: bool = True
    ir: object = None  # ir.Effect, or ir.Cond for a bare-condition slot; None when rejected


class Checker:
    def __init__(self, vocab: GameModel, verbs: dict[str, Verb]):
        self.vocab = vocab
        self.verbs = verbs

    card_ids: set | None = None  # the build sets the game's card ids, for "other than <card>"

    def check(self, effect: A.Effect, report: Report, kind: str = "effect", has_card: bool = True) -> Checked:
        errors: list[str] = []

        def rep(code, msg, span, hint=None):
            errors.append(code)
            report(code, msg, span, hint)

        walk = _Check(self, rep, errors)
        scope: dict[str, str] = {}  # bound name -> category of what it holds
        if has_card:
            scope[THIS_CARD] = CARD  # "this card": the card whose effect runs (rules have none)
        seen_action = False
        statements = []
        for st in effect.statements:
            if kind == "ability" or isinstance(st, A.Ability):  # issue 28: abilities as moves
                lowered = self._ability(walk, st, kind, rep, scope)
                if lowered is not None:
                    statements.append(lowered)
                continue
            if (kind == "cost") != isinstance(st, A.OwnCost) or kind == "cost" and len(effect.statements) > 1:
                # h28b: a card's own cost change is the whole text of a slot of kind cost, and only there
                if kind == "cost":
                    rep("E310", "a cost slot holds one text: 'this costs 1 less per card with icon action in "
                        "your play area'", st.span)
                else:
                    rep("E310", "'this costs … less per …' belongs in a slot the game declares 'kind: cost'",
                        st.span, "declare the slot in game.yaml: slots: {discount: {kind: cost}}")
                continue
            if (kind == "trigger") != isinstance(st, A.Trigger):
                if kind == "trigger":
                    rep("E310", "a trigger slot holds triggers: 'when you play this card: …', 'at the start of "
                        "your turn: …', 'whenever an opponent plays a card: …'", st.span)
                else:
                    rep("E310", "a trigger belongs in a slot the game declares 'kind: trigger'", st.span,
                        "declare the slot in game.yaml: slots: {on_event: {kind: trigger}}")
                continue
            if isinstance(st, (A.Requires, A.Let)):
                guard = isinstance(st, A.Requires) or st.minimum is not None
                if guard and seen_action:
                    rep("E304", "'requires' and 'x is … (min N)' must come before the effect's actions: "
                        "they decide whether anything happens at all", st.span)
            else:
                seen_action = True
            statements.append(walk.visit(st, scope))
        if errors:
            return Checked(effect, ok=False)
        if kind == "condition":  # a bare-condition slot, parsed as "requires <condition>"
            return Checked(effect, True, statements[0].cond)
        return Checked(effect, True, ir.Effect(tuple(statements), walk.computed, effect))

    # --- abilities (issue 28) -------------------------------------------------------------------
    def _ability(self, walk: "_Check", st, kind: str, rep, scope: dict):
        """One statement of an ability slot: an ability ("once per turn: …", "while …: …") or a cost
        on its own ("trash this card: gain 3 combat"), lowered to ``ir.Ability``. An ability anywhere
        else, or anything else in an ability slot, is E310."""
        if kind != "ability":
            rep("E310", "an ability belongs in a slot the game declares 'kind: ability'", st.span,
                "declare the slot in game.yaml: slots: {ability: {kind: ability}}")
            return None
        if isinstance(st, A.Cost):  # the cost is the ability's limit: it takes something each use
            index = walk.abilities
            walk.abilities += 1
            return ir.Ability(index, None, None, (walk.visit(st, dict(scope)),), st)
        if not isinstance(st, A.Ability):
            rep("E310", "an ability slot holds abilities, each saying how often it may be used: "
                "'once per turn: …', 'once per turn while …: …', or a cost such as 'trash this card: …'",
                st.span, "write 'once per turn: " + fmt(st) + "'")
            return None
        return walk.visit(st, scope)

    _labeller = None

    def labeller(self):
        """How a menu's options are labelled for the agent: their English (compiler/english.py)."""
        if self._labeller is None:
            self._labeller = option_labeller(self.vocab, self.verbs)
        return self._labeller


class _Check(Visitor):
    """One effect's walk: ``visit(statement, scope)`` checks a statement and returns its IR. ``scope``
    maps each bound name to the category of what it holds; a body gets its own copy where names it
    binds end with it."""

    def __init__(self, checker: Checker, rep: Report, errors: list):
        self.checker = checker
        self.vocab = checker.vocab
        self.verbs = checker.verbs
        self.rep = rep
        self.errors = errors
        self.several: set[str] = set()  # names bound to more than one card ("choose 2 … as t")
        self.triggers = 0  # each trigger's place in its slot ("the first time" is kept per trigger)
        self.computed = False  # a filter bound computed at run time: codegen binds it first
        self.abilities = 0  # each ability's place in its slot (its uses are kept per card and place)

    # --- statements --------------------------------------------------------------------------
    def _name_ok(self, name: A.Name) -> None:
        """A bound name must not be a word the language reads otherwise ("as x" would be the card's
        X wherever it is used, "as a" the article)."""
        if name.text in RESERVED_NAMES:
            self.rep("E305", f"'{name.text}' cannot name a choice: the language reads it as the word '{name.text}' "
                     "wherever the name is used", name.span, "pick another name, e.g. 'as c'")

    def body(self, stmts, scope) -> tuple:
        out = []
        for b in stmts:
            if isinstance(b, A.Ability):  # issue 28: an ability is a whole move, not a step of one
                self.rep("E310", "an ability stands on its own in its slot, not inside another statement's body",
                         b.span, None)
                continue
            if isinstance(b, (A.Requires, A.Let)) and (isinstance(b, A.Requires) or b.minimum is not None):
                self.rep("E304", "'requires' and 'x is … (min N)' decide whether anything of the effect happens: "
                         "they stand at its start, not inside a body", b.span)
            out.append(self.visit(b, scope))
        return tuple(out)

    def generic_visit(self, node, *args):  # every statement of the grammar has its method
        raise TypeError(f"the checker has no method for {type(node).__name__}")

    def visit_Action(self, act: A.Action, scope) -> ir.Act | None:
        return self.action(act, scope)

    def visit_Requires(self, r: A.Requires, scope) -> ir.Require:
        return ir.Require(self.cond(r.condition, scope), fmt(r), r)

    def visit_Let(self, s: A.Let, scope) -> ir.LetX:
        value = self.quantity(s.value, scope)
        scope["x"] = "number"
        return ir.LetX(value, s.minimum, fmt(s), s)

    def visit_Choose(self, st: A.Choose, scope) -> ir.Choose:
        q = self.selector(st.selector, scope, (THING, CARD, ICON, PLAYER, ZONE, GOOD), slot=_CHOOSE, verb="choose")
        cat = q.category if q is not None else None
        if cat == VAR:  # "choose 1 of r as k": k holds what r holds
            cat = scope.get(st.selector.noun.text)
        self._name_ok(st.name)
        scope[st.name.text] = cat or THING
        amount = st.selector.amount
        if not (amount is None or isinstance(amount, A.One) or isinstance(amount, A.Num) and amount.value == 1):
            self.several.add(st.name.text)
        else:
            self.several.discard(st.name.text)
        return ir.Choose(q, st.name.text, st)

    def visit_ForEach(self, st: A.ForEach, scope) -> ir.ForEach:
        q = self.selector(st.selector, scope, (THING, CARD, ICON, PLAYER, ZONE), slot=_EACH, verb="for each")
        cat = q.category if q is not None else None
        if cat == VAR:
            cat = scope.get(st.selector.noun.text)
        inner = dict(scope)
        if st.name is not None:
            self._name_ok(st.name)
        name = st.name.text if st.name else "it"
        inner[name] = cat or THING
        return ir.ForEach(q, name, self.body(st.body, inner), st)

    def visit_If(self, st: A.If, scope) -> ir.If:
        cond = self.cond(st.condition, scope)
        body = self.body(st.body, dict(scope))
        otherwise = self.body(st.otherwise, dict(scope)) if st.otherwise is not None else None
        return ir.If(cond, body, otherwise, st)

    def visit_Cost(self, st: A.Cost, scope) -> ir.Cost:
        pay = self.action(st.action, scope, strict=True)
        return ir.Cost(pay, self.body(st.body, scope), st)

    def visit_Menu(self, st: A.Menu, scope) -> ir.Menu:
        if st.count >= len(st.options):
            self.rep("E307", f"'choose {st.word}' needs more than {st.count} option"
                     f"{'s' if st.count != 1 else ''} to choose from (it has {len(st.options)})", st.span,
                     "add options separated by '; or'")
        seen: dict[str, A.Span] = {}
        options = []
        for option in st.options:
            text = "; ".join(fmt(o) for o in option)
            if text in seen:
                self.rep("E307", "this option is the same as an earlier one: a menu's options are distinct",
                         _body_span(option), None)
            seen[text] = _body_span(option)
            options.append(self.body(option, dict(scope)))
        labels = () if self.errors else tuple(self._label(o, lowered) for o, lowered in zip(st.options, options))
        return ir.Menu(st.count, tuple(options), labels, st)

    def _label(self, option, lowered: tuple) -> str:
        """A menu option's label for the agent: its English, or its canonical text if that fails."""
        try:
            return self.checker.labeller()(lowered)
        except Exception:  # noqa: BLE001 - a label is a courtesy; the canonical text always works
            return "; ".join(fmt(o) for o in option)

    def visit_Acting(self, st: A.Acting, scope) -> ir.Acting:
        if st.who == "they":  # h28b: the player the trigger's event is about
            return self._they(st, scope)
        allowed = {"opponent": ("opponent", "opponents"), "other": ("player", "players", "opponent", "opponents"),
                   "each": ("player", "players"), "left": ("player",), "right": ("player",),
                   "target": ("opponent",), "chosen": ("player",)}[st.who]
        if st.noun.text not in allowed:
            self.rep("E201", f"unknown acting player '{st.noun.text}'", st.noun.span,
                     did_you_mean(st.noun.text, allowed) or "write 'each opponent: …', 'each other player: …', "
                     "'each player: …', 'target opponent: …' or 'the player to your left: …'")
        return ir.Acting(st.who, self.body(st.body, dict(scope)), st)

    def visit_RepeatUntil(self, st: A.RepeatUntil, scope) -> ir.Repeat:
        cond = self.cond(st.condition, scope)
        return ir.Repeat(cond, self.body(st.body, dict(scope)), st)

    def visit_Trigger(self, st: A.Trigger, scope) -> ir.Trigger:
        index = self.triggers
        self.triggers += 1
        if st.form == "at":
            if st.moment.text not in ("start", "end"):
                self.rep("E201", f"unknown moment '{st.moment.text}'", st.moment.span,
                         did_you_mean(st.moment.text, ("start", "end")))
            self._period(st.period)
            if st.owner == "your" and st.period.text == "round":
                self.rep("E201", "a round is everyone's: write 'at the start of each round'", st.period.span)
            inner = dict(scope)
            if st.period.text == "turn":  # a turn's events are about the turn's player: "they …"
                inner[EVENT_PLAYER] = PLAYER
            body = self.body(st.body, inner)
            return ir.Trigger(f"{st.period.text} {st.moment.text}", "you" if st.owner == "your" else "any", None,
                              None, index, body, st)
        card = self._event(st.subject, st.verb, st.selector, scope)
        if st.form == "first":
            self._period(st.period)
        # h28b: a card event names its card ("put it onto your deck") and its player ("they gain 1 coin")
        self.immunity, outer = [], self.immunity
        body = self.body(st.body, {**scope, EVENT_CARD: CARD, EVENT_PLAYER: PLAYER})
        immunity, self.immunity = self.immunity, outer
        kind = EVENT_VERBS.get(st.verb.text, st.verb.text)
        if immunity:  # a reaction: heard as the card is played, before its effect (runtime Playing)
            if kind != "play" or subject_key(st.subject) == "you":
                self.rep("E201", "'you are unaffected by it' answers another player's card as it is played",
                         immunity[0], "write 'whenever an opponent plays a card with icon attack: you are "
                         "unaffected by it'")
            kind = BEFORE_PLAY
        return ir.Trigger(kind, subject_key(st.subject), card,
                          st.period.text if st.form == "first" else None, index, body, st)

    # abilities (issue 28)
    def visit_Ability(self, st: A.Ability, scope) -> ir.Ability:
        index = self.abilities
        self.abilities += 1
        if st.once is not None:
            self._period(st.once)
        elif not (st.body and isinstance(st.body[0], A.Cost)):
            # nothing would bound its uses: "while …: gain 3 combat" could be used again and again
            self.rep("E310", "an ability says how often it may be used: 'once per turn' or 'once per round' "
                     "before 'while', or a cost first in its body", st.span,
                     "write 'once per turn " + fmt(st) + "' or 'while …: (trash this card: …)'")
        cond = self.cond(st.condition, scope) if st.condition is not None else None
        inner = dict(scope)
        return ir.Ability(index, st.once.text if st.once is not None else None, cond, self.body(st.body, inner), st)

    # --- h28b (issue 28): optional statements, the event's card and player, durations, cost changes
    def visit_Optional(self, st: A.Optional, scope) -> ir.Optional:
        """``you may …``: the body is checked as any body (names it binds end with it: it may not run)."""
        body = self.body(st.body, dict(scope))
        label = "" if self.errors else self.checker.labeller()(body)
        return ir.Optional(body, label, st)

    def _they(self, st: A.Acting, scope) -> ir.Acting:
        if EVENT_PLAYER not in scope:
            self.rep("E201", "'they' names the player a trigger's event is about, and there is none here", st.span,
                     "write it in a trigger's body: 'when an opponent trashes a card: they gain 1 coin'; "
                     "for other players write 'each opponent: …'")
        return ir.Acting("they", self.body(st.body, dict(scope)), st)

    def visit_Delayed(self, st: A.Delayed, scope) -> ir.Delayed:
        if st.moment.text not in ("start", "end"):
            self.rep("E201", f"unknown moment '{st.moment.text}'", st.moment.span,
                     did_you_mean(st.moment.text, ("start", "end")))
        elif st.when == "this" and st.moment.text == "start":
            self.rep("E201", "this turn has started already", st.span,
                     "write 'at the start of your next turn: …' or 'at the end of this turn: …'")
        if st.period.text != "turn":
            self.rep("E201", f"a duration lasts until a turn's start or end, not a {st.period.text}'s",
                     st.period.span, "write 'at the start of your next turn: …' or 'at the end of this turn: …'")
        self._timed("durations", st.span)
        # names bound so far keep what they hold when the body runs later (runtime: Pending.bindings)
        body = self.body(st.body, dict(scope))
        return ir.Delayed(st.moment.text, st.when, body, st)

    def visit_OwnCost(self, st: A.OwnCost, scope) -> ir.OwnCost:
        if st.amount < 1:
            self.rep("E308", "a cost change of 0 changes nothing", st.span, "write 'this costs 1 less per …'")
        if "cost" not in self.vocab.numeric_fields:
            self.rep("E205", "cards of this game have no 'cost' field to make lower", st.span,
                     "declare 'cost: int' among the card kind's fields")
        per = st.per
        if per.every is not None and per.every < 1:
            self.rep("E308", "'per 0 …' divides by zero", per.span, None)
        for f in per.filters:  # it would read the cost it changes (Ctx.changed_cost)
            if isinstance(f, A.FieldCompare) or isinstance(f, A.Not) and isinstance(f.filter, A.FieldCompare):
                self.rep("E306", f"a cost change would ignore the filter '{fmt(f)}' here: it cannot depend on "
                         "numbers of cards, which may be costs", f.span, "filter by icon, 'with …' or 'without …'")
        base = self._ref(per.ref, scope, (THING, CARD, ZONE, GOOD, VAR, PILE))
        query = None
        if base is not None:
            pf = self._filters(per.filters, scope)
            pp = self._ref(per.place, scope, (ZONE, VAR)) if per.place else None
            query = _query(base.category, base.key, base.owner, pf, DEFAULT, base.of, pp, None, per.every, per.ref)
        self._timed("cost changes", st.span)
        return ir.OwnCost(st.amount, query, st)

    def visit_ExtraTurn(self, st: A.ExtraTurn, scope) -> ir.ExtraTurn:
        for name in (st.period, st.noun):
            if name.text != "turn":
                self.rep("E201", f"an extra turn comes after this turn, not '{name.text}'", name.span,
                         "write 'after this turn, take an extra turn'")
        self._timed("extra turns", st.span)
        return ir.ExtraTurn(st)

    def _timed(self, what: str, span: A.Span) -> None:
        """A construct whose timing the game's engine must run (Engine.timed_constructs)."""
        from runtime.registry import engine_named

        try:
            runs = engine_named(self.vocab.engine).timed_constructs
        except KeyError:  # an unknown engine is reported where the build resolves it
            return
        if what not in runs:
            self.rep("E309", f"the {self.vocab.engine} engine does not run {what}: the text would be accepted "
                     "and never happen", span, "a game on the core engine (game.yaml without 'engine:', or "
                     "'engine: core') runs them")

    immunity: list | None = None  # inside a card-event trigger's body: where "you are unaffected" stands

    def visit_Immune(self, st: A.Immune, scope) -> ir.Immune:
        if self.immunity is None:
            self.rep("E201", "'you are unaffected by it' belongs in a reaction's trigger", st.span,
                     "write 'whenever an opponent plays a card with icon attack: you are unaffected by it' in a "
                     "slot of kind trigger that listens in the hand")
        else:
            self.immunity.append(st.span)
            self._timed("reactions", st.span)
        return ir.Immune(st)

    def visit_CostChange(self, st: A.CostChange, scope) -> ir.CostChange:
        if st.period.text != "turn":
            self.rep("E201", f"a cost change lasts this turn, not this {st.period.text}", st.period.span,
                     "write 'this turn, cards cost 1 less'")
        if self.vocab.numeric_fields and "cost" not in self.vocab.numeric_fields:
            self.rep("E205", "cards of this game have no 'cost' field to make lower", st.span,
                     "declare 'cost: int' among the card kind's fields")
        if st.amount < 1:
            self.rep("E308", "a cost change of 0 changes nothing", st.span, "write 'cost 1 less' or more")
        self._timed("cost changes", st.span)
        q = self.selector(st.selector, scope, (CARD, THING), slot=_COST_CHANGE, verb="cost … less")
        return ir.CostChange(q, st.amount, st)

    def _period(self, name: A.Name) -> None:
        if name.text not in ("turn", "round"):
            self.rep("E201", f"unknown period '{name.text}'", name.span, did_you_mean(name.text, ("turn", "round")))

    def _event(self, subject: A.Subject, verb: A.Name, sel: A.Selector, scope) -> ir.Query | None:
        if subject.kind != "you" and subject.noun not in ("player", "opponent"):
            self.rep("E201", f"unknown subject '{subject.noun}'", subject.span,
                     did_you_mean(subject.noun or "", ("player", "opponent")))
        if verb.text not in EVENT_VERBS:
            self.rep("E201", f"unknown event '{verb.text}'", verb.span,
                     did_you_mean(verb.text, EVENT_VERBS) or "events: " + ", ".join(sorted(set(EVENT_VERBS.values()))))
        return self.selector(sel, scope, (CARD, THING, VAR), slot=_EVENT_CARD, verb=verb.text)

    def action(self, act: A.Action, scope, strict: bool = False) -> ir.Act | None:
        rep = self.rep
        verb = self.verbs.get(act.verb.text)
        if verb is None and act.verb.text in self.vocab.verb_aliases:
            # a verb alias the game declares ("scrap" for trash, issue 28): the verb itself, printed
            # in the game's word (compiler/english.py reads the word written)
            verb = self.verbs.get(self.vocab.verb_aliases[act.verb.text])
        if verb is None:
            rep("E302", f"unknown verb '{act.verb.text}'", act.verb.span,
                did_you_mean(act.verb.text, set(self.verbs) | set(self.vocab.verb_aliases))
                or _VERB_HINTS.get(act.verb.text))
            return None
        sig = verb.signature
        if act.objects and sig.obj is None:
            rep("E303", f"'{verb.name}' takes no object (for example: {verb.example})", act.objects[0].span)
        elif sig.obj is not None and sig.obj.required and not act.objects:
            rep("E303", f"'{verb.name}' needs an object (for example: {verb.example})", act.verb.span)
        elif sig.obj is not None and len(act.objects) > 1 and not sig.obj.many:
            rep("E303", f"'{verb.name}' takes one object, not {len(act.objects)} "
                f"(for example: {verb.example})", act.objects[1].span)
        objects = tuple(self.selector(o, scope, sig.obj.categories, verb.name, slot=sig.obj)
                        for o in act.objects) if sig.obj is not None else ()
        phrases = []
        seen = set()
        for ph in act.phrases:
            prep = "until" if isinstance(ph, A.Until) else ph.prep
            if prep == "to" and ph.target.noun.text in ("left", "right", "their left", "their right") \
                    and (ph.target.owner is not None or ph.target.noun.words[0] == "their"):
                # "… of the player to your left" (issue 28, item 4): whose by seat is an owner
                side = ph.target.noun.words[-1]
                rep("E201", f"'the player to your {side}' names a player by seat: as an owner write "
                    f"'{side} neighbour's'", ph.span,
                    f"e.g. 'from {side} neighbour's hand', 'per card in {side} neighbour's tableau'; to have them "
                    f"act: 'the player to your {side}: …'")
                continue
            slot = sig.phrases.get(prep)
            if slot is None:
                allowed = ", ".join(f"'{p} …'" for p in sig.phrases)
                takes = f"it takes: {allowed}" if allowed else "it takes no phrase"
                rep("E303", f"'{verb.name}' does not take '{prep} …' ({takes}; "
                    f"for example: {verb.example})", ph.span)
                continue
            if prep in seen:
                rep("E303", f"'{prep} …' is given twice", ph.span)
            seen.add(prep)
            if isinstance(ph, A.Until):
                self._phase(ph.phase)
                phrases.append(("until", ir.Phase(ph.phase.text.replace(" ", "_"))))
            else:
                phrases.append((prep, self.selector(ph.target, scope, slot.categories, verb.name, slot=slot)))
            if slot.for_objects is not None:
                cats = {_held(q, scope) for q in objects} - {None}
                if cats - set(slot.for_objects):
                    what = " or ".join(sorted(_CATEGORY_WORDS[c] for c in cats - set(slot.for_objects)))
                    rep("E306", f"'{verb.name}' would ignore '{prep} …' with a {what}: it is for "
                        + " or ".join(_CATEGORY_WORDS[c] for c in slot.for_objects), ph.span, None)
        for prep, slot in sig.phrases.items():
            if slot.required and prep not in seen:
                rep("E303", f"'{verb.name}' needs '{prep} …' (for example: {verb.example})", act.span)
        if act.name is None and verb.binds == V.CARD_NAME:
            # "name a card" is said only to be used: "… as n; … named n" (issue 28)
            rep("E303", f"'{verb.name}' names a card for later: write it with a name, 'name a card as n', and "
                "use 'named n'", act.span, "for example: " + verb.example)
        if act.name is not None:
            # bound after the action's own selectors are checked: "look at 3 cards from r's hand as r"
            # names r before it holds anything (found by the differential test, issue 22)
            if verb.binds is None:
                rep("E303", f"'{verb.name}' does not name what it did: 'as {act.name.text}' would hold nothing",
                    act.name.span, "'draw', 'reveal' and 'look at' can: 'reveal 3 cards from your deck as r'")
            else:
                self._name_ok(act.name)
                scope[act.name.text] = verb.binds
                self.several.add(act.name.text)  # "draw 2 cards as d": the cards it did
        if sig.one_of and len(seen & set(sig.one_of)) != 1:
            where = " or ".join(f"'{p} …'" for p in sig.one_of)
            rep("E303", f"'{verb.name}' needs exactly one of {where} (for example: {verb.example})", act.span)
        rules = self.vocab.rules
        for need in sig.needs:
            if isinstance(need, tuple):  # (category, rule): only objects of that category need it
                cat, need = need
                if not any(q is not None and q.category == cat for q in objects):
                    continue
            if not getattr(rules, need, None):
                rep("E309", f"'{verb.name}' needs the game to declare rules.{need} in game.yaml", act.verb.span,
                    "for example rules: {trash_to: trash, gain_from: supply, play_to: play_area, play_slot: play}")
        return ir.Act(verb.name, objects, tuple(phrases), act.name.text if act.name is not None else None,
                      strict, ir.Origin(act.span.start, act.span.end), act)

    def _phase(self, words: A.Words) -> None:
        if words.text.replace(" ", "_") not in self.vocab.phase_keys and words.text not in self.vocab.phase_keys:
            self.rep("E201", f"unknown phase '{words.text}'", words.span, did_you_mean(words.text, self.vocab.phase_keys))

    # --- conditions and quantities -----------------------------------------------------------
    def cond(self, cond, scope) -> ir.Cond:
        if isinstance(cond, A.Either):  # "A or B" (issue 28)
            return ir.Either(tuple(self.cond(c, scope) for c in cond.conditions), cond)
        if isinstance(cond, A.Compare):
            return ir.Compare(self.quantity(cond.left, scope), cond.op, self.quantity(cond.right, scope), cond)
        return ir.Exists(self.selector(cond.selector, scope, (THING, CARD, GOOD, ZONE, VAR), slot=_EXISTS,
                                       verb="if"), cond)

    def quantity(self, q, scope) -> ir.Expr | None:
        if isinstance(q, A.Num):
            return ir.Lit(int(q.value))
        if isinstance(q, A.BinOp):
            left, right = self.quantity(q.left, scope), self.quantity(q.right, scope)
            if q.op == "/" and isinstance(q.right, A.Num) and q.right.value == 0:
                self.rep("E308", "division by zero", q.right.span, None)
            return ir.Arith(q.op, left, right, q)
        if isinstance(q, A.History):
            card = self._event(q.subject, q.verb, q.selector, scope)
            self._period(q.period)
            return ir.History(EVENT_VERBS.get(q.verb.text, q.verb.text), subject_key(q.subject), card,
                              q.period.text, q)
        if isinstance(q, A.FieldOf):
            if q.field.text.replace(" ", "_") not in self.vocab.quantity_slots:  # issue 28: "the worth of b"
                self._field(q.field.text, q.field.span)
            if q.of.text not in scope:
                self.rep("E305", f"'{q.of.text}' is not a chosen card here", q.of.span,
                         did_you_mean(q.of.text, scope)
                         or "write 'the cost of this card' or choose a card as a name first")
            elif scope[q.of.text] not in (CARD, THING):
                self.rep("E205", f"'{q.of.text}' holds a {_CATEGORY_WORDS.get(scope[q.of.text], 'value')}, "
                         "not a card", q.of.span)
            elif q.of.text in self.several:  # Ctx.field_of reads one card's field
                self.rep("E205", f"'{q.of.text}' may hold several cards, and 'the {q.field.text} of {q.of.text}' "
                         "needs one", q.of.span,
                         f"choose exactly 1 card as {q.of.text}, or use 'for each of {q.of.text}: …'")
            return ir.FieldOf(q.field.text.replace(" ", "_"), ir.Bound(q.of.text), q)
        if isinstance(q, A.Count):
            return ir.CountOf(self.selector(q.selector, scope, (THING, CARD, GOOD, ZONE, VAR, PILE), slot=_COUNT,
                                            verb="number of", counted=True), q)
        if isinstance(q, A.DistinctNames):  # "number of differently named cards in …" (issue 28)
            return ir.DistinctNames(self.selector(q.selector, scope, (THING, CARD, VAR), slot=_COUNT,
                                                  verb="number of differently named", counted=True), q)
        if isinstance(q, A.X):
            if "x" not in scope:
                self.rep("E305", "x is used before 'x is …' defines it", q.span)
            return ir.XValue()
        raise TypeError(f"not a quantity: {type(q).__name__}")

    def amount(self, a, scope) -> ir.Amount:
        if a is None:
            return DEFAULT
        if isinstance(a, A.UpTo):
            return ir.UpToN(a.value)
        if isinstance(a, A.All):
            return ir.Every()
        if isinstance(a, A.AnyNumber):  # h28b: up to every such thing there is (refs.ANY_NUMBER)
            return ir.UpToN(ANY_NUMBER)
        if isinstance(a, A.One):
            return ir.Exactly(1)
        if isinstance(a, A.Num):
            return ir.Exactly(int(a.value))
        return ir.Computed(self.quantity(a, scope))

    # --- selectors: words resolved into typed queries ------------------------------------------
    def selector(self, sel: A.Selector, scope, allowed, verb: str | None = None, slot: Slot | None = None,
                 counted: bool = False) -> ir.Query | None:
        """The typed query a selector names, or None (reported) when a name does not resolve.
        ``counted``: "number of …" counts every such thing, whatever amount is written."""
        amount = self.amount(sel.amount, scope)
        cat, key = self._noun(sel.noun, scope, allowed, verb)
        if cat is None:
            return None
        owner = self._owner(sel.owner, scope)
        self._honoured(sel, cat, owner, slot or _REF, verb)
        filters = self._filters(sel.filters, scope)
        of = self._ref(sel.of, scope, (THING, CARD, VAR, ZONE)) if sel.of is not None else None
        place = self._ref(sel.place, scope, (ZONE, VAR)) if sel.place is not None else None
        per = None
        if sel.per is not None:
            if sel.per.every is not None and sel.per.every < 1:
                self.rep("E308", "'per 0 …' divides by zero", sel.per.span, None)
            base = self._ref(sel.per.ref, scope, (THING, CARD, ZONE, GOOD, VAR, PILE))
            if base is not None:
                pf = self._filters(sel.per.filters, scope)
                pp = self._ref(sel.per.place, scope, (ZONE, VAR)) if sel.per.place else None
                # "per 10 cards" counts whole tens (Ctx.amount): the per-query's "every"
                per = _query(base.category, base.key, base.owner, pf, DEFAULT, base.of, pp, None, sel.per.every,
                             sel.per.ref)
        owner = self._others_only(cat, key, owner, sel.owner, sel.noun)
        return _query(cat, key, owner, filters, DEFAULT if counted else amount, of, place, per, None, sel)

    def _ref(self, ref: A.Ref, scope, allowed) -> ir.Query | None:
        """A reference inside a selector ("in your hand", "of t", "per card in …")."""
        cat, key = self._noun(ref.noun, scope, allowed, None)
        if cat is None:
            return None
        owner = self._owner(ref.owner, scope)
        owner = self._others_only(cat, key, owner, ref.owner, ref.noun)
        of = self._ref(ref.of, scope, (THING, CARD, VAR, ZONE)) if ref.of is not None else None
        return _query(cat, key, owner, (), DEFAULT, of, None, None, None, ref)

    # --- truthfulness: every part of a selector must be one its verb honours ---------------------
    def _honoured(self, sel: A.Selector, cat: str, owner: ir.Owner, slot: Slot, verb: str | None) -> None:
        """Reject (E306) any part of ``sel`` the slot's implementation would ignore (DESIGN §3)."""
        form = _amount_form(sel.amount)
        amounts = V.amounts_for(slot, cat)
        if sel.owner is None and not sel.filters and sel.place is None and sel.of is None and sel.per is None \
                and form in amounts:
            return  # the usual "2 fuel", "1 card": nothing more a verb could ignore
        rep = self.rep
        who = f"'{verb}'" if verb else "this place"
        owners, filters, refs = V.honoured(slot, cat)
        if form not in amounts:
            rep("E306", f"{who} does not honour {_AMOUNT_WORDS[form]} here: it would ignore it", sel.amount.span,
                _amount_hint(form, amounts, verb))
        if sel.per is not None and V.PER not in amounts:
            rep("E306", f"{who} does not honour 'per …' here: it would ignore it", sel.per.span, None)
        if sel.owner is not None and owner is not None and _owner_form(owner) not in owners:
            rep("E306", f"{who} would ignore '{sel.owner.text}' here", sel.owner.span,
                _owner_hint(cat, owners, _owner_form(owner)))
        for f in sel.filters:
            kind = _filter_form(f)
            if kind == "not" and _filter_form(f.filter) not in filters:
                kind = _filter_form(f.filter)
            if kind not in filters:
                rep("E306", f"{who} would ignore the filter '{fmt(f)}' here", f.span,
                    "it acts on the thing as named, without filters" if not filters else
                    "it honours: " + ", ".join(sorted(filters)))
        for name, ref in (("in", sel.place), ("of", sel.of)):
            if ref is not None and name not in refs:
                rep("E306", f"{who} would ignore '{name} …' here", ref.span, None)

    # Owners that can never be the acting player; a bound name ("p's") is checked at run time.
    _NOT_YOU = frozenset({ir.Who.ANOTHER, ir.Who.OPPONENT, ir.Who.ENEMY, ir.Who.LEFT, ir.Who.RIGHT})

    def _others_only(self, cat, key, owner: ir.Owner, node: A.Owner | None, noun: A.Words) -> ir.Owner:
        """A zone or thing declared ``access: others`` may be named only as another player's
        (Scavengers S07/S08: your own Personal Discard pile is never a target). A thing without an
        owner means another player's; a zone without one would mean yours, so it is an error too."""
        if cat not in (ZONE, THING, CARD) or not self.vocab.others_only(cat, key):
            return owner
        if owner is None and cat == THING:
            return ir.Who.ANOTHER
        if owner in self._NOT_YOU or isinstance(owner, ir.Bound):
            return owner
        said = f"{node.text} {noun.text}" if node is not None else noun.text
        m = self.vocab
        if cat == CARD:  # a card source: the name it declares, if any
            source = m.card_sources.get(key)
            what = source.printed.declared if source is not None else None
        else:
            spec = m.zones.get(key) if cat == ZONE else m.things.get(key)
            what = spec.name if spec is not None else None
        what = what or key.replace("_", " ")
        span = A.Span(node.span.start, noun.span.end) if node is not None else noun.span
        self.rep("E207", f"'{said}' may be your own: an effect may only name another player's {what}",
                 span, f"write 'another player's {noun.text}'")
        return owner

    def _owner(self, owner: A.Owner | None, scope) -> ir.Owner:
        if owner is None:
            return None
        if owner.kind == "your":
            return ir.Who.YOU
        if owner.kind == "enemy":
            return ir.Who.ENEMY
        key = POSSESSIVES.get((owner.qualifier, owner.name))
        if key is not None:
            return _WHO[key]
        if owner.qualifier is None and owner.name in scope:
            held = scope[owner.name]
            if held not in (CARD, THING, PLAYER):
                # "g's hand" with g a chosen Good (or icon, zone, x) names nobody: the runtime found no
                # owner and crashed (found by the differential test, issue 22)
                self.rep("E205", f"'{owner.name}' holds the {_CATEGORY_WORDS.get(held, held)} chosen earlier, but "
                         f"'{owner.name}'s' needs a card or a player: whose it is", owner.span,
                         "choose a card or a player as the name: 'choose 1 player as p; … p's hand'")
                return None
            return ir.Bound(owner.name)
        choices = [f"{q + ' ' if q else ''}{n}'s" for q, n in POSSESSIVES] + [f"{n}'s" for n in scope]
        self.rep("E201", f"unknown owner '{owner.text}'", owner.span, did_you_mean(owner.text, choices))
        return None

    def _field(self, name: str, span: A.Span) -> str | None:
        numeric = self.vocab.numeric_fields
        key = name.replace(" ", "_")
        if key in numeric:
            return key
        if key in self.vocab.quantity_slots:  # issue 28: a worth is worked out, not printed
            self.rep("E205", f"'{name}' is worked out in play (a slot of kind quantity), not printed on the card: "
                     "a filter cannot compare it", span, f"read it as a quantity: 'the {name} of NAME'")
            return None
        if key in self.vocab.field_names:
            self.rep("E205", f"card field '{name}' is not a number: a comparison needs a field declared 'int'", span)
        else:
            self.rep("E201", f"unknown number field '{name}'", span, did_you_mean(key, numeric))
        return None

    def _filters(self, filters, scope) -> tuple:
        return tuple(f for f in (self._filter(f, scope) for f in filters) if f is not None)

    def _filter(self, f, scope) -> ir.Filter | None:
        rep = self.rep
        if isinstance(f, A.Not):
            inner = self._filter(f.filter, scope)
            return ir.Not(inner) if inner is not None else None
        if isinstance(f, A.FieldCompare):
            key = self._field(f.field.text if f.field is not None else "cost",
                              f.field.span if f.field is not None else f.span)
            value = self.quantity(f.value, scope)
            if key is None:
                return None
            if isinstance(f.value, A.Num):
                return ir.FieldCompare(key, f.op, int(f.value.value))
            # a bound computed at run time: generated code binds it under this key just before the
            # statement ("costing up to (x + 1)"), the runtime's filter reads it there
            self.computed = True
            return ir.FieldCompare(key, f.op, value, "q:" + fmt(f.value))
        if isinstance(f, A.OtherThan):
            name = f.noun.text
            if name == THIS_CARD and name not in scope:
                rep("E201", "'this card' names no card here: a rule has no card of its own", f.noun.span)
                return None
            if name in scope:
                if scope[name] not in (CARD, THING):
                    rep("E205", f"'{name}' holds a {_CATEGORY_WORDS.get(scope[name], 'value')}, not a card", f.noun.span)
                    return None
                return ir.OtherThan(ir.Bound(name))
            key = name.replace(" ", "_")
            if self.checker.card_ids is not None and key not in self.checker.card_ids:
                rep("E201", f"unknown card '{name}'", f.noun.span,
                    did_you_mean(key, set(self.checker.card_ids) | set(scope)))
                return None
            return ir.OtherThan(key)
        if isinstance(f, A.WithIcon):
            icons = sorted(self.vocab.icons)
            for i in f.icons:
                if i.text not in icons:
                    rep("E201", f"unknown icon '{i.text}'", i.span, did_you_mean(i.text, icons))
            return ir.HasIcon(tuple(i.text for i in f.icons))
        if isinstance(f, (A.With, A.Without)):
            name = f.noun.text.replace(" ", "_")
            fields = self.vocab.field_names
            if name not in fields and name.endswith("s") and name[:-1] in fields:
                name = name[:-1]
            if name not in fields:
                rep("E201", f"unknown card field '{f.noun.text}'", f.noun.span, did_you_mean(name, fields))
                return None
            return ir.HasField(name, isinstance(f, A.With))
        if isinstance(f, A.SameName):  # "named n", "with the same name as t" (issue 28)
            name = f.name.text
            if name not in scope:
                rep("E305", f"'{name}' is not a chosen name here", f.name.span,
                    did_you_mean(name, scope) or "name a card first: 'name a card as n; … named n'")
                return None
            if scope[name] not in (CARD, THING, V.CARD_NAME):
                rep("E205", f"'{fmt(f)}' needs a card name or a card as {name}, but '{name}' holds a "
                    f"{_CATEGORY_WORDS.get(scope[name], 'value')}", f.name.span,
                    "name a card first: 'name a card as n; … named n'")
                return None
            return ir.SameName(ir.Bound(name))
        if isinstance(f, A.Matching):
            if f.name.text not in scope:
                rep("E305", f"'{f.name.text}' is not a chosen name here", f.name.span, did_you_mean(f.name.text, scope))
                return None
            if scope[f.name.text] != ICON:
                # "matching NAME" means "carrying the icon chosen as NAME" (cards) or "the Good of that
                # icon" (Goods); the runtime has no meaning for a card, a player or a Good (issue 22)
                rep("E205", f"'matching {f.name.text}' needs an icon chosen as {f.name.text}, but "
                    f"'{f.name.text}' holds a {_CATEGORY_WORDS.get(scope[f.name.text], 'value')}", f.name.span,
                    f"choose the icon first: 'choose 1 icon of {f.name.text} as i; … matching i'")
                return None
            return ir.MatchingIcon(ir.Bound(f.name.text))
        return None

    def _noun(self, words: A.Words, scope, allowed, verb) -> tuple[str | None, str | None]:
        rep = self.rep
        text = words.text
        if text == THIS_CARD and text not in scope:
            rep("E201", "'this card' names no card here: a rule has no card of its own", words.span)
            return None, None
        if text in scope:
            bound = scope[text]
            wanted = {c for c in allowed if c != VAR}
            if {bound} & {CARD, THING}:
                fits = bool(wanted & {CARD, THING})  # a chosen card is a thing, and the reverse
            else:
                fits = bound in wanted
            if wanted and not fits:
                need = " or ".join(sorted({_CATEGORY_WORDS[c] for c in wanted}))
                where = f"'{verb}' needs" if verb else "this place needs"
                rep("E205", f"'{text}' holds the {_CATEGORY_WORDS.get(bound, bound)} chosen earlier, but {where} "
                    f"a {need}", words.span)
                return None, None
            return VAR, text
        entries = self.vocab.lookup(text)
        if not entries and _TOP_CARD.match(text):
            # "reveal the top card of your deck" (issue 28, item 4): it said "did you mean 'this card'?"
            rep("E201", f"'{text}' is not a noun the language knows", words.span,
                "the top cards of a pile are what 'reveal' and 'look at' take: 'reveal 1 card from your deck "
                "as r' (then 'put r into your hand'), or 'draw 1 card' for your hand")
            return None, None
        if not entries and text in ("left", "right", "the left", "the right"):
            side = text.split()[-1]  # "pass 1 card to the left" (issue 28, item 4)
            rep("E201", f"'{text}' names no zone: whose by seat is written '{side} neighbour's'", words.span,
                f"e.g. 'pass 1 card from your hand to {side} neighbour's hand'")
            return None, None
        if not entries and words.words[-1] in ("twice", "again") and len(words.words) > 1:  # h28b
            rep("E201", f"'{text}' is not a name: playing a card twice is two plays", words.span,
                "choose it, then play it and play it again — a card this effect played is played again where it "
                "lies: 'choose 1 card with icon action in your hand as c; play c; play c'")
            return None, None
        if not entries and text in ("it", "them"):  # h28b: a pronoun with nothing to stand for here
            rep("E201", f"'{text}' names nothing here", words.span,
                "'it' is the card a trigger's event is about ('whenever you gain a card: you may put it onto "
                "your deck') or the one thing of 'for each …'; name a chosen card 'as c' otherwise")
            return None, None
        if not entries:
            wanted = [c for c in allowed if c != VAR]
            what = _CATEGORY_WORDS[wanted[0]] if len(wanted) == 1 else "name"
            pool = set(scope)
            for c in wanted or allowed:
                pool |= set(self.vocab.names_in(c))
            if len(wanted) > 1 and GOOD in wanted:
                hint = did_you_mean(text, self.vocab.names_in(GOOD))
                if hint:
                    what = "good"
                    rep("E201", f"unknown {what} '{text}'", words.span, hint)
                    return None, None
            rep("E201", f"unknown {what} '{text}'", words.span, did_you_mean(text, pool))
            return None, None
        for cat, key in entries:
            if cat in allowed:
                return cat, key
        cats = " or ".join(sorted({_CATEGORY_WORDS[c] for c, _ in entries}))
        need = " or ".join(_CATEGORY_WORDS[c] for c in allowed if c != VAR)
        where = f"'{verb}' needs" if verb else "this place needs"
        rep("E205", f"'{text}' is a {cats}, but {where} a {need}", words.span)
        return None, None


def _held(q: ir.Query | None, scope) -> str | None:
    """The category an action's object holds: a bound name's is what it was bound to."""
    if q is None:
        return None
    return scope.get(q.key, q.category) if q.category == VAR else q.category


def _query(category, key, owner, filters, amount, of, place, per, every, syntax, _new=object.__new__) -> ir.Query:
    """``ir.Query(...)`` without the frozen dataclass's per-field ``object.__setattr__`` calls: a
    query per selector is the checker's most frequent node, and this halves its cost. The result is an
    ordinary ir.Query (same fields, equality and hash)."""
    q = _new(ir.Query)
    q.__dict__.update(category=category, key=key, owner=owner, filters=filters, amount=amount, of=of, place=place,
                      per=per, every=every, syntax=syntax)
    return q


def subject_key(subject: A.Subject) -> str:
    """you | opponent | any — relative to the player whose card it is (Ctx.triggered)."""
    if subject.kind == "you":
        return "you"
    if subject.kind == "another" or subject.noun == "opponent":
        return "opponent"
    return "any"


# --- forms of a selector, as the designer wrote them ------------------------------------------------

_AMOUNT_WORDS = {V.ONE: "a single thing", V.NUMBER: "a number", V.X: "x", V.EXPR: "a computed amount",
                 V.PER: "'per …'", V.UP_TO: "'up to'", V.ALL: "'all'", V.ANY: "'any number of'"}


def _amount_form(a) -> str:
    if a is None or isinstance(a, A.One):
        return V.ONE
    if isinstance(a, A.Num):
        return V.NUMBER
    if isinstance(a, A.X):
        return V.X
    if isinstance(a, A.UpTo):
        return V.UP_TO
    if isinstance(a, A.All):
        return V.ALL
    if isinstance(a, A.AnyNumber):
        return V.ANY
    return V.EXPR


def _amount_hint(form: str, allowed: frozenset, verb: str | None = None) -> str | None:
    if form == V.ANY:  # h28b: "draw any number of cards" has no "any" to pick among
        if V.UP_TO in allowed:
            return "write 'up to N': this verb counts things off a pile, it does not pick among those there"
        return "'any number of' is for verbs that pick among things there: discard, trash, put, play, choose, " \
               "for each, gain cards"
    if form == V.UP_TO and V.NUMBER in allowed:
        return "write an exact number: this verb always does as many as it can"
    if form == V.ALL and V.NUMBER in allowed:
        return "write a number, or 'for each …' over the things"
    if allowed == frozenset({V.ONE}):
        if verb:  # "copy 1 ship": the verb acts on one thing, said with an article
            return f"'{verb}' acts on one: write 'a' or 'an' (e.g. '{verb} a card …') or no amount"
        return "'number of …' counts every such thing: write it without an amount"
    return None


def _owner_form(owner: ir.Owner) -> str:
    """The owner form a verb's signature lists (runtime/verbs.py OWNERS)."""
    return "chosen" if isinstance(owner, ir.Bound) else owner.value


def _owner_hint(cat: str, owners: frozenset, written: str) -> str | None:
    if cat == CARD:
        return "say whose on the zone: 'from opponent's hand', 'in your hand'"
    if cat == ZONE and owners == frozenset({"you"}):
        return "it acts on your own zones only: to have other players do it, write 'each opponent: …' around it"
    if cat == ZONE and written == "each":
        return "it acts on one pile; to act on every player's, write 'each player: …' around it"
    if not owners:
        return None
    return "it honours: " + ", ".join(sorted(owners))


def _filter_form(f) -> str:
    if isinstance(f, A.WithIcon):
        return "icon"
    if isinstance(f, A.With):
        return "with"
    if isinstance(f, A.Without):
        return "without"
    if isinstance(f, A.Matching):
        return "matching"
    if isinstance(f, A.FieldCompare):
        return "field"
    if isinstance(f, A.OtherThan):
        return "other than"
    if isinstance(f, A.Not):
        return "not"
    if isinstance(f, A.SameName):
        return "named"
    return type(f).__name__.lower()


THIS_CARD = "this card"
# "the top card", "top 2 cards": what designers write first for the top of a pile (issue 28, item 4)
_TOP_CARD = re.compile(r"(?:the )?top(?: \d+)? cards?$")


def _body_span(body) -> A.Span:
    return A.Span(body[0].span.start, body[-1].span.end) if body else A.NO_SPAN


def slot_kind_of(effect: A.Effect) -> str:
    """The slot kind a text reads as on its own (explain, English): "trigger" when it starts with one,
    "cost" for a card's own cost change (h28b), "ability" for an ability (issue 28)."""
    first = effect.statements[0] if effect.statements else None
    if isinstance(first, A.Ability):
        return "ability"
    if isinstance(first, A.OwnCost):
        return "cost"
    return "trigger" if isinstance(first, A.Trigger) else "effect"
