"""Sticker sheets, round trip: render the PDF, rasterise it as a printer would (pdftoppm, 300 dpi),
decode every sticker with the product's decoders and find every card exactly once."""

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.errors import UserError
from companion.tags.check import DeckCheck
from companion.tags.sheet import LABEL_SHEETS, PAPERS, plan_sheet, render_sheet
from companion.tags.sticker import DEFAULT_SIZE_MM, render_sticker
from companion.tags.tagged_deck import load_tagged_deck
from vision.decoders import make_decoder

DPI = 300
TAGGED = load_tagged_deck("default", "BOX1")

pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="needs pdftoppm (Debian: poppler-utils, ./run.sh setup)")


def rasterise(pdf: bytes, folder) -> list[np.ndarray]:
    """Every page as an 8-bit grey image, as a 300 dpi printer would see it."""
    (folder / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "sheet.pdf", "page"],  # PGM files
                   cwd=folder, check=True)
    return [np.asarray(Image.open(path).convert("L")) for path in sorted(folder.glob("page-*"))]


@functools.cache
def whole_deck_pages(layout: str, paper: str | None, size_mm: float) -> tuple:
    """The plan and the rasterised pages of the whole default deck (shared by the tests)."""
    plan = plan_sheet(layout, paper, size_mm)
    folder = Path(tempfile.mkdtemp(prefix="tags-sheet-"))
    try:
        return plan, rasterise(render_sheet(TAGGED, plan), folder)
    finally:
        shutil.rmtree(folder)


def stickers(page: np.ndarray, plan, count: int) -> list[np.ndarray]:
    """The stickers of one page, each cut out along its slot (as the owner cuts the sheet)."""
    px = DPI / 25.4
    crops = []
    for slot in plan.slots[:count]:
        left, top = round((slot.x - 1) * px), round((slot.y - 1) * px)
        right, bottom = round((slot.x + slot.w + 1) * px), round((slot.y + slot.h + 1) * px)
        crops.append(page[top:bottom, left:right])
    return crops


def check_round_trip(layout, paper, size_mm, decoders) -> None:
    plan, pages = whole_deck_pages(layout, paper, size_mm)
    assert len(pages) == -(-len(TAGGED.deck) // plan.per_page)
    width, height = (round(side / 25.4 * DPI) for side in PAPERS[plan.paper])
    assert all(abs(page.shape[1] - width) <= 1 and abs(page.shape[0] - height) <= 1
               for page in pages)
    remaining = len(TAGGED.deck)
    for name in decoders:
        decoder, check = make_decoder(name), DeckCheck(TAGGED)
        for number, page in enumerate(pages, start=1):
            on_page = min(plan.per_page, remaining - (number - 1) * plan.per_page)
            for index, sticker in enumerate(stickers(page, plan, on_page)):
                for detection in decoder.decode(sticker):
                    check.saw(detection.text, f"page {number} sticker {index + 1}")
        report = check.report()
        assert report.ok, (name, list(report.lines()))
        assert report.seen == len(TAGGED.deck) and not report.foreign


def test_default_sheet_decodes_completely_with_both_decoders():
    check_round_trip("grid", "A4", None, ("zxing", "zbar"))


@pytest.mark.parametrize("decoder", ["zxing", "zbar"])
def test_default_sheet_decodes_completely_as_whole_pages(decoder):
    """A whole page in one picture (as ``tags check`` reads a photo of the sheet)."""
    _, pages = whole_deck_pages("grid", "A4", None)
    reader = make_decoder(decoder)
    texts = sorted(d.text for page in pages for d in reader.decode(page))
    assert texts == sorted(TAGGED.encode(card.id) for card in TAGGED.deck)


def test_small_stickers_on_letter_paper_decode_completely_with_both_decoders():
    check_round_trip("grid", "letter", 9, ("zxing", "zbar"))


@pytest.mark.parametrize("layout", LABEL_SHEETS)
def test_label_sheets_decode_completely(layout):
    check_round_trip(layout, None, None, ("zxing",))


def test_zxing_reads_a_whole_page_of_small_codes_at_once():
    """zbar does not: it finds 1 of the 52 codes of 14 mm on one A4 page at 300 dpi."""
    _, (page,) = whole_deck_pages("L7651", None, None)
    texts = sorted(d.text for d in make_decoder("zxing").decode(page))
    assert texts == sorted(TAGGED.encode(card.id) for card in TAGGED.deck)


def test_the_printed_code_has_the_size_the_sheet_states(tmp_path):
    plan = plan_sheet("grid", "A4", 20)
    first = stickers(rasterise(render_sheet(TAGGED, plan, TAGGED.deck[:1]), tmp_path)[0],
                     plan, 1)[0]
    dark_columns = np.flatnonzero((first < 128).any(axis=0))
    code_px = dark_columns[dark_columns < first.shape[1] / 2]  # the code, not the label
    assert abs((code_px[-1] - code_px[0] + 1) / DPI * 25.4 - 20) < 0.2


def test_only_some_cards_makes_a_shorter_sheet(tmp_path):
    frogs = [card for card in TAGGED.deck if card.species == "frog"]
    pages = rasterise(render_sheet(TAGGED, plan_sheet("grid", "A4", 14), frogs), tmp_path)
    texts = sorted(d.text for page in pages for d in make_decoder("zxing").decode(page))
    assert texts == ["NOAH1/BOX1/FRF1", "NOAH1/BOX1/FRF2", "NOAH1/BOX1/FRM1"]


@pytest.mark.parametrize(
    ("layout", "paper", "size", "words"),
    [
        ("L7651", None, 16, "do not fit on L7651 labels"),
        ("L7651", "letter", 14, "L7651 label sheets are A4 paper"),
        ("5160", None, 20, "Use --size-mm 17 or less"),
        ("L7160", None, 27, "Use --size-mm 26 or less"),
        ("grid", "A4", 5, "cannot be used"),
        ("grid", "A4", 60, "from 8 to 40 mm"),
        ("avery", None, 14, "There is no sheet layout 'avery'"),
    ],
)
def test_impossible_sheets_are_refused_with_what_to_do(layout, paper, size, words):
    with pytest.raises(UserError, match=words):
        plan_sheet(layout, paper, size)


@pytest.mark.parametrize("decoder", ["zxing", "zbar"])
def test_a_rendered_sticker_image_decodes_and_has_its_label(decoder):
    card = TAGGED.deck["snail#4"]
    image = render_sticker(card, "BOX1", size_mm=DEFAULT_SIZE_MM, dpi=200)
    assert image.width == 2 * image.height
    grey = np.asarray(image.convert("L"))
    assert [d.text for d in make_decoder(decoder).decode(grey)] == ["NOAH1/BOX1/SNH4"]
    label = grey[:, image.height:]
    assert (label < 128).sum() > 0.03 * label.size  # the label half carries text
