"""Regenerate the animal pictures (``companion/ui/pictures/*.png``) from Noto Color Emoji.

The pictures are committed, so nothing here runs on the Pi or in the tests: this script is how
they were made, and how to make them again (for example at another size). It reads the colour
emoji font that Debian's package ``fonts-noto-color-emoji`` installs (version 2.042 made the
committed files) and installs nothing itself::

    sudo apt-get install --no-install-recommends fonts-noto-color-emoji
    .venv/bin/python -m companion.ui.pictures.make_pictures          # write the PNGs
    .venv/bin/python -m companion.ui.pictures.make_pictures --check  # compare, write nothing
    .venv/bin/python -m companion.ui.pictures.make_pictures --sheet docs/pictures-sheet.png

Most pictures are one emoji, cropped to its ink and centred on a transparent square. Three have
no emoji of their own and are composed from emoji parts and simple shapes, all in this file:

- **woodpecker**: the black bird (U+1F426 U+200D U+2B1B) with its head redrawn (a red crown, a
  white cheek band and a long beak), tilted upright against a drawn tree trunk;
- **noah**: the man mage (U+1F9D9 U+200D U+2642) with his blue hat and robe recoloured brown,
  the stars on his robe painted out and the pointed hat replaced by a cloth hood: an old man
  with a white beard and a staff;
- **ark**: a drawn wooden boat with a cabin, a giraffe (U+1F992) looking out over the roof.

Shapes are drawn at four times the final size and scaled down, for smooth edges.
"""

from __future__ import annotations

import argparse
import colorsys
import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont, ImageStat

#: The Debian package that provides the font, and where it puts it.
FONT_PACKAGE = "fonts-noto-color-emoji"
FONT_PATH = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
#: Noto Color Emoji is a bitmap (CBDT) font: 109 is the one size it has (glyphs of 136x128 px).
FONT_SIZE = 109
#: Side of every picture, in pixels, and the empty margin kept around the drawing.
SIDE = 128
MARGIN = 3
#: Drawn shapes are made at this many times the final size, then scaled down.
SUPERSAMPLE = 4
#: The largest difference in one channel of one pixel that ``--check`` lets pass: another Pillow
#: may round a few pixels differently, and no eye sees 8 levels out of 255.
TOLERANCE = 8
#: Where the pictures live (this script's folder).
OUT_DIR = Path(__file__).resolve().parent

#: The pictures that are one emoji each. Where Noto has only a face (frog, panda, lion, bear),
#: the face is used: it is what children know from picture books; elsewhere the whole animal.
EMOJI: dict[str, str] = {
    "parrot": "\U0001f99c",
    "snail": "\U0001f40c",
    "frog": "\U0001f438",
    "cat": "\U0001f408",
    "kangaroo": "\U0001f998",
    "panda": "\U0001f43c",
    "lion": "\U0001f981",
    "donkey": "\U0001facf",
    "crocodile": "\U0001f40a",
    "bear": "\U0001f43b",
    "giraffe": "\U0001f992",
    "rhino": "\U0001f98f",
    "elephant": "\U0001f418",
    # A ferry of the game is a small wooden boat (« embarcation »), not a car ferry (U+26F4).
    "ferry": "\U0001f6f6",
}
BLACK_BIRD = "\U0001f426\u200d\u2b1b"
MAN_MAGE = "\U0001f9d9\u200d\u2642\ufe0f"
GIRAFFE = EMOJI["giraffe"]

