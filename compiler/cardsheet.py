"""Print and play: a game's cards as real-size sheets with crop marks, one PNG per card, and a
Tabletop Simulator deck.

Pipeline: the compiled game → card views (``compiler.reference.game_view``, so effects are in the
same English as the reference, from one call site) → one HTML face per card and one back per kind
(jinja2 templates under ``compiler/templates/cards/``, which a designer overrides with
``data/<game>/templates/<kind>.html.j2`` / ``<kind>.back.html.j2``) → three HTML documents:

- the **sheets** (A4 or Letter): as many cards as fit with their bleed, crop marks in the margins
  (and in the waste strips between cards where a margin is too thin to hold them), an optional
  safe-zone guide, copies from each card's ``count``, and — with ``duplex`` — each sheet's backs
  on the following page, mirrored left to right so that they line up after a long-edge flip;
- the **singles**: one card per page at trim size, for the PNGs (300 dpi: 744×1039 px for poker);
- the **grids**: the 10×7 face (and back) images of a Tabletop Simulator custom deck.

The headless Chromium of the rules reference prints each to PDF; ``pdftoppm`` (poppler-utils)
turns the singles and grids into PNGs of exact pixel sizes. All geometry is computed here in
millimetres and written into the HTML, so the HTML and the TTS JSON are byte-identical for the same
input (PDFs carry Chromium's creation date; see docs/printing.md).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup

from runtime import escape
from runtime.fieldtypes import Shown, field_type

from .cardfit import DEFAULT_MIN_PT, FitError, factors, measure, report, wrap
from .diagnostics import Diagnostics
from .printassets import data_uri, font_css
from .reference import (CSP_META, Card, PdfError, _marked_html, _write, find_browser, g_icons, game_view,
                        ink_for, players_view, print_pdf, title)

TEMPLATES = Path(__file__).resolve().parent / "templates" / "cards"
SIZES = {"poker": (63.0, 88.0), "bridge": (56.0, 88.0), "mini": (44.0, 63.0), "tarot": (70.0, 120.0),
         "square": (70.0, 70.0)}
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
OUTPUTS = ("pdf", "png", "tts", "html")
DPI = 300
TTS_COLS, TTS_ROWS = 10, 7
TTS_MAX_PX = 4096  # Tabletop Simulator loads larger images, but slowly and not on every machine
MARK_LEN = 5.0  # mm: a crop mark's length where the margin allows
MARK_GAP = 1.0  # mm between a crop mark and the bleed edge
MIN_MARGIN_FOR_MARKS = 3.0  # mm: below this, crop marks also go into the waste strips between cards
# mm kept blank along every edge of the sheet: home printers cannot print closer than 3–5 mm to the
# edge (and clip crop marks there), so no mark, caption or bleed comes closer than this by default
PRINTABLE_MARGIN = 5.0


class SheetError(ValueError):
    """A size, paper or option that cannot make a sheet (the message is for the designer)."""


# --- sizes and layout -----------------------------------------------------------------------------------


def parse_size(text: str) -> tuple[float, float]:
    """``poker`` … ``square``, or ``WxH`` in millimetres (``63x88``, ``57.5x89``)."""
    key = str(text).strip().lower()
    if key in SIZES:
        return SIZES[key]
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*[x×]\s*([0-9]+(?:\.[0-9]+)?)(?:\s*mm)?", key)
    if not m:
        raise SheetError(f"unknown card size {text!r}: use {', '.join(SIZES)} or WxH in mm, e.g. 63x88")
    w, h = float(m.group(1)), float(m.group(2))
    if not (10 <= w <= 400 and 10 <= h <= 400):
        raise SheetError(f"card size {text!r} is out of range (each side 10 to 400 mm)")
    return w, h


@dataclass(frozen=True)
class SheetSpec:
    card: tuple[float, float] = SIZES["poker"]  # trim size, mm
    paper: str = "a4"
    bleed: float = 3.0
    safe: float = 0.0  # safe-zone guide inset from the trim, mm (0: no guide)
    duplex: bool = False
    margin: float = PRINTABLE_MARGIN  # nothing printed closer than this to the sheet's edge, mm
    png_size: tuple[int, int] | None = None  # per-card PNGs of exactly this many pixels (a print service's template)

    def __post_init__(self):
        if self.paper not in PAPERS:
            raise SheetError(f"unknown paper {self.paper!r} (use {' or '.join(PAPERS)})")
        if not 0 <= self.bleed <= 10:
            raise SheetError(f"bleed {self.bleed} mm is out of range (0 to 10 mm)")
        if not 0 <= self.safe < min(self.card) / 2:
            raise SheetError(f"safe zone {self.safe} mm does not fit a {fmt_mm(self.card)} card")
        if not 0 <= self.margin <= 30:
            raise SheetError(f"margin {self.margin} mm is out of range (0 to 30 mm)")
        if self.png_size is not None:
            pw, ph = (v / DPI * 25.4 for v in self.png_size)
            if pw + 1e-6 < self.card[0] or ph + 1e-6 < self.card[1]:
                raise SheetError(f"PNG size {self.png_size[0]}x{self.png_size[1]} px is {pw:.1f}×{ph:.1f} mm at "
                                 f"{DPI} dpi, smaller than the {fmt_mm(self.card)} card")

    @property
    def png_page(self) -> tuple[float, float]:
        """A per-card PNG's size in mm: the card with its bleed, or the print service's template size."""
        if self.png_size is not None:
            return self.png_size[0] / DPI * 25.4, self.png_size[1] / DPI * 25.4
        return self.card[0] + 2 * self.bleed, self.card[1] + 2 * self.bleed

    @property
    def png_px(self) -> tuple[int, int]:
        return self.png_size or (px(self.png_page[0]), px(self.png_page[1]))


@dataclass(frozen=True)
class Grid:
    """Where the cards of one sheet go: ``cols`` × ``rows`` bleed boxes, centred on the paper."""
    spec: SheetSpec
    cols: int
    rows: int

    @property
    def paper(self) -> tuple[float, float]:
        return PAPERS[self.spec.paper]

    @property
    def pitch(self) -> tuple[float, float]:
        w, h = self.spec.card
        return w + 2 * self.spec.bleed, h + 2 * self.spec.bleed

    @property
    def origin(self) -> tuple[float, float]:
        (pw, ph), (sx, sy) = self.paper, self.pitch
        return (pw - self.cols * sx) / 2, (ph - self.rows * sy) / 2

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows

    def slot(self, i: int, mirrored: bool = False) -> tuple[float, float]:
        """Top-left corner (mm) of slot ``i``'s bleed box; ``mirrored`` for the back of a sheet."""
        row, col = divmod(i, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        (x0, y0), (sx, sy) = self.origin, self.pitch
        return x0 + col * sx, y0 + row * sy

    def used(self, filled: int | None = None) -> tuple[int, int]:
        """Columns and rows that hold a card when ``filled`` slots are (slots fill row by row)."""
        if filled is None or filled >= self.per_sheet:
            return self.cols, self.rows
        return min(self.cols, max(filled, 0)), -(-max(filled, 0) // self.cols)

    def trims(self, filled: int | None = None) -> tuple[list[float], list[float]]:
        """The x and y of every trim line (each card's two edges), mm from the page's top left; with
        ``filled``, only the lines of the cards a partly filled sheet holds."""
        (x0, y0), (sx, sy), b = self.origin, self.pitch, self.spec.bleed
        w, h = self.spec.card
        cols, rows = self.used(filled)
        xs = [x0 + c * sx + b + d for c in range(cols) for d in (0, w)]
        ys = [y0 + r * sy + b + d for r in range(rows) for d in (0, h)]
        return xs, ys

    def crop_marks(self, filled: int | None = None) -> list[tuple[float, float, float, float]]:
        """Crop-mark lines (x1, y1, x2, y2) in mm, all outside the cards' trim and inside the
        printable margin; with ``filled``, only for the cards a partly filled sheet holds.

        Around the grid: from just outside the bleed towards the paper edge, stopping at the printable
        margin (at most MARK_LEN long). Where that strip is thinner than MIN_MARGIN_FOR_MARKS, the
        same lines are also drawn across the waste strips between neighbouring cards, which the
        cutting removes whole, so every cut line is marked where it can be printed.
        """
        (pw, ph), (x0, y0) = self.paper, self.origin
        sx, sy = self.pitch
        m = self.spec.margin
        x1, y1 = x0 + self.cols * sx, y0 + self.rows * sy
        cols, rows = self.used(filled)
        xs, ys = self.trims(filled)
        out = []

        def span(inner: float, edge: float) -> tuple[float, float] | None:
            # from MARK_GAP outside the bleed towards the paper edge; in a thin margin, what is left
            start = inner - MARK_GAP if edge < inner else inner + MARK_GAP
            if abs(edge - inner) <= MARK_GAP:
                start = inner
            end = start - MARK_LEN if edge < inner else start + MARK_LEN
            end = max(end, edge) if edge < inner else min(end, edge)
            return (start, end) if abs(end - start) > 0.2 else None

        for x in xs:
            for s in (span(y0, m), span(y1, ph - m)):
                if s:
                    out.append((x, s[0], x, s[1]))
        for y in ys:
            for s in (span(x0, m), span(x1, pw - m)):
                if s:
                    out.append((s[0], y, s[1], y))
        b = self.spec.bleed
        if b > 0 and min(x0 - m, pw - m - x1) < MIN_MARGIN_FOR_MARKS:
            for y in ys:  # horizontal cut lines across the vertical waste strips
                for c in range(cols - 1):
                    xa = x0 + (c + 1) * sx - b
                    out.append((xa, y, xa + 2 * b, y))
        if b > 0 and min(y0 - m, ph - m - y1) < MIN_MARGIN_FOR_MARKS:
            for x in xs:
                for r in range(rows - 1):
                    ya = y0 + (r + 1) * sy - b
                    out.append((x, ya, x, ya + 2 * b))
        return out


def _grid_size(spec: SheetSpec, bleed: float) -> tuple[int, int]:
    (pw, ph), (w, h), m = PAPERS[spec.paper], spec.card, spec.margin
    # a hair of tolerance: 3 × 69 mm must fit in 207 mm whatever the float rounding says
    return int((pw - 2 * m + 1e-6) // (w + 2 * bleed)), int((ph - 2 * m + 1e-6) // (h + 2 * bleed))


def fit(spec: SheetSpec) -> Grid:
    """As many cards (with their bleed) as fit inside the printable margin, never a card split over
    two pages."""
    cols, rows = _grid_size(spec, spec.bleed)
    if cols < 1 or rows < 1:
        raise SheetError(f"a {fmt_mm(spec.card)} card with {spec.bleed:g} mm bleed does not fit on "
                         f"{spec.paper.upper()} paper inside a {spec.margin:g} mm margin")
    return Grid(spec, cols, rows)


def more_per_sheet(spec: SheetSpec) -> tuple[float, int, int] | None:
    """The largest bleed (in 0.5 mm steps, at least 1 mm) that puts more cards on a sheet than
    ``spec.bleed`` does, as (bleed, cols, rows); None when no smaller bleed does. The designer is told,
    so a thinner bleed is a choice, not a surprise."""
    cols, rows = _grid_size(spec, spec.bleed)
    b = (spec.bleed * 2 // 1) / 2  # the 0.5 mm step at or below the bleed asked for
    if b == spec.bleed:
        b -= 0.5
    while b >= 1.0:
        c, r = _grid_size(spec, b)
        if c * r > cols * rows:
            return b, c, r
        b -= 0.5
    return None


def fmt_mm(size: tuple[float, float]) -> str:
    return f"{size[0]:g}×{size[1]:g} mm"


def px(mm: float, dpi: int = DPI) -> int:
    """Pixels for a length at ``dpi`` (63 mm at 300 dpi → 744)."""
    return int(round(mm / 25.4 * dpi))


# --- the cards to print -------------------------------------------------------------------------------


@dataclass
class Side:
    """One printed side of a card: the front, or another face (a Machine's Hacked side)."""
    name: str  # the card's name
    label: str  # "Machine", "Hacked side" …
    fields: list
    effects: list
    notes: list[tuple[str, str]]  # (mark, label) of the provisional/uncertain values shown on it


@dataclass
class PrintCard:
    id: str
    name: str
    kind: str  # the card kind's key
    count: int
    face: Markup
    back: Markup
    unique_back: bool  # the back is this card's own other face, not its kind's back
    text: str  # the card's text in plain English, for the TTS description
    slots: dict[str, str] = field(default_factory=dict)  # the front's effect slots: key -> printed label
    back_face: str | None = None  # the key of the face printed on the back (a unique back)
    back_slots: dict[str, str] = field(default_factory=dict)
    copies_from: str = "count"  # "setup" when the game's setup says how many are made, else "count"


@dataclass
class Deck:
    game: str
    name: str
    cards: list[PrintCard]
    backs: dict[str, Markup]  # kind -> the kind's back
    kinds: dict[str, str] = field(default_factory=dict)  # kind -> printed name
    css: list[str] = field(default_factory=list)  # stylesheet rules of the engine field types drawn
    copies: "Copies | None" = None  # where the numbers of copies came from
    base_pt: float = 8.0  # the faces' type size
    min_pt: dict[str, float] = field(default_factory=dict)  # kind -> smallest body text when fitting
    fitted: dict = field(default_factory=dict)  # face stem -> cardfit.Fitted, once measured


@dataclass
class Copies:
    """How many of each card to print, and why: the game's setup where it creates cards, else ``count``."""
    number: dict[str, int]
    from_setup: list[str]  # card ids whose copies follow the setup
    never_created: list[str]  # card ids a setup that names cards never creates (printed at ``count``)
    players: int | None  # players a per-player zone's cards were multiplied by

    def summary(self) -> str:
        if not self.from_setup:
            return "copies: each card's count (the game's setup does not create cards)"
        per = f", for {self.players} players" if self.players else ""
        text = f"copies: as the game's setup creates them{per} ({len(self.from_setup)} cards)"
        rest = len(self.number) - len(self.from_setup)
        if rest:
            text += f"; {rest} by count"
        if self.never_created:
            text += f"; never created by the setup: {', '.join(self.never_created)}"
        return text


def copies_of(result, game: str) -> Copies:
    """The copies of every card of a compiled game (``setup_copies`` over each card's ``count``)."""
    gb = result.games[game]
    counts: dict[str, int] = {}
    for doc in gb.modules.values():
        for rec in (doc.data.get("cards") if doc is not None and isinstance(doc.data, dict) else None) or []:
            if isinstance(rec, dict) and isinstance(rec.get("id"), str):
                n = rec.get("count", 1)
                counts.setdefault(rec["id"], n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else 1)
    return setup_copies(gb.vocab, counts)


def setup_copies(vocab, counts: dict[str, int]) -> Copies:
    """The copies the game's flow setup makes (``flow.setup``: ``create`` + ``into``), each card once per
    player for a per-player zone, at the most players the game seats (a print run must serve a full
    table). ``create: all`` makes ``count`` of each. A card no ``create`` step names keeps its count and is
    listed, since a print-and-play sheet that prints cards the game never uses is worth a look."""
    d = vocab.source
    flow = d.get("flow") if isinstance(d.get("flow"), dict) else {}
    steps = [st for st in flow.get("setup") or [] if isinstance(st, dict) and "create" in st]
    seats = vocab.seats[1] if vocab.seats else None  # game.yaml ``seats``: print for a full table
    if not steps:
        return Copies(dict(counts), [], [], None)
    made: dict[str, int] = {}
    any_per_player = False
    for st in steps:
        zone = vocab.zones.get(st.get("into"))
        per_player = zone is None or zone.per_player
        times = int(seats or 1) if per_player else 1
        any_per_player |= per_player
        wanted = counts if st["create"] == "all" else st["create"]
        for cid, n in wanted.items():
            if cid in counts:
                made[cid] = made.get(cid, 0) + int(n) * times
    number = {cid: made.get(cid, n) for cid, n in counts.items()}
    never = [cid for cid in counts if cid not in made]
    return Copies(number, [cid for cid in counts if cid in made], never, int(seats or 1) if any_per_player else None)


_SKIP_FIELDS = {"art"}


def _side_notes(card: Card, face_label: str | None) -> list[tuple[str, str]]:
    """The marks of one side: the front keeps the card's own, a face those under its name."""
    out = []
    for mark, label, _why in card.notes:
        face, sep, rest = label.partition(": ")
        on_face = bool(sep) and face.endswith("side")
        if face_label is None and not on_face:
            out.append((mark, label))
        elif face_label is not None and on_face and face == face_label:
            out.append((mark, rest))
    return out


def _art_uri(game_dir: Path | None, art: str | None) -> str | None:
    """The art file as a data: URI (the sheet stays one self-contained file); only files inside the
    game folder are read, so a card cannot pull in /etc/passwd or a remote image (``validate``
    reports one that cannot be read: E212, compiler/printassets.py)."""
    return data_uri(game_dir, art)


_PLACEHOLDER = re.compile(r"\[([A-Za-z][A-Za-z _-]{0,30}) icon\]")


def _quoted_html(text: str, icons: dict) -> Markup:
    """A rulebook quote with its "[green icon]" placeholders drawn as the game's icons (by key or name);
    a placeholder naming no icon stays as it is written."""
    from .reference import icon_html

    by_name = {}
    for key, spec in icons.items():
        by_name[key.lower()] = key
        by_name[str((spec or {}).get("name") or key).lower()] = key
    out, pos = [], 0
    for m in _PLACEHOLDER.finditer(str(text)):
        key = by_name.get(m.group(1).lower()) or by_name.get(m.group(1).lower().replace(" ", "_"))
        if key is None:
            continue
        out.append(str(escape.html(text[pos:m.start()])) + icon_html(key, icons))
        pos = m.end()
    out.append(str(escape.html(text[pos:])))
    return Markup("".join(out))


# A face may not open a <meta> (http-equiv="refresh" navigates the printing browser to any URL, script
# or not) or a <base>: the page's content policy governs neither. Its '<' is written as text instead,
# wherever it stands (an attribute value, a comment), so no spelling of the tag gets through.
_NAVIGATING = re.compile(r"<(?=(?:meta|base)(?:[\s/>]|\Z))", re.IGNORECASE)


class TemplateError(SheetError):
    """A card template that cannot be rendered: a located diagnostic (the file and line of the
    template), never a traceback — a designer's template is data, and so is its mistake."""

    def __init__(self, diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _template_loader(game_dir: Path):
    """The game's own templates, read only from inside its ``templates/`` folder: a link there that
    leads elsewhere (``face.html.j2 -> ~/.ssh/id_rsa``) is refused, never read into a card."""
    import jinja2
    from jinja2.exceptions import SecurityError

    root = (game_dir / "templates").resolve()

    class _Confined(jinja2.FileSystemLoader):
        def get_source(self, environment, template):
            source, filename, uptodate = super().get_source(environment, template)
            if root not in Path(os.path.realpath(filename)).parents:
                # not TemplateNotFound: the ChoiceLoader would quietly fall back to the default face
                err = SecurityError(f"template {template!r} is a symbolic link that leaves the game's "
                                    f"templates folder; cardwright does not read it")
                err.filename = filename
                raise err
            return source, filename, uptodate

    return _Confined(str(game_dir / "templates"))


# The sandbox keeps a template away from Python, not from asking for unbounded work: "x" * 10**9,
# "%0999999999d" % 1, 9**9**9, a filter's width of a billion, loops nested over range(100000).
# Every value a template computes stays under MAX_TEMPLATE_TEXT (a card face is a few kB), and
# rendering a deck's faces takes at most TEMPLATE_SECONDS; past either, an E504 at the template.
MAX_TEMPLATE_TEXT = 1_000_000
MAX_TEMPLATE_WIDTH = 10_000  # a filter's width or length (center, indent, wordwrap, truncate)
TEMPLATE_SECONDS = 60.0
_WIDE_FORMAT = re.compile(r"%[-#0 +]*(\*|[0-9]{5,})|%[-#0 +]*[0-9]*\.(\*|[0-9]{5,})")


def _too_large(what: str):
    from jinja2.exceptions import SecurityError

    return SecurityError(f"{what} is larger than a card template may compute")


def _bounded(value):
    if isinstance(value, (str, list, tuple)) and len(value) > MAX_TEMPLATE_TEXT:
        raise _too_large(f"a value of {len(value):,} characters or items")
    return value


def _bounded_filter(name: str, fn):
    """``fn`` refusing a width past MAX_TEMPLATE_WIDTH and a result past MAX_TEMPLATE_TEXT (the
    filter's jinja2 flags, such as pass_context, are kept: functools.wraps copies them)."""
    import functools

    widths = name in ("center", "indent", "wordwrap", "truncate")

    @functools.wraps(fn)
    def bounded(*args, **kwargs):
        if widths and any(type(a) is int and a > MAX_TEMPLATE_WIDTH for a in (*args[1:], *kwargs.values())):
            raise _too_large(f"the '{name}' filter's width")
        if name == "format" and any(isinstance(a, str) and _WIDE_FORMAT.search(a) for a in args):
            raise _too_large("a format's width")
        return _bounded(fn(*args, **kwargs))

    return bounded


def sandboxed_env(loader):
    """The environment every card face is rendered in: jinja2's immutable sandbox, so a template
    (which a stranger may have written) reaches no Python internals (``__globals__``, ``__class__``),
    calls no method that changes data, and sees only what cardwright hands it; its arithmetic and
    filters are bounded (MAX_TEMPLATE_TEXT)."""
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class Bounded(ImmutableSandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%"})

        def call_binop(self, context, operator, left, right):
            if operator == "**" and isinstance(left, (int, float)) and isinstance(right, (int, float)) \
                    and abs(left) > 1 and right > 64:
                raise _too_large(f"{left} ** {right}")
            if operator == "*":
                for seq, n in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple)) and type(n) is int and len(seq) * n > MAX_TEMPLATE_TEXT:
                        raise _too_large(f"a repetition of {len(seq) * n:,} characters or items")
            if operator == "%" and isinstance(left, str) and _WIDE_FORMAT.search(left):
                raise _too_large("a format's width")
            return _bounded(super().call_binop(context, operator, left, right))

    env = Bounded(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
                  keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    # jinja2's default globals include helpers (lipsum, cycler, joiner) whose Python functions are
    # the classic way out of a template; only the harmless ones stay
    env.globals = {"range": env.globals["range"], "dict": dict, "namespace": env.globals["namespace"]}
    env.filters = {name: _bounded_filter(name, fn) for name, fn in env.filters.items()}
    return env


@contextmanager
def _deadline(seconds: float):
    """Raise a SecurityError in the rendering template once ``seconds`` have passed (SIGALRM: the
    main thread of a Unix process, where `cardwright cards` renders; elsewhere no deadline). A timer
    already set (a test's guard) is put back with the time it has left."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum, frame):
        from jinja2.exceptions import SecurityError

        raise SecurityError(f"rendering the cards' templates took longer than {TEMPLATE_SECONDS:.0f} s")

    old_handler = signal.signal(signal.SIGALRM, expired)
    start = time.monotonic()
    old_delay, old_interval = signal.getitimer(signal.ITIMER_REAL)
    signal.setitimer(signal.ITIMER_REAL, max(0.001, min(seconds, old_delay or float("inf"))))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_delay:
            signal.setitimer(signal.ITIMER_REAL, max(0.001, old_delay - (time.monotonic() - start)), old_interval)


def _template_diagnostic(exc: Exception, names: list[str], card: str | None):
    """A jinja2 failure as a diagnostic at the template's file and line."""
    import traceback

    import jinja2

    from .diagnostics import Diagnostic, display_path

    file = getattr(exc, "filename", None)
    line = getattr(exc, "lineno", None)
    if file is None:
        # a run-time error: jinja2 rewrites the traceback so the template's frames carry its file
        # and line; the innermost such frame is where the template failed
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if frame.filename.endswith(".j2"):
                file, line = frame.filename, frame.lineno
                break
    if isinstance(exc, jinja2.TemplatesNotFound):
        what = f"no template {' or '.join(repr(n) for n in exc.templates)}"
    elif isinstance(exc, jinja2.TemplateNotFound):
        what = f"template {exc.name!r} not found"
    elif isinstance(exc, jinja2.TemplateSyntaxError):
        what = f"template syntax error: {exc.message}"
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        what = str(exc) if getattr(exc, "filename", None) else f"the template tried something the sandbox refuses: {exc}"
    elif isinstance(exc, jinja2.UndefinedError):
        what = f"the template uses something cardwright does not give it: {exc.message}"
    else:
        what = f"the template failed: {exc.__class__.__name__}: {exc}"
    return Diagnostic("E504", what, file=display_path(file) if file else names[0], line=line,
                      column=1 if line else None, card=card)


def _check_template_files(folder: Path) -> None:
    """A template the designer named that is not there to read — a link to nothing, a folder named
    like a template — is an E504 at its name: jinja2 would take it for a missing template and quietly
    print the default face instead."""
    from .diagnostics import Diagnostic, display_path

    for p in sorted(folder.iterdir(), key=lambda p: p.name):
        if not p.name.endswith(".j2") or p.is_file():
            continue
        if p.is_symlink() and not p.exists():
            why = f"a symbolic link to '{os.readlink(p)}', which does not exist"
        elif p.is_dir():
            why = "a folder, not a file"
        else:
            why = "not a regular file"
        raise TemplateError(Diagnostic("E504", f"template {p.name!r} cannot be read: it is {why}",
                                       file=display_path(p), hint="cardwright would otherwise print the "
                                       "default face for it; fix it or remove it"))


class _Faces:
    """Renders faces and backs with the game's templates first, then cardwright's."""

    def __init__(self, result, game: str, game_dir: Path | None, spec: SheetSpec):
        import jinja2

        self.vocab = result.games[game].vocab
        self.d = self.vocab.source
        self.game_dir = game_dir
        self.spec = spec
        loaders = []
        if game_dir is not None and (game_dir / "templates").is_dir():
            _check_template_files(game_dir / "templates")
            loaders.append(_template_loader(game_dir))
        loaders.append(jinja2.FileSystemLoader(str(TEMPLATES)))
        # the bundled faces share the sandbox: a designer's template may extend them
        self.env = sandboxed_env(jinja2.ChoiceLoader(loaders))
        self.icons = g_icons(result, game)  # with the game's icon images
        self.env.filters["marked"] = lambda text: _marked_html(text, self.icons)
        self.env.filters["quoted"] = lambda text: _quoted_html(text, self.icons)
        self.env.filters["colour"] = lambda c, default="#444444": escape.css_colour(c, default)
        self.env.globals["ink_for"] = ink_for
        # a field too long for a small labelled box is printed as a line of its own
        self.env.tests["long_text"] = lambda v: isinstance(v, str) and len(v) > 28
        w, h = spec.card
        # type scales with the card: 8 pt on a poker card, smaller on a mini, larger on a tarot
        scale = min(w / 63.0, h / 88.0)
        self.size = {"w": w, "h": h, "bleed": spec.bleed, "safe": spec.safe, "font": round(8.0 * scale ** 0.7, 2)}
        self.game = {"id": game, "name": self.vocab.name}
        self.drawn_types: dict[str, str] = {}  # the engine field types drawn on some face -> their CSS
        self.seconds_left = TEMPLATE_SECONDS  # for all of this deck's faces and backs (_deadline)

    def min_pt(self, kind: str) -> float:
        """The smallest body text of a kind's faces (``card_kinds.KIND.min_font_size``, points), never
        above the type size itself."""
        spec = self.vocab.kinds.get(kind)
        v = spec.min_font_size if spec is not None and spec.min_font_size is not None else DEFAULT_MIN_PT
        return min(v, self.size["font"])

    def kind(self, key: str) -> dict:
        spec = self.vocab.kinds.get(key)
        colour = escape.css_colour(spec.colour if spec is not None else None, "#444444")
        name = (spec.declared if spec is not None else None) or title(key)
        return {"key": key, "name": name, "colour": colour, "ink": ink_for(colour)}

    def _render(self, names: list[str], **ctx) -> Markup:
        import jinja2

        start = time.monotonic()
        try:
            with _deadline(self.seconds_left):
                tpl = self.env.select_template(names)
                html = tpl.render(game=self.game, size=self.size, **ctx)
            return Markup(_NAVIGATING.sub("&lt;", _bounded(html)))
        except (jinja2.TemplateError, ValueError, TypeError, ArithmeticError, LookupError, RecursionError,
                AttributeError, MemoryError) as exc:
            # everything a template can make go wrong is the template's author's, named at its line
            card = ctx.get("card")
            raise TemplateError(_template_diagnostic(exc, names, getattr(card, "id", None))) from None
        finally:
            self.seconds_left -= time.monotonic() - start

    def face(self, card: Card, side: Side, engine_fields: list[Shown] | None = None) -> Markup:
        """One side of a card; ``engine_fields``: its values of the engine's field types, each drawn by
        its FieldType on the face."""
        k = card.kind_key
        drawn = []
        for shown in engine_fields or ():
            ft = field_type(shown.engine, shown.type)
            self.drawn_types.setdefault(ft.name, ft.face_css)
            drawn.append({"type": ft.name, "face": Markup(ft.face(shown, self.size)), "label": shown.label,
                          "text": ft.text(shown), "mark": shown.mark})
        return self._render([f"{k}.html.j2", "face.html.j2"], card=card, side=side, kind=self.kind(k),
                            drawn=drawn, art=_art_uri(self.game_dir, card.art))

    def back(self, kind: str) -> Markup:
        return self._render([f"{kind}.back.html.j2", "back.html.j2"], kind=self.kind(kind))


def deck(result, game: str, spec: SheetSpec, game_dir: Path | None = None) -> Deck:
    """Every card of ``game`` ready to print: its face, its back, how many copies."""
    # the playtesters' view: the same English and marks as the reference, without file paths
    view = players_view(game_view(result, game))
    faces = _Faces(result, game, game_dir, spec)
    cards: list[PrintCard] = []
    kinds: dict[str, str] = {}
    for mod in view.modules:
        for c in mod.cards:
            kinds.setdefault(c.kind_key, c.kind)
            front = Side(c.name, c.kind, [f for f in c.fields if f.label.lower() not in _SKIP_FIELDS],
                         c.effects, _side_notes(c, None))
            face = faces.face(c, front, c.engine_fields)
            back_face, back_slots = None, {}
            if c.faces:  # a double-sided card: its back is its other face (a Machine's Hacked side)
                f = c.faces[0]
                back = faces.face(c, Side(c.name, f.name, f.fields, f.effects, _side_notes(c, f.name)),
                                  f.engine_fields)
                back_face, back_slots = f.key, {e.key: e.label for e in f.effects}
            else:
                back = None
            text = "\n".join(f"{e.label}: {e.text}" for e in c.effects)
            cards.append(PrintCard(c.id, c.name, c.kind_key, int(c.count or 1), face, back or Markup(""),
                                   back is not None, text, {e.key: e.label for e in c.effects}, back_face, back_slots))
    backs = {k: faces.back(k) for k in sorted(kinds)}
    for pc in cards:
        if not pc.unique_back:
            pc.back = backs[pc.kind]
    copies = copies_of(result, game)
    for pc in cards:
        pc.count = copies.number.get(pc.id, pc.count)
        pc.copies_from = "setup" if pc.id in copies.from_setup else "count"
    css = [css for css in faces.drawn_types.values() if css]
    fonts = font_css(game_dir, faces.d.get("fonts") if isinstance(faces.d.get("fonts"), dict) else None)
    # Markup: cardwright wrote it (families are letters, digits and spaces; the files base64), and the
    # stylesheet must keep its quotes, which autoescaping would turn into entities a <style> does not read
    out = Deck(game, view.name, cards, backs, kinds, css + ([Markup(fonts)] if fonts else []), copies)
    out.base_pt = faces.size["font"]
    out.min_pt = {k: faces.min_pt(k) for k in kinds}
    return out


# --- fitting the text ---------------------------------------------------------------------------------


def _locator(result, game: str):
    """``where(card id, face key, slot key)`` -> (file, line, column, source line, path) of a card's slot
    text in its YAML file (the card's id when the slot is not known)."""
    gb = result.games[game]
    index: dict[str, tuple] = {}
    for doc in gb.modules.values():
        cards = doc.data.get("cards") if doc is not None and isinstance(doc.data, dict) else None
        for i, rec in enumerate(cards or []):
            if isinstance(rec, dict) and isinstance(rec.get("id"), str):
                index.setdefault(rec["id"], (doc, i))

    def where(card_id: str, face: str | None, slot: str | None):
        if card_id not in index:
            return None, None, None, None, None
        doc, i = index[card_id]
        path = ("cards", i) + ((face,) if face else ()) + ((slot,) if slot else ("id",))
        line, col, src = doc.where(path)
        text = f"cards[{i}]" + "".join(f".{p}" for p in path[2:])
        return doc.file, line, col, src, text

    return where


def fit_text(result, game: str, d: Deck, spec: SheetSpec, diags: Diagnostics, strict: bool = False,
             browser: str | None = None) -> None:
    """Measure every face in Chromium, shrink the text that needs it (within its kind's minimum) and
    report (E801) what does not fit even then. The faces of ``d`` are replaced by their fitted copies."""
    browser = browser or find_browser()
    if browser is None:
        raise PdfError("checking that card text fits needs a headless Chromium (Debian/Ubuntu: apt-get install "
                       "chromium); set CARDWRIGHT_CHROMIUM to its path if it is installed elsewhere")
    items, owners = [], {}
    for pc in d.cards:
        sizes = factors(d.base_pt, d.min_pt.get(pc.kind, DEFAULT_MIN_PT))
        items.append((pc.id, pc.face, sizes))
        owners[pc.id] = (pc, False)
        if pc.unique_back:
            items.append((f"{pc.id}-back", pc.back, sizes))
            owners[f"{pc.id}-back"] = (pc, True)
    if not items:
        return
    w, h = spec.card
    slot_css = (f"--w: {_n(w)}mm; --h: {_n(h)}mm; --bleed: {_n(spec.bleed)}mm; "
                f"width: {_n(w + 2 * spec.bleed)}mm; height: {_n(h + 2 * spec.bleed)}mm; margin-bottom: 2mm;")
    css = _env().from_string('{% include "cards.css" %}').render(deck=d)
    try:
        found = measure(items, css, slot_css, browser)
    except FitError as exc:
        raise PdfError(str(exc)) from exc
    where = _locator(result, game)
    for stem, (pc, is_back) in owners.items():
        f = found.get(stem)
        if f is None:
            continue
        d.fitted[stem] = f
        if f.factor < 1:
            if is_back:
                pc.back = wrap(pc.back, f.factor)
            else:
                pc.face = wrap(pc.face, f.factor)
        if not f.fits:
            report(diags, f, where, pc.id, pc.name, pc.kind, pc.back_face if is_back else None,
                   pc.back_slots if is_back else pc.slots, d.min_pt.get(pc.kind, DEFAULT_MIN_PT), strict)


# --- documents ----------------------------------------------------------------------------------------


def _env():
    import jinja2

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
    env.globals["csp_meta"] = Markup(CSP_META)
    return env


def _n(v: float) -> str:
    """A length in mm, fixed to 3 decimals (deterministic, and finer than any printer)."""
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


@dataclass
class Page:
    slots: list[tuple[str, str, Markup]]  # (x mm, y mm, face or back)
    marks: list[tuple[str, str, str, str]]
    guides: list[tuple[str, str]]  # safe-zone rectangles: (x, y) of each trim box's top left
    back: bool = False
    of: int | None = None  # a back page: the number of the sheet of fronts it belongs behind


def sheet_pages(d: Deck, grid: Grid) -> list[Page]:
    """The sheets in order: each sheet's fronts, then (duplex) its backs, mirrored. Without duplex the
    backs still print, every sheet's backs (mirrored the same way) after all the fronts, so a designer
    can print them on the other side by hand, or on card stock of their own."""
    copies = [pc for pc in d.cards for _ in range(pc.count)]
    b, s = grid.spec.bleed, grid.spec.safe
    fronts, backs = [], []
    for k, start in enumerate(range(0, len(copies), grid.per_sheet)):
        chunk = copies[start:start + grid.per_sheet]
        front_page = 2 * k + 1 if grid.spec.duplex else k + 1
        # a partly filled last sheet marks only the cuts of the cards it holds
        marks = [tuple(_n(v) for v in m) for m in grid.crop_marks(len(chunk))]
        for back in (False, True):
            slots, guides = [], []
            for i, pc in enumerate(chunk):
                x, y = grid.slot(i, mirrored=back)
                slots.append((_n(x), _n(y), pc.back if back else pc.face))
                if s:
                    guides.append((_n(x + b + s), _n(y + b + s)))
            page = Page(slots, marks, guides, back, of=front_page if back else None)
            if grid.spec.duplex or not back:
                fronts.append(page)
            else:
                backs.append(page)
    return fronts + backs


def render_sheets(d: Deck, grid: Grid) -> str:
    spec = grid.spec
    w, h = spec.card
    # the page's caption sits under the middle column, between its crop marks
    xs, _ = grid.trims()
    mid = grid.cols // 2
    # above the printable margin, never in the dead zone along the paper's edge
    info = {"x": _n(xs[2 * mid] + MARK_GAP), "w": _n(w - 2 * MARK_GAP), "bottom": _n(spec.margin)}
    return _env().get_template("sheets.html.j2").render(
        deck=d, pages=sheet_pages(d, grid), paper=PAPERS[spec.paper], n=_n, info=info,
        card={"w": _n(w), "h": _n(h), "bw": _n(w + 2 * spec.bleed), "bh": _n(h + 2 * spec.bleed),
              "bleed": _n(spec.bleed), "sw": _n(w - 2 * spec.safe), "sh": _n(h - 2 * spec.safe)},
        grid=grid, spec=spec)


def single_items(d: Deck) -> list[tuple[str, Markup]]:
    """(PNG file stem, face) for every distinct face and back, in a fixed order."""
    items = [(pc.id, pc.face) for pc in d.cards]
    items += [(f"{pc.id}-back", pc.back) for pc in d.cards if pc.unique_back]
    items += [(f"back-{k}", b) for k, b in sorted(d.backs.items())]
    return items


def render_singles(d: Deck, spec: SheetSpec) -> str:
    """One card a page, the page the size of a per-card PNG: the card centred with its bleed (or, for a
    print service's template size, with as much bleed as the template leaves around the trim)."""
    w, h = spec.card
    pw, ph = spec.png_page
    bleed = max((pw - w) / 2, (ph - h) / 2)
    return _env().get_template("singles.html.j2").render(
        deck=d, items=single_items(d), card={"w": _n(w), "h": _n(h), "bleed": _n(bleed)},
        page={"w": _n(pw), "h": _n(ph), "x": _n((pw - w) / 2 - bleed), "y": _n((ph - h) / 2 - bleed)})


@dataclass
class TtsSheet:
    kind: str
    number: int  # 1, 2 … within the kind
    cards: list[PrintCard]
    unique_back: bool

    @property
    def stem(self) -> str:
        return f"{self.kind}-{self.number}"


def tts_sheets(d: Deck) -> list[TtsSheet]:
    """One or more 10×7 grids per card kind (69 faces each: TTS keeps the last slot for the hidden card)."""
    out = []
    per = TTS_COLS * TTS_ROWS - 1
    for kind in sorted(d.kinds):
        cards = [pc for pc in d.cards if pc.kind == kind]
        for n, start in enumerate(range(0, len(cards), per), 1):
            chunk = cards[start:start + per]
            out.append(TtsSheet(kind, n, chunk, any(pc.unique_back for pc in chunk)))
    return out


def tts_card_px(card: tuple[float, float]) -> tuple[int, int]:
    """One card's size in a TTS grid: as large as fits 10×7 in TTS_MAX_PX, at most 300 dpi."""
    w, h = card
    cw = min(px(w), TTS_MAX_PX // TTS_COLS, int(TTS_MAX_PX // TTS_ROWS * w / h))
    return cw, int(round(cw * h / w))


def render_grids(d: Deck, spec: SheetSpec) -> tuple[str, list[str]]:
    """The grid pages (faces, then unique backs, of each TTS sheet) and the PNG stem of each page."""
    w, h = spec.card
    pages, stems = [], []
    for sh in tts_sheets(d):
        pages.append([pc.face for pc in sh.cards])
        stems.append(f"{d.game}-{sh.stem}-faces")
        if sh.unique_back:
            pages.append([pc.back for pc in sh.cards])
            stems.append(f"{d.game}-{sh.stem}-backs")
    html = _env().get_template("grid.html.j2").render(
        deck=d, pages=pages, cols=TTS_COLS, rows=TTS_ROWS, n=_n,
        card={"w": _n(w), "h": _n(h), "bw": _n(w + 2 * spec.bleed), "bh": _n(h + 2 * spec.bleed),
              "bleed": _n(spec.bleed)},
        page={"w": _n(w * TTS_COLS), "h": _n(h * TTS_ROWS)})
    return html, stems


def _guid(*parts: str) -> str:
    return hashlib.sha1("/".join(parts).encode("utf-8")).hexdigest()[:6]


def tts_json(d: Deck, spec: SheetSpec, image_url: str) -> str:
    """A Tabletop Simulator saved object: one custom deck per card kind, every copy a card.

    ``image_url`` is prefixed to each image's file name (a folder's file:/// URI, or where the images
    are uploaded). Deterministic: GUIDs are hashes of the game, kind and card ids.
    """
    objects = []
    deck_id = 0
    by_kind: dict[str, list[tuple[int, TtsSheet]]] = {}
    for sh in tts_sheets(d):
        deck_id += 1
        by_kind.setdefault(sh.kind, []).append((deck_id, sh))
    for x, (kind, sheets) in enumerate(sorted(by_kind.items())):
        custom: dict[str, dict] = {}
        contained, ids = [], []
        for did, sh in sheets:
            back = f"{d.game}-{sh.stem}-backs.png" if sh.unique_back else f"back-{kind}.png"
            custom[str(did)] = {"FaceURL": image_url + f"{d.game}-{sh.stem}-faces.png", "BackURL": image_url + back,
                                "NumWidth": TTS_COLS, "NumHeight": TTS_ROWS, "BackIsHidden": True,
                                "UniqueBack": sh.unique_back, "Type": 0}
            for i, pc in enumerate(sh.cards):
                for copy in range(pc.count):
                    cid = did * 100 + i
                    ids.append(cid)
                    contained.append({
                        "GUID": _guid(d.game, kind, pc.id, str(copy)), "Name": "Card",
                        "Nickname": escape.tts(pc.name), "Description": escape.tts(pc.text), "CardID": cid,
                        "Transform": _transform(x), "CustomDeck": {str(did): custom[str(did)]}})
        name = d.kinds.get(kind) or title(kind)
        if len(contained) == 1:  # TTS has no deck of one: a lone card is a card object
            one = dict(contained[0], Transform=_transform(x))
            objects.append(one)
            continue
        objects.append({"GUID": _guid(d.game, kind), "Name": "DeckCustom",
                        "Nickname": escape.tts(f"{d.name}: {name}"), "Description": f"{len(contained)} cards, printed by cardwright", "Transform": _transform(x),
                        "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained,
                        "Grid": True, "Snap": True, "Locked": False, "Tooltip": True, "HideWhenFaceDown": True})
    save = {"SaveName": escape.tts(d.name), "GameMode": "", "Date": "", "Gravity": 0.5, "Table": "", "Sky": "", "Note": "",
            "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}
    return json.dumps(save, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _transform(x: int) -> dict:
    # face down (rotZ 180), decks side by side 4 units apart
    return {"posX": x * 4.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


# --- writing ------------------------------------------------------------------------------------------


def find_pdftoppm() -> str | None:
    return shutil.which("pdftoppm")


def set_png_dpi(path: Path, dpi: int) -> None:
    """Write ``dpi`` into a PNG's pHYs chunk exactly (300 dpi: 11,811 px per metre).

    pdftoppm derives pHYs from the scale it used, which -scale-to rounds (a poker card read 299.2 ×
    300.3 dpi): software that honours it then prints the card at the wrong size."""
    import struct
    import zlib

    data = path.read_bytes()
    sig, pos, chunks = data[:8], 8, []
    while pos < len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind != b"pHYs":
            chunks.append(data[pos:pos + 12 + n])
        pos += 12 + n
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    phys = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    path.write_bytes(sig + chunks[0] + phys + b"".join(chunks[1:]))  # pHYs goes after IHDR, before IDAT


def pdf_to_pngs(pdf: Path, stems: list[str], out_dir: Path, size_px: tuple[int, int]) -> list[Path]:
    """Each page of ``pdf`` as ``<stem>.png`` of exactly ``size_px`` pixels (poppler's pdftoppm)."""
    tool = find_pdftoppm()
    if tool is None:
        raise PdfError("PNG output needs pdftoppm (Debian/Ubuntu: apt-get install poppler-utils)")
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory(prefix="cardwright-png-") as tmp:
        # one pdftoppm per CPU over consecutive page ranges: rasterising is the slow part
        n = len(stems)
        jobs = max(1, min(os.cpu_count() or 1, 4, n))
        ranges = [(1 + i * n // jobs, (i + 1) * n // jobs) for i in range(jobs)]

        def run(r):
            return subprocess.run([tool, "-png", "-r", str(DPI), "-f", str(r[0]), "-l", str(r[1]),
                                   "-scale-to-x", str(size_px[0]), "-scale-to-y", str(size_px[1]), str(pdf),
                                   str(Path(tmp) / f"p{r[0]:05d}")], capture_output=True, timeout=600, check=False)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            procs = list(pool.map(run, ranges))
        # pdftoppm names pages <prefix>-<page>.png, zero-padded to the document's page count
        pages = sorted(Path(tmp).glob("p*-*.png"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))
        bad = [p for p in procs if p.returncode != 0]
        if bad or len(pages) != len(stems):
            err = bad[0].stderr.decode("utf-8", "replace").strip() if bad else f"{len(pages)} pages for {n}"
            raise PdfError(f"pdftoppm could not render {pdf.name}: {err}")
        for page, stem in zip(pages, stems):
            dst = out_dir / f"{stem}.png"
            shutil.move(str(page), dst)
            written.append(dst)
    return written


def write_cards(result, game: str, out_dir: Path, spec: SheetSpec, outputs=OUTPUTS,
                game_dir: Path | None = None, image_url: str | None = None, diags: Diagnostics | None = None,
                strict: bool = False, progress=None) -> list[Path]:
    """Write the chosen outputs of one game's cards into ``out_dir``; return the files written.

    With a browser the text of every face is fitted first (``fit_text``); what does not fit goes into
    ``diags`` (warnings, or errors when ``strict``). ``progress(message)`` is told of each slow step."""
    tell = progress or (lambda _msg: None)
    for o in outputs:
        if o not in OUTPUTS:
            raise SheetError(f"unknown output {o!r} (use {', '.join(OUTPUTS)})")
    grid = fit(spec)
    tell(f"{game}: laying out the cards")
    d = deck(result, game, spec, game_dir)
    needs_browser = {"pdf", "png", "tts"} & set(outputs)
    if needs_browser and find_browser() is None:
        raise PdfError("PDF, PNG and TTS output need a headless Chromium (Debian/Ubuntu: apt-get install "
                       "chromium); set CARDWRIGHT_CHROMIUM to its path if it is installed elsewhere")
    if find_browser() is not None:  # HTML alone needs no browser, and is then printed unfitted
        tell(f"{game}: fitting the text of {len(d.cards)} cards")
        fit_text(result, game, d, spec, diags if diags is not None else Diagnostics(), strict)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    sheets_html = render_sheets(d, grid)
    if "html" in outputs:
        p = out_dir / f"{game}-cards.html"
        _write(p, sheets_html)
        written.append(p)
    with tempfile.TemporaryDirectory(prefix="cardwright-cards-") as tmp:
        tmp = Path(tmp)
        jobs, after = [], []
        if "pdf" in outputs:
            src = tmp / "sheets.html"
            _write(src, sheets_html)
            jobs.append((src, out_dir / f"{game}-cards.pdf"))
            written.append(out_dir / f"{game}-cards.pdf")
        if "png" in outputs or "tts" in outputs:
            src = tmp / "singles.html"
            _write(src, render_singles(d, spec))
            jobs.append((src, tmp / "singles.pdf"))
            stems = [s for s, _ in single_items(d)]
            if "png" in outputs:
                after.append((tmp / "singles.pdf", stems, out_dir / "png", spec.png_px))
            if "tts" in outputs:  # the backs TTS needs, at the grid's card size
                backs = [s for s in stems if s.startswith("back-")]
                after.append(("backs", backs, out_dir / "tts", tts_card_px(spec.card)))
        if "tts" in outputs:
            html, grid_stems = render_grids(d, spec)
            src = tmp / "grids.html"
            _write(src, html)
            jobs.append((src, tmp / "grids.pdf"))
            cw, ch = tts_card_px(spec.card)
            after.append((tmp / "grids.pdf", grid_stems, out_dir / "tts", (cw * TTS_COLS, ch * TTS_ROWS)))
        if jobs:
            tell(f"{game}: printing {len(jobs)} PDF{'s' if len(jobs) != 1 else ''} in Chromium")
        with ThreadPoolExecutor(max_workers=3) as pool:
            list(pool.map(lambda job: print_pdf(*job), jobs))
        for pdf, stems, folder, size in after:
            tell(f"{game}: rendering {len(stems)} PNG{'s' if len(stems) != 1 else ''} into {folder.name}/")
            if pdf == "backs":
                written += _back_pngs(tmp / "singles.pdf", single_items(d), stems, folder, size, spec)
            else:
                pngs = pdf_to_pngs(pdf, stems, folder, size)
                if folder.name == "png":  # the per-card images: exactly DPI, as print services read it
                    for p in pngs:
                        set_png_dpi(p, DPI)
                written += pngs
    if "tts" in outputs:
        url = image_url if image_url is not None else (out_dir / "tts").resolve().as_uri() + "/"
        p = out_dir / "tts" / f"{game}.json"
        _write(p, tts_json(d, spec, url))
        written.append(p)
    return written


def _back_pngs(singles_pdf: Path, items, backs: list[str], folder: Path, size, spec: SheetSpec) -> list[Path]:
    """Render only the kind backs of the singles PDF (pdftoppm -f/-l per page), at the TTS size: the
    singles' pages carry bleed, so the page is scaled for the trim to be ``size`` and cropped to it."""
    tool = find_pdftoppm()
    if tool is None:
        raise PdfError("TTS output needs pdftoppm (Debian/Ubuntu: apt-get install poppler-utils)")
    folder.mkdir(parents=True, exist_ok=True)
    stems = [s for s, _ in items]
    out = []
    for stem in backs:
        page = stems.index(stem) + 1
        base = folder / f".{stem}"
        (pw, ph), (w, h) = spec.png_page, spec.card
        full = (int(round(size[0] * pw / w)), int(round(size[1] * ph / h)))
        crop = (int(round((full[0] - size[0]) / 2)), int(round((full[1] - size[1]) / 2)))
        subprocess.run([tool, "-png", "-singlefile", "-f", str(page), "-l", str(page), "-scale-to-x", str(full[0]),
                        "-scale-to-y", str(full[1]), "-x", str(crop[0]), "-y", str(crop[1]), "-W", str(size[0]),
                        "-H", str(size[1]), str(singles_pdf), str(base)], check=True, capture_output=True,
                       timeout=300)
        dst = folder / f"{stem}.png"
        Path(f"{base}.png").replace(dst)
        out.append(dst)
    return out


__all__ = ["SIZES", "PAPERS", "OUTPUTS", "SheetSpec", "SheetError", "Grid", "fit", "parse_size", "deck",
           "render_sheets", "write_cards", "tts_json", "px"]
