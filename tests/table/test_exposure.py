"""A short exposure of a still table (issue 19.3, vision/table_exposure.py): the scenes renderer
gives the same table at a shorter exposure (physics only: every default frame unchanged), and
the reader reads a ferry left unread under a highlight again there, by the ordinary rules:
a code whole once the highlight no longer clips, never a buried code whose covering card's
edge the highlight had washed out."""

from __future__ import annotations

import functools
import hashlib
import math
from dataclasses import replace

import numpy as np

from tests.table.test_scenes import TEXTS
from tests.table.test_view import BURIED, overlap_positions
from vision.sources import CameraMissing
from vision.table import TableReader
from vision.table_exposure import (
    SATURATED,
    SceneCamera,
    ShortExposure,
    ShortLook,
    read_short,
    under_highlight,
)
from vision.table_kit import QR_MODULES_MM
from vision.table_render import STICKER_AT, STICKER_CODE_MM, CardOnMat
from vision.table_scenes import Scene, scene_for_seed
from vision.table_scenes_render import render_scene
from vision.table_sweeps_glare import Glow, PairedCamera

GLOSSY_SEED = 1011  # a DEV scene with three sleeves' highlights
SCALE = 0.1


@functools.cache
def glossy_shot() -> np.ndarray:
    return render_scene(scene_for_seed(GLOSSY_SEED, TEXTS), SCALE).frame


def test_the_default_frame_is_the_one_rendered_before_exposures_existed() -> None:
    """Byte for byte, the digest of main's renderer before the exposure parameter (the cached
    DEV frames compare equal too): a short exposure is an option, never a change."""
    frame = glossy_shot()
    assert hashlib.sha256(frame.tobytes()).hexdigest() == (
        "81514d504bac2f2234b19df87299875f67da115850893d208d74e54d61682cae")
    again = render_scene(scene_for_seed(GLOSSY_SEED, TEXTS), SCALE, exposure=1.0).frame
    assert np.array_equal(again, frame)


def test_a_short_exposure_unclips_the_highlights_on_darker_paper() -> None:
    """The same scene at 0.4 of the exposure: the sleeves' highlights no longer clip, and the
    paper is darker by the tone curve's 0.4^(1/2.2) (a 2.2 power law)."""
    normal = glossy_shot()
    short = render_scene(scene_for_seed(GLOSSY_SEED, TEXTS), SCALE,
                         noise_seed=GLOSSY_SEED + 1, exposure=0.4).frame
    clipped = normal >= SATURATED
    assert clipped.sum() > 10
    assert (short[clipped] < SATURATED).mean() > 0.9
    paper = normal > np.percentile(normal, 70)
    ratio = float(np.median(short[paper & ~clipped])) / float(np.median(normal[paper & ~clipped]))
    assert abs(ratio - 0.4 ** (1 / 2.2)) < 0.05


def _one_ferry(seed: int, k: int) -> Scene:
    """DEV scene ``seed`` (the default deck's texts) with ferry ``k`` and its highlights only,
    filmed straight down by a small sensor at the scene camera's pixels per millimetre."""
    from companion.commands.bench import _sticker_texts

    scene = scene_for_seed(seed, _sticker_texts())
    ferry, camera = scene.ferry(k), scene.camera
    width, height = 960, 720
    hfov = 2 * math.degrees(math.atan(width / camera.width
                                      * math.tan(math.radians(camera.hfov / 2))))
    return replace(scene, ferries=(ferry,), loose=(), solids=(), hands=(), noah=None,
                   highlights=tuple(h for h in scene.highlights if h.ferry == k),
                   camera=replace(camera, target=(ferry.x, ferry.y), hfov=hfov, width=width,
                                  sensor_height=height, tilt=0.0, binned=False, jpeg=0))


def test_a_top_card_under_a_clipped_highlight_is_read_on_the_short_exposure() -> None:
    """DEV scene 1131's ferry 3: its top card's code under a sleeve's highlight that clips at
    the automatic exposure (the reader says nothing); on the short exposure, the highlight's
    light taken off, the ordinary rules read it whole. Asked once. (Scene 1025's ferry 2 until
    the sticker's own edge was told from a card's under a saturating glow, branch tcorner:
    the automatic exposure reads it now.)"""
    table = SceneCamera([_one_ferry(1131, 3)])
    table.open()
    frame = table.read()
    assert frame is not None
    reader = TableReader()
    reading = reader.read(frame.full)
    assert reading.ferries[3].seen and reading.ferries[3].top is None
    assert under_highlight(frame.full, reading) == [3]
    look = ShortLook(table, reader=reader)
    assert look.improve(frame.full, reading).ferries[3].top == "NOAH1/BOX1/CAF2"
    assert (look.asked, look.read) == (1, 1)


