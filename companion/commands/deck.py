"""``noah-companion deck show|check [FILE]``: print and validate a deck file (your box's cards).

A deck file is a CSV with one line per physical card (``species,gender,weight,tears,mark,promo``)
read by the rules engine; the sticker sheet and the referee use the same file. Errors name the
line and the field. ``deck show --csv`` prints a deck as such a file, a starting point for your
own (docs/stickers.md).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from companion.game.errors import shown

if TYPE_CHECKING:
    from companion.game.deck import Deck

#: Cards one round deals: 5 on the ferries and 8 per player (R8, R9).
DEAL_CARDS = {players: 5 + 8 * players for players in range(2, 6)}
VARIANTS: dict[str, dict[str, Any]] = {
    "": {}, " with frogs": {"frog": True}, " with crocodiles": {"crocodile": True},
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("deck", help="print or validate a deck file (your box's cards)")
    actions = parser.add_subparsers(dest="deck_action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print the cards of a deck and how many each game uses")
    show.add_argument("file", nargs="?", metavar="FILE",
                      help="deck CSV or 'default' (default: 'deck' in the config's [game])")
    show.add_argument("--csv", action="store_true",
                      help="print the deck as a CSV file, to save and edit as your own")
    show.set_defaults(func=show_deck)
    check = actions.add_parser("check", help="validate a deck file; errors name line and field")
    check.add_argument("file", metavar="FILE", help="the deck CSV to check")
    check.set_defaults(func=check_deck)


def _load(file: str | None) -> Deck:
    from companion.tags.tagged_deck import configured_tagged_deck, load_deck_file

    return configured_tagged_deck().deck if file is None else load_deck_file(file)


def show_deck(args: argparse.Namespace) -> int:
    deck = _load(args.file)
    if args.csv:
        print(deck.to_csv(), end="")
        return 0
    print(f"{'card':<16} {'gender':<6} {'weight':>6} {'tears':>5}  {'mark':<4}  promo")
    for card in deck:
        print(f"{card.id:<16} {card.gender:<6} {card.weight:>6} {card.tears:>5}  "
              f"{card.mark or '':<4}  {'yes' if card.promo else ''}")
    print()
    for line in _summary(deck):
        print(line)
    return 0


def check_deck(args: argparse.Namespace) -> int:
    deck = _load(args.file)
    print(f"{shown(args.file, limit=None)} is a valid deck file.")
    for line in _summary(deck):
        print(line)
    return 0


def _summary(deck: Deck) -> Iterator[str]:
    """Counts per gender and per game size, and every game size the deck cannot deal."""
    from companion.game.options import Options

    genders = {gender: sum(card.gender == gender for card in deck) for gender in "MFH"}
    promo = sum(card.promo for card in deck)
    yield (f"{len(deck)} cards: {genders['M']} male, {genders['F']} female, {genders['H']} snails"
           f"; {promo} promo.")
    for variant, flags in VARIANTS.items():
        if variant and not (deck.species() & {"frog", "crocodile"} & set(flags)):
            continue
        counts = {n: len(deck.for_game(n, Options(**flags))) for n in DEAL_CARDS}
        yield f"Cards in play{variant}: " + ", ".join(
            f"{n} players {count}" for n, count in counts.items()
        ) + "."
        for players, count in counts.items():
            if count < DEAL_CARDS[players]:
                yield (f"  Warning: {players} players{variant} need {DEAL_CARDS[players]} cards "
                       f"to deal a round (5 ferries + 8 each), but only {count} are in play.")
