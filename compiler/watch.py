"""Watch mode: revalidate and recompile on every save, and say only what changed.

``Watcher.changes()`` waits for the operating system's file events (watchfiles: inotify, FSEvents,
ReadDirectoryChangesW), so a save is seen within a few milliseconds instead of at the next look of a
poll; where watchfiles is missing or cannot watch (no inotify watches left, a network folder) it
falls back to looking every ``interval`` seconds. Either way ``Watcher.poll()`` then compares the
modification times and sizes of the data folder's YAML files with the last look, which says what
changed. It rebuilds through ``compile_tree`` with a ``ModuleCache``, so only the edited module
files are loaded again, and in them only the edited cards are checked and generated again (the
per-card cache); every other module is replayed whole from the cache. After the first build its
heap is frozen (``gc.freeze``): it is long-lived, and the collector would otherwise scan all of it
at the first edit. The report lists the errors that appeared and the ones that went away (an error is the
same error when its code, file, card, place in the document and message are the same; it may have
moved lines), and, when the build is clean, which generated files changed and were written. With
``run_scenarios`` the scenarios of every game whose code or scenarios changed are played again, and
a failing scenario is an error like any other.
Nothing here prints; cli.py does.
"""
from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from pathlib import Path

from .build import BuildResult, compile_tree, write_outputs
from .cache import ModuleCache
from .diagnostics import Diagnostic


# watchfiles wakes every ``step`` ms and hands over what it has seen once a wake finds no new (change,
# path) pair since the last: a save is seen between one and two steps after it lands. That set holds
# each path once, so the quiet window never told a save written in two chunks from a finished one;
# what guards against building half a file is ``Watcher.build`` looking again after the build (a
# file that moved while it ran is built again before anything is reported or written). So the step is
# kept short: 5 ms puts a save's output 5-10 ms after it lands (20 ms put it 20-40 ms after; issue 27's
# 0.05 s from save to output). Waking 200 times a second costs 0.7 % of one core while idle (measured:
# 0.07 s of CPU in 10 s).
QUIET_MS = 5

# A file that keeps changing while it is built (a save every few milliseconds) is built again at most
# this many times before the build is reported as it is: work per event stays bounded.
REBUILDS = 3


def _ident(d: Diagnostic) -> tuple:
    return (d.code, d.file or "", d.card or "", d.path or "", d.message, d.hint or "")


@dataclass
class WatchReport:
    new: list[Diagnostic] = field(default_factory=list)
    fixed: list[Diagnostic] = field(default_factory=list)
    errors: int = 0
    written: list[str] = field(default_factory=list)
    changed_files: list[str] = field(default_factory=list)
    seconds: float = 0.0
    reparsed: int = 0  # module files compiled (cache misses)
    cards: int = 0  # cards checked and generated afresh in them (the others came from the per-card cache)
    reused: int = 0  # module files replayed from the cache
    scenarios: list[str] = field(default_factory=list)  # scenario files re-run by this build
    result: BuildResult | None = None

    @property
    def ok(self) -> bool:
        return self.errors == 0


