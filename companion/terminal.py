"""Text laid out in a terminal's columns: a Chinese character takes two columns, a combining
accent none, so names are padded by the columns they fill, not by their length.

>>> display_width("Ana"), display_width("陳小明"), display_width("Chloe\\u0301")
(3, 6, 5)
>>> [ljust(name, 7) + "|" for name in ("Ana", "陳小明")]
['Ana    |', '陳小明 |']
"""

from __future__ import annotations

import unicodedata


def display_width(text: str) -> int:
    """How many terminal columns ``text`` fills (East Asian wide and full-width characters
    two, combining marks and zero-width characters none)."""
    return sum(_columns(character) for character in text)


def _columns(character: str) -> int:
    if unicodedata.combining(character) or unicodedata.category(character) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def ljust(text: str, width: int) -> str:
    """``text`` padded with spaces to fill ``width`` columns."""
    return text + " " * max(0, width - display_width(text))
