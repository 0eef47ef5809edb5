"""Issue 15: the per-card cache re-does only the edited card, and cached builds write what cold ones do.

Counts, not times: ``GameBuild.cards_compiled`` is the number of cards checked and generated afresh
in a build (the rest came from the per-card cache of compiler/cache.py).
"""
from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from compiler.build import compile_tree
from compiler.cache import ModuleCache
from compiler.resources import BUNDLED_DATA

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import corpus  # noqa: E402  (bench/corpus.py: varied cards of the bundled 51st State)

BAD = Path(__file__).resolve().parent / "bad_inputs"
MINI = Path(__file__).resolve().parent / "fixtures" / "mini"


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """360 cards: a module of 300 (the bundled cards first) and one of 60."""
    return corpus.write(tmp_path_factory.mktemp("corpus"), 360, 300)


def _copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(src, dst)
    return dst


def _build(data: Path, cache: ModuleCache):
    cache.begin_build()
    result = compile_tree(data, cache=cache)
    assert result.ok, [d.render() for d in result.diags.errors[:3]]
    return result


def _compiled(result) -> int:
    return sum(g.cards_compiled for g in result.games.values())


def _module(data: Path, n: int = 0) -> Path:
    return data / corpus.GAME / f"module_{n:03d}.yaml"


def _edit_card(path: Path, card: str, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    start = text.index(f"- id: {card}\n")
    end = text.find("\n- id: ", start + 1)
    block = text[start:end]
    assert old in block, (card, block)
    path.write_text(text[:start] + block.replace(old, new, 1) + text[end:], encoding="utf-8")


def _card_with(path: Path, pattern: str, without: str = "\0") -> tuple[str, str]:
    """The id of the first generated card (not a bundled one) whose block has ``pattern`` (and not
    ``without``), and the match."""
    text = path.read_text(encoding="utf-8")
    for block in text.split("\n- id: ")[1:]:
        cid = block.split("\n", 1)[0]
        m = re.search(pattern, block)
        if "_v" in cid and m and without not in block:
            return cid, m[0]
    raise LookupError(pattern)


def test_one_edited_card_is_the_only_card_compiled_and_the_output_is_the_cold_builds(big, tmp_path):
    data = _copy(big, tmp_path)
    cache = ModuleCache()
    first = _build(data, cache)
    assert _compiled(first) == 360
    assert _compiled(_build(data, cache)) == 0  # nothing changed: both modules replayed whole
    cid, found = _card_with(_module(data), r"gain \d fuel")
    _edit_card(_module(data), cid, found, found.replace("fuel", "iron"))
    warm = _build(data, cache)
    assert _compiled(warm) == 1
    assert cache.reread == 1  # the module's YAML: only the edited card's lines read again (compiler/cardblocks.py)
    assert cache.cards_reused == 299  # the rest of its module; the other module replayed whole
    cold = compile_tree(data)
    assert warm.outputs == cold.outputs and warm.outputs != first.outputs


def test_a_card_that_grows_moves_the_cards_below_it_without_recompiling_them(big, tmp_path):
    data = _copy(big, tmp_path)
    cache = ModuleCache()
    _build(data, cache)
    cid, found = _card_with(_module(data), r"\n  name: [^\n]*", without="\n  note:")
    # three more lines in one card: every card below it now starts three lines further down
    _edit_card(_module(data), cid, found, found + "\n  note: |-\n    A note\n    of two lines")
    warm = _build(data, cache)
    assert _compiled(warm) == 1 and cache.reread == 1
    cold = compile_tree(data)
    assert warm.outputs == cold.outputs
    cards = _runtime_cards(cold.outputs[f"{corpus.GAME}/module_000.py"])
    last = list(cards.values())[-1]
    assert last["at"].endswith(f":{_line_of(_module(data), last['id'])}")  # lines follow the move


def _runtime_cards(src: str) -> dict:
    ns: dict = {"__name__": "generated_under_test"}
    exec(compile(src, "generated_under_test", "exec"), ns)  # the compiler's output, not data text
    return ns["CARDS"]


def _line_of(path: Path, cid: str) -> int:
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line == f"- id: {cid}":
            return n
    raise LookupError(cid)


def test_a_card_with_an_error_is_recompiled_until_fixed(big, tmp_path):
    data = _copy(big, tmp_path)
    cache = ModuleCache()
    _build(data, cache)
    cid, found = _card_with(_module(data), r"gain \d fuel")
    _edit_card(_module(data), cid, found, found.replace("fuel", "fule"))
    cache.begin_build()
    broken = compile_tree(data, cache=cache)
    assert [d.card for d in broken.diags.errors] == [cid]
    cache.begin_build()
    again = compile_tree(data, cache=cache)  # the error is still there: the card is compiled again
    assert [d.headline() for d in again.diags.errors] == [d.headline() for d in broken.diags.errors]
    _edit_card(_module(data), cid, found.replace("fuel", "fule"), found.replace("fuel", "gun"))
    fixed = _build(data, cache)
    assert _compiled(fixed) == 1
    assert fixed.outputs == compile_tree(data).outputs


def test_a_module_schema_error_in_an_edited_card_is_the_cold_builds_error(big, tmp_path):
    """Watch mode checks the module schema only for the cards a save changed (compiler/schema.py
    validate_module, issue 27); an edited card that breaks it is reported as a cold build reports it,
    and the cards around it are still known to pass once it is fixed."""
    data = _copy(big, tmp_path)
    cache = ModuleCache()
    _build(data, cache)
    _build(data, cache)  # the card objects of a stitched module are now the ones that passed
    cid, found = _card_with(_module(data), r"\n  name: [^\n]*", without="\n  count:")
    _edit_card(_module(data), cid, found, found + "\n  count: 0")  # the module schema: at least 1
    cache.begin_build()
    broken = compile_tree(data, cache=cache)
    assert cache.reread == 1
    cold = compile_tree(data)
    assert [d.render() for d in broken.diags] == [d.render() for d in cold.diags]
    assert [(d.code, d.card) for d in broken.diags.errors] == [("E401", cid)]
    _edit_card(_module(data), cid, found + "\n  count: 0", found + "\n  count: 2")
    fixed = _build(data, cache)
    assert cache.reread == 1 and _compiled(fixed) == 1
    assert fixed.outputs == compile_tree(data).outputs


def test_a_changed_game_file_recompiles_every_card(big, tmp_path):
    data = _copy(big, tmp_path)
    cache = ModuleCache()
    _build(data, cache)
    game = data / corpus.GAME / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("name: \"51st State: Master Set\"",
                                                             "name: \"51st State, renamed\""), encoding="utf-8")
    warm = _build(data, cache)
    assert _compiled(warm) == 360
    assert warm.outputs == compile_tree(data).outputs


