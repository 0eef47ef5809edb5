"""Issue 11, class 9: how generated files are written — a game's ``__init__.py`` after the modules
it imports, and with the permissions any file gets (0644 under umask 022), not mkstemp's 0600."""
from __future__ import annotations

import os
import stat

from compiler import build
from compiler.build import compile_tree, write_outputs

from .conftest import MINI


def test_every_init_is_written_after_the_modules_it_imports(tmp_path, monkeypatch):
    result = compile_tree(MINI)
    assert result.ok
    result.outputs["mini/zzz_extra.py"] = "X = 1\n"  # sorts after __init__.py by name
    replaced = []
    real = os.replace

    def spy(src, dst):
        replaced.append(os.path.relpath(dst, tmp_path))
        real(src, dst)

    monkeypatch.setattr(build.os, "replace", spy)
    write_outputs(result, tmp_path)
    assert set(replaced) == set(result.outputs)
    assert replaced.index("mini/__init__.py") > max(replaced.index(r) for r in replaced
                                                     if r.startswith("mini/") and r != "mini/__init__.py")
    assert replaced[-1] == "__init__.py"  # the top package last


def test_written_files_get_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        changed = write_outputs(compile_tree(MINI), tmp_path)
    finally:
        os.umask(old)
    assert changed
    modes = {rel: stat.S_IMODE((tmp_path / rel).stat().st_mode) for rel in changed}
    assert set(modes.values()) == {0o644}, modes


def test_a_stricter_umask_is_honoured(tmp_path):
    old = os.umask(0o077)
    try:
        write_outputs(compile_tree(MINI), tmp_path)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "mini" / "base.py").stat().st_mode) == 0o600
