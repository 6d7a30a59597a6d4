"""The font each language is drawn with, found on this machine at run time.

Every label uses one Kivy font name, :data:`companion.ui.theme.FONT`; :func:`use_font_for`
points it at the files that can draw the language: DejaVu Sans (Latin, ♂/♀, « ») for English and
French, Noto Sans CJK TC (Debian's ``fonts-noto-cjk``) for Chinese. Debian ships Noto CJK as a
collection (``.ttc``, one face per region) and Kivy's SDL2 text provider always opens a
collection's first face, the Japanese one, whose glyph shapes differ from Traditional Chinese; so
the TC face is copied once out of the collection into the user's cache with fontTools.

When a language's font is missing, :func:`use_font_for` says so in one sentence (what to install)
and the caller shows English instead: never boxes in place of characters.

>>> font_files("en").regular.name
'DejaVuSans.ttf'
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import UserError

if TYPE_CHECKING:
    from companion.i18n import Catalog

FALLBACK = "en"

#: The Debian package and fontconfig family of each language's font (English is the default).
PACKAGES = {"latin": "fonts-dejavu-core", "zh": "fonts-noto-cjk"}
FAMILIES = {"latin": "DejaVu Sans", "zh": "Noto Sans CJK TC"}
#: Where Debian puts them, for a machine without fontconfig's ``fc-match``.
KNOWN_PATHS = {
    ("latin", "Regular"): (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), 0),
    ("latin", "Bold"): (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"), 0),
    ("zh", "Regular"): (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), 3),
    ("zh", "Bold"): (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), 3),
}


@dataclass(frozen=True)
class FontFiles:
    """The regular and bold files of a language's font (single-face files Kivy can open)."""

    regular: Path
    bold: Path


def script_of(language: str) -> str:
    """The font family key of a language: ``zh`` has its own, the others write in Latin."""
    return "zh" if language.startswith("zh") else "latin"


def locate(script: str, style: str = "Regular") -> tuple[Path, int] | None:
    """The file and face index of a script's font in one style, or None when not installed.

    fontconfig knows where fonts are; ``fc-match`` answers with a fallback family when the
    asked one is missing, so its family is checked.
    """
    family = FAMILIES[script]
    if shutil.which("fc-match"):
        try:
            found = subprocess.run(
                ["fc-match", "-f", "%{file}|%{index}|%{family}", f"{family}:style={style}"],
                capture_output=True, text=True, timeout=10, check=True).stdout
            file, face, families = found.split("|", 2)
            if family in families.split(",") and Path(file).is_file():
                return Path(file), int(face or 0)
        except (OSError, subprocess.SubprocessError, ValueError):
            pass
    path, index = KNOWN_PATHS[(script, style)]
    return (path, index) if path.is_file() else None


def single_face(path: Path, index: int, cache_dir: Path) -> Path:
    """A file Kivy can open: ``path`` itself, or face ``index`` of a collection copied once.

    The copy gets the line height of DejaVu Sans (1.164 em): Noto CJK's own (1.448 em) would
    make every Chinese label a quarter taller than the English one its box was made for. The
    ideographs (0.88 em above the baseline, 0.12 below) keep all their ink.
    """
    if path.suffix.lower() != ".ttc":
        return path
    target = cache_dir / f"{path.stem}-{index}-{LINE_VERSION}.otf"
    if not target.is_file() or target.stat().st_mtime < path.stat().st_mtime:
        from fontTools.ttLib import TTCollection

        cache_dir.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".partial")
        face = TTCollection(str(path), lazy=True).fonts[index]
        # Only the line metrics change: recomputing every glyph's bounds (fontTools' default
        # on save) costs over half a minute for the CJK font's 65,000 glyphs, on a Pi far more.
        face.recalcBBoxes = False
        _latin_line_height(face)
        face.save(str(partial))
        partial.replace(target)  # a half-written copy is never used
    return target


#: Changes when the copy's metrics change, so an older copy is not reused.
LINE_VERSION = "line1164"
ASCENT, DESCENT = 0.950, 0.214  # em: DejaVu Sans's 1.164 em line, split as CJK ink needs


def _latin_line_height(face: Any) -> None:
    units = face["head"].unitsPerEm
    ascent, descent = round(ASCENT * units), round(DESCENT * units)
    face["hhea"].ascent, face["hhea"].descent, face["hhea"].lineGap = ascent, -descent, 0
    face["OS/2"].usWinAscent, face["OS/2"].usWinDescent = ascent, descent


def cache_dir() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("noah-companion")) / "fonts"


@cache
def font_files(language: str) -> FontFiles:
    """The font files for ``language``; :class:`UserError` naming the package when missing."""
    script = script_of(language)
    faces = {}
    for style in ("Regular", "Bold"):
        found = locate(script, style)
        if found is None and style == "Bold":
            found = locate(script, "Regular")  # a missing bold draws regular, not boxes
        if found is None:
            package = PACKAGES[script]
            raise UserError(
                f"The {FAMILIES[script]} font is not installed, so this language cannot be "
                "shown; English is shown instead.",
                f"Install it (sudo apt-get install --no-install-recommends {package}), or run "
                "./run.sh setup, then restart.", key="error.font_missing",
                family=FAMILIES[script], package=package)
        faces[style] = single_face(*found, cache_dir())
    return FontFiles(faces["Regular"], faces["Bold"])


def use_font_for(language: str, name: str) -> str:
    """Point the Kivy font ``name`` at the font of ``language``; the language that can be shown.

    Labels re-resolve their font name when they redraw (Kivy's ``LabelBase.refresh``), so a
    language switch changes the font of every label whose words change. When the language's
    font is missing the Latin font is registered and :class:`UserError` raised: the caller shows
    its sentence and English.
    """
    from kivy.core.text import LabelBase

    try:
        files = font_files(language)
    except UserError:
        files = font_files("en")
        LabelBase.register(name, str(files.regular), fn_bold=str(files.bold))
        raise
    LabelBase.register(name, str(files.regular), fn_bold=str(files.bold))
    return language


def catalog_for(language: str, name: str) -> tuple[Catalog, str]:
    """The catalog to show for ``language`` with Kivy's font ``name`` set to draw it (and
    labels breaking Chinese lines as Chinese is broken, :mod:`companion.ui.linebreak`), and ""
    or the sentence saying why English is shown instead (its font is not installed)."""
    from companion.i18n import Catalog
    from companion.ui import linebreak

    linebreak.install()

    try:
        use_font_for(language, name)
    except UserError as missing:
        english = Catalog(FALLBACK)
        return english, english.error(missing)
    return Catalog(language), ""


#: Keys whose words are in another language than their catalog's: a language's own name
#: (``settings.language.zh`` is 中文 in every catalog), drawn with that language's font.
NAME_KEYS = {"settings.language.en": "en", "settings.language.fr": "fr",
             "settings.language.zh": "zh"}


def language_font(language: str, name: str) -> str:
    """A Kivy font name that draws ``language`` (to write its name on a screen in another
    language, e.g. 中文 on the English home screen): ``name-<script>``, or ``name`` when the
    language's font is missing (its name then shows in the table's font)."""
    from kivy.core.text import LabelBase

    own = f"{name}-{script_of(language)}"
    try:
        files = font_files(language)
    except UserError:
        return name
    LabelBase.register(own, str(files.regular), fn_bold=str(files.bold))
    return own
