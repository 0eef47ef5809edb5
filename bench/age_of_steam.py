"""Benchmark: the Age of Steam Moon map and engine.

    python bench/age_of_steam.py            # prints figures, saves bench/results/age_of_steam.json

Measures (medians, on the committed generated/age_of_steam and data/age_of_steam/moon.yaml):
- map check: load moon.yaml, schema-validate and run the E601 checks (runtime/games/age_of_steam/maps.py);
- SVG: ``render_map_svg`` of the Moon;
- connectivity: ``connected()`` (Complete Links to the Landing hex) on a board after 20 random turns
  (since issue 27 a look-up in the track index after its first call: runtime/games/age_of_steam/index.py);
- random turns: seeded random turns (builds, moves, refusals, Goods Growth, Satellite) per second.
No test asserts on time; the figures are reported in the issue's closing note.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler.diagnostics import Diagnostics  # noqa: E402
from compiler.loader import load_file  # noqa: E402
from runtime.games.age_of_steam.maps import check_map  # noqa: E402
from runtime.games.age_of_steam.mapsvg import render_map_svg  # noqa: E402
from compiler.schema import validate  # noqa: E402
from runtime.engine import engine_for, load_compiled  # noqa: E402
from runtime.games.age_of_steam.playout import random_turn  # noqa: E402


def median_ms(fn, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    compiled = load_compiled("age_of_steam")
    eng = engine_for(compiled)
    moon = ROOT / "data" / "age_of_steam" / "moon.yaml"

    def map_check():
        d = Diagnostics()
        doc = load_file(moon, d)
        assert validate(doc, "map", d, ("map",)) and check_map(doc, compiled.vocab, d)

    out = {"map_check_ms": median_ms(map_check, 50),
           "svg_ms": median_ms(lambda: render_map_svg(compiled.maps["moon"], compiled.vocab), 50)}
    game = eng.new_game(compiled, ["A", "B", "C", "D"], seed=1)
    for p in game.players:
        p.goods["money"] = 10**6
    rng = random.Random(1)
    for _ in range(20):
        random_turn(game, rng)
    out["links_after_20_turns"] = len(game.moon.links)
    out["connected_ms"] = median_ms(lambda: eng.connected(game), 200)
    turns, t = 0, time.perf_counter()
    for seed in range(10):
        g = eng.new_game(compiled, ["A", "B", "C", "D"][: 3 + seed % 2], seed=seed)
        for p in g.players:
            p.goods["money"] = 200
        r = random.Random(seed)
        for _ in range(20):
            random_turn(g, r)
            turns += 1
    out["random_turns_per_s"] = turns / (time.perf_counter() - t)
    for k, v in out.items():
        print(f"{k:>24}: {v:,.2f}" if isinstance(v, float) else f"{k:>24}: {v}")
    res = ROOT / "bench" / "results"
    res.mkdir(parents=True, exist_ok=True)
    (res / "age_of_steam.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
