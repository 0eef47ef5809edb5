"""Do 51st State's per-card findings survive a split of the games? (issue 24, item 5)

Run from the checkout root: `python bench/findings_split.py [GAMES [SEED [PACKS]]]` (default 2,000
games, seed 0, `scavengers`; 2 random seats). Plays the games of `cardwright simulate fifty_first_state
--games GAMES --seed SEED --pack …` (runtime/simulate.py, the same seeds), then runs the report's
per-card comparison (``card_effects``: copy for copy against the card's peers) on the whole run and on
each half (the first GAMES/2 games, the rest) and prints, per kind (played, in the final tableau,
drawn): the whole run's findings (as a table: effect against the card's peers, its interval, the plain
difference, whether it holds in both halves), how many the plain comparison would flag, which of them are
findings in both halves, which keep their sign in both, and the cards that are findings in a half only. A finding that holds in neither half, or flips,
is noise. The figures go to docs/fifty_first_state.md; no test asserts on them.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from runtime.engine import engine_for  # noqa: E402
from runtime.simulate import SimConfig, _compiled, card_effects, run_games  # noqa: E402
from runtime.stats import interval_text  # noqa: E402  (rounded outward: what it excludes is what is excluded)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    packs = tuple(sys.argv[3].split(",")) if len(sys.argv) > 3 else ("scavengers",)
    cfg = SimConfig("fifty_first_state", games=games, players=2, seed=seed, options=(("packs", packs),))
    records = run_games(cfg)
    compiled = _compiled("fifty_first_state")
    eng = engine_for(compiled)
    ids = sorted(compiled.cards)
    peers = {c: eng.peer_key(compiled.cards[c]) for c in ids}

    def effects(part):
        return card_effects(part, cfg.players, ids, peers, dict(eng.confounded_effects))

    whole, first, second = effects(records), effects(records[:games // 2]), effects(records[games // 2:])
    print(f"{games} games, seed {seed}, packs {'+'.join(packs)}, random seats; halves of {games // 2}")
    for kind in whole:
        found = sorted((c for c, v in whole[kind].items() if v["finding"]), key=lambda c: -whole[kind][c]["difference"])
        both = [c for c in found if first[kind][c]["finding"] and second[kind][c]["finding"]]
        sign = [c for c in found if all((h[kind][c]["difference"] > 0) == (whole[kind][c]["difference"] > 0)
                                        for h in (first, second))]
        only = sorted(c for c in ids if c in first[kind] and not whole[kind][c]["finding"]
                      and (first[kind][c]["finding"] or second[kind][c]["finding"]))
        print(f"{kind}: {len(found)} findings; in both halves {len(both)}: {', '.join(both) or '-'}; "
              f"same sign in both halves {len(sign)} of {len(found)}; findings in a half only: {', '.join(only) or '-'}")
        raw = sum(1 for v in whole[kind].values() if v["raw"]["low"] > 0 or v["raw"]["high"] < 0)
        print(f"  the plain comparison (with the card against without) flags {raw} of {len(whole[kind])}")
        print("  | card | effect against its peers | 95 % interval | plain difference | in both halves |")
        print("  |---|---|---|---|---|")
        for c in found:
            v = whole[kind][c]
            print(f"  | {compiled.cards[c].get('name', c)} | {v['difference']:+.1%} | "
                  f"{interval_text(v['low'], v['high'], 0.0, True)} | "
                  f"{v['raw']['difference']:+.1%} | {'yes' if c in both else 'no'} |")


if __name__ == "__main__":
    main()
