"""Diagnostics: what every stage returns instead of raising or printing.

A diagnostic names the file, line and column (1-based, as editors count), the card when there is
one, a stable code, the message in a designer's words, and an optional hint ("did you mean").
``render`` adds the source line with a caret, so the designer sees exactly where.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

# Stable codes. The first digit says the stage: 1 loading, 2 names/vocabulary, 3 effect syntax and
# signatures, 4 schema, 5 build/emit, 6 maps, 7 scenarios, 8 printing. Never renumber: designers search for them.
CODES = {
    "E101": "file cannot be read",
    "E102": "file is not valid UTF-8",
    "E103": "malformed YAML",
    "E104": "duplicate key",
    "E105": "anchors and aliases are not allowed",
    "E106": "file is empty",
    "E107": "file too large",
    "E108": "unsupported YAML tag",
    "E109": "a number cardwright cannot use (not finite, or too many digits)",
    "E110": "not a regular file",
    "E201": "unknown name",
    "E202": "duplicate id",
    "E203": "unknown card kind",
    "E204": "unknown effect slot for this kind of card",
    "E205": "name used in the wrong role",
    "E206": "unknown reference",
    "E207": "names a pile an effect may not target (your own)",
    "E211": "two icons print alike (same letter and shape)",
    "E213": "a trigger slot that listens in no zone (a warning)",
    "E214": "a card no setup step creates (a warning)",
    "E212": "an image cannot be embedded (missing, outside the game folder, or remote)",
    "E301": "effect syntax error",
    "E302": "unknown verb",
    "E303": "statement does not fit the verb",
    "E304": "misplaced statement",
    "E305": "unknown variable",
    # E306–E310: the checker's (the language work); registered here so every code has a meaning
    "E306": "the verb would ignore part of the text",
    "E307": "a menu that cannot offer a choice",
    "E308": "division by zero",
    "E309": "the verb needs a rule the game does not declare",
    "E310": "a trigger in the wrong place",
    "E311": "a quantity was expected",
    "E320": "number too large",
    "E401": "schema violation",
    "E501": "generated code failed to compile",
    "E502": "cannot write output",
    "E503": "two module files compile to the same Python module",
    "E504": "a card template cannot be rendered",
    "E601": "map error",
    "E701": "scenario error",
    "E702": "scenario expectation failed",
    "E801": "card text does not fit on the printed card",
}


MAX_SHOWN = 100  # characters of a source line shown under a diagnostic


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str | None = None
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based
    length: int = 1
    card: str | None = None
    path: str | None = None  # location inside the document, e.g. "cards[3].assault"
    hint: str | None = None
    severity: str = "error"
    source_line: str | None = field(default=None, compare=False)

    @property
    def location(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def headline(self) -> str:
        # a warning says so: the exit code alone does not tell a designer which lines to act on first
        tag = "" if self.severity == "error" else f"{self.severity} "
        text = f"{self.location}: {tag}{self.code} {self.message}"
        if self.card:
            text += f" in card '{self.card}'"
        if self.hint:
            text += f" ({self.hint})"
        return text

    def render(self) -> str:
        """The headline, then the source line with a caret under the offending text."""
        lines = [self.headline()]
        if self.path:
            lines.append(f"    at {self.path}")
        if self.source_line is not None and self.column is not None:
            src = self.source_line.rstrip("\n")
            col = self.column
            if len(src) > MAX_SHOWN:  # a window around the caret, so a 20 MB line never floods the terminal
                start = max(0, min(col - 1 - MAX_SHOWN // 2, len(src) - MAX_SHOWN))
                src = ("…" if start else "") + src[start:start + MAX_SHOWN] + \
                    ("…" if start + MAX_SHOWN < len(src) else "")
                col = col - start + (1 if start else 0)
            lines.append("    " + src)
            caret_len = max(1, min(self.length, max(1, len(src) - col + 1)))
            lines.append("    " + " " * (col - 1) + "^" * caret_len)
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "card": self.card,
            "path": self.path,
            "hint": self.hint,
        }


class Diagnostics(list):
    """A list of diagnostics with helpers; stages append, the CLI prints."""

    def error(self, code: str, message: str, **kw) -> Diagnostic:
        d = Diagnostic(code, message, **kw)
        self.append(d)
        return d

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self if d.severity == "error"]

    def sorted(self) -> list[Diagnostic]:
        return sorted(self, key=lambda d: (d.file or "", d.line or 0, d.column or 0, d.code, d.message))


def display_path(path: Path | str) -> str:
    """Paths in messages are relative to the current folder when possible: stable and short.

    Only the folder is resolved, never the file itself: a symbolic link is named as the designer
    named it (a dangling link under its own name, not its missing target's), and a link in a loop
    cannot make resolving fail.
    """
    p = Path(path)
    try:
        full = Path(os.path.realpath(p.parent)) / p.name if p.name else Path(os.path.realpath(p))
        return full.relative_to(Path(os.path.realpath(Path.cwd()))).as_posix()
    except (ValueError, OSError):
        return p.as_posix()
