"""Stage 4 — check: every name against the game's vocabulary, every statement against its verb.

The checker walks one effect's AST with the bound names in scope and produces:
- diagnostics (unknown names with "did you mean", statements that do not fit their verb, guards
  placed after actions), each located by its span in the effect text;
- the typed IR (compiler/ir.py) of an effect it accepts: while walking, it resolves each selector
  to a ``Sel`` template in a working table private to this pass, and ``compiler/lower.py`` turns the
  AST with those resolutions into IR nodes. Only the IR leaves the checker; the AST stays untouched.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from runtime import verbs as V
from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, VAR, ZONE
from runtime.verbs import Slot, Verb
from runtime.words import did_you_mean

from . import ast as A
from .lower import Sel, lower, lower_condition
from .syntaxhelp import RESERVED_NAMES
from .vocabulary import POSSESSIVES, Vocabulary

_CATEGORY_WORDS = {GOOD: "good", THING: "thing", ZONE: "zone or pile", PLAYER: "player", PHASE: "phase",
                   ICON: "icon", VAR: "chosen name", CARD: "card", PILE: "pile of a supply"}

Report = Callable[[str, str, A.Span, "str | None"], None]

# What the statements that are not verbs honour (runtime/context.py: choose, each, test, count).
_ANY = (THING, CARD, ICON, PLAYER, ZONE, GOOD, VAR)
_CHOOSE = Slot(_ANY, amounts=frozenset(V.AMOUNTS))
_EACH = Slot(_ANY, amounts=frozenset(V.AMOUNTS) - {V.PER})            # Ctx.each reads no "per"
_EXISTS = Slot(_ANY, amounts=V.COUNTED,                                 # "if 3 ruins:", "requires 1 card in …"
               owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))
_COUNT = Slot(_ANY + (PILE,), amounts=frozenset({V.ONE}),              # "number of …" counts, it takes no amount
              owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))
_REF = Slot(_ANY, owners=frozenset(V.OWNERS), refs=frozenset(V.REFS))  # inside "in …", "of …", "per …"
# the card of an event ("… plays a card with icon attack"): one card, filtered; whose is the subject's
_EVENT_CARD = Slot((CARD, THING, VAR), amounts=frozenset({V.ONE}), owners=frozenset(), refs=frozenset())


@dataclass
class Checked:
    """The checker's result for one effect: whether it is accepted and, if so, its typed IR —
    what codegen, English, the reference, ``explain`` and ``diff`` read."""

    effect: A.Effect
    ok: bool = True
    ir: object = None  # ir.Effect, or ir.Cond for a bare-condition slot; None when rejected


@dataclass
class _Work:
    """The walk's working state: each selector and reference node's resolution, keyed by the node's
    identity while this one AST is alive. Lowering reads it; it never leaves :meth:`Checker.check`."""

    resolved: dict = field(default_factory=dict)
    several: set = field(default_factory=set)  # names bound to more than one card ("choose 2 … as t")


class Checker:
    def __init__(self, vocab: Vocabulary, verbs: dict[str, Verb]):
        self.vocab = vocab
        self.verbs = verbs

    card_ids: set | None = None  # the build sets the game's card ids, for "other than <card>"

    def check(self, effect: A.Effect, report: Report, kind: str = "effect", has_card: bool = True) -> Checked:
        out = _Work()
        errors = []

        def rep(code, msg, span, hint=None):
            errors.append(code)
            report(code, msg, span, hint)

        scope: dict[str, str] = {}  # bound name -> category of what it holds
        if has_card:
            scope[THIS_CARD] = CARD  # "this card": the card whose effect runs (rules have none)
        seen_action = False
        for st in effect.statements:
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
            self._stmt(st, scope, out, rep)
        if errors:
            return Checked(effect, ok=False)

        if kind == "condition":
            return Checked(effect, True, lower_condition(effect, out.resolved))
        return Checked(effect, True, lower(effect, out.resolved, self.labeller()))

    _labeller = None

    def labeller(self):
        """How a menu's options are labelled for the agent: their English (compiler/english.py)."""
        if self._labeller is None:
            from .english import option_labeller

            self._labeller = option_labeller(self.vocab, self.verbs)
        return self._labeller

    # --- statements --------------------------------------------------------------------------
    @staticmethod
    def _name_ok(name: A.Name, rep) -> None:
        """A bound name must not be a word the language reads otherwise ("as x" would be the card's
        X wherever it is used, "as a" the article)."""
        if name.text in RESERVED_NAMES:
            rep("E305", f"'{name.text}' cannot name a choice: the language reads it as the word '{name.text}' "
                "wherever the name is used", name.span, "pick another name, e.g. 'as c'")

    def _stmt(self, st, scope, out, rep) -> None:
        if type(st) is A.Action:  # the most common statement first
            self._action(st, scope, out, rep)
        elif isinstance(st, A.Requires):
            self._cond(st.condition, scope, out, rep)
        elif isinstance(st, A.Let):
            self._quantity(st.value, scope, out, rep)
            scope["x"] = "number"
        elif isinstance(st, A.Choose):
            cat = self._selector(st.selector, scope, out, rep, (THING, CARD, ICON, PLAYER, ZONE, GOOD),
                                 slot=_CHOOSE, verb="choose")
            if cat == VAR:  # "choose 1 of r as k": k holds what r holds
                cat = scope.get(st.selector.noun.text)
            self._name_ok(st.name, rep)
            scope[st.name.text] = cat or THING
            amount = st.selector.amount
            if not (amount is None or isinstance(amount, A.One) or isinstance(amount, A.Num) and amount.value == 1):
                out.several.add(st.name.text)
            else:
                out.several.discard(st.name.text)
        elif isinstance(st, A.ForEach):
            cat = self._selector(st.selector, scope, out, rep, (THING, CARD, ICON, PLAYER, ZONE),
                                 slot=_EACH, verb="for each")
            if cat == VAR:
                cat = scope.get(st.selector.noun.text)
            inner = dict(scope)
            if st.name is not None:
                self._name_ok(st.name, rep)
            inner[st.name.text if st.name else "it"] = cat or THING
            self._body(st.body, inner, out, rep)
        elif isinstance(st, A.If):
            self._cond(st.condition, scope, out, rep)
            self._body(st.body, dict(scope), out, rep)
            if st.otherwise is not None:
                self._body(st.otherwise, dict(scope), out, rep)
        elif isinstance(st, A.Cost):
            self._action(st.action, scope, out, rep)
            self._body(st.body, scope, out, rep)
        elif isinstance(st, A.Menu):
            if st.count >= len(st.options):
                rep("E307", f"'choose {st.word}' needs more than {st.count} option"
                    f"{'s' if st.count != 1 else ''} to choose from (it has {len(st.options)})", st.span,
                    "add options separated by '; or'")
            seen: dict[str, A.Span] = {}
            from .printer import fmt
            for option in st.options:
                text = "; ".join(fmt(o) for o in option)
                if text in seen:
                    rep("E307", "this option is the same as an earlier one: a menu's options are distinct",
                        _body_span(option), None)
                seen[text] = _body_span(option)
                self._body(option, dict(scope), out, rep)
        elif isinstance(st, A.Acting):
            allowed = {"opponent": ("opponent", "opponents"), "other": ("player", "players", "opponent", "opponents"),
                       "each": ("player", "players"), "left": ("player",), "right": ("player",)}[st.who]
            if st.noun.text not in allowed or (st.who in ("left", "right") and False):
                rep("E201", f"unknown acting player '{st.noun.text}'", st.noun.span,
                    did_you_mean(st.noun.text, allowed) or "write 'each opponent: …', 'each other player: …', "
                    "'each player: …' or 'the player to your left: …'")
            self._body(st.body, dict(scope), out, rep)
        elif isinstance(st, A.Trigger):
            self._trigger(st, scope, out, rep)
        elif isinstance(st, A.RepeatUntil):
            self._cond(st.condition, scope, out, rep)
            self._body(st.body, dict(scope), out, rep)
        elif isinstance(st, A.Action):
            self._action(st, scope, out, rep)

    def _trigger(self, st: A.Trigger, scope, out, rep) -> None:
        if st.form == "at":
            if st.moment.text not in ("start", "end"):
                rep("E201", f"unknown moment '{st.moment.text}'", st.moment.span, did_you_mean(st.moment.text, ("start", "end")))
            self._period(st.period, rep)
            if st.owner == "your" and st.period.text == "round":
                rep("E201", "a round is everyone's: write 'at the start of each round'", st.period.span)
        else:
            self._event(st.subject, st.verb, st.selector, scope, out, rep)
            if st.form == "first":
                self._period(st.period, rep)
        self._body(st.body, dict(scope), out, rep)

    def _period(self, name: A.Name, rep) -> None:
        if name.text not in ("turn", "round"):
            rep("E201", f"unknown period '{name.text}'", name.span, did_you_mean(name.text, ("turn", "round")))

    def _event(self, subject: A.Subject, verb: A.Name, sel: A.Selector, scope, out, rep) -> None:
        from runtime.events import EVENT_VERBS

        if subject.kind != "you" and subject.noun not in ("player", "opponent"):
            rep("E201", f"unknown subject '{subject.noun}'", subject.span,
                did_you_mean(subject.noun or "", ("player", "opponent")))
        if verb.text not in EVENT_VERBS:
            rep("E201", f"unknown event '{verb.text}'", verb.span,
                did_you_mean(verb.text, EVENT_VERBS) or "events: " + ", ".join(sorted(set(EVENT_VERBS.values()))))
        self._selector(sel, scope, out, rep, (CARD, THING, VAR), slot=_EVENT_CARD, verb=verb.text)

    def _body(self, body, scope, out, rep) -> None:
        for b in body:
            if isinstance(b, (A.Requires, A.Let)) and (isinstance(b, A.Requires) or b.minimum is not None):
                rep("E304", "'requires' and 'x is … (min N)' decide whether anything of the effect happens: "
                    "they stand at its start, not inside a body", b.span)
            self._stmt(b, scope, out, rep)

    def _action(self, act: A.Action, scope, out, rep) -> None:
        verb = self.verbs.get(act.verb.text)
        if verb is None:
            rep("E302", f"unknown verb '{act.verb.text}'", act.verb.span,
                did_you_mean(act.verb.text, self.verbs))
            return
        sig = verb.signature
        if act.objects and sig.obj is None:
            rep("E303", f"'{verb.name}' takes no object (for example: {verb.example})", act.objects[0].span)
        elif sig.obj is not None and sig.obj.required and not act.objects:
            rep("E303", f"'{verb.name}' needs an object (for example: {verb.example})", act.verb.span)
        elif sig.obj is not None and len(act.objects) > 1 and not sig.obj.many:
            rep("E303", f"'{verb.name}' takes one object, not {len(act.objects)} "
                f"(for example: {verb.example})", act.objects[1].span)
        if sig.obj is not None:
            for o in act.objects:
                self._selector(o, scope, out, rep, sig.obj.categories, verb.name, slot=sig.obj)
        seen = set()
        for ph in act.phrases:
            prep = "until" if isinstance(ph, A.Until) else ph.prep
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
                self._phase(ph.phase, rep)
            else:
                self._selector(ph.target, scope, out, rep, slot.categories, verb.name, slot=slot)
            if slot.for_objects is not None:
                cats = {self._object_category(o, out, scope) for o in act.objects} - {None}
                if cats - set(slot.for_objects):
                    what = " or ".join(sorted(_CATEGORY_WORDS[c] for c in cats - set(slot.for_objects)))
                    rep("E306", f"'{verb.name}' would ignore '{prep} …' with a {what}: it is for "
                        + " or ".join(_CATEGORY_WORDS[c] for c in slot.for_objects), ph.span, None)
        for prep, slot in sig.phrases.items():
            if slot.required and prep not in seen:
                rep("E303", f"'{verb.name}' needs '{prep} …' (for example: {verb.example})", act.span)
        if act.name is not None:
            # bound after the action's own selectors are checked: "look at 3 cards from r's hand as r"
            # names r before it holds anything (found by the differential test, issue 22)
            if verb.binds is None:
                rep("E303", f"'{verb.name}' does not name what it did: 'as {act.name.text}' would hold nothing",
                    act.name.span, "'draw', 'reveal' and 'look at' can: 'reveal 3 cards from your deck as r'")
            else:
                self._name_ok(act.name, rep)
                scope[act.name.text] = verb.binds
                out.several.add(act.name.text)  # "draw 2 cards as d": the cards it did
        if sig.one_of and len(seen & set(sig.one_of)) != 1:
            where = " or ".join(f"'{p} …'" for p in sig.one_of)
            rep("E303", f"'{verb.name}' needs exactly one of {where} (for example: {verb.example})", act.span)
        rules = self.vocab.model.rules
        for need in sig.needs:
            if isinstance(need, tuple):  # (category, rule): only objects of that category need it
                cat, need = need
                if not any(out.resolved.get(id(o)) is not None and out.resolved[id(o)].category == cat
                           for o in act.objects):
                    continue
            if not getattr(rules, need, None):
                rep("E309", f"'{verb.name}' needs the game to declare rules.{need} in game.yaml", act.verb.span,
                    "for example rules: {trash_to: trash, gain_from: supply, play_to: play_area, play_slot: play}")

    @staticmethod
    def _object_category(o: A.Selector, out, scope) -> str | None:
        r = out.resolved.get(id(o))
        if r is None:
            return None
        return scope.get(r.noun, r.category) if r.category == VAR else r.category

    def _phase(self, words: A.Words, rep) -> None:
        if words.text.replace(" ", "_") not in self.vocab.phases and words.text not in self.vocab.phases:
            rep("E201", f"unknown phase '{words.text}'", words.span, did_you_mean(words.text, self.vocab.phases))

    # --- conditions and quantities -----------------------------------------------------------
    def _cond(self, cond, scope, out, rep) -> None:
        if isinstance(cond, A.Compare):
            self._quantity(cond.left, scope, out, rep)
            self._quantity(cond.right, scope, out, rep)
        else:
            self._selector(cond.selector, scope, out, rep, (THING, CARD, GOOD, ZONE, VAR), slot=_EXISTS,
                           verb="if")

    def _quantity(self, q, scope, out, rep) -> None:
        if isinstance(q, A.BinOp):
            self._quantity(q.left, scope, out, rep)
            self._quantity(q.right, scope, out, rep)
            if q.op == "/" and isinstance(q.right, A.Num) and q.right.value == 0:
                rep("E308", "division by zero", q.right.span, None)
        elif isinstance(q, A.History):
            self._event(q.subject, q.verb, q.selector, scope, out, rep)
            self._period(q.period, rep)
        elif isinstance(q, A.FieldOf):
            self._field(q.field.text, q.field.span, rep)
            if q.of.text not in scope:
                rep("E305", f"'{q.of.text}' is not a chosen card here", q.of.span,
                    did_you_mean(q.of.text, scope) or "write 'the cost of this card' or choose a card as a name first")
            elif scope[q.of.text] not in (CARD, THING):
                rep("E205", f"'{q.of.text}' holds a {_CATEGORY_WORDS.get(scope[q.of.text], 'value')}, not a card",
                    q.of.span)
            elif q.of.text in out.several:  # Ctx.field_of reads one card's field
                rep("E205", f"'{q.of.text}' may hold several cards, and 'the {q.field.text} of {q.of.text}' needs one",
                    q.of.span, f"choose exactly 1 card as {q.of.text}, or use 'for each of {q.of.text}: …'")
        elif isinstance(q, A.Count):
            self._selector(q.selector, scope, out, rep, (THING, CARD, GOOD, ZONE, VAR, PILE), slot=_COUNT,
                           verb="number of")
        elif isinstance(q, A.X) and "x" not in scope:
            rep("E305", "x is used before 'x is …' defines it", q.span)

    # --- selectors ---------------------------------------------------------------------------
    def _selector(self, sel: A.Selector, scope, out, rep, allowed, verb: str | None = None,
                  slot: Slot | None = None) -> str | None:
        if sel.amount is not None:
            if isinstance(sel.amount, (A.BinOp, A.Count, A.X, A.FieldOf, A.History)):
                self._quantity(sel.amount, scope, out, rep)
        cat, key = self._noun(sel.noun, scope, rep, allowed, verb)
        if cat is None:
            return None
        owner = self._owner(sel.owner, scope, rep)
        self._honoured(sel, cat, owner, slot or _REF, verb, rep)
        filters = tuple(f for f in (self._filter(f, scope, rep, out) for f in sel.filters) if f is not None)
        of = self._ref(sel.of, scope, out, rep, (THING, CARD, VAR, ZONE)) if sel.of is not None else None
        place = self._ref(sel.place, scope, out, rep, (ZONE, VAR)) if sel.place is not None else None
        per = None
        if sel.per is not None:
            if sel.per.every is not None and sel.per.every < 1:
                rep("E308", "'per 0 …' divides by zero", sel.per.span, None)
            per = self._ref(sel.per.ref, scope, out, rep, (THING, CARD, ZONE, GOOD, VAR, PILE))
            if per is not None:
                pf = tuple(f for f in (self._filter(f, scope, rep, out) for f in sel.per.filters) if f is not None)
                pp = self._ref(sel.per.place, scope, out, rep, (ZONE, VAR)) if sel.per.place else None
                # a per's amount is its "every": "per 10 cards" counts whole tens (Ctx.amount)
                per = Sel(per.category, per.noun, sel.per.every, per.owner, pf, per.of, pp)
        owner = self._others_only(cat, key, owner, sel.owner, sel.noun, rep)
        out.resolved[id(sel)] = Sel(cat, key, None, owner, filters, of, place, per)
        return cat

    # --- truthfulness: every part of a selector must be one its verb honours ---------------------
    def _honoured(self, sel: A.Selector, cat: str, owner: str | None, slot: Slot, verb: str | None, rep) -> None:
        """Reject (E306) any part of ``sel`` the slot's implementation would ignore (DESIGN §3)."""
        form = _amount_form(sel.amount)
        amounts = V.amounts_for(slot, cat)
        if sel.owner is None and not sel.filters and sel.place is None and sel.of is None and sel.per is None \
                and form in amounts:
            return  # the usual "2 fuel", "1 card": nothing more a verb could ignore
        who = f"'{verb}'" if verb else "this place"
        owners, filters, refs = V.honoured(slot, cat)
        if form not in amounts:
            rep("E306", f"{who} does not honour {_AMOUNT_WORDS[form]} here: it would ignore it", sel.amount.span,
                _amount_hint(form, amounts))
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
                rep("E306", f"{who} would ignore the filter '{_filter_text(f)}' here", f.span,
                    "it acts on the thing as named, without filters" if not filters else
                    "it honours: " + ", ".join(sorted(filters)))
        for name, ref in (("in", sel.place), ("of", sel.of)):
            if ref is not None and name not in refs:
                rep("E306", f"{who} would ignore '{name} …' here", ref.span, None)

    def _ref(self, ref: A.Ref, scope, out, rep, allowed) -> Sel | None:
        cat, key = self._noun(ref.noun, scope, rep, allowed, None)
        if cat is None:
            return None
        owner = self._owner(ref.owner, scope, rep)
        owner = self._others_only(cat, key, owner, ref.owner, ref.noun, rep)
        of = self._ref(ref.of, scope, out, rep, (THING, CARD, VAR, ZONE)) if ref.of is not None else None
        s = Sel(cat, key, None, owner, (), of)
        out.resolved[id(ref)] = s
        return s

    # Owners that can never be the acting player; a bound name ("p's") is checked at run time.
    _NOT_YOU = ("another", "opponent", "enemy")

    def _others_only(self, cat, key, owner, node: A.Owner | None, noun: A.Words, rep) -> str | None:
        """A zone or thing declared ``access: others`` may be named only as another player's
        (Scavengers S07/S08: your own Personal Discard pile is never a target). A thing without an
        owner means another player's; a zone without one would mean yours, so it is an error too."""
        if cat not in (ZONE, THING, CARD) or not self.vocab.others_only(cat, key):
            return owner
        if owner is None and cat == THING:
            return "another"
        if owner in self._NOT_YOU or (owner or "").startswith("var:"):
            return owner
        said = f"{node.text} {noun.text}" if node is not None else noun.text
        m = self.vocab.model
        if cat == CARD:  # a card source: the name it declares, if any
            source = m.card_sources.get(key)
            what = source.printed.declared if source is not None else None
        else:
            spec = m.zones.get(key) if cat == ZONE else m.things.get(key)
            what = spec.name if spec is not None else None
        what = what or key.replace("_", " ")
        span = A.Span(node.span.start, noun.span.end) if node is not None else noun.span
        rep("E207", f"'{said}' may be your own: an effect may only name another player's {what}",
            span, f"write 'another player's {noun.text}'")
        return owner

    def _owner(self, owner: A.Owner | None, scope, rep) -> str | None:
        if owner is None:
            return None
        if owner.kind == "your":
            return "you"
        if owner.kind == "enemy":
            return "enemy"
        key = POSSESSIVES.get((owner.qualifier, owner.name))
        if key is not None:
            return key
        if owner.qualifier is None and owner.name in scope:
            held = scope[owner.name]
            if held not in (CARD, THING, PLAYER):
                # "g's hand" with g a chosen Good (or icon, zone, x) names nobody: the runtime found no
                # owner and crashed (found by the differential test, issue 22)
                rep("E205", f"'{owner.name}' holds the {_CATEGORY_WORDS.get(held, held)} chosen earlier, but "
                    f"'{owner.name}'s' needs a card or a player: whose it is", owner.span,
                    "choose a card or a player as the name: 'choose 1 player as p; … p's hand'")
                return None
            return f"var:{owner.name}"
        choices = [f"{q + ' ' if q else ''}{n}'s" for q, n in POSSESSIVES] + [f"{n}'s" for n in scope]
        rep("E201", f"unknown owner '{owner.text}'", owner.span, did_you_mean(owner.text, choices))
        return None

    def _field(self, name: str, span: A.Span, rep) -> str | None:
        numeric = self.vocab.numeric_fields()
        key = name.replace(" ", "_")
        if key in numeric:
            return key
        if key in self.vocab.field_names():
            rep("E205", f"card field '{name}' is not a number: a comparison needs a field declared 'int'", span)
        else:
            rep("E201", f"unknown number field '{name}'", span, did_you_mean(key, numeric))
        return None

    def _filter(self, f, scope, rep, out=None):
        if isinstance(f, A.Not):
            inner = self._filter(f.filter, scope, rep, out)
            return ("not", inner) if inner is not None else None
        if isinstance(f, A.FieldCompare):
            key = self._field(f.field.text if f.field is not None else "cost",
                              f.field.span if f.field is not None else f.span, rep)
            self._quantity(f.value, scope, out if out is not None else _Work(), rep)
            if key is None:
                return None
            return ("field", (key, f.op, _value_key(f.value)))
        if isinstance(f, A.OtherThan):
            name = f.noun.text
            if name == THIS_CARD and name not in scope:
                rep("E201", "'this card' names no card here: a rule has no card of its own", f.noun.span)
                return None
            if name in scope:
                if scope[name] not in (CARD, THING):
                    rep("E205", f"'{name}' holds a {_CATEGORY_WORDS.get(scope[name], 'value')}, not a card", f.noun.span)
                    return None
                return ("other", f"var:{name}")
            key = name.replace(" ", "_")
            if self.card_ids is not None and key not in self.card_ids:
                rep("E201", f"unknown card '{name}'", f.noun.span,
                    did_you_mean(key, set(self.card_ids) | set(scope)))
                return None
            return ("other", f"card:{key}")
        if isinstance(f, A.WithIcon):
            icons = self.vocab.icon_names()
            for i in f.icons:
                if i.text not in icons:
                    rep("E201", f"unknown icon '{i.text}'", i.span, did_you_mean(i.text, icons))
            return ("icon", tuple(i.text for i in f.icons))
        if isinstance(f, (A.With, A.Without)):
            name = f.noun.text.replace(" ", "_")
            fields = self.vocab.field_names()
            if name not in fields and name.endswith("s") and name[:-1] in fields:
                name = name[:-1]
            if name not in fields:
                rep("E201", f"unknown card field '{f.noun.text}'", f.noun.span,
                    did_you_mean(name, fields))
                return None
            return ("with" if isinstance(f, A.With) else "without", name)
        if isinstance(f, A.Matching):
            if f.name.text not in scope:
                rep("E305", f"'{f.name.text}' is not a chosen name here", f.name.span,
                    did_you_mean(f.name.text, scope))
                return None
            if scope[f.name.text] != ICON:
                # "matching NAME" means "carrying the icon chosen as NAME" (cards) or "the Good of that
                # icon" (Goods); the runtime has no meaning for a card, a player or a Good (issue 22)
                rep("E205", f"'matching {f.name.text}' needs an icon chosen as {f.name.text}, but "
                    f"'{f.name.text}' holds a {_CATEGORY_WORDS.get(scope[f.name.text], 'value')}", f.name.span,
                    f"choose the icon first: 'choose 1 icon of {f.name.text} as i; … matching i'")
                return None
            return ("matching", f"var:{f.name.text}")
        return None

    def _noun(self, words: A.Words, scope, rep, allowed, verb) -> tuple[str | None, str | None]:
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


