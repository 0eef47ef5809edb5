"""The studio driven in a real Chromium (issue 29's "Done when"): Playwright for Python with Debian's
Chromium (``executable_path``; Playwright's own browser builds are never downloaded). CI installs
Chromium (.ci/run): there these tests must run, and FAIL when it is missing; elsewhere they skip.

One studio over a writable copy of the bundled games and one browser serve the module. How fast the
error reaches the card is a figure of bench/studio.py (docs/studio.md), not asserted here: the waits
below are generous timeouts, and the time each took is printed.
"""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from compiler.reference import find_browser  # noqa: E402
from studio.server import Studio  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WAIT_MS = 20_000  # a timeout, not a target (see the module's docstring)


def _chromium() -> str:
    found = find_browser()
    if found:
        return found
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("Chromium is missing, but CI must run the studio's browser tests (.ci/run installs it)")
    pytest.skip("Chromium is not installed")


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    data = tmp_path_factory.mktemp("studio-browser") / "data"
    shutil.copytree(ROOT / "data", data)
    s = Studio(data)
    s.start_in_thread()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser():
    path = _chromium()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    pg.close()
    assert not errors, f"script errors in the page: {errors}"


def _shot(page, name: str, **kw) -> None:
    """With STUDIO_SHOTS=FOLDER, a screenshot for docs/studio.md (``STUDIO_SHOTS=docs/images pytest
    tests/test_studio_browser.py`` makes them anew); without it, none."""
    folder = os.environ.get("STUDIO_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"studio-{name}.png"), **kw)


def _expected_cards(studio, game: str) -> dict[str, str]:
    return {cid: c.name for cid, c in studio.workspace.snapshot.games[game].cards.items()}


def test_open_a_game_and_see_every_bundled_card(studio, page):
    for game in ["infernal_contraption", "age_of_steam", "fifty_first_state"]:
        expected = _expected_cards(studio, game)
        page.goto(studio.url + f"game/{game}/")
        tiles = page.locator("figure.tile")
        assert tiles.count() == len(expected) > 0, game
        shown = {tiles.nth(i).get_attribute("data-card") for i in range(tiles.count())}
        assert shown == set(expected), game
    # every face of Infernal Contraption drawn in its frame: the card's printed name inside it
    expected = _expected_cards(studio, "infernal_contraption")
    page.goto(studio.url + "game/infernal_contraption/")
    for cid, name in expected.items():
        tile = page.locator(f'figure.tile[data-card="{cid}"]')
        tile.scroll_into_view_if_needed()
        frame = tile.frame_locator("iframe")
        sync_api.expect(frame.locator(".card, section").first).to_contain_text(name, timeout=WAIT_MS)
    page.evaluate("window.scrollTo(0, 0)")
    _shot(page, "gallery")
    page.goto(studio.url + "game/infernal_contraption/card/entropic_processor")
    sync_api.expect(page.frame_locator("#face").locator("section")).to_contain_text("Entropic Processor")
    _shot(page, "card", full_page=True)


def test_break_a_cards_effect_and_see_the_located_error_on_it_then_fix_it(studio, page):
    snap = studio.workspace.snapshot.games["infernal_contraption"]
    card = snap.cards["spare_parts_crate"]
    text = card.path.read_text(encoding="utf-8")
    broken = text.replace('effect: "draw 3 cards"', 'effect: "drow 3 cards"')
    assert broken != text
    page.goto(studio.url + "game/infernal_contraption/")
    page.evaluate("window.studioTestMark = 'same page'")  # gone if the page reloaded
    tile = page.locator(f"#tile-{card.event}")
    tile.scroll_into_view_if_needed()
    sync_api.expect(tile.locator(".diag")).to_have_count(0)
    try:
        start = time.perf_counter()
        card.path.write_text(broken, encoding="utf-8")
        diag = page.locator(f"#tile-{card.event} .diag")
        sync_api.expect(diag).to_be_visible(timeout=WAIT_MS)
        print(f"error shown on the card {time.perf_counter() - start:.3f} s after the save")
        words = diag.inner_text()
        # located: file, line and column of the text, the code, the word it does not know
        line = next(n for n, ln in enumerate(broken.splitlines(), 1) if "drow 3 cards" in ln)
        assert f"example_deck.yaml:{line}:" in words and "drow" in words, words
        assert page.locator(f"#tile-{card.event}").get_attribute("class").split() == ["tile", "broken"]
        # only that card: no other tile shows an error
        assert page.locator("figure.tile .diag").count() == 1
        page.locator("#status .build.bad").wait_for(timeout=WAIT_MS)
        _shot(page, "error-on-card")
    finally:
        start = time.perf_counter()
        card.path.write_text(text, encoding="utf-8")
    sync_api.expect(page.locator(f"#tile-{card.event} .diag")).to_have_count(0, timeout=WAIT_MS)
    print(f"error gone {time.perf_counter() - start:.3f} s after the fix")
    assert page.evaluate("window.studioTestMark") == "same page"
    page.locator("#status .build.good").wait_for(timeout=WAIT_MS)


def test_the_rulebook_is_live(studio, page):
    page.goto(studio.url + "game/infernal_contraption/reference")
    frame = page.frame_locator("iframe.reference")
    sync_api.expect(frame.locator("body")).to_contain_text("Spare Parts Crate", timeout=WAIT_MS)
    _shot(page, "rulebook")
    card = studio.workspace.snapshot.games["infernal_contraption"].cards["spare_parts_crate"]
    text = card.path.read_text(encoding="utf-8")
    try:
        card.path.write_text(text.replace("name: Spare Parts Crate", "name: Spare Parts Hamper"), encoding="utf-8")
        sync_api.expect(frame.locator("body")).to_contain_text("Spare Parts Hamper", timeout=WAIT_MS)
    finally:
        card.path.write_text(text, encoding="utf-8")
    sync_api.expect(frame.locator("body")).to_contain_text("Spare Parts Crate", timeout=WAIT_MS)


def test_without_the_token_the_browser_is_refused(studio, page):
    response = page.goto(f"http://127.0.0.1:{studio.port}/game/infernal_contraption/")
    assert response.status == 403
    assert "token" in page.locator("body").inner_text()


def test_run_a_200_game_simulation_and_see_the_report(studio, page):
    page.goto(studio.url + "game/infernal_contraption/balance")
    page.fill("input[name=games]", "200")
    page.fill("input[name=agents]", "greedy,random")
    start = time.perf_counter()
    page.click("form.run button[type=submit]")
    run = page.locator("section.runbox").first
    sync_api.expect(run.locator("progress")).to_be_attached(timeout=WAIT_MS)
    sync_api.expect(run).to_have_attribute("data-state", "done", timeout=120_000)
    print(f"200 games shown in {time.perf_counter() - start:.1f} s")
    report = run.frame_locator("iframe.report").locator("body")
    sync_api.expect(report).to_contain_text("200 games", timeout=WAIT_MS)
    sync_api.expect(report).to_contain_text("Win rate", ignore_case=True)
    _shot(page, "balance")
    # the figures reach the card's page
    page.goto(studio.url + "game/infernal_contraption/card/spare_parts_crate")
    sync_api.expect(page.locator("table.figures")).to_contain_text("plays a game")


def test_play_infernal_contraption_to_the_end_against_bots(studio, page):
    page.goto(studio.url + "game/infernal_contraption/play")
    page.fill("input[name=bots]", "greedy")
    page.fill("input[name=seed]", "7")
    page.click("form.run button[type=submit]")
    page.wait_for_url("**/play/*")
    table = page.locator("#table")
    answered = 0
    deadline = time.time() + 300
    while table.get_attribute("data-state") != "over":
        assert time.time() < deadline, "the game did not end within 5 minutes"
        state = table.get_attribute("data-state")
        assert state not in ("failed", "stopped"), page.locator("#table").inner_text()
        if state == "waiting":
            if answered == 3:
                _shot(page, "play")
            form = page.locator("form.question")
            number = form.locator("input[name=question]").get_attribute("value")  # before the answer changes it
            boxes = form.locator("input[type=checkbox]")
            if boxes.count():  # several to choose: as many as asked, from the first
                need = int(form.get_attribute("data-low") or 1)
                for i in range(need):
                    boxes.nth(i).check()
                form.locator("button[type=submit]").click()
            else:
                form.locator("button.move").first.click()
            answered += 1
            # the answer is taken and the next state pushed: the question's number changes or the game ends
            page.wait_for_function(
                "n => { const t = document.querySelector('#table'); const q = t && t.querySelector('input[name=question]');"
                " return !t || t.dataset.state === 'over' || !q || q.value !== n }",
                arg=number, timeout=WAIT_MS)
        else:
            page.wait_for_timeout(100)
    outcome = page.locator(".outcome").inner_text()
    assert outcome.startswith("Game over:"), outcome
    assert answered > 3  # a real game: the person decided more than a few times
    trace = page.locator("ol.trace li")
    assert trace.count() > 10

