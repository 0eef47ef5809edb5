"""Benchmark: the language server's diagnostics after a one-character edit in a 1,000-card module.

    python bench/lsp.py                  # 1,000 cards in one module, 20 edits of each sort
    python bench/lsp.py --cards 5000 --edits 10

The corpus is bench/watch.py's synthetic core-engine game (cards with one or two effect texts from a
dozen templates), in one module file. Two measures:

- **check**: ``compiler.lsp.project.Project.check`` of the edited buffer, in process — what the
  server runs on a change (load, schema, parse and check, no code generated). Edits: one
  character of an effect text changed into a misspelt Good (an error appears) and back (it goes);
  a line added inside a card (the cards after it move); and, for comparison, the first check of
  the module and an edit outside the cards (both take the full path: every card loaded again).
- **round trip**: a real ``cardwright lsp`` subprocess with ``debounceMs: 0``; the time from
  sending an incremental ``didChange`` of one character to receiving its ``publishDiagnostics``
  (JSON-RPC over pipes, pygls on both sides, and the check).

Target (issue 14): ≤ 50 ms for a one-character edit. Figures go to bench/results/ (gitignored) and
docs/benchmarks.md; no test asserts on time.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from watch import write_corpus, write_results  # noqa: E402

from compiler.lsp.project import Project  # noqa: E402


def _ms(values: list) -> dict:
    """Median and worst, in ms; for (wall, cpu) pairs both, since on a shared machine the wall
    clock says as much about the other processes as about this one."""
    if values and isinstance(values[0], tuple):
        wall, cpu = [v[0] for v in values], [v[1] for v in values]
        return {**_ms(wall), "cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
                "cpu_max_ms": round(max(cpu) * 1000, 1)}
    return {"median_ms": round(statistics.median(values) * 1000, 1), "max_ms": round(max(values) * 1000, 1)}


def _timed(project: Project, path: Path, text: str):
    project.set_text(path, text)
    t, c = time.perf_counter(), time.process_time()
    checked = project.check(path)
    return (time.perf_counter() - t, time.process_time() - c), checked


def in_process(path: Path, edits: int) -> dict:
    text = path.read_text(encoding="utf-8")
    project = Project()
    first, checked = _timed(project, path, text)
    assert not checked.diagnostics, [d.headline() for d in checked.diagnostics[:3]]
    spots = [i for i in range(len(text)) if text.startswith("gain 1 fuel", i)]
    step = max(1, len(spots) // edits)
    typo, fix, added, outside = [], [], [], []
    modes = set()
    for k in range(edits):
        at = spots[(k * step) % len(spots)] + len("gain 1 fu")
        broken = text[:at] + "k" + text[at + 1:]  # "fuel" -> "fukl": one character
        dt, checked = _timed(project, path, broken)
        assert [d.code for d in checked.diagnostics] == ["E201"], [d.headline() for d in checked.diagnostics]
        typo.append(dt)
        modes.add(checked.mode)
        dt, checked = _timed(project, path, text)
        assert not checked.diagnostics
        fix.append(dt)
        modes.add(checked.mode)
    for k in range(edits):
        at = text.index("\n", spots[(k * step) % len(spots)])
        grown = text[:at] + "\n    note: added" + text[at:]
        dt, checked = _timed(project, path, grown)
        added.append(dt)
        modes.add(checked.mode)
        _timed(project, path, text)
    for k in range(max(3, edits // 4)):
        edited = text.replace("name: Module 0", f"name: Module {k + 1}", 1)
        dt, checked = _timed(project, path, edited)
        assert checked.mode == "full"
        outside.append(dt)
        _timed(project, path, text)
    return {"first_check_ms": round(first[0] * 1000, 1), "typo": _ms(typo), "fix": _ms(fix),
            "line_added": _ms(added), "edit_outside_cards_full_path": _ms(outside),
            "one_card_path_taken": sorted(modes) == ["card"]}


def round_trip(root: Path, path: Path, edits: int) -> dict:
    sys.path.insert(0, str(ROOT / "tests"))
    from lsp_client import Session

    session = Session(root, {"debounceMs": 0})
    try:
        text = path.read_text(encoding="utf-8")
        uri = session.open(path, text)
        lines = text.split("\n")
        spots = [(i, ln.index("gain 1 fuel")) for i, ln in enumerate(lines) if "gain 1 fuel" in ln]
        step = max(1, len(spots) // edits)
        times = []
        for k in range(edits):
            line, col = spots[(k * step) % len(spots)]
            at = col + len("gain 1 fu")
            for new in ("k", "e"):  # break the word, then mend it
                t = time.perf_counter()
                diags = session.edit(uri, line, at, at + 1, new)
                times.append(time.perf_counter() - t)
                assert (len(diags) == 1) == (new == "k"), diags
    finally:
        session.close()
    return _ms(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (path,) = write_corpus(root, args.cards, 1)
        figures = {"cards": args.cards, "edits": args.edits, "module_lines": path.read_text().count("\n"),
                   "check": in_process(path, args.edits), "round_trip": round_trip(root, path, args.edits),
                   "python": platform.python_version(), "cpus": os.cpu_count(),
                   "load_average": [round(x, 1) for x in os.getloadavg()]}
    write_results(f"lsp_{args.cards}", figures)


if __name__ == "__main__":
    main()
