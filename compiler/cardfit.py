"""Text fitting for printed cards: shrink a face's text until it fits, report what still does not.

As Squib's ``fit`` and nanDECK's font ranges do, each face's body text (fields, effects, the printed
quote; not the name or the footer) may shrink from the card's type size down to a minimum the
designer sets per card kind (``card_kinds.KIND.min_font_size`` in points, default
``DEFAULT_MIN_PT``). What does not fit even at the minimum is a located diagnostic (E801): the YAML
file, line and column of the slot that runs past the frame, the card, and by how many millimetres.

The measuring is done by the real layout engine, never estimated: every face is laid out once by
headless Chromium in a *measuring copy* of the faces, and a script of cardwright's own (``_SCRIPT``,
never a designer's) tries the sizes and writes what it found into the DOM, which ``--dump-dom``
returns. The designer's templates are untrusted: the measuring page carries a Content-Security-Policy
that lets only the script holding this run's random nonce execute and loads nothing from the network
or the disk (``default-src 'none'``), and the script writes its answer into an element whose id holds
the nonce, so static markup in a template cannot forge the answer. The printed sheets themselves get
no script at all: only the chosen size, as a ``--fit`` factor on a wrapper around the face.
"""
from __future__ import annotations

import html
import json
import re
import secrets
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from .diagnostics import Diagnostics
from .reference import browser_command

DEFAULT_MIN_PT = 6.0  # points: the smallest body text a kind shrinks to unless it says otherwise
STEP_PT = 0.25  # the sizes tried: the type size, then down in quarter points (deterministic steps)
TOLERANCE_PX = 1  # CSS px a frame's content may exceed it by (layout rounding), 0.26 mm
PX_MM = 25.4 / 96  # one CSS px in mm

# cardwright's own measuring script. For each face it tries the candidate factors (largest first,
# binary search: a smaller type never needs more room), keeps the largest that fits, and, where none
# fits, names the parts of the face that end below the frame's content box.
_SCRIPT = r"""
(function () {
 function run() {
  var PX_MM = 25.4 / 96, TOL = %(tol)d, out = [];
  // measured once the game's embedded fonts are in: a fallback font would measure other text
  var boxes = document.querySelectorAll('section.measure');
  for (var i = 0; i < boxes.length; i++) {
    var box = boxes[i], fit = box.querySelector('.fit');
    var face = fit.querySelector('.face');
    var frame = face ? (face.querySelector('.frame') || face) : fit;
    var sizes = JSON.parse(box.getAttribute('data-sizes'));
    var over = function (k) {
      fit.style.setProperty('--fit', String(sizes[k]));
      return frame.scrollHeight - frame.clientHeight;
    };
    var best = -1, lo = 0, hi = sizes.length - 1;
    if (over(0) <= TOL) best = 0;
    else if (over(hi) > TOL) best = hi;
    else {
      while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (over(mid) <= TOL) hi = mid; else lo = mid; }
      best = hi;
    }
    var rest = over(best);
    var cut = [];
    if (rest > TOL) {
      var fr = frame.getBoundingClientRect(), cs = getComputedStyle(frame);
      var limit = fr.top + frame.clientTop + frame.clientHeight - parseFloat(cs.paddingBottom || '0') + TOL;
      var parts = frame.querySelectorAll('[data-slot], .frame > *');
      for (var j = 0; j < parts.length; j++) {
        var p = parts[j];
        if (p.getBoundingClientRect().bottom > limit) {
          var name = p.getAttribute('data-slot') || p.getAttribute('data-part') || (p.tagName.toLowerCase() + (p.className ? '.' + String(p.className).split(' ')[0] : ''));
          if (cut.indexOf(name) < 0 && !(p.querySelector('[data-slot]') && !p.getAttribute('data-slot'))) cut.push(name);
        }
      }
    }
    out.push({id: box.getAttribute('data-id'), factor: sizes[best], over_mm: rest > TOL ? Math.round(rest * PX_MM * 10) / 10 : 0,
              wide_mm: Math.max(0, Math.round((frame.scrollWidth - frame.clientWidth - TOL) * PX_MM * 10) / 10), cut: cut});
  }
  var pre = document.createElement('pre');
  pre.id = 'cw-fit-%(nonce)s';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
 }
 if (document.fonts && document.fonts.ready) document.fonts.ready.then(run); else run();
})();
"""


@dataclass(frozen=True)
class Fitted:
    """What measuring found for one face: the factor its body text prints at (1: unshrunk), and,
    where even the minimum does not fit, how far it overflows and which parts are cut."""
    id: str
    factor: float
    over_mm: float
    wide_mm: float
    cut: tuple[str, ...]

    @property
    def fits(self) -> bool:
        return self.over_mm <= 0 and self.wide_mm <= 0


