"""Issue 23, classes 8 and 9: docs/security.md states what is untrusted and how each class is closed,
with the run-time budget's numbers as the code has them; the Dask options warn about trust where a
user meets them (the command's help)."""
from __future__ import annotations

import re

import cli
from runtime import budget
from tests.conftest import ROOT

DOC = ROOT / "docs" / "security.md"


def test_the_budget_numbers_in_the_doc_are_the_code_s():
    text = DOC.read_text(encoding="utf-8")
    for scope, limits in (("per effect", budget.PER_EFFECT), ("per move", budget.PER_MOVE)):
        row = next(ln for ln in text.splitlines() if ln.startswith(f"| {scope}"))
        assert [int(n.replace(",", "")) for n in re.findall(r"\| ([0-9,]+) ", row + " ")] == list(limits), row


def test_every_hostile_test_the_doc_names_exists():
    named = set(re.findall(r"`(tests/test_hostile_[a-z_]+\.py)`", DOC.read_text(encoding="utf-8")))
    assert len(named) >= 7 and all((ROOT / n).is_file() for n in named)


def test_the_readme_links_the_security_doc():
    assert "docs/security.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_dask_scheduler_option_warns_about_trust(runner):
    res = runner.invoke(cli.main, ["simulate", "--help"])
    assert res.exit_code == 0
    words = " ".join(res.output.split())
    assert "unpickled" in words and "TLS" in words and "docs/security.md" in words
    doc = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "unpickles" in doc and "run any code as you" in doc and "TLS" in doc
