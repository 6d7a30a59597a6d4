"""Is this machine ready to referee a game? ``noah-companion doctor`` asks, check by check.

Each check is a small function that looks at one thing (Python, packages, zbar, the camera,
decoding, GPIO, the screen, touch, the config, the deck, the game record, the service) and
returns one :class:`Finding`: ✓ fine, ! works but worth fixing, ✗ missing. A finding that is not
fine always says what to do. The command exits 1 when anything is missing, so scripts and the
install guide can rely on it.

>>> machine = Machine.here()
>>> finding = check_python(machine)
>>> finding.status is Status.OK, finding.name
(True, 'Python')
>>> print(Finding("zbar library", Status.FAIL, "not found.", "Install libzbar0.").line())
✗ zbar library: not found. Fix: Install libzbar0.

Checks call the other parts' public functions (``companion.config``, ``companion.tags``,
``companion.session.store``, ``vision.config``, ``vision.sources``, ``vision.decoders``,
``hardware.pins``), so the doctor opens the camera, decodes and reads the record as the app
does; where a part offers nothing to ask (screen, touch, service), the check looks at the
device or asks systemd directly. Paths of ``/sys``, ``/dev`` and ``/proc`` come from
:class:`Machine`, so tests run the checks on fake trees.
"""

from __future__ import annotations

import enum
import importlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.game.inputs import is_ascii_number
from companion.session.narrate import plural

DISTRIBUTION = "noah-companion"
SERVICE = "noah-companion.service"
REINSTALL = "Reinstall the app: sudo deploy/install.sh (in a checkout: ./run.sh setup)."
GUIDE = "docs/raspberry-pi.md"
MIN_FREE_BYTES = 50 * 2**20  # below this the record may fail mid-game
LOW_FREE_BYTES = 500 * 2**20
SHARPNESS_HINT = 60.0  # variance of the Laplacian below which a frame looks out of focus
DARKNESS_HINT = 50  # mean grey level below which the table looks too dark
SETTLE_SECONDS = 1.0  # a camera's automatic exposure needs this long after it starts
ABS_MT_POSITION_X = 0x35  # the input event code every multi-touch screen reports
ABS_AXES = 64  # ABS_CNT: how many absolute-axis bits the kernel reports


class Status(enum.Enum):
    """How one check went. Only ``FAIL`` makes ``doctor`` exit non-zero."""

    OK = "ok"
    WARN = "warning"
    FAIL = "missing"

    @property
    def symbol(self) -> str:
        return {"ok": "✓", "warning": "!", "missing": "✗"}[self.value]


@dataclass(frozen=True)
class Finding:
    """The result of one check: what was found and, unless all is well, what to do."""

    name: str
    status: Status
    found: str
    fix: str = ""

    def line(self) -> str:
        """One line for people.

        >>> print(Finding("Python", Status.OK, "3.11.2").line())
        ✓ Python: 3.11.2
        """
        text = f"{self.status.symbol} {self.name}: {self.found}"
        return f"{text} Fix: {self.fix}" if self.fix else text

    def to_json(self) -> dict[str, str]:
        return {"check": self.name, "status": self.status.value, "found": self.found,
                "fix": self.fix}


def ok(name: str, found: str) -> Finding:
    return Finding(name, Status.OK, found)


def warn(name: str, found: str, fix: str) -> Finding:
    return Finding(name, Status.WARN, found, fix)


def fail(name: str, found: str, fix: str) -> Finding:
    return Finding(name, Status.FAIL, found, fix)


@dataclass(frozen=True)
class ServiceState:
    """What systemd says about the app's service (``systemctl show``)."""

    installed: bool
    enabled: bool
    active: str  # active, inactive, failed, activating, …
    restarts: int = 0
    error: str | None = None  # systemctl could not answer (e.g. no D-Bus for this user)

    @classmethod
    def parse(cls, text: str) -> ServiceState:
        """Read ``systemctl show -p LoadState,UnitFileState,ActiveState,NRestarts`` output.

        >>> ServiceState.parse("LoadState=loaded\\nUnitFileState=enabled\\nActiveState=failed\\n"
        ...                    "NRestarts=3")
        ServiceState(installed=True, enabled=True, active='failed', restarts=3, error=None)
        """
        values = dict(line.partition("=")[::2] for line in text.splitlines() if "=" in line)
        restarts = values.get("NRestarts", "0")
        return cls(
            installed=values.get("LoadState") == "loaded",
            enabled=values.get("UnitFileState") == "enabled",
            active=values.get("ActiveState", "inactive"),
            restarts=int(restarts) if is_ascii_number(restarts) else 0,
            error=values.get("Error"),
        )


