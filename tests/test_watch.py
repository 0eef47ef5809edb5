"""Watch mode and the incremental build: same results as a full build, only edited modules recompiled."""
from __future__ import annotations

import json
import shutil

from cli import main
from compiler.build import compile_tree
from compiler.cache import ModuleCache
from compiler.resources import BUNDLED_DATA
from compiler.watch import Watcher

PROMO = """name: Promo
cards:
  - id: well
    kind: location
    name: Well
    source: example
    production: gain 1 fuel
"""


def _same(a, b):
    assert a.outputs == b.outputs
    assert sorted(d.headline() for d in a.diags) == sorted(d.headline() for d in b.diags)
    assert {g: (x.card_count, x.effect_count) for g, x in a.games.items()} == \
        {g: (x.card_count, x.effect_count) for g, x in b.games.items()}


def test_cached_build_equals_full_build_on_the_bundled_games(tmp_path):
    full = compile_tree(BUNDLED_DATA)
    cache = ModuleCache(tmp_path / "cache")
    cache.begin_build()
    cold = compile_tree(BUNDLED_DATA, cache=cache)
    assert cache.hits == 0 and cache.misses > 0
    cache.begin_build()
    warm = compile_tree(BUNDLED_DATA, cache=cache)
    assert cache.misses == 0 and cache.hits > 0
    _same(full, cold)
    _same(full, warm)
    # a fresh process (new memory) reads the same entries from disk
    again = ModuleCache(tmp_path / "cache")
    again.begin_build()
    _same(full, compile_tree(BUNDLED_DATA, cache=again))
    assert again.misses == 0


def test_corrupt_or_deleted_cache_is_only_a_miss(mini_game, tmp_path):
    folder = tmp_path / "cache"
    c = ModuleCache(folder)
    c.begin_build()
    full = compile_tree(mini_game, cache=c)
    for p in (folder / "modules").glob("*.json"):
        p.write_text("{not json", encoding="utf-8")
    c2 = ModuleCache(folder)
    c2.begin_build()
    _same(full, compile_tree(mini_game, cache=c2))
    assert c2.hits == 0
    shutil.rmtree(folder)
    c3 = ModuleCache(folder)
    c3.begin_build()
    _same(full, compile_tree(mini_game, cache=c3))


def test_watcher_reports_new_and_fixed_errors_and_recompiles_only_the_edited_module(mini_game, tmp_path):
    (mini_game / "mini" / "promo.yaml").write_text(PROMO, encoding="utf-8")
    out = tmp_path / "generated"
    w = Watcher(mini_game, out)
    w.poll()
    first = w.build()
    assert first.ok and first.reparsed == 2 and "mini/promo.py" in first.written
    assert w.poll() == []
    base = mini_game / "mini" / "base.yaml"
    good = base.read_text(encoding="utf-8")
    base.write_text(good.replace("gain 2 fuel", "gain 2 fule"), encoding="utf-8")
    changed = w.poll()
    assert changed == [base]
    rep = w.build(changed)
    assert (rep.reparsed, rep.reused) == (1, 1)
    assert [(d.code, d.card) for d in rep.new] == [("E201", "oil_rig")] and rep.fixed == []
    assert rep.written == []  # a failed build writes nothing
    # an unrelated edit elsewhere: the error is neither new nor fixed
    (mini_game / "mini" / "promo.yaml").write_text(PROMO.replace("gain 1 fuel", "gain 2 fuel"), encoding="utf-8")
    rep = w.build(w.poll())
    assert rep.new == [] and rep.fixed == [] and rep.errors == 1
    base.write_text(good.replace("gain 2 fuel", "gain 3 fuel"), encoding="utf-8")
    rep = w.build(w.poll())
    assert rep.new == [] and [d.code for d in rep.fixed] == ["E201"] and rep.ok
    assert sorted(rep.written) == ["mini/base.py", "mini/promo.py"]
    assert "gain 3 fuel" in (out / "mini" / "base.py").read_text(encoding="utf-8")
    _same(compile_tree(mini_game), rep.result)


def test_a_duplicate_id_in_an_edited_module_is_caught_in_a_cached_one(mini_game):
    (mini_game / "mini" / "promo.yaml").write_text(PROMO, encoding="utf-8")
    w = Watcher(mini_game, None)
    w.poll()
    assert w.build().ok
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("id: oil_rig", "id: well"), encoding="utf-8")
    rep = w.build(w.poll())
    assert [d.code for d in rep.new] == ["E202"]
    _same(compile_tree(mini_game), rep.result)


def test_removed_module_removes_its_generated_file(mini_game, tmp_path):
    promo = mini_game / "mini" / "promo.yaml"
    promo.write_text(PROMO, encoding="utf-8")
    out = tmp_path / "generated"
    w = Watcher(mini_game, out)
    w.poll()
    w.build()
    assert (out / "mini" / "promo.py").is_file()
    promo.unlink()
    rep = w.build(w.poll())
    assert "mini/promo.py (removed)" in rep.written and not (out / "mini" / "promo.py").exists()


