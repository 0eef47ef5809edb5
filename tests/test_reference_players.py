"""`cardwright reference --audience players` (the default): a rulebook for playtesters — no file
paths, test names or clause table, a turn summary, page numbers and a running header, colour icons.
`--audience designers` keeps every traceability detail."""
from __future__ import annotations

import re
import subprocess

import pytest

from cli import main
from compiler.build import compile_tree
from compiler.reference import find_browser, game_view, players_view, render_all, render_game
from tests.conftest import ROOT
from tests.test_reference_pdf import _need, _pages_text

BUNDLED = ROOT / "data"
GAMES = ["age_of_steam", "fifty_first_state", "infernal_contraption"]
PATHS = re.compile(r"\b[\w.-]+/[\w./-]*\.(?:py|yaml)\b|\.yaml:\d+|tests/|test_\w+|pytest")


@pytest.fixture(scope="module")
def bundled():
    result = compile_tree(BUNDLED)
    assert result.ok
    return result


@pytest.mark.parametrize("game", GAMES)
def test_players_reference_has_no_file_path_test_name_or_clause_table(bundled, game):
    view = game_view(bundled, game)
    icons = bundled.games[game].vocab.source.get("icons") or {}
    for fmt in ("html", "md"):
        page = render_game(view, fmt, icons, audience="players")
        assert not PATHS.search(page), PATHS.search(page).group(0)
        assert "Rule clauses" not in page and "clause-" not in page
        assert "Turn summary" in page
    designers = render_game(view, "html", icons, audience="designers")
    assert PATHS.search(designers) and "Rule clauses" in designers


@pytest.mark.parametrize("game", GAMES)
def test_a_stand_in_whose_file_is_left_out_prints_no_empty_brackets(bundled, game):
    # the players' view drops file paths: a whole module marked stand-in (51st State's Base Set
    # stand-in) read "Base Set stand-in cards ():" in the list of stand-in rules
    view = players_view(game_view(bundled, game))
    icons = bundled.games[game].vocab.source.get("icons") or {}
    for fmt in ("html", "md"):
        page = render_game(view, fmt, icons, audience="players")
        assert "()" not in page and "( )" not in page


def test_players_html_numbers_its_pages_and_names_the_game_in_a_running_header(bundled):
    view = game_view(bundled, "age_of_steam")
    page = render_game(view, "html", {}, audience="players")
    assert 'counter(page) " of " counter(pages)' in page
    assert '@top-center { content: "Age of Steam — Moon — rules reference"; }' in page


def test_running_header_cannot_close_the_style_element(bundled):
    view = game_view(bundled, "age_of_steam")
    view.name = 'x"; } </style><script>alert(1)</script>'
    page = render_game(view, "html", {}, audience="players")
    style = page[page.index("<style>"):page.index("</style>")]
    assert "<script" not in style and "</style" not in style.lower()
    assert page.count("<script") == 0


def test_players_view_keeps_the_marks_and_the_example_flag(bundled):
    view = players_view(game_view(bundled, "fifty_first_state"))
    cards = {c.id: c for m in view.modules for c in m.cards}
    assert cards["mother"].notes and all(m in ("provisional", "uncertain") for m, _, _ in cards["mother"].notes)
    assert cards["oil_rig"].source == "example" and cards["mother"].source == ""
    assert not view.clauses and all(not m.file for m in view.modules)


def test_a_note_naming_a_file_loses_the_file_not_the_sentence(bundled):
    view = players_view(game_view(bundled, "age_of_steam"))
    low = next(c for m in view.modules for c in m.cards if c.id == "low_gravitation")
    procedure = next(f.value for f in low.fields if f.label == "Procedure")
    assert procedure == "Move Goods: the engine lets the holder use one opponent's Complete Link as their own."


def test_cli_reference_defaults_to_players_and_keeps_designers_on_request(runner, tmp_path):
    res = runner.invoke(main, ["reference", "infernal_contraption", "--out", str(tmp_path / "p")])
    assert res.exit_code == 0, res.output
    players = (tmp_path / "p" / "infernal_contraption.html").read_text(encoding="utf-8")
    assert "Rule clauses" not in players and "Turn summary" in players
    assert "Every rule clause" not in (tmp_path / "p" / "index.html").read_text(encoding="utf-8")
    res = runner.invoke(main, ["reference", "infernal_contraption", "--audience", "designers",
                               "--out", str(tmp_path / "d")])
    assert res.exit_code == 0, res.output
    designers = (tmp_path / "d" / "infernal_contraption.html").read_text(encoding="utf-8")
    assert "Rule clauses" in designers and "tests/" in designers


@pytest.mark.slow
def test_players_pdf_has_page_numbers_no_paths_and_no_near_empty_pages(bundled, tmp_path):
    _need(find_browser(), "a headless Chromium")
    written = render_all(bundled, BUNDLED, tmp_path, formats=("pdf",), audience="players")
    for pdf in [p for p in written if not p.endswith("index.pdf")]:
        pages = _pages_text(pdf)
        assert len(pages) > 1
        for n, page in enumerate(pages, 1):
            assert f"Page {n} of {len(pages)}" in page, (pdf, n)
            assert "rules reference" in page.splitlines()[0] or "rules reference" in page[:200]
            assert not PATHS.search(page), (pdf, n, PATHS.search(page).group(0))
            if n < len(pages):  # only the last page may be short
                assert len(" ".join(page.split())) > 400, (pdf, n, page[:200])
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True, check=True).stdout
        assert re.search(r"Page size:\s+59[45]\.\d+ x 84[12]\.\d+ pts", info), info


def test_a_clause_summary_quotes_the_value_the_data_has_now(tmp_path):
    import shutil

    from compiler.reference import build_views, render_game

    data = tmp_path / "data"
    shutil.copytree(BUNDLED / "age_of_steam", data / "age_of_steam")
    game_yaml = data / "age_of_steam" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    assert "      track_cost: 4\n" in text
    game_yaml.write_text(text.replace("      track_cost: 4\n", "      track_cost: 5\n"), encoding="utf-8")
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags.errors]
    games, clauses, _ = build_views(result, data)
    a06 = next(c for c in clauses if c.id == "A06")
    assert "a Mountain hex costs $5 for simple track" in a06.rule and "Crater hex costs $3" in a06.rule
    assert "{data:" not in a06.rule
    page = render_game(games[0], "html", {}, audience="designers")
    assert "a Mountain hex costs $5 for simple track" in page
