"""The sticker payload: QR version 1 at level Q, strict and total classification (docs/tags.md)."""

import pytest
import segno
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import UserError
from companion.game.deck import Card, default_deck, parse_deck
from companion.tags.payload import (
    MAX_TEXT_LENGTH,
    SPECIES_CODES,
    Foreign,
    TagError,
    TagOk,
    check_deck_id,
    classify,
    encode,
    is_ours,
)
from companion.tags.sticker import make_qr

DECK = default_deck()
QR_ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")


@pytest.mark.parametrize("card", DECK, ids=lambda card: card.id)
def test_every_default_card_fits_qr_version_1_at_level_q(card):
    text = encode("BOX1", card)
    assert set(text) <= QR_ALPHANUMERIC
    qr = segno.make_qr(text, error="q", version=1)  # raises if it does not fit
    assert (qr.version, qr.error, qr.mode, qr.is_micro) == (1, "Q", "alphanumeric", False)
    assert make_qr(text).designator == "1-Q"


def test_every_card_of_the_default_deck_round_trips_and_payloads_are_distinct():
    texts = [encode("BOX1", card) for card in DECK]
    assert len(set(texts)) == len(DECK)
    assert [classify(text, DECK, "BOX1") for text in texts] == [TagOk(card) for card in DECK]


def test_a_two_digit_copy_still_fits_version_1():
    box = parse_deck("species,gender,weight,tears,mark,promo\n" + "crocodile,F,6,0,,yes\n" * 12)
    text = encode("ZZ99", box[-1])
    assert text == "NOAH1/ZZ99/CRF12"
    assert segno.make_qr(text, error="q", version=1).designator == "1-Q"
    assert classify(text, box, "ZZ99") == TagOk(box[-1])


def test_species_codes_cover_every_species_and_are_distinct():
    from companion.game.deck import SPECIES

    assert set(SPECIES_CODES) == set(SPECIES)
    assert len(set(SPECIES_CODES.values())) == len(SPECIES)


def test_a_card_stickers_cannot_name_is_refused_with_a_message():
    with pytest.raises(UserError, match="copy number 100"):
        encode("BOX1", Card("cat", "F", 2, 1, copy=100))


@pytest.mark.parametrize(
    "text",
    ["", "https://example.com/noah", "NOAH'S ARK", "NOAH", "NOAH1", "NOAHX/BOX1/CAF2",
     "noah1/box1/caf2", " NOAH1/BOX1/CAF2", "4006381333931", "NOAH1234/BOX1/CAF2",
     "x" * 10_000, "NOÉ1/BOX1/CAF2"],
)
def test_texts_that_are_not_ours_are_foreign(text):
    assert classify(text, DECK, "BOX1") == Foreign(text)
    assert not is_ours(text)


@pytest.mark.parametrize(
    ("text", "reason", "words"),
    [
        ("NOAH2/BOX1/CAF2", "version", "newer version"),
        ("NOAH0/BOX1/CAF2", "version", "unknown format"),
        ("NOAH1/BOX1/XXF2", "malformed", "damaged"),
        ("NOAH1/BOX1/CAX2", "malformed", "damaged"),
        ("NOAH1/BOX1/CAF0", "malformed", "damaged"),
        ("NOAH1/BOX1/CAF", "malformed", "damaged"),
        ("NOAH1/BOX1/CAF2 ", "malformed", "damaged"),
        ("NOAH1/BOX1/CAF2\n", "malformed", "damaged"),
        ("NOAH1/", "malformed", "damaged"),
        ("NOAH1/BOX/CAF2", "malformed", "damaged"),
        ("NOAH1/ZOO7/CAF2", "other_deck", "belongs to deck ZOO7, not to this deck (BOX1)"),
        ("NOAH1/BOX1/CAF9", "unknown_card", "cat ♀ copy 9, but the deck has no such card"),
        ("NOAH1/BOX1/SNM1", "unknown_card", "snail ♂ copy 1"),
        ("NOAH1/" + "A" * MAX_TEXT_LENGTH, "too_long", "too long"),
    ],
)
def test_bad_stickers_of_ours_get_a_reason_and_a_clear_message(text, reason, words):
    tag = classify(text, DECK, "BOX1")
    assert isinstance(tag, TagError)
    assert (tag.text, tag.reason) == (text, reason)
    assert words in tag.message
    assert tag.message.rstrip().endswith(".")  # a whole sentence, saying what to do
    assert is_ours(text)


def test_a_frog_sticker_is_unknown_to_a_deck_without_frogs():
    no_promo = [card for card in DECK if not card.promo]
    frog = DECK["frog:F#1"]
    assert classify(encode("BOX1", frog), no_promo, "BOX1").reason == "unknown_card"


@given(st.text(max_size=300))
def test_classification_is_total_any_text_gives_one_answer(text):
    tag = classify(text, DECK, "BOX1")
    assert isinstance(tag, Foreign | TagOk | TagError)
    assert isinstance(tag, Foreign) == (not is_ours(text))


@given(st.text(alphabet="NOAH0123456789/BOXCAFMH ", max_size=40))
def test_near_misses_never_raise_and_only_exact_payloads_are_cards(text):
    tag = classify(text, DECK, "BOX1")
    if isinstance(tag, TagOk):
        assert text == encode("BOX1", tag.card)


@pytest.mark.parametrize("deck_id", ["", "BOX", "BOX12", "BO-1", "ÉTÉ1", "BOX 1"])
def test_bad_deck_ids_are_refused_with_an_example(deck_id):
    with pytest.raises(UserError, match="four letters or digits"):
        check_deck_id(deck_id)


def test_deck_ids_are_upper_cased():
    assert check_deck_id(" zoo7 ") == "ZOO7"
    assert encode("zoo7", DECK[0]).startswith("NOAH1/ZOO7/")