RGBA = tuple[int, int, int, int]
BIRD_GREY: RGBA = (77, 77, 77, 255)  # the black bird's body colour in Noto
CROWN_RED: RGBA = (229, 57, 53, 255)
CHEEK_WHITE: RGBA = (245, 245, 245, 255)
BEAK_DARK: RGBA = (117, 117, 117, 255)
BEAK_LIGHT: RGBA = (158, 158, 158, 255)
BARK: RGBA = (141, 98, 76, 255)
BARK_SHADE: RGBA = (121, 85, 72, 255)
BARK_GROOVE: RGBA = (93, 64, 55, 255)
CHIP: RGBA = (255, 204, 128, 255)
ROBE_BLUE: RGBA = (49, 70, 170, 255)  # the mage's robe in Noto, before recolouring
HOOD: RGBA = (215, 190, 145, 255)
HEADBAND: RGBA = (141, 98, 76, 255)
HULL: RGBA = (161, 98, 62, 255)
HULL_SHADE: RGBA = (121, 72, 45, 255)
CABIN: RGBA = (230, 178, 112, 255)
ROOF: RGBA = (191, 84, 50, 255)
WINDOW: RGBA = (93, 64, 55, 255)


class FontMissing(RuntimeError):
    """The emoji font is not installed on this machine."""


def load_font(path: Path = FONT_PATH) -> ImageFont.FreeTypeFont:
    """The Noto Color Emoji font, or :class:`FontMissing` saying which package to install."""
    if not path.is_file():
        raise FontMissing(f"{path} is missing: install Debian's {FONT_PACKAGE} "
                          f"(sudo apt-get install --no-install-recommends {FONT_PACKAGE}).")
    return ImageFont.truetype(str(path), FONT_SIZE)


