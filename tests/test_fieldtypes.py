"""Engine field types (runtime/fieldtypes.py) are generic: a tiny test game whose test engine declares
its own ``dial`` field type gets that type's schema check, its exported enum descriptions, its box in
the rules reference, its legend and its drawing on card sheets — with no line of the compiler naming
it. Infernal Contraption's sockets are the bundled user (tests/infernal_contraption/test_fields.py)."""
from __future__ import annotations

import textwrap

import pytest

from compiler.build import compile_tree
from compiler.cardsheet import SheetSpec, deck, fit, render_sheets
from runtime.escape import html as escape_html
from runtime.escape import md as escape_md
from compiler.reference import game_view, render_game
from compiler.schemaexport import game_module_schema
from runtime.engine import ENGINES, Engine
from runtime.fieldtypes import FieldType, Legend, Shown


class DialField(FieldType):
    """A dial set to one of the game's ``tables.dials`` positions."""
    name = "dial"
    description = "A dial position from tables.dials."
    tables = frozenset({"dials"})
    css = ".dialbox { font-weight: bold; }\n"
    face_css = ".face .dial { position: absolute; right: 0; }\n"

    def schema(self, vocab):
        return {"enum": sorted((vocab.get("tables") or {}).get("dials") or {})}

    def names(self, vocab):
        return {k: v["name"] for k, v in ((vocab.get("tables") or {}).get("dials") or {}).items()}

    def view(self, value, vocab):
        return {"key": value, "name": self.names(vocab)[value]}

    def html(self, shown: Shown) -> str:
        return f'<p class="dialbox">{escape_html(shown.label)}: {escape_html(shown.view["name"])}</p>\n'

    def md(self, shown: Shown) -> str:
        return f"- {escape_md(shown.label)} at {escape_md(shown.view['name'])}\n"

    def face(self, shown: Shown, size: dict) -> str:
        return f'<div class="dial" style="width: {size["w"] / 4}mm">{escape_html(shown.view["name"])}</div>\n'

    def legend(self, vocab):
        return sorted(self.names(vocab).values())

    def legend_title(self, vocab):
        return "Dial positions"

    def legend_html(self, legend: Legend) -> str:
        return f"<h3>{escape_html(legend.title)}</h3>\n<p>{escape_html(', '.join(legend.view))}</p>\n"

    def legend_md(self, legend: Legend) -> str:
        return f"\n### {escape_md(legend.title)}\n\n{escape_md(', '.join(legend.view))}\n"


class DialEngine(Engine):
    name = "dial_test"
    field_types = {"dial": DialField()}


GAME = textwrap.dedent("""\
    game: dials
    name: Dials
    engine: dial_test
    source: example
    goods:
      fuel: {name: Fuel}
    zones:
      hand: {per: player}
    card_kinds:
      gadget:
        slots:
          effect: {name: Effect}
        fields:
          setting: dial
          power: int
    tables:
      dials:
        low: {name: Low}
        high: {name: "<High>"}
    """)
CARDS = textwrap.dedent("""\
    name: Gadgets
    cards:
      - id: lamp
        kind: gadget
        name: Lamp
        source: example
        setting: high
        power: 2
        effect: gain 1 fuel
    """)


@pytest.fixture
def dial_engine(monkeypatch):
    monkeypatch.setitem(ENGINES, "dial_test", DialEngine())


@pytest.fixture
def dial_data(tmp_path, dial_engine):
    game = tmp_path / "data" / "dials"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME, encoding="utf-8")
    (game / "gadgets.yaml").write_text(CARDS, encoding="utf-8")
    return tmp_path / "data"


def _build(data):
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags.errors]
    return result


