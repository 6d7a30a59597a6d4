"""Kivy's process-wide set-up, done before Kivy is first imported.

Kivy reads its environment at import: where its config and logs go (``KIVY_HOME``, kept in the
app's own data directory instead of ``~/.kivy``), whether it parses ``sys.argv``
(``KIVY_NO_ARGS``: the app has its own command line) and which window driver SDL uses.
:func:`configure_kivy` then fixes the touchscreen's known pitfalls in Kivy's config.
"""

from __future__ import annotations

import os
from pathlib import Path

WIDTH, HEIGHT = 800, 480


def kivy_home() -> Path:
    """Kivy's own directory inside the app's data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("noah-companion", appauthor=False)) / "kivy"


def prepare_environment(home: Path | None = None, *, headless: bool = False) -> Path:
    """Set Kivy's environment (before ``import kivy``); returns its home directory.

    ``headless`` renders offscreen through Mesa (tests, screenshots, benchmarks): SDL's
    ``dummy`` driver would make Kivy fall back to X and end the process.
    """
    home = home or kivy_home()
    home.mkdir(parents=True, exist_ok=True)
    os.environ["KIVY_HOME"] = str(home)
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    if headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                        or Path("/dev/dri").exists()):
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
    if headless:
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
