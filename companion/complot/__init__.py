"""The rules engine of «Noé, Complot à l'Élysée» (RULINGS-COMPLOT.md): standard library only, no
I/O. See docs/complot.md.

>>> from companion.complot import Game, check_claim
>>> Game(["Ana", "Ben"]).phase
'deal'
"""

from .native import install

# The compiled build of the engine and players when ./run.sh setup made one from exactly
# these sources (companion.complot.native); the same games either way.
install(__path__)

from .cards import Card, Deck, default_deck, parse_deck  # noqa: E402
from .engine import Game, Verdict  # noqa: E402
from .judge import check_action, check_claim, check_defence, check_payload, score_manche  # noqa: E402

__all__ = [
    "Card", "Deck", "Game", "Verdict", "check_action", "check_claim", "check_defence",
    "check_payload", "default_deck", "parse_deck", "score_manche",
]
