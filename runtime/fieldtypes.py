"""Card field types an engine adds to its games' vocabulary (DESIGN §9: what belongs to one game
reaches the compiler and the reference through hooks its engine declares).

A field of a card kind in game.yaml is a core shorthand (``int``, ``str``, ``goods``, ``icons`` …,
compiler/schema.py), a JSON-Schema fragment, or the name of a field type that the game's engine
declares in its class table ``Engine.field_types`` (Infernal Contraption's ``sockets``:
runtime/games/infernal_contraption/fields.py). A :class:`FieldType` says, for one such type:

- ``schema(vocab)``: the JSON-Schema fragment of a value (the per-game card schema, the exported
  editor schema and the language server's completions are all made from it);
- ``names(vocab)``: the printed names of the values that schema enumerates (the exported schema's
  ``enumDescriptions``);
- ``view(value, vocab)``: what the reference and the card sheets show of one card's value, as plain
  data (a dict the renderers below read, and tests too);
- ``html`` / ``md``: that view in the rules reference (a card's box in HTML, a line in Markdown);
- ``face``: that view drawn on a card sheet's face, given the card's size;
- ``legend(vocab)``, ``legend_html`` / ``legend_md``: the game-wide section it adds to the reference
  (a legend of the values), and ``tables``: the game.yaml tables that section shows (so the generic
  table list leaves them out);
- ``css`` / ``face_css``: the stylesheet rules its pieces need (the reference's, the sheets').

Every method has a neutral default (no schema constraint, nothing shown). Whatever a renderer writes
goes through runtime/escape.py: a name or note from a data file is text, never markup. The
renderers are given views, never raw YAML, so the playtesters' copy of a reference (which drops file
paths from prose) applies to them too.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .registry import engine_named, engine_of


@dataclass
class Shown:
    """One card's value of an engine field type, as the reference and the card sheets show it."""
    engine: str  # the engine that declares the type
    type: str  # the field type's name ("sockets")
    field: str  # the card's field key
    label: str  # the field's printed label
    mark: str  # "provisional" | "uncertain" | ""
    view: Any  # FieldType.view's plain data


@dataclass
class Legend:
    """A game-wide section of the reference that an engine field type adds (a legend of its values)."""
    engine: str
    type: str
    title: str
    view: Any  # FieldType.legend's plain data


class FieldType:
    """A card field type an engine declares; subclass it and list an instance in ``Engine.field_types``."""
    name: str = ""
    description: str = ""  # one line for designers: what a value of this type is
    tables: frozenset[str] = frozenset()  # game.yaml tables the type's legend shows
    css: str = ""  # rules added to the reference's stylesheet where the type is used
    face_css: str = ""  # rules added to the card sheets' stylesheet where the type is used

    def schema(self, vocab: dict) -> dict:
        """The JSON Schema of one value, given game.yaml's data. Default: any value."""
        return {}

    def names(self, vocab: dict) -> dict[str, str]:
        """Printed names of the values ``schema`` enumerates (value -> name). Default: none."""
        return {}

    def view(self, value: Any, vocab: dict) -> Any:
        """What the reference and the sheets show of one card's value (plain data), or None: nothing."""
        return None

    def html(self, shown: Shown) -> str:
        """The value in a card of the HTML reference (escaped markup). Default: nothing."""
        return ""

    def md(self, shown: Shown) -> str:
        """The value in a card of the Markdown reference (escaped). Default: nothing."""
        return ""

    def face(self, shown: Shown, size: dict) -> str:
        """The value drawn on a card sheet's face (escaped markup); ``size`` has ``w``/``h`` in mm."""
        return ""

    def text(self, shown: Shown) -> str:
        """The value in words (plain text, escaped by the template), printed on a face that has no
        effect text, so a card that is only its drawing still says what it is. Default: nothing."""
        return ""

    def legend(self, vocab: dict) -> Any:
        """The game-wide section's plain data, or None: the type adds no section."""
        return None

    def legend_title(self, vocab: dict) -> str:
        return self.name

    def legend_html(self, legend: Legend) -> str:
        return ""

    def legend_md(self, legend: Legend) -> str:
        return ""


def field_types_of(vocab: dict) -> dict[str, FieldType]:
    """The field types a game's engine adds to its vocabulary (game.yaml's data): name -> FieldType."""
    return engine_of(vocab).field_types


def field_type(engine: str, name: str) -> FieldType:
    """The field type ``name`` of the engine ``engine`` (views carry the two names, not the object)."""
    return engine_named(engine).field_types[name]


__all__ = ["FieldType", "Legend", "Shown", "field_type", "field_types_of"]
