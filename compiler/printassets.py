"""Files a game's printed matter takes from its own folder: card art and icon images.

Both are embedded as ``data:`` URIs (the sheets and the reference stay one self-contained file, and
the printing browser never reads the disk or the network), and both are read only from inside the
game's folder: a card cannot pull in /etc/passwd, a remote image or a file beside the data. A path
that breaks these rules, or names no file, is a located error at ``validate`` (E212): before this,
both ``validate`` and ``cards`` dropped it silently and the card printed without its picture.

Icons also get a check that they can be told apart on a printed card (E211, a warning): an icon
without an image prints as a badge with a letter, and two icons with the same letter and shape
(Pear and Plum, both "P") read alike in black and white.
"""
from __future__ import annotations

import base64
import mimetypes
import re
from pathlib import Path

IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml")
ICON_TYPES = ("image/png", "image/svg+xml")
_REMOTE = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, file:, data: … — anything with a scheme


def asset_problem(game_dir: Path, rel: str, types=IMAGE_TYPES, under: str | None = None) -> str | None:
    """Why ``rel`` cannot be embedded (a sentence for the designer), or None when it can."""
    if _REMOTE.match(rel) or rel.startswith("//"):
        return f"'{rel}' is not a file in the game folder (remote and absolute addresses are not fetched)"
    root = game_dir.resolve()
    base = (root / under).resolve() if under else root
    path = (root / rel).resolve()
    if base != path and base not in path.parents:
        where = f"the game's {under}/ folder" if under else "the game folder"
        return f"'{rel}' is outside {where}"
    if not path.is_file():
        return f"'{rel}' does not exist in {game_dir.name}/"
    mime = mimetypes.guess_type(path.name)[0] or ""
    if mime not in types:
        kinds = ", ".join(t.split("/")[1].replace("+xml", "") for t in types).upper()
        return f"'{rel}' is not an image cardwright embeds ({kinds})"
    return None


def data_uri(game_dir: Path | None, rel: str | None, types=IMAGE_TYPES, under: str | None = None) -> str | None:
    """The file as a data: URI, or None when ``asset_problem`` has a reason not to."""
    if not rel or game_dir is None or not isinstance(rel, str) or asset_problem(game_dir, rel, types, under):
        return None
    path = (game_dir.resolve() / rel).resolve()
    mime = mimetypes.guess_type(path.name)[0]
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


FONT_TYPES = {".ttf": "font/ttf", ".otf": "font/otf", ".woff": "font/woff", ".woff2": "font/woff2"}
FONT_ROLES = ("body", "names")  # game.yaml fonts: body text of the faces, and the card names and backs
_FAMILY = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ]{0,40}")


def font_files(game_dir: Path | None) -> dict[str, list[Path]]:
    """Family -> font files under the game's fonts/ folder. The family is the file name up to its first
    '-' ("Bitter-Bold.ttf" is Bitter), letters, digits and spaces only, so it is safe in CSS."""
    out: dict[str, list[Path]] = {}
    folder = game_dir / "fonts" if game_dir is not None else None
    if folder is None or not folder.is_dir():
        return out
    for path in sorted(folder.iterdir()):
        family = path.stem.split("-")[0].replace("_", " ")
        if path.is_file() and path.suffix.lower() in FONT_TYPES and _FAMILY.fullmatch(family):
            out.setdefault(family, []).append(path)
    return out


# where each role's family applies: on the card faces, and in the rules reference
CARD_SELECTORS = {"body": ".face", "names": ".face h2.name, .face .back-kind, .face .back-game"}
REFERENCE_SELECTORS = {"body": "body", "names": "h1, h2, h3, h4"}


