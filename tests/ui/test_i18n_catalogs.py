"""The catalogs (issue 15 items 6, 7, 8, 10): complete, same placeholders, French typography,
plurals through CLDR's rules, and every string drawable by the font of its language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection, TTFont

from companion.game.messages import EVENTS, REASONS, render, render_event
from companion.i18n import LOCALES, Catalog, languages, plural_category
from companion.ui import fonts

NBSP, NNBSP = "\u00a0", "\u202f"


def catalog(language: str) -> dict:
    return json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))


def variants(value: str | dict) -> list[str]:
    """The sentences of an entry (each plural variant of a counted one)."""
    if isinstance(value, str):
        return [value]
    return [text for name, text in value.items() if name != "_by"]


def placeholders(value: str | dict) -> set[str]:
    return {field for text in variants(value)
            for _, field, _, _ in string.Formatter().parse(text) if field}


def strings(language: str) -> list[tuple[str, str]]:
    return [(key, text) for key, value in catalog(language).items() for text in variants(value)]


def test_the_three_languages_have_catalogs() -> None:
    assert languages() == ["en", "fr", "zh"]
    assert [catalog(name)["_language"] for name in languages()] == ["English", "Français", "中文"]


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_a_translation_has_every_english_key_with_its_placeholders(language: str) -> None:
    english, own = catalog("en"), catalog(language)
    assert [key for key in english if key not in own] == []
    # reason.* in en.json are short phrases; their translations word the engine's facts
    facts = [key for key in english if not key.startswith("reason.") and not card_form(key)]
    assert [key for key in facts if said(own[key]) != said(english[key])] == []
    # a card in a sentence: each language picks among its forms (companion.i18n.Catalog.card)
    assert [key for key in english if card_form(key)
            and not placeholders(own[key]) <= {"label", "sign", "animal", "labels", "named"}] == []


def card_form(key: str) -> bool:
    """Whether the key words a card itself (``the ♀ cat``, ``la carte Chat ♀``)."""
    return key in ("words.card", "words.cards", "words.card_ungendered") \
        or key.startswith("words.card.")


def said(value: str | dict) -> set[str]:
    """The facts a sentence says: ``{of_name}`` ("d'Ana") says the fact ``name`` as English's
    ``{name}'s`` does."""
    return {field.removeprefix("of_") for field in placeholders(value)}


def test_chinese_words_every_phrase_french_words_with_the_same_facts() -> None:
    """The session's notices, refusals and undo sentences (keys only French had before)."""
    french, chinese = catalog("fr"), catalog("zh")
    french_only = ("words.of_vowel", "words.of_default")  # elision, "du Joueur 1"
    assert [key for key in french if key not in chinese and key not in french_only] == []
    assert [key for key in french if key in chinese
            and placeholders(chinese[key]) != placeholders(french[key])] == []


def test_every_engine_reason_and_event_has_a_wording_in_each_translation() -> None:
    for language in ("fr", "zh"):
        own = catalog(language)
        assert [code for code in REASONS if f"reason.{code}" not in own] == []
        assert [kind for kind in EVENTS if f"event.{kind}" not in own] == []


@pytest.mark.parametrize(("key", "text"), strings("fr"))
def test_french_typography(key: str, text: str) -> None:
    """Issue 15 item 6: a fine non-breaking space before ; ! ? and a non-breaking space before :
    and inside « » (the Imprimerie nationale's rules); never a plain or no space there."""
    assert not re.search(r"\s[;:!?»]", text.replace(NBSP, "").replace(NNBSP, "")) or \
        not re.search(r" [;:!?»]", text), key
    ending = r"(?=[\s)»]|$)"  # a mark that ends a clause, not one inside "10:30" or a path
    assert re.findall(rf"(.)[;!?]{ending}", text) == [NNBSP] * len(
        re.findall(rf"[;!?]{ending}", text)), key
    assert re.findall(rf"(.):{ending}", text) == [NBSP] * len(re.findall(rf":{ending}", text)), key
    assert text.count("«") == text.count(f"«{NBSP}") and text.count("»") == text.count(f"{NBSP}»")


def test_french_uses_the_rulebooks_words_and_full_words() -> None:
    french = catalog("fr")
    sentences = " ".join(text for _, text in strings("fr"))
    assert french["table.undo"] == "Annuler" and french["table.redo"] == "Rétablir"
    # a tile's header is its number (« Embarcation 5 » does not fit a tile of five at 800 px)
    assert french["table.ferry"] == f"N°{NBSP}{{n}}" and french["species.woodpecker"] == "Pivert"
    assert "ferry" not in re.sub(r"\{[^}]*\}", "", sentences).lower()
    assert "Noé" in french["prompt.move_noah"] and "larmes" in french["round.tears"].lower()


