"""The machine around the app (issue 15 item 4): the backlight through a fake sysfs folder,
Shut down through a fake runner, and a settings change checked by the config's own validation
before anything is written. No Kivy, no real ``systemctl``."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import companion.system
from companion.errors import UserError
from companion.system import (
    ENV_BACKLIGHTS,
    MIN_PERCENT,
    POWER_OFF,
    Backlight,
    fake_backlight,
    power_off,
    run_command,
)
from companion.ui.settings import checked_change


def test_the_module_examples_run():
    assert doctest.testmod(companion.system, optionflags=doctest.ELLIPSIS).failed == 0


def test_the_official_display_is_chosen_before_another_backlight(tmp_path):
    fake_backlight(tmp_path, "acpi_video0", brightness=5, maximum=10)
    fake_backlight(tmp_path, "rpi_backlight", brightness=128, maximum=255)
    assert Backlight.find(tmp_path).name == "rpi_backlight"


def test_no_backlight_folder_or_a_broken_one_means_no_brightness(tmp_path):
    assert Backlight.find(tmp_path / "absent") is None
    broken = fake_backlight(tmp_path, "10-0045", brightness=1, maximum=0)  # max 0: unusable
    assert Backlight.find(tmp_path) is None
    (broken / "max_brightness").write_text("garbage\n")
    assert Backlight.find(tmp_path) is None


def test_the_environment_can_name_another_folder(tmp_path, monkeypatch):
    fake_backlight(tmp_path, "10-0045", brightness=10, maximum=20)
    monkeypatch.setenv(ENV_BACKLIGHTS, str(tmp_path))
    assert Backlight.find().percent() == 50


def test_brightness_is_written_on_the_devices_scale_and_never_dark(tmp_path):
    light = Backlight(fake_backlight(tmp_path, "10-0045", brightness=31, maximum=31))
    light.set_percent(50)
    assert (light.folder / "brightness").read_text() == "16\n"
    light.set_percent(0)
    assert light.percent() == MIN_PERCENT
    light.set_percent(250)
    assert light.percent() == 100


def test_a_backlight_the_app_may_not_write_is_a_sentence(tmp_path):
    folder = fake_backlight(tmp_path, "10-0045", brightness=1, maximum=1)
    (folder / "brightness").unlink()
    (folder / "brightness").mkdir()  # fails for every user, root included
    with pytest.raises(UserError) as caught:
        Backlight(folder).set_percent(50)
    assert caught.value.key == "system.brightness_denied"
    assert "deploy/install.sh" in str(caught.value)


def test_shut_down_asks_systemd_and_a_refusal_is_a_sentence():
    calls = []
    power_off(lambda command: calls.append(list(command)) or (0, ""))
    assert calls == [POWER_OFF]
    with pytest.raises(UserError) as caught:
        power_off(lambda command: (1, "Failed to power off system via logind: Access denied\n"))
    assert str(caught.value).startswith("This computer did not let the app shut it down "
                                        "(Failed to power off system via logind: Access "
                                        "denied).")


def test_a_missing_command_is_reported_not_raised():
    status, output = run_command(["/nonexistent/systemctl", "poweroff"])
    assert status != 0 and "No such file" in output


def test_a_good_change_passes_the_configs_check(tmp_path):
    ini = tmp_path / "companion.ini"
    ini.write_text("[ui]\nlanguage = fr  # comment\n[lights]\nbuttons = yes\n")
    for section, key, value in (("ui", "sounds", "no"), ("lights", "pins", "4, 17, 27, 22, 23"),
                                ("camera", "source", "usb"), ("decoder", "name", "zbar"),
                                ("store", "path", "games/club.sqlite")):
        checked_change(ini, section, key, value)


@pytest.mark.parametrize(("section", "key", "value", "start"), [
    ("ui", "language", "de", "[ui] language = 'de' has no translation."),
    ("ui", "sounds", "maybe", "[ui] sounds = 'maybe' is not yes or no."),
    ("lights", "pins", "17, 17, 22, 23, 24", "[lights] GPIO 17 is used twice"),
    ("lights", "buzzer", "5", "[lights] GPIO 5 is used twice"),  # a ferry button's pin
    ("store", "path", "x\0y", "[store] path = "),
])
def test_a_bad_change_gets_the_configs_sentence(tmp_path, section, key, value, start):
    ini = tmp_path / "companion.ini"
    ini.write_text("[lights]\nbuttons = yes\n")
    with pytest.raises(UserError) as caught:
        checked_change(ini, section, key, value)
    assert str(caught.value).startswith(start)
    assert ini.read_text() == "[lights]\nbuttons = yes\n"  # the check never writes


def test_a_change_is_checked_against_the_whole_file(tmp_path):
    """Another section already broken: the change is refused with that section's sentence
    (the app would not start with the file either)."""
    ini = Path(tmp_path / "companion.ini")
    ini.write_text("[game]\nend_rule = forever\n")
    with pytest.raises(UserError, match=r"\[game\] end_rule"):
        checked_change(ini, "ui", "sounds", "yes")
