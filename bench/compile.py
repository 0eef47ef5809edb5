"""Benchmark: the whole compiler pipeline on synthetic corpora of 1,000, 10,000 and 30,000 cards.

    python bench/compile.py                 # all sizes, 3 cold runs each, median reported
    python bench/compile.py --sizes 10000 --runs 1
    python bench/compile.py --profile 10000 # cProfile of one cold pipeline run (top 30 by cumulative)

For each size a synthetic game is written to a temporary folder (a realistic vocabulary, cards split
over several modules, effect texts varied from ~20 templates with random Goods, amounts, icons and
zones; about half the texts are distinct, as on real cards where "gain 1 fuel" recurs). Then, each in
a fresh Python process ("cold": nothing imported, no parser built, no cache):

- pipeline: ``compile_tree`` (load, validate, parse, check, emit; everything ``cardwright compile``
  does except writing), with its per-stage timings (``BuildResult.timings``);
- baseline: plain PyYAML loading of the same files (``yaml.load`` with the C loader) plus parsing
  every effect text with the Lark parser into the AST (``parse_effect``, no cache): the floor that
  the issue compares the pipeline with.

Targets (issue 2, item 12): 10,000 cards validated and compiled cold in at most 3 s on a 2-core
machine, and pipeline / (load + parse) <= 2. Figures are printed and saved to bench/results/
(gitignored); the reported figures live in docs/benchmarks.md. No test asserts on time.
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
RESULTS = ROOT / "bench" / "results"

GAME_YAML = """\
game: bench
name: Benchmark game
engine: core
source: example
goods:
  fuel: {name: Fuel}
  gun: {name: Gun}
  iron: {name: Iron}
  brick: {name: Brick}
  worker: {name: Worker}
  card_token: {name: Card token}
  vp: {name: Victory Point, aliases: [victory point, victory points]}
  arrow: {name: Arrow}
icons:
  green: {name: Green, good: fuel}
  red: {name: Red, good: gun}
  grey: {name: Grey, good: iron}
  brown: {name: Brown, good: brick}
  worker: {name: Worker figure, good: worker}
  blue: {name: Blue, good: card_token}
zones:
  hand: {per: player}
  deck: {per: game}
  discard: {per: player}
  state: {per: player}
  parts_pile: {per: player}
  scrap: {per: game}
things:
  location: {zones: [state], kinds: [location]}
  production location: {zones: [state], kinds: [location], where: {row: production}}
  feature location: {zones: [state], kinds: [location], where: {row: feature}}
  action location: {zones: [state], kinds: [location], where: {row: action}}
  machine: {zones: [state], kinds: [machine]}
phases: [lookout, production, action, cleanup]
card_kinds:
  location:
    slots:
      production: {name: Production}
      feature: {name: Feature}
      action: {name: Action}
      building_bonus: {name: Building bonus}
    fields:
      row: {enum: [production, feature, action]}
      icons: icons
      distance: int
      spoils: goods
      deal: goods
  machine:
    slots:
      assault: {name: Assault}
    fields:
      defense: int
      rage: bool
    faces:
      hacked:
        slots:
          production: {name: Production}
          action: {name: Action}
rules:
  hand: hand
  draw_from: deck
  discard_to: discard
