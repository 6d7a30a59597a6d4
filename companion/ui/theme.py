"""Colours and sizes for a 7" screen read from across a table (800×480, about 5.2 px per mm).

Touch targets are at least :data:`TOUCH` pixels (10 mm); text a player reads at least
:data:`BODY` (4 mm, legible from the far side of a table, by children too). Every colour pair
of text on a background has a WCAG contrast of at least 4.5:1 (:func:`contrast`; the UI tests
check every label on every screen). Gender is always written as ♂/♀ next to its colour, never
shown by colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

TOUCH = 52  # px: 10 mm on the official 7" panel (~155 mm for 800 px)
BODY = 22  # px: the smallest text a player has to read
MIN_CONTRAST = 4.5  # WCAG 2 AA for body text
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
ILLEGAL = (0.75, 0.08, 0.08, 1)  # white on it: 6.4:1
WARNING = (0.62, 0.32, 0.0, 1)  # white on it: 5.2:1 (the camera banner)
HIGHLIGHT = (0.30, 0.85, 0.40, 1)
NOAH = (1.0, 0.85, 0.25, 1)
# the ferries' weight gauge: white text on the filled part and on the empty part
GAUGE = (0.10, 0.35, 0.65, 1)  # white on it: 6.9:1 (was 0.25, 0.6, 0.85: 3.1:1)
GAUGE_FULL = ILLEGAL  # at 80 % of the capacity and more
GAUGE_EMPTY = (0.22, 0.22, 0.22, 1)
FERRY = (0.13, 0.17, 0.24, 1)
FERRY_CHOICE = (0.10, 0.30, 0.15, 1)
# buttons drawn flat (background_normal ""), white text
BUTTON = (0.16, 0.33, 0.52, 1)  # white on it: 8.6:1
GO = (0.12, 0.42, 0.20, 1)  # the button that moves the game on: white 7.7:1
QUIET = (0.80, 0.80, 0.80, 1)  # secondary text on the black screen: 12:1
CARD = (0.99, 0.95, 0.80, 1)  # the undo card and the legend: black text on it
#: A text field's placeholder ("Player 3", the name used if none is typed): grey, as a
#: placeholder is, yet 5.3:1 on the field's light grey (Kivy's own grey was 3.4:1).
PLACEHOLDER = (0.38, 0.38, 0.38, 1)


def luminance(colour: Sequence[float]) -> float:
    """WCAG 2 relative luminance of an RGB(A) colour with channels from 0 to 1.

    >>> luminance((1, 1, 1)), luminance((0, 0, 0))
    (1.0, 0.0)
    """
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in colour[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: Sequence[float], background: Sequence[float]) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 (same) to 21 (black on white).

    >>> round(contrast((1, 1, 1), (0.25, 0.6, 0.85)), 1), round(contrast((1, 1, 1), GAUGE), 1)
    (3.1, 6.9)
    """
    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def text_on(background: Sequence[float]) -> tuple[float, float, float, float]:
    """Black or white, whichever reads better on ``background`` (a token's colour).

    >>> text_on(PLAYER_COLOURS["yellow"]), text_on(FERRY)
    ((0, 0, 0, 1), (1, 1, 1, 1))
    """
    black, white = (0, 0, 0, 1), (1, 1, 1, 1)
    return black if contrast(black, background) >= contrast(white, background) else white


def player_colour(colours: list[str] | tuple[str, ...], seat: int) -> tuple[float, ...]:
    """The RGBA of a seat's token (default colours by seat when none were chosen).

    >>> player_colour((), 1) == PLAYER_COLOURS["blue"]
    True
    """
    names = list(colours) or list(PLAYER_COLOURS)
    name = names[seat] if seat < len(names) else list(PLAYER_COLOURS)[seat % 5]
    return PLAYER_COLOURS.get(name, PLAYER_COLOURS["red"])
