"""The referee's and the simulated players' shortcuts give the plain definitions' answers."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.complot import combos
from companion.complot.cards import NOE, default_deck
from companion.complot.engine import Game
from companion.complot.simulate import (
    _count_keys,
    _gain,
    _marks,
    _may_announce,
    _near,
    _worst_card,
)

DECK = default_deck()
CARDS = list(DECK)
MARKS = _marks(DECK)


def numbers(cards) -> tuple[int, ...]:
    """The cards' numbers inside the referee's table (their places in the deck)."""
    return MARKS.numbers(*(card.id for card in cards))


def two_trios_plainly(slots) -> bool:
    """C25 as written: some split of the six cards into two groups of three is two trios."""
    return any(combos._trio(*(slots[i] for i in first)) and combos._trio(*(slots[i] for i in rest))
               for first, rest in combos._SPLITS)


@pytest.mark.parametrize("rules", [combos.NORMAL, combos._ANY_JOKER_NOE, combos._VILLAINS_COUNT])
def test_c21_c27_the_quick_no_trio_test_never_hides_two_trios(rules):
    rng = random.Random(f"trios:{rules}")
    jokers = [card for card in CARDS if card.is_joker]
    groups = [[card for card in CARDS if key in (card.category, card.name)]
              for key in {key for card in CARDS for key in (card.category, card.name)}]
    for index in range(600):
        # two hands in three come from two categories or first names and up to two jokers:
        # the hands where the splits matter; the others are any six cards
        if index % 3 == 0:
            hand = rng.sample(CARDS, 6)
        else:
            wild = rng.sample(jokers, rng.randrange(3))
            pool = list({card.id: card for card in rng.choice(groups) + rng.choice(groups)
                         if not card.is_joker}.values())
            hand = wild + rng.sample(pool, min(len(pool), 6 - len(wild)))
            hand += rng.sample([card for card in CARDS if card not in hand], 6 - len(hand))
        slots = combos._slots(hand, rules)
        assert combos._two_trios(slots, combos._tally(slots)) == two_trios_plainly(slots), hand


def value_plainly(cards) -> int:
    """How well cards go together: squares of the category and first-name counts of the
    characters, and 6 for each joker."""
    characters = [card for card in cards if card.is_character]
    return (sum(n * n for n in Counter(card.category for card in characters).values())
            + sum(n * n for n in Counter(card.name for card in characters).values())
            + 6 * sum(1 for card in cards if card.is_joker))


def test_the_simulated_players_gain_is_the_difference_of_values():
    rng = random.Random("gain")
    for _ in range(2000):
        hand = rng.sample(CARDS, 7)
        top, rest = hand[0], hand[1:]
        assert _gain(*numbers([top]), _count_keys(numbers(rest), MARKS)[0], MARKS) == (
            value_plainly(hand) - value_plainly(rest))


def test_c31_c40_the_players_quick_test_never_hides_an_announcement():
    """``_may_announce`` is only a necessary test: whenever it says no, no word of C33 is
    made (a classic combination, Pulitzer, Étaré, either form of the Élysée); and each of
    its two halves, the Élysée's and the other words', never hides its own words."""
    rng = random.Random("announce")
    leaning = [  # pools where combinations are near: Noé, the Élysée's names, Alphas
        [card for card in CARDS if card.name == NOE or card.is_joker],
        [card for card in CARDS if card.name in combos.ELYSEE_NAMES or card.is_joker],
        [card for card in CARDS if card.category == "AL" or card.is_joker]]
    said_no = 0
    for index in range(1500):
        pool = CARDS if index % 4 == 0 else leaning[index % 4 - 1] + rng.sample(CARDS, 4)
        hand = rng.sample(pool, 6)
        near_elysee, near_other = _near(numbers(hand), MARKS, *_count_keys(numbers(hand), MARKS))
        if not near_elysee:
            assert combos.made("complot_elysee", hand) is None, hand
        if not near_other:
            assert all(combos.made(word, hand) is None for word in combos.CLAIMS
                       if word != "complot_elysee"), hand
        if not _may_announce(numbers(hand), MARKS):
            said_no += 1
            assert all(combos.made(word, hand) is None for word in combos.CLAIMS), hand
    assert said_no > 300  # the test is exercised, not vacuous


def test_c21_c25_with_two_or_three_jokers_the_quick_test_never_hides_a_classic_word():
    """With two jokers or more every card passes the trio test, so ``_near`` counts the real
    cards linked to another (two trios need three of the four, or a pair of the three):
    whenever it says no for such a hand, no classic combination, Pulitzer or Étaré is made,
    and it does say no to many of them."""
    rng = random.Random("jokers")
    jokers = [card for card in CARDS if card.is_joker]
    real = [card for card in CARDS if card.is_character]
    said_no = 0
    for index in range(1200):
        count = 2 + index % 3  # two, three or four jokers
        hand = rng.sample(jokers, count) + rng.sample(real, 6 - count)
        if not _near(numbers(hand), MARKS, *_count_keys(numbers(hand), MARKS))[1]:
            said_no += 1
            assert all(combos.made(word, hand) is None for word in combos.CLAIMS
                       if word != "complot_elysee"), [card.id for card in hand]
    assert said_no > 150


def worst_plainly(hand) -> list[str]:
    """The cards with the fewest characters sharing their category or first name (itself
    counted twice), a méchant first, a joker last."""
    characters = [card for card in hand if card.is_character]
    def links(card) -> float:
        if card.is_joker:
            return 100.0
        if not card.is_character:
            return -1.0
        return (sum(other.category == card.category for other in characters)
                + sum(other.name == card.name for other in characters))
    fewest = min(links(card) for card in hand)
    return [card.id for card in hand if links(card) == fewest]


def test_the_simulated_players_worst_card_is_the_least_connected():
    """Any of the least connected cards, each of them sometimes when they tie."""
    rng = random.Random("worst")
    ties = 0
    for _ in range(500):
        hand = rng.sample(CARDS, rng.choice((6, 7, 8)))
        worst = worst_plainly(hand)
        chosen = {MARKS.cards[_worst_card(MARKS, numbers(hand), random.Random(seed))].id
                  for seed in range(8 * len(worst))}
        assert chosen <= set(worst), hand
        if len(worst) > 1:
            ties += 1
            assert len(chosen) > 1, hand  # a tie is broken at random
    assert ties > 100


def test_c30_c41_the_players_counts_and_announcements_kept_are_those_of_their_hands():
    """``Players`` updates each seat's key counts by the card drawn or discarded instead of
    counting the hand again, and works out what a hand announces at the discard that makes
    it (for its owner's claim window, C30, and their next turn start, C41): at every move of
    a level-3 game (actions, attentats, new manches), the counts and the announcement it
    keeps for a seat holding that hand are the hand's own."""
    from companion.complot.simulate import Players, _announced

    game = Game(["Ana", "Ben", "Chloé"], level=3, seed="counts")
    players = Players(game, random.Random("counts"))
    counted = announced = 0
    while not game.is_over:
        hands = game.table.hands
        for seat, (hand, counts, jokers) in enumerate(players.counted):
            if hands and hand == hands[seat]:
                assert (counts, jokers) == _count_keys(hand, MARKS), (seat, hand)
                counted += 1
        for seat, (hand, known) in enumerate(players.announced):
            if hands and hand == hands[seat]:
                assert known == _announced(MARKS, hand, *_count_keys(hand, MARKS)), hand
                announced += 1
        assert game.push(game.action_dict(players.choose())).changed
    assert counted > 1000 and announced > 500
    with pytest.raises(StopIteration):  # the game is over: no move left
        players.choose()


class _TiedKeys(random.Random):
    """A generator whose random bytes are all zero: every card of a deal gets the same key."""

    def randbytes(self, n: int) -> bytes:
        return bytes(n)


@pytest.mark.parametrize("rng", [random.Random("deal"), _TiedKeys("deal")],
                         ids=["random keys", "all keys tied"])
def test_the_players_deal_is_shuffled_s_order_of_the_cards_as_numbers(rng):
    """The players' deal (sorted and picked in C) is :func:`shuffled`'s order of the game's
    card ids, as numbers, from the same random bytes: equal keys leave the cards in id order
    (not the deck's order, which differs), so seeded games stay those of ``shuffled``."""
    from companion.complot.simulate import Players, shuffled

    game = Game(["Ana", "Ben", "Chloé", "David"], level=3, seed="deal")
    players = Players(game, rng)  # (its Chances draw their first gaps)
    state = rng.getstate()
    dealt = players._shuffled()
    rng.setstate(state)
    expected = tuple(MARKS.number_of[card] for card in shuffled(game.in_play, rng))
    assert dealt == expected
    assert sorted(dealt) == sorted(MARKS.numbers(*game.in_play))