def test_watch_once_command(runner, mini_game, tmp_path):
    res = runner.invoke(main, ["watch", str(mini_game), "--once", "--out", str(tmp_path / "gen"),
                               "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 0, res.output
    assert "build: ok" in res.output and "1 module recompiled" in res.output
    assert list((tmp_path / "cache" / "modules").glob("*.json"))
    entry = json.loads(next((tmp_path / "cache" / "modules").glob("*.json")).read_text(encoding="utf-8"))
    assert entry["format"] == 2 and "def " in entry["output"]
    res = runner.invoke(main, ["watch", str(mini_game), "--once", "--no-write", "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 0 and "0 modules recompiled (0 cards), 1 reused" in res.output
    base = mini_game / "mini" / "base.yaml"
    base.write_text(base.read_text(encoding="utf-8").replace("gain 2 fuel", "gain 2 fule"), encoding="utf-8")
    res = runner.invoke(main, ["watch", str(mini_game), "--once", "--no-write", "--cache-dir", str(tmp_path / "cache")])
    assert res.exit_code == 1 and "1 new error" in res.output and "E201 unknown good 'fule'" in res.output


def test_watch_replays_scenarios_and_reports_a_failing_one_as_an_error(mini_game):
    w = Watcher(mini_game, None, run_scenarios=True)
    w.poll()
    first = w.build()
    assert first.ok and [p.endswith("barracks.yaml") for p in first.scenarios] == [True]
    base = mini_game / "mini" / "base.yaml"
    good = base.read_text(encoding="utf-8")
    base.write_text(good.replace("gain 2 fuel", "gain 3 fuel"), encoding="utf-8")
    rep = w.build(w.poll())
    assert [(d.code, d.message) for d in rep.new] == [("E702", "Ann has 3 fuel, expected 2")]
    # nothing of the game changed: the scenario is not re-run, its failure stays
    rep = w.build([])
    assert rep.scenarios == [] and rep.new == [] and rep.errors == 1
    base.write_text(good, encoding="utf-8")
    rep = w.build(w.poll())
    assert rep.ok and [d.code for d in rep.fixed] == ["E702"]


def test_watch_command_runs_scenarios(runner, mini_game, tmp_path):
    res = runner.invoke(main, ["watch", str(mini_game), "--once", "--no-write", "--cache-dir", str(tmp_path / "c")])
    assert res.exit_code == 0 and "1 scenario run" in res.output, res.output
    res = runner.invoke(main, ["watch", str(mini_game), "--once", "--no-write", "--no-scenarios",
                               "--cache-dir", str(tmp_path / "c")])
    assert res.exit_code == 0 and "scenario" not in res.output


def _first_change(w: Watcher, path, text: str) -> list:
    """Start waiting for changes, save ``text`` to ``path`` from another thread, return what was seen."""
    import threading
    import time

    stop = threading.Event()
    seen: list = []

    def save():
        time.sleep(0.3)  # the watch has started
        path.write_text(text, encoding="utf-8")

    threading.Thread(target=save, daemon=True).start()
    timer = threading.Timer(20, stop.set)  # never hang the suite
    timer.start()
    try:
        for changed in w.changes(interval=0.05, stop=stop):
            seen = changed
            break
    finally:
        timer.cancel()
        stop.set()
    return seen


def test_changes_come_from_file_events(mini_game):
    w = Watcher(mini_game, None)
    w.poll()
    base = mini_game / "mini" / "base.yaml"
    assert _first_change(w, base, base.read_text(encoding="utf-8") + "\n") == [base]


def test_changes_fall_back_to_polling_without_watchfiles(mini_game, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "watchfiles", None)  # import watchfiles raises ImportError
    w = Watcher(mini_game, None)
    w.poll()
    promo = mini_game / "mini" / "promo.yaml"
    assert _first_change(w, promo, PROMO) == [promo]


def test_a_save_that_lands_during_a_build_is_built_before_anything_is_reported(mini_game, tmp_path, monkeypatch):
    """An editor that writes a file in two chunks: the build that read the first half is not the one
    reported — the file moved while it ran, so it is built again (compiler/watch.py REBUILDS), and no
    half-written file's error is ever shown or its outputs written."""
    import compiler.watch as watch_module

    out = tmp_path / "generated"
    w = Watcher(mini_game, out)
    w.poll()
    assert w.build().ok
    base = mini_game / "mini" / "base.yaml"
    good = base.read_text(encoding="utf-8")
    half = good[: good.index("gain 2 fuel") + len("gain 2 f")]  # cut in the middle of a text
    base.write_text(half, encoding="utf-8")
    builds = []
    real = watch_module.compile_tree

    def compile_then_finish_the_save(*args, **kw):
        result = real(*args, **kw)
        builds.append(result.ok)
        if len(builds) == 1:  # the second chunk lands while the first build runs
            base.write_text(good.replace("gain 2 fuel", "gain 3 fuel"), encoding="utf-8")
        return result

    monkeypatch.setattr(watch_module, "compile_tree", compile_then_finish_the_save)
    rep = w.build(w.poll())
    assert builds == [False, True]  # the half file did not build; the whole one did, and is the one reported
    assert rep.ok and rep.new == [] and rep.fixed == []
    assert "gain 3 fuel" in (out / "mini" / "base.py").read_text(encoding="utf-8")
    _same(real(mini_game), rep.result)
    assert w.poll() == []  # the later save is already built: the next file event finds nothing to do


def test_a_file_that_never_stops_changing_is_built_a_bounded_number_of_times(mini_game, monkeypatch):
    import compiler.watch as watch_module

    w = Watcher(mini_game, None)
    w.poll()
    assert w.build().ok
    base = mini_game / "mini" / "base.yaml"
    good = base.read_text(encoding="utf-8")
    builds = []
    real = watch_module.compile_tree

    def compile_and_save_again(*args, **kw):
        builds.append(1)
        base.write_text(good + "\n" * len(builds), encoding="utf-8")  # a new size each time: always moved
        return real(*args, **kw)

    monkeypatch.setattr(watch_module, "compile_tree", compile_and_save_again)
    base.write_text(good + "\n", encoding="utf-8")
    rep = w.build(w.poll())
    assert len(builds) == 1 + watch_module.REBUILDS and rep.ok
