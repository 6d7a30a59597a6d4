"""One sticker: the QR code with its quiet zone and, beside it, the card's label.

The geometry and the label text are shared by the PDF sheet (:mod:`companion.tags.sheet`) and the
raster image made here by :func:`render_sticker` (``tags print --png``, the simulator's virtual
cards, the synthetic camera source).

>>> from companion.game.deck import default_deck
>>> card = default_deck()["cat:F#3"]
>>> label_lines(card)
['Cat ♀', 'weight 2', 'tears 1', '4+ players', 'cat:F#3']
>>> image = render_sticker(card, "BOX1", size_mm=14, dpi=300)
>>> image.size, image.mode
((464, 232), 'RGB')
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from companion.errors import UserError
from companion.tags.payload import GENDER_SIGNS, encode

if TYPE_CHECKING:
    import segno
    from PIL import Image, ImageDraw, ImageFont

    from companion.game.deck import Card

QR_VERSION, QR_ERROR = 1, "q"
MODULES = 21
"""Modules across a version 1 QR code."""
QUIET_ZONE = 4
"""Light modules around the code, as the QR standard asks."""
DEFAULT_SIZE_MM = 20.0
"""Side of the printed code without its quiet zone (modules of 0.95 mm): a camera 40 cm above the
table at 1280 px across sees 2.3 px per module, enough for zxing-cpp (PLATFORM-NOTES)."""
MIN_SIZE_MM, MAX_SIZE_MM = 8.0, 40.0
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian, Raspberry Pi OS: fonts-dejavu-core
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
)
FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
LINE_PITCH = 0.17
"""Label line spacing as a fraction of the sticker's height: five lines fill 85 % of it."""


@dataclass(frozen=True)
class StickerGeometry:
    """Where things go on a sticker, in millimetres.

    >>> g = StickerGeometry(14)
    >>> round(g.module_mm, 3), round(g.code_mm, 2), round(g.width_mm, 2)
    (0.667, 19.33, 38.67)
    """

    size_mm: float = DEFAULT_SIZE_MM
    label_mm: float | None = None
    """Width of the label beside the code; by default as wide as the code with its quiet zone."""

    @property
    def module_mm(self) -> float:
        return self.size_mm / MODULES

    @property
    def code_mm(self) -> float:
        """Side of the code with its quiet zone: the square that must stay white around it."""
        return self.module_mm * (MODULES + 2 * QUIET_ZONE)

    @property
    def label_width_mm(self) -> float:
        return self.code_mm if self.label_mm is None else self.label_mm

    @property
    def width_mm(self) -> float:
        return self.code_mm + self.label_width_mm

    @property
    def height_mm(self) -> float:
        return self.code_mm

    @property
    def line_pitch_mm(self) -> float:
        return self.code_mm * LINE_PITCH

    def line_baselines_mm(self, count: int) -> list[float]:
        """Baselines of ``count`` label lines, from the sticker's top, centred vertically."""
        top = (self.height_mm - count * self.line_pitch_mm) / 2
        return [top + (index + 0.8) * self.line_pitch_mm for index in range(count)]


def check_size(size_mm: float) -> float:
    """The code size if a printer and a camera can both cope with it, else a :class:`UserError`."""
    if not MIN_SIZE_MM <= size_mm <= MAX_SIZE_MM:
        raise UserError(
            f"A QR code of {size_mm:g} mm cannot be used.",
            f"Choose a size from {MIN_SIZE_MM:g} to {MAX_SIZE_MM:g} mm with --size-mm "
            f"({DEFAULT_SIZE_MM:g} reads best).",
        )
    return size_mm


def make_qr(text: str) -> segno.QRCode:
    """The QR code of a sticker text: always version 1, level Q or better, never Micro QR.

    >>> qr = make_qr("NOAH1/BOX1/CAF2")
    >>> qr.designator, qr.mode, qr.is_micro
    ('1-Q', 'alphanumeric', False)
    """
    import segno

    return segno.make_qr(text, error=QR_ERROR, version=QR_VERSION, boost_error=True)


def label_lines(card: Card) -> list[str]:
    """What the label says: species and gender sign, weight, tears, mark, the copy's id."""
    mark = "promo" if card.promo else f"{card.mark} players" if card.mark else ""
    return [
        f"{card.species.capitalize()} {GENDER_SIGNS[card.gender]}",
        f"weight {card.weight}",
        f"tears {card.tears}",
        mark,
        card.id,
    ]


def font_path(style: str = "regular") -> Path:
    """The DejaVu Sans file of that style (``regular`` or ``bold``): it has the ♂ and ♀ signs."""
    name = FONT_FILES[style]
    for folder in FONT_DIRS:
        if (folder / name).is_file():
            return folder / name
    raise UserError(
        f"The font {name} (DejaVu Sans) is missing; the labels need it for the signs ♂ and ♀.",
        "Install it with 'sudo apt-get install fonts-dejavu-core' (./run.sh setup does it).",
    )


@cache
def _pil_font(style: str, size_px: int) -> ImageFont.FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(style)), size_px)


def render_sticker(
    card: Card,
    deck_id: str,
    *,
    size_mm: float = DEFAULT_SIZE_MM,
    dpi: int = 300,
    label: bool = True,
    text: str | None = None,
    lines: list[str] | None = None,
) -> Image.Image:
    """The sticker of one card as an RGB image at ``dpi`` (white background, black code).

    Modules are a whole number of pixels (so every module is sharp), which makes the code up to
    half a pixel per module away from ``size_mm``. ``label=False`` gives the code and its quiet
    zone only. ``text`` and ``lines`` give another game's sticker text and label (default:
    the Noah card's).
    """
    from PIL import Image, ImageDraw

    module_px = max(1, round(size_mm / MODULES / 25.4 * dpi))
    png = io.BytesIO()
    qr = make_qr(encode(deck_id, card) if text is None else text)
    qr.save(png, kind="png", scale=module_px, border=QUIET_ZONE)
    code = Image.open(png).convert("RGB")
    side_px = code.height
    geometry = StickerGeometry(module_px * MODULES * 25.4 / dpi)
    image = Image.new("RGB", (side_px * 2 if label else side_px, side_px), "white")
    image.paste(code)
    if label:
        _draw_label(ImageDraw.Draw(image), label_lines(card) if lines is None else lines,
                    geometry, side_px, side_px / geometry.code_mm)
    return image


def _draw_label(
    draw: ImageDraw.ImageDraw,
    lines: list[str],
    geometry: StickerGeometry,
    left_px: int,
    px_per_mm: float,
) -> None:
    """The label lines, left-aligned at ``left_px``, each shrunk if it would be too wide."""
    max_width_px = (geometry.label_width_mm - geometry.module_mm) * px_per_mm
    for index, (text, baseline_mm) in enumerate(
        zip(lines, geometry.line_baselines_mm(len(lines)), strict=True)
    ):
        font = _fitting_pil_font(text, "bold" if index == 0 else "regular",
                                 geometry.line_pitch_mm * 0.8 * px_per_mm, max_width_px)
        draw.text((left_px, baseline_mm * px_per_mm), text, fill="black", font=font, anchor="ls")


def _fitting_pil_font(
    text: str, style: str, size_px: float, max_width_px: float
) -> ImageFont.FreeTypeFont:
    font = _pil_font(style, max(1, round(size_px)))
    width = font.getlength(text)
    if width > max_width_px:
        font = _pil_font(style, max(1, int(size_px * max_width_px / width)))
    return font