def test_chinese_uses_the_editions_words() -> None:
    chinese = catalog("zh")
    assert chinese["table.ferry"] == "駁船{n}" and chinese["table.noah"] == "挪亞"
    assert "眼淚" in chinese["round.tears"] and "方舟" in chinese["event.departure"]
    assert chinese["gender.M"] == "雄性" and chinese["gender.F"] == "雌性"
    assert chinese["species.donkey"] == "驢仔"  # the edition's own name


def test_no_sentence_hedges_its_plural() -> None:
    """Issue 15 item 8: no "card(s)" in any catalog or engine template."""
    for language in languages():
        assert [key for key, text in strings(language) if "(s)" in text] == []
    assert [code for code, text in {**REASONS, **EVENTS}.items() if "(s)" in text] == []


@pytest.mark.parametrize(("language", "counts"), [
    ("en", {0: "other", 1: "one", 2: "other"}),
    ("fr", {0: "one", 1: "one", 2: "other"}),  # CLDR: French says "0 carte"
    ("zh", {0: "other", 1: "other", 5: "other"}),
])
def test_plural_categories_follow_cldr(language: str, counts: dict[int, str]) -> None:
    assert {n: plural_category(language, n) for n in counts} == counts


def test_a_count_picks_its_plural_form_in_each_language() -> None:
    en, fr, zh = Catalog("en"), Catalog("fr"), Catalog("zh")
    assert en.text("prompt.give_cards", player="Ana", count=1) == \
        "Ana: give 1 card to an opponent."
    assert en.text("prompt.give_cards", player="Ana", count=2) == "Ana: give 2 cards to opponents."
    assert fr.text("prompt.give_cards", player="Ana", count=1) == \
        f"Ana{NBSP}: donnez 1 carte à un adversaire."
    assert fr.text("undo.gift", giver="Ben", count=3) == "Ben rend 3 cartes"
    assert zh.text("prompt.give_cards", player="Ana", count=1) == "Ana：送出1張牌給對手。"


def test_the_engines_english_counts_without_hedging() -> None:
    assert render_event("gifts", {"name": "Ana", "count": 1}) == "Ana gave 1 card."
    assert render_event("gifts_owed", {"name": "Ana", "owed": 2}) == \
        "Ana gives 2 cards to opponents."
    assert render("must_give_cards", {"current_name": "Ben", "owed": 1}) == \
        "Ben must first give 1 card for the departure."


def test_chinese_lists_and_names_read_as_chinese() -> None:
    zh = Catalog("zh")
    assert zh.join(["Ana", "Ben", "Chloé"]) == "Ana、Ben和Chloé"
    assert zh.of("Ana") == "Ana的"
    assert zh.card_label("elephant:F#1") == "大象♀"  # never broken between animal and sign
    assert Catalog("en").join(["Ana", "Ben", "Chloé"]) == "Ana, Ben and Chloé"


# -- the glyph check (issue 15 item 10): every string drawable by its language's font -----------

def cmap(path: Path) -> set[int]:
    if path.suffix.lower() == ".ttc":
        return set(TTCollection(str(path), lazy=True).fonts[0].getBestCmap())
    return set(TTFont(str(path), lazy=True).getBestCmap())


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_the_font_of_each_language_draws_every_character_of_its_catalog(language: str) -> None:
    try:
        files = fonts.font_files(language)
    except fonts.UserError as missing:  # its sentence names the package to install
        pytest.fail(f"{missing}")
    drawable = cmap(files.regular) & cmap(files.bold)
    # its own sentences, and the English shown where it has none; a language's own name is
    # drawn with that language's font (fonts.NAME_KEYS)
    texts = [text for key, text in strings(language) + (strings("en") if language != "en" else [])
             if key not in fonts.NAME_KEYS]
    missing = sorted({char for text in texts for char in text
                      if ord(char) not in drawable and char not in "\n"})
    assert missing == [], f"{language}: no glyph for {missing}"


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_each_language_name_is_drawable_by_the_font_of_that_language(language: str) -> None:
    names = dict(zip(languages(), languages()[1:] + languages()[:1], strict=True))
    own = catalog(language)
    for key, named in fonts.NAME_KEYS.items():
        named = named or names[language]  # home.language names the next language
        drawable = cmap(fonts.font_files(named).regular)
        assert [char for char in own[key] if ord(char) not in drawable] == [], key
        assert own[key] == catalog(named)["_language"], key


def test_the_glyph_check_fails_on_a_missing_glyph() -> None:
    latin = cmap(fonts.font_files("en").regular)
    assert ord("駁") not in latin and ord("♀") in latin and ord("«") in latin