def _systemctl_show(unit: str) -> str | None:
    """``systemctl show`` of the unit (``Error=…`` if systemctl fails), or None where systemd
    is not running (containers)."""
    if not Path("/run/systemd/system").is_dir() or shutil.which("systemctl") is None:
        return None
    properties = "LoadState,UnitFileState,ActiveState,NRestarts"
    result = subprocess.run(["systemctl", "show", unit, "-p", properties],
                            capture_output=True, text=True, timeout=10, check=False)
    if result.returncode != 0:
        return "Error=" + (result.stderr.strip().splitlines() or ["no answer"])[0]
    return result.stdout


@dataclass
class Machine:
    """The computer being checked: where its /sys, /dev and /proc are, and shared facts.

    Tests build one over fake directory trees and a canned ``systemctl`` answer.
    """

    sys_root: Path = Path("/sys")
    dev_root: Path = Path("/dev")
    proc_root: Path = Path("/proc")
    systemctl_show: Callable[[str], str | None] = _systemctl_show
    environ: dict[str, str] = field(default_factory=lambda: dict(os.environ))
    access: Callable[[Path | str, int], bool] = os.access  # may this user open it?

    @classmethod
    def here(cls) -> Machine:
        return cls()

    @cached_property
    def model(self) -> str | None:
        """The board's model, e.g. "Raspberry Pi 5 Model B Rev 1.0"; None off a Pi-like board."""
        path = self.proc_root / "device-tree" / "model"
        try:
            return path.read_text(errors="replace").strip("\0\n")
        except OSError:
            return None

    @property
    def is_raspberry_pi(self) -> bool:
        return self.model is not None and "Raspberry Pi" in self.model

    @cached_property
    def service(self) -> ServiceState | None:
        text = self.systemctl_show(SERVICE)
        return ServiceState.parse(text) if text is not None else None

    @property
    def service_running(self) -> bool:
        return self.service is not None and self.service.active in ("active", "activating")

    @cached_property
    def config(self) -> Any:
        """The app's :class:`companion.config.Config` (raises :class:`UserError` if invalid)."""
        from companion.config import load_config

        return load_config()

    def config_or_none(self) -> Any:
        try:
            return self.config
        except UserError:
            return None  # check_config reports it; other checks use the defaults


# ---- software ---------------------------------------------------------------------------------


def check_python(machine: Machine) -> Finding:
    """The Python version the app declares (3.11 or newer, as on Raspberry Pi OS Bookworm)."""
    from packaging.specifiers import SpecifierSet

    version = ".".join(map(str, sys.version_info[:3]))
    try:
        needed = SpecifierSet(metadata.metadata(DISTRIBUTION)["Requires-Python"] or "")
    except metadata.PackageNotFoundError:
        needed = SpecifierSet()
    if version not in needed:
        return fail("Python", f"{version} is too old (the app needs {needed}).",
                    "Use Raspberry Pi OS Bookworm (Python 3.11), then " + REINSTALL)
    return ok("Python", f"{version} ({sys.executable})")


def check_packages(machine: Machine) -> Finding:
    """Every package the app depends on is installed, in a version it accepts."""
    from packaging.requirements import Requirement

    try:
        requirements = [Requirement(text) for text in metadata.requires(DISTRIBUTION) or []]
    except metadata.PackageNotFoundError:
        return fail("Packages", "the app itself is not installed in this Python.", REINSTALL)
    problems, versions = [], {}
    for requirement in requirements:
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue  # test-only extras
        try:
            versions[requirement.name] = installed = metadata.version(requirement.name)
        except metadata.PackageNotFoundError:
            problems.append(f"{requirement.name} is missing")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            problems.append(f"{requirement.name} {installed} (needs {requirement.specifier})")
    if problems:
        return fail("Packages", "; ".join(problems) + ".", REINSTALL)
    shown = ", ".join(f"{name} {versions[name]}" for name in ("kivy", "opencv-python-headless",
                                                              "zxing-cpp", "gpiozero")
                      if name in versions)
    return ok("Packages", f"all {len(versions)} present ({shown}, …)")


def check_numpy(machine: Machine) -> Finding:
    """One numpy for everyone: pip's numpy 2 shadowing apt's breaks picamera2 (simplejpeg)."""
    try:
        numpy = importlib.import_module("numpy")
    except ImportError as error:
        return fail("numpy", f"cannot be imported ({error}).", REINSTALL)
    where = "the system's" if "/usr/lib/python3/" in (numpy.__file__ or "") else "pip's"
    try:
        importlib.import_module("picamera2")
    except ImportError:
        return ok("numpy", f"{numpy.__version__} ({where}; picamera2 not installed)")
    except Exception as error:  # simplejpeg: "numpy.dtype size changed, binary incompatibility"
        return fail("numpy", f"{numpy.__version__} ({where}) breaks picamera2: {error}",
                    "Keep apt's numpy: " + REINSTALL + " (it pins numpy to the system's version).")
    return ok("numpy", f"{numpy.__version__} ({where}), works with picamera2")