def test_the_engine_type_is_shown_in_the_reference(dial_data):
    view = game_view(_build(dial_data), "dials")
    [card] = view.modules[0].cards
    assert [f.label for f in card.fields] == ["Power"]  # the dial is the type's, not a plain field
    [shown] = card.engine_fields
    assert (shown.engine, shown.type, shown.field, shown.view) == ("dial_test", "dial", "setting",
                                                                    {"key": "high", "name": "<High>"})
    assert view.legends == [Legend("dial_test", "dial", "Dial positions", ["<High>", "Low"])]
    assert not any(t.title == "Dials" for t in view.tables)  # tables.dials is the legend's
    assert view.css == [".dialbox { font-weight: bold; }\n"]
    html = render_game(view, "html", {})
    assert '<p class="dialbox">Setting: &lt;High&gt;</p>' in html and "<High>" not in html
    assert "<h3>Dial positions</h3>\n<p>&lt;High&gt;, Low</p>" in html
    assert ".dialbox { font-weight: bold; }" in html
    md = render_game(view, "md", {})
    assert "- Setting at &lt;High&gt;\n" in md and "### Dial positions" in md


def test_the_engine_type_is_drawn_on_the_card_sheet(dial_data):
    d = deck(_build(dial_data), "dials", SheetSpec())
    [lamp] = d.cards
    assert '<div class="face kind-gadget has-dial"' in lamp.face
    assert '<div class="dial" style="width: 15.75mm">&lt;High&gt;</div>' in lamp.face
    assert d.css == [".face .dial { position: absolute; right: 0; }\n"]
    assert ".face .dial { position: absolute; right: 0; }" in render_sheets(d, fit(SheetSpec()))


def test_the_engine_type_checks_values_by_its_schema(dial_data):
    (dial_data / "dials" / "gadgets.yaml").write_text(CARDS.replace("setting: high", "setting: hihg"),
                                                      encoding="utf-8")
    result = compile_tree(dial_data)
    [err] = result.diags.errors
    assert err.code == "E401" and err.card == "lamp" and err.line == 7 and "did you mean 'high'" in err.message


def test_the_exported_schema_describes_the_type_values(dial_data):
    import yaml

    schema = game_module_schema(yaml.safe_load(GAME))
    branch = schema["properties"]["cards"]["items"]["allOf"][1]["allOf"][0]["then"]["properties"]["setting"]
    assert branch == {"enum": ["high", "low"], "enumDescriptions": ["<High>", "Low"]}


def test_a_type_the_engine_does_not_have_is_a_located_error(dial_data):
    (dial_data / "dials" / "game.yaml").write_text(GAME.replace("setting: dial", "setting: dail"), encoding="utf-8")
    result = compile_tree(dial_data)
    [err] = result.diags.errors
    assert err.code == "E401" and err.file.endswith("game.yaml") and (err.line, err.column) == (14, 16)
    assert err.message == "'dail' is not one of: int, bool, str, good, goods, icon, icons, text, number, dial " \
                          "(did you mean 'dial'?)"


def test_another_engine_does_not_lend_its_types(dial_data):
    # the same game on the core engine: "dial" is no type there
    (dial_data / "dials" / "game.yaml").write_text(GAME.replace("engine: dial_test", "engine: core"), encoding="utf-8")
    result = compile_tree(dial_data)
    assert [e.code for e in result.diags.errors] == ["E401"]
    assert result.diags.errors[0].message.startswith("'dial' is not one of: int, bool")


def test_the_compiler_names_no_engine_field_type():
    """What an engine adds stays in its package: no compiler module or template names its field types
    (the loader's refusal of a socket *file* is about the file system, not a field)."""
    from tests.conftest import ROOT

    names = {name for engine in ENGINES.values() for name in engine.field_types if engine.name != "dial_test"}
    assert "sockets" in names  # Infernal Contraption's, registered by the engine
    files = [p for p in (ROOT / "compiler").rglob("*") if p.is_file() and p.suffix in (".py", ".j2", ".css")]
    assert len(files) > 30
    for p in files:
        text = p.read_text(encoding="utf-8")
        for name in names:
            assert name not in text, f"{p.relative_to(ROOT)} names the field type {name!r}"
