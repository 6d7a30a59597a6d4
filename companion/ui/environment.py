"""Kivy's process-wide set-up, done before Kivy is first imported.

Kivy reads its environment at import: where its config and logs go (``KIVY_HOME``, kept in the
app's own data directory instead of ``~/.kivy``), whether it parses ``sys.argv``
(``KIVY_NO_ARGS``: the app has its own command line), how it logs (through Python's
:mod:`logging`, so ``--verbose`` decides what reaches the terminal) and which window driver SDL
uses. :func:`configure_kivy` then fixes the touchscreen's known pitfalls in Kivy's config.

Which screen: SDL quietly falls back to its ``offscreen`` driver when it finds no display, and
the app would then run invisibly for ever. :func:`find_screen` asks SDL itself, in a short-lived
child process, which driver opens (``x11``, ``wayland``, ``kmsdrm``: the Pi's screen without a
desktop) and the app pins that driver, or says in one sentence that there is no screen.
``SDL_VIDEODRIVER=offscreen``, set on purpose, is honoured (tests, screenshots, benchmarks).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import UserError

log = logging.getLogger(__name__)
WIDTH, HEIGHT = 800, 480
OFFSCREEN = "offscreen"
"""The driver that draws nowhere: only when asked for by name (tests, screenshots)."""
SCREEN_DRIVERS = ("x11", "wayland", "kmsdrm")
"""SDL's drivers that show something, in SDL's own order of preference."""
PROBE_SECONDS = 4.0  # the whole search stays under the 5 s a person waits for an answer

# Run by a child process: SDL_VideoInit on each driver in turn, the first that opens is printed.
# A child, so that a driver that hangs or crashes (a stale X display over the network) cannot
# take the app with it, and Kivy later starts with a fresh SDL.
_PROBE = """
import ctypes, sys
sdl = ctypes.CDLL(sys.argv[1])
sdl.SDL_VideoInit.argtypes = [ctypes.c_char_p]
sdl.SDL_GetError.restype = ctypes.c_char_p
for name in sys.argv[2:]:
    if sdl.SDL_VideoInit(name.encode()) == 0:
        sdl.SDL_VideoQuit()
        print("open", name, flush=True)
        break
    print("fail", name, sdl.SDL_GetError().decode(errors="replace"), flush=True)
