"""Benchmark: parse + check + emit throughput of the effect language, per 10,000 effect texts.

    python bench/language.py                 # 10,000 texts, 5 rounds; prints the best and the median
    python bench/language.py --texts 20000

The texts are every effect of the bundled games, repeated with their numbers varied so that each
parse is real work (the per-text parse cache is bypassed). Each text is parsed, checked against its
game's vocabulary and verbs (which lowers it to the IR, where this checkout has one), and emitted
into a module, then the module is rendered with its compile() safety check. CPU time. The script runs
unchanged on checkouts from before the typed IR, so that two checkouts can be compared one after
the other in one sitting (see docs/benchmarks.md). No test asserts on time.
"""
from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def corpus(n: int) -> list[tuple[str, str, str]]:
    """(game, slot kind, text) × n, numbers varied (1..9) so texts differ."""
    import yaml

    from compiler.resources import BUNDLED_DATA

    base = []
    for game_dir in sorted(p for p in BUNDLED_DATA.iterdir() if (p / "game.yaml").is_file()):
        g = yaml.safe_load((game_dir / "game.yaml").read_text())
        kinds = g.get("card_kinds") or {}
        for mod in sorted(game_dir.glob("*.yaml")):
            if mod.name == "game.yaml":
                continue
            d = yaml.safe_load(mod.read_text()) or {}
            for card in d.get("cards") or []:
                slots = (kinds.get(card.get("kind")) or {}).get("slots") or {}
                for key, value in card.items():
                    if key in slots and isinstance(value, str):
                        base.append((game_dir.name, (slots[key] or {}).get("kind", "effect"), value))
            for value in (d.get("rules") or {}).values():
                base.append((game_dir.name, "effect", value))
    out = []
    i = 0
    while len(out) < n:
        game, kind, text = base[i % len(base)]
        k = i // len(base)
        out.append((game, kind, re.sub(r"\b([1-9])\b", lambda m: str((int(m.group(1)) + k) % 9 + 1), text)))
        i += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--texts", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()

    from compiler.build import load_game
    from compiler.check import Checker
    from compiler.codegen import ModuleWriter
    from compiler.diagnostics import Diagnostics
    from compiler.parser import _lark, parse_effect
    from compiler.resources import BUNDLED_DATA
    from runtime.verbs import verbs_for

    try:
        from compiler.lower import lower, lower_condition
    except ImportError:  # a checkout from before the typed IR: codegen reads the checked AST
        lower = lower_condition = None

    texts = corpus(args.texts)
    checkers = {}
    for game in sorted({g for g, _, _ in texts}):
        vocab = load_game(BUNDLED_DATA / game / "game.yaml", Diagnostics())[1]
        checkers[game] = Checker(vocab, verbs_for(vocab.engine))
    _lark()
    parse = parse_effect.__wrapped__
    times, stages = [], []
    clock = time.process_time
    for _ in range(args.rounds):
        mw = ModuleWriter("bench")
        split = dict.fromkeys(("parse", "check", "emit", "render"), 0.0)
        t0 = clock()
        for i, (game, kind, text) in enumerate(texts):
            src = ("requires " if kind == "condition" else "") + text
            a = clock()
            effect, problem = parse(src)
            b = clock()
            split["parse"] += b - a
            if problem is not None:
                continue
            checker = checkers[game]
            checked = checker.check(effect, lambda *a: None, kind=kind)
            c = clock()
            split["check"] += c - b
            if not checked.ok:
                continue
            body = checked
            if getattr(checked, "ir", None) is not None:  # the checker lowers what it accepts
                body = checked.ir
            elif lower is not None:  # a checkout where lowering was a separate step
                body = lower_condition(checked) if kind == "condition" else lower(checked)
            if kind == "condition":
                mw.condition_function(f"f{i}", body, "bench", None)
            else:
                mw.effect_function(f"f{i}", body, "bench", f"{i}:{text}")  # no body reuse between texts
            split["emit"] += clock() - c
        r = clock()
        mw.render([])
        split["render"] = clock() - r
        times.append(clock() - t0)
        stages.append(split)
    per10k = [t * 10_000 / len(texts) for t in times]
    best = stages[per10k.index(min(per10k))]
    print(f"{len(texts)} effect texts, parse + check + emit + render: best {min(per10k):.2f} s, "
          f"median {statistics.median(per10k):.2f} s CPU per 10,000 texts "
          f"({len(texts) / min(times):,.0f} texts/s best); best round: "
          + ", ".join(f"{k} {v * 10_000 / len(texts):.2f} s" for k, v in best.items()))


if __name__ == "__main__":
    main()
