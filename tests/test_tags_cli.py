"""``noah-companion tags print|check``: sheets, sticker images, and checking a stickered deck from
a folder of photos (cards never seen, stickers seen twice, foreign codes)."""

import numpy as np
import pytest
import segno
from PIL import Image

from companion.cli import main
from companion.tags.sticker import render_sticker
from companion.tags.tagged_deck import load_tagged_deck
from vision.decoders import make_decoder

TAGGED = load_tagged_deck("default", "BOX1")


@pytest.fixture(autouse=True)
def config_file(tmp_path, monkeypatch):
    """Every test reads its own config file (empty unless the test writes it)."""
    path = tmp_path / "companion.ini"
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(path))
    return path


def run(capsys, *argv):
    status = main(["tags", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def photo(path, stickers, per_row=4):
    """A photo of some stickers on a white table, ``stickers`` being PIL images."""
    width = max(image.width for image in stickers)
    height = max(image.height for image in stickers)
    rows = -(-len(stickers) // per_row)
    canvas = Image.new("RGB", (per_row * (width + 40) + 40, rows * (height + 40) + 40), "white")
    for index, sticker in enumerate(stickers):
        row, column = divmod(index, per_row)
        canvas.paste(sticker, (40 + column * (width + 40), 40 + row * (height + 40)))
    canvas.save(path)


def sticker(card_id, deck_id="BOX1"):
    return render_sticker(TAGGED.deck[card_id], deck_id, size_mm=12, dpi=150)


def foreign_code(text):
    """Someone else's QR code (a cereal box), 3 pixels per module like the stickers."""
    modules = np.array(segno.make_qr(text).matrix, np.uint8)
    pixels = np.kron(np.pad(255 - 255 * modules, 4, constant_values=255), np.ones((3, 3)))
    return Image.fromarray(pixels.astype(np.uint8)).convert("RGB")


def test_print_writes_the_pdf_and_says_what_to_do_next(tmp_path, capsys):
    status, out, _ = run(capsys, "print", "--out", str(tmp_path / "tags.pdf"))
    assert status == 0
    assert (tmp_path / "tags.pdf").read_bytes().startswith(b"%PDF")
    assert "52 stickers of deck BOX1 on 3 A4 pages, grid layout, QR codes 20 mm wide" in out
    assert "100 %" in out and "tags check" in out
    assert "Note:" not in out  # the config's deck id is the one printed


def test_print_png_writes_one_decodable_image_per_sticker(tmp_path, capsys):
    status, out, _ = run(capsys, "print", "--png", str(tmp_path / "png"), "--only", "lion")
    assert status == 0 and "Wrote 4 PNG stickers" in out
    files = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert files == ["lion-F-1.png", "lion-F-2.png", "lion-M-1.png", "lion-M-2.png"]
    image = np.asarray(Image.open(tmp_path / "png" / "lion-F-2.png").convert("L"))
    assert [d.text for d in make_decoder("zbar").decode(image)] == ["NOAH1/BOX1/LIF2"]


def test_print_uses_the_deck_and_deck_id_of_the_config(tmp_path, config_file, capsys):
    deck_file = tmp_path / "box.csv"
    deck_file.write_text("species,gender,weight,tears,mark,promo\nbear,M,7,0,,no\n",
                         encoding="utf-8")
    config_file.write_text(f"[game]\ndeck = {deck_file}\ndeck_id = zoo7\n", encoding="utf-8")
    status, out, _ = run(capsys, "print", "--png", str(tmp_path / "png"))
    assert status == 0 and "Wrote 1 PNG stickers" in out
    image = np.asarray(Image.open(tmp_path / "png" / "bear-M-1.png").convert("L"))
    assert [d.text for d in make_decoder("zxing").decode(image)] == ["NOAH1/ZOO7/BEM1"]


def test_print_with_another_deck_id_reminds_to_set_it_in_the_config(tmp_path, capsys):
    status, out, _ = run(capsys, "print", "--out", str(tmp_path / "t.pdf"), "--deck-id", "ZOO7",
                         "--only", "bear")
    assert status == 0
    assert "stickers of deck ZOO7" in out
    assert "the referee expects deck id BOX1" in out and "deck_id = ZOO7" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ((), "Nothing to write. Give --out tags.pdf"),
        (("--out", "t.pdf", "--only", "dragon"), "has no dragon. Name species among: bear"),
        (("--out", "t.pdf", "--layout", "L7651", "--size-mm", "16"), "Use --size-mm 14 or less"),
        (("--out", "t.pdf", "--layout", "L7651", "--paper", "letter"), "are A4 paper"),
        (("--out", "t.pdf", "--size-mm", "4"), "from 8 to 40 mm"),
        (("--out", "t.pdf", "--deck-id", "BOX-1"), "four letters or digits"),
        (("--out", "t.pdf", "--deck", "nope.csv"), "There is no deck file nope.csv"),
        (("--out", "no/such/dir/t.pdf", "--only", "bear"), "Cannot write no/such/dir/t.pdf"),
    ],
)
def test_print_refuses_bad_requests_in_plain_words(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, "print", *argv)
    assert status == 2
    assert words in err and "Traceback" not in err


def test_check_of_photos_lists_missing_doubled_foreign_and_other_deck(tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    lions = ["lion:M#1", "lion:F#1", "lion:F#2"]
    photo(photos / "1.png", [sticker(card_id) for card_id in lions])
    photo(photos / "2.jpg", [sticker("lion:F#2"), foreign_code("https://example.com"),
                             sticker("lion:M#2", "ZOO7")])
    status, out, _ = run(capsys, "check", "--source", str(photos), "--only", "lion")
    assert status == 1
    assert "Checking 4 cards of deck BOX1" in out
    assert "Lion ♂, weight 5 (lion:M#1)  1/4" in out
    assert "Lion ♀, weight 5 (lion:F#2) AGAIN (also seen: 1.png)" in out
    assert "Not a Noah sticker: 'https://example.com' (ignored)." in out
    assert "belongs to deck ZOO7, not to this deck (BOX1)" in out
    report = out.split("\n\n", 1)[1]
    assert report.startswith("Seen 3 of the 4 cards of deck BOX1.")
    assert "Never seen (1)" in report and "  Lion ♂, weight 5 (lion:M#2)" in report
    assert "Seen more than once (1)" in report and "(lion:F#2): 1.png, 2.jpg" in report
    assert "Other QR codes, not Noah stickers, ignored (1)" in report
    assert "Unusable Noah stickers (1)" in report


@pytest.mark.parametrize("decoder", ["zxing", "zbar"])
def test_check_of_a_complete_deck_says_it_is_ready(decoder, tmp_path, capsys):
    photos = tmp_path / "photos"
    photos.mkdir()
    frogs = [card.id for card in TAGGED.deck if card.species in ("frog", "crocodile")]
    photo(photos / "a.png", [sticker(card_id) for card_id in frogs[:3]])
    photo(photos / "b.png", [sticker(card_id) for card_id in frogs[3:]])
    status, out, _ = run(capsys, "check", "--source", str(photos), "--decoder", decoder,
                         "--only", "frog", "crocodile")
    assert status == 0
    assert "Seen 5 of the 5 cards of deck BOX1." in out
    assert "Every card was seen exactly once: this deck is ready to play." in out


def test_check_of_a_folder_without_photos_says_what_to_do(tmp_path, capsys):
    status, _, err = run(capsys, "check", "--source", str(tmp_path))
    assert status == 2
    assert "holds no photos" in err and "Put the photos of your cards there" in err


def test_check_of_a_source_that_does_not_exist_says_what_to_give(tmp_path, capsys):
    status, _, err = run(capsys, "check", "--source", str(tmp_path / "fotos"))
    assert status == 2
    assert "There is no folder or video file" in err and "'camera'" in err


def test_check_of_a_superscript_source_is_no_camera_number(capsys):
    # "²".isdigit() is True: it used to be taken for a camera number.
    status, _, err = run(capsys, "check", "--source", "²")
    assert status == 2
    assert "There is no folder or video file '²'" in err


def video(path, shows, fps=25, show_frames=8, gap_frames=10):
    """A video of stickers shown one at a time (``shows``: PIL images), with empty table between."""
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (640, 360))
    table = np.full((360, 640, 3), 255, np.uint8)
    for image in shows:
        frame = table.copy()
        pixels = np.asarray(image)[:, :, ::-1]  # RGB to OpenCV's BGR
        frame[60 : 60 + pixels.shape[0], 60 : 60 + pixels.shape[1]] = pixels
        for _ in range(show_frames):
            writer.write(frame)
        for _ in range(gap_frames):
            writer.write(table)
    writer.release()


def big_sticker(card_id):
    return render_sticker(TAGGED.deck[card_id], "BOX1", size_mm=20, dpi=150)


def test_check_of_a_video_counts_one_presentation_per_showing(tmp_path, capsys):
    video(tmp_path / "cards.avi",
          [big_sticker("lion:M#1"), big_sticker("lion:F#1"), big_sticker("lion:F#1")])
    status, out, _ = run(capsys, "check", "--source", str(tmp_path / "cards.avi"),
                         "--only", "lion")
    assert status == 1
    assert "Show the cards to the camera one at a time" in out
    assert "Lion ♂, weight 5 (lion:M#1)  1/4" in out
    assert "Lion ♀, weight 5 (lion:F#1) AGAIN (also seen: showing 2)" in out
    assert "Seen 2 of the 4 cards of deck BOX1." in out
    assert "  Lion ♀, weight 5 (lion:F#1): showing 2, showing 3" in out


def test_check_of_a_video_stops_once_every_card_is_seen(tmp_path, capsys):
    frogs = [big_sticker(card_id) for card_id in ("frog:F#1", "frog:M#1", "frog:F#2")]
    video(tmp_path / "frogs.avi", [*frogs, frogs[0]])
    status, out, _ = run(capsys, "check", "--source", str(tmp_path / "frogs.avi"),
                         "--only", "frog")
    assert status == 0
    assert "3/3" in out and "AGAIN" not in out  # the fourth showing is never waited for
    assert "ready to play" in out


def test_check_with_no_camera_says_how_to_check_from_photos(capsys):
    status, _, err = run(capsys, "check", "--source", "usb:9", "--only", "lion")
    assert status == 2
    assert "No camera could be opened (USB camera 9)" in err and "--source FOLDER" in err
