"""The deck as data (C1–C7), deck files, sticker payloads (C6) and the grades (C64)."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.complot.cards import default_deck, parse_deck
from companion.complot.engine import Game
from companion.complot.judge import check_claim
from companion.complot.payload import classify, encode, is_ours
from companion.game.errors import InputError
from companion.tags.payload import Foreign
from companion.tags.payload import classify as classify_noah

DECK = default_deck()


def test_c2_c3_the_character_table_counts():
    """C2: 74 characters in 10 categories with the rulebook's counts, 26 first names; C3: the
    corrected Famille Duron column (Camille, Clara, David, Jacquotte in; Karl out)."""
    characters = [card for card in DECK if card.is_character]
    assert len(characters) == 74
    assert Counter(card.category for card in characters) == {
        "EM": 9, "EN": 9, "ES": 15, "LE": 6, "AL": 5, "SE": 6, "EP": 7, "PO": 3, "JO": 3,
        "DU": 11}
    assert len({card.first_name for card in characters}) == 26
    duron = {card.first_name for card in characters if card.category == "DU"}
    assert {"Camille", "Clara", "David", "Jacquotte"} <= duron and "Karl" not in duron
    few = {name for name, count in Counter(card.first_name for card in characters).items()
           if count < 3}
    assert few == {"Sally", "Sandy", "Susy", "Marc", "Naomie", "Rose", "Camille", "Estelle",
                   "Elena", "Etienne", "Franck", "Sindy", "Jacquotte"}
    assert len({card.id for card in DECK}) == 93


def test_c4_c5_jokers_and_villains():
    """C4: five Archanges, no category, grade or action of their own; C5: 14 méchants, the
    red and violet spies are not Espions characters."""
    jokers = [card for card in DECK if card.is_joker]
    assert [card.first_name for card in jokers] == ["Noé", "Gabrielle", "Ismaëlle", "Igor",
                                                    "Sarah"]
    assert all(card.grade is None for card in jokers)
    villains = Counter(card.category for card in DECK if card.is_villain)
    assert villains == {"AT": 5, "RO": 3, "VI": 3, "PB": 3}
    assert DECK["espion-rouge:olga"].category != "ES"


def test_c7_the_abigail_replacement_card_is_senechales_abigail():
    """C7: SEAB counts for Abigaïl and for Sénéchales, and for nothing else."""
    card = DECK["senechales:abigail"]
    assert encode("BOX1", card) == "CPLT1/BOX1/SEAB" and card.grade is None
    abigails = ["senechales:abigail", "etat-major:abigail", "espions:abigail",
                "leonard:amelie", "leonard:arthur", "leonard:clara"]
    assert check_claim({"level": 1, "cards": abigails, "claim": "complot"})["accepted"]


def test_c21_trio_by_category_whatever_the_first_names():
    """C21: three Pompiers (three first names) are a trio."""
    cards = ["pompiers:camille", "pompiers:clara", "pompiers:etienne", "journalistes:emma",
             "journalistes:estelle", "journalistes:marc"]
    assert check_claim({"level": 1, "cards": cards, "claim": "complot"})["points"] == 15


def test_c6_noah_and_complot_stickers_never_mix():
    """C6: a Complot sticker is foreign to Noah's codec and a Noah sticker to Complot's."""
    from companion.game.deck import default_deck as noah_deck

    assert isinstance(classify_noah("CPLT1/BOX1/EPNO", noah_deck(), "BOX1"), Foreign)
    assert isinstance(classify("NOAH1/BOX1/CAF2"), Foreign)
    assert is_ours("CPLT1/BOX1/EPNO") and not is_ours("NOAH1/BOX1/CAF2")
    assert all(len(encode("BOX1", card)) == 15 for card in DECK)
    assert classify("CPLT1/BOX1/EPNO", DECK, "ZOO7").reason == "other_deck"


def test_c6_deck_files_are_checked_with_clear_errors():
    """C6/C2: a deck file line names a category and a first-name code; errors say the line."""
    for text, words in (("QQ,NO\n", "not a category code"), ("EP,N0\n", "first-name code"),
                        ("AT,XX\n", "is new"), ("EP\n", "is not"), ("# nothing\n", "no card"),
                        ("EP,NO\nEP,NO\n", "Line 2")):
        with pytest.raises(InputError, match=words):
            parse_deck(text)
    deck = parse_deck("AT,XA,Xenia\nEP,NO\n")
    assert classify("CPLT1/BOX1/ATXA", deck).card.id == "attentat:xenia"


def test_c57_each_manche_passes_the_deal():
    """C57/C12: a «partie» is a manche: the deal passes clockwise after each one."""
    game = Game(["A", "B"], dealer=1)
    leonards = [card.id for card in DECK if card.category == "LE"]
    dealers = []
    for _ in range(3):
        first = (game.dealer + 1) % 2
        rest = [card for card in game.in_play if card not in leonards]
        hands = {first: [*leonards[:5], rest[0]], 1 - first: rest[1:7]}
        order = [hands[seat][r] for r in range(6) for seat in (first, 1 - first)]
        order += [leonards[5], *(card for card in rest[7:])]
        assert game.push({"type": "deal", "order": order}).accepted
        dealers.append(game.dealer)
        game.push({"type": "draw", "player": first, "from": "defausse"})
        game.push({"type": "discard", "player": first, "card": rest[0]})
        assert game.push({"type": "claim", "player": first, "claim": "complot"}).points == 50
    assert dealers == [1, 0, 1] and game.dealer == 0 and game.scores == (100, 50)
