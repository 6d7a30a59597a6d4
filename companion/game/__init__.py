"""The rules engine of Noah (Noé, Bombyx 2012): pure Python, standard library only, no I/O."""

from .deck import Card, Deck, Ref, default_deck, load_deck, parse_deck, parse_ref
from .errors import InputError
from .options import Options

__all__ = [
    "Card", "Deck", "InputError", "Options", "Ref", "default_deck", "load_deck", "parse_deck",
    "parse_ref",
]
