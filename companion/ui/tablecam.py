"""The calibration screen: what the camera above the table sees (docs/table-view.md).

Reached from the settings page ("Check the table camera"). It shows the overhead camera's
latest checked frame with each mat found outlined and numbered, a line per ferry (found or not,
and the pixels per sticker module there: :mod:`vision.table_check`), whether Noah's marker is
found, and what to do, most important first. Without a picture it says why in one sentence.

Frames are read and checked on the camera's thread (:class:`~companion.ui.camera.TableLook`);
this screen only words the newest check, a few times a second, while it is shown. With
``[camera] view = hand`` no camera is above the table during a game: the screen opens
``table_source`` for as long as it is shown (:meth:`NoahApp.start_looking
<companion.ui.application.NoahApp.start_looking>`).

Layout is in ``tablecam.kv``.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.ui import theme

REFRESH_SECONDS = 0.25
#: The badge of a ferry's line: its colour by the check's ``detail``.
BADGE = {"good": theme.GO, "little_margin": theme.WARNING, "glare": theme.WARNING,
         "too_few": theme.ILLEGAL, "missing": theme.ILLEGAL}
#: The verdict's background: ready, something to do, no picture.
VERDICT = {"ready": theme.GO, "advice": theme.WARNING, "none": theme.FERRY}


class CheckRow(BoxLayout):
    """One line of the list: a badge (the ferry's number, or Noah's) and a sentence."""

    badge = StringProperty("")
    text = StringProperty("")
    back = ListProperty(theme.FERRY)


class TableCameraScreen(Screen):
    """The calibration screen (see the module's docstring)."""

    verdict = StringProperty("")
    verdict_back = ListProperty(VERDICT["none"])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._capture: Any = None
        self._shown: Any = None
        self._event: Any = None

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        self._capture = app.start_looking()
        self._shown = None
        self.refresh()
        self._event = Clock.schedule_interval(lambda _dt: self.refresh(), REFRESH_SECONDS)

    def on_pre_leave(self, *_args: Any) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        App.get_running_app().stop_looking()
        self._capture = None

    def refresh(self) -> None:
        """Word the newest check and show its own picture, one snapshot of both (only when
        it, the camera's condition or the language changed)."""
        app = App.get_running_app()
        look, capture = app.table_look, self._capture
        status = getattr(capture, "status", None)
        count, check, picture = look.snapshot() if look is not None else (None, None, None)
        state = (count, getattr(status, "state", None), app.lang, capture is None)
        if state == self._shown:
            return
        self._shown = state
        rows = self.ids.rows
        rows.clear_widgets()
        problem = self._camera_problem(app, capture, status, check)
        # a camera lost after a check leaves that check's picture: not shown beside "no camera"
        self.ids.picture.opacity = 0 if problem or check is None else 1
        if picture is not None:
            self.ids.picture.show_frame(picture)
        if problem or check is None:
            self.verdict, self.verdict_back = problem, VERDICT["none"]
            return
        for row in check_rows(app, check):
            rows.add_widget(row)
        first = check.advice[0]
        self.verdict = advice_sentence(app, check, first)
        self.verdict_back = VERDICT["ready" if first == "ready" else "advice"]

    @staticmethod
    def _camera_problem(app: Any, capture: Any, status: Any, check: Any) -> str:
        """The sentence that replaces the check when there is none to show: no camera, no
        picture yet, or a picture still being checked ("checking…", never "not found")."""
        source = app.setting("camera", "table_source") or "auto"
        if capture is None:
            return app.t("tablecam.cannot_open", source=source)
        if status is not None and not status.ok and status.state.value != "stopped":
            return app.t("tablecam.no_camera", source=source)
        if check is None:
            pictures = getattr(capture, "count", 0)
            return app.t("tablecam.checking" if pictures else "tablecam.waiting")
        return ""


def check_rows(app: Any, check: Any) -> list[CheckRow]:
    """A line per ferry (its number on the badge, as on the picture) and one for Noah's
    marker, in the app's language."""
    rows = []
    for ferry, seen in sorted(check.ferries.items()):
        detail = seen.detail
        key = f"tablecam.ferry.{detail}"
        px = number(app, seen.px_per_module) if seen.found else ""
        rows.append(CheckRow(badge=str(ferry), text=app.t(key, ferry=ferry, px=px),
                             back=BADGE[detail]))
    if check.noah is not None:
        noah = app.t("tablecam.noah.found", ferry=check.noah)
    else:
        noah = app.t("tablecam.noah.missing")
    rows.append(CheckRow(badge=app.t("tablecam.noah.badge"), text=noah,
                         back=theme.GO if check.noah is not None else theme.ILLEGAL))
    return rows


def advice_sentence(app: Any, check: Any, code: str) -> str:
    """One piece of advice (a code of :data:`vision.table_check.ADVICE`), worded."""
    extremes = check.extremes()
    params: dict[str, Any] = {}
    if extremes is not None:
        (low, low_px), (high, high_px) = extremes
        params = {"ferry": low, "px": number(app, low_px), "low": low,
                  "low_px": number(app, low_px), "high": high, "high_px": number(app, high_px)}
    ferries = {"close": check.missing, "missing": check.missing,
               "glare": check.ferries_with("glare")}.get(code)
    if ferries is not None:
        params.update(ferries=app.catalog.join([str(k) for k in ferries]),
                      count=len(ferries))
    return app.t(f"tablecam.advice.{code}", **params)


def number(app: Any, value: float) -> str:
    """A figure with one decimal, written the language's way (4.4, 4,4)."""
    from babel.numbers import format_decimal

    from companion.i18n import LOCALE_NAMES

    return format_decimal(value, format="0.0", locale=LOCALE_NAMES.get(app.lang, app.lang))


def show_check(app: Any, frame: Any) -> None:
    """Open the calibration screen on ``frame`` (a :class:`~vision.table_capture.TableFrame`)
    as if a camera filmed it: the screenshot script's way to it, with no camera. Its check
    arrives once the camera's thread has read it (``app.table_look.check``)."""
    from vision.table_capture import FedTableSource

    source = FedTableSource(frame.name)
    source.put(frame)
    app.open_table_check(source)


SCREENSHOT = "29-table-camera"


def photograph(driver: Any, shoot: Any) -> None:
    """The calibration screen for the screenshots and the layout test's tour: a rendered
    table (cards on the mats, Noah beside ferry 2) whose ferry 4 mat is off the table, shown
    from the technical settings page, handed to ``shoot(name)``."""
    app = driver.app
    app.go("settings_technical")
    show_check(app, screenshot_frame())
    screen = app.root.sm.get_screen("tablecam")
    driver.pump_until(lambda: screen.ids.rows.children, timeout=60)
    driver.pump(3)
    shoot(SCREENSHOT)
    app.leave_table_check()
    app.go("home")


def screenshot_frame() -> Any:
    """The screenshot's table: the demo's camera (1920 × 1080, 3.3 px per module)."""
    import random
    from dataclasses import replace

    import cv2

    from vision.table_capture import SMALL_SIZE, TableFrame
    from vision.table_render import (
        SAMPLE_TEXTS,
        OverheadCamera,
        TableScene,
        random_stacks,
        render_table,
        row_layout,
    )

    mats = tuple(m for m in row_layout(gap_mm=5) if m.ferry != 4)
    scene = TableScene(mats=mats, noah=(mats[1].x_mm, 110.0), seed=4)
    scene = scene.with_cards(random_stacks(random.Random(4), SAMPLE_TEXTS, max_cards=3))
    scene = replace(scene, mats=tuple(m for m in scene.mats if m.ferry != 4))
    shot = render_table(scene, OverheadCamera(width=1920, height=1080, hfov_deg=40.0))
    small = cv2.resize(shot.frame, SMALL_SIZE, interpolation=cv2.INTER_AREA)
    return TableFrame(shot.frame, small, "rendered table", 0.0)
