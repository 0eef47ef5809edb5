"""Benchmark: the effect parser alone, on every effect text of the bundled games.

    python bench/parse.py                # 15 rounds of 20 passes over the texts; best and median
    python bench/parse.py --rounds 5

Times ``parse_effect`` without its per-text cache (``parse_effect.__wrapped__``), in CPU time so
that other work on the machine disturbs it less; the best round is the figure to compare between
two checkouts (run both one after the other). Also timed: the first syntax error of the process
(which builds the example index of compiler/syntaxhelp.py) and later errors (one look-up each).
No test asserts on time.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BAD = ["gain 2 fuel;; draw 1 card", "gain 2", "if 3 fuel gain 1 gun", "gain 2 fuel and draw 1 card",
       "draw (2 + ) cards", "gain 2 fuel from your", "choose one: draw 1 card, or gain 1 fuel"]


def bundled_texts() -> list[str]:
    from tests.test_english import GAMES, every_slot

    return [("requires " if kind == "condition" else "") + text
            for game in GAMES for _card, _face, _slot, kind, text in every_slot(game)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--passes", type=int, default=20)
    args = ap.parse_args()

    from compiler.parser import _lark, parse_effect

    texts = bundled_texts()
    _lark()
    parse = parse_effect.__wrapped__
    rates = []
    for _ in range(args.rounds):
        t = time.process_time()
        for _ in range(args.passes):
            for text in texts:
                parse(text)
        rates.append(args.passes * len(texts) / max(1e-9, time.process_time() - t))
    t = time.perf_counter()
    parse(BAD[0])
    first = time.perf_counter() - t
    t = time.perf_counter()
    for _ in range(20):
        for text in BAD:
            parse(text)
    later = (time.perf_counter() - t) / (20 * len(BAD))
    print(f"{len(texts)} bundled effect texts, error-free: best {max(rates):,.0f} texts/s, "
          f"median {statistics.median(rates):,.0f} texts/s")
    print(f"syntax errors: first of the process {first * 1000:.1f} ms, then {later * 1000:.2f} ms each")


if __name__ == "__main__":
    main()
