"""The app's words and settings, without Kivy: catalogs, prompts in French, [ui] validation."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

from companion.errors import UserError
from companion.game.messages import REASONS
from companion.session import MoveNoah, Notice, PlayCard
from companion.ui.i18n import LOCALES, Catalog, languages
from companion.ui.settings import panels, validate_ui

REASON_CODES = {key.split(".")[0] for key in REASONS}


def test_every_language_has_every_english_key():
    english = set(json.loads((LOCALES / "en.json").read_text(encoding="utf-8")))
    for language in languages():
        keys = set(json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8")))
        assert english - keys == set(), language


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_engine_reason_code_is_worded(language):
    catalog = Catalog(language)
    assert {code for code in REASON_CODES if not catalog.has(f"reason.{code}")} == set()


def test_prompts_are_worded_from_their_fields_in_french():
    fr = Catalog("fr")
    play = PlayCard(player=1, text="Ben: load an animal on ferry 3.", ferry=2)
    move = MoveNoah(player=0, text="…", choices=(1, 4))
    assert fr.prompt(play, ["Ana", "Ben"]) == "Ben : chargez un animal sur le ferry 3."
    assert fr.prompt(move, ["Ana", "Ben"]) == "Ana : déplacez Noé vers le ferry 2 / 5."


def test_a_refusal_keeps_the_engines_sentence_in_english_and_words_the_code_in_french():
    notice = Notice("refused", "The ♂ lion is too heavy for ferry 2 (22 > 21).", "weight")
    assert Catalog("en").notice(notice) == notice.text
    assert Catalog("fr").notice(notice) == "Trop lourd : le ferry coulerait."


def test_cards_always_carry_their_gender_sign():
    fr = Catalog("fr")
    assert fr.card_label("lion:M#1") == "Lion ♂"
    assert fr.card_label("snail:F#2") == "Escargot ♀"


def test_an_unknown_language_falls_back_to_english():
    assert Catalog("zh").text("home.new_game") == "New game"


def test_ui_settings_are_validated_with_the_key_named():
    assert validate_ui({}).language == "en"
    with pytest.raises(UserError, match=r"\[ui\] rotation"):
        validate_ui({"rotation": "90"})
    with pytest.raises(UserError, match="language"):
        validate_ui({"language": "xx"})


def test_settings_panels_only_use_known_sections():
    from companion.config import SECTIONS

    for _title, data in panels():
        assert {item["section"] for item in json.loads(data)} <= set(SECTIONS)


@pytest.mark.parametrize("name", ["i18n", "settings", "theme", "sounds", "camera"])
def test_doctests_of_the_modules_without_kivy(name):
    module = importlib.import_module(f"companion.ui.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0