def factors(base_pt: float, min_pt: float) -> list[float]:
    """The factors tried, largest first: the type size, then quarter points down to ``min_pt``."""
    out, pt = [1.0], base_pt - STEP_PT
    while pt >= min_pt - 1e-9:
        out.append(round(pt / base_pt, 4))
        pt -= STEP_PT
    return out


def wrap(face: Markup, factor: float) -> Markup:
    """The face inside the wrapper that carries its factor (cards.css scales the body text by it)."""
    style = "" if factor >= 1 else f' style="--fit: {factor:g}"'
    return Markup(f'<div class="fit"{style}>') + face + Markup("</div>")


def measuring_page(items: list[tuple[str, Markup, list[float]]], css: str, slot_css: str, nonce: str) -> str:
    """A page holding every face to measure, with cardwright's script and a CSP that admits only it."""
    policy = (f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
              f"script-src 'nonce-{nonce}'")
    body = []
    for stem, face, sizes in items:
        body.append(f'<section class="measure" data-id="{html.escape(stem)}" data-sizes="{json.dumps(sizes)}">'
                    f'<div class="slot">{wrap(face, 1.0)}</div></section>')
    script = _SCRIPT % {"tol": TOLERANCE_PX, "nonce": nonce}
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
            f"<style>\n{css}\n.measure {{ position: relative; {slot_css} }}\n"
            ".measure .slot { position: absolute; left: 0; top: 0; }\n</style>\n</head>\n<body>\n"
            + "\n".join(body) + f"\n<script nonce=\"{nonce}\">{script}</script>\n</body>\n</html>\n")


class FitError(RuntimeError):
    pass


def measure(items: list[tuple[str, Markup, list[float]]], css: str, slot_css: str, browser: str,
            timeout: float = 180) -> dict[str, Fitted]:
    """Lay out ``items`` (stem, face, factors) in headless Chromium and read back the fit of each."""
    nonce = secrets.token_hex(16)
    with tempfile.TemporaryDirectory(prefix="cardwright-fit-") as tmp:
        page = Path(tmp) / "measure.html"
        page.write_text(measuring_page(items, css, slot_css, nonce), encoding="utf-8")
        profile = Path(tmp) / "profile"
        # the printer's confined browser (no network, its sandbox where it can have one); this page's
        # own policy lets cardwright's script run, by its nonce, and nothing else. Virtual time: the
        # DOM is dumped once the page has settled (fonts loaded, script run)
        cmd = [*browser_command(browser, profile), "--virtual-time-budget=20000", "--dump-dom",
               page.resolve().as_uri()]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise FitError(f"the browser could not measure the card faces: {exc}") from exc
    dom = proc.stdout.decode("utf-8", "replace")
    m = re.search(rf'<pre id="cw-fit-{nonce}">(.*?)</pre>', dom, re.S)
    if not m:
        tail = " / ".join(proc.stderr.decode("utf-8", "replace").strip().splitlines()[-3:])
        raise FitError(f"the browser did not measure the card faces (exit {proc.returncode}): {tail}")
    found = {}
    for r in json.loads(html.unescape(m.group(1))):
        found[r["id"]] = Fitted(r["id"], float(r["factor"]), float(r["over_mm"]), float(r["wide_mm"]),
                                tuple(r["cut"]))
    return found


def report(diags: Diagnostics, fitted: Fitted, where, card_id: str, card_name: str, kind: str, face: str | None,
           slot_names: dict[str, str], min_pt: float, strict: bool) -> None:
    """E801 for a face whose text does not fit at ``min_pt``: located at the first slot cut off."""
    cut_slots = [c for c in fitted.cut if c in slot_names]
    first = cut_slots[0] if cut_slots else None
    file, line, column, source, path = where(card_id, face, first)
    # the slots cut off; the parts after them (the footer) only when no slot is
    what = ", ".join(slot_names[c] for c in cut_slots) or ", ".join(_part_name(c) for c in fitted.cut) or "the text"
    side = f" ({face} side)" if face else ""
    bits = []
    if fitted.over_mm > 0:
        bits.append(f"overflows by {fitted.over_mm:g} mm")
    if fitted.wide_mm > 0:
        bits.append(f"is {fitted.wide_mm:g} mm too wide")
    message = f"text does not fit on the card{side}: {what} {' and '.join(bits)} even at {min_pt:g} pt"
    diags.error("E801", message, file=file, line=line, column=column, card=card_id, path=path,
                source_line=source, severity="error" if strict else "warning",
                hint=f"shorten it, or lower card_kinds.{kind}.min_font_size")


def _part_name(part: str) -> str:
    names = {"footer": "the footer", "blockquote.printed": "the printed quote", "header": "the name",
             "dl.stats": "the fields", "p.field-long": "a long field", "div.icons": "the icons"}
    return names.get(part, part)
