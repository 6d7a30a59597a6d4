"""The pictures of the animals (issue 15, item 2): one for every species, promo animals included
(R6), each a small transparent 128 px PNG that ships with the package; the woodpecker, which has
no emoji, is there and is our own drawing."""

from __future__ import annotations

import doctest
import tomllib
from pathlib import Path

import pytest
from PIL import Image

import companion.ui.pictures as pictures
from companion.game import default_deck
from companion.game.deck import PROMO_SPECIES, SPECIES
from companion.ui.pictures import (
    FOLDER,
    SCENE,
    SIDE,
    NoPicture,
    make_pictures,
    picture_names,
    picture_path,
    species_with_pictures,
)

ROOT = Path(__file__).resolve().parents[2]
#: A picture must stay small: the Pi loads a dozen at once and they ship in the package.
MAX_BYTES = 20_000
#: Rows left out at the top and bottom, where rounded corners and the margin are.
MARGIN_Y = 10


def test_every_species_of_the_default_deck_and_the_promos_has_a_picture():
    in_the_deck = {card.species for card in default_deck()}
    assert set(PROMO_SPECIES) <= in_the_deck  # the default deck carries the promo rows (R6)
    assert in_the_deck <= set(species_with_pictures())
    assert species_with_pictures() == SPECIES
    for species in in_the_deck:
        assert picture_path(species).is_file()


@pytest.mark.parametrize("name", picture_names())
def test_each_picture_is_a_small_transparent_png_of_the_expected_size(name):
    path = picture_path(name)
    assert path == FOLDER / f"{name}.png"
    assert path.stat().st_size <= MAX_BYTES
    with Image.open(path) as image:
        image.verify()  # a damaged or truncated file fails here
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert (image.size, image.mode) == ((SIDE, SIDE), "RGBA")
        alpha = image.getchannel("A")
        low, high = alpha.getextrema()
        assert (low, high) == (0, 255)  # a transparent background around an opaque drawing
        corners = [(0, 0), (SIDE - 1, 0), (0, SIDE - 1), (SIDE - 1, SIDE - 1)]
        assert [alpha.getpixel(corner) for corner in corners] == [0, 0, 0, 0]
        assert alpha.getbbox() is not None


def test_no_two_pictures_are_the_same():
    images = {}
    for name in picture_names():
        with Image.open(picture_path(name)) as image:
            images[name] = image.convert("RGBA").tobytes()
    assert len(set(images.values())) == len(images)


def test_the_woodpecker_has_its_red_crown_and_stands_on_its_trunk():
    with Image.open(picture_path("woodpecker")) as image:
        rgba = image.convert("RGBA")
    colours = {colour for _count, colour in rgba.getcolors(SIDE * SIDE)}
    assert make_pictures.CROWN_RED in colours
    assert make_pictures.BARK in colours
    # The trunk on the left, top to bottom: some column of the left third is solid all along.
    solid = [x for x in range(SIDE // 3)
             if all(rgba.getpixel((x, y))[3] == 255 for y in range(MARGIN_Y, SIDE - MARGIN_Y))]
    assert solid
    # The bird beside it: the right half has the bird's grey body, not bark.
    right_half = rgba.crop((SIDE // 2, 0, SIDE, SIDE))
    assert make_pictures.BIRD_GREY in {colour for _n, colour in right_half.getcolors(SIDE * SIDE)}


def test_an_unknown_name_is_refused_with_the_names_there_are():
    with pytest.raises(NoPicture, match=r"no picture of 'unicorn': .*woodpecker.*ark"):
        picture_path("unicorn")
    with pytest.raises(NoPicture):
        picture_path("Woodpecker")  # names as in the table log: lower case
    assert issubclass(NoPicture, LookupError)


def test_a_missing_file_says_to_reinstall(tmp_path, monkeypatch):
    monkeypatch.setattr(pictures, "FOLDER", tmp_path)
    with pytest.raises(NoPicture, match=r"missing .* reinstall"):
        picture_path("lion")
    assert species_with_pictures() == ()


def test_the_scene_pictures_are_there():
    assert SCENE == ("noah", "ferry", "ark")
    assert picture_names() == (*SPECIES, *SCENE)


def test_the_pictures_and_their_licence_are_package_data():
    """The PNGs and the licence files match pyproject's package-data globs, in a folder that is
    a package (setuptools applies the globs package by package, not to sub-folders)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["*"]
    assert (FOLDER / "__init__.py").is_file()
    shipped = {path.name for glob in globs for path in FOLDER.glob(glob)}
    assert {f"{name}.png" for name in picture_names()} <= shipped
    assert {"NOTICE.txt", "LICENSE-Apache-2.0.txt"} <= shipped
    assert "Apache License" in (FOLDER / "LICENSE-Apache-2.0.txt").read_text(encoding="utf-8")
    notice = (FOLDER / "NOTICE.txt").read_text(encoding="utf-8")
    assert "Noto Emoji" in notice and "woodpecker.png" in notice


def test_the_module_examples_hold():
    assert doctest.testmod(pictures, optionflags=doctest.ELLIPSIS).failed == 0


def test_the_maker_says_which_package_to_install_when_the_font_is_missing(tmp_path):
    with pytest.raises(make_pictures.FontMissing, match=r"apt-get .*fonts-noto-color-emoji"):
        make_pictures.load_font(tmp_path / "NotoColorEmoji.ttf")


@pytest.mark.skipif(not make_pictures.FONT_PATH.is_file(),
                    reason="needs Debian's fonts-noto-color-emoji (only to remake the pictures)")
def test_the_maker_remakes_the_committed_pictures(tmp_path):
    assert make_pictures.main(["--out", str(tmp_path)]) == 0
    for name in picture_names():
        with Image.open(tmp_path / f"{name}.png") as made:
            assert not make_pictures.differs(made.convert("RGBA"), picture_path(name)), name
    assert make_pictures.main(["--check"]) == 0


def test_the_contact_sheet_shows_every_picture_without_the_emoji_font(tmp_path):
    sheet_path = tmp_path / "sheet.png"
    assert make_pictures.main(["--sheet", str(sheet_path)]) == 0
    with Image.open(sheet_path) as sheet:
        columns, rows = 6, -(-len(picture_names()) // 6)
        assert sheet.size == (columns * (SIDE + 104), rows * (SIDE + 36))
