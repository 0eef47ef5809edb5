"""Hover, go to definition, references and did-you-mean fixes, protocol-free.

- Hover on an effect text: the English the reference prints for it and the Python it compiles to
  (compiler/explain.py's path, so exactly what `cardwright explain` shows); on a name in it, the
  vocabulary entry first (printed name, note, where game.yaml declares it); on a verb, its
  signature and description from the verb registry.
- Definition: a vocabulary name (in an effect text, or the value of ``kind:``) goes to its
  declaration in game.yaml; a card id (``other than <card>``, a scenario's ``card:``) to the card.
- References of a card id: its declaration and every place that names it — effect texts ("other
  than oil_rig"), scenario values (``card: oil_rig``, zone lists) — across the game's files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from runtime.model import GameModel
from runtime.refs import CARD, GOOD, ICON, PHASE, PILE, PLAYER, THING, ZONE

from ..build import _PREFIX
from ..diagnostics import Diagnostics
from ..loader import Document
from .checking import GameContext, load_buffer, problems_of
from .complete import CATEGORY_WORDS, describe_name
from .locate import EffectAt

_WORDS = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Place:
    """A range in a file: 0-based line, start and end columns (characters)."""

    path: Path
    line: int
    col: int
    end: int


@dataclass(frozen=True)
class NameAt:
    start: int  # offsets in the effect text
    end: int
    phrase: str
    entries: tuple  # ((category, key), …) from the vocabulary


def name_at(text: str, offset: int, vocab: GameModel) -> NameAt | None:
    """The longest vocabulary phrase of ``text`` (up to four words) that holds the cursor's word."""
    words = [(m.start(), m.end(), m.group()) for m in _WORDS.finditer(text.lower())]
    here = next((k for k, (s, e, _) in enumerate(words) if s <= offset <= e), None)
    if here is None:
        return None
    for size in range(4, 0, -1):
        for first in range(max(0, here - size + 1), here + 1):
            span = words[first:first + size]
            if len(span) < size:
                continue
            phrase = " ".join(w for _, _, w in span)
            entries = vocab.lookup(phrase)
            if entries:
                return NameAt(span[0][0], span[-1][1], phrase, tuple(entries))
    return None


def declaration(ctx: GameContext, category: str, key: str) -> tuple[int, int, int] | None:
    """(line, column, length) in game.yaml of where a vocabulary entry is declared."""
    gdoc = ctx.gdoc
    if gdoc is None:
        return None
    if category == PILE:
        category, key = ZONE, key.split(":", 1)[-1]
    sections = {GOOD: ("goods", "good_groups"), ZONE: ("zones",), THING: ("things",), ICON: ("icons",),
                PLAYER: ("players",), CARD: ("card_sources",)}
    for section in sections.get(category, ()):
        kp = gdoc.key_positions.get((section, key))
        if kp is not None:
            return kp.line, kp.column, len(key)
    if category == PHASE:
        for i, ph in enumerate(gdoc.data.get("phases") or ()):
            if ph == key or (isinstance(ph, dict) and ph.get("id") == key):
                pos = gdoc.positions.get(("phases", i) if ph == key else ("phases", i, "id"))
                if pos is not None:
                    return pos.line, pos.column, len(key)
    return None


def kind_declaration(ctx: GameContext, kind: str) -> tuple[int, int, int] | None:
    kp = ctx.gdoc.key_positions.get(("card_kinds", kind)) if ctx.gdoc is not None else None
    return (kp.line, kp.column, len(kind)) if kp is not None else None


def describe_entry(ctx: GameContext, category: str, key: str) -> str:
    """Markdown for one vocabulary entry: what it is, its printed name and note, where declared."""
    vocab = ctx.vocab
    lines = [f"**{key}** — {CATEGORY_WORDS.get(category, category)}"]
    text = describe_name(vocab, category, key)
    if text:
        lines.append(text)
    at = declaration(ctx, category, key)
    if at is not None:
        lines.append(f"declared in game.yaml, line {at[0] + 1}")
    elif category in (CARD, PLAYER, ICON, GOOD):
        lines.append("built into every game")
    return "\n\n".join(lines)


