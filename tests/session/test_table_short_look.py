"""The observer's short exposure (issue 19.3, docs/table-view.md "A short exposure"): a camera
that can take one is asked once per still table, only when a located ferry's top card stays
unread under a clipped highlight; a camera that cannot, or fails, changes nothing."""

from __future__ import annotations

import numpy as np

from companion.session.table_observer import StillTable, TableObserver
from vision.sources import CameraLost
from vision.table import FerryView, TableReading
from vision.table_capture import TableFrame
from vision.table_exposure import ShortExposure, ShortLook
from vision.table_kit import FERRIES

ZONE = ((20.0, 20.0), (120.0, 20.0), (120.0, 80.0), (20.0, 80.0))


class Camera:
    """A camera that gives short exposures (a grey frame: no mat on it) and counts them."""

    def __init__(self, fails: bool = False) -> None:
        self.asked, self.fails = 0, fails

    def short_exposure(self, settings: ShortExposure) -> np.ndarray:
        self.asked += 1
        if self.fails:
            raise CameraLost("The Pi camera gave no short exposure.", "Check its cable.")
        return np.full((90, 160), 120, np.uint8)


class Reader:
    """Ferry 2 located, its top card not read."""

    def read(self, full: np.ndarray, *, loose: bool = False) -> TableReading:
        views = {k: FerryView(seen=k == 2, zone=ZONE if k == 2 else None, px_per_module=3.0)
                 for k in FERRIES}
        return TableReading(views, noah=None)


def frame(small_value: int, glare: bool) -> TableFrame:
    full = np.full((90, 160), 150, np.uint8)
    if glare:
        full[40:52, 60:72] = 255  # a clipped highlight in ferry 2's card zone
    return TableFrame(full, np.full((90, 160), small_value, np.uint8), "f", 0.0)


def settle(still: StillTable, value: int, glare: bool) -> None:
    for _ in range(3):  # a change, then two still frames; the third is settled already
        still.feed(frame(value, glare))


def test_a_still_table_with_a_ferry_unread_under_a_highlight_asks_once():
    camera = Camera()
    still = StillTable(Reader(), ShortLook(camera))
    settle(still, 10, glare=True)
    assert camera.asked == 1
    still.feed(frame(10, glare=True))  # still the same table: not asked again
    assert camera.asked == 1
    settle(still, 90, glare=True)  # something moved, then still again
    assert camera.asked == 2


def test_no_highlight_no_short_exposure():
    camera = Camera()
    settle(StillTable(Reader(), ShortLook(camera)), 10, glare=False)
    assert camera.asked == 0


def test_a_camera_that_fails_changes_nothing():
    camera = Camera(fails=True)
    still = StillTable(Reader(), ShortLook(camera))
    still.feed(frame(10, glare=True))
    reading, _ = still.feed(frame(10, glare=True)) or (None, None)
    assert camera.asked == 1 and reading is not None and reading.ferries[2].top is None


def test_the_observer_holds_a_short_look_only_for_a_camera_that_can():
    can = TableObserver(object(), lambda text: None, reader=Reader(), camera=Camera())  # type: ignore[arg-type]
    cannot = TableObserver(object(), lambda text: None, reader=Reader(), camera=object())  # type: ignore[arg-type]
    assert isinstance(can.still.short_look, ShortLook) and cannot.still.short_look is None


def test_the_apps_observer_takes_the_short_look_on_a_rendered_table(tmp_path):
    """The app's wiring (``open_cameras``, ``SHORT_LOOK`` on): DEV scene 1131's ferry 3 filmed
    by the scenes renderer, its top card's code under a highlight that clips; once the table
    is still, the observer asks the camera for one short exposure and reads that card there
    (scene 1025's ferry 2 until the automatic exposure read it: branch tcorner)."""
    from companion.session import GameStore
    from companion.wiring import assemble, open_cameras
    from tests.table.test_exposure import _one_ferry
    from vision.table_exposure import SceneCamera

    table = SceneCamera([_one_ferry(1131, 3)])
    with GameStore(tmp_path / "g.sqlite") as store:
        cameras = open_cameras(assemble(store), "table", table=table)
        assert cameras.observer is not None
        look = cameras.observer.still.short_look
        assert isinstance(look, ShortLook) and look.camera is table
        table.open()
        frame = table.read()
        assert frame is not None
        for _ in range(3):  # the camera's thread: the same still table, frame after frame
            cameras.observer.feed(frame)
    assert (look.asked, look.read) == (1, 1)
