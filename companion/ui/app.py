"""Start the touchscreen app: ``noah-companion`` (``--simulate`` for virtual cards and lights).

:func:`run_app` is what the command line calls; :func:`create_app` builds the same app for
tests, the screenshot script and the benchmark (call :func:`prepare_environment` first: Kivy
reads its environment when first imported).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from companion.ui.environment import configure_kivy, kivy_home, prepare_environment
from companion.ui.settings import UiSettings

log = logging.getLogger(__name__)


def run_app(simulate: bool = False) -> int:
    """Run the app until it is closed; returns the exit status. Bad settings raise
    :class:`~companion.errors.UserError` before any window opens."""
    from companion.config import load_config, validate_section

    config = load_config()
    settings = validate_section("ui", config.section("ui"))
    prepare_environment()
    app = create_app(config, simulate=simulate, settings=settings)
    try:
        app.run()
    finally:
        close_app(app)
    return 0


def create_app(config: Any = None, *, simulate: bool, settings: UiSettings = UiSettings(),  # noqa: B008
               store: Any = None, config_file: Path | None = None, paced: bool = True) -> Any:
    """The app with its session, lights and camera (nothing runs until it starts).

    ``store`` replaces the record of ``[store]`` (tests use a temporary one); ``paced=False``
    drops the 60 frames per second pacing (headless runs). Off the Pi, or
    with ``simulate``, the lights run on virtual pins; without a camera the app says so and
    cards are chosen by touch.
    """
    from companion.config import load_config

    config = config if config is not None else load_config(config_file)
    configure_kivy(simulate=simulate, rotation=settings.rotation,
                   fullscreen=settings.fullscreen, paced=paced)
    from companion.ui.application import NoahApp
    from companion.ui.camera import FrameTap, Simulator, open_table_camera
    from companion.ui.sounds import refusal_sound
    from companion.wiring import camera_pipeline, open_lights, open_session

    lights, lights_problem = open_lights(config.section("lights"), virtual=simulate)
    session = open_session(config, lights=lights, store=store)
    simulator = pipeline = tap = None
    decoding = config.validated("decoder")
    if simulate:
        simulator = Simulator(session, decoding=decoding)
    else:
        tap = FrameTap(open_table_camera(config))
        pipeline = camera_pipeline(tap, session, decoding=decoding)
    if lights_problem:
        log.warning("ferry lights unavailable: %s", lights_problem)
    return NoahApp(session, settings=settings, simulator=simulator, pipeline=pipeline,
                   camera_tap=tap, lights=lights, config_file=config_file or config.path,
                   sound=refusal_sound(Path(os.environ.get("KIVY_HOME") or kivy_home())))


def close_app(app: Any) -> None:
    """Release what the app opened: the camera pipeline, the lights, the record."""
    if app.pipeline is not None:
        app.pipeline.stop()
    if app.lights is not None:
        app.lights.close()
    app.session.store.close()
