"""One visitor base for every pass over the AST (DESIGN §9).

``visit(node)`` calls ``visit_<Class>(node, *args)``; a class without such a method is walked
generically through its dataclass fields (tuples of nodes included). Spans are not children, nor
are backlinks (an IR node's ``syntax``, marked ``metadata={"backlink": True}``): a pass over the IR
never wanders into the AST it came from.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any, Iterator

from .ast import Span


def children(node: Any, skip: tuple[str, ...] = ()) -> Iterator[Any]:
    """The child nodes of ``node`` in field order; fields named in ``skip`` are left out."""
    for f in fields(node):
        if f.name in skip or f.metadata.get("backlink"):
            continue
        value = getattr(node, f.name)
        for v in _flatten(value):
            if is_dataclass(v) and not isinstance(v, Span):
                yield v


def _flatten(value: Any) -> Iterator[Any]:
    if isinstance(value, tuple):
        for v in value:
            yield from _flatten(v)
    else:
        yield value


class Visitor:
    """Subclass and write ``visit_<Class>`` methods; the rest is walked by :meth:`generic_visit`."""

    skip: tuple[str, ...] = ()  # fields generic_visit does not descend into

    def visit(self, node: Any, *args: Any) -> Any:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        return method(node, *args) if method is not None else self.generic_visit(node, *args)

    def generic_visit(self, node: Any, *args: Any) -> None:
        for child in children(node, self.skip):
            self.visit(child, *args)