def _zbar_version(library: Any) -> str:
    import ctypes

    major, minor, patch = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    # zbar 0.23 added the patch argument; older versions ignore the extra pointer.
    library.zbar_version(ctypes.byref(major), ctypes.byref(minor), ctypes.byref(patch))
    return f"{major.value}.{minor.value}.{patch.value}"


def check_zbar(machine: Machine) -> Finding:
    """Debian's libzbar0, which pyzbar loads (the zbar decoder; zxing-cpp needs nothing)."""
    try:
        from pyzbar import zbar_library

        library, _ = zbar_library.load()
    except ImportError as error:
        needed = _configured_decoder(machine) == "zbar"
        make = fail if needed else warn
        purpose = "the configured zbar decoder cannot run" if needed \
            else "only the zbar decoder needs it (zxing is the default)"
        return make("zbar library", f"not found ({error}): {purpose}.",
                    "sudo apt install --no-install-recommends libzbar0")
    return ok("zbar library", f"libzbar {_zbar_version(library)}")


def _decoder_settings(machine: Machine) -> Any:
    """The validated ``[decoder]`` section (its defaults if the config file is invalid)."""
    from vision.config import DecoderSettings

    config = machine.config_or_none()
    try:
        return config.validated("decoder") if config is not None else DecoderSettings()
    except UserError:
        return DecoderSettings()  # check_config reports the bad key


def _configured_decoder(machine: Machine) -> str:
    return _decoder_settings(machine).name


def printed_sticker(machine: Machine) -> tuple[str, Any]:
    """A sticker of this deck as the sheets print it (14 mm at 150 dpi): its text, and its
    picture as a grey array, the way a decoder gets a camera frame.

    >>> text, image = printed_sticker(Machine.here())
    >>> text, image.ndim, str(image.dtype)
    ('NOAH1/BOX1/WOM1', 2, 'uint8')
    """
    import numpy as np

    from companion.game import default_deck
    from companion.tags.payload import DEFAULT_DECK_ID, encode
    from companion.tags.sticker import render_sticker

    config = machine.config_or_none()
    deck_id = config.game.deck_id if config is not None else DEFAULT_DECK_ID
    card = default_deck()[0]
    image = render_sticker(card, deck_id, dpi=150).convert("L")
    return encode(deck_id, card), np.asarray(image)


def check_decoding(machine: Machine) -> Finding:
    """Each QR decoder reads a freshly drawn sticker of this deck."""
    from vision.decoders import DECODERS, make_decoder

    text, image = printed_sticker(machine)
    readers, broken = [], []
    for name in DECODERS:
        try:
            texts = [detection.text for detection in make_decoder(name).decode(image)]
        except Exception as error:  # a decoder that cannot start: VisionError, ImportError
            broken.append(f"{name} ({getattr(error, 'what', error)})")
            continue
        if texts == [text]:
            readers.append(name)
        else:
            broken.append(f"{name} (read {texts or 'nothing'})")
    configured = _configured_decoder(machine)
    if configured not in readers:
        return fail("Decoding", f"the {configured} decoder does not read a test sticker "
                    f"({text}); problems: {', '.join(broken)}.", REINSTALL)
    if broken:
        return warn("Decoding", f"{', '.join(readers)} read a test sticker ({text}); "
                    f"{', '.join(broken)} does not.",
                    "Only needed if you choose that decoder; see the zbar library line.")
    return ok("Decoding", f"{' and '.join(readers)} read a test sticker ({text})")


# ---- camera -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A camera that gave a frame: how it is called, and what it saw."""

    description: str
    frame: Any  # BGR or grey numpy array
    lens_module: bool = False  # a Camera Module 3, whose lens position can be set


def _camera_settings(machine: Machine) -> Any:
    from vision.config import CameraSettings

    config = machine.config_or_none()
    return config.validated("camera") if config is not None else CameraSettings()


def _pi_camera_model() -> str | None:
    """The sensor of the first Pi camera ("imx708" is the Camera Module 3), if there is one."""
    try:
        from picamera2 import Picamera2
    except ImportError:
        return None
    cameras = Picamera2.global_camera_info()
    return str(cameras[0].get("Model", "")) if cameras else None