def test_a_missing_chinese_font_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "locate", lambda script, style="Regular":
                        None if script == "zh" else fonts.KNOWN_PATHS[(script, style)])
    fonts.font_files.cache_clear()
    try:
        with pytest.raises(fonts.UserError, match="fonts-noto-cjk"):
            fonts.font_files("zh")
        assert fonts.font_files("en").regular.name == "DejaVuSans.ttf"
    finally:
        fonts.font_files.cache_clear()


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


def test_the_chinese_face_is_the_traditional_one_of_the_collection() -> None:
    """Kivy opens a collection's first face (Japanese): the app asks for the TC face."""
    found = fonts.locate("zh")
    assert found is not None, "fonts-noto-cjk is not installed (./run.sh setup installs it)"
    path, index = found
    assert TTCollection(str(path), lazy=True).fonts[index]["name"].getDebugName(1) == \
        "Noto Sans CJK TC"


def test_a_face_is_taken_out_of_a_collection_once_with_the_latin_line_height(
        tmp_path: Path) -> None:
    """The copy ``single_face`` makes of one face of a collection (for Noto CJK: the TC face),
    on a small collection of two DejaVu faces: the same code as on the 16 MB CJK collection,
    in a tenth of a second."""
    collection = TTCollection()
    collection.fonts = [TTFont(str(DEJAVU / name)) for name in ("DejaVuSans.ttf",
                                                                "DejaVuSansMono.ttf")]
    collection.save(str(tmp_path / "two.ttc"))
    face = fonts.single_face(tmp_path / "two.ttc", 1, tmp_path / "cache")
    assert face.suffix == ".otf"
    copy = TTFont(str(face))
    assert copy["name"].getDebugName(1) == "DejaVu Sans Mono"
    units = copy["head"].unitsPerEm
    assert copy["hhea"].ascent == round(fonts.ASCENT * units)
    assert copy["hhea"].descent == -round(fonts.DESCENT * units)
    made = face.stat().st_mtime_ns
    assert fonts.single_face(tmp_path / "two.ttc", 1, tmp_path / "cache") == face  # cached
    assert face.stat().st_mtime_ns == made


def test_the_app_takes_its_language_from_the_command_line() -> None:
    from companion.cli import build_parser
    from companion.ui.app import run_app

    assert build_parser().parse_args(["--language", "zh"]).language == "zh"
    with pytest.raises(fonts.UserError, match="en or fr or zh"):
        run_app(language="xx")  # refused before any window opens


@pytest.mark.parametrize("language", languages())
def test_a_prompt_addressed_to_a_player_starts_with_their_name_and_a_colon(language: str) -> None:
    """The table shows a prompt without the name (it is the title above): every catalog words
    an addressed prompt as ``{player}``, a colon, the sentence (i18n.ADDRESS)."""
    from companion.i18n import ADDRESS

    addressed = [(key, text) for key, text in strings(language)
                 if key.startswith("prompt.") and "{player}" in text]
    assert addressed
    assert [key for key, text in addressed if not re.match(r"\{player\}" + ADDRESS, text)] == []


def test_the_table_words_a_prompt_without_the_name_its_title_shows() -> None:
    class MoveNoah:
        kind, player, choices, giraffe_targets = "move_noah", 1, (1, 3), ()

    players = ["Ana", "Anne-Charlotte"]
    assert Catalog("en").prompt(MoveNoah(), players) == "Anne-Charlotte: move Noah to ferry 2 or 4."
    assert Catalog("en").prompt(MoveNoah(), players, named=False) == "Move Noah to ferry 2 or 4."
    assert Catalog("fr").prompt(MoveNoah(), players, named=False) == \
        f"Déplacez Noé vers l'embarcation{NBSP}2 ou{NBSP}4."
    assert Catalog("zh").prompt(MoveNoah(), players, named=False) == "把挪亞移到駁船2或4。"


def test_the_hand_scan_says_where_the_cards_are_read() -> None:
    """With the overhead camera (``view = table``) a hand is laid beside the ferries, not shown
    to a camera that is not there (issue 14: the round-end hand scan from the table)."""
    from companion.session.prompts import ScanHand

    scan = ScanHand(text="", player=0, expected=5, scanned=("cat:F#1",))
    players = ["Ben", "Ana"]
    assert Catalog("en").prompt(scan, players) == \
        "Ben: show every card left in your hand (1 of 5)."
    assert Catalog("en").prompt(scan, players, reading="table") == \
        "Ben: lay every card left in your hand face up beside the ferries (1 of 5)."
    assert "or show them to the camera" in Catalog("en").prompt(scan, players, reading="both")
    assert "à côté des embarcations" in Catalog("fr").prompt(scan, players, reading="table")
    assert "放在駁船旁邊" in Catalog("zh").prompt(scan, players, reading="table")


