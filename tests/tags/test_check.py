"""The bookkeeping of ``tags check``: each card once, doubles, foreign codes, bad stickers."""

from companion.tags.check import DeckCheck
from companion.tags.tagged_deck import load_tagged_deck

TAGGED = load_tagged_deck("default", "BOX1")
LIONS = [card for card in TAGGED.deck if card.species == "lion"]


def test_every_card_once_is_complete_and_ok():
    check = DeckCheck(TAGGED, LIONS)
    for number, card in enumerate(LIONS, start=1):
        assert not check.complete
        assert check.saw(TAGGED.encode(card.id), "camera").endswith(f"{number}/4")
    report = check.report()
    assert check.complete and report.ok
    assert list(report.lines())[-1].startswith("Every card was seen exactly once")


def test_a_card_outside_the_checked_species_is_ignored_not_a_problem():
    check = DeckCheck(TAGGED, LIONS)
    assert check.saw("NOAH1/BOX1/BEM1", "camera").endswith("(ignored).")
    report = check.report()
    assert (report.seen, report.problems, report.foreign) == (0, {}, {})


def test_doubles_foreign_codes_and_bad_stickers_are_reported_apart():
    check = DeckCheck(TAGGED, LIONS)
    for text, where in [("NOAH1/BOX1/LIM1", "a"), ("NOAH1/BOX1/LIM1", "b"),
                        ("hello", "b"), ("NOAH1/BOX1/LIM7", "c"), ("NOAH1/BOX1/LIM7", "d")]:
        check.saw(text, where)
    report = check.report()
    assert not report.ok
    assert [(card.id, where) for card, where in report.doubled] == [("lion:M#1", ["a", "b"])]
    assert report.foreign == {"hello": ["b"]}
    assert list(report.problems) == ["NOAH1/BOX1/LIM7"]
    assert report.problems["NOAH1/BOX1/LIM7"][1] == ["c", "d"]
    assert [card.id for card in report.missing] == ["lion:F#1", "lion:F#2", "lion:M#2"]


def test_long_foreign_texts_are_shortened_when_shown():
    check = DeckCheck(TAGGED)
    said = check.saw("x" * 500, "photo")
    assert len(said) < 80 and "…" in said
