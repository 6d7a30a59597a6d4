"""Sticker sheets as a PDF to print at 100 %: a plain grid with cut lines, or label sheets.

Every page says the deck, the physical size of the codes and carries a 50 mm bar to check with a
ruler that the printer did not scale the page.

>>> from companion.tags.tagged_deck import load_tagged_deck
>>> plan = plan_sheet("grid", "A4")
>>> plan.per_page, plan.paper, plan.geometry.size_mm
(21, 'A4', 20.0)
>>> len(render_sheet(load_tagged_deck("default"), plan)) > 10_000  # the PDF's bytes
True
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import UserError
from companion.tags.sticker import (
    DEFAULT_SIZE_MM,
    MODULES,
    QUIET_ZONE,
    StickerGeometry,
    check_size,
    font_path,
    make_qr,
)

if TYPE_CHECKING:
    from fpdf import FPDF

    from companion.tags.tagged_deck import StickeredDeck

PAPERS = {"A4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Paper sizes in millimetres (width, height)."""
MARGIN_MM = 12.0
"""Page margin of the grid: most printers cannot print the outer 4-6 mm."""
HEADER_MM = 20.0
FOOTER_MM = 12.0
GAP_MM = 4.0
"""White gap between grid stickers: the cut line runs through its middle."""
EDGE_MM = 0.8
"""Least white kept around a code inside a label, for a printer's misalignment."""
PRINTER_EDGE_MM = 4.5
"""Most printers leave the outer 3-4 mm of a page blank."""
SCALE_BAR_MM = 50.0
SEAM_OVERLAP_MM = 0.02
CUT_GREY = 150


@dataclass(frozen=True)
class LabelSheet:
    """A self-adhesive label sheet sold pre-cut (positions in mm from the page's top left)."""

    title: str
    paper: str
    columns: int
    rows: int
    label_w: float
    label_h: float
    left: float
    top: float
    pitch_x: float
    pitch_y: float

    def max_size_mm(self) -> float:
        """The largest code (without quiet zone) that fits a label's height."""
        return float(
            math.floor((self.label_h - 2 * EDGE_MM) * MODULES / (MODULES + 2 * QUIET_ZONE))
        )


LABEL_SHEETS = {
    "L7160": LabelSheet("Avery L7160 (or compatible): 21 labels of 63.5 × 38.1 mm on A4",
                        "A4", 3, 7, 63.5, 38.1, 7.2, 15.15, 66.0, 38.1),
    "L7651": LabelSheet("Avery L7651 (or compatible): 65 labels of 38.1 × 21.2 mm on A4",
                        "A4", 5, 13, 38.1, 21.2, 4.7, 10.7, 40.6, 21.2),
    "5160": LabelSheet("Avery 5160/8160 (or compatible): 30 labels of 2⅝ × 1 in on letter",
                       "letter", 3, 10, 66.675, 25.4, 4.7625, 12.7, 69.85, 25.4),
}
LAYOUTS = ("grid", *LABEL_SHEETS)


@dataclass(frozen=True)
class Slot:
    """Where one sticker goes on a page: its rectangle and the code's position inside it."""

    x: float
    y: float
    w: float
    h: float
    code_x: float
    code_y: float


@dataclass(frozen=True)
class SheetPlan:
    """The page layout: paper, sticker geometry, the slots of one page, cut lines or not."""

    layout: str
    paper: str
    geometry: StickerGeometry
    slots: tuple[Slot, ...]
    cut_lines: bool
    title: str
    header_y: float
    """Top of the header text: inside the top margin, clear of what printers cannot print."""
    bar_y: float
    """Height of the 50 mm check bar, in the bottom margin."""

    @property
    def per_page(self) -> int:
        return len(self.slots)


def default_size_mm(layout: str) -> float:
    """The code size a layout gets when none is asked for: the default, or the most it holds.

    >>> default_size_mm("grid"), default_size_mm("L7651")
    (20.0, 14.0)
    """
    sheet = LABEL_SHEETS.get(layout)
    return DEFAULT_SIZE_MM if sheet is None else min(DEFAULT_SIZE_MM, sheet.max_size_mm())


def plan_sheet(layout: str, paper: str | None = None, size_mm: float | None = None) -> SheetPlan:
    """The layout of a sheet; a :class:`UserError` if the codes or the paper do not fit it.

    ``size_mm`` is the side of each code without its white border (default:
    :func:`default_size_mm`).
    """
    if layout not in LAYOUTS:
        raise UserError(
            f"There is no sheet layout '{layout}'.", f"Use one of: {', '.join(LAYOUTS)}."
        )
    size_mm = check_size(default_size_mm(layout) if size_mm is None else size_mm)
    if layout == "grid":
        return _plan_grid(paper or "A4", size_mm)
    return _plan_labels(layout, paper, size_mm)


