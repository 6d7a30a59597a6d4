"""Pictures of the animals, of Noah, a ferry and the ark, for the app's screens.

Every species of the game (:data:`companion.game.deck.SPECIES`, promo frog and crocodile
included) has a 128x128 RGBA PNG beside this module, drawn from Google's Noto Color Emoji
(Apache License 2.0; docs/pictures.md and ``NOTICE.txt`` here). The files are committed and
installed with the package: nothing is rendered at run time, so the Pi needs no emoji font.
``make_pictures.py`` in this folder made them and makes them again.

>>> picture_path("woodpecker").name
'woodpecker.png'
>>> species_with_pictures()[:3]
('woodpecker', 'parrot', 'snail')
"""

from __future__ import annotations

from pathlib import Path

from companion.game.deck import SPECIES

#: The folder that holds the PNGs.
FOLDER = Path(__file__).resolve().parent
#: Pictures that are not animals: Noah, one of the five ferries, and the ark they sail to.
SCENE = ("noah", "ferry", "ark")
#: Width and height of every picture, in pixels.
SIDE = 128


class NoPicture(LookupError):
    """No picture by that name. Species come from the deck, which the rules engine checks, so
    this is a programming error (or a damaged installation), not a table's mistake."""


def picture_names() -> tuple[str, ...]:
    """Every name :func:`picture_path` accepts: the species, lightest first, then the scene.

    >>> picture_names()[-4:]
    ('elephant', 'noah', 'ferry', 'ark')
    """
    return (*SPECIES, *SCENE)


def picture_path(name: str) -> Path:
    """The PNG of a species, named as in the table log (``"woodpecker"``, ``"rhino"``), or of
    ``"noah"``, ``"ferry"`` or ``"ark"``. A Kivy ``Image(source=str(path))`` shows it.

    >>> picture_path("frog").parent == FOLDER
    True
    >>> picture_path("unicorn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.ui.pictures.NoPicture: There is no picture of 'unicorn': pictures exist for ...
    """
    if name not in picture_names():
        raise NoPicture(f"There is no picture of {name!r}: pictures exist for "
                        f"{', '.join(picture_names())}.")
    path = FOLDER / f"{name}.png"
    if not path.is_file():
        raise NoPicture(f"The picture of {name!r} is missing from {FOLDER}: "
                        "reinstall noah-companion.")
    return path


def species_with_pictures() -> tuple[str, ...]:
    """The species that have a picture, lightest first (all of them, in a sound installation).

    >>> species_with_pictures() == SPECIES
    True
    """
    return tuple(species for species in SPECIES if (FOLDER / f"{species}.png").is_file())
