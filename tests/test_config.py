"""The app's config file: defaults, [game] and [store] validation, the parts' validators."""

from __future__ import annotations

import pytest

from companion.config import Config, load_config, validate_section
from companion.errors import UserError


def test_missing_file_means_defaults(tmp_path):
    config = load_config(tmp_path / "none.ini")
    assert config.game.players == () and config.game.end_rule == "rounds"
    assert config.store.path.name == "games.sqlite"
    assert config.game.options().hidden


def test_game_section_becomes_engine_options():
    config = Config.from_text(
        "[game]\nplayers = Ana, Ben , Chloé\nend_rule = score26\ncrocodile = yes\n"
        "roommates = on\nscore_only = yes\n"
    )
    options = config.game.options()
    assert config.game.players == ("Ana", "Ben", "Chloé")
    assert (options.end_rule, options.crocodile, options.roommates, options.score_only) == (
        "score26", True, True, True)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[game]\nfrog = maybe\n", "frog"),
        ("[game]\nend_rule = forever\n", "end_rule"),
        ("[game]\nplayer = Ana\n", "players"),
        ("[store]\nfolder = /tmp\n", "path"),
        ("[gmae]\nfrog = yes\n", "[game]"),
        ("[game]\ndeck_id = TOO-LONG\n", "deck_id"),
    ],
)
def test_bad_settings_name_the_key(text, names):
    with pytest.raises(UserError) as caught:
        Config.from_text(text)
    assert names in str(caught.value)


def test_store_path_may_be_a_folder(tmp_path):
    config = Config.from_text(f"[store]\npath = {tmp_path}\n")
    assert config.store.path == tmp_path / "games.sqlite"


def test_unreadable_syntax_is_a_user_error():
    with pytest.raises(UserError, match="cannot be read"):
        Config.from_text("frog = yes\n")


def test_lights_section_is_validated_by_the_hardware_part():
    config = Config.from_text("[lights]\nbuzzer = 17\n")
    assert config.section("lights") == {"buzzer": "17"}
    with pytest.raises(UserError, match=r"\[lights\].*GPIO 17"):
        config.validated("lights")
    assert validate_section("lights", {"buttons": "yes"}).buttons == (5, 6, 13, 19, 26)


def test_environment_variable_chooses_the_file(tmp_path, monkeypatch):
    path = tmp_path / "mine.ini"
    path.write_text("[game]\nplayers = Zoé, Yves\n", encoding="utf-8")
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(path))
    assert load_config().game.players == ("Zoé", "Yves")


@pytest.mark.parametrize(("section", "text", "key"), [
    ("camera", "fps = fast", "fps = 'fast'"),
    ("decoder", "name = qrcodex", "name = 'qrcodex'"),
    ("ui", "language = tlh", "language = 'tlh'"),
])
def test_every_part_validates_its_own_section(section, text, key):
    config = Config.from_text(f"[{section}]\n{text}\n")
    with pytest.raises(UserError) as caught:
        config.validated(section)
    assert f"[{section}]" in str(caught.value) and key in str(caught.value)
    assert type(Config.from_text("").validated(section)).__name__.endswith("Settings")