"""


def no_screen_error(reason: str = "there is no X, Wayland or KMS screen") -> UserError:
    """The one sentence said when there is nothing to draw on."""
    return UserError(
        f"No screen found: {reason}.",
        "Run it on the Raspberry Pi's screen, set DISPLAY to a desktop's display, or try "
        "./run.sh demo, which needs no screen.",
        key="start.no_screen",
    )


def find_screen(environ: Mapping[str, str] | None = None) -> str:
    """The SDL video driver that opens a screen here (``x11``, ``wayland``, ``kmsdrm``), or
    ``offscreen`` when ``SDL_VIDEODRIVER=offscreen`` asks for it; a :class:`UserError` saying
    there is no screen otherwise. ``SDL_VIDEODRIVER`` (e.g. ``kmsdrm`` in the Pi's service)
    limits the search to the drivers it names.

    >>> find_screen({"SDL_VIDEODRIVER": "offscreen"})
    'offscreen'
    >>> find_screen({"SDL_VIDEODRIVER": "dummy"})
    Traceback (most recent call last):
    ...
    companion.errors.UserError: No screen found: SDL_VIDEODRIVER=dummy draws nowhere. Run it \
on the Raspberry Pi's screen, set DISPLAY to a desktop's display, or try ./run.sh demo, which \
needs no screen.
    """
    environ = os.environ if environ is None else environ
    asked = [name.strip().lower() for name in environ.get("SDL_VIDEODRIVER", "").split(",")
             if name.strip()]
    if asked and asked[0] == OFFSCREEN:
        return OFFSCREEN
    candidates = [name for name in asked if name not in (OFFSCREEN, "dummy")]
    if asked and not candidates:
        raise no_screen_error(f"SDL_VIDEODRIVER={','.join(asked)} draws nowhere")
    opened, failures = probe_drivers(candidates or list(SCREEN_DRIVERS), environ)
    if opened is None:
        raise no_screen_error(failures)
    log.info("screen: SDL's %s driver", opened)
    return opened


def probe_drivers(drivers: Sequence[str], environ: Mapping[str, str]) -> tuple[str | None, str]:
    """The first of ``drivers`` SDL opens (``None`` if none), and why the others did not."""
    library = sdl_library()
    if library is None:  # a Kivy built against a system SDL that cannot be found: best guess
        return _guess_driver(drivers, environ), "no SDL library to ask"
    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, str(library), *drivers],
                              env=dict(environ), capture_output=True, text=True,
                              timeout=PROBE_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return None, f"the display did not answer within {PROBE_SECONDS:.0f} s"
    for line in done.stdout.splitlines():
        verdict, name, *why = line.split(" ", 2)
        if verdict == "open":
            return name, ""
        log.info("SDL cannot open %s: %s", name, why[0] if why else "unavailable")
    return None, _why_not(drivers, environ)


def _why_not(drivers: Sequence[str], environ: Mapping[str, str]) -> str:
    """Why none of ``drivers`` opened, said shortly (SDL's own reasons are logged)."""
    reasons = []
    if "x11" in drivers:
        display = environ.get("DISPLAY")
        reasons.append(f"the X display {display} does not answer" if display
                       else "DISPLAY is not set")
    if "wayland" in drivers and environ.get("WAYLAND_DISPLAY"):
        reasons.append(f"the Wayland display {environ['WAYLAND_DISPLAY']} does not answer")
    if "kmsdrm" in drivers:
        reasons.append("no KMS screen opens for this user")
    others = [name for name in drivers if name not in SCREEN_DRIVERS]
    if others:
        reasons.append(f"SDL cannot open {', '.join(others)}")
    return " and ".join(reasons) or "there is no X, Wayland or KMS screen"


def sdl_library() -> Path | None:
    """The SDL2 library Kivy's window uses: the one bundled in Kivy's wheel, else the
    system's."""
    spec = importlib.util.find_spec("kivy")
    if spec is not None and spec.origin is not None:
        bundled = sorted(Path(spec.origin).parent.parent.glob("Kivy.libs/libSDL2-2*.so*"))
        if bundled:
            return bundled[0]
    import ctypes.util

    found = ctypes.util.find_library("SDL2-2.0") or ctypes.util.find_library("SDL2")
    return Path(found) if found else None


def _guess_driver(drivers: Sequence[str], environ: Mapping[str, str]) -> str | None:
    present = {"x11": bool(environ.get("DISPLAY")),
               "wayland": bool(environ.get("WAYLAND_DISPLAY")),
               "kmsdrm": any(Path("/dev/dri").glob("card*"))}
    return next((name for name in drivers if present.get(name, True)), None)


def kivy_home() -> Path:
    """Kivy's own directory inside the app's data directory."""
    from companion.paths import data_dir

    return data_dir() / "kivy"


def prepare_environment(home: Path | None = None, *, headless: bool = False,
                        verbose: bool = False) -> Path:
    """Set Kivy's environment (before ``import kivy``); returns its home directory.

    ``headless`` renders offscreen through Mesa (tests, screenshots, benchmarks): SDL's
    ``dummy`` driver would make Kivy fall back to X and end the process. Otherwise the screen
    is found first (:func:`find_screen`, a :class:`UserError` when there is none) and its
    driver pinned, so that SDL cannot fall back to drawing nowhere. Kivy logs through Python's
    :mod:`logging` (the command line decides what is shown); ``verbose`` keeps its console
    lines.
    """
    os.environ["SDL_VIDEODRIVER"] = OFFSCREEN if headless else find_screen()
    home = home or kivy_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["KIVY_HOME"] = str(home)
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    # SDL's own clipboard (the window's), never Kivy's probing of xclip, xsel, klipper and
    # GTK: each one missing printed its traceback at the first touch of a name field
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    if headless and not verbose:
        os.environ["KIVY_NO_CONSOLELOG"] = "1"
    return home


def configure_kivy(*, simulate: bool, rotation: int = 0, fullscreen: bool = True,
                   paced: bool = True) -> None:
    """Kivy's config for this run (after ``import kivy``, before the window opens).

    On the Pi's touchscreen only ``hidinput`` reads the panel: with ``mtdev`` enabled too every
    tap arrives twice. Kivy's ``rotation`` leaves touch coordinates unrotated, so a screen
    mounted upside down inverts the touch axes as well. In simulator mode the mouse is the
    finger and the app runs in an 800×480 window. ``paced=False`` drops Kivy's 60 frames per
    second pacing (headless tests and screenshots).
    """
    from kivy.config import Config

    quiet_cut_buffer()
    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    # Kivy asks for 2× multisampling by default; flat rectangles and text gain nothing from it,
    # and software GL (llvmpipe) pays for it on every pixel of every frame
    Config.set("graphics", "multisamples", "0")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "log_maxfiles", "10")
    for option in list(Config.options("input")):
        Config.remove_option("input", option)
    if simulate or not fullscreen:
        Config.set("graphics", "fullscreen", "0")
        Config.set("input", "mouse", "mouse,multitouch_on_demand")
        Config.set("kivy", "keyboard_mode", "system")
    else:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        invert = ",invert_x=1,invert_y=1" if rotation == 180 else ""
        Config.set("input", "touchscreen", f"probesysfs,provider=hidinput{invert}")
        Config.set("kivy", "keyboard_mode", "systemanddock")
    Config.set("graphics", "rotation", str(rotation))
    if not paced:  # tests and screenshots: nobody watches, no waiting for the next frame
        Config.set("graphics", "maxfps", "0")


CUT_BUFFER_NONE = "Cutbuffer: Unable to find any valuable Cutbuffer provider"


def quiet_cut_buffer() -> None:
    """No X11 cut buffer (the middle mouse button's paste: nothing on a touchscreen).

    Kivy looks for one (xclip, then xsel) when its clipboard is not already one of them, and
    logs a critical error with both tracebacks when neither is installed. Its providers are
    switched off here as ``KIVY_CLIPBOARD`` would (Kivy reads no ``KIVY_CUTBUFFER``), and the
    one line saying there is none is dropped: having none is what is wanted.
    """
    import kivy

    kivy.kivy_options["cutbuffer"] = ()
    logger = logging.getLogger("kivy")
    if not any(isinstance(f, _NoCutBufferLine) for f in logger.filters):
        logger.addFilter(_NoCutBufferLine())


class _NoCutBufferLine:
    """Drops Kivy's "no cut buffer provider" record (see :func:`quiet_cut_buffer`)."""

    @staticmethod
    def filter(record: Any) -> bool:
        return not str(record.getMessage()).startswith(CUT_BUFFER_NONE)
