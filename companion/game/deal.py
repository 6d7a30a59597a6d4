"""Random deals for simulations and the demo (R7-R9): the table's choices made at random."""

from __future__ import annotations

import random

from .actions import StartRound
from .deck import FERRY_CARDS, HAND_SIZE
from .engine import Game
from .sizes import FERRY_COUNT


def random_start_round(game: Game, rng: random.Random) -> StartRound:
    """A shuffled deal of the game's cards for its next round.

    Noah's ferry, the sides of snails laid on ferries and (round 1 only) the starter are drawn
    from ``rng``; hands are given with known hands, counts with hidden hands.

    >>> from companion.game import Options
    >>> game = Game(["Ana", "Ben", "Chloé"], Options())
    >>> deal = random_start_round(game, random.Random(7))
    >>> game.push(deal).accepted, [len(hand) for hand in deal.hands]
    (True, [8, 8, 8])
    """
    cards = list(game.cards_in_play.refs)
    rng.shuffle(cards)
    ferries = tuple(
        f"snail:{rng.choice('MF')}" if ref == "snail" else ref for ref in cards[:FERRY_CARDS]
    )
    players = len(game.players)
    hands = tuple(
        tuple(cards[FERRY_CARDS + seat * HAND_SIZE : FERRY_CARDS + (seat + 1) * HAND_SIZE])
        for seat in range(players)
    )
    hidden = game.options.hidden
    return StartRound(
        noah=rng.randrange(FERRY_COUNT),
        ferries=ferries,
        hands=None if hidden else hands,
        hand_counts=(HAND_SIZE,) * players if hidden else None,
        starter=rng.randrange(players) if game.round == 0 else None,
    )
