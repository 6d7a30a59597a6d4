"""Start the touchscreen app: ``noah-companion`` (``--simulate`` for virtual cards and lights).

:func:`run_app` is what the command line calls; :func:`create_app` builds the same app for
tests, the screenshot script and the benchmark (call :func:`prepare_environment` first: Kivy
reads its environment when first imported).

The cameras follow ``[camera] view`` (docs/table-view.md): ``hand`` the camera cards are
shown to, ``table`` the overhead camera (``table_source``) whose observer referees what lies on
the table, ``both`` the two through one ledger (:func:`companion.wiring.open_cameras`). Each
runs on its own thread; a missing or lost camera is a banner, never a stop.

Start-up fails visibly: with no screen at all, one sentence on the terminal and exit status 2
(before any window); any other :class:`~companion.errors.UserError` while starting (a bad config
or deck file, a bad ``[camera]`` setting, the record held by another copy) opens the error
screen (:mod:`companion.ui.errorscreen`) with the fix and what still works, and writes the same
sentence to stderr (the journal on the Pi) instead of ending the process.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import sys
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.ui.environment import configure_kivy, kivy_home, prepare_environment
from companion.ui.errorscreen import DEFAULTS, RETRY, StartProblem
from companion.ui.settings import UiSettings, validate_ui

log = logging.getLogger(__name__)
DEFAULT_SETTINGS_FLAG = "--default-settings"
"""The command-line option that starts the app without reading the config file."""
START_FAILED_STATUS = 2  # the CLI's status for a problem the user can fix


class StartFailed(UserError):
    """A :class:`UserError` raised while the app starts, with the stage it stopped at."""

    def __init__(self, error: UserError, stage: str) -> None:
        super().__init__(error.what, error.fix, key=error.key, **error.params)
        self.problem = StartProblem(error, stage)


def run_app(simulate: bool = False, *, default_settings: bool = False,
            verbose: bool = False, store: Any = None, prepare: Any = None,
            language: str | None = None) -> int:
    """Run the app until it is closed; returns the exit status. No screen raises
    :class:`~companion.errors.UserError` before any window opens; any other start-up problem
    is shown on the error screen. ``default_settings`` ignores the config file (the error
    screen's way round a bad one). ``store`` replaces the config's record and ``prepare(app)``
    is called before the app runs (``demo --ui``: the players who play on screen).
    ``language`` overrides the config's ``[ui] language`` for this start (``--language zh``)."""
    from companion.config import Config, config_path

    if language:  # a language without a catalog: a UserError before any window opens
        language = validate_ui({"language": language}).language
    prepare_environment(verbose=verbose)
    config_file = config_path()
    try:
        config = Config.from_text("", None) if default_settings else _stage("config", _load)
        settings = validate_ui({}) if default_settings else _stage(
            "config", lambda: config.validated("ui", validate_ui))
        if language:
            settings = dataclasses.replace(settings, language=language)
        app = create_app(config, simulate=simulate, settings=settings, store=store,
                         config_file=_settings_file(config_file, default_settings))
    except StartFailed as failed:
        return _show_problem(failed.problem, config_file)
    if prepare is not None:
        prepare(app)
    from companion.ui.weblink import start_page, stop_page

    start_page(app, config, settings.language)  # the LAN page when [web] enabled = yes
    try:
        app.run()
    finally:
        stop_page(app)
        close_app(app)
    return 0


def _load() -> Any:
    from companion.config import load_config

    return load_config()


def _stage(stage: str, step: Any) -> Any:
    """``step()``, its :class:`UserError` marked with the start-up ``stage``."""
    try:
        return step()
    except StartFailed:
        raise
    except UserError as error:
        raise StartFailed(error, stage) from None


def _settings_file(config_file: Path, default_settings: bool) -> Path:
    """The file the settings panel reads and writes: the config file; with the built-in
    settings a scratch copy, so that the broken file is left for the person who fixes it."""
    if default_settings:
        scratch = kivy_home() / "built-in-settings.ini"
        scratch.unlink(missing_ok=True)
        return scratch
    try:  # its folder is created when the app loads it (NoahApp.load_config)
        _drop_byte_order_mark(config_file)
    except OSError as error:
        log.warning("The config file %s cannot be rewritten (%s).", config_file, error.strerror)
    return config_file


def _drop_byte_order_mark(path: Path) -> None:
    """Rewrite a config file saved with a byte-order mark (Windows Notepad) as plain UTF-8:
    the app reads it either way, but Kivy's settings panel would take it for corrupted."""
    from companion.config import read_config_text

    with path.open("rb") if path.is_file() else open(os.devnull, "rb") as file:
        head = file.read(3)
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        path.write_text(read_config_text(path), encoding="utf-8")


def _show_problem(problem: StartProblem, config_file: Path) -> int:
    """The sentence on stderr (the journal), then the error screen; a touch on it starts the
    app again (the same command, in this process) or with the built-in settings."""
    from companion.ui.errorscreen import language_hint, show_start_problem

    print(f"noah-companion: {problem.error}", file=sys.stderr, flush=True)
    choice = show_start_problem(problem, language_hint(config_file))
    if choice in (RETRY, DEFAULTS):
        argv = list(sys.orig_argv)
        if choice == DEFAULTS and DEFAULT_SETTINGS_FLAG not in argv:
            argv.append(DEFAULT_SETTINGS_FLAG)
        log.info("starting again: %s", " ".join(argv))
        os.execv(sys.executable, argv)  # a fresh process: Kivy opens one window per process
    return START_FAILED_STATUS


def create_app(config: Any = None, *, simulate: bool, settings: UiSettings = UiSettings(),  # noqa: B008
               store: Any = None, config_file: Path | None = None, paced: bool = True) -> Any:
    """The app with its session, lights and cameras (nothing runs until it starts).

    ``store`` replaces the record of ``[store]`` (tests use a temporary one); ``paced=False``
    drops the 60 frames per second pacing (headless runs). Off the Pi, or
    with ``simulate``, the lights run on virtual pins; without a camera the app says so and
    cards are chosen by touch. A problem raises :class:`StartFailed` (a :class:`UserError`)
    saying at which stage it stopped.

    With ``simulate`` the cameras are virtual: cards shown under the simulator's camera, and
    the calibration screen films the record (:class:`companion.sim.overhead.RecordCamera`;
    the table-view demo replaces ``app.overhead`` with its rendered table).
    """
    from companion.config import load_config

    config = config if config is not None else _stage("config", lambda: load_config(config_file))
    configure_kivy(simulate=simulate, rotation=settings.rotation,
                   fullscreen=settings.fullscreen, paced=paced)
    from companion.session.store import GameStore
    from companion.tags.tagged_deck import load_tagged_deck
    from companion.ui.application import NoahApp
    from companion.ui.camera import (
        FrameTap,
        Simulator,
        TableLook,
        open_hand_camera,
        open_overhead_camera,
    )
    from companion.ui.sounds import refusal_sound
    from companion.wiring import assemble, open_cameras, open_lights

    tagged = _stage("deck", lambda: _in_section("game", load_tagged_deck, config.game.deck,
                                                config.game.deck_id))
    decoding = _stage("camera", lambda: config.validated("decoder"))
    view = "hand" if simulate else _stage("camera", lambda: config.validated("camera")).view
    hand = None if simulate or view == "table" else _stage(
        "camera", lambda: _camera(open_hand_camera, config))
    table = None if simulate or view == "hand" else _stage(
        "camera", lambda: _camera(open_overhead_camera, config))
    lights, lights_problem = open_lights(config.section("lights"), virtual=simulate)
    try:
        record = store or _stage("record", lambda: GameStore(config.store.path))
    except StartFailed:
        lights.close()
        raise
    session = assemble(record, lights=lights, deck=tagged.deck, deck_id=tagged.deck_id)
    look = TableLook()
    simulator = tap = None
    if simulate:
        cameras = open_cameras(session, "hand")
        simulator = Simulator(session, decoding=decoding, feeds=cameras.played)
        cameras.hand = simulator.pipeline
    else:
        tap = FrameTap(hand) if hand is not None else None
        cameras = open_cameras(session, view, hand=tap, table=table, decoding=decoding,
                               also_table=look.on_frame)
    if lights_problem:
        log.warning("ferry lights unavailable: %s", lights_problem)
    return NoahApp(session, settings=settings, simulator=simulator, cameras=cameras,
                   camera_tap=tap, lights=lights, config_file=config_file or config.path,
                   table_look=look, overhead=_overhead_source(config, session, simulate),
                   reading=view, started_with=config,
                   sound=refusal_sound(Path(os.environ.get("KIVY_HOME") or kivy_home())))


def _overhead_source(config: Any, session: Any, simulate: bool) -> Any:
    """How the calibration screen opens the overhead camera when no game camera runs it
    (``view = hand``): in simulator mode the rendered record, else ``[camera] table_source``."""
    if simulate:
        from companion.sim.overhead import RecordCamera

        return lambda: RecordCamera(session)
    from companion.ui.camera import open_overhead_camera

    return lambda: open_overhead_camera(config)


def _in_section(section: str, step: Any, *args: Any) -> Any:
    """``step(*args)``, its :class:`UserError` saying which config section to fix."""
    try:
        return step(*args)
    except UserError as error:
        if error.what.startswith("["):
            raise
        raise UserError(f"[{section}] {error.what}", error.fix, key=error.key,
                        **error.params) from None


def _camera(step: Any, *args: Any) -> Any:
    """``step(*args)`` (a camera or the ``[camera]`` settings); a setting that cannot be
    (``source = usb:x``, ``view = tabel``, a file that is not there) is a :class:`UserError`
    naming the section. A camera that is simply missing is not an error here: its thread keeps
    looking and the app shows a banner."""
    from vision.errors import VisionError

    try:
        return step(*args)
    except VisionError as error:
        what = error.what if error.what.startswith("[") else f"[camera] {error.what}"
        raise UserError(what, error.fix) from None


def close_app(app: Any) -> None:
    """Release what the app opened: the cameras (the simulator's and the calibration
    screen's too), the lights, the record."""
    app.stop_looking()
    if app.cameras is not None:
        app.cameras.stop()
    for pipeline in (app.pipeline, getattr(app.simulator, "pipeline", None)):
        if pipeline is not None:
            pipeline.stop()
    # Let go of the pipelines (and so of zxing-cpp's decoders): Kivy keeps the app alive until
    # the interpreter ends, and zxing-cpp's objects still alive then are each reported as
    # "leaked" on the terminal. (``pipeline`` is a plain attribute, ``simulator`` a Kivy
    # property the screens watch: only its own attribute is cleared.)
    app.pipeline = app.cameras = None
    if app.table_look is not None:
        app.table_look.close()
    if app.simulator is not None:
        app.simulator.pipeline = None
    if app.lights is not None:
        app.lights.close()
    app.session.store.close()
