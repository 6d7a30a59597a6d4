"""Collecting a claim's laid-down cards from the hand camera's readings (C17, C33, C6)."""

import pytest

from companion.complot.cards import default_deck
from companion.complot.claim_reader import KINDS, ClaimReader, read_all
from companion.complot.engine import Game
from companion.complot.payload import encode
from vision.events import CameraState, CameraStatus, CardRemoved, CardShown, ForeignCode

DECK = default_deck()
LEONARDS = [card.id for card in DECK if card.category == "LE"]


def shown(text: str) -> CardShown:
    return CardShown(text, in_view=(text,), captured_at=1.0, latency=0.01, frame=1)


def test_c17_six_cards_read_complete_the_claim_in_the_order_read():
    reader = ClaimReader()
    kinds = [reader.on_event(shown(encode("BOX1", DECK[card]))).kind for card in LEONARDS]
    assert kinds == ["added"] * 5 + ["complete"]
    assert reader.cards == tuple(LEONARDS) and reader.complete


def test_c6_a_card_seen_twice_counts_once_and_is_said():
    reader = ClaimReader()
    reader.read("CPLT1/BOX1/LEEM")
    again = reader.read("CPLT1/BOX1/LEEM")
    assert (again.kind, again.added, reader.cards) == ("again", False, ("leonard:emma",))
    assert again.message("en") == "Emma (Léonard) was already read: it counts once."


def test_c6_noah_cards_foreign_codes_and_bad_stickers_are_ignored_with_a_reason():
    reader = ClaimReader()
    noah = reader.on_event(ForeignCode("NOAH1/BOX1/CAF2", captured_at=1.0, latency=0.0, frame=2))
    foreign = reader.read("https://example.com/\x1b[2J")
    other_box = reader.read("CPLT1/ZOO7/LEEM")
    assert (noah.kind, foreign.kind, other_box.kind) == ("noah", "foreign", "unusable")
    assert other_box.reason == "other_deck" and "ZOO7" in other_box.message("en")
    assert "\x1b" not in foreign.message("en")
    assert reader.cards == ()


def test_only_cards_shown_and_foreign_codes_are_readings():
    reader = ClaimReader()
    assert reader.on_event(CardRemoved("CPLT1/BOX1/LEEM", in_view=(), shown_for=1.0,
                                       captured_at=1.0, latency=0.0, frame=3)) is None
    assert reader.on_event(CameraStatus(CameraState.OK, "ok", at=1.0)) is None


def test_a_seventh_card_is_refused_until_one_is_taken_back():
    reader = ClaimReader()
    for card in LEONARDS:
        reader.add_card(card)
    assert reader.add_card("empires:noe").kind == "full"
    assert reader.remove_card("leonard:sally") and not reader.remove_card("leonard:sally")
    assert reader.add_card("empires:noe").kind == "complete"
    assert reader.add_card("nobody:here").kind == "unknown_card"
    reader.clear()
    assert reader.cards == ()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("language", ["fr", "en", "zh"])
def test_every_reading_has_a_sentence_in_each_language(kind, language):
    reader = ClaimReader()
    reading = reader._reading(kind, DECK["leonard:emma"], text="CPLT1/BOX1/LEEM",
                              problem="abîmée.")
    sentence = reading.message(language)
    assert sentence and "{" not in sentence


def test_c33_the_cards_read_are_the_claim_the_referee_judges():
    game = Game(["Ana", "Ben"], level=1, dealer=1)
    game.push({"type": "deal", "order": list(DECK.ids()[:79])})
    game.push({"type": "draw", "player": 0, "from": "defausse"})
    game.push({"type": "discard", "player": 0, "card": "enqueteurs:david"})
    hand = game.hand(0)  # player 0 may announce right after the discard (C30)
    texts = [encode("BOX1", DECK[card]) for card in reversed(hand)]
    cards = read_all([*texts, "NOAH1/BOX1/CAF2", texts[0]])
    assert sorted(cards) == sorted(hand)
    verdict = game.check({"type": "claim", "player": 0, "claim": "complot", "cards": cards})
    assert verdict.code == "claim_not_met"  # judged on the cards read: this hand makes nothing


def test_the_deck_check_bench_reads_stickers_through_the_camera_path():
    """``bench complot``'s deck-check timing: real pipeline, tracker and DeckCheck."""
    from companion.complot.bench import measure_deck_check

    figures = measure_deck_check(1)
    assert figures["deck_check_ok"] and figures["deck_check_cards"] == 1
    assert figures["deck_check_s_per_card"] > 0


@pytest.mark.parametrize(("language", "category", "problem"), [
    ("fr", "État-Major", "autre boîte"), ("en", "General Staff", "another box"),
    ("zh", "參謀部", "ZOO7")])
def test_c6_readings_name_the_category_in_the_tables_language(language, category, problem):
    """The first name stays French, the category is the table's word (docs/complot.md,
    "Names on the screens"); a sticker's problem is said in that language too."""
    reader = ClaimReader()
    assert f"Sophie ({category})" in reader.add_card("etat-major:sophie").message(language)
    assert f"Sophie ({category})" in reader.add_card("etat-major:sophie").message(language)
    assert problem in reader.read("CPLT1/ZOO7/LEEM").message(language)
