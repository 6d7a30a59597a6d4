"""Complot's stickers (C6) on Noah's sheets, and ``tags check --game complot``."""

import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.complot.cards import default_deck
from companion.complot.payload import TaggedDeck
from companion.tags.check import DeckCheck
from companion.tags.sheet import plan_sheet, render_sheet
from vision.decoders import make_decoder

COMPLOT = TaggedDeck(default_deck())


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_c6_the_93_complot_stickers_print_on_label_sheets_and_read_back_once_each(tmp_path):
    plan = plan_sheet("L7651")
    (tmp_path / "sheet.pdf").write_bytes(render_sheet(COMPLOT, plan))
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "sheet.pdf", "page"], cwd=tmp_path,
                   check=True)
    pages = sorted(tmp_path.glob("page-*"))
    assert len(pages) == 2  # 65 labels a page
    check, decoder = DeckCheck(COMPLOT), make_decoder("zxing")
    for page in pages:
        for detection in decoder.decode(np.asarray(Image.open(page).convert("L"))):
            check.saw(detection.text, page.name)
    report = check.report()
    assert report.ok and report.seen == 93, list(report.lines())


def test_c6_complot_labels_name_the_card_its_category_and_grade():
    assert COMPLOT.label_lines(COMPLOT.deck["etat-major:noe"]) == [
        "Noé", "État-Major", "Major Général", "etat-major:noe"]
    assert COMPLOT.label_lines(COMPLOT.deck["leonard:sally"]) == [
        "Sally", "Léonard", "leonard:sally"]


def test_tags_check_game_complot_reports_missing_doubled_and_noah_cards(tmp_path, capsys):
    code, out, _ = run(capsys, "tags", "print", "--game", "complot", "--only", "archange",
                       "--png", str(tmp_path / "stickers"))
    assert code == 0 and "Wrote 5 PNG stickers" in out and "--game complot" in out
    photos = tmp_path / "stickers"
    (photos / "archange-igor.png").unlink()
    shutil.copy(photos / "archange-noe.png", photos / "z-archange-noe-again.png")
    run(capsys, "tags", "print", "--only", "frog", "--png", str(tmp_path / "noah"))
    shutil.copy(tmp_path / "noah" / "frog-M-1.png", photos)
    code, out, _ = run(capsys, "tags", "check", "--game", "complot", "--only", "archange",
                       "--source", str(photos), "--quiet")
    assert code == 1
    assert "Seen 4 of the 5 cards of deck BOX1." in out
    assert "  Igor, Archange (archange:igor)" in out
    assert "  Noé, Archange (archange:noe): archange-noe.png, z-archange-noe-again.png" in out
    assert "Other QR codes, not Complot stickers, ignored (1):" in out
    assert "'NOAH1/BOX1/FRM1': frog-M-1.png" in out


@pytest.mark.parametrize(("argv", "words"), [
    (("--only", "lions"), "This deck has no category or card lions."),
    (("--deck-id", "BOX 1"), "cannot be a deck id"),
    (("--deck", "/no/such/deck.txt"), "deck"),
])
def test_tags_print_game_complot_refuses_what_it_cannot_print(tmp_path, capsys, argv, words):
    code, _, err = run(capsys, "tags", "print", "--game", "complot", "--out",
                         str(tmp_path / "x.pdf"), *argv)
    assert code == 2 and words in err and "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()
