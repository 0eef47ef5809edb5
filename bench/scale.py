"""Benchmark: every figure of issue 15's table, against its floor, in one run.

    python bench/scale.py                          # this checkout
    python bench/scale.py --before /tmp/old-clone   # the same figures for another checkout, same run
    python bench/scale.py --quick                  # CI-safe: 1,000 cards, two edits, no 30,000

Corpora come from bench/corpus.py (varied cards of the bundled 51st State). Each figure is measured
by running the checkout's own ``cli.py`` in a fresh process, as a designer runs ``cardwright``:

- cold ``compile`` of 10,000 cards (modules of 1,000) and of 30,000 cards (modules of 1,000): CPU
  (user + system of that process), wall and peak memory (max RSS), with an empty build cache;
- the floor, in the same run: PyYAML's C loader over every module plus a Lark parse of every effect
  text (no dedupe, no AST) with this checkout's parser; the ratio compile CPU / floor CPU;
- ``validate`` of the same 10,000 cards (CPU), as a fraction of ``compile``;
- ``cardwright --help``: wall time (best of 7) and the number of modules it imports;
- ``watch``: the process started on a corpus of 10,000 cards in modules of 100, then of 1,000 (and
  one module of 10,000), one card's effect edited and saved, the time from the save until the
  module's generated file has changed on disk (median and worst of the edits; the first edit after
  the initial build is included).

The machine is shared: the load average is printed with every figure, and ratios between two
checkouts measured in one run mean more than any single figure. Results are printed and saved to
bench/results/ (gitignored); the reported ones are in docs/benchmarks.md. No test asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import corpus  # noqa: E402

PY = sys.executable


def load() -> float:
    return round(os.getloadavg()[0], 2)


# --- one measured process ------------------------------------------------------------------------


def measured(argv: list[str], cwd: Path, env: dict | None = None) -> dict:
    """Run ``argv`` in a fresh wrapper process, which reports that one child's CPU, wall and max RSS."""
    wrapper = ("import json, resource, subprocess, sys, time\n"
               "t = time.perf_counter()\n"
               "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
               "w = time.perf_counter() - t\n"
               "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
               "print(json.dumps({'rc': p.returncode, 'wall': w, 'cpu': r.ru_utime + r.ru_stime,"
               " 'maxrss_mb': r.ru_maxrss / 1024, 'err': p.stderr.decode()[-2000:]}))\n")
    out = subprocess.run([PY, "-c", wrapper, *argv], cwd=cwd, capture_output=True, text=True,
                         env=dict(os.environ, **(env or {})))
    res = json.loads(out.stdout)
    res["load"] = load()
    return res


def floor_child(data: str) -> None:
    """(In a child process.) The floor: C YAML load of every module + a Lark parse of every text.
    The cyclic collector is off, as in bench/stages.py's build (a one-shot command's setting): the two
    are compared under the same process settings (with it on, the floor read 2.82-2.87 s where it reads
    2.67 s off, in runs the same hour)."""
    import gc

    import yaml

    gc.disable()

    sys.path.insert(0, str(ROOT))
    from compiler.parser import _lark

    c0 = time.process_time()
    docs = [yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
            for p in sorted(Path(data).rglob("*.yaml"))]
    c1 = time.process_time()
    gdata = next(d for d in docs if isinstance(d, dict) and "card_kinds" in d)
    texts = []
    for d in docs:
        for c in (d or {}).get("cards") or []:
            for path in corpus._slots(gdata, c):
                v = c
                for k in path:
                    v = v[k]
                texts.append(v.lower())
    parser = _lark()
    c2 = time.process_time()
    for t in texts:
        parser.parse(t)
    c3 = time.process_time()
    print(json.dumps({"load_cpu": c1 - c0, "parse_cpu": c3 - c2, "texts": len(texts),
                      "distinct": len(set(texts))}))


def floor(data: Path) -> dict:
    out = subprocess.run([PY, __file__, "--floor-child", str(data)], capture_output=True, text=True, check=True)
    res = json.loads(out.stdout)
    res["cpu"] = res["load_cpu"] + res["parse_cpu"]
    res["load"] = load()
    return res


def cold(checkout: Path, command: str, data: Path, out: Path) -> dict:
    argv = [PY, str(checkout / "cli.py"), command, str(data)]
    if command == "compile":
        argv += ["--out", str(out)]
    res = measured(argv, cwd=out.parent)
    if res["rc"] != 0:
        raise SystemExit(f"{command} failed in {checkout}:\n{res['err']}")
    return res


