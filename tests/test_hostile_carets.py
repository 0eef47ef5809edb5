"""Issue 11, class 6: carets are exact in every YAML scalar style.

A property test: effect texts with one bad word (an unknown Good, or a stray non-breaking or
ideographic space) are written into a card in every scalar style — plain, single-quoted with
``''``, double-quoted with escapes (``\\t``, ``\\"``, ``\\xNN``) and ``\\`` line continuations, folded
multi-line quotes, literal and folded blocks — and the build must report the bad word at the line
and column where it is written in the file.
"""
from __future__ import annotations

import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.build import compile_tree

from .conftest import MINI

GOOD_STATEMENTS = ["gain 2 fuel", "gain 1 gun", "draw 1 card", "spend 1 worker: gain 1 vp",
                   "discard 1 card from opponent's hand", "gain 1 vp per card in your hand",
                   "draw (3 - number of cards in your hand) cards"]
STYLES = ["plain", "single", "double", "double_continued", "single_folded", "literal", "folded"]
ODD_SPACES = ["\u00a0", "\u3000"]  # ordinary characters to YAML, whitespace to Python


@st.composite
def effects(draw):
    """(text, bad) — statements joined by '; ' with exactly one bad spot."""
    stmts = draw(st.lists(st.sampled_from(GOOD_STATEMENTS), min_size=0, max_size=4))
    bad = draw(st.sampled_from(["fule"] + ODD_SPACES))
    if bad == "fule":
        stmts.insert(draw(st.integers(0, len(stmts))), f"gain {draw(st.integers(1, 9))} fule")
        return "; ".join(stmts), bad
    return "; ".join(stmts + ["gain 1 fuel"]) + bad, bad  # a stray space character at the very end


def render(text: str, bad: str, style: str, draw) -> str | None:
    """The YAML for `production: <text>` in ``style`` (None when the style cannot hold the text)."""
    ind = "      "
    if style == "plain":
        if ": " in text or text[-1] in ODD_SPACES:
            return None
        return f"production: {text}"
    if style == "single":
        return "production: '" + text.replace("'", "''") + "'"
    if style in ("double", "double_continued"):
        out = []
        keep = range(text.find(bad), text.find(bad) + len(bad))  # the bad word stays findable as written
        for k, ch in enumerate(text):
            if k in keep:
                out.append(ch)
            elif ch in '\\"':
                out.append("\\" + ch)
            elif ch == " " and draw(st.booleans()):
                out.append("\\t" if style == "double" else "\\\n" + ind + "\\ ")
            elif ch.isalpha() and ch.isascii() and draw(st.integers(0, 9)) == 0:
                out.append(f"\\x{ord(ch):02x}")
            else:
                out.append(ch)
        return 'production: "' + "".join(out) + '"'
    if style == "single_folded":
        words = text.replace("'", "''").split(" ")
        return "production: '" + ("\n" + ind).join(words) + "'"
    if style == "literal":
        return "production: |\n" + ind + text.replace("; ", ";\n" + ind)
    if style == "folded":
        return "production: >\n" + ind + text.replace(" ", "\n" + ind, draw(st.integers(0, 3)))
    raise AssertionError(style)


def written_at(source: str, bad: str) -> tuple[int, int]:
    """1-based line and column of the bad spot as written in the file (it occurs once)."""
    i = source.index(bad)
    assert source.count(bad) == 1
    return source.count("\n", 0, i) + 1, i - (source.rfind("\n", 0, i) + 1) + 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_caret_is_on_the_bad_word_in_every_style(tmp_path_factory, data):
    text, bad = data.draw(effects())
    style = data.draw(st.sampled_from(STYLES))
    yaml_value = render(text, bad, style, data.draw)
    if yaml_value is None:
        return
    root = tmp_path_factory.mktemp("carets") / "data"
    shutil.copytree(MINI, root)
    base = root / "mini" / "base.yaml"
    source = base.read_text(encoding="utf-8").replace("production: gain 2 fuel", yaml_value, 1)
    base.write_text(source, encoding="utf-8")
    result = compile_tree(root)
    want = ("E201", "unknown good 'fule'") if bad == "fule" else ("E301", repr(bad))
    found = [d for d in result.diags if d.code == want[0] and want[1] in d.message]
    assert found, [d.render() for d in result.diags]
    line, col = written_at(source, bad)
    assert (found[0].line, found[0].column) == (line, col), (style, source.splitlines()[line - 1:line + 2],
                                                             found[0].render())
    assert found[0].card == "oil_rig"
