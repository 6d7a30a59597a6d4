"""The table kit as a PDF to print at 100 %: five ferry mats and the Noah marker (TABLE-KIT.md).

Each mat is 100 × 150 mm (portrait) with two ArUco markers (``DICT_4X4_50``) on its long axis:
ids 2k−2 near its top edge and 2k−1 near its bottom edge for ferry k, each 20 mm, centred
13.5 mm from its short edge, with white around it. Between them is the card zone (outlined),
the ferry's number and a simple drawing of a ferry. The Noah marker is id 10 on a 36 mm disc.
Two mats fit a page (A4 or Letter); the third page holds ferry 5 and the Noah disc. Every page
has a 50 mm bar to check that the printer did not scale it, and dashed cut lines.

>>> pdf = render_kit("A4")
>>> pdf[:5], len(pdf) > 5_000
(b'%PDF-', True)
>>> [[m.ferry for m in page] for page in kit_pages()]
[[1, 2], [3, 4], [5]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.errors import UserError
from companion.tags.sheet import CUT_GREY, PAPERS, _draw_scale_bar, _new_pdf
from vision.table_kit import (
    CARD_ZONE_MM,
    FERRIES,
    MARKER_MM,
    MAT_MM,
    NOAH_DISC_MM,
    NOAH_MARKER,
    marker_cells,
    marker_centre_mm,
    marker_ids,
)

if TYPE_CHECKING:
    from fpdf import FPDF

GAP_MM = 6.0
"""Between the two mats of a page: the cut lines run round each mat."""
TOP_MM = 22.0
"""The mats' top edge on the page: room for the title above."""
INK_GREY = 165
"""The number, the ferry and the card zone: grey, so that only the markers are black."""


@dataclass(frozen=True)
class PlacedMat:
    ferry: int
    x: float
    y: float


def kit_pages(paper: str = "A4") -> list[list[PlacedMat]]:
    """Where each mat goes: two per page, side by side and centred."""
    page_w = PAPERS[paper][0]
    width = MAT_MM[0]
    left = (page_w - 2 * width - GAP_MM) / 2
    pages: list[list[PlacedMat]] = []
    for index, ferry in enumerate(FERRIES):
        if index % 2 == 0:
            pages.append([])
        pages[-1].append(PlacedMat(ferry, left + (index % 2) * (width + GAP_MM), TOP_MM))
    return pages


def render_kit(paper: str = "A4") -> bytes:
    """The kit's PDF on ``paper`` (``A4`` or ``letter``)."""
    if paper not in PAPERS:
        raise UserError(f"There is no paper '{paper}'.", f"Use one of: {', '.join(PAPERS)}.")
    pdf = _new_pdf(paper)
    pdf.set_title("Noah Table Companion: table kit")
    pdf.set_creator("noah-companion kit print")
    pages = kit_pages(paper)
    for number, mats in enumerate(pages, start=1):
        pdf.add_page()
        _draw_title(pdf, f"page {number} of {len(pages)}")
        for mat in mats:
            _draw_mat(pdf, mat)
        if number == len(pages):
            second = kit_pages(paper)[0][1]
            _draw_noah(pdf, second.x + MAT_MM[0] / 2, TOP_MM + MAT_MM[1] / 2)
        _draw_scale_bar(pdf, 12.0, PAPERS[paper][1] - 14.0)
    return bytes(pdf.output())


def _draw_title(pdf: FPDF, page: str) -> None:
    pdf.set_font("DejaVu", "B", 9)
    pdf.text(12, 12, f"Noah Table Companion: table kit, {page}")
    pdf.set_font("DejaVu", "", 7)
    pdf.text(12, 16.5, "Cut along the dashed lines; keep the black squares clean and flat, with "
             "their white border. Matt paper or a matt laminate avoids glare (docs/table-view.md).")


def _draw_mat(pdf: FPDF, mat: PlacedMat) -> None:
    width, height = MAT_MM
    x, y = mat.x, mat.y
    pdf.set_draw_color(CUT_GREY)
    pdf.set_line_width(0.2)
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    pdf.rect(x, y, width, height)
    pdf.set_dash_pattern()
    left, top, right, bottom = CARD_ZONE_MM
    pdf.set_draw_color(INK_GREY)
    pdf.set_line_width(0.4)
    pdf.rect(x + left, y + top, right - left, bottom - top, round_corners=True, corner_radius=3)
    pdf.set_text_color(INK_GREY)
    pdf.set_font("DejaVu", "B", 60)
    label = str(mat.ferry)
    pdf.text(x + width / 2 - pdf.get_string_width(label) / 2, y + 66, label)
    pdf.set_font("DejaVu", "", 9)
    caption = f"ferry {mat.ferry}: cards here"
    pdf.text(x + width / 2 - pdf.get_string_width(caption) / 2, y + 112, caption)
    _draw_ferry(pdf, x + width / 2, y + 88)
    pdf.set_text_color(0)
    for marker_id in marker_ids(mat.ferry):
        cx, cy = marker_centre_mm(marker_id)
        draw_marker(pdf, marker_id, x + cx, y + cy)


def _draw_ferry(pdf: FPDF, cx: float, cy: float) -> None:
    """A simple ferry: a hull, a cabin, a funnel and a wave, in grey outline."""
    pdf.set_draw_color(INK_GREY)
    pdf.set_line_width(0.6)
    pdf.polygon([(cx - 24, cy), (cx + 24, cy), (cx + 17, cy + 9), (cx - 17, cy + 9)])
    pdf.rect(cx - 12, cy - 8, 20, 8)
    pdf.rect(cx + 2, cy - 14, 4, 6)
    wave = [(cx - 26 + step * 3, cy + 12 + (1.2 if step % 2 else 0)) for step in range(18)]
    pdf.polyline(wave)


def draw_marker(pdf: FPDF, marker_id: int, cx: float, cy: float) -> None:
    """An ArUco marker's 20 mm black square centred at (cx, cy), cell by cell (black runs)."""
    cells = marker_cells(marker_id)
    cell = MARKER_MM / cells.shape[0]
    left, top = cx - MARKER_MM / 2, cy - MARKER_MM / 2
    pdf.set_fill_color(0)
    for row in range(cells.shape[0]):
        column = 0
        while column < cells.shape[1]:
            if not cells[row, column]:
                column += 1
                continue
            start = column
            while column < cells.shape[1] and cells[row, column]:
                column += 1
            # a hair taller than a cell, so that renderers leave no light seam between rows
            pdf.rect(left + start * cell, top + row * cell, (column - start) * cell,
                     cell + (0.02 if row < cells.shape[0] - 1 else 0), style="F")


def _draw_noah(pdf: FPDF, cx: float, cy: float) -> None:
    """The Noah marker: id 10 on a 36 mm disc, its cut line round it."""
    radius = NOAH_DISC_MM / 2
    pdf.set_draw_color(CUT_GREY)
    pdf.set_line_width(0.2)
    pdf.set_dash_pattern(dash=1.5, gap=1.5)
    pdf.circle(cx, cy, radius)
    pdf.set_dash_pattern()
    draw_marker(pdf, NOAH_MARKER, cx, cy)
    pdf.set_font("DejaVu", "B", 9)
    text = "Noah: stick on the figure's base, or set beside it"
    pdf.text(cx - pdf.get_string_width(text) / 2, cy + radius + 6, text)
    pdf.set_font("DejaVu", "", 7)
    text = "Put Noah just in front of or behind his ferry's mat."
    pdf.text(cx - pdf.get_string_width(text) / 2, cy + radius + 10, text)