def help_figures(checkout: Path) -> dict:
    runs = [measured([PY, str(checkout / "cli.py"), "--help"], cwd=checkout) for _ in range(7)]
    bare = [measured([PY, "-c", "pass"], cwd=checkout) for _ in range(7)]
    probe = ("import os, runpy, sys\nsys.argv = ['cardwright', '--help']\nbefore = set(sys.modules)\n"
             "try:\n    runpy.run_path(%r, run_name='__main__')\nexcept SystemExit:\n    pass\n"
             "os.write(2, str(len(set(sys.modules) - before)).encode())\n") % str(checkout / "cli.py")
    p = subprocess.run([PY, "-c", probe], cwd=checkout, capture_output=True, text=True)
    return {"wall": min(r["wall"] for r in runs), "cpu": min(r["cpu"] for r in runs),
            "python_alone": min(r["wall"] for r in bare), "python_alone_cpu": min(r["cpu"] for r in bare),
            "modules": int(p.stderr.strip().splitlines()[-1]), "load": load()}


# --- watch: save → output ------------------------------------------------------------------------


def _edit(path: Path, card: str, k: int) -> None:
    """Change one number in the first effect text of ``card`` (``gain 2`` → ``gain 5``)."""
    text = path.read_text(encoding="utf-8")
    start = text.index(f"- id: {card}\n")
    end = text.find("\n- id: ", start + 1)
    end = len(text) if end < 0 else end
    block = text[start:end]
    new = _EDITABLE.sub(lambda m: f"{m[1]} {(int(m[2]) + k) % 6 + 1}", block, count=1)
    if new == block:
        new = _EDITABLE.sub(lambda m: f"{m[1]} {(int(m[2]) + k + 1) % 6 + 1}", block, count=1)
    assert new != block, card
    path.write_text(text[:start] + new + text[end:], encoding="utf-8")


_EDITABLE = re.compile(r"\b(gain|draw|lose|spend) (\d)\b")