def grab_frame(machine: Machine) -> Camera:
    """A settled frame from the camera the config names, opened as the app opens it.

    Raises :class:`vision.errors.VisionError` (``CameraMissing``, ``CameraLost``) with its fix.
    """
    from vision.sources import make_source

    settings = _camera_settings(machine)
    source = make_source(settings.source, settings)
    frame = settled_frame(source)
    if frame is None:
        from vision.sources import CameraLost

        raise CameraLost(f"{source.name} gave no picture.", "Check [camera] source.")
    model = _pi_camera_model() if source.name.startswith("Pi camera") else None
    name = f"{source.name} ({model})" if model else source.name
    lens_module = bool(model and model.startswith("imx708")) and settings.focus is None
    return Camera(name, frame, lens_module=lens_module)


def settled_frame(source: Any) -> Any:
    """Open a camera (hand or table), read until its exposure settled, close it: the last
    frame, or None if it gave none."""
    source.open()
    try:
        deadline = time.monotonic() + SETTLE_SECONDS
        frame = source.read()
        while frame is not None and time.monotonic() < deadline:  # exposure settles
            newer = source.read()
            if newer is None:  # a photo or a video ends: its last frame is the one
                break
            frame = newer
    finally:
        source.close()  # or the app's next start finds the camera "in use"
    return frame


@dataclass(frozen=True)
class FrameQuality:
    """What a frame says about focus, light and stickers in view."""

    width: int
    height: int
    sharpness: float  # variance of the Laplacian: higher is sharper
    brightness: float  # mean grey level, 0-255
    stickers: int  # our QR codes read in the frame

    @classmethod
    def measure(cls, frame: Any, decode: Callable[[Any], list[Any]]) -> FrameQuality:
        """Measure a frame.

        >>> import numpy as np
        >>> quality = FrameQuality.measure(np.full((480, 640), 128, np.uint8), lambda f: [])
        >>> quality.width, quality.height, quality.sharpness, quality.brightness
        (640, 480, 0.0, 128.0)
        """
        import cv2

        from vision.decoders import to_gray

        gray = to_gray(frame)
        height, width = gray.shape
        sharpness = float(cv2.Laplacian(gray, cv2.CV_64F).var())
        return cls(width, height, sharpness, float(gray.mean()), len(decode(gray)))


def _focus_fix(camera: Camera) -> str:
    if camera.lens_module:
        return ("Camera Module 3: set the lens for the card distance, e.g. focus = 2.5 in "
                f"[camera] for 40 cm (see 'Focus' in {GUIDE}).")
    return f"Turn the lens ring, or move the camera (see 'Focus' in {GUIDE})."


def held_by_the_app(name: str) -> Finding:
    """A camera check not run: the app's service holds the camera."""
    return warn(name, "not tested: the app is running and holds the camera.",
                "To test it: sudo systemctl stop noah-companion, run the doctor again, then "
                "sudo systemctl start noah-companion.")


def check_camera(machine: Machine) -> Finding:
    """A camera gives a frame; its size, focus and light are good enough to read stickers."""
    config = machine.config_or_none()
    if config is not None and config.game.score_only:
        return ok("Camera", "not used (score_only = yes: tears are typed on the screen)")
    if machine.service_running:
        return held_by_the_app("Camera")
    from vision.errors import VisionError

    try:
        camera = grab_frame(machine)
    except VisionError as error:  # CameraMissing, CameraLost, a bad [camera] source
        return fail("Camera", error.what, f"{error.fix} To keep score without a camera, set "
                    "score_only = yes in [game].".strip())
    except Exception as error:  # libcamera and V4L2 errors have no common type
        return fail("Camera", f"it gave no picture ({error}).",
                    "Reconnect the camera with the Pi switched off; if it says 'in use', "
                    "close the other program or reboot.")
    return judge_frame(camera, _frame_decoder(machine))


def _frame_decoder(machine: Machine) -> Callable[[Any], list[Any]]:
    """The app's decoder, counting only our stickers (foreign codes are ignored, as in play)."""
    from companion.tags.payload import is_ours

    decoder = _decoder_settings(machine).decoder()
    return lambda gray: [d for d in decoder.decode(gray) if is_ours(d.text)]


