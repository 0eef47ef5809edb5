"""Stage 6b: the printable rules reference (compiler/reference.py, `cardwright reference`, `build`)."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from cli import main
from compiler.build import compile_tree, discover_games
from compiler.reference import (clause_views, game_view, load_clauses, render_all, render_game, rule_tests,
                                table_view)
from tests.conftest import MINI, ROOT
from tests.snapshots_text import MarkdownSnapshot

BUNDLED = ROOT / "data"
GAMES = [p.name for p in discover_games(BUNDLED)]


@pytest.fixture(scope="module")
def bundled():
    result = compile_tree(BUNDLED)
    assert result.ok, [d.render() for d in result.diags.errors]
    return result


@pytest.fixture(scope="module")
def mini():
    result = compile_tree(MINI)
    assert result.ok
    return result


@pytest.fixture
def md_snapshot(snapshot):
    return snapshot.use_extension(MarkdownSnapshot)


# --- Markdown snapshots (one file per game; the clause table is snapshotted on its own) ------------


def test_markdown_of_the_mini_fixture(mini, md_snapshot):
    view = game_view(mini, "mini")
    assert render_game(view, "md", mini.games["mini"].vocab.source["icons"], with_clauses=False) == md_snapshot


@pytest.mark.parametrize("game", GAMES)
def test_markdown_of_each_bundled_game(bundled, game, md_snapshot):
    view = game_view(bundled, game)
    icons = bundled.games[game].vocab.source.get("icons") or {}
    assert render_game(view, "md", icons, with_clauses=False) == md_snapshot


def test_reference_reads_the_builds_ir_and_never_parses_a_text(monkeypatch):
    # the reference's English comes from GameBuild.effect_ir: the IR this build checked, or — for a
    # text the build did not check itself (a module replayed from the watch cache) — one check by
    # the build's own checker
    import compiler.reference as R

    assert not hasattr(R, "parse_effect")
    cold = compile_tree(MINI)
    icons = cold.games["mini"].vocab.source["icons"]
    before = render_game(game_view(cold, "mini"), "md", icons, with_clauses=False)
    assert "Gain 2 Fuel" in before
    checked = cold.games["mini"].checked
    texts = len(checked)
    checked.clear()  # as if every module had been replayed
    assert render_game(game_view(cold, "mini"), "md", icons, with_clauses=False) == before
    assert len(checked) == texts  # each text checked once more, on demand


# --- content -----------------------------------------------------------------------------------------


def test_html_has_every_card_and_rendered_effects_not_yaml(bundled, tmp_path):
    written = render_all(bundled, BUNDLED, tmp_path, formats=("html",))
    assert str(tmp_path / "index.html") in written
    for game in GAMES:
        page = (tmp_path / f"{game}.html").read_text(encoding="utf-8")
        gb = bundled.games[game]
        for doc in gb.modules.values():
            for card in doc.data.get("cards") or []:
                assert f">{_esc(card['name'])}</h4>" in page, card["id"]
        # nothing is fetched: no scripts, no remote sources, fonts or imports (an SVG namespace is no fetch)
        fetchable = re.sub(r'xmlns(:\w+)?="http://www\.w3\.org/[^"]*"', "", page)
        assert "<script" not in page.lower() and "http://" not in fetchable and "https://" not in fetchable
        assert "@font-face" not in page and "@import" not in page


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;").replace('"', "&#34;")


def test_uncertain_icon_matches_are_marked(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    game = data / "mini" / "game.yaml"
    text = game.read_text(encoding="utf-8").replace(
        "green: {name: Green, good: fuel}",
        'green: {name: Green, good: fuel, letter: G, colour: "#2a2", uncertain: "read from low-resolution art"}')
    game.write_text(text, encoding="utf-8")
    result = compile_tree(data)
    assert result.ok
    view = game_view(result, "mini")
    green = next(i for i in view.icons if i["key"] == "green")
    assert green["uncertain"] == "read from low-resolution art"
    md = render_game(view, "md", result.games["mini"].vocab.source["icons"])
    assert "| Green [G] | Fuel ? **uncertain** | read from low-resolution art |" in md
    page = render_game(view, "html", result.games["mini"].vocab.source["icons"])
    assert "<b>uncertain</b>" in page and "--icon: #2a2" in page


def test_names_from_data_are_escaped_in_html(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    mod = data / "mini" / "base.yaml"
    mod.write_text(mod.read_text(encoding="utf-8").replace("name: Oil Rig", 'name: "<script>alert(1)</script>"'),
                   encoding="utf-8")
    result = compile_tree(data)
    assert result.ok
    page = render_game(game_view(result, "mini"), "html", {})
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    md = render_game(game_view(result, "mini"), "md", {})
    assert "<script>" not in md


def test_tables_drawn_from_their_shape():
    by_list = table_view("deploy", {"recruit": [1, 2, 3, 4], "veteran": [3, 4, 5, 6]})
    assert by_list.columns == ["", "1", "2", "3", "4"] and by_list.rows[1] == ["Veteran", "3", "4", "5", "6"]
    deploy = table_view("deploy", {"recruit": {1: 1, 2: 2}, "private": {1: 2, 2: 3}})
    assert deploy.title == "Deploy" and deploy.columns == ["", "1", "2"]
    assert deploy.rows == [["Recruit", "1", "2"], ["Private", "2", "3"]]
    terrain = table_view("terrain", {"crater": {"track_cost": 3}, "mountain": {"track_cost": 4}})
    assert terrain.columns == ["", "Track Cost"] and terrain.rows[1] == ["Mountain", "4"]
    assert table_view("town_cost", "2 + 1 per track section").rows == [["2 + 1 per track section"]]
    assert table_view("track", ["X1", "X2"]).rows == [["X1"], ["X2"]]
    assert table_view("d", {"a": 1, "b": True}).rows == [["A", "1"], ["B", "yes"]]


# --- rule clauses --------------------------------------------------------------------------------------


def test_clause_copy_matches_the_shared_list():
    clauses, books = load_clauses()
    ids = [c["id"] for c in clauses]
    assert len(ids) == len(set(ids)) and len(ids) > 50
    assert {"moloch", "scavengers", "moon", "infernal_contraption"} <= set(books)
    shared = ROOT.parent.parent / "shared" / "rules" / "clauses.yaml"
    if shared.is_file():  # the project's own copy must list the same clauses as the shared one
        import yaml

        data = yaml.safe_load(shared.read_text(encoding="utf-8"))
        assert ids == [c["id"] for group in data.values() for c in group]


def test_rule_markers_are_found_by_reading_test_sources(tmp_path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_a.py").write_text(
        "import pytest\n"
        "pytestmark = pytest.mark.rule('I10')\n"
        "@pytest.mark.rule('I18')\n"
        "def test_one():\n    pass\n"
        "class TestGroup:\n"
        "    @pytest.mark.rule(\"M04\")\n"
        "    def test_two(self):\n        pass\n"
        "def helper():\n    pass\n", encoding="utf-8")
    (tests / "broken.py").write_text("def (:\n", encoding="utf-8")
    found = rule_tests(tests)
    assert found["I18"] == ["tests/test_a.py::test_one"]
    assert found["M04"] == ["tests/test_a.py::TestGroup::test_two"]
    assert found["I10"] == ["tests/test_a.py::test_one", "tests/test_a.py::TestGroup::test_two"]


def test_clause_table_says_no_test_yet_honestly(tmp_path):
    empty = tmp_path / "tests"
    empty.mkdir()
    clauses, known = clause_views(BUNDLED, tests_dir=empty)
    assert known and all(c.tests == [] for c in clauses)
    _, known2 = clause_views(BUNDLED, tests_dir=tmp_path / "missing")
    assert not known2


def test_game_reference_lists_the_clauses_of_its_rulebooks(bundled, tmp_path):
    render_all(bundled, BUNDLED, tmp_path, formats=("md",))
    index = (tmp_path / "index.md").read_text(encoding="utf-8")
    for c in load_clauses()[0]:
        assert f"| {c['id']} |" in index
    if "infernal_contraption" in bundled.games:
        page = (tmp_path / "infernal_contraption.md").read_text(encoding="utf-8")
        assert "| I18 |" in page and "| M04 |" not in page


# --- command line ------------------------------------------------------------------------------------


def test_reference_command_writes_html_and_md(runner, tmp_path):
    out = tmp_path / "ref"
    r = runner.invoke(main, ["reference", "mini", "--data", str(MINI), "--format", "html", "--format", "md",
                             "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert (out / "mini.html").is_file() and (out / "mini.md").is_file() and (out / "index.html").is_file()
    assert "mini.html" in r.output


def test_reference_command_unknown_game_is_a_usage_error(runner, tmp_path):
    r = runner.invoke(main, ["reference", "nope", "--data", str(MINI), "--out", str(tmp_path)])
    assert r.exit_code == 2 and "no game 'nope'" in r.output and "mini" in r.output


def test_reference_command_json(runner, tmp_path):
    r = runner.invoke(main, ["reference", "--data", str(MINI), "--format", "json", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    payload = json.loads(r.output)
    assert payload["ok"] and any(p.endswith("mini.html") for p in payload["references"])


def test_reference_command_bad_data_gives_located_errors(runner, mini_game, tmp_path):
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("gain 2 fuel", "gain 2 fule"), encoding="utf-8")
    r = runner.invoke(main, ["reference", "--data", str(mini_game), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "E201" in r.output and "Traceback" not in r.output


def test_pdf_without_a_browser_is_a_clear_error(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("CARDWRIGHT_CHROMIUM", str(tmp_path / "no-such-browser"))
    r = runner.invoke(main, ["reference", "--data", str(MINI), "--format", "pdf", "--out", str(tmp_path)])
    assert r.exit_code == 1 and "headless Chromium" in r.output


def test_build_writes_the_html_reference_and_says_where(runner, mini_game):
    r = runner.invoke(main, ["build", str(mini_game)])
    assert r.exit_code == 0, r.output
    page = mini_game.parent / "build" / "reference" / "mini.html"
    assert page.is_file() and "reference:" in r.output and "mini.html" in r.output
    assert re.search(r"Oil Rig", page.read_text(encoding="utf-8"))


def test_hex_maps_are_drawn_as_svg_in_html_and_written_beside_markdown(bundled, tmp_path):
    mapped = [(g, m) for g in GAMES for m in game_view(bundled, g).modules if m.map_svg or m.map_note]
    if not mapped:
        pytest.skip("no bundled game has a map yet")
    render_all(bundled, BUNDLED, tmp_path, formats=("html", "md"))
    for game, mod in mapped:
        assert mod.map_svg is not None, mod.map_note  # the engine's render_map_svg drew it
        page = (tmp_path / f"{game}.html").read_text(encoding="utf-8")
        assert '<div class="map"><h3>Map</h3>' in page and "<svg" in page.split('<div class="map">', 1)[1]
        svg = tmp_path / f"{game}-{mod.id}-map.svg"
        assert svg.is_file() and f"({svg.name})" in (tmp_path / f"{game}.md").read_text(encoding="utf-8")


def test_markdown_keeps_the_word_breaks_around_icon_badges():
    # escape.md drops a value's outer spaces; between badges they are word breaks ("with a Red [R] icon")
    from compiler.english import ICON_END, ICON_START
    from compiler.reference import _marked_md

    marked = f"Raze 1 Location with a {ICON_START}red|Red{ICON_END} or {ICON_START}worker|Worker{ICON_END} icon."
    icons = {"red": {"name": "Red", "letter": "R"}, "worker": {"name": "Worker", "letter": "W"}}
    assert _marked_md(marked, icons) == "Raze 1 Location with a Red [R] or Worker [W] icon."
    assert _marked_md(f"{ICON_START}red|Red{ICON_END}: gain 1 fuel", icons) == "Red [R]: gain 1 fuel"
