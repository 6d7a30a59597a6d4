"""The wiring guide and diagram match the code (the examples run with --doctest-modules)."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops

from hardware.config import DEFAULT_BUTTON_PINS, DEFAULT_BUZZER_PIN, DEFAULT_LED_PINS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def physical_pin(gpio: int) -> int:
    header = MockFactory().board_info.headers["J8"]
    return next(n for n, pin in header.pins.items() if pin.name == f"GPIO{gpio}")


def test_the_default_pin_table_in_the_wiring_guide_matches_the_code():
    rows = re.findall(r"^\| (\d) \| GPIO (\d+) \(pin (\d+)\) \| GPIO (\d+) \(pin (\d+)\) \|$",
                      (DOCS / "wiring.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert [int(row[0]) for row in rows] == [1, 2, 3, 4, 5]
    for k, (_, led, led_pin, button, button_pin) in enumerate(rows):
        assert int(led) == DEFAULT_LED_PINS[k] and int(led_pin) == physical_pin(int(led))
        assert int(button) == DEFAULT_BUTTON_PINS[k]
        assert int(button_pin) == physical_pin(int(button))
    buzzer = f"| Buzzer | GPIO {DEFAULT_BUZZER_PIN} (pin {physical_pin(DEFAULT_BUZZER_PIN)}) |"
    assert buzzer in (DOCS / "wiring.md").read_text(encoding="utf-8")


def test_the_committed_wiring_diagram_is_up_to_date(tmp_path):
    """If this fails, run: .venv/bin/python docs/wiring_diagram.py"""
    draw = runpy.run_path(str(DOCS / "wiring_diagram.py"))["main"]
    drawn = Image.open(draw(tmp_path / "wiring.png")).convert("RGB")
    kept = Image.open(DOCS / "wiring.png").convert("RGB")
    assert drawn.size == kept.size
    assert ImageChops.difference(drawn, kept).getbbox() is None