def describe_verb(verb) -> str:
    doc = " ".join((verb.doc or "").split())
    parts = [f"**{verb.name}** — verb: `{verb.template}`", doc, f"example: `{verb.example}`"]
    return "\n\n".join(p for p in parts if p)


def hover_effect(ctx: GameContext, eff: EffectAt, card_ids: frozenset) -> str:
    """Markdown for the effect under the cursor (and the word under it)."""
    parts = []
    name = name_at(eff.text, eff.offset, ctx.vocab)
    words = [m for m in _WORDS.finditer(eff.text.lower()) if m.start() <= eff.offset <= m.end()]
    if words and words[0].group() in ctx.verbs and _starts_statement(eff.text.lower(), words[0].start()):
        parts.append(describe_verb(ctx.verbs[words[0].group()]))
    elif name is not None:
        parts += [describe_entry(ctx, cat, key) for cat, key in name.entries]
    elif words:
        bound = describe_bound(eff.text, words[0].group())
        if bound:
            parts.append(bound)
    parts.append(effect_summary(ctx, eff.text, eff.slot_kind, eff.card is not None, card_ids))
    return "\n\n---\n\n".join(parts)


def describe_bound(text: str, word: str) -> str | None:
    """A name the text binds (``choose … as c``, ``for each … as l``, ``reveal … as r``): what it holds."""
    for m in re.finditer(r"(?:^|[;:(]|\band\b)\s*(?P<what>[^;:()]*?)\s+as\s+(?P<name>[a-z][a-z0-9_]*)\b", text.lower()):
        if m.group("name") == word:
            return f"**{word}** — a name this effect binds: `{m.group('what').strip()} as {word}`"
    if word == "it" and re.search(r"\bfor\s+each\b", text.lower()):
        return "**it** — the thing a `for each` without `as` is at"
    return None


def verb_source(ctx: GameContext, text: str, offset: int) -> Place | None:
    """Where the runtime function of the verb under the cursor is defined (a verb is one function)."""
    import inspect

    words = [m for m in _WORDS.finditer(text.lower()) if m.start() <= offset <= m.end()]
    if not words or words[0].group() not in ctx.verbs or not _starts_statement(text.lower(), words[0].start()):
        return None
    fn = inspect.unwrap(ctx.verbs[words[0].group()].fn)
    try:
        lines, first = inspect.getsourcelines(fn)
        path = Path(inspect.getsourcefile(fn))
    except (OSError, TypeError):
        return None
    at = next((k for k, ln in enumerate(lines) if ln.lstrip().startswith("def ")), 0)
    line = lines[at]
    col = line.index("def ") + 4
    return Place(path, first - 1 + at, col, col + len(fn.__name__))


