"""Screenshots of the settings page at 800×480, in every language, with a backlight and
without one (then the page has no Brightness row), top and bottom of each page, and the
question before shutting down::

    python -m companion.ui.settings_shots --out docs/screenshots/settings

The backlight is a fake sysfs folder (:func:`companion.system.fake_backlight`) in a temporary
folder; the app and its config file live there too, so nothing of the user's is touched.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from companion.i18n import languages
from companion.system import Backlight, fake_backlight

if TYPE_CHECKING:
    from companion.ui.driver import HeadlessApp



def shoot(out: Path) -> list[Path]:
    """Write the screenshots into ``out``; their paths."""
    from companion.ui.driver import HeadlessApp

    taken: list[Path] = []
    work = Path(tempfile.mkdtemp(prefix="noah-settings-"))
    light = Backlight(fake_backlight(work / "sys", "10-0045", brightness=180, maximum=255))
    with HeadlessApp(work / "app", simulate=True) as driver:
        from companion.ui.settings_page import ShutDownPopup  # Kivy: after its environment

        app = driver.app
        app.camera_tap = None
        for language in languages():
            app.lang = language
            for name, backlight in (("backlight", light), ("no-backlight", None)):
                app.backlight = backlight
                app.go("home")
                app.open_settings()
                taken += _top_and_bottom(driver, "settings", out / f"{language}-{name}")
            app.go("settings_technical")
            taken += _top_and_bottom(driver, "settings_technical", out / f"{language}-technical")
            app.go("settings")
            driver.pump(2)
            app.root.sm.get_screen("settings").ask_shut_down()
            driver.pump(20)  # the popup's opening animation
            taken.append(driver.screenshot(out / f"{language}-shut-down.png"))
            for popup in ShutDownPopup.opened():
                popup.dismiss()
            driver.pump(20)
        app.lang = "en"
        app.go("home")
    return taken


def _top_and_bottom(driver: HeadlessApp, screen: str, stem: Path) -> list[Path]:
    """The page as it opens, then scrolled to its end."""
    driver.pump(4)
    top = driver.screenshot(stem.with_name(f"{stem.name}.png"))
    driver.app.root.sm.get_screen(screen).ids.rows.parent.scroll_y = 0
    driver.pump(3)
    return [top, driver.screenshot(stem.with_name(f"{stem.name}-bottom.png"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", "-o", type=Path, default=Path("docs/screenshots/settings"),
                        help="the folder for the PNG files")
    args = parser.parse_args(argv)
    for path in shoot(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
