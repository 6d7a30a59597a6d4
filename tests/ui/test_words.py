"""The app's words and settings, without Kivy: catalogs, prompts in French, [ui] validation."""

from __future__ import annotations

import doctest
import importlib
import json
import re

import pytest

from companion.errors import UserError
from companion.game.messages import EVENTS, REASONS
from companion.i18n import LOCALES, Catalog, english, languages
from companion.session import GameStore, MoveNoah, Notice, PlayCard, Session
from companion.session.reconcile import UNDO_KEYS
from companion.session.session import NOTICE_KEYS
from companion.session.view import Phrase
from companion.sim.autoplay import SimulatedTable
from companion.ui.settings import EVERYDAY, TECHNICAL, validate_ui

REASON_CODES = {key.split(".")[0] for key in REASONS}


def plain(text: str) -> str:
    """French puts a (thin) no-break space before ':', ';', '?' and '!' (and in 'ferry 3'): the
    expected sentences below are written with plain spaces."""
    return text.replace("\xa0", " ").replace("\u202f", " ")


RAW_REF = re.compile(r"[a-z]+(:[MFH])?#\d")  # a card id such as woodpecker:M#1 or snail#3


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
    assert plain(fr.prompt(play, ["Ana", "Ben"])) == "Ben : chargez un animal sur l'embarcation 3."
    assert plain(fr.prompt(move, ["Ana", "Ben"])) == "Ana : déplacez Noé vers l'embarcation 2 ou 5."


def _all_notices(session):
    """Every notice a session publishes, in order (notices are kept a few at a time)."""
    seen: dict[int, Notice] = {}  # by identity: the notices stay alive, so ids stay unique
    session.subscribe(lambda view: seen.update((id(n), n) for n in view.notices))
    return seen


def test_every_phrase_the_program_can_say_is_worded_in_french():
    fr = Catalog("fr")
    keys = ({f"reason.{code}" for code in REASONS} | {f"event.{kind}" for kind in EVENTS}
            | UNDO_KEYS | {f"notice.{name}" for name in NOTICE_KEYS})
    assert {key for key in keys if not fr.has(key)} == set()


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_sentence_worded_from_the_catalogs_is_in_each_one(language):
    """What the session, the observer and the record say is worded from the catalogs in every
    language, English included (the CLI's and the demo's words): no key missing in any."""
    from companion.session.table_observer import TABLE_KEYS

    keys = UNDO_KEYS | TABLE_KEYS | {"damaged.again", "words.card", "words.cards",
                                     "words.card_ungendered", "words.card.snail",
                                     "words.no_card"}
    assert {key for key in keys if not Catalog(language).has(key)} == set()


#: Facts enough for every ``undo.*`` sentence (R55: what the table puts back).
UNDO_FACTS = {"round": 2, "cards": ["cat:F#2", "snail:M#1"], "ferry": 3, "name": "Ana",
              "target": "Ben", "scores": [["Ana", 4], ["Ben", 7]], "gifts": [["Ben", 2]],
              "source": Phrase("undo.from_hand", {"name": "Ben"})}


@pytest.mark.parametrize("key", sorted(UNDO_KEYS))
def test_every_undo_sentence_is_worded_in_english_from_the_catalog_r55(key):
    base, _, variant = key.partition(".")[2].partition(".")
    params = {**UNDO_FACTS, **({"variant": variant} if variant else {})}
    worded = english(Phrase(f"undo.{base}", params))
    assert "{" not in worded and "Phrase(" not in worded and not RAW_REF.search(worded), worded


def test_english_undo_sentences_name_cards_as_on_their_face_r55():
    take = Phrase("undo.take_off", {"cards": ["snail:M#1", "cat:F#2", "snail#3"], "ferry": 2,
                                    "name": "Ana"})
    assert english(take) == ("Take the snail (♂ side up), the ♀ cat and the snail back from "
                             "ferry 2 into Ana's hand.")
    gifts = Phrase("undo.gifts", {"gifts": [["Ben", 1], ["Chloé", 2]], "name": "Ana"})
    assert english(gifts) == ("Ben gives 1 card and Chloé gives 2 cards back to Ana (the cards "
                              "Ana just gave).")
    with pytest.raises(KeyError):
        english(Phrase("undo.no_such_sentence", {}))


