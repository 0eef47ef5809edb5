"""Infernal Contraption's ``sockets`` card field type (runtime/fieldtypes.py): four sockets, left,
right, top and bottom, each a socket type from game.yaml's ``tables.sockets``.

The engine lists it in ``InfernalContraption.field_types``; the compiler takes the card schema from
it, the rules reference each card's socket box and the socket legend, the card sheets the rings on
a card's edges. Matching sockets in play is the machine's (machine.py). Every text from the
data (a socket's name, letter or note) is escaped by runtime/escape.py; a colour is used only when
escape.css_colour accepts it.
"""
from __future__ import annotations

from typing import Any

from runtime.fieldtypes import FieldType, Legend, Shown
from runtime.model import model_of
from runtime.words import title

from .machine import DRAWN_SIDES, SIDES

# the renderers (runtime.escape, socketsvg.py) are imported by the methods that draw: playing a game
# imports the engine, and needs none of them
TABLE = "sockets"  # game.yaml's tables.sockets: socket type -> {name, letter, colour, note}


class SocketsField(FieldType):
    name = "sockets"
    description = "Four sockets (left, right, top, bottom), each a socket type from tables.sockets."
    tables = frozenset({TABLE})
    css = (".card .socketbox { float: right; margin: 0 0 1mm 2mm; text-align: center; font-size: 7pt; }\n"
           ".card .socketbox ul { list-style: none; padding: 0; margin: 0.5mm 0 0; text-align: left; line-height: 1.25; }\n"
           "svg.sockets { display: block; width: 30mm; height: auto; margin: 0 auto; }\n"
           ".legend svg.socket { width: 8mm; display: inline-block; vertical-align: middle; }\n")
    face_css = (".face.has-sockets .frame { padding: 3.6mm 3.6mm 3.8mm; }\n"
                ".face svg.sockets { position: absolute; left: 0; top: 0; }\n")

    # --- the schema ------------------------------------------------------------------------------
    @staticmethod
    def socket_table(vocab: dict) -> dict:
        return dict(model_of(vocab).table(TABLE) or {})

    def schema(self, vocab: dict) -> dict:
        sockets = sorted(self.socket_table(vocab)) or None
        item = {"enum": sockets} if sockets else {"type": "string"}
        return {"type": "object", "additionalProperties": False, "required": ["left", "right", "top", "bottom"],
                "properties": {s: item for s in ("left", "right", "top", "bottom")}}

    def names(self, vocab: dict) -> dict[str, str]:
        return {k: ((v or {}).get("name") or k) if isinstance(v, dict) or v is None else k
                for k, v in self.socket_table(vocab).items()}

    # --- one socket ------------------------------------------------------------------------------
    def letter(self, vocab: dict, key: str) -> str:
        spec = self.socket_table(vocab).get(key) or {}
        if spec.get("letter"):
            return str(spec["letter"])
        name = spec.get("name") or title(key)
        return "".join(w[0] for w in name.split()[:2]).upper()

    def socket(self, vocab: dict, key: Any) -> dict:
        spec = self.socket_table(vocab).get(key) or {}
        return {"key": key, "name": spec.get("name") or title(str(key)), "letter": self.letter(vocab, key),
                "colour": spec.get("colour")}

    # --- a card's sockets ------------------------------------------------------------------------
    def view(self, value: Any, vocab: dict) -> dict | None:
        """{"sides": {side: {key, name, letter, colour}}} for the sides the card names."""
        if not isinstance(value, dict):
            return None
        return {"sides": {side: self.socket(vocab, value[side]) for side in DRAWN_SIDES if value.get(side) is not None}}

    def html(self, shown: Shown) -> str:
        from runtime.escape import html as escape_html

        from .socketsvg import socket_svg

        sides = shown.view["sides"]
        mark = {"provisional": '<span class="mark" title="">†</span>',
                "uncertain": '<span class="mark" title="">?</span>'}.get(shown.mark, "")
        items = "".join(f"<li>{side.capitalize()}: {escape_html(sides[side]['name'])}</li>" for side in DRAWN_SIDES
                        if side in sides)
        return f'  <div class="socketbox">{socket_svg(sides)}{mark}    <ul>{items}</ul>\n  </div>\n'

    def md(self, shown: Shown) -> str:
        from runtime.escape import md as escape_md

        sides = shown.view["sides"]
        parts = " · ".join(f"{side} {escape_md(sides[side]['name'])} [{escape_md(sides[side]['letter'])}]"
                           for side in SIDES if side in sides)  # along the main line first
        mark = {"provisional": " †", "uncertain": " ?"}.get(shown.mark, "")
        return f"- **{escape_md(shown.label)}:** {parts}{mark}\n"

    def text(self, shown: Shown) -> str:
        sides = shown.view["sides"]
        return " · ".join(f"{side.capitalize()} {sides[side]['name']}" for side in DRAWN_SIDES if side in sides)

    def face(self, shown: Shown, size: dict) -> str:
        from .socketsvg import face_svg

        return face_svg(shown.view["sides"], size["w"], size["h"])

    # --- the legend ------------------------------------------------------------------------------
    def legend(self, vocab: dict) -> list[dict] | None:
        return [{**self.socket(vocab, key), "note": (spec or {}).get("note")}
                for key, spec in self.socket_table(vocab).items()] or None

    def legend_title(self, vocab: dict) -> str:
        return "Socket legend"

    def legend_html(self, legend: Legend) -> str:
        from runtime.escape import html as escape_html

        from .socketsvg import socket_disc_svg

        rows = "".join(f"<tr><td>{socket_disc_svg(s)}</td><td><b>{escape_html(s['letter'])}</b> — "
                       f"{escape_html(s['name'])}</td><td>{escape_html(s['note'] or '')}</td></tr>" for s in legend.view)
        return (f"<h3>{escape_html(legend.title)}</h3>\n"
                '<table class="legend"><thead><tr><th>Socket</th><th>Name</th><th>Note</th></tr></thead><tbody>\n'
                f"{rows}</tbody></table>\n"
                "<p class=\"note\">Cards show their four sockets as circles on the card's edges; a dashed circle is "
                "Universal. Two cards attach only where the touching sockets match or one of them is Universal.</p>\n")

    def legend_md(self, legend: Legend) -> str:
        from runtime.escape import md as escape_md

        rows = "".join(f"| {escape_md(s['letter'])} | {escape_md(s['name'])} | {escape_md(s['note'] or '')} |\n"
                       for s in legend.view)
        return f"\n### {escape_md(legend.title)}\n\n| Letter | Socket | Note |\n|---|---|---|\n{rows}"


SOCKETS = SocketsField()

__all__ = ["SOCKETS", "SocketsField"]