"""

GOODS = ["fuel", "gun", "iron", "brick", "worker", "vp", "arrow"]
ICONS = ["green", "red", "grey", "brown", "worker", "blue"]
THINGS = ["locations", "production locations", "feature locations", "action locations"]

# {g} {h} Goods, {n} {m} small numbers, {i} {j} icons, {t} a thing
TEMPLATES = [
    "gain {n} {g}",
    "gain {n} {g}, {m} {h}",
    '"spend {n} {g}: gain {m} {h}"',
    '"spend {n} {g}, {m} {h}: gain {m} vp"',
    "draw {n} cards",
    "draw {n} cards from your discard",
    "lose {n} {g}",
    '"for each of your {t} with icon {i} or {j}: gain 1 {g}"',
    '"for each of your {t} as it: gain {n} {g}"',
    "requires {n} card in your hand; discard 1 card from your hand; gain {m} {g}",
    '"if number of cards in your hand >= {n}: gain 1 {g}"',
    "choose 1 of your {t} as target; place {n} {g} on target",
    "x is number of your {t} with icon {i}; gain x {g}",
    "give 1 card from your hand to opponent; draw {n} cards",
    "gain (2 + number of your {t}) {g}",
    "draw (3 - number of cards in your hand) cards",
    "requires number of your {t} >= {n}; gain {m} {g}; draw 1 card",
    '"spend 1 {g}: draw {n} cards; gain 1 vp"',
    "discard 1 card from your hand; draw {n} cards; gain {m} {g}",
]


def effect(rng: random.Random) -> str:
    g, h = rng.sample(GOODS, 2)
    i, j = rng.sample(ICONS, 2)
    return rng.choice(TEMPLATES).format(g=g, h=h, i=i, j=j, t=rng.choice(THINGS), n=rng.randint(1, 4),
                                        m=rng.randint(1, 3))


def card_yaml(k: int, rng: random.Random) -> str:
    if rng.random() < 0.1:
        lines = [f"  - id: machine_{k}", "    kind: machine", f"    name: Machine {k}", "    source: example",
                 f"    defense: {rng.randint(2, 6)}", f"    rage: {rng.choice(['true', 'false'])}",
                 f"    assault: {effect(rng)}", "    hacked:", f"      production: {effect(rng)}"]
        if rng.random() < 0.5:
            lines.append(f"      action: {effect(rng)}")
        return "\n".join(lines) + "\n"
    row = rng.choice(["production", "feature", "action"])
    icons = ", ".join(rng.sample(ICONS, rng.randint(1, 2)))
    lines = [f"  - id: location_{k}", "    kind: location", f"    name: Location {k}", "    source: example",
             f"    row: {row}", f"    icons: [{icons}]", f"    distance: {rng.randint(1, 5)}",
             f"    spoils: [{', '.join(rng.sample(GOODS[:5], 2))}]", f"    deal: [{rng.choice(GOODS[:5])}]",
             f"    {row}: {effect(rng)}"]
    if rng.random() < 0.3:
        lines.append(f"    building_bonus: {effect(rng)}")
    if rng.random() < 0.2:
        lines.append(f'    text: "Printed text of location {k}: kept for the reference, never compiled."')
    if rng.random() < 0.1:
        lines.append(f"    count: {rng.randint(1, 3)}")
    return "\n".join(lines) + "\n"


def write_corpus(folder: Path, n: int, seed: int = 2) -> Path:
    rng = random.Random(seed)
    game = folder / "data" / "bench"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    modules = 4 + n // 5000
    per = -(-n // modules)
    k = 0
    for m in range(modules):
        with open(game / f"module_{m:02d}.yaml", "w", encoding="utf-8") as fh:
            fh.write(f"name: Module {m}\ncards:\n")
            for _ in range(min(per, n - k)):
                fh.write(card_yaml(k, rng))
                k += 1
    return folder / "data"


# --- the measured work (each in a fresh process) ----------------------------------------------------


_WALL = time.perf_counter  # kept: measure_pipeline points time.perf_counter at process_time


def _clocks() -> tuple[float, float]:
    """(wall, CPU) seconds. The machine is shared: CPU time (user + system of this process) is what
    the work costs; wall time also counts the time other processes held the cores."""
    return _WALL(), time.process_time()


def measure_pipeline(data: str) -> dict:
    w0, c0 = _clocks()
    sys.path.insert(0, str(ROOT))
    from compiler import build

    w1, c1 = _clocks()
    real_clock = build.time.perf_counter
    build.time.perf_counter = time.process_time  # per-stage figures in CPU seconds too
    try:
        result = build.compile_tree(Path(data))
        w2, c2 = _clocks()
        if not result.ok:
            raise SystemExit("the synthetic corpus does not compile:\n"
                             + "\n".join(d.render() for d in result.diags[:5]))
        build.compile_tree(Path(data))  # warm: parser built, caches filled
        w3, c3 = _clocks()
    finally:
        build.time.perf_counter = real_clock
    cards = sum(g.card_count for g in result.games.values())
    effects = sum(g.effect_count for g in result.games.values())
    return {"import_cpu": c1 - c0, "pipeline_wall": w2 - w1, "pipeline_cpu": c2 - c1, "warm_cpu": c3 - c2,
            "stages_cpu": result.timings, "cards": cards, "effects": effects,
            "output_bytes": sum(len(v) for v in result.outputs.values())}


def measure_baseline(data: str) -> dict:
    sys.path.insert(0, str(ROOT))
    import yaml

    from compiler.parser import _lark, parse_effect

    slots = {"production", "feature", "action", "building_bonus", "assault"}
    w0, c0 = _clocks()
    docs = []
    for p in sorted(Path(data).rglob("*.yaml")):
        docs.append(yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader))
    w1, c1 = _clocks()
    texts = []
    for d in docs:
        for c in d.get("cards") or []:
            for k, v in c.items():
                if k in slots:
                    texts.append(v)
                elif k == "hacked":
                    texts += list(v.values())
    _lark()  # the parser is built (or its tables loaded) here, as in the pipeline
    fn = parse_effect.__wrapped__  # bypass the text cache: parse every text
    for t in texts:
        effect, problem = fn(t)
        assert problem is None, (t, problem)
    w2, c2 = _clocks()
    return {"load_cpu": c1 - c0, "parse_cpu": c2 - c1, "load_wall": w1 - w0, "parse_wall": w2 - w1,
            "texts": len(texts), "distinct": len(set(texts))}


GRAMMAR_CACHE = True


def _child(kind: str, data: str) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0")
    if not GRAMMAR_CACHE:
        env["CARDWRIGHT_CACHE"] = ""  # no parser-table cache: the strict Lark build runs in every process
    proc = subprocess.run([sys.executable, __file__, f"--{kind}", data], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    if proc.returncode:
        raise SystemExit(proc.stderr)
    return json.loads(proc.stdout)


def run(sizes: list[int], runs: int) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="cardwright-bench-") as tmp:
        for n in sizes:
            data = write_corpus(Path(tmp) / str(n), n)
            size = sum(p.stat().st_size for p in data.rglob("*.yaml"))
            pipes = [_child("pipeline", str(data)) for _ in range(runs)]
            bases = [_child("baseline", str(data)) for _ in range(runs)]
            med = lambda xs: round(statistics.median(xs), 3)  # noqa: E731
            pipe = med([p["pipeline_cpu"] for p in pipes])
            base = med([b["load_cpu"] + b["parse_cpu"] for b in bases])
            stages = {k: med([p["stages_cpu"].get(k, 0.0) for p in pipes]) for k in pipes[0]["stages_cpu"]}
            row = {"cards": pipes[0]["cards"], "effects": pipes[0]["effects"], "distinct_texts": bases[0]["distinct"],
                   "yaml_mb": round(size / 1e6, 2), "modules": len(list(data.rglob("module_*.yaml"))),
                   "pipeline_cpu_s": pipe, "pipeline_wall_s": med([p["pipeline_wall"] for p in pipes]),
                   "warm_cpu_s": med([p["warm_cpu"] for p in pipes]), "import_cpu_s": med([p["import_cpu"] for p in pipes]),
                   "stages_cpu_s": stages,
                   "baseline_load_cpu_s": med([b["load_cpu"] for b in bases]),
                   "baseline_parse_cpu_s": med([b["parse_cpu"] for b in bases]),
                   "baseline_cpu_s": base,
                   "baseline_wall_s": med([b["load_wall"] + b["parse_wall"] for b in bases]),
                   "ratio": round(pipe / base, 2), "runs": runs, "loadavg_1min": round(os.getloadavg()[0], 1),
                   "grammar_cache": GRAMMAR_CACHE}
            rows.append(row)
            print(f"{n:>6} cards ({row['effects']} effects, {row['distinct_texts']} distinct texts, {row['yaml_mb']} MB, "
                  f"{row['modules']} modules)\n"
                  f"       pipeline {pipe:.2f} s CPU cold (+{row['import_cpu_s']:.2f} imports; wall {row['pipeline_wall_s']:.2f} s;"
                  f" warm {row['warm_cpu_s']:.2f} s CPU): "
                  + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
                  + f"\n       load+parse {base:.2f} s CPU (load {row['baseline_load_cpu_s']:.2f}, parse "
                  f"{row['baseline_parse_cpu_s']:.2f}; wall {row['baseline_wall_s']:.2f})"
                  f"  ratio {row['ratio']:.2f}  [load average {row['loadavg_1min']}"
                  + ("" if GRAMMAR_CACHE else "; no grammar cache") + "]", flush=True)
    return rows


def profile(n: int) -> None:
    import cProfile
    import pstats

    with tempfile.TemporaryDirectory(prefix="cardwright-bench-") as tmp:
        data = write_corpus(Path(tmp), n)
        sys.path.insert(0, str(ROOT))
        from compiler.build import compile_tree

        prof = cProfile.Profile()
        prof.enable()
        compile_tree(data)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[1000, 10000, 30000])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", type=int, metavar="N")
    ap.add_argument("--pipeline", metavar="DATA", help=argparse.SUPPRESS)
    ap.add_argument("--baseline", metavar="DATA", help=argparse.SUPPRESS)
    ap.add_argument("--write", metavar="DIR", help="only write a corpus of --sizes[0] cards to DIR")
    ap.add_argument("--no-grammar-cache", action="store_true",
                    help="measure the first run ever: build the parser tables in every process")
    args = ap.parse_args()
    global GRAMMAR_CACHE
    GRAMMAR_CACHE = not args.no_grammar_cache
    if args.pipeline:
        print(json.dumps(measure_pipeline(args.pipeline)))
    elif args.baseline:
        print(json.dumps(measure_baseline(args.baseline)))
    elif args.profile:
        profile(args.profile)
    elif args.write:
        print(write_corpus(Path(args.write), args.sizes[0]))
    else:
        rows = run(args.sizes, args.runs)
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / time.strftime("compile-%Y%m%d-%H%M%S.json", time.gmtime())
        out.write_text(json.dumps({"cpu_count": os.cpu_count(), "python": sys.version.split()[0], "rows": rows},
                                  indent=2), encoding="utf-8")
        print(f"saved {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
