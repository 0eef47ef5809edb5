"""Benchmark: watch mode on a 10,000-card corpus — one card edited, time to revalidate and recompile.

    python bench/watch.py                    # 10,000 cards in 100 modules, 7 edits, median reported
    python bench/watch.py --modules 10       # the same cards in 10 modules of 1,000
    python bench/watch.py --cards 30000 --edits 3

A synthetic core-engine game is written to a temporary folder (the cards split evenly over module
files; effect texts varied from templates over several Goods, zones, amounts and icons). A
``Watcher`` (compiler/watch.py) with a fresh on-disk ``ModuleCache`` does the initial (cold) build,
then each edit changes one card's effect text in one module and times what a save costs in watch
mode: noticing the change (polling every file's mtime), rebuilding (the edited module parsed,
checked and emitted; every other module replayed from the cache; the game's tables re-made) and
writing the changed generated file. Also timed: an edit that introduces an error (reported, nothing
written) and its fix.

Target (issue 8): one edited card revalidated and recompiled in at most 0.3 s. Figures are printed
and saved to bench/results/ (gitignored); the reported figures live in docs/benchmarks.md. No test
asserts on time.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.cache import ModuleCache  # noqa: E402
from compiler.watch import Watcher  # noqa: E402

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
  vp: {name: Victory Point, aliases: [victory point, victory points]}
icons:
  green: {name: Green, good: fuel}
  red: {name: Red, good: gun}
  grey: {name: Grey, good: iron}
  worker: {name: Worker figure, good: worker}
zones:
  hand: {per: player}
  deck: {per: game}
  discard: {per: player}
  state: {per: player}
things:
  location: {zones: [state], kinds: [location]}
  production location: {zones: [state], kinds: [location], where: {row: production}}
phases: [production, action, cleanup]
card_kinds:
  location:
    slots:
      production: {name: Production}
      action: {name: Action}
    fields:
      row: {enum: [production, feature, action]}
      icons: icons
      cost: int
rules:
  hand: hand
  draw_from: deck
  discard_to: discard
"""

GOODS = ["fuel", "gun", "iron", "brick", "worker", "vp"]
ICONS = ["green", "red", "grey", "worker"]
TEMPLATES = [
    "gain {n} {g}",
    "spend {n} {g}: gain {m} {h}",
    "spend {n} {g}, {m} {h}: gain 1 vp",
    "draw {n} cards",
    "draw (3 - number of cards in your hand) cards",
    "gain 1 {g} per location in your state",
    "for each of your locations with icon {i}: gain 1 {g}",
    "requires {n} card in your hand; discard 1 card from your hand; gain {m} {g}",
    "x is number of locations in your state; gain x {g}",
    "if number of cards in your hand < {n}: draw 1 card",
    "choose 1 of your locations as target; place {n} {g} on target",
    "give 1 card from your hand to opponent; gain {n} {g}",
]


def effect(rng: random.Random) -> str:
    return rng.choice(TEMPLATES).format(n=rng.randint(1, 4), m=rng.randint(1, 3), g=rng.choice(GOODS),
                                        h=rng.choice(GOODS), i=rng.choice(ICONS))


def card_text(i: int, rng: random.Random, production: str | None = None) -> str:
    row = rng.choice(["production", "feature", "action"])
    icons = ", ".join(sorted(rng.sample(ICONS, rng.randint(1, 2))))
    lines = [f"  - id: card_{i:05d}", "    kind: location", f"    name: Card {i}", "    source: example",
             f"    row: {row}", f"    icons: [{icons}]", f"    cost: {rng.randint(0, 5)}",
             f"    production: \"{production or effect(rng)}\""]
    if rng.random() < 0.5:
        lines.append(f"    action: \"{effect(rng)}\"")
    return "\n".join(lines) + "\n"


def write_corpus(root: Path, cards: int, modules: int, seed: int = 1) -> list[Path]:
    rng = random.Random(seed)
    game = root / "data" / "bench"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(GAME_YAML, encoding="utf-8")
    per = cards // modules
    files = []
    for m in range(modules):
        body = "".join(card_text(m * per + k, rng) for k in range(per))
        p = game / f"module_{m:03d}.yaml"
        p.write_text(f"name: Module {m}\ncards:\n{body}", encoding="utf-8")
        files.append(p)
    return files


def edit(path: Path, card: int, new_production: str) -> None:
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition(f"  - id: card_{card:05d}\n")
    block, sep, tail = rest.partition("  - id: ")
    lines = [ln if not ln.startswith("    production: ") else f"    production: \"{new_production}\""
             for ln in block.splitlines()]
    path.write_text(head + f"  - id: card_{card:05d}\n" + "\n".join(lines) + "\n" + sep + tail, encoding="utf-8")


def timed_save(w: Watcher):
    t = time.perf_counter()
    changed = w.poll()
    rep = w.build(changed)
    return time.perf_counter() - t, rep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--modules", type=int, default=100)
    ap.add_argument("--edits", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = write_corpus(root, args.cards, args.modules)
        w = Watcher(root / "data", root / "generated", ModuleCache(root / "cache"))
        w.poll()
        t = time.perf_counter()
        first = w.build()
        cold = time.perf_counter() - t
        assert first.ok, [d.headline() for d in first.result.diags.errors[:5]]
        per = args.cards // args.modules
        rng = random.Random(7)
        saves, errors, fixes = [], [], []
        for k in range(args.edits):
            m = rng.randrange(args.modules)
            card = m * per + rng.randrange(per)
            time.sleep(0.01)  # a distinct modification time, as between two real saves
            edit(files[m], card, f"gain {k + 5} fuel")
            dt, rep = timed_save(w)
            assert rep.ok and rep.reparsed == 1 and rep.written, (rep.reparsed, rep.written)
            saves.append(dt)
            edit(files[m], card, "gain 2 fule")
            dt, rep = timed_save(w)
            assert len(rep.new) == 1 and rep.new[0].code == "E201"
            errors.append(dt)
            edit(files[m], card, "gain 2 fuel")
            dt, rep = timed_save(w)
            assert rep.ok and len(rep.fixed) == 1
            fixes.append(dt)
    figures = {
        "cards": args.cards, "modules": args.modules, "cards_per_module": per, "edits": args.edits,
        "cold_build_s": round(cold, 3),
        "edit_save_median_s": round(statistics.median(saves), 3), "edit_save_max_s": round(max(saves), 3),
        "error_save_median_s": round(statistics.median(errors), 3),
        "fix_save_median_s": round(statistics.median(fixes), 3),
        "python": platform.python_version(), "cpus": os.cpu_count(),
    }
    write_results(f"watch_{args.cards}_{args.modules}", figures)


def write_results(name: str, figures: dict) -> None:
    """Print the figures and keep them as bench/results/<name>.json (gitignored)."""
    print(json.dumps(figures, indent=2))
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
