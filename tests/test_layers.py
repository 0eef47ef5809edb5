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


def test_only_the_application_layer_imports_the_command_line():
    """cli.py and its command package compose compiler/ and runtime/; neither of those imports them."""
    found = [f"{p.relative_to(ROOT)}:{line} imports {name}"
             for p in sorted([*(ROOT / "runtime").rglob("*.py"), *(ROOT / "compiler").rglob("*.py")])
             for line, name in _imported(p) if name.split(".")[0] in ("cli", "commands")]
    assert found == []


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    # the guard above must find the kind of import it forbids, wherever it is written
    sample = tmp_path / "m.py"
    sample.write_text("def f():\n    from compiler.build import compile_tree\n    return compile_tree\n")
    assert _imported(sample) == [(2, "compiler.build")]


def _module_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (at the top or inside a function; an import under
    ``if TYPE_CHECKING:`` is an annotation, not an import)."""
    files = {}
    for p in [*(ROOT / "compiler").rglob("*.py"), *(ROOT / "runtime").rglob("*.py"), ROOT / "cli.py",
              *(ROOT / "commands").rglob("*.py")]:
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        files[name.removesuffix(".__init__")] = p
    graph: dict[str, set[str]] = {}
    for name, p in files.items():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        skip = {id(n) for top in tree.body if isinstance(top, ast.If) and "TYPE_CHECKING" in ast.unparse(top.test)
                for n in ast.walk(top)}
        out = graph.setdefault(name, set())
        package = name.split(".") if p.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
                for a in node.names:
                    target = f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                    if target in files and target != name:
                        out.add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


# Import cycles that remain (issue 22 counts them; they were 6 before it, each kept alive by an import
# inside a function, and none is left). A new cycle fails here.
KNOWN_CYCLES: list = []


def test_no_new_import_cycle():
    assert _cycles(_module_graph()) == sorted(KNOWN_CYCLES)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