OTHER_THAN = """name: Other
cards:
  - id: scout
    kind: location
    name: Scout
    source: example
    row: action
    icons: [worker]
    action: discard 1 card other than watchtower from your hand
  - id: watchtower
    kind: location
    name: Watchtower
    source: example
    row: action
    icons: [worker]
    action: gain 1 fuel
"""


def test_a_card_naming_another_is_checked_again_when_that_card_goes(tmp_path):
    data = _copy(MINI, tmp_path)
    module = data / "mini" / "other.yaml"
    module.write_text(OTHER_THAN, encoding="utf-8")
    cache = ModuleCache()
    _build(data, cache)
    # watchtower renamed: scout's text did not change, but the card it names is gone
    module.write_text(OTHER_THAN.replace("id: watchtower", "id: tower"), encoding="utf-8")
    cache.begin_build()
    warm = compile_tree(data, cache=cache)
    cold = compile_tree(data)
    assert [d.card for d in cold.diags.errors] == ["scout"]
    assert [d.headline() for d in warm.diags.errors] == [d.headline() for d in cold.diags.errors]
    module.write_text(OTHER_THAN, encoding="utf-8")
    back = _build(data, cache)
    assert back.outputs == compile_tree(data).outputs


def test_cached_builds_of_the_bundled_games_write_the_cold_bytes(tmp_path):
    data = _copy(BUNDLED_DATA, tmp_path)
    cache = ModuleCache()
    _build(data, cache)
    base = data / "fifty_first_state" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("production: gain 1 brick", "production: gain 3 brick", 1),
                    encoding="utf-8")
    warm = _build(data, cache)
    assert _compiled(warm) == 1
    assert warm.outputs == compile_tree(data).outputs


# --- validate generates nothing but finds everything compile finds -----------------------------------


@pytest.mark.parametrize("case", sorted(p.name for p in BAD.iterdir() if p.is_dir()))
def test_validate_reports_what_compile_reports(case, tmp_path):
    data = _copy(MINI, tmp_path)
    for p in (BAD / case).rglob("*"):
        if p.is_file():
            dst = data / p.relative_to(BAD / case)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(p, dst)
    full, checked = compile_tree(data), compile_tree(data, emit=False)
    assert [d.render() for d in checked.diags] == [d.render() for d in full.diags]
    assert not [k for k in checked.outputs if k.count("/") and not k.endswith("__init__.py")]


def test_validate_of_the_bundled_games_counts_what_compile_counts():
    full, checked = compile_tree(BUNDLED_DATA), compile_tree(BUNDLED_DATA, emit=False)
    assert checked.ok and full.ok
    assert {g: (b.card_count, b.effect_count) for g, b in checked.games.items()} == \
        {g: (b.card_count, b.effect_count) for g, b in full.games.items()}
