"""Benchmark: the studio's live loop on a 1,000-card game — save a broken card, see its error on its
card in the browser; save the fix, see the error go.

    python bench/studio_live.py                       # 1,000 cards in 10 modules of 100, 7 edits
    python bench/studio_live.py --modules 1 --edits 5 # the same cards in one module file

bench/watch.py's synthetic core-engine game is written to a temporary folder; a studio serves it
(studio/server.py, in this process) and Debian's Chromium, driven by Playwright, opens its gallery:
1,000 tiles, each face in a lazily loaded frame. Each edit writes one card's production text with an
unknown Good and waits, in the page, for that card's tile to show its error (the tile swapped by the
live update, not a reload); then writes the fix back and waits for the error to go. The time is the
wall clock from the write to the moment Playwright sees the change in the page: it includes noticing
the save (file events), the incremental build, the push over Server-Sent Events, the tile's fetch
and swap, and Playwright's own look (a few milliseconds). Also reported: the build's own seconds.

Target (issue 29): within 0.5 s for a 1,000-card game. Figures are printed and saved to
bench/results/ (gitignored); the reported figures live in docs/studio.md. No test asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0:1] = [str(ROOT)]  # the project first, not this script's folder
sys.path.append(str(ROOT / "bench"))  # after the project: bench/ must not hide the studio package

from watch import write_corpus  # noqa: E402

from compiler.reference import find_browser  # noqa: E402
from studio.server import Studio  # noqa: E402


def replace_production(path: Path, card: int, new: str) -> str:
    """Write ``path`` with card ``card``'s production text replaced; return the file as it was."""
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(f"  - id: card_{card:05d}\n")
    block, sep, tail = rest.partition("  - id: ")
    lines = [ln if not ln.startswith("    production: ") else f"    production: \"{new}\"" for ln in block.splitlines()]
    path.write_text(head + f"  - id: card_{card:05d}\n" + "\n".join(lines) + "\n" + sep + tail, encoding="utf-8")
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--modules", type=int, default=10)
    ap.add_argument("--edits", type=int, default=7)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    browser_path = find_browser()
    if browser_path is None:
        sys.exit("Chromium is needed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="cardwright-bench-studio-") as tmp:
        files = write_corpus(Path(tmp), args.cards, args.modules)
        per = args.cards // args.modules
        t = time.perf_counter()
        s = Studio(Path(tmp) / "data")
        url = s.start_in_thread()
        cold = time.perf_counter() - t
        ws = s.workspace
        broke, fixed, builds, noticed = [], [], [], []  # noticed: from the write to the build's end
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=browser_path)
            page = b.new_page(viewport={"width": 1280, "height": 900})
            pending: set = set()  # the page's requests under way (the live stream aside)
            page.on("request", lambda r: pending.add(r) if not r.url.endswith("/events") else None)
            page.on("requestfinished", lambda r: pending.discard(r))
            page.on("requestfailed", lambda r: pending.discard(r))

            def settle() -> None:
                """Wait until the page has asked for nothing for 0.3 s: the faces of the tiles just
                scrolled to are drawn, the last save's updates are in (a designer looks, then saves)."""
                quiet = start = time.perf_counter()
                while time.perf_counter() - quiet < 0.3 and time.perf_counter() - start < 20:
                    page.wait_for_timeout(50)
                    if pending:
                        quiet = time.perf_counter()
                if pending:  # a frame whose request the browser dropped without saying so: not waited for
                    print(f"  (still pending after 20 s: {len(pending)} requests)", file=sys.stderr)
                    pending.clear()

            t = time.perf_counter()
            page.goto(url + "game/bench/")
            page.locator("figure.tile").nth(args.cards - 1).wait_for(state="attached")
            first_face = page.frame_locator("figure.tile iframe").first.locator("section")
            first_face.wait_for()
            gallery = time.perf_counter() - t
            tiles = page.locator("figure.tile").count()
            for k in range(args.edits):
                card = (k * 137 + 11) % args.cards
                path = files[card // per]
                event = ws.snapshot.games["bench"].cards[f"card_{card:05d}"].event
                page.locator(f"#tile-{event}").scroll_into_view_if_needed()
                settle()
                t, wall = time.perf_counter(), time.time()
                original = replace_production(path, card, "gain 2 fule")
                page.locator(f"#tile-{event} .diag").wait_for(state="visible", timeout=30_000)
                broke.append(time.perf_counter() - t)
                noticed.append(ws.built_at - wall)
                builds.append(ws.snapshot.seconds)
                settle()
                t = time.perf_counter()
                path.write_text(original, encoding="utf-8")
                page.locator(f"#tile-{event} .diag").wait_for(state="detached", timeout=30_000)
                fixed.append(time.perf_counter() - t)
                builds.append(ws.snapshot.seconds)
            b.close()
        s.stop()
    figures = {
        "cards": args.cards, "modules": args.modules, "edits": args.edits, "tiles": tiles,
        "studio_start_s": round(cold, 3), "gallery_open_s": round(gallery, 3),
        "save_to_error_on_card_s": {"median": round(statistics.median(broke), 3), "worst": round(max(broke), 3)},
        "fix_to_error_gone_s": {"median": round(statistics.median(fixed), 3), "worst": round(max(fixed), 3)},
        "save_to_build_done_s": {"median": round(statistics.median(noticed), 3), "worst": round(max(noticed), 3)},
        "build_s": {"median": round(statistics.median(builds), 3), "worst": round(max(builds), 3)},
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    print(json.dumps(figures, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / f"studio-{args.cards}-{args.modules}.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
