"""Imports go one way (DESIGN §9, issue 22): compiler/ may import runtime/, runtime/ never imports
compiler/ — not at the top of a module and not inside a function either."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imported(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module))
    return out


def test_runtime_imports_nothing_from_the_compiler():
    found = [f"{p.relative_to(ROOT)}:{line} imports {name}"
             for p in sorted((ROOT / "runtime").rglob("*.py"))
             for line, name in _imported(p) if name == "compiler" or name.startswith("compiler.")]
    assert found == []


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    # the guard above must find the kind of import it forbids, wherever it is written
    sample = tmp_path / "m.py"
    sample.write_text("def f():\n    from compiler.build import compile_tree\n    return compile_tree\n")
    assert _imported(sample) == [(2, "compiler.build")]
