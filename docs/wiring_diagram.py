"""Draw docs/wiring.png: the Pi's 40-pin header and the ferry LEDs, buttons and buzzer.

Run from the repository root: ``.venv/bin/python docs/wiring_diagram.py``. The pins come from
:mod:`hardware.config` and the header's layout from gpiozero's own board data, so the picture
cannot drift from the code.
"""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageDraw, ImageFont

from hardware.config import DEFAULT_BUTTON_PINS, DEFAULT_BUZZER_PIN, DEFAULT_LED_PINS

OUT = Path(__file__).with_name("wiring.png")
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
WIDTH, HEIGHT = 1760, 1160
INK, GREY, PAPER = "#222222", "#9a9a9a", "white"
LED_COLOUR, BUTTON_COLOUR, BUZZER_COLOUR = "#e8a317", "#3b7dd8", "#8e44ad"
POWER = {"GND": "#222222", "3V3": "#d35400", "5V": "#c0392b"}
# Pins the defaults leave alone, and why (shown greyed on the header).
RESERVED = {0: "HAT ID", 1: "HAT ID", 2: "I²C touch", 3: "I²C touch", 14: "UART TX",
            15: "UART RX", 7: "SPI CE1", 8: "SPI CE0", 9: "SPI MISO", 10: "SPI MOSI",
            11: "SPI SCLK"}
HEADER = MockFactory().board_info.headers["J8"]


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    # The basic layout engine on every machine: with raqm (used when the system has fribidi) the
    # glyphs land a pixel apart and the committed picture would differ from a fresh drawing.
    return ImageFont.truetype(str(FONT_DIR / f"DejaVuSans{'-Bold' if bold else ''}.ttf"), size,
                              layout_engine=ImageFont.Layout.BASIC)


def physical(gpio: int) -> int:
    """The header pin number of a BCM GPIO, from gpiozero's board data."""
    return next(n for n, pin in HEADER.pins.items() if pin.name == f"GPIO{gpio}")


def pin_role(name: str) -> tuple[str, str]:
    """Fill colour and side label of a header pin."""
    if name in POWER:
        return POWER[name], name
    gpio = int(name.removeprefix("GPIO"))
    if gpio in DEFAULT_LED_PINS:
        return LED_COLOUR, f"{name} ferry {DEFAULT_LED_PINS.index(gpio) + 1} LED"
    if gpio in DEFAULT_BUTTON_PINS:
        return BUTTON_COLOUR, f"{name} ferry {DEFAULT_BUTTON_PINS.index(gpio) + 1} button"
    if gpio == DEFAULT_BUZZER_PIN:
        return BUZZER_COLOUR, f"{name} buzzer"
    if gpio in RESERVED:
        return "#dddddd", f"{name} ({RESERVED[gpio]})"
    return PAPER, name