def test_a_buried_code_beside_a_cards_edge_under_a_highlight_stays_unnamed() -> None:
    """Never wrong: a card without a sticker laid ¾ of a module into the buried code from the
    right, a highlight across that edge: the short exposure shows the edge again and the code
    stays covered; the ferry says nothing on either frame."""
    (_, _, dx, dy), = [p for p in overlap_positions((0.75,)) if p[0] == "right"]
    cover = CardOnMat(None, dx, dy)
    table = PairedCamera((CardOnMat(BURIED), cover), Glow((STICKER_AT[0] + 10.0, STICKER_AT[1])))
    _asked_once_and_silent(table)


def _corner_scene(cards: tuple[CardOnMat, ...]) -> PairedCamera:
    """Issue 19's glare sweep with short frames, the one scene main's reader did not name
    without the highlight: ``cards`` (the buried code's, and a squared card whose corner lies
    2.2 modules off the code's lower right corner, 3.1 modules away), a highlight of 0.6 ×
    paper turned 135° on the buried card only, centred below that corner."""
    code_half = STICKER_CODE_MM / 2
    below_corner = (STICKER_AT[0] + code_half, STICKER_AT[1] + code_half + 2.2 * QR_MODULES_MM)
    glow = Glow(below_corner, peak=0.6, turn=135.0, first_card_only=True)
    return PairedCamera(cards, glow, light=1.0, seed=22, noise=2.5, noise_seed=22006)


def _corner_card() -> CardOnMat:
    (_, _, dx, dy), = [p for p in overlap_positions((-2.2,)) if p[0] == "corner"]
    return CardOnMat(None, dx, dy)


def test_a_buried_code_beside_a_cards_corner_under_a_highlight_stays_unnamed() -> None:
    """Never wrong (the scene of :func:`_corner_scene`): on the short frame as it came the
    highlight lifts the card's outline to the paper's level as the band judges it (0.12
    module² of the band darker than paper, 0.62 without the highlight); the corner look sees
    the card's corner, and the ferry says nothing."""
    _asked_once_and_silent(_corner_scene((CardOnMat(BURIED), _corner_card())))


def test_the_corner_look_sees_the_cards_corner_on_the_short_frame() -> None:
    """vision/table_corners on the short frame of :func:`_corner_scene`: the card's two edges
    meeting just past the band, under the highlight; the same code alone under the same
    highlight shows no corner."""
    import zxingcpp

    from vision.table_codes import code_corners, expected_modules
    from vision.table_corners import card_corner_beside

    def corner_seen(table: PairedCamera) -> bool:
        short = table.short_exposure(ShortExposure())
        code, = [c for c in zxingcpp.read_barcodes(short) if c.text == BURIED]
        expected = expected_modules(code)
        assert expected is not None
        return card_corner_beside(short, code_corners(code), expected)

    assert corner_seen(_corner_scene((CardOnMat(BURIED), _corner_card())))
    assert not corner_seen(_corner_scene((CardOnMat(BURIED),)))


def test_no_short_look_top_card_at_the_binned_scale() -> None:
    """Never wrong at 2.3 px per module (the binned mode's scale; issue 19, the short sweep's
    hole, branch ``tshortbin``): a card without a sticker 2.2 modules right of the buried code,
    a highlight on the buried card only. Taking the highlight off leaves the card's edge too
    faint to see, and the short frame named the buried code; the binned mode keeps its frame's
    reading (vision/table_exposure.py ``_too_small``): no short frame is asked for that ferry
    (a Pi's capture spared), and given one, :func:`read_short` takes no top card from it. Both
    fail with that rule switched off."""
    from vision.table_sweeps import sweep_camera
    from vision.table_sweeps_glare import SHORT

    table = SHORT.camera(SHORT.scene("right", -2.2, 0.0, 8, "buried"), sweep_camera(2.3))
    reader = TableReader()
    reading = reader.read(table.frame)
    assert reading.ferries[3].top is None and under_highlight(table.frame, reading) == [3]
    assert ShortLook(table, reader=reader).improve(table.frame, reading) is reading
    assert table.asked == 0
    short = table.short_exposure(ShortExposure())
    assert read_short(reader, short, reading, [3]).ferries[3].top is None


def _asked_once_and_silent(table: PairedCamera) -> None:
    """Ferry 3 unread under a clipped highlight on the frame, one short exposure asked, and
    still no top card after it."""
    reader = TableReader()
    reading = reader.read(table.frame)
    assert reading.ferries[3].top is None and under_highlight(table.frame, reading) == [3]
    assert ShortLook(table, reader=reader).improve(table.frame, reading).ferries[3].top is None
    assert table.asked == 1


def test_a_camera_that_cannot_changes_nothing() -> None:
    class Usb:
        def short_exposure(self, settings: ShortExposure) -> np.ndarray:
            raise CameraMissing("The USB camera cannot take a short exposure.", "Use a Pi one.")

    table = PairedCamera((CardOnMat(BURIED),), Glow(STICKER_AT))
    reading = TableReader().read(table.frame)
    assert ShortLook(Usb()).improve(table.frame, reading) is reading