def test_a_refusal_in_french_names_the_rule_with_the_actual_cards():
    """R4 (weight), R5 (gender): the engine's params are worded, not a generic sentence."""
    fr = Catalog("fr")
    weight = Notice("refused", (Phrase("reason.weight", {
        "ferry": 2, "weight": 19, "capacity": 21, "card": "lion:M#1", "card_weight": 7,
        "species": "lion", "animal": "♂ lion"}),), "weight")
    assert plain(fr.notice(weight)) == (
        "L'embarcation 2 porte 19 sur 21 : la carte Lion ♂ (7) la surchargerait ; chargez un "
        "animal plus léger, ou reprenez l'embarcation si aucun ne convient.")
    gender = Notice("refused", (Phrase("reason.gender", {
        "variant": "alternate", "ferry": 3, "needed": "F", "top": "M", "card": "cat:M#1",
        "species": "cat"}),), "gender")
    assert "sa carte du dessus est mâle : chargez un animal femelle" in plain(fr.notice(gender))
    assert Catalog("en").notice(weight) == weight.text == (  # the engine's own English
        "Ferry 2 carries 19 of 21: the ♂ lion (7) would overload it; load a lighter animal, or "
        "take the ferry back if none fits.")


def test_a_phrase_no_catalog_can_word_shows_its_key_on_screen_instead_of_crashing():
    odd = Notice("info", (Phrase("notice.not_a_key", {}),))
    missing = Notice("info", (Phrase("undo.noah_back", {}),))  # its ferry is missing
    assert [Catalog(language).notice(odd) for language in ("en", "fr")] == ["notice.not_a_key"] * 2
    assert Catalog("fr").notice(missing) == "undo.noah_back"


@pytest.mark.parametrize("seed", [3, 8])
def test_a_whole_french_game_with_mishaps_and_undos_reads_in_french(tmp_path, seed):
    """Everything the table is told during whole games (mishaps, refusals, undo back to the
    start: R55) is worded in French, with no English sentence and no unfilled field."""
    session = Session(GameStore(tmp_path / "games.sqlite"))
    notices = _all_notices(session)
    SimulatedTable(session, ["Ana", "Ben", "Chloé"], seed=seed, mishaps=True).play()
    session.choose_card("cat:F#1")  # refused: the game is over
    while session.game.history:
        session.undo(3)
    session.undo()
    fr = Catalog("fr")
    levels = {notice.level for notice in notices.values()}
    assert {"info", "refused", "reconcile"} <= levels
    for notice in notices.values():
        worded = fr.notice(notice)
        assert worded != notice.text and "{" not in worded, notice
        assert not RAW_REF.search(notice.text) and not RAW_REF.search(worded), notice
        assert not {"the", "hand", "back", "and", "turn", "loaded"} & set(worded.split()), worded


class _Stop(Exception):
    pass


def _refusal_of_a_card_already_played(tmp_path, where: str):
    """Play a seeded game until a card is on a ferry (``where="ferry"``) or has departed
    (``"departed"``), show that card again; returns the refusal's notice."""
    session = Session(GameStore(tmp_path / "games.sqlite"))
    refusals = []

    def on_step(_step):
        view = session.view
        if view.prompt.kind != "play_card":
            return
        state = view.state
        cards = state["departed_cards"] if where == "departed" else \
            [ref for ferry in state["ferries"] if ferry for ref in ferry]
        cards = [ref for ref in cards if not ref.startswith("snail")]
        if cards:
            session.choose_card(cards[-1])
            refusals.append((cards[-1], session.view.notices[-1]))
            raise _Stop

    with pytest.raises(_Stop):
        SimulatedTable(session, ["Ana", "Ben", "Chloé"], seed=3, on_step=on_step).play()
    return refusals[0]


