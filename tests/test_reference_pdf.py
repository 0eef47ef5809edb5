"""The bundled rules reference printed to PDF by a real headless browser (Chromium).

CI installs Chromium and poppler-utils (.ci/run), so there this test must run: when CI=true and
either is missing it FAILS. Elsewhere it is skipped when they are missing.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from compiler.build import compile_tree
from compiler.reference import find_browser, load_clauses, render_all
from tests.conftest import ROOT

BUNDLED = ROOT / "data"


def _need(tool: str | None, what: str):
    if tool:
        return tool
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{what} is missing, but CI must run the browser test (.ci/run installs it)")
    pytest.skip(f"{what} is not installed")


def _pages_text(pdf) -> list[str]:
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return out.split("\f")[:-1] if out.endswith("\f") else out.split("\f")


def _page_has_ink(pgm: bytes) -> bool:
    """A binary PGM (P5) page image has at least a few non-white pixels."""
    parts = pgm.split(maxsplit=4)
    assert parts[0] == b"P5"
    maxval = int(parts[3])
    pixels = parts[4][1:] if parts[4][:1].isspace() else parts[4]
    return sum(1 for b in pixels if b < maxval * 0.8) > 50


@pytest.mark.slow
def test_bundled_reference_prints_to_pdf_with_every_card_and_clause(tmp_path):
    browser = _need(find_browser(), "a headless Chromium")
    _need(shutil.which("pdftotext") and shutil.which("pdftoppm"), "poppler-utils (pdftotext, pdftoppm)")
    result = compile_tree(BUNDLED)
    assert result.ok
    written = render_all(result, BUNDLED, tmp_path, formats=("pdf",))
    pdfs = [p for p in written if p.endswith(".pdf")]
    assert len(pdfs) == len(result.games) + 1 and browser
    text = ""
    for pdf in pdfs:
        pages = _pages_text(pdf)
        assert pages, pdf
        for n, page in enumerate(pages, 1):
            assert page.strip(), f"page {n} of {pdf} has no text"
        subprocess.run(["pdftoppm", "-gray", "-r", "24", str(pdf), str(tmp_path / "page")], check=True)
        images = sorted(tmp_path.glob("page*.pgm"))
        assert len(images) == len(pages)
        for img in images:
            assert _page_has_ink(img.read_bytes()), f"{img.name} of {pdf} is blank"
            img.unlink()
        text += " ".join(pages)
    flat = re.sub(r"\s+", " ", text)
    for gb in result.games.values():
        for doc in gb.modules.values():
            for card in doc.data.get("cards") or []:
                assert re.sub(r"\s+", " ", card["name"]) in flat, card["id"]
    for clause in load_clauses()[0]:
        assert re.search(rf"\b{clause['id']}\b", flat), clause["id"]
