"""One effect text through every stage: parse, check, English, generated Python.

Used by ``cardwright explain`` and by scenarios, whose effect steps are compiled exactly like card
slots (same parser, checker and code generator), so a scenario tests the real pipeline.
"""
from __future__ import annotations

from dataclasses import dataclass

from runtime.model import GameModel
from runtime.verbs import verbs_for

from . import ast as A
from .check import Checker, slot_kind_of
from .codegen import ModuleWriter
from .diagnostics import Diagnostics
from .parser import parse_effect


@dataclass
class Explained:
    text: str
    effect: A.Effect | None
    source: str | None  # the generated module
    function: str | None
    diags: Diagnostics
    ir: object = None  # the typed IR (compiler/ir.py) codegen read


def explain_effect(text: str, vocab: GameModel, where: str = "<effect>", kind: str | None = None) -> Explained:
    """Parse, check and compile one text, read as the slot kind its first statement says (``kind``:
    read it as that slot kind instead — "ability" for a cost on its own that is an ability)."""
    diags = Diagnostics()
    effect, problem = parse_effect(text)

    def report(code, message, span, hint=None):
        col = span.start + 1
        diags.error(code, message, file=where, line=1, column=col, length=max(1, span.end - span.start),
                    hint=hint, source_line=text)

    if problem is not None:
        report(problem.code, problem.message, A.Span(problem.offset, problem.offset + problem.length))
        return Explained(text, None, None, None, diags)
    checked = Checker(vocab, verbs_for(vocab.engine)).check(effect, report, kind=kind or slot_kind_of(effect))
    if not checked.ok:
        return Explained(text, effect, None, None, diags)
    mw = ModuleWriter(where)
    name = mw.effect_function("effect", checked.ir, where, text, vocab)
    return Explained(text, effect, mw.render([]), name, diags, checked.ir)


def menu_labels(effect) -> list[tuple[str, ...]]:
    """The labels of every ``choose one: …`` menu of a checked effect's IR, in text order: exactly the
    labels the runtime offers the player and accepts as answers (codegen passes ``ir.Menu.labels`` to
    ``Ctx.menu``), so ``cardwright explain`` shows what a player will see (issue 28)."""
    from .visitor import Visitor

    found: list[tuple[str, ...]] = []

    class _Menus(Visitor):
        def visit_Menu(self, node):
            found.append(tuple(node.labels))
            self.generic_visit(node)

    if effect is not None:
        _Menus().visit(effect)
    return found


def effect_function(ex: Explained):
    """The compiled function of an explained effect (generated code, never data text)."""
    ns: dict = {}
    exec(compile(ex.source, ex.text[:40], "exec"), ns)
    return ns[ex.function]


def english_of(text: str, vocab: GameModel, kind: str = "effect") -> str | None:
    """The English of one effect text (parse, check, render its IR), or None when it does not check.
    For tools and tests that start from a text; the reference reads the build's IR instead."""
    from .english import render_effect

    effect, problem = parse_effect(("requires " if kind == "condition" else "") + text)
    if problem is not None:
        return None
    if kind == "effect":
        kind = slot_kind_of(effect)
    checked = Checker(vocab, verbs_for(vocab.engine)).check(effect, lambda *a, **k: None, kind=kind)
    return render_effect(checked.ir, vocab, kind=kind) if checked.ok else None