def _plan_grid(paper: str, size_mm: float) -> SheetPlan:
    page_w, page_h = PAPERS[paper]
    geometry = StickerGeometry(size_mm)
    cell_w, cell_h = geometry.width_mm + GAP_MM, geometry.height_mm + GAP_MM
    columns = int((page_w - 2 * MARGIN_MM) // cell_w)
    rows = int((page_h - 2 * MARGIN_MM - HEADER_MM - FOOTER_MM) // cell_h)
    left = (page_w - columns * cell_w) / 2 + GAP_MM / 2
    top = MARGIN_MM + HEADER_MM + GAP_MM / 2
    slots = tuple(
        Slot(x, y, geometry.width_mm, geometry.height_mm, x, y)
        for row in range(rows)
        for column in range(columns)
        for x, y in [(left + column * cell_w, top + row * cell_h)]
    )
    title = f"plain grid on {paper} self-adhesive paper: cut along the dashed lines"
    bar_y = page_h - MARGIN_MM - FOOTER_MM / 2
    return SheetPlan("grid", paper, geometry, slots, True, title, MARGIN_MM, bar_y)


def _plan_labels(layout: str, paper: str | None, size_mm: float) -> SheetPlan:
    sheet = LABEL_SHEETS[layout]
    if paper not in (None, sheet.paper):
        raise UserError(
            f"{layout} label sheets are {sheet.paper} paper, not {paper}.",
            f"Leave out --paper, or choose the other layout ({', '.join(LAYOUTS)}).",
        )
    if size_mm > sheet.max_size_mm():
        raise UserError(
            f"QR codes of {size_mm:g} mm do not fit on {layout} labels "
            f"({sheet.label_w:g} × {sheet.label_h:g} mm).",
            f"Use --size-mm {sheet.max_size_mm():g} or less, or --layout grid.",
        )
    code_mm = StickerGeometry(size_mm).code_mm
    inset = (sheet.label_h - code_mm) / 2
    geometry = StickerGeometry(size_mm, label_mm=sheet.label_w - code_mm - 2 * inset)
    slots = tuple(
        Slot(x, y, sheet.label_w, sheet.label_h, x + inset, y + inset)
        for row in range(sheet.rows)
        for column in range(sheet.columns)
        for x, y in [(sheet.left + column * sheet.pitch_x, sheet.top + row * sheet.pitch_y)]
    )
    bar_y = PAPERS[sheet.paper][1] - PRINTER_EDGE_MM - 2
    return SheetPlan(layout, sheet.paper, geometry, slots, False, sheet.title, PRINTER_EDGE_MM,
                     bar_y)


def render_sheet(tagged: StickeredDeck, plan: SheetPlan, cards: Sequence[Any] | None = None
                 ) -> bytes:
    """The PDF of the stickers of ``cards`` (default: the whole deck), in deck order; the
    stickers of either game (Noah's :class:`TaggedDeck` or Complot's)."""
    cards = list(tagged.cards if cards is None else cards)
    pages = [cards[start : start + plan.per_page] for start in range(0, len(cards), plan.per_page)]
    pdf = _new_pdf(plan.paper)
    for number, page_cards in enumerate(pages, start=1):
        pdf.add_page()
        _draw_header(pdf, tagged, plan, f"page {number} of {len(pages)}")
        for card, slot in zip(page_cards, plan.slots, strict=False):
            _draw_sticker(pdf, plan.geometry, slot, tagged.sticker_text(card),
                          tagged.label_lines(card))
        if plan.cut_lines:
            _draw_cut_lines(pdf, plan.slots[: len(page_cards)])
    return bytes(pdf.output())


def _new_pdf(paper: str) -> FPDF:
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=PAPERS[paper])
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.add_font("DejaVu", "", str(font_path("regular")))
    pdf.add_font("DejaVu", "B", str(font_path("bold")))
    pdf.set_title("Noah Table Companion: QR stickers")
    pdf.set_creator("noah-companion tags print")
    return pdf


def _draw_header(pdf: FPDF, tagged: StickeredDeck, plan: SheetPlan, page: str) -> None:
    """Title and code size at the top of the page, the 50 mm check bar at the bottom."""
    geometry, top = plan.geometry, plan.header_y
    pdf.set_font("DejaVu", "B", 7.5)
    game = "" if tagged.game == "Noah" else f"{tagged.game} "
    pdf.text(MARGIN_MM, top + 2, f"Noah Table Companion: {game}stickers of deck "
             f"{tagged.deck_id} ({tagged.source}), {page}")
    pdf.set_font("DejaVu", "", 6.5)
    pdf.text(MARGIN_MM, top + 4.5, f"QR code {geometry.size_mm:g} mm wide without its white "
             f"border ({MODULES} × {MODULES} squares of {geometry.module_mm:.2f} mm); "
             f"{plan.title}.")
    _draw_scale_bar(pdf, MARGIN_MM, plan.bar_y)


def _draw_scale_bar(pdf: FPDF, x: float, y: float) -> None:
    """A bar with a tick every 10 mm, and what to check with it."""
    pdf.set_draw_color(0)
    pdf.set_line_width(0.3)
    pdf.line(x, y, x + SCALE_BAR_MM, y)
    for tick in range(0, int(SCALE_BAR_MM) + 1, 10):
        pdf.line(x + tick, y - (2.5 if tick in (0, SCALE_BAR_MM) else 1.5), x + tick, y)
    pdf.set_font("DejaVu", "", 6.5)
    pdf.text(x + SCALE_BAR_MM + 3, y, f"Print at 100 % (\"Actual size\", not \"Fit to page\"): "
             f"this bar must measure {SCALE_BAR_MM:g} mm.")


def _draw_sticker(pdf: FPDF, geometry: StickerGeometry, slot: Slot, text: str,
                  lines: list[str]) -> None:
    """The code of ``text`` and the label ``lines`` beside it."""
    _draw_code(pdf, text, slot.code_x, slot.code_y, geometry.module_mm)
    text_x = slot.code_x + geometry.code_mm
    max_width = geometry.label_width_mm - geometry.module_mm
    for index, (text, baseline) in enumerate(
        zip(lines, geometry.line_baselines_mm(len(lines)), strict=True)
    ):
        _fit_font(pdf, text, "B" if index == 0 else "", geometry.line_pitch_mm * 0.8, max_width)
        pdf.text(text_x, slot.code_y + baseline, text)


def _draw_code(pdf: FPDF, text: str, x: float, y: float, module_mm: float) -> None:
    """The code's dark modules, one filled rectangle per horizontal run (``x, y``: the corner of
    the quiet zone).

    Each rectangle reaches a hair into the next row so that screen renderers, which smooth every
    edge, leave no light seam between rows; the last row is not extended.
    """
    pdf.set_fill_color(0)
    matrix = make_qr(text).matrix
    for row, modules in enumerate(matrix):
        overlap = SEAM_OVERLAP_MM if row < len(matrix) - 1 else 0.0
        for column, length in _dark_runs(modules):
            pdf.rect(x + (column + QUIET_ZONE) * module_mm, y + (row + QUIET_ZONE) * module_mm,
                     length * module_mm, module_mm + overlap, style="F")


def _dark_runs(modules: Sequence[int]) -> Iterator[tuple[int, int]]:
    """``(start, length)`` of each run of dark modules in one row.

    >>> list(_dark_runs([1, 1, 0, 1, 0, 0, 1]))
    [(0, 2), (3, 1), (6, 1)]
    """
    for dark, group in itertools.groupby(enumerate(modules), key=lambda item: bool(item[1])):
        if dark:
            columns = [column for column, _ in group]
            yield columns[0], len(columns)


def _fit_font(pdf: FPDF, text: str, style: str, height_mm: float, max_width_mm: float) -> None:
    """Select DejaVu at ``height_mm`` (em size), smaller if ``text`` would be wider than allowed."""
    points = height_mm / 25.4 * 72
    pdf.set_font("DejaVu", style, points)
    width = pdf.get_string_width(text)
    if width > max_width_mm:
        pdf.set_font_size(points * max_width_mm / width)


def _draw_cut_lines(pdf: FPDF, slots: Sequence[Slot]) -> None:
    """Dashed lines through the middle of the gaps around every sticker, each drawn once."""
    pdf.set_draw_color(CUT_GREY)
    pdf.set_line_width(0.15)
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    corners = {(round(slot.x, 3), round(slot.y, 3)) for slot in slots}
    half = GAP_MM / 2
    for slot in slots:
        left, right = slot.x - half, slot.x + slot.w + half
        top, bottom = slot.y - half, slot.y + slot.h + half
        pdf.line(left, top, right, top)
        pdf.line(left, top, left, bottom)
        if (round(slot.x, 3), round(slot.y + slot.h + GAP_MM, 3)) not in corners:
            pdf.line(left, bottom, right, bottom)
        if (round(slot.x + slot.w + GAP_MM, 3), round(slot.y, 3)) not in corners:
            pdf.line(right, top, right, bottom)
    pdf.set_dash_pattern()
    pdf.set_draw_color(0)