def judge_frame(camera: Camera, decode: Callable[[Any], list[Any]]) -> Finding:
    """Turn one frame into advice about resolution, focus and light."""
    quality = FrameQuality.measure(camera.frame, decode)
    found = f"{camera.description}, {quality.width}×{quality.height}"
    if quality.stickers:
        return ok("Camera", f"{found}, reads {plural(quality.stickers, 'sticker')} in view")
    if quality.width < 640 or quality.height < 480:
        return warn("Camera", f"{found}: too few pixels to read small stickers.",
                    "Set resolution = 1280x720 or more in [camera].")
    if quality.brightness < DARKNESS_HINT:
        return warn("Camera", f"{found}, but the picture is dark "
                    f"(brightness {quality.brightness:.0f}/255).",
                    f"Light the table evenly from above (see 'Lighting' in {GUIDE}).")
    if quality.sharpness < SHARPNESS_HINT:
        return warn("Camera", f"{found}, but the picture looks out of focus "
                    f"(sharpness {quality.sharpness:.0f}).", _focus_fix(camera))
    return ok("Camera", f"{found}, picture sharp (put a card under it to check reading)")


TABLE_CHECK_FIX = ("On the touchscreen, Settings › Check the table camera shows its picture with "
                   "the mats found and what to change (see docs/table-view.md).")


def check_table_camera(machine: Machine) -> Finding:
    """The camera above the table (``[camera] view = table`` or ``both``) gives a picture in
    which the five mats and Noah's marker are found with enough detail to read the cards
    (:func:`vision.table_check.check_table`, as the app's calibration screen checks it)."""
    settings = _camera_settings(machine)
    if settings.view == "hand":
        return ok("Table camera", "not used (view = hand: cards are shown to the camera)")
    if machine.service_running:
        return held_by_the_app("Table camera")
    from vision.errors import VisionError
    from vision.table_capture import open_table_source

    try:
        source = open_table_source(settings.table_source, settings)
        frame = settled_frame(source)
    except VisionError as error:  # CameraMissing, a bad table_source
        return fail("Table camera", error.what, error.fix)
    except Exception as error:  # libcamera and V4L2 errors have no common type
        return fail("Table camera", f"it gave no picture ({error}).",
                    "Reconnect the camera with the Pi switched off, then run the doctor again.")
    if frame is None:
        return fail("Table camera", f"{source.name} gave no picture.",
                    "Check [camera] table_source, and the camera's cable.")
    return judge_table(source.name, frame.full)


def judge_table(name: str, frame: Any) -> Finding:
    """What one overhead frame says: mats found, the fewest pixels per code square, Noah.

    >>> import numpy as np
    >>> blank = np.full((720, 1280), 200, np.uint8)
    >>> print(judge_table("usb:1", blank).line())  # doctest: +ELLIPSIS
    ✗ Table camera: usb:1, 1280×720: no mat found. Fix: On the touchscreen, Settings › ...
    """
    from vision.table_check import ENOUGH_PX, TOO_FEW_PX, check_table

    check = check_table(frame)
    height, width = frame.shape[:2]
    seen = f"{name}, {width}×{height}"
    found = {ferry: view.px_per_module for ferry, view in check.ferries.items()
             if view.found and view.px_per_module is not None}
    if not found:
        return fail("Table camera", f"{seen}: no mat found.", TABLE_CHECK_FIX)
    fewest, where = min((px, ferry) for ferry, px in found.items())
    mats = f"mats found: {', '.join(map(str, sorted(found)))} of 5"
    if check.missing:
        mats += f" (not found: ferry {' and '.join(map(str, check.missing))})"
    detail = f"fewest pixels per code square {fewest:.1f} (ferry {where})"
    noah = "Noah's marker found" if check.noah is not None else "Noah's marker not found"
    summary = f"{seen}, {mats}; {detail}; {noah}"
    if check.missing or fewest < TOO_FEW_PX:
        return fail("Table camera", summary + ".", TABLE_CHECK_FIX)
    if check.noah is None or fewest < ENOUGH_PX or "ready" not in check.advice:
        return warn("Table camera", summary + ".", TABLE_CHECK_FIX)
    return ok("Table camera", summary)


# ---- devices ----------------------------------------------------------------------------------


def check_gpio(machine: Machine) -> Finding:
    """The pin factory for the ferry lights opens, with the permissions it needs."""
    from hardware.errors import HardwareError
    from hardware.pins import open_pin_factory

    config = machine.config_or_none()
    try:
        lights = config.validated("lights") if config is not None else None
    except UserError as error:
        return fail("Lights (GPIO)", error.what, error.fix)
    factory_name = lights.pin_factory if lights is not None else "auto"
    if factory_name == "mock":
        return ok("Lights (GPIO)", "virtual lights (pin_factory = mock)")
    try:
        factory = open_pin_factory(factory_name)
    except HardwareError as error:
        make = fail if machine.is_raspberry_pi else warn
        return make("Lights (GPIO)", error.what, error.fix)
    kind = type(factory).__name__
    try:
        if "LGPIO" in kind.upper() and not machine.access(os.getcwd(), os.W_OK):
            return fail("Lights (GPIO)", f"lgpio cannot write its files in {os.getcwd()}.",
                        "Start the app from a writable folder (the service uses "
                        "/var/lib/noah-companion).")
        return ok("Lights (GPIO)", f"{kind} on {machine.model or 'this computer'}")
    finally:
        _close_factory(factory)


