"""Stage 6a — English: an effect's typed IR rendered as clear card-style English.

The rules reference never copies effect text from YAML. It reads the checked effect's IR
(compiler/ir.py: meanings resolved by the checker, each node keeping its AST as ``syntax`` for the
designer's wording) and writes English through two sources only:

- the **verb templates** of the runtime registry (``Verb.template``, see below), so that a verb
  added by a game engine reads right without touching this module;
- the **vocabulary's printed names** (``name:`` of Goods, zones, icons, phases; card kinds' slot
  and field names), so "vp" prints as "Victory Point" and "parts_pile" as "Parts pile".

Template mini-language (``Verb.template``): ``{obj}`` is the verb's objects ("1 Gun and 1
Worker"); ``{<prep>}`` is the target of a prepositional phrase (``{from}``, ``{to}``, ``{on}``,
``{instead of}``, ``{until}``…); ``[ … ]`` is an optional group, written only when every
placeholder inside it has a value (groups may nest). A phrase the template does not mention is
appended as "<prep> <target>", so no statement ever loses a part or shows a raw placeholder.

Grammatical number follows the effect text where the text spells a name out ("2 fuel" stays
"2 Fuel": a mass noun, as the designer wrote it) and English otherwise ("2 vp" → "2 Victory
Points", "2 cards"). Names bound by ``choose … as NAME`` / ``for each … as NAME`` read as "it"
while they are the only choice in play, else as "the chosen <noun>".

Icons come out as markers (``ICON_START key ICON_END``) so that HTML can draw a badge that reads
in black and white; :func:`render_effect` replaces them with the icon's printed name.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from runtime.model import GameModel
from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, VAR, ZONE
from runtime.verbs import CARD_NAME
from runtime.words import MASS_NOUNS, english_plural, plurals, title  # noqa: F401 - MASS_NOUNS re-exported

from . import ast as A
from . import ir
from .visitor import Visitor

ICON_START = "\x01"
ICON_END = "\x02"
_ICON_RE = re.compile("\x01([^\x02]*)\x02")

_CMP_WORDS = {"=": "is", "!=": "is not", "<": "is less than", ">": "is more than", "<=": "is at most",
              ">=": "is at least"}
_OP_WORDS = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2}
_PAST = {"play": "played", "gain": "gained", "trash": "trashed", "draw": "drew", "discard": "discarded", "put": "put",
         "raze": "razed"}
_THIRD = {"trash": "trashes"}
_TOP_ONE = re.compile(r"\bthe top (?:1|an?) (?=\S)")
_COUNT_WORDS = {1: "one", 2: "two", 3: "three"}
_ACTING = {"opponent": "each opponent", "other": "each other player", "each": "each player",
           "left": "the player to your left", "right": "the player to your right",
           "target": "an opponent you choose", "chosen": "a player you choose (you may choose yourself)"}


# --- public API ----------------------------------------------------------------------------------


def render_effect(effect, vocab: GameModel, verbs: dict | None = None, kind: str = "effect") -> str:
    """Card-style English for one checked effect's IR (``Checked.ir``; plain text, icons as their
    printed names). A bare-condition slot's IR (a card's ``requires``) renders as the condition
    alone: "You have at least 1 card in your Hand." Use :func:`english_of` for a text."""
    return plain(render_marked(effect, vocab, verbs, kind))


def render_marked(effect, vocab: GameModel, verbs: dict | None = None, kind: str = "effect") -> str:
    """Like :func:`render_effect`, with icons left as markers for the HTML renderer."""
    if verbs is None:
        from runtime.verbs import verbs_for

        verbs = verbs_for(vocab.engine)
    return _Renderer(vocab, verbs).effect(effect, kind)


def option_labeller(vocab: GameModel, verbs: dict | None = None):
    """How a menu's options are labelled for the agent (the checker, while lowering): the English
    of their lowered statements, as the reference prints them, so a player and a scenario see the
    same words."""
    return lambda stmts: render_effect(ir.Effect(tuple(stmts)), vocab, verbs)


def plain(marked: str) -> str:
    """Replace icon markers by the icon's printed name (plain text)."""
    return _ICON_RE.sub(lambda m: m.group(1).split("|", 1)[-1], marked)


