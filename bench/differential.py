"""The differential test's longer run (issue 22 item 3).

    python bench/differential.py                 # 20,000 accepted texts, seed 1
    python bench/differential.py 100000 7        # budget, seed

Draws random texts over the vocabularies of the three small test games (tests/differential.py),
keeps those the checker accepts, runs each twice (first-legal and seeded-random agents, random
states) through the compiled code and the reference interpreter (compiler/interpret.py), and prints
how many texts were drawn and accepted, how many runs agreed, and the disagreements by class (the
first part of the picture that differs: status, events, state, where, rng), with a few examples.
CI runs the same harness on a fixed budget (tests/test_differential.py).
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.differential import explore  # noqa: E402


def main(argv: list[str]) -> int:
    budget = int(argv[0]) if argv else 20_000
    seed = int(argv[1]) if len(argv) > 1 else 1
    start = time.perf_counter()
    t = explore(budget, seed)
    seconds = time.perf_counter() - start
    print(f"texts drawn        {t.drawn}")
    print(f"accepted           {t.accepted} ({t.accepted / max(1, t.drawn):.0%})")
    print(f"runs               {t.runs} (changed the state: {t.changed})")
    print(f"agreements         {t.agree}")
    print(f"with a trigger     {t.triggers} texts ran beside a random trigger card; it fired in {t.fired} runs")
    print(f"ability texts      {t.abilities} (each used twice in a row per run: limits compared)")
    print(f"out of scope       {t.out_of_scope}")
    print(f"disagreements      {len(t.disagreements)}")
    for kind, n in Counter(kind for _, kind, *_ in t.disagreements).most_common():
        print(f"  {kind:16} {n}")
    print(f"crashes            {len(t.crashes)}")
    print(f"time               {seconds:.1f} s ({t.runs / seconds:.0f} runs/s)")
    shown = set()
    for case, kind, a, b in t.disagreements:
        if case.text not in shown and len(shown) < 10:
            shown.add(case.text)
            print(f"- {kind}: {case.game}: {case.text!r} seed={case.seed} agent={case.agent} "
                  f"player={case.player} -> compiled {a['status']!r}, reference {b['status']!r}")
    for case, a, b in t.crashes[:10]:
        print(f"- crash: {case.game}: {case.text!r} seed={case.seed}: {a} / {b}")
    return 1 if t.disagreements or t.crashes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
