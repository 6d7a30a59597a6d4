"""The rules engine of Noah (Noé, Bombyx 2012): pure Python, standard library only, no I/O.

>>> from companion.game import Game, Options
>>> game = Game(["Ana", "Ben", "Chloé"], Options(hidden=True))
>>> game.phase, game.round
('round_over', 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lazy import exports

if TYPE_CHECKING:  # what mypy sees; at run time each name is imported when first used
    from .deck import Card, Deck, Ref, default_deck, load_deck, parse_deck, parse_ref
    from .engine import Event, Game, Placed, Verdict
    from .errors import InputError
    from .messages import EVENTS, REASONS
    from .options import Options
    from .state import IN_ROUND_PHASES, Phase

#: Where each name of the package's interface lives: imported on first use, so that importing
#: one small module of the package (``errors``, ``narrate``) does not load all of it (the
#: command line's ``--help`` stays instant).
_WHERE = {
    "Card": ".deck",
    "Deck": ".deck",
    "Ref": ".deck",
    "default_deck": ".deck",
    "load_deck": ".deck",
    "parse_deck": ".deck",
    "parse_ref": ".deck",
    "Event": ".engine",
    "Game": ".engine",
    "Placed": ".engine",
    "Verdict": ".engine",
    "InputError": ".errors",
    "EVENTS": ".messages",
    "REASONS": ".messages",
    "Options": ".options",
    "IN_ROUND_PHASES": ".state",
    "Phase": ".state",
}


__getattr__ = exports(__name__, _WHERE)

__all__ = [
    "EVENTS", "IN_ROUND_PHASES", "REASONS", "Card", "Deck", "Event", "Game", "InputError",
    "Options", "Phase", "Placed", "Ref", "Verdict", "default_deck", "load_deck", "parse_deck",
    "parse_ref",
]