def watch_figures(checkout: Path, cards: int, per_module: int, edits: int, tmp: Path) -> dict:
    root = tmp / f"watch-{checkout.name}-{cards}-{per_module}"
    data = corpus.write(root, cards, per_module)
    out = root / "generated"
    proc = subprocess.Popen([PY, str(checkout / "cli.py"), "watch", str(data), "--out", str(out), "--no-scenarios",
                             "--cache-dir", str(root / "cache")], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    ready = threading.Event()

    def reader():
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("watching"):
                ready.set()

    threading.Thread(target=reader, daemon=True).start()
    t0 = time.perf_counter()
    if not ready.wait(600):
        proc.kill()
        raise SystemExit(f"watch did not start:\n{''.join(lines)}")
    initial = time.perf_counter() - t0
    time.sleep(0.5)
    modules = sorted((data / corpus.GAME).glob("module_*.yaml"))
    import random

    rng = random.Random(11)
    times = []
    try:
        for k in range(edits):
            m = rng.randrange(len(modules))
            index = m * per_module + rng.randrange(per_module)
            card = _card_id(modules[m], index - m * per_module)
            target = out / corpus.GAME / f"{modules[m].stem}.py"
            before = target.read_bytes()
            before_stamp = target.stat().st_mtime_ns
            t = time.perf_counter()
            _edit(modules[m], card, k)
            while True:
                try:
                    if target.stat().st_mtime_ns != before_stamp and target.read_bytes() != before:
                        break
                except OSError:
                    pass
                if time.perf_counter() - t > 60:
                    raise SystemExit(f"no output after an edit:\n{''.join(lines[-10:])}")
                time.sleep(0.002)
            times.append(time.perf_counter() - t)
            time.sleep(0.4)  # let the watcher settle (its report, the next look)
    finally:
        proc.terminate()
        proc.wait(10)
    return {"cards": cards, "per_module": per_module, "initial_build_wall": initial,
            "median": statistics.median(times), "worst": max(times), "first": times[0], "edits": len(times),
            "load": load()}


def _card_id(module: Path, i: int) -> str:
    """The id of the i-th card of the module, or of the first after it with a number to edit."""
    blocks = module.read_text(encoding="utf-8").split("\n- id: ")[1:]
    for block in blocks[i:] + blocks[:i]:
        if _EDITABLE.search(block):
            return block.split("\n", 1)[0]
    raise LookupError(i)


# --- the run ---------------------------------------------------------------------------------------


def figures(checkout: Path, args, tmp: Path, corpora: dict, floors: dict) -> dict:
    res: dict = {"checkout": str(checkout)}
    n = args.cards
    data = corpora[n]
    for kind in ("compile", "validate"):
        runs = [cold(checkout, kind, data, tmp / f"out-{checkout.name}-{kind}-{r}") for r in range(args.runs)]
        res[f"{kind}_{n}"] = min(runs, key=lambda r: r["cpu"])
    res[f"ratio_{n}"] = res[f"compile_{n}"]["cpu"] / floors[n]["cpu"]
    res["validate_fraction"] = res[f"validate_{n}"]["cpu"] / res[f"compile_{n}"]["cpu"]
    if not args.quick:
        res["compile_30000"] = cold(checkout, "compile", corpora[30000], tmp / f"out-{checkout.name}-30000")
        res["ratio_30000"] = res["compile_30000"]["cpu"] / floors[30000]["cpu"]
    res["help"] = help_figures(checkout)
    res["watch"] = [watch_figures(checkout, n, per, args.edits, tmp) for per in args.modules]
    return res


def report(name: str, r: dict, floors: dict, n: int) -> list[str]:
    c = r[f"compile_{n}"]
    v = r[f"validate_{n}"]
    out = [f"== {name}: {r['checkout']}",
           f"cold compile, {n:,} cards: {c['cpu']:.2f} s CPU, {c['wall']:.2f} s wall, {c['maxrss_mb']:.0f} MB peak"
           f"  (target <= 3 s)  [load {c['load']}]",
           f"  ratio to its floor ({floors[n]['cpu']:.2f} s CPU): {r[f'ratio_{n}']:.2f}x  (target <= 1.5x)",
           f"validate, {n:,} cards: {v['cpu']:.2f} s CPU = {r['validate_fraction']:.2f} of compile  [load {v['load']}]"]
    if "compile_30000" in r:
        t = r["compile_30000"]
        out.append(f"cold compile, 30,000 cards: {t['cpu']:.2f} s CPU, {t['wall']:.2f} s wall, {t['maxrss_mb']:.0f} MB"
                   f" peak, {r['ratio_30000']:.2f}x its floor  (target <= 10 s, <= 500 MB)  [load {t['load']}]")
    h = r["help"]
    out.append(f"--help: {h['wall']:.3f} s wall, {h['cpu']:.3f} s CPU (python alone {h['python_alone']:.3f} s,"
               f" {h['python_alone_cpu']:.3f} s CPU), {h['modules']} modules imported  (target <= 0.05 s)"
               f"  [load {h['load']}]")
    for w in r["watch"]:
        out.append(f"watch, {w['cards']:,} cards in modules of {w['per_module']:,}: save -> output median "
                   f"{w['median']:.3f} s, worst {w['worst']:.3f} s, first {w['first']:.3f} s ({w['edits']} edits;"
                   f" initial build {w['initial_build_wall']:.1f} s)  (target <= 0.1 s)  [load {w['load']}]")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="another checkout, measured in the same run (first)")
    ap.add_argument("--quick", action="store_true", help="1,000 cards, 2 edits, no 30,000 (CI-safe)")
    ap.add_argument("--runs", type=int, default=1, help="cold runs per figure (the lowest CPU is kept)")
    ap.add_argument("--floor-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.floor_child:
        floor_child(args.floor_child)
        return
    args.cards = 1_000 if args.quick else 10_000
    args.edits = 2 if args.quick else 5
    args.modules = [100] if args.quick else [100, 1_000, 10_000]
    with tempfile.TemporaryDirectory(prefix="cardwright-scale-") as tmp_name:
        tmp = Path(tmp_name)
        sizes = [args.cards] + ([] if args.quick else [30_000])
        corpora = {n: corpus.write(tmp / f"corpus-{n}", n, 1_000 if n >= 1_000 else n) for n in sizes}
        floors = {n: floor(d) for n, d in corpora.items()}
        for n, f in floors.items():
            print(f"floor, {n:,} cards ({f['texts']:,} effect texts, {f['distinct']:,} distinct): "
                  f"{f['cpu']:.2f} s CPU (YAML {f['load_cpu']:.2f}, Lark {f['parse_cpu']:.2f})  [load {f['load']}]",
                  flush=True)
        runs = {}
        for name, checkout in ([("before", args.before.resolve())] if args.before else []) + [("after", ROOT)]:
            runs[name] = figures(checkout, args, tmp, corpora, floors)
            print("\n".join(report(name, runs[name], floors, args.cards)), flush=True)
        if args.before:
            b, a = runs["before"], runs["after"]
            n = args.cards
            print(f"== after / before: compile {a[f'compile_{n}']['cpu'] / b[f'compile_{n}']['cpu']:.2f}, "
                  f"validate {a[f'validate_{n}']['cpu'] / b[f'validate_{n}']['cpu']:.2f}, "
                  f"--help {a['help']['cpu'] / b['help']['cpu']:.2f} (CPU), watch medians "
                  + ", ".join(f"{x['median'] / y['median']:.2f}" for x, y in zip(a["watch"], b["watch"])))
    results = ROOT / "bench" / "results"
    results.mkdir(parents=True, exist_ok=True)
    path = results / time.strftime("scale-%Y%m%d-%H%M%S.json", time.gmtime())
    path.write_text(json.dumps({"floors": floors, "runs": runs, "python": sys.version.split()[0],
                                "cpus": os.cpu_count()}, indent=2), encoding="utf-8")
    print(f"saved {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