# --- forms of a selector, as the designer wrote them ------------------------------------------------

_AMOUNT_WORDS = {V.ONE: "a single thing", V.NUMBER: "a number", V.X: "x", V.EXPR: "a computed amount",
                 V.PER: "'per …'", V.UP_TO: "'up to'", V.ALL: "'all'"}


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
    return V.EXPR


def _amount_hint(form: str, allowed: frozenset) -> str | None:
    if form == V.UP_TO and V.NUMBER in allowed:
        return "write an exact number: this verb always does as many as it can"
    if form == V.ALL and V.NUMBER in allowed:
        return "write a number, or 'for each …' over the things"
    if allowed == frozenset({V.ONE}):
        return "'number of …' counts every such thing: write it without an amount"
    return None


def _owner_form(owner: str) -> str:
    if owner.startswith("var:"):
        return "chosen"
    return "you" if owner in ("you", "your") else owner


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
    return type(f).__name__.lower()


def _filter_text(f) -> str:
    from .printer import fmt

    return fmt(f)


THIS_CARD = "this card"


def _body_span(body) -> A.Span:
    return A.Span(body[0].span.start, body[-1].span.end) if body else A.NO_SPAN


def _value_key(q) -> object:
    """A filter's bound as the runtime reads it: a plain number, or ``"q:<canonical text>"`` for a
    quantity the generated code computes and binds under that name just before the statement."""
    if isinstance(q, A.Num):
        return int(q.value)
    from .printer import fmt

    return "q:" + fmt(q)


def slot_kind_of(effect: A.Effect) -> str:
    """The slot kind a text reads as on its own (explain, English): "trigger" when it starts with one."""
    return "trigger" if effect.statements and isinstance(effect.statements[0], A.Trigger) else "effect"
