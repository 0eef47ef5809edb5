"""The typed IR is the one currency (issue 22, DESIGN §9): the checker builds it directly — no side
table keyed by object identity, no string owners such as ``"var:t"`` — and the queries it builds are
the very objects generated code passes to the runtime's verbs."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from compiler import ir
from compiler.build import compile_tree
from compiler.codegen import _runtime_query, literal
from compiler.resources import BUNDLED_DATA
from compiler.visitor import Visitor
from runtime import refs

ROOT = Path(__file__).resolve().parent.parent


class _Queries(Visitor):
    """Every query of an IR tree, the nested ones (of, place, per) included."""

    def __init__(self):
        self.found: list[ir.Query] = []

    def visit_Query(self, q: ir.Query) -> None:
        self.found.append(q)
        self.generic_visit(q)


def _computed(q: ir.Query) -> bool:
    return isinstance(q.amount, ir.Computed) or any(
        isinstance(f, ir.FieldCompare) and f.key is not None for f in q.filters)


@pytest.fixture(scope="module")
def bundled_queries() -> list[ir.Query]:
    result = compile_tree(BUNDLED_DATA, emit=False)
    assert result.ok, [d.render() for d in result.diags][:5]
    walk = _Queries()
    for game in result.games.values():
        for memo in game.checked.values():
            if memo.checked.ok:
                walk.visit(memo.checked.ir)
    return walk.found


def test_generated_code_passes_the_checkers_own_queries(bundled_queries):
    # what codegen emits for a query, evaluated as generated code evaluates it, is equal to the
    # checker's query: the runtime selects with what the checker accepted, nothing translated
    namespace = {name: getattr(refs, name) for name in dir(refs) if not name.startswith("_")}
    plain = [q for q in bundled_queries if not _computed(q)]
    assert len(plain) > 150  # every query of the three bundled games (187 when written), not a sample
    for q in plain:
        emitted = eval(literal(_runtime_query(q, q.amount)), {"__builtins__": {}}, namespace)  # codegen's literal
        assert emitted == q and type(emitted) is refs.Query


def test_queries_hold_typed_owners_and_filters(bundled_queries):
    filter_types = (refs.HasIcon, refs.HasField, refs.MatchingIcon, refs.FieldCompare, refs.OtherThan, refs.Not)
    assert any(isinstance(q.owner, refs.Bound) for q in bundled_queries)
    for q in bundled_queries:
        assert q.owner is None or isinstance(q.owner, (refs.Who, refs.Bound)), q
        assert all(isinstance(f, filter_types) for f in q.filters), q


def _sources(folders=("compiler", "runtime")):
    for folder in folders:
        for p in sorted((ROOT / folder).rglob("*.py")):
            yield p.relative_to(ROOT).as_posix(), ast.parse(p.read_text(encoding="utf-8"))


def _identity_keys(tree) -> list[int]:
    """Lines that index or store by ``id(node)`` (a side table keyed by object identity)."""
    lines = []
    for node in ast.walk(tree):
        key = node.slice if isinstance(node, ast.Subscript) else (
            node.args[0] if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "setdefault", "pop") and node.args else None)
        if isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "id":
            lines.append(node.lineno)
    return lines


def test_no_pass_keeps_a_table_keyed_by_object_identity():
    # the compiler's passes hand each other IR, never a table of AST nodes by id(node) (the runtime's
    # two memo caches of a compiled game's model are keyed so, and check the object is the same)
    assert [(path, lines) for path, tree in _sources(("compiler",)) if (lines := _identity_keys(tree))] == []


def test_no_string_owners():
    found = [(path, node.lineno) for path, tree in _sources() for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("var:")]
    assert found == []


def test_the_structure_checks_find_what_they_forbid():
    sample = ast.parse("resolved[id(node)] = 1\nx = table.get(id(n))\nowner = 'var:t'\n")
    assert _identity_keys(sample) == [1, 2]
    assert [n.lineno for n in ast.walk(sample) if isinstance(n, ast.Constant) and str(n.value).startswith("var:")] == [3]
