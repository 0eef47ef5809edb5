"""Benchmark: one edited card in a large module under the real ``cardwright watch`` (issue 27 item 4).

    python bench/watch_edit.py                          # 1,000 cards in one module, 9 edits
    python bench/watch_edit.py --before DIR --rounds 2  # and another checkout, in turn

bench/scale.py's watch figure alone (``watch_figures``): the checkout's own ``cli.py watch`` started
on bench/corpus.py's cards, one card's effect edited and saved, the time from the save until the
module's generated file has changed on disk (wall clock: this is what a designer waits; the median
and the worst of the edits, the first edit after the initial build included). The load average is
printed beside each figure. Then the same edits inside one process (a ``Watcher`` on the same
corpus, as bench/watch.py does): the CPU time of each save, poll and rebuild and write, which the
load of a shared machine disturbs far less than the wall clock. No test asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import scale  # noqa: E402


def in_process(root: str, cards: int, per_module: int, edits: int) -> None:
    """(In a child process.) CPU seconds of each save in a Watcher of the checkout at ``root``."""
    sys.path.insert(0, root)
    from compiler.cache import ModuleCache
    from compiler.watch import Watcher

    with tempfile.TemporaryDirectory() as tmp:
        data = scale.corpus.write(Path(tmp), cards, per_module)
        w = Watcher(data, Path(tmp) / "generated", ModuleCache(Path(tmp) / "cache"))
        w.poll()
        assert w.build().ok
        w.settle()
        modules = sorted((data / scale.corpus.GAME).glob("module_*.yaml"))
        rng = random.Random(11)
        cpu = []
        for k in range(edits):
            m = rng.randrange(len(modules))
            card = scale._card_id(modules[m], rng.randrange(per_module))
            time.sleep(0.01)  # a distinct modification time, as between two real saves
            scale._edit(modules[m], card, k)
            t = time.process_time()
            rep = w.build(w.poll())
            cpu.append(time.process_time() - t)
            assert rep.ok and rep.written, (rep.errors, rep.written)
    print(json.dumps({"median": statistics.median(cpu), "worst": max(cpu), "edits": len(cpu),
                      "load": round(os.getloadavg()[0], 2)}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=1000)
    ap.add_argument("--per-module", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=9)
    ap.add_argument("--before", type=Path)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--in-process", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.in_process:
        in_process(args.in_process, args.cards, args.per_module, args.edits)
        return
    checkouts = [("after", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    for _ in range(args.rounds):
        for label, checkout in checkouts:
            with tempfile.TemporaryDirectory() as tmp:
                f = scale.watch_figures(checkout, args.cards, args.per_module, args.edits, Path(tmp))
            print(f"{label:7} {f['cards']} cards, modules of {f['per_module']}: save -> output median "
                  f"{f['median']:.3f} s, worst {f['worst']:.3f} s, first {f['first']:.3f} s ({f['edits']} edits) "
                  f"[load {f['load']}]", flush=True)
    for _ in range(args.rounds):
        for label, checkout in checkouts:
            p = subprocess.run([sys.executable, __file__, "--in-process", str(checkout), "--cards", str(args.cards),
                                "--per-module", str(args.per_module), "--edits", str(args.edits)],
                               capture_output=True, text=True, check=True)
            f = json.loads(p.stdout.strip().splitlines()[-1])
            print(f"{label:7} in process, CPU per save: median {f['median']:.3f} s, worst {f['worst']:.3f} s "
                  f"({f['edits']} edits) [load {f['load']}]", flush=True)


if __name__ == "__main__":
    main()
