"""Benchmark: the schema stage's per-card check three ways (issue 27 item 4).

    pip install jsonschema-rs          # into the bench's environment: not a dependency of cardwright
    python bench/schema_check.py [--cards 10000]

On bench/corpus.py's cards (C-loaded YAML), CPU seconds to answer "is this card valid?" for every
card with: the checks compiled from the schema that the build uses (compiler/schema.py
``fast_check``), jsonschema-rs, and jsonschema itself (on a tenth of the cards, scaled up). Also
asked of a few broken cards: does each answer "invalid" where jsonschema does? (The build words
every error with jsonschema; a fast check may only ever skip that work for a valid card.)
Nothing here is asserted by the tests.
"""
from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=10000)
    args = ap.parse_args()
    import yaml

    import corpus
    from compiler.schema import prepare_cards

    with tempfile.TemporaryDirectory() as tmp:
        data = corpus.write(Path(tmp), args.cards, 1000) / corpus.GAME
        game = yaml.load((data / "game.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        cards = [c for p in sorted(data.glob("module_*.yaml"))
                 for c in yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)["cards"]]
    prepared = prepare_cards(game)
    rows = []
    t = time.process_time()
    ok = sum(map(prepared.quick, cards))
    rows.append(("checks compiled from the schema (the build's)", time.process_time() - t, ok))
    try:
        import jsonschema_rs

        rs = jsonschema_rs.validator_for(prepared.schema)
        t = time.process_time()
        ok = sum(map(rs.is_valid, cards))
        rows.append((f"jsonschema-rs {jsonschema_rs.__version__ if hasattr(jsonschema_rs, '__version__') else ''}",
                     time.process_time() - t, ok))
    except ImportError:
        rs = None
        print("jsonschema-rs is not installed here: its row is left out")
    tenth = cards[: max(1, len(cards) // 10)]
    t = time.process_time()
    ok = sum(map(prepared.validator.is_valid, tenth))
    rows.append(("jsonschema (scaled from a tenth)", (time.process_time() - t) * len(cards) / len(tenth),
                 ok * len(cards) // len(tenth)))
    print(f"{len(cards)} cards, 'is it valid?' for each, CPU [load {os.getloadavg()[0]:.2f}]:")
    for name, cpu, ok in rows:
        print(f"  {name:48} {cpu:7.3f} s  ({ok} valid)")
    broken = []
    for change in (lambda c: c.update(cost=1.0), lambda c: c.update(cost=True), lambda c: c.pop("name"),
                   lambda c: c.update(unknown_field=1), lambda c: c.update(name=""), lambda c: c.update(kind=3)):
        c = copy.deepcopy(cards[0])
        change(c)
        broken.append(c)
    print("broken cards (jsonschema / compiled checks / jsonschema-rs say valid?):")
    for c in broken:
        print("  ", prepared.validator.is_valid(c), prepared.quick(c), rs.is_valid(c) if rs else "-")


if __name__ == "__main__":
    main()
