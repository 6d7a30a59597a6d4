"""Start-up fails visibly (issue 12.3): no screen, a bad config, settings kept, a quiet terminal.

Every Kivy run here is a child process (Kivy has one window per process, and a start-up that
waits for ever must be stopped by a timeout, not stall the suite). The child renders offscreen
because it asks for it by name (``SDL_VIDEODRIVER=offscreen``), as tests and screenshots do.
"""

from __future__ import annotations

import ctypes.util
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

needs_mesa = pytest.mark.skipif(ctypes.util.find_library("EGL") is None,
                                reason="no Mesa EGL (apt install libegl1 libgl1) for Kivy")
CHILD_TIMEOUT = 120  # a bound for a hang only: a normal child is done in a few seconds


def fresh_environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A machine that never ran the app: empty home, config and data folders, no display."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "KIVY_HOME",
                          "NOAH_COMPANION_CONFIG", "KIVY_NO_CONSOLELOG")}
    env.update(HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               GPIOZERO_PIN_FACTORY="mock", **extra)
    return env


def run_child(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT, check=False)


@pytest.mark.parametrize("driver", ["x11", "kmsdrm", ""])
def test_no_screen_at_all_says_so_in_one_sentence_and_exits(tmp_path, driver):
    """No X, Wayland or KMS screen: one sentence with what to do, a non-zero status, and no
    window drawn nowhere (today SDL falls back to offscreen and the app runs invisibly)."""
    env = fresh_environment(tmp_path, SDL_VIDEODRIVER=driver)
    if not driver and Path("/dev/dri").exists():
        pytest.skip("this machine has a KMS device: SDL may really open it")
    done = run_child(["-m", "companion.cli", "--simulate"], env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("noah-companion: No screen found:")
    for advice in ("Raspberry Pi's screen", "DISPLAY", "./run.sh demo"):
        assert advice in lines[0]


ERROR_SCREEN_SCRIPT = """
import json, sys
from companion.ui import app, errorscreen

shown = {}
def show(problem, language="en"):  # the screen is drawn, then "closed" instead of touched
    shown.update(errorscreen.render(problem, language), stage=problem.stage,
                 offers_defaults=problem.offers_defaults)
    return None
errorscreen.show_start_problem = show
status = app.run_app(simulate=sys.argv[1] == "simulate")
print(json.dumps({"status": status, **shown}))
"""


def run_app_in_child(tmp_path: Path, config_text: str | None, *, simulate: bool = True,
                     **extra: str) -> tuple[dict, str]:
    env = fresh_environment(tmp_path, SDL_VIDEODRIVER="offscreen", **extra)
    if config_text is not None:
        config = tmp_path / "config" / "noah-companion" / "companion.ini"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(config_text, encoding="utf-8")
    done = run_child(["-c", ERROR_SCREEN_SCRIPT, "simulate" if simulate else "camera"], env)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@needs_mesa
@pytest.mark.parametrize(("language", "title", "fix"), [
    ("en", "The referee cannot start", "Start with the built-in settings"),
    ("fr", "L'arbitre ne peut pas démarrer", "Démarrer avec les réglages d'origine"),
])
def test_a_bad_config_opens_the_error_screen_with_the_fix(tmp_path, language, title, fix):
    """The touchscreen shows the sentence with its line and fix in the table's language, and
    what still works; the journal (stderr) has it in English; nothing ends in a traceback."""
    shown, stderr = run_app_in_child(
        tmp_path, f"[ui]\nlanguage = {language}\n[game]\nplayers = Ana, Ben\nfrog yes\n")
    assert shown["status"] == 2 and shown["stage"] == "config" and shown["offers_defaults"]
    assert shown["title"] == title and shown["retry"] and shown["defaults"] == fix
    words = {"en": ("line 5 ('frog yes')", "Fix that line"),
             "fr": ("la ligne 5 («\xa0frog yes\xa0»)", "Corrigez cette ligne")}[language]
    assert all(word in shown["what"] for word in words), shown["what"]
    assert shown["still_works"]
    assert "noah-companion: The config file " in stderr and "line 5 ('frog yes')" in stderr
    assert "Traceback" not in stderr


@needs_mesa
@pytest.mark.parametrize(("config_text", "stage", "words"), [
    ("[game]\ndeck = /no/such/deck.csv\n", "deck", "There is no deck file /no/such/deck.csv"),
    ("[game]\ndeck_id = TOO-LONG\n", "deck", "[game] 'TOO-LONG' cannot be a deck id"),
    ("[camera]\nsource = usb:x\n", "camera", "bad number"),
    ("[ui]\nlanguage = tlh\n", "config", "[ui] language = 'tlh'"),
])
def test_deck_and_camera_problems_open_the_error_screen_too(tmp_path, config_text, stage,
                                                           words):
    shown, stderr = run_app_in_child(tmp_path, config_text, simulate=stage != "camera")
    assert shown["stage"] == stage and words in shown["what"], shown
    assert "Traceback" not in stderr


@needs_mesa
@pytest.mark.parametrize(("language", "words"), [
    ("en", "The referee is already running on this record (process"),
    ("fr", "L'arbitre"),
])
def test_a_record_another_copy_holds_shows_the_error_screen_without_a_way_round(
        tmp_path, language, words):
    """Any UserError at start-up reaches the screen: here the record's RecordInUse (a second
    copy of the referee, issue 12.1); other settings would not help, so only "Try again"."""
    from companion.session.store import GameStore

    record = tmp_path / "data" / "noah-companion" / "games.sqlite"
    record.parent.mkdir(parents=True)
    with GameStore(record):  # the first copy, still running
        shown, stderr = run_app_in_child(tmp_path, f"[ui]\nlanguage = {language}\n")
    assert shown["stage"] == "record" and not shown["offers_defaults"], shown
    assert shown["what"].startswith(words) and str(os.getpid()) in shown["what"]
    assert shown["retry"] and "defaults" not in shown  # the hidden button is not offered
    assert f"process {os.getpid()}" in stderr and "Traceback" not in stderr


PERSIST_SCRIPT = """
import sys
from companion.ui.environment import prepare_environment
prepare_environment()
from companion.ui.app import close_app, create_app
from companion.config import load_config
from companion.ui.settings import validate_ui
config = load_config()
app = create_app(config, simulate=True, settings=config.validated("ui", validate_ui),
                 paced=False)
app._run_prepare()
print("language at start:", app.lang)
if sys.argv[1] == "switch":
    app.choose_language("fr")
app.stop()
close_app(app)
"""


@needs_mesa
def test_the_language_choice_survives_a_restart_on_a_fresh_machine(tmp_path):
    """A fresh config home: the app creates the config folder, keeps the language chosen on
    the screen, and prints no traceback (today: "Unable to write the config" at each start)."""
    env = fresh_environment(tmp_path, SDL_VIDEODRIVER="offscreen")
    first = run_child(["-c", PERSIST_SCRIPT, "switch"], env)
    assert first.returncode == 0, first.stderr[-2000:]
    assert "language at start: en" in first.stdout
    second = run_child(["-c", PERSIST_SCRIPT, "stay"], env)
    assert "language at start: fr" in second.stdout, second.stderr[-2000:]
    for run in (first, second):
        assert "Traceback" not in run.stderr and "Unable to write" not in run.stderr
        assert "nanobind" not in run.stderr  # no leak report at exit either
    saved = tmp_path / "config" / "noah-companion" / "companion.ini"
    assert "language = fr" in saved.read_text(encoding="utf-8")


def test_the_terminal_shows_kivys_lines_only_when_verbose(capsys):
    from companion.cli import configure_logging

    kivy, ours = logging.getLogger("kivy"), logging.getLogger("companion.test")
    old = logging.getLogger().handlers[:], logging.getLogger().level
    try:
        configure_logging(verbose=False)
        kivy.warning("Config: Older configuration version detected")
        kivy.error("Window: the window cannot open")
        ours.info("starting")
        ours.warning("ferry lights unavailable: no pins")
        quiet = capsys.readouterr().err
        configure_logging(verbose=True)
        kivy.info("Kivy: v2.3.1")
        loud = capsys.readouterr().err
    finally:
        logging.getLogger().handlers[:], _ = old[0], logging.getLogger().setLevel(old[1])
    assert quiet.splitlines() == ["noah-companion: Window: the window cannot open",
                                  "noah-companion: ferry lights unavailable: no pins"]
    assert "Kivy: v2.3.1" in loud


def test_the_pi_service_does_not_restart_a_problem_a_person_must_fix():
    """Exit status 2 (no screen; the error screen closed) is not retried by systemd: the
    journal has the sentence instead of five restarts and a black screen."""
    from companion.ui.app import START_FAILED_STATUS

    unit = (Path(__file__).parents[2] / "deploy/systemd/noah-companion.service").read_text()
    assert f"\nRestartPreventExitStatus={START_FAILED_STATUS}\n" in unit
    assert "\nRestart=on-failure\n" in unit  # crashes still restart


CLIPBOARD_CHILD = """
import logging, sys
errors = logging.StreamHandler()  # every error (the critical ones too) on stderr
errors.setLevel(logging.ERROR)
logging.getLogger().addHandler(errors)
from pathlib import Path
from companion.ui.environment import configure_kivy, prepare_environment
prepare_environment(Path(sys.argv[1]), headless=True)
configure_kivy(simulate=True)
from kivy.core.clipboard import Clipboard  # what touching a name field loads
print(type(Clipboard).__name__)
"""


def test_no_clipboard_tool_installed_leaves_the_terminal_quiet(tmp_path):
    """Issue 20.3: without xclip or xsel (PATH holds neither here), touching a name field
    printed about 40 lines of tracebacks; SDL's clipboard is used, and nothing is said."""
    empty = tmp_path / "bin"
    empty.mkdir()
    env = fresh_environment(tmp_path, PATH=str(empty))
    env.pop("KIVY_CLIPBOARD", None)
    child = run_child(["-c", CLIPBOARD_CHILD, str(tmp_path / "kivy")], env)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "ClipboardSDL2"
    assert child.stderr == ""
