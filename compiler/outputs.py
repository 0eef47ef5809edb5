"""Output folders are where cardwright writes, and only there (issue 23, class 3).

A game folder is data a stranger may have written, and so is the project around it: a
``generated/<game>`` shipped as a symbolic link to a folder elsewhere made ``compile`` write there
and delete every ``*.py`` it had not generated; a ``build/`` link got the reference written into its
target. Every command that writes checks its output folder here first, before anything is written:

- a folder cardwright chose itself (``generated/``, ``build/…``, ``.cardwright-cache/`` beside the
  data) must resolve inside the project (the folder that holds the data folder);
- no folder between the project (or, for ``--out DIR``, the current folder) and the output folder,
  the output folder itself, or anything under it may be a symbolic link.

``--out DIR`` is the user's own choice, so it may lie anywhere; but it is still never a link and
holds none, so nothing outside it is ever written or deleted.
"""
from __future__ import annotations

import os
from pathlib import Path

from .diagnostics import display_path


class OutputRefused(OSError):
    """An output folder cardwright will not write to (the message says why, for the user)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.strerror = message


def inside(path: str, root: str) -> bool:
    """Whether the (resolved) ``path`` is ``root`` or lies under it: compared as paths, nothing read."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def output_problem(out: Path, project: Path | None = None) -> str | None:
    """Why ``out`` may not be written to, or None. ``project``: the project a default output folder
    belongs to (it must resolve inside it); None for a folder the user named (``--out``)."""
    out = Path(os.path.abspath(out))
    anchor = Path(os.path.abspath(project if project is not None else Path.cwd()))
    # every folder from the anchor down to the output folder, and the folder itself
    chain = [out]
    if inside(str(out), str(anchor)):
        p = out.parent
        while inside(str(p), str(anchor)) and p != anchor:
            chain.append(p)
            p = p.parent
    for p in reversed(chain):
        if os.path.islink(p):
            return (f"the output folder {display_path(out)} goes through the symbolic link {display_path(p)}: "
                    "cardwright writes only into real folders (remove the link, or choose another --out)")
    if project is not None and not inside(os.path.realpath(out), os.path.realpath(anchor)):
        return (f"the output folder {display_path(out)} resolves outside the project {display_path(anchor)}: "
                "cardwright does not write there (choose another --out)")
    if os.path.isdir(out):
        for root, dirs, files in os.walk(out, followlinks=False):
            for name in sorted(dirs + files):
                p = Path(root) / name
                if os.path.islink(p):
                    return (f"the output folder {display_path(out)} holds a symbolic link, {display_path(p)}: "
                            "cardwright would write or delete through it (remove the link)")
    return None


def check_output(out: Path, project: Path | None = None) -> Path:
    """``out``, or ``OutputRefused`` saying why cardwright will not write there."""
    problem = output_problem(out, project)
    if problem is not None:
        raise OutputRefused(problem)
    return out
