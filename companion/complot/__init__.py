"""The rules engine of «Noé, Complot à l'Élysée» (RULINGS-COMPLOT.md): standard library only, no
I/O. See docs/complot.md.

>>> from companion.complot import Game, check_claim
>>> Game(["Ana", "Ben"]).phase
'deal'
"""

from .cards import Card, Deck, default_deck, parse_deck
from .engine import Game, Verdict
from .judge import check_action, check_claim, check_defence, check_payload, score_manche

__all__ = [
    "Card", "Deck", "Game", "Verdict", "check_action", "check_claim", "check_defence",
    "check_payload", "default_deck", "parse_deck", "score_manche",
]
