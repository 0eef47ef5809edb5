"""One escaping function per output format: every text that comes from data goes through one of these.

Data text (names, notes, rulebook quotes, table keys, terrain keys …) is never markup. Each output
format has exactly one function that turns an arbitrary string into inert text of that format, and
every renderer (the reference templates, the card sheets, the engines' pictures: maps, card fields)
calls it instead of escaping by hand:

- :func:`html` — HTML and XML/SVG text *and* double- or single-quoted attribute values;
- :func:`md` — Markdown inline text (a paragraph, a list item, a heading, a table cell, link text);
- :func:`md_url` — a Markdown link target made from a data key;
- :func:`svg_id` — an XML ``id`` / ``url(#…)`` fragment made from a data key;
- :func:`css_colour` — a colour from data inside a ``style`` attribute, or nothing;
- :func:`tts` — a name or description in a Tabletop Simulator save (its BBCode-like tags inert);
- :func:`css_string` — a quoted CSS string (a running header's ``content:``) inside a ``<style>``.

They are property-tested over arbitrary strings (``tests/test_escape.py``).
"""
from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import quote

from markupsafe import Markup

_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"}
_HTML_RE = re.compile(r"[&<>\"']")
# Characters XML 1.0 forbids outright (an SVG parser stops at them): C0 controls but tab/LF/CR,
# lone surrogates and the two non-characters. Replaced by U+FFFD so one bad byte loses no page.
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def html(value: Any) -> Markup:
    """``value`` as HTML/XML text, safe in element content and in quoted attribute values.

    Returns :class:`markupsafe.Markup` so that Jinja's autoescape does not escape it twice.
    """
    if isinstance(value, Markup):
        return value
    s = _XML_BAD.sub("\ufffd", str(value))
    return Markup(_HTML_RE.sub(lambda m: _HTML[m.group(0)], s))


# Markdown: escape what can start or end markup anywhere in a line — emphasis and strikethrough,
# code spans and fences, links and images, table pipes, math ($), backslashes — with a backslash
# (CommonMark §2.4), and '&', '<', '>' as entities so that no raw HTML, autolink or entity is ever
# written. A line break inside a value (a newline in a name) becomes a space, so a value can neither
# end a table row nor start a heading or a list on a line of its own; and what could open a block at
# the start of a line (#, >, -, +, =, "1." / "1)") is escaped there, as templates put some values
# first on their line. Other punctuation stays as it is, so the Markdown still reads as text.
_MD_PUNCT = re.compile(r"([\\`*_\[\]|~$])")
_MD_BREAK = re.compile(r"[\r\n\u0085\u2028\u2029\t\v\f]+")
_MD_LINE_START = re.compile(r"^([#>+=-])|^([0-9]{1,9})([.)])")


def md(value: Any) -> str:
    """``value`` as inert Markdown inline text (also safe in a table cell and in link text)."""
    s = _XML_BAD.sub("\ufffd", str(value))
    # leading spaces could open an indented code block, and a space next to the template's ** would
    # stop it being bold: a value's outer whitespace means nothing inline
    s = _MD_BREAK.sub(" ", s).strip()
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _MD_PUNCT.sub(r"\\\1", s)
    return _MD_LINE_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), s)


def md_url(value: Any) -> str:
    """A relative link target (``age_of_steam.md``, a map's file name) for ``[text](…)``: percent-encoded,
    so no space, parenthesis or bracket in a data key can end the link early."""
    return quote(str(value), safe="/-_.~")


_ID_SAFE = re.compile(r"[^A-Za-z0-9_-]")


def svg_id(*parts: Any) -> str:
    """An XML id from data keys: letters, digits, ``_`` and ``-`` only, always starting with a letter.

    A key that needed changing gets a short hash of the original, so two keys that differ only in
    the characters removed never share an id. Deterministic: the same keys give the same id.
    """
    raw = "-".join(str(p) for p in parts)
    safe = _ID_SAFE.sub("_", raw)
    if safe != raw:
        safe += "-" + hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return safe if safe[:1].isalpha() else "k" + safe


_COLOUR = re.compile(r"#[0-9A-Fa-f]{3,8}|[A-Za-z]{3,20}|(rgb|hsl)a?\([0-9., %]{1,40}\)")


def css_colour(value: Any, default: str | None = None) -> str | None:
    """A colour from data, if it is one (``#2a6fdb``, ``teal``, ``rgb(1, 2, 3)``), else ``default``.

    Colours go into ``style`` attributes and SVG ``fill``; anything but a plain colour is dropped
    rather than escaped, because CSS has no escape that makes ``red; background: url(…)`` harmless.
    """
    s = str(value) if isinstance(value, str) else ""
    return s if _COLOUR.fullmatch(s) else default


def css_string(value: Any) -> str:
    """``value`` as a double-quoted CSS string that cannot end the string, the rule or the ``<style>``
    element: every character outside plain letters, digits, space and safe punctuation becomes a
    CSS hex escape (``\\3c `` for ``<``)."""
    s = _XML_BAD.sub("\ufffd", str(value))
    out = "".join(c if c.isalnum() or c in " .,:;!?()-—–·'" else f"\\{ord(c):x} " for c in s)
    return f'"{out}"'


def tts(value: Any) -> str:
    """Text for a Tabletop Simulator name or description, which TTS reads as BBCode-like markup
    (``[b]``, ``[i]``, ``[ff0000]`` colours, ``[-]``). TTS has no escape, so a zero-width space after
    every ``[`` keeps a bracket from opening a tag while the text still reads the same; the JSON
    encoder does the rest."""
    return str(value).replace("[", "[\u200b")


__all__ = ["css_colour", "css_string", "tts", "html", "md", "md_url", "svg_id"]