def _close_factory(factory: Any) -> None:
    from gpiozero import Device

    factory.close()
    if Device.pin_factory is factory:
        Device.pin_factory = None


def _drm_cards(machine: Machine) -> Iterator[Path]:
    yield from sorted((machine.sys_root / "class" / "drm").glob("card[0-9]"))


def _connected_outputs(machine: Machine) -> list[str]:
    outputs = []
    for status in sorted((machine.sys_root / "class" / "drm").glob("card*-*/status")):
        if status.read_text().strip() == "connected":
            outputs.append(status.parent.name.split("-", 1)[1])
    return outputs


def _desktop_holds_the_screen(machine: Machine) -> bool:
    """A running desktop (display manager) while the app is to draw through KMS/DRM itself."""
    if machine.environ.get("SDL_VIDEODRIVER", "kmsdrm") != "kmsdrm":
        return False  # set up to draw inside the desktop instead
    desktop = machine.systemctl_show("display-manager.service")
    return desktop is not None and ServiceState.parse(desktop).active == "active"


def check_display(machine: Machine) -> Finding:
    """A screen the app can draw on: a desktop session, or KMS/DRM with the right groups."""
    env = machine.environ
    if env.get("WAYLAND_DISPLAY") or env.get("DISPLAY"):
        session = "Wayland" if env.get("WAYLAND_DISPLAY") else "X11"
        return ok("Screen", f"{session} desktop session")
    if _desktop_holds_the_screen(machine):
        return fail("Screen", "a desktop session holds the screen, so the app cannot draw on it.",
                    "Start the Pi to the text console: sudo raspi-config nonint "
                    "do_boot_behaviour B1, then sudo reboot (see section 2 of "
                    f"{GUIDE}).")
    cards = [machine.dev_root / "dri" / card.name for card in _drm_cards(machine)]
    if not cards:
        return fail("Screen", "no graphics device (/dev/dri) and no desktop session.",
                    f"Connect the touchscreen (see {GUIDE}). Without a screen the app can only "
                    "draw offscreen (try ./run.sh demo).")
    closed = [str(card) for card in cards if not machine.access(card, os.R_OK | os.W_OK)]
    renders = sorted((machine.dev_root / "dri").glob("renderD*"))
    closed += [str(node) for node in renders if not machine.access(node, os.R_OK | os.W_OK)]
    if closed:
        return fail("Screen", f"this user may not open {', '.join(closed)} (drawing would be "
                    "slow software rendering, or fail).",
                    "Add the user to the video and render groups: sudo usermod -aG video,render "
                    "$USER (the service user gets them from deploy/install.sh).")
    outputs = _connected_outputs(machine)
    if not outputs:
        return fail("Screen", "graphics ready, but no screen is connected.",
                    "Check the touchscreen's ribbon cable (Pi switched off) and its power.")
    return ok("Screen", f"KMS/DRM, connected: {', '.join(outputs)}")


def abs_bitmask(words: list[str]) -> int:
    """The absolute-axis bits of an input device from sysfs' hex words (most significant first).

    The kernel prints one word per ``long``: a 64-bit kernel prints the 64 axis bits as one word,
    a 32-bit kernel as two.

    >>> hex(abs_bitmask(["2608000", "3"])) == hex(abs_bitmask(["260800000000003"]))
    True
    """
    if not words:
        return 0
    digits = ABS_AXES // 4 // len(words)
    return int("".join(word.rjust(digits, "0") for word in words), 16)


def touchscreens(machine: Machine) -> list[tuple[str, Path]]:
    """Input devices that report multi-touch positions, as (name, /dev/input/eventN)."""
    found = []
    for event in sorted((machine.sys_root / "class" / "input").glob("event*")):
        try:
            name = (event / "device" / "name").read_text().strip()
            abs_bits = (event / "device" / "capabilities" / "abs").read_text().split()
        except OSError:
            continue
        if abs_bitmask(abs_bits) >> ABS_MT_POSITION_X & 1:
            found.append((name, machine.dev_root / "input" / event.name))
    return found


