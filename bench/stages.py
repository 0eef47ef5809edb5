"""Benchmark: a cold build of a large corpus stage by stage, beside its floor, in one run (issue 27 item 4).

    python bench/stages.py                       # 10,000 cards in modules of 1,000, 3 runs of each
    python bench/stages.py --cards 1000 --runs 1
    python bench/stages.py --before DIR          # also another checkout's build, in turn, same corpus

The corpus is bench/corpus.py's (varied cards of the bundled 51st State). Each figure comes from a
fresh Python process (nothing imported, no build cache, the parser tables loaded as shipped):

- *stages*: ``compile_tree`` as ``cardwright compile`` runs it, its ``BuildResult.timings`` taken
  in CPU seconds (the child's stage clock is ``time.process_time``), then ``write_outputs`` into
  an empty folder; the imports of the compiler timed before it. Stages: YAML load, schema check
  (``validate``), Lark parse of the distinct texts with the walk to the AST, check, code generation
  (``emit``) and writing the files; *other* is the rest of the build (per-card bookkeeping, the game
  file, the cross-card checks).
- *floor*: PyYAML's C loader over every module plus a Lark parse of every effect text (no dedupe,
  no AST), the floor the issue compares the build with (bench/scale.py ``floor_child``).
- with ``--before DIR``: the same stages for the checkout in DIR (its own ``compiler``), run in turn
  with this one, to give before/after in the same run.

Every run prints the load average (1 minute) beside it; the machine is shared, so compare figures
of one run. Medians of ``--runs`` are reported; results go to bench/results/stages.json
(gitignored) and the reported ones to docs/benchmarks.md. No test asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import corpus  # noqa: E402

PY = sys.executable
STAGES = ("imports", "load", "validate", "parse", "check", "emit", "write", "other", "total")


def load() -> float:
    return round(os.getloadavg()[0], 2)


def stages_child(data: str, out: str, root: str) -> None:
    """(In a child process.) One cold build by the checkout at ``root``, its stages in CPU seconds."""
    # as the `cardwright` program runs a one-shot command (commands/common.py, ``ONE_SHOT``, since
    # 7005a4a): the cyclic collector stays off to the end of the process. compile_tree alone switches
    # it back on when it returns, and the collection of the whole heap that followed fell into the
    # "write" stage here (0.25 s of a 10,000-card build) though the command never runs it.
    import gc

    gc.disable()
    c0 = time.process_time()
    sys.path.insert(0, root)
    from compiler import build

    c1 = time.process_time()
    build.time.perf_counter = time.process_time  # the stage timer reads CPU time in this process
    import inspect

    # as `cardwright compile` runs it: since issue 27 it lets each module's Document go once compiled
    lets_go = "keep_documents" in inspect.signature(build.compile_tree).parameters
    result = build.compile_tree(Path(data), **({"keep_documents": False} if lets_go else {}))
    c2 = time.process_time()
    if not result.ok:
        raise SystemExit("the corpus does not compile: " + result.diags.errors[0].headline())
    build.write_outputs(result, Path(out))
    c3 = time.process_time()
    t = {k: v for k, v in result.timings.items()}
    out_t = {"imports": c1 - c0, "write": c3 - c2, "total": c3 - c0}
    for k in ("load", "validate", "parse", "check", "emit"):
        out_t[k] = t.pop(k, 0.0)
    out_t["other"] = (c2 - c1) - sum(out_t[k] for k in ("load", "validate", "parse", "check", "emit"))
    print(json.dumps(out_t))


def run_child(args: list[str]) -> dict:
    p = subprocess.run([PY, __file__, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(p.stderr[-3000:])
    res = json.loads(p.stdout.strip().splitlines()[-1])
    res["load_avg"] = load()
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=10000)
    ap.add_argument("--per-module", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--before", help="another checkout: its build measured in turn with this one")
    ap.add_argument("--stages-child", nargs=3, help=argparse.SUPPRESS)
    ap.add_argument("--floor-child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.stages_child:
        stages_child(*args.stages_child)
        return
    if args.floor_child:
        import scale  # its floor, the same measure as issue 15's table

        scale.floor_child(args.floor_child)
        return
    kinds = [("build", str(ROOT))] + ([("build before", str(Path(args.before).resolve()))] if args.before else [])
    rows: dict[str, list] = {k: [] for k, _ in kinds}
    rows["floor"] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = corpus.write(Path(tmp), args.cards, args.per_module)
        for i in range(args.runs):  # in turn, so that a change of load touches every kind alike
            for label, root in kinds:
                out = Path(tmp) / f"out-{label.replace(' ', '_')}-{i}"
                r = run_child(["--stages-child", str(data), str(out), root])
                rows[label].append(r)
                print(f"{label:20} run {i + 1}: " + ", ".join(f"{k} {r[k]:.2f}" for k in STAGES)
                      + f" [load {r['load_avg']}]", flush=True)
            f = run_child(["--floor-child", str(data)])
            f["cpu"] = f["load_cpu"] + f["parse_cpu"]
            rows["floor"].append(f)
            print(f"{'floor':20} run {i + 1}: YAML C-load {f['load_cpu']:.2f} + Lark parse {f['parse_cpu']:.2f} "
                  f"of {f['texts']} texts ({f['distinct']} distinct) = {f['cpu']:.2f} [load {f['load_avg']}]",
                  flush=True)
    med = {label: {k: statistics.median(r[k] for r in runs) for k in runs[0] if k != "load_avg"}
           for label, runs in rows.items()}
    floor = med["floor"]["cpu"]
    print(f"\nmedians of {args.runs} ({args.cards} cards, modules of {args.per_module}), CPU seconds:")
    print("| stage | " + " | ".join(k for k, _ in kinds) + " |")
    for k in STAGES:
        print(f"| {k} | " + " | ".join(f"{med[label][k]:.2f}" for label, _ in kinds) + " |")
    print(f"| floor (YAML C-load {med['floor']['load_cpu']:.2f} + Lark parse {med['floor']['parse_cpu']:.2f}) | "
          + " | ".join(f"{floor:.2f}" for _ in kinds) + " |")
    print("| total / floor | " + " | ".join(f"{med[label]['total'] / floor:.2f}" for label, _ in kinds) + " |")
    res = ROOT / "bench" / "results"
    res.mkdir(exist_ok=True)
    (res / "stages.json").write_text(json.dumps({"cards": args.cards, "per_module": args.per_module,
                                                 "runs": rows, "medians": med}, indent=2) + "\n")


if __name__ == "__main__":
    main()