def glyph(font: ImageFont.FreeTypeFont, text: str) -> Image.Image:
    """One emoji as an RGBA image cropped to its ink."""
    canvas = Image.new("RGBA", (2 * FONT_SIZE, 2 * FONT_SIZE), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((0, 0), text, font=font, embedded_color=True)
    box = canvas.getbbox()
    if box is None:
        raise ValueError(f"the font draws nothing for {text!r}")
    return canvas.crop(box)


def scaled(image: Image.Image, factor: float) -> Image.Image:
    """``image`` scaled by ``factor`` (Lanczos)."""
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    return image.resize(size, Image.Resampling.LANCZOS)


def fit(image: Image.Image) -> Image.Image:
    """``image`` cropped to its ink, scaled to fit the square inside the margin, centred."""
    box = image.getbbox()
    if box is not None:
        image = image.crop(box)
    inner = SIDE - 2 * MARGIN
    image = scaled(image, min(inner / image.width, inner / image.height))
    square = Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0))
    square.alpha_composite(image, ((SIDE - image.width) // 2, (SIDE - image.height) // 2))
    return square


def big_canvas() -> tuple[Image.Image, ImageDraw.ImageDraw, Callable[[float], int]]:
    """A supersampled transparent square, its drawing context, and a scale for coordinates
    given in final pixels."""
    canvas = Image.new("RGBA", (SIDE * SUPERSAMPLE, SIDE * SUPERSAMPLE), (0, 0, 0, 0))
    return canvas, ImageDraw.Draw(canvas), lambda value: round(value * SUPERSAMPLE)


def pixels(image: Image.Image) -> Iterator[tuple[int, int, RGBA]]:
    """Every non-transparent pixel of an RGBA image: x, y and its colour."""
    data = image.load()
    assert data is not None
    for y in range(image.height):
        for x in range(image.width):
            colour = data[x, y]
            assert isinstance(colour, tuple)
            if colour[3]:
                yield x, y, (colour[0], colour[1], colour[2], colour[3])


def woodpecker(font: ImageFont.FreeTypeFont) -> Image.Image:
    """A woodpecker: the black bird with a red crown and a long beak, upright on a trunk."""
    canvas, draw, s = big_canvas()
    trunk_right = s(34)
    draw.rounded_rectangle((s(2), 0, trunk_right, canvas.height - 1), radius=s(6), fill=BARK)
    draw.rectangle((trunk_right - s(9), 0, trunk_right, canvas.height - 1), fill=BARK_SHADE)
    for top, bottom, left in ((10, 40, 10), (55, 95, 18), (100, 124, 8), (20, 50, 24)):
        draw.rounded_rectangle((s(left), s(top), s(left + 3), s(bottom)), radius=s(1.5),
                               fill=BARK_GROOVE)
    bird = woodpecker_bird(font)
    top = (canvas.height - bird.height) // 2
    canvas.alpha_composite(bird, (trunk_right - s(6), top))
    for x, y, angle in ((27, 32, 20), (22, 44, -30), (30, 50, 60)):  # chips from the pecking
        chip = Image.new("RGBA", (s(5), s(2.5)), CHIP).rotate(angle, expand=True)
        canvas.alpha_composite(chip, (s(x), s(y)))
    return fit(canvas.resize((SIDE, SIDE), Image.Resampling.LANCZOS))


def woodpecker_bird(font: ImageFont.FreeTypeFont, tilt: float = 55.0) -> Image.Image:
    """The black bird, head redrawn as a woodpecker's and tilted ``tilt`` degrees upright.

    Head features are placed by their angle in the *final* (tilted) picture, so that the beak
    points straight at the trunk on the left and the crown is on top.
    """
    bird = glyph(font, BLACK_BIRD)
    # Paint out the short orange beak and the black eye; the head is redrawn below.
    for x, y, (red, green, _blue, alpha) in pixels(bird):
        if y < bird.height // 2 and x < bird.width // 3 and (red > 200 > green + 30 or red < 30):
            bird.putpixel((x, y), (*BIRD_GREY[:3], alpha))
    factor = SUPERSAMPLE * 0.8
    bird = scaled(bird, factor)
    pad = round(50 * factor)
    canvas = Image.new("RGBA", (bird.width + 2 * pad, bird.height + 2 * pad), (0, 0, 0, 0))
    canvas.alpha_composite(bird, (pad, pad))
    draw = ImageDraw.Draw(canvas)
    radius = 22.0  # the head, in glyph pixels, around its centre in the glyph
    centre_x, centre_y = 36 * factor + pad, 31 * factor + pad

    def at(angle: float, distance: float) -> tuple[float, float]:
        turned = math.radians(angle + tilt)
        return (centre_x + distance * factor * math.cos(turned),
                centre_y - distance * factor * math.sin(turned))

    def circle(r: float) -> tuple[float, float, float, float]:
        return (centre_x - r * factor, centre_y - r * factor,
                centre_x + r * factor, centre_y + r * factor)

    draw.ellipse(circle(radius), fill=BIRD_GREY)
    base, tip = (at(156, radius * 0.75), at(204, radius * 0.75)), at(180, radius * 2.45)
    draw.polygon([base[0], base[1], tip], fill=BEAK_DARK)
    draw.polygon([base[0], at(180, radius * 0.75), tip], fill=BEAK_LIGHT)
    draw.polygon([at(195, radius * 0.7), at(185, radius * 0.3), at(-30, radius * 0.5),
                  at(-60, radius * 1.05), at(-95, radius * 0.75), at(220, radius * 0.85)],
                 fill=CHEEK_WHITE)
    draw.chord(circle(radius * 1.06), start=-(175 + tilt), end=-(-15 + tilt), fill=CROWN_RED)
    eye_x, eye_y = at(175, radius * 0.42)
    eye = 3.4 * factor
    draw.ellipse((eye_x - eye, eye_y - eye, eye_x + eye, eye_y + eye), fill=(0, 0, 0, 255))
    turned = canvas.rotate(-tilt, resample=Image.Resampling.BICUBIC)
    box = turned.getbbox()
    assert box is not None
    return turned.crop(box)


def noah(font: ImageFont.FreeTypeFont) -> Image.Image:
    """Noah: the mage, recoloured to a brown robe, with a cloth hood instead of the hat."""
    mage = glyph(font, MAN_MAGE)
    width, height = mage.width, mage.height
    # The stars on the robe: yellow specks low on the left (the hand is further right).
    stars = Image.new("L", mage.size, 0)
    for x, y, (red, green, blue, _alpha) in pixels(mage):
        if y > 0.78 * height and x < 0.65 * width and red > 150 and green > 150 and blue < 120:
            stars.putpixel((x, y), 255)
    stars = stars.filter(ImageFilter.MaxFilter(5))
    for x, y, colour in pixels(mage):
        if stars.getpixel((x, y)):
            mage.putpixel((x, y), (*ROBE_BLUE[:3], colour[3]))
    # The hat goes, brim and all (the face begins below the brim's top); a hood and a
    # headband are drawn instead.
    brim_top, brim_bottom = round(0.34 * height), round(0.56 * height)
    for x, y, _colour in pixels(mage):
        if y < brim_top or (y < brim_bottom and not 0.12 * width < x < 0.74 * width):
            mage.putpixel((x, y), (0, 0, 0, 0))
    for x, y, (red, green, blue, alpha) in pixels(mage):
        if blue > red + 40 and blue > green + 40:
            _hue, saturation, value = colorsys.rgb_to_hsv(red / 255, green / 255, blue / 255)
            brown = colorsys.hsv_to_rgb(0.07, saturation * 0.55, value * 0.75)
            mage.putpixel((x, y), (*(round(part * 255) for part in brown), alpha))
    # A cloth hood behind the head, falling beside the face onto the shoulders, and a headband
    # over it; drawn large and scaled down, as the other drawn shapes, for smooth edges.
    big_w, big_h = width * SUPERSAMPLE, height * SUPERSAMPLE
    hood = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    cloth = ImageDraw.Draw(hood)
    cloth.ellipse((0.06 * big_w, 0.14 * big_h, 0.80 * big_w, 0.70 * big_h), fill=HOOD)
    cloth.rounded_rectangle((0.06 * big_w, 0.40 * big_h, 0.80 * big_w, 0.92 * big_h),
                            radius=0.08 * big_w, fill=HOOD)
    band = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    ImageDraw.Draw(band).rounded_rectangle(
        (0.10 * big_w, 0.30 * big_h, 0.76 * big_w, 0.37 * big_h), radius=0.03 * big_w,
        fill=HEADBAND)
    picture = hood.resize(mage.size, Image.Resampling.LANCZOS)
    picture.alpha_composite(mage)
    picture.alpha_composite(band.resize(mage.size, Image.Resampling.LANCZOS))
    return fit(picture)


def ark(font: ImageFont.FreeTypeFont) -> Image.Image:
    """Noah's ark: a wooden boat with a cabin and a giraffe looking out over the roof."""
    canvas, draw, s = big_canvas()
    giraffe = scaled(glyph(font, GIRAFFE), SUPERSAMPLE * 0.5)
    canvas.alpha_composite(giraffe, (s(46), s(2)))
    # the cabin
    draw.rectangle((s(28), s(50), s(96), s(82)), fill=CABIN)
    draw.polygon([(s(20), s(52)), (s(104), s(52)), (s(92), s(34)), (s(32), s(34))], fill=ROOF)
    for left in (36, 56, 76):
        draw.rounded_rectangle((s(left), s(58), s(left + 12), s(70)), radius=s(3), fill=WINDOW)
    # the hull, its bow and stern rising at both ends
    draw.polygon([(s(2), s(70)), (s(14), s(80)), (s(114), s(80)), (s(126), s(70)),
                  (s(108), s(116)), (s(20), s(116))], fill=HULL)
    draw.rectangle((s(8), s(78), s(120), s(86)), fill=HULL_SHADE)
    for y in (96, 106):
        draw.line((s(18), s(y), s(110), s(y)), fill=HULL_SHADE, width=s(2))
    return fit(canvas.resize((SIDE, SIDE), Image.Resampling.LANCZOS))


COMPOSED: dict[str, Callable[[ImageFont.FreeTypeFont], Image.Image]] = {
    "woodpecker": woodpecker,
    "noah": noah,
    "ark": ark,
}


def make_all(font: ImageFont.FreeTypeFont) -> dict[str, Image.Image]:
    """Every picture, by name."""
    pictures = {name: fit(glyph(font, text)) for name, text in EMOJI.items()}
    pictures.update({name: make(font) for name, make in COMPOSED.items()})
    return dict(sorted(pictures.items()))


def cleared(image: Image.Image) -> Image.Image:
    """``image`` with the colour of its fully transparent pixels set to black: invisible, and it
    makes the PNG smaller and the comparison in :func:`differs` fair."""
    clear = Image.new("RGBA", image.size, (0, 0, 0, 0))
    seen = image.getchannel("A").point(lambda alpha: 255 if alpha else 0)
    return Image.composite(image, clear, seen)


def save(image: Image.Image, path: Path) -> None:
    """Write ``image`` as a small, optimised RGBA PNG."""
    cleared(image).save(path, optimize=True)


def differs(image: Image.Image, path: Path) -> bool:
    """Whether ``image`` differs visibly from the PNG at ``path`` (or there is none)."""
    if not path.is_file():
        return True
    with Image.open(path) as stored:
        difference = ImageChops.difference(cleared(image), stored.convert("RGBA"))
    return max(high for _low, high in ImageStat.Stat(difference).extrema) > TOLERANCE


def contact_sheet(folder: Path = OUT_DIR, columns: int = 6) -> Image.Image:
    """Every PNG of ``folder`` with its name: full size on a dark background, 64 and 32 px on
    white, to look at them all at once (docs/pictures-sheet.png).
    Needs DejaVu Sans (as the stickers do), not the emoji font."""
    from companion.tags.sticker import font_path

    label = ImageFont.truetype(str(font_path()), 16)
    paths = sorted(folder.glob("*.png"))
    cell_w, cell_h = SIDE + 104, SIDE + 36
    rows = -(-len(paths) // columns)
    sheet = Image.new("RGBA", (columns * cell_w, rows * cell_h), (255, 255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    for index, path in enumerate(paths):
        left, top = (index % columns) * cell_w, (index // columns) * cell_h
        draw.rectangle((left, top, left + SIDE + 15, top + cell_h - 1), fill=(30, 50, 80, 255))
        with Image.open(path) as opened:
            picture = opened.convert("RGBA")
        sheet.alpha_composite(picture, (left + 8, top + 4))
        for size, y in ((64, 8), (32, 84)):
            small = picture.resize((size, size), Image.Resampling.LANCZOS)
            sheet.alpha_composite(small, (left + SIDE + 24, top + y))
        draw.text((left + 8, top + SIDE + 8), path.stem, fill=(255, 255, 255, 255), font=label)
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", "-o", type=Path, default=OUT_DIR,
                        help="folder to write the PNGs to (default: beside this script)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a picture would change")
    parser.add_argument("--sheet", type=Path, metavar="PNG",
                        help="only write a contact sheet of the existing pictures to PNG")
    args = parser.parse_args(argv)
    if args.sheet:
        # A palette of 256 colours: a third of the bytes, no visible loss at this size.
        contact_sheet(args.out).convert("RGB").quantize(256).save(args.sheet, optimize=True)
        print(args.sheet)
        return 0
    try:
        font = load_font()
    except FontMissing as missing:
        print(missing, file=sys.stderr)
        return 2
    changed = []
    args.out.mkdir(parents=True, exist_ok=True)
    for name, image in make_all(font).items():
        path = args.out / f"{name}.png"
        if args.check:
            if differs(image, path):
                changed.append(name)
        else:
            save(image, path)
            print(f"{path} ({path.stat().st_size} bytes)")
    if changed:
        print("would change: " + ", ".join(changed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
