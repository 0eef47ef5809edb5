"""Examples in the documentation, extracted and compiled, so that the docs cannot rot.

A fenced block takes part when its info string says so (see tests/test_docs_examples.py for the
conventions): ``effect game=G [error=CODE]`` and ``yaml cardwright game=G file=PATH|append=PATH
[error=CODE]``. YAML blocks of one document accumulate, in order, in a scratch copy of the game's
data folder, exactly as a designer following the guide would build them up; every block is then
checked through the real pipeline (compile_tree; scenarios through compiler.scenario).
"""
from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from .build import compile_tree
from .diagnostics import Diagnostics
from .explain import explain_effect
from .langref import example_games, vocabulary_of

_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```\s*$", re.M | re.S)


@dataclass
class Block:
    kind: str  # "effect" | "yaml" | "diff" (an edit of a file) | "output" (what the block before reports)
    attrs: dict
    text: str
    line: int


@dataclass
class Checked:
    block: Block
    problem: str | None = None
    codes: list[str] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)  # the diagnostics, paths as "data/<game>/…"


def extract(markdown: str) -> list[Block]:
    blocks = []
    for m in _FENCE.finditer(markdown):
        info = m.group(1).split()
        if not info:
            continue
        kind, rest = info[0], info[1:]
        if kind in ("yaml", "diff") and rest[:1] == ["cardwright"]:
            rest = rest[1:]
        elif kind == "text" and rest[:1] == ["output"]:
            kind, rest = "output", rest[1:]
        elif kind != "effect":
            continue
        attrs = dict(a.split("=", 1) for a in rest if "=" in a)
        line = markdown.count("\n", 0, m.start()) + 1
        blocks.append(Block(kind, attrs, m.group(2), line))
    return blocks


def check_blocks(blocks: list[Block], scratch: Path) -> list[Checked]:
    workspace: dict[str, Path] = {}  # game -> its scratch data folder
    out: list[Checked] = []
    for b in blocks:
        if b.kind == "output":
            out.append(_check_output(b, out[-1] if out else None))
            continue
        game = b.attrs.get("game")
        if not game:
            out.append(Checked(b, "the block names no game= to check it against"))
            continue
        if b.kind == "effect":
            out.append(_check_effect(b, game))
        else:
            out.append(_check_yaml(b, game, workspace, scratch))
    return out


_HEADLINE = re.compile(r"^\S+:\d+:\d+: E\d{3} ")


def _check_output(b: Block, before: Checked | None) -> Checked:
    """Every diagnostic line shown in an output block is one the block before it really produced."""
    if before is None:
        return Checked(b, "an output block must follow the example it reports on")
    shown = [ln.strip() for ln in b.text.splitlines() if _HEADLINE.match(ln.strip())]
    if not shown:
        return Checked(b, "the output block shows no diagnostic line (file:line:col: Exxx …)")
    missing = [ln for ln in shown if ln not in before.headlines]
    if missing:
        return Checked(b, f"the output shown is not what cardwright says: {missing[0]!r}; it says: "
                          f"{before.headlines or 'nothing'}")
    return Checked(b)


def _expect(b: Block, codes: list[str], messages: list[str]) -> Checked:
    want = b.attrs.get("error")
    if want:
        if want in codes:
            return Checked(b, None, codes, messages)
        return Checked(b, f"expected an {want} error, got: {'; '.join(messages) or 'no error'}", codes, messages)
    if messages:
        return Checked(b, "; ".join(messages), codes, messages)
    return Checked(b, None, codes, messages)


def _check_effect(b: Block, game: str) -> Checked:
    """Compile the effect for ``game`` exactly as ``cardwright explain "…" --game GAME`` does."""
    vocab = vocabulary_of(game)
    if vocab is None:
        return Checked(b, f"no game '{game}' to check the example against")
    ex = explain_effect(b.text.strip(), vocab)
    return _expect(b, [d.code for d in ex.diags.errors], [d.headline() for d in ex.diags.errors])


def _data_copy(game: str, workspace: dict, scratch: Path) -> Path | None:
    if game not in workspace:
        src = example_games().get(game)
        if src is None:
            return None
        data = scratch / str(len(workspace)) / "data"
        shutil.copytree(src.parent, data / game, ignore=shutil.ignore_patterns("__pycache__"))
        workspace[game] = data
    return workspace[game]


def _check_yaml(b: Block, game: str, workspace: dict, scratch: Path) -> Checked:
    data = _data_copy(game, workspace, scratch)
    if data is None:
        return Checked(b, f"no game '{game}' to check the example against")
    rel = b.attrs.get("file") or b.attrs.get("append")
    if not rel or ".." in Path(rel).parts or Path(rel).is_absolute():
        return Checked(b, "a yaml cardwright block needs file=PATH or append=PATH inside the game folder")
    target = data / game / rel
    before = target.read_text(encoding="utf-8") if target.is_file() else None
    if b.kind == "diff":
        if before is None:
            return Checked(b, f"file={rel}: no such file in the game to edit")
        edited = apply_diff(before, b.text)
        if isinstance(edited, str) and edited.startswith("\0"):
            return Checked(b, edited[1:])
        target.write_text(edited, encoding="utf-8")
    elif "append" in b.attrs:
        if before is None:
            return Checked(b, f"append={rel}: no such file in the game")
        target.write_text(before.rstrip("\n") + "\n" + b.text, encoding="utf-8")
    else:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(b.text, encoding="utf-8")
    result = compile_tree(data)
    codes = [d.code for d in result.diags.errors]
    messages = [_as_data(d.headline(), data) for d in result.diags.errors]
    if not messages and rel.startswith("scenarios/"):
        codes, messages = _run_scenario(target, data, result)
        messages = [_as_data(m, data) for m in messages]
    checked = _expect(b, codes, messages)
    if "error" in b.attrs:  # a deliberate mistake: undo it, as the guide then tells the reader to
        if before is None:
            target.unlink()
        else:
            target.write_text(before, encoding="utf-8")
    return checked


def apply_diff(text: str, diff: str) -> str:
    """Apply a hunk without header: lines ' ' (context), '-' (removed), '+' (added), in file order.

    The context and removed lines must appear once, contiguous, exactly as in the file. A problem is
    returned as a string starting with NUL (never a valid file here).
    """
    old, new = [], []
    for ln in diff.splitlines():
        mark, body = (ln[:1], ln[1:]) if ln else (" ", "")
        if mark not in " -+":
            return f"\0diff line {ln!r} must start with ' ', '-' or '+'"
        if mark in " -":
            old.append(body)
        if mark in " +":
            new.append(body)
    lines = text.splitlines()
    hits = [i for i in range(len(lines) - len(old) + 1) if lines[i:i + len(old)] == old]
    if len(hits) != 1:
        where = "nowhere" if not hits else f"{len(hits)} times"
        return f"\0the diff's context and removed lines appear {where} in the file"
    i = hits[0]
    return "\n".join(lines[:i] + new + lines[i + len(old):]) + "\n"


def _as_data(headline: str, data: Path) -> str:
    """Diagnostics name the scratch copy; show them as the reader sees them: data/<game>/…"""
    from .diagnostics import display_path

    for prefix in {display_path(data), str(data), str(data.resolve())}:
        if headline.startswith(prefix + "/"):
            return "data/" + headline[len(prefix) + 1:]
    return headline


def _run_scenario(path: Path, data: Path, result) -> tuple[list[str], list[str]]:
    from runtime.engine import load_from_sources

    from .scenario import load_scenario

    diags = Diagnostics()

    def compiled_for(game: str):
        if game not in result.games:
            raise LookupError(f"no game '{game}'")
        return load_from_sources(result.outputs, game)

    sc = load_scenario(path, compiled_for, diags)
    if sc is not None:
        sc.run()
    return [d.code for d in diags.errors], [d.headline() for d in diags.errors]
