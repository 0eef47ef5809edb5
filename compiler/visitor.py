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
    for name in _child_fields(type(node)):
        if name in skip:
            continue
        value = getattr(node, name)
        if isinstance(value, tuple):
            yield from _nodes_in(value)
        elif _is_node(type(value)):
            yield value


# Every pass walks every node, and ``dataclasses.fields``/``is_dataclass`` per node were a third of
# the code generator's time in a 10,000-card build: a node class's walkable fields and whether a type
# is a node are facts of the class, worked out once per class.
_FIELDS: dict[type, tuple[str, ...]] = {}
_NODE_TYPES: dict[type, bool] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls) if not f.metadata.get("backlink"))
    return names


def _is_node(cls: type) -> bool:
    known = _NODE_TYPES.get(cls)
    if known is None:
        known = _NODE_TYPES[cls] = is_dataclass(cls) and not issubclass(cls, Span)
    return known


def _nodes_in(value: tuple) -> Iterator[Any]:
    for v in value:
        if isinstance(v, tuple):
            yield from _nodes_in(v)
        elif _is_node(type(v)):
            yield v


class Visitor:
    """Subclass and write ``visit_<Class>`` methods; the rest is walked by :meth:`generic_visit`."""

    skip: tuple[str, ...] = ()  # fields generic_visit does not descend into

    def visit(self, node: Any, *args: Any) -> Any:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        return method(node, *args) if method is not None else self.generic_visit(node, *args)

    def generic_visit(self, node: Any, *args: Any) -> None:
        for child in children(node, self.skip):
            self.visit(child, *args)