def split_icons(marked: str) -> list[tuple[str, str]]:
    """``[("text", s) | ("icon", key)]`` pieces of a marked rendering, for templates."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _ICON_RE.finditer(marked):
        if m.start() > pos:
            out.append(("text", marked[pos:m.start()]))
        out.append(("icon", m.group(1).split("|", 1)[0]))
        pos = m.end()
    if pos < len(marked):
        out.append(("text", marked[pos:]))
    return out


def article(following: str) -> str:
    """ "a" or "an" for the word that follows (icon markers count as the icon's name)."""
    word = plain(following).lstrip("(").strip()
    if not word:
        return "a"
    w = word.lower()
    if w.startswith(("uni", "use", "one", "eu")):
        return "a"
    if w[0] in "aeiou" or (w[0] in "x" and len(w) > 1 and not w[1].isalpha()) or w.startswith(("hour", "honest")):
        return "an"
    if word[0].isupper() and len(word.split()[0]) == 1 and word[0] in "AEFHILMNORSX":
        return "an"  # "an X", "an M"
    return "a"


def sentence(text: str) -> str:
    """Capitalise the first letter and end with a full stop."""
    text = text.strip()
    if not text:
        return text
    if not text.startswith(ICON_START):  # an icon badge leads as it is
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


# --- templates -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    kind: str  # "text" | "slot" | "group"
    value: object


def parse_template(template: str) -> list[_Part]:
    """Parse the template mini-language into parts; unbalanced brackets are taken literally."""
    parts, _ = _parse_parts(template, 0, top=True)
    return parts


def _parse_parts(t: str, i: int, top: bool) -> tuple[list[_Part], int]:
    parts: list[_Part] = []
    buf = ""
    while i < len(t):
        c = t[i]
        if c == "{":
            j = t.find("}", i)
            if j < 0:
                buf += t[i:]
                break
            if buf:
                parts.append(_Part("text", buf))
                buf = ""
            parts.append(_Part("slot", t[i + 1:j].strip()))
            i = j + 1
            continue
        if c == "[":
            if buf:
                parts.append(_Part("text", buf))
                buf = ""
            inner, i = _parse_parts(t, i + 1, top=False)
            parts.append(_Part("group", inner))
            continue
        if c == "]" and not top:
            if buf:
                parts.append(_Part("text", buf))
            return parts, i + 1
        buf += c
        i += 1
    if buf:
        parts.append(_Part("text", buf))
    return parts, i


def _slots_in(parts: list[_Part]) -> set[str]:
    """The placeholders directly in a group (a nested group decides for itself)."""
    return {p.value for p in parts if p.kind == "slot"}


def fill_template(template: str, values: dict[str, str]) -> tuple[str, set[str]]:
    """Fill a template; returns the text and the placeholders it used."""
    parts = parse_template(template)
    used: set[str] = set()

    def go(ps: list[_Part]) -> str:
        out = ""
        for p in ps:
            if p.kind == "text":
                out += p.value
            elif p.kind == "slot":
                v = values.get(p.value)
                if v:
                    used.add(p.value)
                    out += v
            else:
                need = _slots_in(p.value)
                if all(values.get(s) for s in need):
                    out += go(p.value)
        return out

    text = go(parts)
    return re.sub(r"\s+", " ", text).strip(), used


# --- the renderer ----------------------------------------------------------------------------------


@dataclass
class _Bound:
    name: str
    category: str  # what the chosen thing is
    noun: str  # its printed singular noun ("Production Location", "icon", "player")
    display: str | None = None  # how a name bound by an action reads ("the drawn cards")
    plural: bool = False  # several were chosen ("choose 2 cards as d"): "them", not "it"


# Names bound by "<verb> … as NAME" read as what the verb did (runtime/verbs.py: reveal/look keep
# only the cards still on the pile, hence "remaining").
_ACTION_BOUND = {"draw": "the drawn cards", "reveal": "the remaining revealed cards",
                 "look": "the remaining cards you looked at"}


class _Renderer(Visitor):
    """Walks the IR (compiler/ir.py). What a node means — the category and vocabulary key of a
    noun, a quantity's value — comes from the IR; how the designer worded it — "a card" or "1
    card", "2 fuel", "1 of your locations", "another player's" — from the node's ``syntax``."""

    def __init__(self, vocab: GameModel, verbs: dict):
        self.v = vocab
        self.verbs = verbs
        self.scope: list[_Bound] = []
        self.acting = 0  # inside "each opponent: …", "your" is theirs
        self.targeted = False  # after "target opponent: …" the effect's opponent is "that opponent" (issue 28)

    # statements ----------------------------------------------------------------------------------
    def effect(self, effect, kind: str) -> str:
        if isinstance(effect, (ir.Compare, ir.Exists)):  # a bare-condition slot (lower_condition)
            return sentence(self.cond(effect))
        if kind == "quantity" and len(effect.statements) == 1 and isinstance(effect.statements[0], ir.LetX):
            # a card's worth (a quantity slot, issue 28): the quantity itself, not "X is …"
            return sentence(self.quantity(effect.statements[0].expr))
        stmts = list(effect.statements)
        sentences: list[str] = []
        run: list[str] = []  # consecutive simple statements share one sentence, joined by "; "
        for i, st in enumerate(stmts):
            if isinstance(st, (ir.Act, ir.Choose)):
                run.append(self.visit(st))
                continue
            if run:
                sentences.append(sentence("; ".join(run)))
                run = []
            text = self.visit(st)
            if isinstance(st, ir.Cost) and i < len(stmts) - 1:
                # an unpaid cost refuses the effect from there on (runtime: Refused ends the effect)
                text += "; if you cannot, the rest does not happen"
            sentences.append(sentence(text))
        if run:
            sentences.append(sentence("; ".join(run)))
        return " ".join(sentences)

    def visit_Require(self, st: ir.Require) -> str:
        return f"requirement: {self.cond(st.cond)}"

    def visit_LetX(self, st: ir.LetX) -> str:
        text = f"X is {self.quantity(st.expr)}"
        if st.minimum is not None:
            text += f"; usable only while X is at least {st.minimum}"
        return text

    def visit_If(self, st: ir.If) -> str:
        text = f"if {self.cond(st.cond)}, {self.body(st.body)}"
        if st.otherwise is not None:
            text += f"; otherwise, {self.body(st.otherwise)}"
        return text

    def visit_Menu(self, st: ir.Menu) -> str:
        return f"choose {_COUNT_WORDS.get(st.count, str(st.count))}: " + "; or ".join(self.body(o) for o in st.options)

    def visit_Acting(self, st: ir.Acting) -> str:
        if st.who == "they":  # h28b: the player the trigger's event is about does the body
            self.acting += 1
            try:
                if len(st.body) == 1 and isinstance(st.body[0], ir.Optional):
                    return f"that player may {self.body(st.body[0].body)}"
                return f"that player: {self.body(st.body)}"
            finally:
                self.acting -= 1
        order = ", in seat order" if st.who in ("opponent", "other", "each") else ""
        who = _ACTING[st.who]
        if self.acting:  # inside another acting clause "you" is that player (issue 28)
            who = who.replace("your", "their").replace("you choose", "they choose")
        self.acting += 1
        try:
            text = f"{who}{order}: {self.body(st.body)}"
        finally:
            self.acting -= 1
        if not self.acting and _passes(st.body):  # Ctx.acting: passed cards move when the clause ends
            text += "; the passed cards move together once every player has chosen"
        if st.who == "target" and not self.acting:  # the chosen opponent is the effect's opponent
            self.targeted = True
        return text

    # --- h28b (issue 28): optional statements, durations, cost changes ----------------------------
    def visit_Optional(self, st: ir.Optional) -> str:
        who = "they" if self.acting else "you"  # inside "each opponent: …" the choice is theirs
        if all(isinstance(b, (ir.Act, ir.Choose, ir.Cost)) for b in st.body):
            return f"{who} may {self.body(st.body)}"  # "You may draw 1 card and gain 1 Coin."
        # a body that is itself a statement with a head of its own ("if …", "for each …", another
        # "you may"): "You may if you have …" would not be English, and "You may you may draw 1 card;
        # then gain 1 Coin" would read as if the gain were not part of the choice
        return f"{who} may choose to do all of this: {self.body(st.body)}"

    def visit_Delayed(self, st: ir.Delayed) -> str:
        when = "your next turn" if st.when == "next" else "this turn"
        return f"at the {st.moment} of {when}: {self.body(st.body)}"

    def visit_OwnCost(self, st: ir.OwnCost) -> str:
        syntax, q = st.syntax.per, st.per  # the "per …" as written, and its query
        every = syntax.every
        per = self.ref(q, plural=bool(every and every > 1), definite=False)
        lead = f"for every {every}" if every else "for each"
        per += "".join(" " + self.filter(f, fi) for f, fi in zip(syntax.filters, q.filters))
        if q.place is not None:
            per += f" in {self.ref(q.place)}"
        return f"this costs {st.amount} less {lead} {per} (never less than 0)"

    def visit_ExtraTurn(self, st: ir.ExtraTurn) -> str:
        return "after this turn, take an extra turn (not after an extra turn)"

    def visit_Immune(self, st: ir.Immune) -> str:
        return "you are unaffected by it"

    def visit_CostChange(self, st: ir.CostChange) -> str:
        things = self.selector(st.query, force_plural=True)
        return f"this turn, {things} cost {st.amount} less (never less than 0)"

    def visit_Repeat(self, st: ir.Repeat) -> str:
        return f"repeat until {self.cond(st.until)}: {self.body(st.body)}"

    def visit_Trigger(self, st: ir.Trigger) -> str:
        t = st.syntax
        if t.form == "at":
            head = f"at the {t.moment.text} of {t.owner} {t.period.text}"
        else:
            lead = f"the first time each {t.period.text}" if t.form == "first" else t.form
            head = f"{lead} {self.subject(t.subject)} {self.event_verb(t.subject, t.verb.text)} " \
                   f"{self.selector(st.card, indefinite=True)}"
            if st.kind == "before play":  # a reaction (h28b): heard before the card's effect
                head += ", before it resolves"
        return f"{head}: {self.body(st.body)}"

    # abilities (issue 28): as a card prints them — "Once per turn: …", "Trash this card: …"
    def visit_Ability(self, st: ir.Ability) -> str:
        head = f"once per {st.once}" if st.once is not None else ""
        if st.cond is not None:
            head = f"{head}, while {self.cond(st.cond)}" if head else f"while {self.cond(st.cond)}"
        first = st.body[0] if st.body else None
        if isinstance(first, ir.Cost):  # a cost reads as printed: "Trash this card: gain 3 combat"
            paid = f"{self.action(first.pay)}: {self.body(first.body)}"
            rest = [paid] + [self.body((b,)) for b in st.body[1:]]
            text = "; ".join(rest)
            return f"{head}: {text}" if head else text
        return f"{head}: {self.body(st.body)}"

    def visit_Cost(self, st: ir.Cost) -> str:
        return f"{self.action(st.pay)} to {self.body(st.body)}"

    def visit_ForEach(self, st: ir.ForEach) -> str:
        q = st.query
        head = self.foreach_head(q)
        noun, cat = self._noun_of(q, plural=False)[0], q.category
        display = None
        if cat == VAR:  # each card of a chosen set is "that card", not "the chosen <set>"
            inner = self._bound(q.key)
            noun, cat = ("card" if inner.display else inner.noun), inner.category
            display = ("that card" if inner.display else "that one") if inner.category in (CARD, THING) else None
        self.scope.append(_Bound(st.name, cat, noun, display))
        try:
            return f"for each {head}, {self.body(st.body)}"
        finally:
            self.scope.pop()

    def visit_Choose(self, st: ir.Choose) -> str:
        q = st.query
        text = "choose " + self.selector(q, indefinite=True)
        noun, cat = self._noun_of(q, plural=False)[0], q.category
        if cat == VAR:  # "choose 1 of r as k": k is one of what r holds
            inner = self._bound(q.key)
            noun, cat = ("card" if inner.display else inner.noun), inner.category
        amount = q.syntax.amount
        many = isinstance(amount, A.All) or self._is_plural_amount(amount)
        self.scope.append(_Bound(st.name, cat, noun, plural=many))
        return text

    def visit_Act(self, st: ir.Act) -> str:
        text = self.action(st)
        if st.binds is not None and st.verb == "name":  # "name a card as n" holds a card name (issue 28)
            self.scope.append(_Bound(st.binds, CARD_NAME, "card name", "the named card"))
        elif st.binds is not None:
            shown = _ACTION_BOUND.get(st.verb, f"the cards of ‘{st.verb}’")
            self.scope.append(_Bound(st.binds, CARD, f"{st.verb} card", shown))
        return text

    def generic_visit(self, node, *args):
        raise TypeError(f"no English for {type(node).__name__} (render the checked IR, not the AST)")

    def subject(self, s: A.Subject) -> str:
        if s.kind == "you":
            return "you"
        return f"{s.article} {s.noun}" if s.kind == "a" else f"another {s.noun}"

    def event_verb(self, s: A.Subject, verb: str, past: bool = False) -> str:
        from runtime.events import EVENT_VERBS

        base = EVENT_VERBS.get(verb, verb)
        if past:
            return _PAST.get(base, base + "ed")
        return base if s.kind == "you" else _THIRD.get(base, base + "s")

    def body(self, body) -> str:
        if all(isinstance(b, (ir.Act, ir.Choose)) for b in body):
            return " and ".join(self.visit(b) for b in body)
        return "; then ".join(self.visit(b) for b in body)

    def foreach_head(self, q: ir.Query) -> str:
        sel = q.syntax
        if sel.amount is None or isinstance(sel.amount, A.All):
            if q.category == PLAYER and not sel.filters and sel.of is None and sel.place is None:
                # "each" already says every one: "For each player", never "For each a player"
                who = self.player(q.key, sel.owner, None)
                if who.startswith("another "):
                    return "other " + who[len("another "):]
                return re.sub(r"^an? ", "", who)
            if sel.owner is not None and sel.owner.kind != "enemy":
                # "each" cannot take an owner directly: "For each of your Locations"
                return "of " + self.selector(q, drop_amount=True, force_plural=True)
            if q.category == VAR:  # a chosen set: "For each of them", "For each of the drawn cards"
                text = self.selector(q, drop_amount=True)
                return "of them" if text in ("it", "them") else f"of {text}"
            return self.selector(q, drop_amount=True, force_plural=False)
        text = self.selector(q)
        return text if text.startswith("of ") else f"of {text}"

    def action(self, act: ir.Act) -> str:
        verb = self.verbs.get(act.verb)
        template = verb.template if verb is not None and getattr(verb, "template", None) else ""
        if not template:
            template = act.verb + " {obj}"
        values: dict[str, str] = {}
        equal_to = ""  # "equal to …" of a computed amount, said after the phrases (see below)
        if len(act.objects) == 1 and isinstance(act.objects[0].syntax.amount, (A.BinOp, A.Count, A.FieldOf, A.History)):
            values["obj"], equal_to = self.computed_amount(act.objects[0])
        elif act.objects:
            values["obj"] = _join_and([self.selector(o) for o in act.objects])
        order: list[str] = []
        for key, target in act.phrases:
            val = self.phase_name(target.name) if isinstance(target, ir.Phase) else self.target(target)
            if key not in values:
                values[key] = val
                order.append(key)
        written = act.syntax.verb.text if act.syntax is not None else act.verb
        if written != act.verb and template.startswith(act.verb):
            # a verb alias the game declares ("scrap" for trash, issue 28): printed in the game's word
            template = written + template[len(act.verb):]
        if "obj" in values and "{obj}" not in template.replace(" ", ""):
            head, _, rest = template.partition(" ")
            template = f"{head} {{obj}} {rest}".strip()
        text, used = fill_template(template, values)
        text = _TOP_ONE.sub("the top ", text)  # "reveal the top 1 card" reads "reveal the top card"
        extra = [f"{k} {values[k]}" for k in order if k not in used]
        return " ".join([text, *extra, equal_to]).strip()

    def computed_amount(self, q: ir.Query) -> tuple[str, str]:
        """("a number of cards", "equal to 7 minus …") for an object whose amount is computed.

        The quantity goes last, after the verb's phrases: "scrap a number of cards from your Hand
        equal to the number of cards in your Hand minus 10" — never "… minus 10 from your Hand",
        where the phrase would read as part of the sum. A plain count keeps the printed-card form
        "draw cards equal to the number of …"; arithmetic reads "a number of cards equal to …".
        """
        noun = self.selector(q, drop_amount=True, force_plural=True)
        lead = ""
        if isinstance(q.amount.expr, ir.Arith):
            single, several = self._noun_of(q, plural=False)[0], self._noun_of(q, plural=True)[0]
            mass = q.category == GOOD and single == several
            lead = "an amount of " if mass else "a number of "  # "an amount of Fuel", "a number of cards"
        return lead + noun, f"equal to {self.quantity(q.amount.expr)}"

    # conditions and quantities -------------------------------------------------------------------
    def cond(self, c) -> str:
        return self.visit(c)

    def visit_Compare(self, c: ir.Compare) -> str:
        held = self.held_compare(c)
        if held:
            return held
        return f"{self.quantity(c.left)} {_CMP_WORDS.get(c.op, c.op)} {self.quantity(c.right)}"

    def visit_Exists(self, c: ir.Exists) -> str:
        return self.exists(c.query)

    def held_compare(self, c: ir.Compare) -> str | None:
        """ "number of cards in your hand < 4" → "you have fewer than 4 cards in your Hand"."""
        flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "=": "=", "!=": "!="}
        if isinstance(c.left, ir.CountOf) and isinstance(c.right, ir.Lit):
            q, op, n = c.left.query, c.op, c.right.value
        elif isinstance(c.right, ir.CountOf) and isinstance(c.left, ir.Lit):
            q, op, n = c.right.query, flip[c.op], c.left.value
        else:
            return None
        sel = q.syntax
        if sel.amount is not None or sel.owner is not None and sel.owner.kind != "your":
            return None
        if q.category == GOOD:
            rest = self.selector(q, drop_amount=True, no_owner=True, number=n)
        elif sel.place is not None and sel.place.owner is not None and sel.place.owner.kind == "your" \
                and sel.owner is None and q.category != VAR:
            rest = self.selector(q, drop_amount=True, number=n)
        else:
            return None
        who = self._you()
        if op == "=" and n == 0:
            return f"{who} have no {self.selector(q, drop_amount=True, no_owner=True, force_plural=True)}"
        words = {"=": "exactly", "!=": "other than", "<": "fewer than", ">": "more than", "<=": "at most",
                 ">=": "at least"}[op]
        if q.category == GOOD and op in ("<", "<=") and n != 1:
            rest = self.selector(q, drop_amount=True, no_owner=True, force_plural=True)
        return f"{who} have {words} {n} {rest}"

    def _you(self) -> str:
        """Who "you" is in a condition: inside "each opponent: …" it is that player ("they")."""
        return "they" if self.acting else "you"

    def exists(self, q: ir.Query) -> str:
        sel = q.syntax
        cat = q.category
        amount = sel.amount
        lead = "at least " if isinstance(amount, (A.Num, A.X, A.BinOp, A.Count)) else ""
        if cat == GOOD:
            who, verb = self._holder(sel.owner)
            return f"{who} {verb} {lead}{self.selector(q, no_owner=True)}".strip()
        if sel.place is not None and sel.place.owner is not None and sel.place.owner.kind == "your" \
                and sel.owner is None:
            return f"{self._you()} have {lead}{self.selector(q, indefinite=True)}"
        if cat == THING and sel.owner is None and sel.place is None and sel.of is None and self._yours_by_default(q):
            # "if 3 ruins:" counts the acting player's own (runtime Ctx.things): say so
            return f"{self._you()} have {lead}{self.selector(q, indefinite=True)}"
        if cat == THING and sel.owner is not None and sel.owner.kind == "your" and sel.place is None and sel.of is None:
            # "requires 1 of your locations": "you have at least 1 Location", not "there is … of your …"
            n = int(amount.value) if isinstance(amount, A.Num) else None
            return f"{self._you()} have {lead}{self.selector(q, indefinite=True, no_owner=True, number=n)}"
        if cat == VAR and any(isinstance(f, ir.SameName) for f in q.filters) and amount is None:
            # "if r named n": "there is a card with the name you named among the revealed cards" (issue 28)
            return f"there is a card{self._filters(q)} among {self.var_ref(q.key, pronoun=False)}"
        many = self._is_plural_amount(amount) or isinstance(amount, A.All)
        return f"there {'are' if many else 'is'} {lead}{self.selector(q, indefinite=True)}"

    def _yours_by_default(self, q: ir.Query) -> bool:
        """A thing named without an owner is the acting player's (the model's rule, which Ctx.things
        follows)."""
        return self.v.yours_by_default(q.key)

    def _holder(self, owner: A.Owner | None) -> tuple[str, str]:
        if owner is None or owner.kind == "your":
            return self._you(), "have"
        if owner.kind == "enemy":
            return "an enemy", "has"
        return self.possessive(owner)[:-2] if self.possessive(owner).endswith("'s") else "they", "has"

    def quantity(self, q) -> str:
        return self.visit(q)

    def visit_Lit(self, q: ir.Lit) -> str:
        return str(q.value)

    def visit_XValue(self, q: ir.XValue) -> str:
        return "X"

    def visit_CountOf(self, q: ir.CountOf) -> str:
        return self.count(q.query)

    def visit_DistinctNames(self, q: ir.DistinctNames) -> str:  # issue 28
        return "the number of different names among " + self.selector(q.query, drop_amount=True, force_plural=True)

    def visit_Either(self, c: ir.Either) -> str:  # "A or B" between conditions (issue 28)
        return " or ".join(self.cond(x) for x in c.conds)

    def visit_FieldOf(self, q: ir.FieldOf) -> str:
        field, card = self.field_name(q.field.replace("_", " "), plural=False), self.var_ref(q.card.name)
        if card in ("it", "them"):
            return f"{'its' if card == 'it' else 'their'} {field}"
        return f"the {field} of {card}"

    def visit_History(self, q: ir.History) -> str:
        h = q.syntax
        cards = self.selector(q.query, drop_amount=True, force_plural=True)
        return f"the number of {cards} {self.subject(h.subject)} {self.event_verb(h.subject, h.verb.text, True)} " \
               f"this {q.period}"

    def visit_Arith(self, q: ir.Arith) -> str:
        if q.op == "/":
            return f"{self.quantity(q.left)} divided by {self.quantity(q.right)}, rounded down"

        def side(s, right: bool) -> str:
            text = self.quantity(s)
            if isinstance(s, ir.Arith) and (_PREC[s.op] < _PREC[q.op] or (right and _PREC[s.op] == _PREC[q.op])):
                return f"({text})"
            return text
        return f"{side(q.left, False)} {_OP_WORDS.get(q.op, q.op)} {side(q.right, True)}"

    def count(self, q: ir.Query) -> str:
        if q.category == GOOD:
            who, verb = self._holder(q.syntax.owner)
            single, several = self._noun_of(q, plural=False)[0], self._noun_of(q, plural=True)[0]
            if single != several:  # a countable Good: "the number of Victory Points you have"
                return f"the number of {self.selector(q, drop_amount=True, no_owner=True, force_plural=True)} {who} {verb}"
            return f"the amount of {self.selector(q, drop_amount=True, no_owner=True)} {who} {verb}"
        return "the number of " + self.selector(q, drop_amount=True, force_plural=True)

    # selectors -------------------------------------------------------------------------------------
    def _is_plural_amount(self, amount) -> bool:
        if amount is None or isinstance(amount, A.One):
            return False
        if isinstance(amount, (A.Num, A.UpTo)):
            return amount.value != 1
        return True

    def selector(self, q: ir.Query, *, indefinite: bool = False, drop_amount: bool = False,
                 force_plural: bool = False, no_owner: bool = False, number: int | None = None) -> str:
        """``number``: the noun agrees with it whatever the text wrote ("at least 1 card", not "cards")."""
        sel = q.syntax
        cat = q.category
        if cat == VAR:  # a chosen name, narrowed by its filters ("the drawn cards with an Action icon")
            ref = self.var_ref(q.key, pronoun=not sel.filters)
            amount = None if drop_amount else sel.amount
            if amount is not None and not isinstance(amount, A.All):
                ref = f"{self.amount(q, ref)} of {ref}"
            return ref + self._filters(q)
        if cat == PLAYER and not sel.filters and sel.of is None and sel.place is None:
            return self.player(q.key, sel.owner, sel.amount)
        amount = None if drop_amount else sel.amount
        dynamic = isinstance(amount, (A.BinOp, A.Count))
        # "1 of your Locations": the noun after "of" is plural whatever the amount; without its owner
        # ("you have 1 Location") the partitive goes too
        of_form = sel.of_form and not no_owner
        of_many = of_form and amount is not None and (sel.owner is None or sel.owner.kind != "enemy")
        plural = force_plural or of_many or self._is_plural_amount(amount)
        if number is not None:
            plural = number != 1
        noun, is_plural = self._noun_of(q, plural=plural, exact=number is not None)
        # "goods of target": the Goods a chosen card provides
        if cat == GOOD and q.key in ("good", "goods") and q.of is not None:
            subject = self.ref(q.of)
            verb = "provide" if subject in ("they",) else "provides"
            return f"the {noun} {subject} {verb}" + self._tail(q, skip_of=True)
        words: list[str] = []
        if sel.owner is not None and not no_owner:
            words.append(self.owner(sel.owner))
        words.append(noun)
        core = " ".join(words) + self._filters(q) + self._tail(q)
        if amount is None:
            if cat == ZONE and sel.owner is None:
                return self.zone_default(q, core)
            if indefinite and (sel.owner is None or sel.owner.kind == "enemy"):
                return f"{article(core)} {core}"
            return core
        if dynamic:
            return f"{core} equal to {self.quantity(q.amount.expr)}"
        lead = self.amount(q, core)
        of = ""
        if of_form:
            if sel.owner is None:
                # "1 of the Locations"; "any number of cards" (h28b)
                of = " of" if isinstance(amount, A.AnyNumber) else " of the"
            elif sel.owner.kind == "enemy":
                # "1 of enemy locations" reads "1 enemy Location": the number follows the amount
                single = self._printed(cat, q.key, sel.noun.text)[0]
                noun = self._plural_name(cat, q.key, single) if self._is_plural_amount(amount) else single
                core = " ".join([self.owner(sel.owner), noun]) + self._filters(q) + self._tail(q)
            else:
                of = " of"
        return f"{lead}{of} {core}"

    def amount(self, q: ir.Query, following: str) -> str:
        """The amount as written ("a card", "1 card", "up to 2"); a computed one from the IR."""
        a = q.syntax.amount
        if isinstance(a, A.Num):
            return str(a.value)
        if isinstance(a, A.X):
            return "X"
        if isinstance(a, A.UpTo):
            return f"up to {a.value}"
        if isinstance(a, A.All):
            return "all"
        if isinstance(a, A.One):
            return article(following)
        if isinstance(a, A.AnyNumber):  # h28b
            return "any number"
        return f"({self.quantity(q.amount.expr)})"

    def _filters(self, q: ir.Query) -> str:
        return "".join(" " + self.filter(f, fi) for f, fi in zip(q.syntax.filters, q.filters))

    def _tail(self, q: ir.Query, skip_of: bool = False) -> str:
        sel = q.syntax
        out = ""
        if q.of is not None and not skip_of:
            prep = "on" if q.category == ICON else "of"
            out += f" {prep} {self.ref(q.of)}"
        if q.place is not None:
            out += f" in {self.ref(q.place)}"
        if q.per is not None:
            every = sel.per.every
            per = self.ref(q.per, plural=bool(every and every > 1), definite=False)
            lead = f"for every {every}" if every else "for each"
            if q.per.category == VAR:  # a bound name: "for it" (one chosen card), "for each of them"
                lead = "for" if per == "it" else f"{lead} of"
            out += f" {lead} {per}" + "".join(" " + self.filter(f, fi) for f, fi in zip(sel.per.filters, q.per.filters))
            if q.per.place is not None:
                out += f" in {self.ref(q.per.place)}"
        return out

    def filter(self, f, fi) -> str:
        """One filter: ``fi`` its IR (resolved icons, values), ``f`` as written (its words)."""
        return self.visit(fi, f)

    def visit_HasIcon(self, fi: ir.HasIcon, f) -> str:
        icons = [self.icon(key) for key in fi.icons]
        joined = " or ".join(icons)
        named = "icon" in plain(icons[-1]).lower().split()  # "Green type icon" needs no second "icon"
        return f"with {article(icons[0])} {joined}" + ("" if named else " icon")

    def visit_HasField(self, fi: ir.HasField, f) -> str:
        return f"{'with' if fi.present else 'without'} {self.field_name(f.noun.text, plural=True)}"

    def visit_MatchingIcon(self, fi: ir.MatchingIcon, f) -> str:
        return f"matching {self.var_ref(fi.bound.name)}"

    def visit_FieldCompare(self, fi: ir.FieldCompare, f) -> str:
        value = str(fi.value) if isinstance(fi.value, int) else self.quantity(fi.value)
        bound = {("=", ""): value, ("=", "exactly"): f"exactly {value}", ("<=", "up to"): f"up to {value}",
                 ("<=", "or less"): f"{value} or less", (">=", "or more"): f"{value} or more",
                 (">=", "at least"): f"at least {value}", (">", "more than"): f"more than {value}",
                 ("<", "less than"): f"less than {value}"}[(fi.op, f.form)]
        if f.field is None:
            return f"costing {bound}"
        return f"with {self.field_name(f.field.text, plural=False)} {bound}"

    def visit_SameName(self, fi: ir.SameName, f) -> str:
        """"named n" (issue 28): "with the name you named"; "with the same name as t"."""
        if self._bound(fi.bound.name).category == CARD_NAME:
            # inside an acting clause "you" is that player, who may not be the one who named it
            return "with the name that was named" if self.acting else "with the name you named"
        return f"with the same name as {self.var_ref(fi.bound.name)}"

    def visit_OtherThan(self, fi: ir.OtherThan, f) -> str:
        if isinstance(fi.card, ir.Bound):
            return f"other than {self.var_ref(fi.card.name)}"
        return f"other than {title(fi.card)}"

    def visit_Not(self, fi: ir.Not, f) -> str:
        inner = fi.filter
        if isinstance(inner, ir.HasIcon) or isinstance(inner, ir.HasField) and inner.present:
            return "without" + self.filter(f.filter, inner)[len("with"):]
        if isinstance(inner, ir.HasField):
            return "with" + self.filter(f.filter, inner)[len("without"):]
        return f"not {self.filter(f.filter, inner)}"

    def field_name(self, words: str, plural: bool) -> str:
        key = words.replace(" ", "_")
        names = self._field_names()
        if key not in names and key.endswith("s") and key[:-1] in names:
            key = key[:-1]
        if key in names:
            name, is_slot = names[key]
            return english_plural(name) if (plural and is_slot) else name
        return title(words)

    def _field_names(self) -> dict[str, tuple[str, bool]]:
        out: dict[str, tuple[str, bool]] = {}
        for spec in self.v.kinds.values():
            for f in spec.fields:
                out.setdefault(f.key, (f.title or title(f.key), False))
            for sl in spec.slots:
                out[sl.key] = (sl.declared or title(sl.key), True)
        for k in self.v.card_flags:
            out.setdefault(k, (title(k), False))
        return out

    def icon(self, key: str) -> str:
        printed = self.v.printed(ICON, key)
        name = (printed.declared if printed else None) or title(key)
        return f"{ICON_START}{key}|{name}{ICON_END}"

    # references, owners, players -------------------------------------------------------------------
    def ref(self, q: ir.Query, plural: bool | None = None, definite: bool = True) -> str:
        """A reference inside a selector ("your hand", "the top card of …"): ``q.syntax`` is an A.Ref."""
        ref = q.syntax
        cat = q.category
        if cat == VAR:
            return self.var_ref(q.key)
        if cat == PLAYER:
            return self.player(q.key, ref.owner, None)
        noun, _ = self._noun_of(q, plural=bool(plural))
        text = f"{self.owner(ref.owner)} {noun}" if ref.owner is not None else noun
        if q.of is not None:
            text += f" of {self.ref(q.of)}"
        if ref.owner is None and definite:
            if cat == ZONE:
                return self.zone_default(q, text)
            if cat == PHASE:
                return f"the {text} phase"
            return f"the {text}"
        return text

    def zone_default(self, q: ir.Query, text: str) -> str:
        """A zone without an owner: the acting player's own when zones are per player."""
        zone = self.v.zones.get(q.key)
        if zone is None or zone.per_player:
            return f"your {text}"
        return f"the {text}"

    def owner(self, owner: A.Owner) -> str:
        if owner.kind == "your":
            return "their" if self.acting else "your"
        if owner.kind == "enemy":
            return "enemy"
        return self.possessive(owner)

    def possessive(self, owner: A.Owner) -> str:
        q, n = owner.qualifier, owner.name
        if n == "opponent":  # inside "each opponent: …" the opponent is the acting player's (Ctx.as_player)
            if q is None and self.targeted and not self.acting:
                return "that opponent's"  # the one chosen by "target opponent: …" (issue 28)
            return "another opponent's" if q == "another" else f"{'their' if self.acting else 'your'} opponent's"
        if n == "owner":
            return "its owner's"
        if n == "neighbour" and q in ("left", "right"):  # "left neighbour's hand" (issue 28)
            return f"{'their' if self.acting else 'your'} {q} neighbour's"
        if n == "player":
            return {"another": "another player's", "any": "any player's", "each": "each player's"}.get(
                q or "", "a player's")
        if q is None and any(b.name == n for b in self.scope):
            b = self._bound(n)
            if b.category == PLAYER:
                return "that player's"
            return "its owner's" if self._is_pronoun(n) else f"the chosen {b.noun}'s owner's"
        return f"{q + ' ' if q else ''}{title(n)}'s"

    def player(self, key: str, owner: A.Owner | None, amount) -> str:
        base = {"you": "you", "opponent": "their opponent" if self.acting else
                ("that opponent" if self.targeted else "your opponent"),
                "owner": "its owner"}.get(key)
        if base is not None:
            return base
        printed = self.v.players.get(key)
        name = printed.declared if printed is not None else None
        if key == "player":
            name = "player"
        name = name or key.replace("_", " ")
        if isinstance(amount, A.All) or (owner is not None and owner.qualifier == "each"):
            return f"each {name}"
        if owner is not None and owner.kind == "enemy":
            return f"an enemy {name}"
        if owner is not None and owner.qualifier == "another":
            return f"another {name}"
        return f"{article(name)} {name}"

    def phase_name(self, key: str) -> str:
        for ph in self.v.phases:
            if ph.key == key and ph.declared:
                return ph.declared
        return title(key)

    def target(self, q: ir.Query) -> str:
        return self.selector(q)

    # bound names ---------------------------------------------------------------------------------
    def _bound(self, name: str) -> _Bound:
        for b in reversed(self.scope):
            if b.name == name:
                return b
        return _Bound(name, THING, title(name))

    def _is_pronoun(self, name: str) -> bool:
        if name == "it":
            return True
        return len(self.scope) == 1 and self.scope[0].name == name and self.scope[0].category != PLAYER

    def var_ref(self, name: str, pronoun: bool = True) -> str:
        if name == "this card":
            return "this card"
        b = self._bound(name)
        if b.display is not None:
            return b.display
        if pronoun and self._is_pronoun(name):
            return "them" if b.plural else "it"
        if b.category == PLAYER:
            return "that player"
        noun = english_plural(b.noun) if b.plural else b.noun  # "choose 2 … as k": "the chosen cards"
        same = [x for x in self.scope if x.noun == b.noun]
        if len(same) > 1:
            return f"the {noun} chosen as “{name}”"
        return f"the chosen {noun}"

    # nouns -----------------------------------------------------------------------------------------
    def _noun_of(self, q: ir.Query, plural: bool, exact: bool = False) -> tuple[str, bool]:
        """The printed noun of a selector or reference, in the right number (``exact``: ``plural``
        decides, not how the text spelled the noun)."""
        cat, key = q.category, q.key
        words = q.syntax.noun.text
        if words == "this card":
            return "this card", False
        if cat == VAR:
            b = self._bound(key)
            return (b.display, True) if b.display is not None else (b.noun, False)
        name, spec_names = self._printed(cat, key, words)
        if not exact and self._written_plural(words, spec_names):
            return self._plural_name(cat, key, name), True
        if not plural:
            return name, False
        return self._plural_name(cat, key, name), True

    def _plural_name(self, cat: str | None, key: str, name: str) -> str:
        """The printed plural: the vocabulary's ``plural:`` if given, the name itself for a mass
        noun ("2 Fuel", "3 Iron"), else the English plural ("2 Bricks", "2 Victory Points")."""
        printed = self.v.printed(cat or "", key)
        if printed is not None and printed.plural:
            return printed.plural
        if name.split(" ")[-1].lower() in MASS_NOUNS:
            return name
        if cat == THING and name.endswith(" card") and _looks_plural(name[:-5]):
            return name[:-5]  # "Ruins card" (see _thing_title): several are "Ruins"
        return english_plural(name)

    def _written_plural(self, words: str, names: list[str]) -> bool:
        if words in names:
            return words.endswith("s") and words[:-1] in names
        return any(words in plurals(n) for n in names) or words in ("cards", "players", "icons", "goods")

    def _printed(self, cat: str | None, key: str, words: str) -> tuple[str, list[str]]:
        """(printed singular name, the names the text may use for it in the singular)."""
        m = self.v
        printed = m.printed(cat or "", key)
        if printed is not None:
            names = [key.replace("_", " "), *printed.aliases]
            if printed.declared:
                return printed.declared, names
            if cat == THING:
                return _thing_title(key), names
            return title(key), names
        if cat == GOOD:
            if key in m.good_groups:
                return title(key), [key.replace("_", " ")]
            if key in ("good", "goods"):
                return "Good", ["good"]
        if cat == CARD:
            if key == "card":
                return "card", ["card"]
            source = m.card_sources.get(key)
            # a card source names where cards come from ("draw 1 hacked"); what is drawn is a card
            name = _card_title(key if key.split("_")[-1].split(" ")[-1] == "card" else key + " card")
            return name, [key.replace("_", " "), *(source.printed.aliases if source is not None else ())]
        if cat == ICON:
            return "icon", ["icon"]
        if cat == PILE:  # "empty supply piles": the zone's printed name
            zone = key.split(":")[-1]
            zspec = m.zones.get(zone)
            zname = (zspec.printed.declared if zspec is not None else None) or title(zone)
            return f"{'empty ' if key.startswith('empty:') else ''}{zname} pile", [words]
        if cat == PHASE:
            return self.phase_name(key), [key.replace("_", " ")]
        if cat == PLAYER:
            return key.replace("_", " "), [key.replace("_", " ")]
        return (title(words) if cat is not None else words), [words]


def _passes(body) -> bool:
    """Whether a body passes cards ("pass 1 card … to left neighbour's hand"), at any depth."""
    for st in body:
        if isinstance(st, ir.Act) and st.verb == "pass":
            return True
        for inner in (getattr(st, "body", None), getattr(st, "otherwise", None)):
            if inner and _passes(inner):
                return True
        if isinstance(st, ir.Menu) and any(_passes(o) for o in st.options):
            return True
    return False


def _card_title(key: str) -> str:
    """A derived printed name whose last word is "card": "symbol card" → "Symbol card", as "card"
    itself is printed in lower case everywhere else ("1 card", "Hacked card")."""
    text = title(key)
    return text[:-4] + "card" if text.endswith(" Card") else text


def _thing_title(key: str) -> str:
    """A thing's derived printed name. A name that reads as a plural ("ruins") names one card as
    "Ruins card", so that "gain 1 ruins" does not print "Gain 1 Ruins"; several are still "Ruins"."""
    text = _card_title(key)
    return text + " card" if _looks_plural(text) else text


def _looks_plural(name: str) -> bool:
    last = name.split(" ")[-1].lower()
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def _join_and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
