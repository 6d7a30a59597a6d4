"""The referee's quicker paths (issue 21) give the plain definitions' answers: a trio worked
out without comprehensions (C20–C27), a deal sliced instead of dealt one card at a time
(C11, C81)."""

from __future__ import annotations

import random
from itertools import product

import pytest

from companion.complot import combos
from companion.complot.actions import Deal
from companion.complot.cards import NOE, default_deck
from companion.complot.engine import HAND, Game


def plain_trio(a, b, c) -> bool:
    """C21–C24, C27 as first written: the real cards share a category or a first name,
    no méchant, and only a joker that may stand for Noé fills Noé's trio."""
    real = [slot for slot in (a, b, c) if slot[0] is not None]
    if len(real) <= 1:
        return real == [] or real[0][0] != "-"
    categories = {slot[0] for slot in real}
    if "-" in categories:
        return False
    if len(categories) == 1:
        return True
    names = {slot[1] for slot in real}
    if len(names) != 1:
        return False
    return names != {NOE} or all(slot[2] for slot in (a, b, c) if slot[0] is None)


def slot(category, name, noe=False):
    return (category, name, noe, f"/{name}", 0)


#: Every kind of card three cards can hold, up to renaming: three categories × three first
#: names (Noé among them), a méchant that does not count, and both kinds of joker.
KINDS = [slot(category, name) for category, name in product(("LE", "DU", "SE"),
                                                              ("SA", "MX", NOE))]
KINDS += [slot("-", None), slot(None, None, False), slot(None, None, True)]


def test_c20_c27_a_trio_is_the_plain_definition_s_for_every_kind_of_three_cards():
    for a, b, c in product(KINDS, repeat=3):
        assert combos._trio(a, b, c) == plain_trio(a, b, c), (a, b, c)


def test_c20_c27_a_trio_is_the_plain_definition_s_on_the_deck_s_cards_under_each_rule():
    deck = list(default_deck())
    rules = (combos.NORMAL, combos._ANY_JOKER_NOE, combos._VILLAINS_COUNT)
    rng = random.Random(21)
    for _ in range(3000):
        rule = rng.choice(rules)
        three = [combos._slot(card, rule) for card in rng.sample(deck, 3)]
        assert combos._trio(*three) == plain_trio(*three), three


def dealt_one_by_one(order, players, dealer):
    """C11 as the rulebook says it: one card at a time, clockwise from the dealer's left."""
    pioche = list(order)[::-1]
    hands = [[] for _ in range(players)]
    for _ in range(HAND):
        for step in range(players):
            hands[(dealer + 1 + step) % players].append(pioche.pop())
    return hands, pioche


@pytest.mark.parametrize(("players", "dealer", "level"), [(2, 0, 1), (3, 2, 2), (4, 1, 3),
                                                          (6, 5, 3)])
def test_c11_c81_a_sliced_deal_is_the_deal_one_card_at_a_time(players, dealer, level):
    game = Game(["P"] * players, level=level, dealer=dealer)
    order = [game.card_numbers[card_id] for card_id in game.in_play]
    random.Random(players).shuffle(order)
    game.push_legal(Deal(tuple(order)))
    hands, pioche = dealt_one_by_one(order, players, dealer)
    table = game.table
    if level < 3:  # no Attentat to set aside (C81): the hands as dealt, one turned up
        assert table.hands == tuple(map(tuple, hands))
        assert table.pioche + table.defausse == tuple(pioche)
    else:  # C81: no Attentat in any hand, and every card somewhere once
        assert not any(game.is_attentat[card] for hand in table.hands for card in hand)
        assert all(len(hand) == HAND for hand in table.hands)
    assert game.missing_cards() is None
