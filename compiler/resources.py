"""Where the grammar, schemas and bundled games live, in a checkout and in an installed wheel.

The wheel carries ``grammar/`` and ``data/`` under ``compiler/_bundled/`` (see pyproject.toml);
a source checkout has them at the top level. Looking at the bundled copy first means an installed
``cardwright`` never depends on the current folder.
"""
from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_BUNDLED = _HERE / "_bundled"
_CHECKOUT = _HERE.parent


def _root() -> Path:
    if (_BUNDLED / "grammar").is_dir():
        return _BUNDLED
    return _CHECKOUT


RESOURCE_ROOT = _root()
GRAMMAR_DIR = RESOURCE_ROOT / "grammar"
BUNDLED_DATA = RESOURCE_ROOT / "data"
SCHEMA_DIR = BUNDLED_DATA / "schema"


def is_checkout() -> bool:
    """True when running from a source checkout (generated/ beside data/ is then the target)."""
    return RESOURCE_ROOT == _CHECKOUT
