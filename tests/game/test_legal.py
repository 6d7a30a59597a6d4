"""legal.py: the store of shared actions is bounded, and bounding it changes no game (issue 13).
"""

from __future__ import annotations

import random

import pytest

from companion.game import Game, Options, legal
from companion.game.actions import Give, Play
from companion.game.legal import SharedActions
from companion.game.simulate import play_random_game
from tests.game.support import rejected, table


def _histories(count: int) -> list[tuple[object, ...]]:
    histories = []
    for index in range(count):
        game = Game(["Ana", "Ben", "Chloé", "Dan"], Options(frog=True, crocodile=True))
        play_random_game(game, random.Random(f"bounded:{index}"), check=False)
        histories.append(game.history)
    return histories


def test_a_tiny_store_plays_the_same_games_and_stays_within_its_bound(monkeypatch):
    unbounded = SharedActions(limit=10**9)
    monkeypatch.setattr(legal, "SHARED", unbounded)
    expected = _histories(3)
    assert unbounded.size > 1_000  # the games do use the store

    tiny = SharedActions(limit=100)
    sizes = []
    keep = tiny.keep

    def watched_keep(table, key, value):
        made = keep(table, key, value)
        sizes.append(tiny.size)
        return made

    monkeypatch.setattr(tiny, "keep", watched_keep)
    monkeypatch.setattr(legal, "SHARED", tiny)
    assert _histories(3) == expected
    assert sizes and max(sizes) <= 100
    assert sum(len(table) for table in tiny.tables.values()) + len(tiny.objects) <= 100


def test_the_default_store_has_a_bound():
    assert 0 < legal.SHARED.limit <= 100_000


@pytest.mark.parametrize("card", ["cat:F#99", "cat:X", "unicorn:F"])
def test_a_refused_card_is_not_remembered_as_checked(card):
    """R51: only plays that passed the card checks are memoised, so refusals keep their reason
    and the memo is bounded by the cards in play."""
    game = table({0: ("bear:M",)}, [("cat:F", "lion:M"), ("rhino:M",)])
    before = dict(game._cards.cards_named)
    reason = "bad_action" if card != "cat:F#99" else "unknown_card"
    rejected(game, Play(0, card, 0), reason)
    rejected(game, Play(0, card, 0), reason)
    assert card not in game._cards.cards_named and game._cards.cards_named.keys() >= before.keys()


@pytest.mark.parametrize("owed", [1, 2])
def test_shared_gives_are_every_choice_in_order(monkeypatch, owed):
    """R20: gives of one or two cards come from rows shared between games, built or found,
    and are exactly gift_choices' gives, in its order."""
    monkeypatch.setattr(legal, "SHARED", SharedActions())
    hand = ("rhino:F", "cat:M", "bear:F", "lion:M", "woodpecker:F")
    expected = [Give(2, choice) for choice in legal.gift_choices(hand, (0, 1, 3), owed)]
    built = legal._shared_gifts(2, (0, 1, 3), sorted(hand), owed)
    found = legal._shared_gifts(2, (0, 1, 3), sorted(hand), owed)
    assert built == found == expected
    assert all(a is b for a, b in zip(built, found, strict=True))
