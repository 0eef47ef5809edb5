"""A corpus generator: N varied cards of one bundled game, for the scale benchmarks (issue 15).

    python bench/corpus.py OUT --cards 10000 --per-module 1000     # writes OUT/data/fifty_first_state/

Every card of the bundled 51st State (base set, Moloch, Scavengers; machines with their hacked faces,
connections, faction actions…) is the model of many: each copy gets a new id and name, and the numbers
in its effect texts are varied (1–6), and so are the resource Goods it names (fuel, brick, iron, gun),
and half of them get a second statement ("; gain 3 iron", "; draw 2 cards"…): changes the effect
language accepts wherever the original is accepted (the benchmarks refuse a corpus that does not
compile, so a change that broke this would be seen). The bundled cards themselves open the first module (other cards name them: "other
than <card>"). Deterministic for a given seed, size and module size.

Unlike bench/compile.py's synthetic game, this is the vocabulary, verbs and card shapes of a real game:
the effect texts have the variety of the bundled data (triggers, menus, costs, choices, faces).
"""
from __future__ import annotations

import argparse
import copy
import random
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = "fifty_first_state"
_DIGITS = re.compile(r"\b[1-9]\b")
_RESOURCES = ("fuel", "brick", "iron", "gun")  # the game's resource Goods: one may stand for another
_TAILS = ("gain {n} {g}", "draw {n} cards", "gain {n} vp", "lose {n} {g}", "gain {n} {g} per location in your state")
_RESOURCE = re.compile(r"\b(fuel|brick|iron|gun)\b")


def _bundled():
    import yaml

    game_dir = ROOT / "data" / GAME
    gdata = yaml.safe_load((game_dir / "game.yaml").read_text(encoding="utf-8"))
    cards = []
    for p in sorted(game_dir.glob("*.yaml")):
        if p.name != "game.yaml":
            cards += yaml.safe_load(p.read_text(encoding="utf-8")).get("cards") or []
    return game_dir, gdata, cards


def _slots(gdata: dict, card: dict) -> list[tuple[str, ...]]:
    """The paths of a card's effect texts (its kind's slots, and its faces' slots)."""
    spec = (gdata.get("card_kinds") or {}).get(card.get("kind")) or {}
    paths = [(k,) for k in (spec.get("slots") or {}) if isinstance(card.get(k), str)]
    for face, fspec in (spec.get("faces") or {}).items():
        value = card.get(face)
        if isinstance(value, dict):
            paths += [(face, k) for k in (fspec.get("slots") or {}) if isinstance(value.get(k), str)]
    return paths


def _vary(card: dict, gdata: dict, k: int, rng: random.Random) -> dict:
    new = copy.deepcopy(card)
    new["id"] = f"{card['id']}_v{k}"
    new["name"] = f"{card['name']} {k}"
    for path in _slots(gdata, card):
        holder = new
        for key in path[:-1]:
            holder = holder[key]
        text = _DIGITS.sub(lambda m: str(rng.randint(1, 6)), holder[path[-1]])
        text = _RESOURCE.sub(lambda m: rng.choice(_RESOURCES), text)
        if rng.random() < 0.5:  # a second statement, as many printed effects have
            text += "; " + rng.choice(_TAILS).format(n=rng.randint(1, 6), g=rng.choice(_RESOURCES))
        holder[path[-1]] = text
    return new


def _dump(cards: list[dict]) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump({"cards": cards}, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000)


def write(out: Path, cards: int, per_module: int, seed: int = 5) -> Path:
    """Write ``cards`` cards (the bundled ones first) in modules of ``per_module``; returns the data
    folder (``out/data``)."""
    game_dir, gdata, bundled = _bundled()
    folder = out / "data" / GAME
    folder.mkdir(parents=True)
    shutil.copy(game_dir / "game.yaml", folder / "game.yaml")
    rng = random.Random(seed + 1)
    made = list(bundled[:cards])
    k = 0
    while len(made) < cards:
        made.append(_vary(bundled[k % len(bundled)], gdata, k, rng))
        k += 1
    for m in range(0, cards, per_module):
        (folder / f"module_{m // per_module:03d}.yaml").write_text(
            f"name: Module {m // per_module}\n" + _dump(made[m:m + per_module]), encoding="utf-8")
    return out / "data"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--cards", type=int, default=10_000)
    ap.add_argument("--per-module", type=int, default=1_000)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    print(write(args.out, args.cards, args.per_module, args.seed))


if __name__ == "__main__":
    main()
