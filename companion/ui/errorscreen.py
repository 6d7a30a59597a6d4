"""The screen shown when the app cannot start: what is wrong, the fix, and what still works.

On the Pi nobody watches the journal: a bad config or deck file, an unusable ``[camera]``
setting or a record another copy of the referee holds would otherwise end the process, leave
the touchscreen black and have systemd restart it again and again. Instead
:func:`show_start_problem` opens this screen and waits for a touch:

- **Try again** starts the app afresh (after the file was fixed, or the other copy closed);
- **Start with the built-in settings**, when the problem is in the settings, starts the app
  without the config file: score-only games and camera games with the built-in deck work.

The journal (stderr) gets the same sentence. The layout is in ``errorscreen.kv``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import UserError

HERE = Path(__file__).parent
RETRY, DEFAULTS = "retry", "defaults"
"""The choices the screen returns (``None`` when its window is closed)."""
STAGES = ("config", "deck", "camera", "record")
"""Where start-up stopped: each says what still works (``start.still.<stage>``)."""


@dataclass(frozen=True)
class StartProblem:
    """A :class:`UserError` raised while the app starts, and where (one of :data:`STAGES`).

    >>> problem = StartProblem(UserError("The deck file has no 'species' column."), "deck")
    >>> problem.offers_defaults, problem.still_works_key
    (True, 'start.still.deck')
    """

    error: UserError
    stage: str

    @property
    def offers_defaults(self) -> bool:
        """Whether starting without the config file gets around it (a settings problem)."""
        return self.stage != "record"

    @property
    def still_works_key(self) -> str:
        return f"start.still.{self.stage}"


def language_hint(path: Path | None) -> str:
    """The ``[ui] language`` of a config file that may not parse (to word the error screen in
    the table's language); ``en`` when it cannot be found.

    >>> import tempfile
    >>> file = Path(tempfile.mkdtemp()) / "companion.ini"
    >>> _ = file.write_text("[ui]\\nlanguage = fr\\n[broken\\n", encoding="utf-8")
    >>> language_hint(file), language_hint(None)
    ('fr', 'en')
    """
    from companion.i18n import languages

    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")[:65536] if path else ""
    except (OSError, ValueError):
        text = ""
    found = re.search(r"^\s*language\s*=\s*(\w+)", text, re.MULTILINE)
    language = found.group(1).lower() if found else "en"
    return language if language in languages() else "en"


class StartProblemApp:
    """Builds the Kivy app lazily (Kivy must not be imported before its environment is set)."""

    @staticmethod
    def create(problem: StartProblem, language: str = "en") -> Any:
        from kivy.app import App
        from kivy.lang import Builder
        from kivy.properties import BooleanProperty, StringProperty
        from kivy.uix.boxlayout import BoxLayout

        from companion.ui import theme
        from companion.ui.fonts import catalog_for

        class StartProblemView(BoxLayout):
            """The layout of ``errorscreen.kv``."""

        class _App(App):
            title = "Noah Table Companion"
            what = StringProperty("")
            still_works = StringProperty("")
            offers_defaults = BooleanProperty(False)

            def __init__(self, **kwargs: Any) -> None:
                self.catalog, _ = catalog_for(language, theme.FONT)  # English if no font
                super().__init__(**kwargs)
                self.what = self.catalog.error(problem.error)
                self.still_works = self.catalog.text(problem.still_works_key)
                self.offers_defaults = problem.offers_defaults
                self.choice: str | None = None

            def t(self, key: str, **params: Any) -> str:
                return self.catalog.text(key, **params)

            def build(self) -> Any:
                self.use_kivy_settings = False
                Builder.load_file(str(HERE / "errorscreen.kv"))
                return StartProblemView()

            def choose(self, choice: str) -> None:
                self.choice = choice
                self.stop()

        return _App()


def show_start_problem(problem: StartProblem, language: str = "en") -> str | None:
    """Open the error screen and wait: ``"retry"``, ``"defaults"``, or ``None`` when its window
    was closed. Kivy's environment must be prepared (the screen found) before."""
    app = StartProblemApp.create(problem, language)
    app.run()
    return app.choice


def render(problem: StartProblem, language: str, out: Path | None = None) -> dict[str, str]:
    """Draw the error screen offscreen once (no touch awaited): the texts of its labels and
    buttons by id, and an 800×480 PNG at ``out`` when given (docs, tests). Kivy's
    environment must be prepared headless first (one window per process)."""
    from kivy.base import EventLoop, stopTouchApp
    from kivy.core.window import Window

    app = StartProblemApp.create(problem, language)
    app._run_prepare()  # what App.run() does before its loop
    for _ in range(4):
        EventLoop.idle()
    texts = {name: widget.text for name, widget in app.root.ids.items()
             if getattr(widget, "opacity", 1) > 0}
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        written = Path(Window.screenshot(name=str(out)))  # Kivy adds a counter to the name
        written.replace(out)
    app.stop()
    stopTouchApp()
    return texts


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.ui.errorscreen --out DIR``: the error screen for a bad config
    file, in every language (``DIR/start-problem-en.png``, ``-fr.png``, ``-zh.png``; one
    process each, Kivy has one window per process), or in ``--language`` only."""
    import argparse
    import subprocess
    import sys
    import tempfile

    from companion.i18n import languages
    from companion.ui.environment import prepare_environment

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--language", choices=languages())
    args = parser.parse_args(argv)
    if args.language is None:
        for language in languages():
            subprocess.run([sys.executable, "-m", "companion.ui.errorscreen", "--out",
                            str(args.out), "--language", language], check=True)
        return 0
    from companion.logs import configure_logging

    configure_logging(verbose=False)  # Kivy's first-start notes are not for this output
    prepare_environment(Path(tempfile.mkdtemp()) / "kivy", headless=True)
    from companion.config import Config
    from companion.ui.environment import configure_kivy

    configure_kivy(simulate=True, paced=False)
    try:
        Config.from_text("[game]\nplayers = Ana, Ben\nfrog yes\n",
                         Path("/home/pi/.config/noah-companion/companion.ini"))
    except UserError as error:
        problem = StartProblem(error, "config")
    texts = render(problem, args.language, args.out / f"start-problem-{args.language}.png")
    print("\n".join(f"{name}: {text}" for name, text in texts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
