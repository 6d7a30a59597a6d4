"""The sticker envelope shared by the games: ``MAGIC<v>/<deck>/<body>`` (docs/tags.md, C6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.complot import payload as complot
from companion.complot.cards import default_deck as complot_deck
from companion.game.deck import default_deck as noah_deck
from companion.tags import payload as noah
from companion.tags.envelope import (
    MAX_TEXT_LENGTH,
    Broken,
    Foreign,
    Sealed,
    TagError,
    is_ours,
    open_envelope,
)

NOAH_TEXTS = [noah.encode("BOX1", card) for card in noah_deck()]
COMPLOT_TEXTS = [complot.encode("BOX1", card) for card in complot_deck()]


@pytest.mark.parametrize("text", COMPLOT_TEXTS[::7])
def test_c6_a_complot_sticker_is_foreign_to_the_noah_referee(text):
    assert noah.classify(text, noah_deck(), "BOX1") == Foreign(text)
    assert not noah.is_ours(text)


@pytest.mark.parametrize("text", NOAH_TEXTS[::5])
def test_c6_a_noah_sticker_is_foreign_to_the_complot_referee(text):
    assert complot.classify(text, complot_deck()) == Foreign(text)
    assert not complot.is_ours(text)


def test_c6_every_sticker_of_either_game_is_ok_only_for_its_own_game():
    assert all(isinstance(noah.classify(t, noah_deck()), noah.TagOk) for t in NOAH_TEXTS)
    assert all(isinstance(complot.classify(t), complot.TagOk) for t in COMPLOT_TEXTS)
    assert all(isinstance(noah.classify(t, noah_deck()), Foreign) for t in COMPLOT_TEXTS)
    assert all(isinstance(complot.classify(t), Foreign) for t in NOAH_TEXTS)


def test_the_two_codecs_share_the_envelope_result_types():
    assert noah.Foreign is complot.Foreign is Foreign
    assert noah.TagError is complot.TagError is TagError


@pytest.mark.parametrize("text", ["CPLT1/BOX1/EP\x00NO", "CPLT1/BOX1/EPNO\r", "CPLT1/BOX1/\x1b[2J",
                                  "CPLT1/BOX1/EP\x85O", "NOAH1/BOX1/CAF2\n"])
def test_control_characters_make_one_of_ours_malformed(text):
    magic = text[:4]
    assert open_envelope(text, magic, 1) == Broken("malformed")
    module = complot if magic == "CPLT" else noah
    tag = module.classify(text, complot_deck() if magic == "CPLT" else noah_deck())
    assert isinstance(tag, TagError) and tag.reason == "malformed"
    assert "\x1b" not in tag.message and "\x00" not in tag.message


@pytest.mark.parametrize(("text", "expected"), [
    ("CPLT1/BOX1/EPNO", Sealed("BOX1", "EPNO")),
    ("CPLT1/BOX1/", Broken("malformed")),
    ("CPLT1/BOX1/EP/NO", Broken("malformed")),
    ("CPLT1/BOX/EPNO", Broken("malformed")),
    ("CPLT0/BOX1/EPNO", Broken("version", 0)),
    ("CPLT999/BOX1/EPNO", Broken("version", 999)),
    ("CPLT001/BOX1/EPNO", Broken("malformed")),
    ("CPLT1234/BOX1/EPNO", Foreign("CPLT1234/BOX1/EPNO")),
    ("cplt1/BOX1/EPNO", Foreign("cplt1/BOX1/EPNO")),
    (" CPLT1/BOX1/EPNO", Foreign(" CPLT1/BOX1/EPNO")),
    ("CPLT1/BOX1/" + "E" * 22, Broken("too_long")),
])
def test_the_envelope_is_strict(text, expected):
    assert open_envelope(text, "CPLT", 1) == expected


@given(st.text(max_size=3 * MAX_TEXT_LENGTH))
def test_the_envelope_is_total_and_agrees_with_is_ours(text):
    for magic in ("NOAH", "CPLT"):
        opened = open_envelope(text, magic, 1)
        assert isinstance(opened, Foreign | Sealed | Broken)
        assert is_ours(text, magic) == (not isinstance(opened, Foreign))


@given(st.sampled_from(["NOAH1/", "CPLT1/"]), st.text(max_size=40))
def test_both_codecs_are_total_on_texts_with_our_magic(prefix, rest):
    text = prefix + rest
    assert isinstance(noah.classify(text, noah_deck()), Foreign | noah.TagOk | TagError)
    assert isinstance(complot.classify(text), Foreign | complot.TagOk | TagError)
