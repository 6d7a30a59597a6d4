"""The deck as data (R1, R2, R5, R6), card references and options."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.game import (
    Card,
    Game,
    InputError,
    Options,
    default_deck,
    load_deck,
    parse_deck,
    parse_ref,
)
from companion.game.actions import Give, Play, action_from_dict, action_to_dict

HEADER = "species,gender,weight,tears,mark,promo\n"


def test_r1_default_deck_has_47_animals_with_published_weights_and_tears():
    animals = [card for card in default_deck() if not card.promo]
    assert len(animals) == 47
    copies = Counter(card.species for card in animals)
    assert copies == {"woodpecker": 2, "parrot": 6, "snail": 5, "cat": 6, "kangaroo": 6,
                      "panda": 6, "lion": 4, "donkey": 4, "bear": 2, "giraffe": 2, "rhino": 2,
                      "elephant": 2}
    weights = {card.species: (card.weight, card.tears) for card in default_deck()}
    assert weights["panda"] == (4, 4) and weights["elephant"] == (10, 0)
    assert weights["frog"] == (1, 5) and weights["crocodile"] == (6, 0)  # R43, R44


def test_r2_default_genders_21_males_21_females_5_snails():
    genders = Counter(card.gender for card in default_deck() if not card.promo)
    assert genders == {"M": 21, "F": 21, "H": 5}


@pytest.mark.parametrize(("players", "size"), [(2, 31), (3, 31), (4, 39), (5, 47)])
def test_r5_marked_cards_leave_the_game_by_player_count(players, size):
    deck = default_deck()
    in_game = deck.for_game(players, Options())
    assert len(in_game) == size
    assert len(in_game) + len(deck.removed_for(players, Options())) == len(deck)


def test_r6_frogs_replace_snails_and_crocodiles_replace_donkeys():
    deck = default_deck().for_game(5, Options(frog=True, crocodile=True))
    species = Counter(card.species for card in deck)
    assert species["snail"] == species["donkey"] == 0
    assert species["frog"] == 3 and species["crocodile"] == 2
    assert "frog" not in default_deck().for_game(5, Options()).species()


def test_r6_a_deck_too_small_to_deal_is_refused():
    with pytest.raises(InputError, match="needs 45 animals"):
        Game(["A", "B", "C", "D", "E"], Options(frog=True, crocodile=True))
    Game(["A", "B", "C", "D", "E"], Options(frog=True))  # exactly 45


def test_copies_are_numbered_within_species_and_gender_in_file_order():
    deck = default_deck()
    assert [card.id for card in deck if card.species == "cat"] == [
        "cat:M#1", "cat:F#1", "cat:M#2", "cat:F#2", "cat:F#3", "cat:M#3"]
    assert deck["snail#5"].mark == "5+"
    assert Card("cat", "F", 2, 1, copy=2).ref == "cat:F"


def test_deck_round_trips_through_csv(tmp_path):
    path = tmp_path / "box.csv"
    path.write_text(default_deck().to_csv(), encoding="utf-8")
    assert load_deck(path) == default_deck()


@pytest.mark.parametrize(("row", "field"), [
    ("dragon,M,2,1,,no", "species"),
    ("cat,X,2,1,,no", "gender"),
    ("snail,M,1,2,,no", "gender"),
    ("cat,M,two,1,,no", "weight"),
    ("cat,M,2,-1,,no", "tears"),
    ("cat,M,2,1,6+,no", "mark"),
    ("cat,M,2,1,,maybe", "promo"),
    ("frog,M,1,5,,no", "promo"),
])
def test_deck_errors_name_the_line_and_field(row, field):
    with pytest.raises(InputError) as error:
        parse_deck(HEADER + "cat,F,2,1,,no\n" + row + "\n", "box.csv")
    assert error.value.line == 3 and error.value.field == field
    assert str(error.value).startswith("box.csv, line 3:")


def test_every_card_of_a_species_weighs_the_same():
    with pytest.raises(InputError, match="line 2 says 2 and 1") as error:
        parse_deck(HEADER + "cat,F,2,1,,no\ncat,M,3,1,,no\n")
    assert (error.value.line, error.value.field) == (3, "weight")


def test_deck_header_and_file_errors(tmp_path):
    with pytest.raises(InputError, match="lacks tears"):
        parse_deck("species,gender,weight,mark,promo\n")
    with pytest.raises(InputError, match="lists no cards"):
        parse_deck(HEADER)
    with pytest.raises(InputError, match="Cannot read the deck file"):
        load_deck(tmp_path / "missing.csv")


def test_card_references_parse_with_clear_errors():
    assert parse_ref("cat:F#2") == ("cat", "F", 2)
    assert parse_ref("snail#3") == ("snail", None, 3)
    assert parse_ref("snail:M") == ("snail", "M", None)
    for bad, words in [("rhinoceros:M", "no known animal"), ("cat", "no gender"),
                       ("cat:F#x", "copy number"), ("cat:H", "use M or F")]:
        with pytest.raises(InputError, match=words):
            parse_ref(bad)


def test_options_round_trip_and_validation():
    options = Options(hidden=True, frog=True, end_rule="score26")
    assert Options.from_dict({**options.to_dict(), "future": 1}) == options
    with pytest.raises(InputError, match="end_rule"):
        Options(end_rule="forever")
    with pytest.raises(InputError, match="true or false"):
        Options(hidden="yes")


def test_actions_convert_to_and_from_log_objects():
    play = Play(0, "snail", 3, as_gender="F")
    assert action_to_dict(play) == {"type": "play", "player": 0, "card": "snail", "ferry": 3,
                                    "as": "F"}
    assert action_from_dict(action_to_dict(play)) == play
    give = action_from_dict({"type": "give", "player": 1, "gifts": [{"to": 0, "card": "cat:M"}]})
    assert give == Give(1, (give.gifts[0],)) and give.gifts[0].card == "cat:M"
    with pytest.raises(InputError, match="Unknown action type"):
        action_from_dict({"type": "dance"})
    with pytest.raises(InputError, match="lacks a field"):
        action_from_dict({"type": "play", "player": 0})
