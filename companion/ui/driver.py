"""Drive the app without a person: a headless app, a pump for its event loop, screenshots.

Used by the screenshot script, the benchmark and the UI tests. The app is built as
:func:`companion.ui.app.create_app` builds it, with a record and config file in ``workdir``,
and rendered offscreen (Mesa) at 800×480::

    with HeadlessApp(Path(tempfile.mkdtemp()), simulate=True) as driver:
        driver.app.open_new_game(score_only=False)
        driver.pump_until(lambda: driver.app.root.sm.current == "new_game")
        driver.screenshot(Path("new-game.png"))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.ui.environment import prepare_environment

QUICK_DECODER = ("[decoder]\nconfirm_frames = 1\nconfirm_ms = 0\ngone_frames = 1\n"
                 "gone_ms = 0\n")


class Timeout(AssertionError):
    """The app did not reach the awaited state in time."""


class HeadlessApp:
    """The app running offscreen, driven step by step from the calling (UI) thread."""

    def __init__(self, workdir: Path, *, simulate: bool = True, language: str = "en",
                 quick_camera: bool = False, paced: bool = False) -> None:
        prepare_environment(workdir / "kivy", headless=True)
        from companion.config import Config
        from companion.session import GameStore
        from companion.ui.app import create_app
        from companion.ui.settings import UiSettings

        workdir.mkdir(parents=True, exist_ok=True)
        config_file = workdir / "companion.ini"
        text = f"[ui]\nlanguage = {language}\nsounds = no\n"
        if quick_camera:  # tests: a card counts as shown and gone after one frame
            text += QUICK_DECODER
        config_file.write_text(text, encoding="utf-8")
        config = Config.from_text(config_file.read_text(), config_file)
        self.app = create_app(config, simulate=simulate, store=GameStore(workdir / "g.sqlite"),
                              settings=UiSettings(language=language, sounds=False,
                                                  fullscreen=False),
                              config_file=config_file, paced=paced)

    def __enter__(self) -> HeadlessApp:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.app._run_prepare()  # what App.run() does before its loop (Kivy's own tests too)
        self.pump(3)

    def stop(self) -> None:
        from kivy.base import stopTouchApp

        from companion.ui.app import close_app

        self.app.stop()
        close_app(self.app)
        stopTouchApp()

    def pump(self, frames: int = 1) -> None:
        """Run the event loop for ``frames`` frames (clock, touches, drawing)."""
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def pump_until(self, condition: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Run the event loop until ``condition()`` is true; :class:`Timeout` after
        ``timeout`` seconds so a hang never stalls a test run."""
        deadline = time.monotonic() + timeout
        while not (result := condition()):
            if time.monotonic() > deadline:
                shown = self.app.view.prompt.kind if self.app.view else None
                raise Timeout(f"the app did not get there in {timeout:.0f} s "
                              f"(screen {self.app.root.sm.current}, shown prompt {shown}, "
                              f"session's prompt {self.app.session.view.prompt.kind})")
            self.pump()
            time.sleep(0.002)
        return result

    def settle(self) -> None:
        """Let the session's published view reach the screens (one ``@mainthread`` hop)."""
        session = self.app.session

        def arrived() -> bool:  # the same game step (camera and lights may change meanwhile)
            shown, latest = self.app.view, session.view
            if shown is None:
                return False
            step = (shown.seq, shown.prompt, shown.notices)
            return shown is latest or step == (latest.seq, latest.prompt, latest.notices)

        self.pump_until(arrived)
        self.pump(2)

    def screenshot(self, path: Path) -> Path:
        """Save the window as ``path`` (PNG, 800×480)."""
        from kivy.core.window import Window

        self.pump(2)
        path.parent.mkdir(parents=True, exist_ok=True)
        written = Path(Window.screenshot(name=str(path)))  # Kivy adds a counter to the name
        _save_small(written, path)
        written.unlink()
        return path

    def press(self, widget: Any) -> None:
        """Touch a button as a finger would: press, release."""
        widget.trigger_action(duration=0)
        self.pump(2)


def _save_small(source: Path, target: Path) -> None:
    """A 256-colour PNG: the screens are flat colours, so it looks the same at a third of the
    size."""
    from PIL import Image

    with Image.open(source) as image:
        image.convert("RGB").quantize(256).save(target, optimize=True)
