"""The rules engine of Noah (Noé, Bombyx 2012): pure Python, standard library only, no I/O.

>>> game = Game(["Ana", "Ben", "Chloé"], Options(hidden=True))
>>> game.phase, game.round
('round_over', 0)
"""

from .deck import Card, Deck, Ref, default_deck, load_deck, parse_deck, parse_ref
from .engine import Event, Game, Placed, Verdict
from .errors import InputError
from .messages import EVENTS, REASONS
from .options import Options
from .state import IN_ROUND_PHASES, Phase

__all__ = [
    "EVENTS", "IN_ROUND_PHASES", "REASONS", "Card", "Deck", "Event", "Game", "InputError",
    "Options", "Phase", "Placed", "Ref", "Verdict", "default_deck", "load_deck", "parse_deck",
    "parse_ref",
]