def check_touch(machine: Machine) -> Finding:
    """A touchscreen this user may read (the app itself sets Kivy to read it once, and turns
    touches with the picture for ``[ui] rotation = 180``)."""
    screens = touchscreens(machine)
    if not screens:
        return warn("Touch", "no touchscreen found (a mouse works too).",
                    f"Check the touchscreen's cable and power (see 'Touchscreen' in {GUIDE}).")
    name, device = screens[0]
    if not machine.access(device, os.R_OK):
        return fail("Touch", f"'{name}' found, but this user may not read {device}.",
                    "Add the user to the input group: sudo usermod -aG input $USER (the "
                    "service user gets it from deploy/install.sh).")
    return ok("Touch", f"'{name}' ({device})")


# ---- files ------------------------------------------------------------------------------------


def check_config(machine: Machine) -> Finding:
    """The config file reads and every section is valid (a missing file means defaults)."""
    from companion.config import SECTIONS, config_path

    path = config_path()
    try:
        config = machine.config
        for name in SECTIONS:
            if name not in ("game", "store"):
                _validate_if_available(config, name)
    except UserError as error:
        return fail("Config", error.what, error.fix)
    if not path.exists():
        return ok("Config", f"no file yet, defaults in use ({path})")
    return ok("Config", str(path))


def _validate_if_available(config: Any, name: str) -> None:
    from companion.config import part_validator

    if name == "ui":  # the app's own section: its validator is handed in (config imports no ui)
        from companion.ui.settings import validate_ui

        config.validated(name, validate_ui)
        return
    try:
        part_validator(name)
    except (ImportError, AttributeError, LookupError):
        return  # that part offers no validator in this version
    config.validated(name)


def check_deck(machine: Machine) -> Finding:
    """The deck named in [game] loads (the built-in one, or the club's CSV)."""
    from companion.tags.tagged_deck import load_tagged_deck

    try:
        config = machine.config
        deck = load_tagged_deck(config.game.deck, config.game.deck_id).deck
    except UserError as error:
        return fail("Deck", error.what, error.fix)
    source = "built-in deck" if config.game.deck == "default" else config.game.deck
    return ok("Deck", f"{source}: {len(deck)} cards, stickers of deck {config.game.deck_id}")


def check_store(machine: Machine) -> Finding:
    """The game record's folder is writable, has room, the record itself is sound, and every
    game in it can be replayed (a damaged one is named by number and line). The record is only
    read, so the doctor runs beside the app."""
    from companion.paths import default_store_path
    from companion.session.store import GameStore

    config = machine.config_or_none()
    path = config.store.path if config is not None else default_store_path()
    folder = _existing_parent(path)
    if not machine.access(folder, os.W_OK):
        return fail("Game record", f"this user may not write in {folder}.",
                    "Choose another folder with [store] path = …, or run the doctor as the "
                    "service does: sudo noah-companion doctor.")
    free = shutil.disk_usage(folder).free
    room = f"{free / 2**30:.1f} GiB free"
    if free < MIN_FREE_BYTES:
        return fail("Game record", f"{path}: only {free // 2**20} MiB free.",
                    "Free some space on the SD card (sudo apt clean; delete old files).")
    if path.exists():
        try:
            with GameStore.reader(path) as store:
                verdict = store.integrity_check()
                games, damaged = _replayed_games(store, config)
                holder = store.holder()
        except UserError as error:
            return fail("Game record", error.what, error.fix)
        if verdict != "ok":
            return fail("Game record", f"{path} is damaged ({verdict[:200]}).",
                        f"Restore the last backup (see 'Backing up' in {GUIDE}).")
        found = f"{path}: {plural(games, 'game')}, {room}"
        if holder[0] is not None:
            found += f", in use by the referee (process {holder[0]})"
        if damaged:
            return warn("Game record", f"{found}; damaged: " + "; ".join(damaged) + ".",
                        "In the app, touch the game to resume it up to the last good move, "
                        "abandon it or delete it; 'noah-companion export N' shows every line.")
    else:
        found = f"{path}: no games yet, {room}"
    if free < LOW_FREE_BYTES:
        return warn("Game record", found, "Free some space on the SD card soon.")
    return ok("Game record", found)


def _replayed_games(store: Any, config: Any) -> tuple[int, list[str]]:
    """How many games the record holds, and each damaged one as ``game 3 at line 33 (why)``."""
    from companion.game.deck import default_deck
    from companion.session.history import history
    from companion.tags.tagged_deck import load_deck_file

    try:
        deck = load_deck_file(config.game.deck) if config is not None else default_deck()
    except UserError:  # the deck check says why; replay with the built-in deck meanwhile
        deck = default_deck()
    summaries = history(store, deck)
    damaged = [f"game {game.id} at line {game.damage.line} ({game.damage.reason.rstrip('.')})"
               for game in summaries if game.damage is not None]
    return len(summaries), damaged


