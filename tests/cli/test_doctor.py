"""``noah-companion doctor``: each check on fake machines (sysfs/devfs trees, systemctl answers,
config files), and the whole doctor on this real machine."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from companion import doctor
from companion.cli import main
from companion.config import ENV_CONFIG
from companion.doctor import Camera, Finding, Machine, ServiceState, Status


@pytest.fixture(autouse=True)
def own_config(tmp_path, monkeypatch) -> Path:
    """Each test reads its own config file (absent unless the test writes it)."""
    path = tmp_path / "companion.ini"
    monkeypatch.setenv(ENV_CONFIG, str(path))
    return path


def fake_machine(tmp_path: Path, **overrides) -> Machine:
    """A machine with empty /sys, /dev and /proc trees, no systemd and no desktop."""
    roots = {name: tmp_path / name for name in ("sys", "dev", "proc")}
    for root in roots.values():
        root.mkdir(exist_ok=True)
    settings = {"sys_root": roots["sys"], "dev_root": roots["dev"], "proc_root": roots["proc"],
                "systemctl_show": lambda unit: None, "environ": {}}
    return Machine(**{**settings, **overrides})


def write(path: Path, text: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def closed(*paths: Path):
    """An ``access`` that refuses these paths, as for a user outside their group."""
    refused = {str(path) for path in paths}
    return lambda path, mode: str(path) not in refused


# ---- findings and the run ---------------------------------------------------------------------


def test_a_finding_is_one_line_with_its_fix():
    finding = Finding("Touch", Status.WARN, "no touchscreen found.", "Check the cable.")
    assert finding.line() == "! Touch: no touchscreen found. Fix: Check the cable."
    assert finding.to_json() == {"check": "Touch", "status": "warning",
                                 "found": "no touchscreen found.", "fix": "Check the cable."}


def test_a_check_that_breaks_is_reported_not_raised(tmp_path):
    def check_camera_focus(machine):
        raise RuntimeError("lens exploded")

    [finding] = doctor.run_checks(fake_machine(tmp_path), (check_camera_focus,))
    assert finding.status is Status.FAIL
    assert finding.name == "Camera focus"
    assert "RuntimeError: lens exploded" in finding.found


def test_ready_allows_warnings_but_not_missing_parts():
    fine, warning = doctor.ok("a", "x"), doctor.warn("b", "y", "z")
    assert doctor.ready([fine, warning])
    assert not doctor.ready([fine, doctor.fail("c", "gone", "fix")])


def canned(*findings: Finding):
    return tuple((lambda machine, f=finding: f) for finding in findings)


def test_command_exits_zero_with_warnings_only(monkeypatch, capsys):
    monkeypatch.setattr(doctor, "CHECKS", canned(doctor.ok("Python", "3.11"),
                                                 doctor.warn("Touch", "none.", "Plug it.")))
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == ["Checking this machine, one line per check…",
                                "✓ Python: 3.11", "! Touch: none. Fix: Plug it.",
                                "Ready to referee."]


def test_command_exits_one_and_reports_json_when_something_is_missing(monkeypatch, capsys):
    monkeypatch.setattr(doctor, "CHECKS", canned(doctor.fail("Screen", "none.", "Connect it.")))
    assert main(["doctor", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report == {"ready": False, "checks": [
        {"check": "Screen", "status": "missing", "found": "none.", "fix": "Connect it."}]}


def test_doctor_runs_on_this_machine_and_every_check_reports(capsys):
    findings = list(doctor.run_checks(Machine.here()))
    assert [f.name for f in findings] == [
        "Python", "Packages", "numpy", "zbar library", "Decoding", "Camera", "Table camera",
        "Lights (GPIO)", "Screen", "Touch", "Config", "Deck", "Game record", "Service",
        "LAN page"]
    assert not [f for f in findings if "the check itself failed" in f.found]
    assert all(f.fix for f in findings if f.status is not Status.OK)
    for name in ("Python", "Packages", "Decoding", "Config", "Deck", "Game record"):
        assert next(f for f in findings if f.name == name).status is Status.OK, name


# ---- software ---------------------------------------------------------------------------------


def test_packages_missing_say_how_to_reinstall(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor.metadata, "requires",
                        lambda name: ["numpy>=1.24", "no-such-package-here>=1"])
    finding = doctor.check_packages(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert finding.found == "no-such-package-here is missing."
    assert "deploy/install.sh" in finding.fix


def test_packages_in_a_refused_version_are_named(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor.metadata, "requires", lambda name: ["numpy>=99"])
    finding = doctor.check_packages(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "(needs >=99)" in finding.found


def test_numpy_that_breaks_picamera2_is_missing(tmp_path, monkeypatch):
    real_import = doctor.importlib.import_module

    def import_module(name):
        if name == "picamera2":
            raise ValueError("numpy.dtype size changed, may indicate binary incompatibility")
        return real_import(name)

    monkeypatch.setattr(doctor.importlib, "import_module", import_module)
    finding = doctor.check_numpy(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "breaks picamera2" in finding.found and "pins numpy" in finding.fix


@pytest.mark.parametrize(("decoder", "status"), [("zxing", Status.WARN), ("zbar", Status.FAIL)])
def test_missing_zbar_matters_only_when_zbar_decodes(tmp_path, monkeypatch, decoder, status):
    from pyzbar import zbar_library

    def load():
        raise ImportError("Unable to find zbar shared library")

    monkeypatch.setattr(zbar_library, "load", load)
    monkeypatch.setattr(doctor, "_configured_decoder", lambda machine: decoder)
    finding = doctor.check_zbar(fake_machine(tmp_path))
    assert finding.status is status
    assert finding.fix == "sudo apt install --no-install-recommends libzbar0"


def test_both_decoders_read_the_test_sticker_of_this_deck(tmp_path, own_config):
    own_config.write_text("[game]\ndeck_id = ZOO7\n")
    finding = doctor.check_decoding(fake_machine(tmp_path))
    assert finding.status is Status.OK
    assert finding.found == "zxing and zbar read a test sticker (NOAH1/ZOO7/WOM1)"


# ---- camera -----------------------------------------------------------------------------------


def table_with_sticker(text: str | None, brightness: int = 200) -> np.ndarray:
    """A 640×480 table top, with a textured mat and possibly one sticker."""
    rng = np.random.default_rng(7)
    frame = np.clip(rng.normal(brightness, 40, (480, 640)), 0, 255).astype(np.uint8)
    if text is not None:
        sticker = np.asarray(segno_sticker(text))
        frame[100:100 + sticker.shape[0], 200:200 + sticker.shape[1]] = sticker
    return frame


def segno_sticker(text: str, module_px: int = 5):
    """Any text as a QR code on white, grey (stickers of this deck come from the tags part)."""
    import segno
    from PIL import Image

    code = segno.make_qr(text, error="q")
    return Image.fromarray(np.kron(np.pad(255 - 255 * np.array(code.matrix, np.uint8), 4,
                                          constant_values=255),
                                   np.ones((module_px, module_px), np.uint8)))


def judge(frame, **camera) -> Finding:
    return doctor.judge_frame(Camera("USB camera 0", frame, **camera),
                              doctor._frame_decoder(Machine.here()))


def test_camera_reading_a_sticker_is_fine():
    finding = judge(table_with_sticker("NOAH1/BOX1/CAF2"))
    assert finding.status is Status.OK
    assert finding.found == "USB camera 0, 640×480, reads 1 sticker in view"


def test_foreign_codes_in_view_are_not_counted_as_stickers():
    finding = judge(table_with_sticker("https://example.com"))
    assert finding.status is Status.OK
    assert finding.found.endswith("picture sharp (put a card under it to check reading)")


def test_blurred_picture_gives_a_focus_hint_for_camera_module_3():
    blurred = np.full((720, 1280), 150, np.uint8)
    finding = judge(blurred, lens_module=True)
    assert finding.status is Status.WARN
    assert "out of focus" in finding.found
    assert "Camera Module 3" in finding.fix and "focus = 2.5 in [camera]" in finding.fix


def test_dark_picture_asks_for_light():
    finding = judge(table_with_sticker(None, brightness=20))
    assert finding.status is Status.WARN
    assert "dark" in finding.found and "Light the table" in finding.fix


def test_tiny_picture_asks_for_more_pixels():
    finding = judge(table_with_sticker(None)[:240, :320])
    assert finding.status is Status.WARN
    assert "resolution = 1280x720" in finding.fix


def test_no_camera_is_missing_unless_keeping_score_only(tmp_path, monkeypatch, own_config):
    from vision.sources import CameraMissing

    def grab_frame(machine):
        raise CameraMissing("No camera found (no Pi camera, no USB camera).", "Check the cable.")

    monkeypatch.setattr(doctor, "grab_frame", grab_frame)
    finding = doctor.check_camera(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert finding.found == "No camera found (no Pi camera, no USB camera)."
    assert finding.fix.startswith("Check the cable.") and "score_only = yes" in finding.fix
    own_config.write_text("[game]\nscore_only = yes\n")
    assert doctor.check_camera(fake_machine(tmp_path)).status is Status.OK


def test_camera_is_opened_as_the_config_says(tmp_path, monkeypatch, own_config):
    monkeypatch.setattr(doctor, "SETTLE_SECONDS", 0)
    own_config.write_text("[camera]\nsource = synthetic\nresolution = 640x480\n")
    camera = doctor.grab_frame(fake_machine(tmp_path))
    assert camera.frame.shape[:2] == (480, 640)
    assert doctor.check_camera(fake_machine(tmp_path)).status is Status.OK


def test_bad_camera_source_names_the_fix(tmp_path, own_config):
    own_config.write_text("[camera]\nsource = usb:x\n")
    finding = doctor.check_camera(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "bad number" in finding.found and "usb:0" in finding.fix


def test_camera_held_by_the_running_service_is_not_opened(tmp_path, monkeypatch):
    def grab_frame(machine):
        raise AssertionError("the doctor must not fight the app for the camera")

    monkeypatch.setattr(doctor, "grab_frame", grab_frame)
    running = "LoadState=loaded\nUnitFileState=enabled\nActiveState=active\nNRestarts=0\n"
    finding = doctor.check_camera(fake_machine(tmp_path, systemctl_show=lambda unit: running))
    assert finding.status is Status.WARN
    assert "sudo systemctl stop noah-companion" in finding.fix


def test_camera_that_gives_no_picture_says_so(tmp_path, monkeypatch):
    def grab_frame(machine):
        raise RuntimeError("Pipeline handler in use by another process")

    monkeypatch.setattr(doctor, "grab_frame", grab_frame)
    finding = doctor.check_camera(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "in use" in finding.found and "reboot" in finding.fix


# ---- devices ----------------------------------------------------------------------------------


def test_virtual_lights_are_fine(tmp_path, own_config):
    own_config.write_text("[lights]\npin_factory = mock\n")
    finding = doctor.check_gpio(fake_machine(tmp_path))
    assert finding == doctor.ok("Lights (GPIO)", "virtual lights (pin_factory = mock)")


def test_no_gpio_is_a_warning_off_the_pi_and_missing_on_it(tmp_path, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    from hardware.errors import HardwareError

    def open_pin_factory(name):
        raise HardwareError("This user may not open /dev/gpiochip0.", "Join the gpio group.")

    monkeypatch.setattr("hardware.pins.open_pin_factory", open_pin_factory)
    off_pi = doctor.check_gpio(fake_machine(tmp_path))
    assert off_pi.status is Status.WARN
    machine = fake_machine(tmp_path)
    write(machine.proc_root / "device-tree" / "model", "Raspberry Pi 5 Model B Rev 1.0\0")
    on_pi = doctor.check_gpio(machine)
    assert (on_pi.status, on_pi.fix) == (Status.FAIL, "Join the gpio group.")


def test_invalid_lights_section_names_the_key(tmp_path, own_config):
    own_config.write_text("[lights]\nbuzzer = 17\n")
    finding = doctor.check_gpio(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "GPIO 17 is used twice" in finding.found


def kms_machine(tmp_path: Path, connected: bool = True, **overrides) -> Machine:
    machine = fake_machine(tmp_path, **overrides)
    drm = machine.sys_root / "class" / "drm"
    (drm / "card1").mkdir(parents=True)
    write(drm / "card1-DSI-1" / "status", "connected\n" if connected else "disconnected\n")
    write(drm / "card1-HDMI-A-1" / "status", "disconnected\n")
    write(machine.dev_root / "dri" / "card1")
    write(machine.dev_root / "dri" / "renderD128")
    return machine


def test_screen_on_kms_with_the_touchscreen_connected(tmp_path):
    assert doctor.check_display(kms_machine(tmp_path)) == doctor.ok(
        "Screen", "KMS/DRM, connected: DSI-1")


def test_screen_without_render_group_is_missing(tmp_path):
    machine = kms_machine(tmp_path)
    machine.access = closed(machine.dev_root / "dri" / "renderD128")
    finding = doctor.check_display(machine)
    assert finding.status is Status.FAIL
    assert "renderD128" in finding.found and "video,render" in finding.fix


def test_screen_not_connected_points_at_the_cable(tmp_path):
    finding = doctor.check_display(kms_machine(tmp_path, connected=False))
    assert finding.status is Status.FAIL and "ribbon cable" in finding.fix


def test_a_running_desktop_that_holds_the_screen_is_missing(tmp_path):
    def systemctl_show(unit):
        active = "active" if unit == "display-manager.service" else "inactive"
        return f"LoadState=loaded\nActiveState={active}\n"

    machine = kms_machine(tmp_path, systemctl_show=systemctl_show)
    finding = doctor.check_display(machine)
    assert finding.status is Status.FAIL
    assert "do_boot_behaviour B1" in finding.fix
    machine.environ = {"SDL_VIDEODRIVER": "wayland"}  # the club chose to run inside the desktop
    assert doctor.check_display(machine).status is Status.OK


def test_no_screen_at_all_is_missing_but_a_desktop_will_do(tmp_path):
    assert doctor.check_display(fake_machine(tmp_path)).status is Status.FAIL
    desktop = fake_machine(tmp_path, environ={"WAYLAND_DISPLAY": "wayland-1"})
    assert doctor.check_display(desktop).found == "Wayland desktop session"


def touch_machine(tmp_path: Path, abs_words: str = "2608000 3", **overrides) -> Machine:
    machine = fake_machine(tmp_path, **overrides)
    inputs = machine.sys_root / "class" / "input"
    write(inputs / "event0" / "device" / "name", "Logitech USB Keyboard\n")
    write(inputs / "event0" / "device" / "capabilities" / "abs", "0\n")
    write(inputs / "event4" / "device" / "name", "raspberrypi-ts\n")
    # ABS_X, ABS_Y and the multi-touch codes 0x2f, 0x35, 0x36, 0x39 (as the panel reports them)
    write(inputs / "event4" / "device" / "capabilities" / "abs", abs_words + "\n")
    write(machine.dev_root / "input" / "event4")
    return machine


@pytest.mark.parametrize("abs_words", ["2608000 3", "260800000000003"], ids=["32-bit", "64-bit"])
def test_touchscreen_found_by_its_multitouch_capability(tmp_path, abs_words):
    machine = touch_machine(tmp_path, abs_words)
    assert doctor.touchscreens(machine) == [("raspberrypi-ts", machine.dev_root / "input" /
                                             "event4")]
    assert doctor.check_touch(machine).status is Status.OK


def test_touchscreen_unreadable_without_the_input_group(tmp_path):
    machine = touch_machine(tmp_path)
    machine.access = closed(machine.dev_root / "input" / "event4")
    finding = doctor.check_touch(machine)
    assert finding.status is Status.FAIL and "input group" in finding.fix


def test_no_touchscreen_is_only_a_warning(tmp_path):
    assert doctor.check_touch(fake_machine(tmp_path)).status is Status.WARN


# ---- files ------------------------------------------------------------------------------------


def test_missing_config_file_means_defaults(tmp_path, own_config):
    finding = doctor.check_config(fake_machine(tmp_path))
    assert finding == doctor.ok("Config", f"no file yet, defaults in use ({own_config})")


def test_bad_config_names_the_key(tmp_path, own_config):
    own_config.write_text("[game]\nfrogs = yes\n")
    finding = doctor.check_config(fake_machine(tmp_path))
    assert finding.status is Status.FAIL
    assert "'frogs'" in finding.found and "'frog'" in finding.found


def test_deck_file_that_does_not_load_is_missing(tmp_path, own_config):
    deck = write(tmp_path / "deck.csv", "species,gender,weight,tears,mark,promo\ncat,X,2,1,,no\n")
    own_config.write_text(f"[game]\ndeck = {deck}\n")
    finding = doctor.check_deck(fake_machine(tmp_path))
    assert finding.status is Status.FAIL and "gender 'X'" in finding.found


def test_store_with_games_is_counted(tmp_path, own_config):
    from companion.session.store import GameStore

    path = tmp_path / "record" / "games.sqlite"
    with GameStore(path) as store:
        store.create_game({"format": "noah-table-log", "version": 1, "players": ["A", "B"],
                           "options": {}})
    own_config.write_text(f"[store]\npath = {path}\n")
    finding = doctor.check_store(fake_machine(tmp_path))
    assert finding.status is Status.OK
    assert finding.found.startswith(f"{path}: 1 game, ")


def test_store_folder_not_writable_is_missing(tmp_path, own_config):
    own_config.write_text(f"[store]\npath = {tmp_path / 'games.sqlite'}\n")
    machine = fake_machine(tmp_path)
    machine.access = closed(tmp_path)
    finding = doctor.check_store(machine)
    assert finding.status is Status.FAIL and "sudo noah-companion doctor" in finding.fix


def test_store_on_a_full_card_is_missing(tmp_path, monkeypatch, own_config):
    own_config.write_text(f"[store]\npath = {tmp_path / 'games.sqlite'}\n")
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: SimpleNamespace(free=10 * 2**20))
    finding = doctor.check_store(fake_machine(tmp_path))
    assert finding.status is Status.FAIL and "10 MiB free" in finding.found


def test_damaged_store_asks_for_the_backup(tmp_path, own_config):
    path = write(tmp_path / "games.sqlite", "this is not a database, just text " * 100)
    own_config.write_text(f"[store]\npath = {path}\n")
    finding = doctor.check_store(fake_machine(tmp_path))
    assert finding.status is Status.FAIL


# ---- service ----------------------------------------------------------------------------------


def service_machine(tmp_path: Path, **state) -> Machine:
    values = {"LoadState": "loaded", "UnitFileState": "enabled", "ActiveState": "active",
              "NRestarts": "0", **state}
    text = "".join(f"{key}={value}\n" for key, value in values.items())
    return fake_machine(tmp_path, systemctl_show=lambda unit: text)


@pytest.mark.parametrize(("state", "status", "words"), [
    ({}, Status.OK, "active, starts at boot"),
    ({"NRestarts": "4"}, Status.WARN, "restarted 4 time(s)"),
    ({"ActiveState": "failed", "NRestarts": "5"}, Status.FAIL, "stopped after an error"),
    ({"UnitFileState": "disabled", "ActiveState": "inactive"}, Status.WARN, "not started at boot"),
    ({"LoadState": "not-found"}, Status.WARN, "not installed"),
])
def test_service_states(tmp_path, state, status, words):
    finding = doctor.check_service(service_machine(tmp_path, **state))
    assert finding.status is status
    assert words in finding.found


def test_systemctl_that_cannot_answer_is_a_warning(tmp_path):
    machine = fake_machine(tmp_path, systemctl_show=lambda unit: "Error=Failed to connect to bus")
    finding = doctor.check_service(machine)
    assert finding.status is Status.WARN
    assert finding.found == "systemctl cannot tell (Failed to connect to bus)."


def test_no_systemd_is_a_warning(tmp_path):
    finding = doctor.check_service(fake_machine(tmp_path))
    assert finding.status is Status.WARN and "deploy/install.sh" in finding.fix


def test_service_state_parses_systemctl_show():
    state = ServiceState.parse("LoadState=loaded\nUnitFileState=enabled\nActiveState=active\n"
                               "NRestarts=[not set]\n")
    assert state == ServiceState(installed=True, enabled=True, active="active", restarts=0,
                                 error=None)