def draw_header(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The 40-pin header, pin 1 at the top left, as seen from above with the USB ports down."""
    pitch = 44
    draw.rounded_rectangle((x - 24, y - 24, x + pitch + 24, y + 19 * pitch + 24), 10,
                           fill="#1f5f3a")
    draw.text((x + pitch / 2, y - 40), "Raspberry Pi header (J8)", font=font(20, True), fill=INK,
              anchor="ms")
    for number, pin in HEADER.pins.items():
        column, row = (number - 1) % 2, (number - 1) // 2
        cx, cy = x + column * pitch, y + row * pitch
        fill, label = pin_role(pin.name)
        draw.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), fill=fill, outline="white", width=2)
        dark = fill not in (PAPER, "#dddddd", LED_COLOUR)
        draw.text((cx, cy), str(number), font=font(13, True), fill="white" if dark else INK,
                  anchor="mm")
        side = -1 if column == 0 else 1
        draw.text((cx + side * 34, cy), label, font=font(16), anchor="rm" if side < 0 else "lm",
                  fill=GREY if fill in (PAPER, "#dddddd") else INK)


def net_label(draw: ImageDraw.ImageDraw, x: int, y: int, gpio: int, colour: str) -> int:
    """A coloured tag "GPIO17 · pin 11" ending at the wire; returns the wire's start x."""
    text = f"GPIO{gpio} · pin {physical(gpio)}"
    draw.rounded_rectangle((x, y - 16, x + 190, y + 16), 8, fill=colour)
    draw.text((x + 95, y), text, font=font(16, True), fill="white", anchor="mm")
    return x + 190


def wire(draw: ImageDraw.ImageDraw, *points: tuple[float, float]) -> None:
    draw.line(points, fill=INK, width=3, joint="curve")


def resistor(draw: ImageDraw.ImageDraw, x: int, y: int, value: str) -> int:
    """A zigzag resistor from (x, y), 70 px long; returns its right end."""
    zig = [(x, y)] + [(x + 10 + 10 * i, y + (-9 if i % 2 == 0 else 9)) for i in range(5)]
    wire(draw, *zig, (x + 70, y))
    draw.text((x + 35, y - 16), value, font=font(16, True), fill=INK, anchor="ms")
    return x + 70


def ground(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """The ground symbol hanging below (x, y)."""
    wire(draw, (x, y), (x, y + 16))
    for i, half in enumerate((16, 10, 4)):
        draw.line((x - half, y + 16 + 6 * i, x + half, y + 16 + 6 * i), fill=INK, width=3)


def led(draw: ImageDraw.ImageDraw, x: int, y: int, colour: str) -> int:
    """An LED pointing right (anode left, cathode bar right) with light arrows; returns the
    cathode's x. Marks the long (+) and short (−) legs."""
    draw.polygon([(x, y - 16), (x, y + 16), (x + 28, y)], fill=colour, outline=INK)
    draw.line((x + 28, y - 16, x + 28, y + 16), fill=INK, width=4)
    for dx in (8, 20):
        draw.line((x + dx, y - 20, x + dx + 12, y - 32), fill=INK, width=2)
        draw.polygon([(x + dx + 14, y - 35), (x + dx + 6, y - 32), (x + dx + 12, y - 27)],
                     fill=INK)
    draw.text((x - 24, y + 24), "+ long leg", font=font(13), fill=INK, anchor="mm")
    draw.text((x + 62, y + 24), "− short leg", font=font(13), fill=INK, anchor="mm")
    return x + 28


def push_button(draw: ImageDraw.ImageDraw, x: int, y: int) -> int:
    """A normally-open push button from (x, y); returns its right end."""
    draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=INK)
    draw.ellipse((x + 52, y - 4, x + 60, y + 4), fill=INK)
    draw.line((x, y - 14, x + 56, y - 14), fill=INK, width=3)
    draw.line((x + 28, y - 14, x + 28, y - 30), fill=INK, width=3)
    draw.line((x + 18, y - 30, x + 38, y - 30), fill=INK, width=3)
    return x + 56


def draw_leds(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.text((x, y - 80), "Ferry LEDs: GPIO → 330 Ω → LED → ground", font=font(22, True),
              fill=INK)
    for k, gpio in enumerate(DEFAULT_LED_PINS):
        row = y + k * 92
        draw.text((x, row), f"Ferry {k + 1}", font=font(18, True), fill=INK, anchor="lm")
        start = net_label(draw, x + 90, row, gpio, LED_COLOUR)
        wire(draw, (start, row), (start + 40, row))
        end = resistor(draw, start + 40, row, "330 Ω")
        wire(draw, (end, row), (end + 40, row))
        cathode = led(draw, end + 40, row, "#ffd34d")
        wire(draw, (cathode, row), (cathode + 100, row))
        ground(draw, cathode + 100, row)


def draw_buttons(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.text((x, y - 80), "Ferry buttons (optional): GPIO → button → ground",
              font=font(22, True), fill=INK)
    for k, gpio in enumerate(DEFAULT_BUTTON_PINS):
        row = y + k * 62
        draw.text((x, row), f"Ferry {k + 1}", font=font(18, True), fill=INK, anchor="lm")
        start = net_label(draw, x + 90, row, gpio, BUTTON_COLOUR)
        wire(draw, (start, row), (start + 40, row))
        end = push_button(draw, start + 40, row)
        wire(draw, (end, row), (end + 40, row))
        ground(draw, end + 40, row)
    draw.text((x, y + 5 * 62 - 14), "No resistor: the Pi's internal pull-up holds the pin "
              "high;\na press connects it to ground (gpiozero Button, pull_up=True).",
              font=font(16), fill=INK)


def draw_buzzer(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """GPIO → 1 kΩ → NPN base; buzzer between 5 V and the collector; emitter to ground."""
    draw.text((x, y - 150), "Buzzer (optional)", font=font(22, True), fill=INK)
    draw.text((x, y - 120), "switched by an NPN transistor", font=font(16), fill=INK)
    start = net_label(draw, x, y + 60, DEFAULT_BUZZER_PIN, BUZZER_COLOUR)
    wire(draw, (start, y + 60), (start + 20, y + 60))
    base = resistor(draw, start + 20, y + 60, "1 kΩ")
    bx = base + 30  # the transistor's base bar
    wire(draw, (base, y + 60), (bx, y + 60))
    draw.ellipse((bx - 14, y + 26, bx + 54, y + 94), outline=INK, width=3)
    draw.line((bx + 6, y + 40, bx + 6, y + 80), fill=INK, width=5)
    wire(draw, (bx + 6, y + 50), (bx + 34, y + 30), (bx + 34, y))  # collector, up
    wire(draw, (bx + 6, y + 70), (bx + 34, y + 90), (bx + 34, y + 120))  # emitter, down
    draw.polygon([(bx + 34, y + 90), (bx + 22, y + 89), (bx + 29, y + 80)], fill=INK)
    draw.text((bx + 64, y + 60), "NPN\n2N2222 / BC337", font=font(14), fill=INK, anchor="lm")
    ground(draw, bx + 34, y + 120)
    draw.rectangle((bx + 18, y - 44, bx + 50, y), fill="#444444")  # the buzzer, − at the bottom
    draw.text((bx + 60, y - 24), "active buzzer\n(− to collector,\n+ to 5 V)", font=font(14),
              fill=INK, anchor="lm")
    wire(draw, (bx + 34, y - 44), (bx + 34, y - 64))
    draw.rounded_rectangle((bx - 16, y - 86, bx + 84, y - 62), 6, fill=POWER["5V"])
    draw.text((bx + 34, y - 73), "5 V · pin 2", font=font(14, True), fill="white", anchor="mm")


def draw_notes(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    notes = [
        "LED legs: the long leg (anode, +) goes towards the GPIO pin, the short leg (cathode, −, "
        "flat edge of the rim) to ground.",
        "330 Ω suits red, yellow and green LEDs (about 4 mA each); blue and white ones: 100 Ω. "
        "Stay under 16 mA per pin.",
        "Ground: any GND pin (6, 9, 14, 20, 25, 30, 34, 39). Light-grey pins are left to the "
        "touchscreen's I²C, UART, SPI and the HAT ID.",
        "The 7\" touchscreen uses its DSI ribbon (plus 5 V/GND if powered from the header); the "
        "camera its CSI ribbon: neither needs these pins.",
    ]
    for i, note in enumerate(notes):
        draw.text((x, y + i * 26), "• " + note, font=font(16), fill=INK)


def main(out: Path = OUT) -> Path:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.text((40, 30), "Noah Table Companion — ferry lights wiring (default pins, BCM numbers)",
              font=font(28, True), fill=INK)
    draw_header(draw, 270, 140)
    draw_leds(draw, 720, 175)
    draw_buttons(draw, 720, 680)
    draw_buzzer(draw, 1220, 840)
    draw_notes(draw, 40, 1040)
    image.save(out, optimize=True)
    return out


if __name__ == "__main__":
    print(f"Wrote {main()}")
