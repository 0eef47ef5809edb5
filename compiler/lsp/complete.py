"""Completion: inside an effect text, what the parser accepts at the cursor, in the game's words;
outside one, field, slot and kind names and card ids.

Inside a text, the text before the cursor (less the word being typed) is fed to Lark's interactive
parser (the effect grammar's own LALR tables) and ``accepts()`` says which tokens may come next:
keywords ("from", "with", "as", …) are offered as themselves; where a NAME may come, the words
before the cursor say which of the game's names fit — a verb at the start of a statement, the
Goods / things / zones the verb's signature takes for its object or for the phrase being written
("from …" takes what its ``from`` slot takes), icons after "with icon", fields after "with",
phases after "until", bound names after "matching", card ids after "other than". When the text
before the cursor does not parse, nothing is guessed from the grammar: every name is offered.
Nothing here knows the protocol; the server turns ``Item``s into LSP completion items.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from lark.exceptions import LarkError

from runtime.model import GameModel
from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, VAR, ZONE

from ..build import _PREFIX as SLOT_PREFIX
from ..grammar import _lark  # the effect parser, built once per process
from ..vocabulary import COMMON_FIELDS

CATEGORY_WORDS = {GOOD: "Good", THING: "thing", ZONE: "zone", PLAYER: "player", PHASE: "phase", ICON: "icon",
                  VAR: "bound name", CARD: "cards", PILE: "pile"}
MODULE_KEYS = ("module", "name", "source", "note", "setup", "cards", "rules", "tables", "map")


@dataclass(frozen=True)
class Item:
    label: str
    kind: str  # "verb", "keyword", "name", "variable", "field", "kind", "card", "slot"
    detail: str = ""
    doc: str = ""


# --- inside an effect text -------------------------------------------------------------------------

_PREFIX = re.compile(r"[a-z0-9_]*$")
_TOKENS = re.compile(r"[a-z][a-z0-9_]*|\d+|'s|[;:(),]")
_PHRASES = ("instead of", "on top of", "at the bottom of", "from", "to", "onto", "into", "on", "at")


def accepted(before: str) -> set[str] | None:
    """The terminals the effect grammar accepts after ``before``; None when ``before`` does not parse."""
    try:
        ip = _lark().parse_interactive(before)
        ip.exhaust_lexer()
        return set(ip.accepts())
    except (LarkError, RecursionError):
        return None


def _literals() -> dict[str, str]:
    from ..syntaxhelp import _literals as grammar_literals  # terminal -> the keyword it stands for

    return grammar_literals()


def bound_names(before: str) -> list[str]:
    """Names the text binds before the cursor ("as c"), and "it" inside a for each without one."""
    names = re.findall(r"\bas\s+([a-z][a-z0-9_]*)", before)
    if re.search(r"\bfor\s+each\b", before) and "it" not in names:
        names.append("it")
    return list(dict.fromkeys(names))


def effect_completions(text: str, offset: int, vocab: GameModel, verbs: dict, slot_kind: str = "effect",
                       card_ids: list[str] = ()) -> tuple[int, list[Item]]:
    """(start of the word being typed, the items that may go there)."""
    low = text.lower()
    before = low[:offset]
    prefix = _PREFIX.search(before).group()
    start = offset - len(prefix)
    head = before[:start]
    parsed = SLOT_PREFIX.get(slot_kind, "") + head
    accepts = accepted(parsed)
    bound = bound_names(head)
    if accepts is None:
        return start, _all_names(vocab, verbs, bound)
    items: list[Item] = []
    if "NAME" in accepts:  # the game's names first: what the designer most often types next
        items += _names_here(head, vocab, verbs, bound, card_ids)
    literals = _literals()
    for term in sorted(accepts):
        word = literals.get(term)
        if word and word[0].isalpha():
            items.append(Item(word, "keyword"))
    return start, [it for it in _unique(items) if it.label.startswith(prefix)]


def _statement(head: str) -> list[str]:
    """The words of the statement being written (after its last ';', ':', '(' or 'and'; a menu's
    "; or" starts an option too)."""
    toks = _TOKENS.findall(head)
    for k in range(len(toks) - 1, -1, -1):
        if toks[k] in (";", ":", "(", "and"):
            rest = toks[k + 1:]
            return rest[1:] if rest[:1] == ["or"] else rest
    return toks


def _names_here(head: str, vocab: GameModel, verbs: dict, bound: list[str], card_ids) -> list[Item]:
    words = _statement(head)
    tail = " ".join(words[-4:])
    if not words:
        return _verbs(verbs)
    if re.search(r"\bwith icon( [a-z0-9_]+ or)*$", tail):  # the checker takes icon keys here
        return [Item(k, "name", f"icon {k}", describe_name(vocab, ICON, k)) for k in sorted(vocab.icons)]
    last = words[-1]
    if last in ("with", "without"):
        return [Item(f, "field", "card field or slot") for f in sorted(vocab.field_names)]
    if last == "matching":
        return [Item(b, "variable", "bound name") for b in bound]
    if last == "as":
        return []  # a new name: the designer's choice
    if words[-2:] == ["other", "than"]:
        return [Item(c, "card", "card id") for c in card_ids] + [Item(b, "variable", "bound name") for b in bound]
    if "until" in words and words[0] in verbs:
        return _category(vocab, PHASE)
    verb = verbs.get(words[0])
    cats = None
    if verb is not None:
        sig = verb.signature
        joined = " ".join(words[1:])
        slot = sig.obj
        best = -1
        for prep in _PHRASES:
            for m in re.finditer(rf"(?:^| ){re.escape(prep)}(?= |$)", joined):
                if m.start() > best and prep in sig.phrases:
                    best, slot = m.start(), sig.phrases[prep]
        if slot is not None:
            cats = list(slot.categories)
    if words[-1] in ("of", "in", "per"):
        cats = [THING, ZONE, CARD, PILE, PLAYER]
    items: list[Item] = []
    for cat in cats or (GOOD, THING, ZONE, CARD, PILE, PLAYER, ICON):
        if cat == VAR:
            continue
        items += _category(vocab, cat)
    if cats is None or VAR in cats or THING in cats or CARD in cats:
        items += [Item(b, "variable", "bound name") for b in bound]
    return items


def _category(vocab: GameModel, cat: str) -> list[Item]:
    """The game's names of one category, as written: a key's words, its aliases, the built-in nouns.
    The plurals the checker derives ("deployeds" of a thing ``deployed``, "states" of a zone each
    player has one of) are accepted in a text but never offered: they need not be words (issue 26)."""
    out = []
    written = vocab.written_names
    for phrase in vocab.names_in(cat):
        if phrase not in written:
            continue
        keys = [k for c, k in vocab.lookup(phrase) if c == cat]
        out.append(Item(phrase, "name", f"{CATEGORY_WORDS.get(cat, cat)} {keys[0] if keys else ''}".strip(),
                        describe_name(vocab, cat, keys[0]) if keys else ""))
    return out


def _verbs(verbs: dict) -> list[Item]:
    return [Item(name, "verb", v.template, f"{' '.join(v.doc.split())}\n\nexample: {v.example}".strip())
            for name, v in sorted(verbs.items())]


def _all_names(vocab: GameModel, verbs: dict, bound: list[str]) -> list[Item]:
    items = _verbs(verbs)
    for cat in (GOOD, THING, ZONE, CARD, PILE, PLAYER, ICON, PHASE):
        items += _category(vocab, cat)
    return _unique(items + [Item(b, "variable", "bound name") for b in bound])


def _unique(items: list[Item]) -> list[Item]:
    seen = set()
    out = []
    for it in items:
        if it.label not in seen:
            seen.add(it.label)
            out.append(it)
    return out


def describe_name(vocab: GameModel, cat: str, key: str) -> str:
    """A vocabulary entry in words: its printed name and note, from game.yaml."""
    if cat == PILE:
        key = key.split(":", 1)[-1]
        cat = ZONE
    if cat == PHASE:
        return f"phase '{key}'"
    section = {GOOD: vocab.goods, ZONE: vocab.zones, THING: vocab.things, ICON: vocab.icons,
               CARD: vocab.card_sources}.get(cat)
    spec = section.get(key) if section is not None else None
    if cat == GOOD and spec is None and key in vocab.good_groups:
        members = ", ".join(vocab.good_groups[key])
        return f"a choice among Goods: {members}"
    printed = spec.printed if spec is not None else vocab.players.get(key) if cat == PLAYER else None
    if printed is None:
        return ""
    parts = [printed.declared] if printed.declared else []
    if spec is not None and spec.note:
        parts.append(spec.note)
    return "\n\n".join(parts)


# --- outside effect texts ----------------------------------------------------------------------------

_KEY_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<word>[a-z0-9_]*)$")
_VALUE_LINE = re.compile(r"(?:^|[{,\[ ])(?P<key>[a-z_]+): *\[?(?:[a-z0-9_]+, *)*(?P<word>[a-z0-9_]*)$")


def yaml_completions(kind: str, line_text: str, col: int, card: dict | None, card_col: int | None,
                     vocab: GameModel | None, card_ids: list[str], faces: dict | None = None) -> tuple[int, list[Item]]:
    """As ``_yaml_completions``, keeping the items that start with the word being typed."""
    start, items = _yaml_completions(kind, line_text, col, card, card_col, vocab, card_ids, faces or {})
    word = line_text[start:col]
    return start, [it for it in items if it.label.startswith(word)]


def _yaml_completions(kind: str, line_text: str, col: int, card: dict | None, card_col: int | None,
                      vocab: GameModel | None, card_ids: list[str], faces: dict) -> tuple[int, list[Item]]:
    """Completion in a module or scenario outside effect texts: keys of the card being written
    (fields, slots, faces of its kind), the module's own keys, card kinds after ``kind:``, card ids
    after ``card:``, slot names after ``slot:``. (start of the word, items)."""
    before = line_text[:col]
    m = _VALUE_LINE.search(before)
    if m is not None:
        start = col - len(m.group("word"))
        key = m.group("key")
        if key == "kind" and vocab is not None and kind == "module":
            return start, [Item(k, "kind", spec.declared or k) for k, spec in sorted(vocab.kinds.items())]
        zones = vocab.zones if vocab is not None else {}
        if kind == "scenario" and (key == "card" or key in zones):  # a step's card, a zone's cards
            return start, [Item(c, "card", "card id") for c in card_ids]
        if key == "slot" and vocab is not None:
            return start, [Item(s, "slot", "effect slot") for s in vocab.slot_keys]
        return start, []
    m = _KEY_LINE.match(before)
    if m is None or kind != "module":
        return col, []
    start = col - len(m.group("word"))
    at = len(m.group("indent")) + len(m.group("dash") or "")
    if at == 0:
        return start, [Item(k, "field", "module field") for k in MODULE_KEYS]
    if vocab is None:
        return start, []
    if card is not None and card_col is not None and (at == card_col or m.group("dash")):
        names = card_keys(vocab, card.get("kind") if not m.group("dash") else None)
        present = set(card) if not m.group("dash") else set()
        return start, [it for it in names if it.label not in present]
    if card is not None and faces:  # a key inside a face ("hacked:") of the card: the nearest above
        face = max((f for f, (_, fcol) in faces.items() if fcol == at), key=lambda f: faces[f][0], default=None)
        if face is not None:
            present = set(card.get(face) or {})
            return start, [it for it in face_keys(vocab, card.get("kind"), face) if it.label not in present]
    return start, []


def face_keys(vocab: GameModel, kind, face: str) -> list[Item]:
    """The keys a card's face may have: its effect slots and fields, as the kind declares them."""
    kspec = vocab.kinds.get(kind) if isinstance(kind, str) else None
    spec = kspec.face(face) if kspec is not None else None
    if spec is None:
        return []
    items = [Item(sl.key, "slot", f"effect slot of the {face} face", sl.declared or "") for sl in spec.slots]
    items += [Item(f.key, "field", f"field of the {face} face") for f in spec.fields]
    return items


def card_keys(vocab: GameModel, kind) -> list[Item]:
    """Every key a card of ``kind`` may have (of any kind when it is not known yet)."""
    kinds = [kind] if isinstance(kind, str) and kind in vocab.kinds else list(vocab.kinds)
    items = [Item(f, "field", "card field") for f in COMMON_FIELDS]
    for k in kinds:
        spec = vocab.kinds[k]
        items += [Item(sl.key, "slot", f"effect slot of {k}", sl.declared or "") for sl in spec.slots]
        items += [Item(f.key, "field", f"field of {k}", f.type if isinstance(f.type, str) else "")
                  for f in spec.fields]
        items += [Item(f.key, "field", f"face of {k}") for f in spec.faces]
    return _unique(items)
