"""What a card's page shows besides its face: its YAML with line numbers, its effects in English, the
Python compiled from it, the scenario and flow lines that name it, and its figures from the studio's
last simulation of its game. Every piece is read from the build (or the file the build read), never
re-derived here; the page template escapes all of it.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from compiler.codegen import identifier

from .workspace import CardInfo, Clean


@dataclass
class Mention:
    file: str  # path inside the game folder
    line: int
    text: str


@dataclass
class CardPage:
    yaml: list[tuple[int, str]]  # (line number, text) of the card's record in its file
    python: str | None  # the generated functions of its effect slots (last clean build)
    mentions: list[Mention] = field(default_factory=list)
    balance: dict | None = None  # the card's figures in the last simulation of its game


def yaml_lines(card: CardInfo) -> list[tuple[int, str]]:
    try:
        lines = card.path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [(n, lines[n - 1]) for n in range(card.first, min(card.last, len(lines)) + 1)]


def generated_python(clean: Clean | None, card: CardInfo) -> str | None:
    """The functions generated for the card's slots (named ``<card>__<slot>`` in its module)."""
    if clean is None:
        return None
    src = clean.result.outputs.get(f"{card.game}/{identifier(card.module)}.py")
    if src is None:
        return None
    prefix = identifier(card.id) + "__"
    tree = ast.parse(src)
    parts = [ast.get_source_segment(src, node) for node in tree.body
             if isinstance(node, ast.FunctionDef) and node.name.startswith(prefix)]
    return "\n\n\n".join(p for p in parts if p) or None


def mentions(folder: Path, card: CardInfo, limit: int = 50) -> list[Mention]:
    """Lines of the game's scenarios and of its game.yaml (the flow, the setup, the bots) that name the
    card by its id or its printed name, as whole words."""
    words = [re.escape(card.id)] + ([re.escape(card.name)] if card.name and card.name != card.id else [])
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(words) + r")(?![\w])")
    files = [folder / "game.yaml"] + sorted((folder / "scenarios").glob("*.yaml"))
    found: list[Mention] = []
    for f in files:
        if f.is_symlink() or not f.is_file():
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                found.append(Mention(f.relative_to(folder).as_posix(), n, line.strip()[:200]))
                if len(found) >= limit:
                    return found
    return found


def balance_of(report: dict | None, card_id: str) -> dict | None:
    """The card's row of a simulation report, with its effect against its peers where there is one."""
    if not report:
        return None
    row = next((c for c in report.get("cards", []) if c.get("id") == card_id), None)
    if row is None:
        return None
    effects = {kind: per[card_id] for kind, per in (report.get("card_effects") or {}).items() if card_id in per}
    return {"row": row, "effects": effects, "games": report.get("games"), "agent": report.get("agent"),
            "seed": report.get("seed"), "players": report.get("players")}


def card_page(card: CardInfo, folder: Path, clean: Clean | None, report: dict | None) -> CardPage:
    return CardPage(yaml_lines(card), generated_python(clean, card), mentions(folder, card),
                    balance_of(report, card.id))
