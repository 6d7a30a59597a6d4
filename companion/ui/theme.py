"""Colours and sizes for a 7" screen read from a metre away (800×480, about 5.2 px per mm).

Touch targets are at least :data:`TOUCH` pixels (9 mm); body text at least :data:`BODY`.
Gender is always written as ♂/♀ next to its colour, never shown by colour alone.
"""

from __future__ import annotations

TOUCH = 52  # px: 10 mm on the official 7" panel (~155 mm for 800 px)
BODY = 20  # px: the smallest text a player has to read
#: The one font name every label uses; companion.ui.fonts points it at the files of the table's
#: language (DejaVu Sans, which has ♂ and ♀ unlike Kivy's Roboto; Noto Sans CJK TC for Chinese).
FONT = "NoahText"

# The score tokens' colours (name, RGBA): a player picks one at a new game.
PLAYER_COLOURS: dict[str, tuple[float, float, float, float]] = {
    "red": (0.85, 0.20, 0.18, 1),
    "blue": (0.20, 0.45, 0.90, 1),
    "green": (0.20, 0.65, 0.30, 1),
    "yellow": (0.95, 0.80, 0.15, 1),
    "purple": (0.60, 0.35, 0.80, 1),
}
GENDER_COLOURS = {"M": (0.55, 0.75, 1.0, 1), "F": (1.0, 0.65, 0.80, 1), None: (0.8, 0.8, 0.8, 1)}
ILLEGAL = (0.80, 0.10, 0.10, 1)
WARNING = (0.90, 0.55, 0.10, 1)
HIGHLIGHT = (0.30, 0.85, 0.40, 1)
NOAH = (1.0, 0.85, 0.25, 1)


def player_colour(colours: list[str] | tuple[str, ...], seat: int) -> tuple[float, ...]:
    """The RGBA of a seat's token (default colours by seat when none were chosen).

    >>> player_colour((), 1) == PLAYER_COLOURS["blue"]
    True
    """
    names = list(colours) or list(PLAYER_COLOURS)
    name = names[seat] if seat < len(names) else list(PLAYER_COLOURS)[seat % 5]
    return PLAYER_COLOURS.get(name, PLAYER_COLOURS["red"])