class Watcher:
    def __init__(self, data_root: Path, out_dir: Path | None, cache: ModuleCache | None = None,
                 run_scenarios: bool = False):
        self.data_root = data_root
        self.run_scenarios = run_scenarios
        self.scenario_diags: dict[str, list[Diagnostic]] = {}
        self.scenario_seen: dict[str, tuple] = {}  # game -> its scenario files and their stamps at the last run
        self.last_outputs: dict[str, str] = {}
        self.out_dir = out_dir
        self.cache = cache if cache is not None else ModuleCache()
        self.stamps: dict[Path, tuple[int, int]] = {}
        self.known: dict[tuple, Diagnostic] = {}
        self.outputs: dict[str, str] = {}

    def scan(self) -> dict[Path, tuple[int, int]]:
        stamps = {}
        if self.data_root.is_dir():
            for p in sorted(self.data_root.rglob("*.yaml")):
                try:
                    st = p.stat()
                except OSError:
                    continue
                stamps[p] = (st.st_mtime_ns, st.st_size)
        elif self.data_root.is_file():
            st = self.data_root.stat()
            stamps[self.data_root] = (st.st_mtime_ns, st.st_size)
        return stamps

    def poll(self) -> list[Path]:
        """Files added, removed or modified since the last look."""
        now = self.scan()
        changed = sorted({p for p in set(now) | set(self.stamps) if now.get(p) != self.stamps.get(p)})
        self.stamps = now
        return changed

    def changes(self, interval: float = 0.3, stop=None):
        """Yield the files changed by each save (added, removed or modified), as they happen: from the
        operating system's file events when watchfiles can watch the folder, else by polling every
        ``interval`` seconds. ``stop``: a threading.Event that ends the wait (tests)."""
        try:
            import watchfiles
        except ImportError:  # pragma: no cover - a dependency; polling still works without it
            watchfiles = None
        if watchfiles is not None and self.data_root.exists():
            try:
                for _ in watchfiles.watch(self.data_root, watch_filter=_yaml_only, step=QUIET_MS, stop_event=stop,
                                          raise_interrupt=False):
                    changed = self.poll()
                    if changed:
                        yield changed
                return
            except (OSError, RuntimeError):  # cannot watch here: look instead
                pass
        while stop is None or not stop.is_set():
            time.sleep(interval)
            changed = self.poll()
            if changed:
                yield changed

    def settle(self) -> None:
        """After the first build: collect once and freeze what is left (the cache, the parser, the
        compiled modules), so later collections never scan it again."""
        gc.collect()
        gc.freeze()

    def build(self, changed: list[Path] | None = None) -> WatchReport:
        t0 = time.perf_counter()
        self.cache.begin_build()
        self.cache.deferred = []  # the cache's files are written after the outputs (ModuleCache.flush)
        try:
            return self._build(changed, t0)
        finally:
            self.cache.flush()

    def _build(self, changed: list[Path] | None, t0: float) -> WatchReport:
        result = compile_tree(self.data_root, cache=self.cache, scenarios=True)
        for _ in range(REBUILDS):
            # a save that landed while this build read the files (an editor writing in chunks, or
            # the next save): what was built may be half a file. Build again before anything is
            # reported or written, so a half-written file's errors never show.
            later = self.poll() if changed is not None else []
            if not later:
                break
            changed = sorted(set(changed) | set(later))
            self.cache.begin_build()
            result = compile_tree(self.data_root, cache=self.cache, scenarios=True)
        self.cache.prune(self.cache.used)
        if self.run_scenarios and not result.ok:
            # the games cannot be played now: what their scenarios said when they last ran is not
            # known to hold any more, so it is not kept (a stale error); they run again once it builds
            self.scenario_diags.clear()
        ran = self._scenarios(result, changed) if self.run_scenarios and result.ok else []
        current = {_ident(d): d for d in result.diags.errors}
        for diags in self.scenario_diags.values():
            current.update({_ident(d): d for d in diags})
        report = WatchReport(result=result, errors=len(current), reparsed=self.cache.misses,
                             reused=self.cache.hits, scenarios=ran,
                             cards=sum(g.cards_compiled for g in result.games.values()))
        order = (lambda d: (d.file or "", d.line or 0, d.column or 0, d.code, d.message))
        report.new = sorted((d for k, d in current.items() if k not in self.known), key=order)
        report.fixed = sorted((d for k, d in self.known.items() if k not in current), key=order)
        report.changed_files = [str(p) for p in changed or []]
        self.known = current
        if result.ok:
            report.written = self._write(result)
        self.last_outputs = dict(result.outputs) if result.ok else self.last_outputs
        report.seconds = time.perf_counter() - t0
        return report

    def _scenarios(self, result: BuildResult, changed: list[Path] | None) -> list[str]:
        """Re-run the scenarios of every game whose generated code or scenario files changed.

        Each scenario plays the freshly compiled game (in memory, like ``cardwright run``); its
        problems (E7xx) join the build's errors, so a scenario that starts failing is reported as a
        new error and one that passes again as fixed. Games that did not change keep their results.
        """
        from runtime.engine import load_from_sources

        from .diagnostics import Diagnostics
        from .scenario import load_scenario, scenario_files

        ran = []
        loaded: dict = {}

        def compiled_for(game: str):
            if game not in result.games:
                raise LookupError(f"no game '{game}' under the data folder")
            if game not in loaded:
                loaded[game] = load_from_sources(result.outputs, game)
            return loaded[game]

        for game in sorted(result.games):
            folder = (self.data_root / game) if (self.data_root / game).is_dir() else self.data_root
            files = scenario_files(folder)
            code_changed = any(v != self.last_outputs.get(k) for k, v in result.outputs.items()
                               if k.startswith(f"{game}/")) or not self.last_outputs
            # the scenario files as they are now, against those the last run saw: a file saved (or
            # deleted) while the build was broken is run again too, not only one saved just now
            seen = tuple((str(f), _stamp(f)) for f in files)
            if not code_changed and seen == self.scenario_seen.get(game) and game in self.scenario_diags:
                continue
            self.scenario_seen[game] = seen
            diags = Diagnostics()
            for f in files:
                try:
                    sc = load_scenario(f, compiled_for, diags)
                    if sc is not None:
                        sc.run()
                except Exception as exc:  # noqa: BLE001 - a broken scenario is reported, never a crash
                    diags.error("E701", f"scenario cannot run: {type(exc).__name__}: {exc}", file=str(f))
                ran.append(str(f))
            self.scenario_diags[game] = list(diags.errors)
        for game in set(self.scenario_diags) - set(result.games):
            del self.scenario_diags[game]
        return ran

    def _write(self, result: BuildResult) -> list[str]:
        """Write generated files that differ from the last build's (the first build writes all changed)."""
        if self.out_dir is None:
            return []
        if not self.outputs:
            written = write_outputs(result, self.out_dir)
        else:
            delta = BuildResult(result.diags, {k: v for k, v in result.outputs.items() if self.outputs.get(k) != v},
                                {})
            written = write_outputs(delta, self.out_dir) if delta.outputs else []
            for gone in sorted(set(self.outputs) - set(result.outputs)):
                p = self.out_dir / gone
                if p.is_file():
                    p.unlink()
                    written.append(gone + " (removed)")
        self.outputs = dict(result.outputs)
        return written


def _stamp(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _yaml_only(change, path: str) -> bool:
    return path.endswith(".yaml")