def _starts_statement(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before[-1] in ";:(" or before.endswith(" and") or before == "and" or \
        before.endswith("; or")


def effect_summary(ctx: GameContext, text: str, slot_kind: str, has_card: bool, card_ids: frozenset) -> str:
    """The English and the generated Python of one effect text, or a word that it has errors.

    The text goes the way compiler/build.py's _compile_slot takes a card's slot (the game's checker,
    the slot's kind, the card ids, the same ModuleWriter function), so the Python shown is the
    function `cardwright compile` writes for it, less the module around it."""
    from ..codegen import ModuleWriter
    from ..english import render_effect
    from ..parser import parse_effect

    problems = problems_of(ctx, text, slot_kind, has_card, card_ids)
    if problems:
        n = len(problems)
        return f"This effect has {n} error{'s' if n != 1 else ''} (see the diagnostics): no English or Python yet."
    effect, _ = parse_effect(_PREFIX.get(slot_kind, "") + text)
    ctx.checker.card_ids = card_ids
    checked = ctx.checker.check(effect, lambda *args: None, kind=slot_kind, has_card=has_card)
    mw = ModuleWriter("<hover>")
    if slot_kind == "condition":
        mw.condition_function("slot", checked.ir, "<hover>", text, model=ctx.vocab)
    else:
        mw.effect_function("slot", checked.ir, "<hover>", text, model=ctx.vocab)
    english = render_effect(checked.ir, ctx.vocab, kind=slot_kind)
    return f"**English:** {english}\n\n**Python:**\n\n```python\n{_function_only(mw.render([]))}\n```"


def _function_only(source: str) -> str:
    """The generated module less its header, docstring, import and line map: constants and function."""
    keep = []
    for ln in source.splitlines():
        if ln.startswith(("#", '"""', "from ", "import ", "LINE_MAP")):
            continue
        keep.append(ln)
    return "\n".join(keep).strip("\n")


# --- card ids -------------------------------------------------------------------------------------


def card_declarations(project, game_dir: Path) -> dict[str, Place]:
    """Card id -> where its ``id:`` is written, over the game's modules (the first place wins)."""
    out: dict[str, Place] = {}
    for p in project.modules_of(game_dir):
        for cid, line, col in project.cards_of(p):
            if cid not in out:
                out[cid] = Place(p, line, col, col + len(cid))
    return out


def describe_card(project, place: Place, card_id: str) -> str:
    """Markdown for a card id: its printed name and kind, and where it is written."""
    from ..diagnostics import display_path

    doc = _doc(project, place.path)
    card = {}
    cards = doc.data.get("cards") if doc is not None and isinstance(doc.data, dict) else None
    for c in cards if isinstance(cards, list) else ():
        if isinstance(c, dict) and c.get("id") == card_id:
            card = c
            break
    head = f"**{card_id}** — card" + (f": {card['name']}" if isinstance(card.get("name"), str) else "")
    kind = f"kind `{card['kind']}`" if isinstance(card.get("kind"), str) else ""
    return "\n\n".join(x for x in (head, kind, f"{display_path(place.path)}, line {place.line + 1}") if x)


def _doc(project, path: Path) -> Document | None:
    checked = project.checked.get(path)
    if checked is not None and checked.doc is not None and path in project.buffers:
        return checked.doc
    text = project.text_of(path)
    return load_buffer(path, text, Diagnostics()) if text is not None else None


def references(project, game_dir: Path, card_id: str) -> list[Place]:
    """Every place in the game's modules and scenarios that names the card ``card_id``."""
    out: list[Place] = []
    files = list(project.modules_of(game_dir)) + sorted((game_dir / "scenarios").glob("*.yaml"))
    words = card_id.replace("_", " ")
    rx = re.compile(rf"other\s+than\s+({re.escape(card_id)}|{re.escape(words)})(?![a-z0-9_])", re.IGNORECASE)
    for p in files:
        doc = _doc(project, p)
        if doc is None:
            continue
        for path, t in dict.items(doc.positions):
            if len(t) < 5:
                continue
            value = doc.get(path)
            if not isinstance(value, str):
                continue
            if value == card_id and (path[-1] in ("id", "card", "as") or isinstance(path[-1], int)):
                if t[0] == t[2]:
                    col = t[1] + (1 if t[4] in ("'", '"') else 0)
                    out.append(Place(p, t[0], col, col + len(card_id)))
                continue
            for m in rx.finditer(value):
                line, col, _ = doc.where(path, m.start(1))
                out.append(Place(p, line - 1, col - 1, col - 1 + len(m.group(1))))
    return sorted(set(out), key=lambda pl: (str(pl.path), pl.line, pl.col))


_HINT = re.compile(r"did you mean '([^']+)'\?")


def replacement(hint: str | None) -> str | None:
    """The name a "did you mean 'X'?" hint offers."""
    m = _HINT.search(hint or "")
    return m.group(1) if m else None