def _existing_parent(path: Path) -> Path:
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_service(machine: Machine) -> Finding:
    """The service is installed, starts at boot and is not crashing."""
    service = machine.service
    if service is None:
        return warn("Service", "systemd is not running here, so the app cannot start at boot.",
                    f"On the Raspberry Pi: sudo deploy/install.sh (see {GUIDE}).")
    if service.error:
        return warn("Service", f"systemctl cannot tell ({service.error}).",
                    "Run the doctor as an administrator: sudo noah-companion doctor")
    if not service.installed:
        return warn("Service", "not installed: the app does not start at boot.",
                    "sudo deploy/install.sh")
    logs = "see why with: sudo journalctl -u noah-companion -b"
    if service.active == "failed":
        return fail("Service", f"stopped after an error ({service.restarts} restarts).",
                    f"{logs.capitalize()}, then: sudo systemctl restart noah-companion.")
    if not service.enabled:
        return warn("Service", f"installed but not started at boot ({service.active}).",
                    "sudo systemctl enable --now noah-companion")
    if service.restarts:
        return warn("Service", f"{service.active}, restarted {service.restarts} time(s) after "
                    "crashes since it was started.", logs.capitalize() + ".")
    return ok("Service", f"{service.active}, starts at boot")


CHECKS: tuple[Callable[[Machine], Finding], ...] = (
    check_python, check_packages, check_numpy, check_zbar, check_decoding, check_camera,
    check_table_camera, check_gpio, check_display, check_touch, check_config, check_deck,
    check_store, check_service,
)



def check_web(machine: Machine) -> Finding:
    """The LAN page ([web]): off, or on and answering on this machine, with the address phones
    use (the token is only on the table's screen)."""
    import urllib.error
    import urllib.request

    from companion.web.server import lan_address
    from companion.web.settings import WebSettings

    try:
        settings = machine.config.validated("web", WebSettings.from_section)
    except UserError as error:
        return fail("LAN page", error.what, error.fix)
    if not settings.enabled:
        return ok("LAN page", "off ([web] enabled = no): nothing is served on the network")
    local = "127.0.0.1" if settings.host in ("0.0.0.0", "::") else settings.host
    shown = lan_address() if settings.host in ("0.0.0.0", "::") else settings.host
    try:
        urllib.request.urlopen(f"http://{local}:{settings.port}/", timeout=3)
        answer = "200"  # a page without the token: not the table's server
    except urllib.error.HTTPError as error:
        answer = str(error.code) if error.headers.get("Server") == "Noah table" else "other"
    except OSError:
        return warn("LAN page", f"on, but nothing answers on port {settings.port}.",
                    "Start the app (or 'noah-companion web'); if it runs, see its log for "
                    "the port it could not take.")
    if answer != "401":
        return warn("LAN page", f"port {settings.port} answers, but not with the table's page.",
                    "Another program uses that port: choose another with [web] port = ....")
    return ok("LAN page", f"on at http://{shown}:{settings.port}/ (phones scan the QR code on "
                          "the table's screen: it carries the token)")


# The LAN page's check runs last (it only knocks on this machine's own port).
CHECKS = (*CHECKS, check_web)


def run_checks(machine: Machine, checks: tuple[Callable[[Machine], Finding], ...] | None = None,
               on_start: Callable[[str], None] | None = None) -> Iterator[Finding]:
    """Run each check (default: :data:`CHECKS`) in turn; a check that breaks is itself
    reported, never a traceback. ``on_start`` hears what is being checked before each check
    runs (the camera checks take seconds).

    >>> heard = []
    >>> [f.name for f in run_checks(Machine.here(), (check_python,), heard.append)], heard
    (['Python'], ['Python'])
    """
    for check in CHECKS if checks is None else checks:
        if on_start is not None:
            on_start(subject(check))
        try:
            yield check(machine)
        except Exception as error:
            yield fail(subject(check)[:1].upper() + subject(check)[1:],
                       f"the check itself failed ({type(error).__name__}: {error}).",
                       "Please report this line to the project's maintainers.")


#: What a check looks at, where its name does not say it in plain words.
SUBJECTS = {"check_python": "Python", "check_zbar": "zbar library", "check_gpio": "lights (GPIO)",
            "check_display": "screen", "check_store": "game record", "check_web": "LAN page"}


def subject(check: Callable[[Machine], Finding]) -> str:
    """What a check looks at: ``check_table_camera`` -> ``table camera``."""
    name = check.__name__
    return SUBJECTS.get(name) or re.sub(r"^check_", "", name).replace("_", " ")


def ready(findings: list[Finding]) -> bool:
    """True when nothing needed is missing (warnings allowed)."""
    return all(finding.status is not Status.FAIL for finding in findings)