#: Config files with one mistake each, and the catalog key of the error they raise.
BAD_CONFIGS = {
    "[game]\nfrog = maybe\n": "config.not_yes_no",
    "[game]\nfrogs = yes\n": "config.unknown_setting",
    "[game]\nplayers = a, b, c, d, e, f\n": "config.too_many_players",
    "[game]\nend_rule = never\n": "config.end_rule",
    "frog = yes\n": "config.line_before_section",
    "[game]\nfrog\n": "config.line_not_setting",
    "[game]\n[game]\n": "config.line_repeats_section",
    "[game]\nfrog = yes\nfrog = no\n": "config.line_repeats_setting",
    "[games]\n": "config.unknown_section",
    "[ui]\nlanguage = de\n": "config.ui_language",
    "[ui]\nrotation = 90\n": "config.ui_rotation",
    "[camera]\nview = sky\n": "config.camera_view",
    "[camera]\nview = both\nsource = usb:0\ntable_source = usb:0\n": "config.camera_two_cameras",
    "[camera]\nfps = fast\n": "config.not_number",
    "[camera]\nfps = 500\n": "config.out_of_range",
    "[camera]\nresolution = big\n": "config.resolution_format",
    "[camera]\nresolution = 10x10\n": "config.resolution_range",
    "[camera]\nroi = 1, 2\n": "config.roi_format",
    "[camera]\nroi = 0.5, 0, 0.9, 1\n": "config.roi_outside",
    "[camera]\nzoom = 2\n": "config.unknown_setting",
    "[decoder]\nname = eyes\n": "config.decoder_name",
    "[decoder]\nrescue = perhaps\n": "config.not_yes_no",
    "[decoder]\nconfirm_frames = 1.5\n": "config.not_whole_number",
}


def config_error(text: str):
    from companion.config import Config
    from companion.errors import UserError
    from companion.ui.settings import validate_ui

    try:
        config = Config.from_text(text, Path("/home/pi/.config/noah-companion/companion.ini"))
        for section in ("camera", "decoder"):
            config.validated(section)
        config.validated("ui", validate_ui)
    except UserError as error:
        return error
    raise AssertionError(f"no error for {text!r}")


@pytest.mark.parametrize(("text", "key"), BAD_CONFIGS.items())
def test_a_config_files_mistake_is_said_in_the_tables_language(text: str, key: str) -> None:
    """Issue 15: the error screen words a config file's mistake in French and Chinese, with
    the same facts (the line, the setting, the value) as the terminal's English sentence."""
    error = config_error(text)
    assert error.key == key
    facts = [str(value) for value in error.params.values() if isinstance(value, (str, int))]
    for language in languages():
        worded = Catalog(language).error(error)
        assert language == "en" or worded != str(error), worded
        assert "{" not in worded and all(fact in worded for fact in facts), (worded, facts)


def test_the_record_in_use_says_what_to_do_at_the_touchscreen() -> None:
    """On the screen, --db means nothing: close the other copy, or restart the Pi."""
    from datetime import datetime

    from companion.session.store import RecordInUse

    error = RecordInUse(Path("g.sqlite"), 1234, datetime.now().astimezone())
    assert "--db" in str(error)  # the terminal's advice
    for language in languages():
        worded = Catalog(language).error(error)
        assert "--db" not in worded and "1234" in worded, worded
    assert Catalog("en").error(error).endswith("Close the other copy of the referee, or "
                                               "restart the Pi.")


#: A catalog key written out in the code: ``app.t("home.title")`` in a .kv file,
#: ``catalog.text("words.and")``, ``self.has("words.of_vowel")``.
KEY_IN_CODE = re.compile(r"""(?:\bt|\.text|\.has)\(\s*["']([a-z_]+(?:\.[a-z0-9_]+)+)["']""")
#: Keys a language may leave out: asked with ``has()`` first (French elision, "du Joueur 1").
OPTIONAL = {"words.of_vowel", "words.of_default"}


def keys_in_code() -> dict[str, str]:
    """Every catalog key written out in companion/ (.py and .kv), with a file using it; a key
    ending in ``_`` or ``.`` is a prefix the code completes (``"table.pattern_" + kind``)."""
    root = Path(__file__).parents[2] / "companion"
    used: dict[str, str] = {}
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.kv")]):
        for key in KEY_IN_CODE.findall(path.read_text(encoding="utf-8")):
            if not key.endswith(("_", ".")):
                used.setdefault(key, str(path.relative_to(root.parent)))
    return used


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_key_written_in_the_code_is_in_every_catalog(language: str) -> None:
    """The screens, the session and the CLI word through the catalogs: a key the code names
    that a catalog lacks would show as the key itself."""
    used = keys_in_code()
    assert len(used) > 100  # the pattern still finds the keys (a check that can fail)
    own = catalog(language)
    assert {key: path for key, path in used.items()
            if key not in own and key not in OPTIONAL} == {}