def test_a_card_shown_again_is_named_and_the_advice_fits_where_it_is(tmp_path):
    """R54: an animal on a ferry is 'already on ferry k'; one that departed 'left on a ferry'
    (not 'on the table'); both named as on their face, never by their card id."""
    ref, on_ferry = _refusal_of_a_card_already_played(tmp_path / "a", "ferry")
    assert on_ferry.level == "refused" and on_ferry.reason == "card_already_on_table"
    assert re.fullmatch(r"The [♂♀] \w+ is already on ferry \d: it was shown twice; leave it "
                        r"there and show the animal being loaded\.", on_ferry.text), on_ferry.text
    ref, departed = _refusal_of_a_card_already_played(tmp_path / "b", "departed")
    species = ref.split(":")[0]
    assert departed.text.startswith(f"The {'♂' if ':M' in ref else '♀'} {species} left on a "
                                    "ferry this round: it cannot be played again")
    assert "on the table" not in departed.text
    fr = Catalog("fr")
    assert plain(fr.notice(on_ferry)).startswith("La carte ") and "est déjà sur l'embarcation" in \
        plain(fr.notice(on_ferry))
    assert "est partie sur une embarcation cette manche" in plain(fr.notice(departed))
    for notice in (on_ferry, departed):
        assert not RAW_REF.search(notice.text) and not RAW_REF.search(fr.notice(notice))


def test_a_card_missing_from_the_deck_is_named_not_shown_as_its_id(tmp_path):
    session = Session(GameStore(tmp_path / "games.sqlite"))
    session.new_game(["Ana", "Ben"])
    session.choose_card("cat:F#9")
    notice = session.view.notices[-1]
    assert notice.text == "There is no Cat ♀ #9 in this deck: check the card."
    assert plain(Catalog("fr").notice(notice)) == ("Ce paquet n'a pas de carte Chat ♀ n° 9 : "
                                                   "vérifiez "
                                            "la carte.")


def test_a_players_mistake_on_the_new_game_screen_is_said_in_french(tmp_path):
    session = Session(GameStore(tmp_path / "games.sqlite"))
    with pytest.raises(UserError) as raised:
        session.new_game(["Ana", "Ana"])
    assert plain(Catalog("fr").error(raised.value)) == ("Deux joueurs ont le même nom : "
                                                        "ajoutez une "
                                                 "initiale pour les distinguer.")
    assert Catalog("en").error(raised.value) == str(raised.value)
    assert Catalog("fr").error(UserError("Something else.")) == "Something else."


def test_undo_sentences_in_french_say_what_to_put_back():
    fr = Catalog("fr")
    back = Phrase("undo.put_back", {"cards": ["cat:F#2", "lion:M#1"], "ferry": 2,
                                    "variant": "all",
                                    "source": Phrase("undo.from_hand", {"name": "Ben"})})
    assert plain(fr.phrase(back)) == ("Remettez les cartes Chat ♀ et Lion ♂ sur l'embarcation 2 "
                                      "(en commençant par le bas), depuis la main de Ben.")
    assert english(back) == ("Put the ♀ cat and the ♂ lion back on ferry 2 (bottom first), "
                             "from Ben's hand.")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_token_colour_is_named_in_every_language(language):
    from companion.ui.theme import PLAYER_COLOURS

    assert all(Catalog(language).has(f"colour.{name}") for name in PLAYER_COLOURS)


def test_cards_always_carry_their_gender_sign():
    fr = Catalog("fr")
    assert fr.card_label("lion:M#1") == "Lion ♂"
    assert fr.card_label("snail:F#2") == "Escargot ♀"


def test_an_unknown_language_falls_back_to_english():
    assert Catalog("xx").text("home.new_game") == "New game"