def font_css(game_dir: Path | None, fonts: dict | None, selectors: dict = CARD_SELECTORS) -> str:
    """@font-face rules embedding the game's fonts (data: URIs: the printing browser reads no file)
    and the rules that use the families game.yaml's ``fonts`` names at ``selectors``; "" when it
    names none."""
    files = font_files(game_dir)
    chosen = {role: fam for role, fam in (fonts or {}).items() if role in FONT_ROLES and fam in files}
    if not chosen:
        return ""
    rules = []
    for family in sorted(set(chosen.values())):
        for path in files[family]:
            low = path.stem.lower()
            weight = 700 if "bold" in low else 400
            style = "italic" if "italic" in low or "oblique" in low else "normal"
            data = base64.b64encode(path.read_bytes()).decode("ascii")
            rules.append(f'@font-face {{ font-family: "{family}"; font-weight: {weight}; font-style: {style}; '
                         f'src: url(data:{FONT_TYPES[path.suffix.lower()]};base64,{data}); }}\n')
    fallback = '"DejaVu Sans", "Liberation Sans", Arial, Helvetica, sans-serif'
    for role in FONT_ROLES:
        if role in chosen:
            rules.append(f'{selectors[role]} {{ font-family: "{chosen[role]}", {fallback}; }}\n')
    return "".join(rules)


def check_fonts(gdoc, game_dir: Path, diags) -> None:
    """E212 for a family game.yaml's ``fonts`` names that no file under fonts/ provides."""
    fonts = gdoc.data.get("fonts") if isinstance(gdoc.data.get("fonts"), dict) else {}
    files = font_files(game_dir)
    for role, family in fonts.items():
        if isinstance(family, str) and family not in files:
            line, col, src = gdoc.where(("fonts", role))
            have = ", ".join(sorted(files)) or "none"
            diags.error("E212", f"font '{family}' is not under {game_dir.name}/fonts/ (families there: {have})",
                        file=gdoc.file, line=line, column=col, length=len(family), source_line=src,
                        path=f"fonts.{role}", hint="add FAMILY-Style.ttf (or .otf, .woff, .woff2) to fonts/")


def icon_letter(key: str, spec: dict) -> str:
    """The letter an icon's badge prints (as compiler.reference.icon_html draws it)."""
    name = spec.get("name") or key.replace("_", " ").title()
    return str(spec.get("letter") or name[:1].upper())


def check_icons(gdoc, game_dir: Path, diags) -> dict[str, str]:
    """E212 for an icon image that cannot be embedded; E211 (warning) for icons whose badges print the
    same letter in the same shape. Returns icon key -> data: URI of the images that can be."""
    icons = gdoc.data.get("icons") if isinstance(gdoc.data.get("icons"), dict) else {}
    images: dict[str, str] = {}
    seen: dict[tuple[str, str], str] = {}
    for key, spec in icons.items():
        spec = spec or {}
        image = spec.get("image")
        if isinstance(image, str):
            problem = asset_problem(game_dir, image, ICON_TYPES, under="icons")
            if problem:
                line, col, src = gdoc.where(("icons", key, "image"))
                diags.error("E212", f"icon image {problem}", file=gdoc.file, line=line, column=col,
                            length=len(image), source_line=src, path=f"icons.{key}.image",
                            hint="put an SVG or PNG under icons/ in the game folder")
            else:
                images[key] = data_uri(game_dir, image, ICON_TYPES, under="icons")
            continue  # an icon with an image is told apart by its picture, not its letter
        badge = (icon_letter(key, spec).upper(), str(spec.get("shape") or "circle"))
        if badge in seen:
            where = ("icons", key, "letter") if spec.get("letter") else ("icons", key)
            line, col, src = gdoc.where(where)
            diags.error("E211", f"icons '{seen[badge]}' and '{key}' both print the letter '{badge[0]}' in a "
                        f"{badge[1]}", file=gdoc.file, line=line, column=col, source_line=src,
                        path=f"icons.{key}", severity="warning",
                        hint="give one a `letter:`, a `shape:` or an `image:` under icons/")
        else:
            seen[badge] = key
    return images


def check_art(doc, i: int, card: dict, diags) -> None:
    """E212 for a card's ``art`` that cannot be embedded (missing, outside the game folder, remote)."""
    art = card.get("art")
    if not isinstance(art, str) or doc.path is None:
        return
    problem = asset_problem(doc.path.parent, art)
    if problem:
        line, col, src = doc.where(("cards", i, "art"))
        cid = card.get("id") if isinstance(card.get("id"), str) else None
        diags.error("E212", f"art {problem}", file=doc.file, line=line, column=col, length=len(art),
                    card=cid, source_line=src, path=f"cards[{i}].art")
