"""A thing's `engine_filter` names a predicate of the game's engine; an unknown one is a located error."""
from __future__ import annotations

from compiler.build import compile_tree


def test_unknown_engine_filter_is_located(mini_game):
    gfile = mini_game / "mini" / "game.yaml"
    text = gfile.read_text()
    text = text.replace("  location: {zones: [state], kinds: [location]}",
                        "  location: {zones: [state], kinds: [location], engine_filter: terminal}")
    gfile.write_text(text)
    result = compile_tree(mini_game)
    errs = [d for d in result.diags.errors if d.code == "E201"]
    assert errs and "no thing filter 'terminal'" in errs[0].message
    assert errs[0].file.endswith("game.yaml") and errs[0].line == 21