def test_ui_settings_are_validated_with_the_key_named():
    assert validate_ui({}).language == "en"
    with pytest.raises(UserError, match=r"\[ui\] rotation"):
        validate_ui({"rotation": "90"})
    with pytest.raises(UserError, match="language"):
        validate_ui({"language": "xx"})


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_word_of_the_settings_page_is_in_the_catalog(language):
    catalog = Catalog(language)
    keys = {key for setting in (*EVERYDAY, *TECHNICAL)
            for key in (setting.words, f"{setting.words}.desc",
                        *(words for _value, words in setting.choices))}
    assert {key for key in keys if not catalog.has(key)} == set()


def test_the_settings_page_only_uses_known_sections():
    from companion.config import SECTIONS

    assert {setting.section for setting in (*EVERYDAY, *TECHNICAL)} <= set(SECTIONS)


@pytest.mark.parametrize("name", ["settings", "theme", "sounds", "camera"])
def test_doctests_of_the_modules_without_kivy(name):
    module = importlib.import_module(f"companion.ui.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_a_sex_ends_its_clause_before_noah_moves_r15():
    """Issue 20.3: "After a male, Noah moves two ferries away" (R15), never "a male Noah"."""
    from companion.game.messages import render

    male = render("noah_move_illegal", {"variant": "male", "choices": "1 or 2"})
    female = render("noah_move_illegal", {"variant": "female", "choices": "1 or 2"})
    assert male.startswith("After a male, Noah moves") and female.startswith("After a female, ")


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Ana took back the animal of ferry 3."),
    ("fr", "Ana a repris en main l'animal de l'embarcation 3."),
    ("zh", "Ana收回駁船3上的1隻動物。")])
def test_i_cannot_play_says_which_ferry_was_taken_back_r25(language, expected):
    """Issue 20.3: the take-back (R25) is said as "took back the animal of ferry 3"."""
    from companion.game.messages import render_event

    params = {"player": 0, "name": "Ana", "ferry": 3, "count": 1, "cards": ["cat:F#1"]}
    phrase = Phrase("event.took_back", params)
    notice = Notice("info", (phrase,))
    assert notice.text == render_event("took_back", params)  # the engine's English
    assert plain(Catalog(language).notice(notice)) == expected


def test_default_names_keep_their_number_apart_from_scores_and_read_as_names_in_french():
    """Issue 20.3: "Player 4 (5)", never "Player 4 5"; French says "du Joueur 1"."""
    assert plain(Catalog("en").scores([("Player 4", 5), ("Player 5", 2)])) == \
        "Player 4 (5), Player 5 (2)"
    assert Catalog("zh").scores([("玩家4", 5), ("玩家5", 2)]) == "玩家4（5）、玩家5（2）"
    fr = Catalog("fr")
    assert fr.of("Joueur 1") == "du Joueur 1" and fr.of("Joueuse") == "de Joueuse"


def test_a_resumed_game_is_named_by_its_players_in_every_language():
    from companion.session.notices import said

    notice = Notice("info", said("resumed", game=4))
    players = ["Ana", "Ben", "Chloé"]
    for language in languages():
        text = Catalog(language).notice(notice, players)
        assert "Chloé" in text and "4" not in text, (language, text)


def test_french_writes_one_kind_of_apostrophe_and_chinese_one_colon_per_sentence():
    """Issue 20.3: no ’ beside ' in French; a Chinese refusal is not "不接受：…：…"."""
    french = json.dumps(json.loads((LOCALES / "fr.json").read_text(encoding="utf-8")),
                        ensure_ascii=False)
    assert "’" not in french
    zh = Catalog("zh")
    refusal = zh.text("refused", text=zh.text("reason.noah_move_illegal", choices="1"))
    assert all(sentence.count("：") <= 1 for sentence in refusal.split("。")), refusal
    assert Catalog("zh").join(["1", "2", "3"], "words.or") == "1、2或3"
