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
    from companion.ui.settings import validate_ui

    validator = validate_ui if section == "ui" else None  # the app hands its own in
    config = Config.from_text(f"[{section}]\n{text}\n")
    with pytest.raises(UserError) as caught:
        config.validated(section, validator)
    assert f"[{section}]" in str(caught.value) and key in str(caught.value)
    assert type(Config.from_text("").validated(section, validator)).__name__.endswith("Settings")


def test_a_bad_deck_id_is_refused_by_the_deck_part_that_loads_it():
    from companion.tags.tagged_deck import load_tagged_deck

    config = Config.from_text("[game]\ndeck_id = TOO-LONG\n")
    with pytest.raises(UserError, match="cannot be a deck id"):
        load_tagged_deck(config.game.deck, config.game.deck_id)


# ---- the file itself: encodings, odd files, long paths, line numbers (issue 12.5) ----------


def test_a_byte_order_mark_is_read_like_plain_utf8(tmp_path):
    path = tmp_path / "companion.ini"
    path.write_bytes("[game]\nplayers = Zoé, Yves\n".encode("utf-8-sig"))
    assert load_config(path).game.players == ("Zoé", "Yves")


def test_utf16_with_its_mark_is_read_too(tmp_path):
    path = tmp_path / "companion.ini"
    path.write_bytes("[ui]\nlanguage = fr\n".encode("utf-16"))
    assert load_config(path).section("ui") == {"language": "fr"}


def test_text_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "companion.ini"
    path.write_bytes(b"[game]\nplayers = Zo\xe9\n")
    with pytest.raises(UserError, match=r"not UTF-8 text \(line 2\)"):
        load_config(path)


@pytest.mark.parametrize(("text", "line"), [
    ("[game]\nplayers = Ana\nfrog yes\n", "line 3 ('frog yes')"),
    ("# mine\nfrog = yes\n", "line 2"),
    ("[game]\nfrog = yes\n\n[game]\n", "line 4"),
    ("[game]\nfrog = yes\nfrog = no\n", "line 3"),
])
def test_a_parse_error_names_the_line(text, line):
    with pytest.raises(UserError) as caught:
        Config.from_text(text)
    assert line in str(caught.value) and "\n" not in str(caught.value)


def test_a_five_thousand_character_config_path_is_a_sentence_not_a_traceback(tmp_path):
    with pytest.raises(UserError, match="cannot be opened: File name too long") as caught:
        load_config(tmp_path / ("x" * 5000) / "companion.ini")
    assert len(str(caught.value)) < 300  # the path is shortened in the sentence


@pytest.mark.parametrize("name", ["x" * 5000, "y" * 300])
def test_a_very_long_store_path_is_a_sentence_not_a_traceback(tmp_path, name):
    with pytest.raises(UserError, match=r"^\[store\] path = ") as caught:
        Config.from_text(f"[store]\npath = {tmp_path / name}\n")
    assert len(str(caught.value)) < 300


def test_a_relative_store_path_is_taken_from_the_config_files_folder(tmp_path, monkeypatch):
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "companion.ini").write_text("[store]\npath = records/club.sqlite\n")
    monkeypatch.chdir(tmp_path)  # anywhere else
    assert load_config(folder / "companion.ini").store.path == folder / "records/club.sqlite"


READ_SCRIPT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # /dev/zero must not eat the machine
from companion.config import load_config
from companion.errors import UserError
try:
    load_config(sys.argv[1])
except UserError as error:
    print(error)
"""


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "folder"])
def test_a_fifo_a_device_or_a_folder_as_config_is_refused_at_once(tmp_path, kind):
    import os
    import subprocess
    import sys

    path = {"fifo": tmp_path / "companion.ini", "/dev/zero": "/dev/zero", "folder": tmp_path}
    if kind == "fifo":
        os.mkfifo(path[kind])
    # a child process, so that a reader that waits for ever is stopped by the timeout
    done = subprocess.run([sys.executable, "-c", READ_SCRIPT, str(path[kind])],
                          capture_output=True, text=True, timeout=60, check=False)
    assert "is not a regular file" in done.stdout, done.stderr[-500:]


def test_config_imports_neither_session_nor_tags_nor_ui():
    """Issue 13.5: the config module sits below the parts; they hand their validators in."""
    import ast
    import subprocess
    import sys
    from pathlib import Path

    import companion.config

    tree = ast.parse(Path(companion.config.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported
                if name and name.startswith(("companion.session", "companion.tags",
                                             "companion.ui"))}
    assert "importlib" not in imported  # no part loaded by a string either
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.config as c; c.load_config('/no/file');"
         "c.Config.from_text('[lights]\\nbuttons = yes').validated('lights');"
         "print(sorted(m for m in sys.modules if m.startswith('companion.')))"],
        capture_output=True, text=True, check=True).stdout
    assert "companion.session" not in loaded and "companion.tags" not in loaded
    assert "companion.ui" not in loaded


def test_the_settings_ui_uses_only_the_public_config_api():
    import ast
    from pathlib import Path

    import companion.ui.settings

    tree = ast.parse(Path(companion.ui.settings.__file__).read_text(encoding="utf-8"))
    names = [alias.name for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module == "companion.config"
             for alias in node.names]
    assert names and not [name for name in names if name.startswith("_")]


def test_the_ui_section_is_validated_by_the_validator_handed_in():
    from companion.ui.settings import validate_ui

    config = Config.from_text("[ui]\nlanguage = fr\n")
    assert config.validated("ui", validate_ui).language == "fr"
    with pytest.raises(LookupError):
        config.validated("ui")
