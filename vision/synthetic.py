"""A virtual camera over a virtual table: renders cards with QR stickers as a camera sees them.

Used by the demo, the tests, the benchmark and the app's simulator. :func:`render_frame` draws a
table-like frame (green cloth, uneven light) with zero, one or more cards on it; each card is a
QR text (drawn here with segno) or a ready card image (e.g. a sticker rendered by
``companion.tags``, label included). Geometry follows a camera about 40 cm above the table, so a
sticker gets the pixel size it would get in a real frame; blur, tilt, noise and glare make the
frame harder, as real tables do.

>>> from vision.decoders import decode
>>> frame = render_frame(["NOAH1 CAT F2"], Scene(width=1280, height=720))
>>> frame.shape
(720, 1280, 3)
>>> [d.text for d in decode(frame)]
['NOAH1 CAT F2']
"""

from __future__ import annotations

import functools
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

CARD_MM = (63.0, 88.0)  # a standard card; the sticker sits on its upper half
CLOTH_BGR = (58, 96, 38)
CARD_BGR = (214, 232, 240)
NOISE_MARGIN = 24  # SyntheticSource's noise field exceeds the frame by this, for 625 offsets

CardLike = str | np.ndarray | Any  # a QR text, a BGR/RGB numpy image, or a PIL image


def focal_px(width: int, hfov_deg: float) -> float:
    """A pinhole camera's focal length in pixels: ``width`` pixels span ``hfov_deg`` degrees.
    Pixels per millimetre at a distance ``d`` mm are ``focal_px(...) / d``.

    >>> round(focal_px(4608, 66.0), 1)
    3547.8
    """
    return width / (2 * math.tan(math.radians(hfov_deg) / 2))


@dataclass(frozen=True)
class Scene:
    """How the virtual camera sees the table.

    ``sticker_mm`` is the printed QR code's side, quiet zone excluded; ``camera_height_mm`` and
    ``hfov_deg`` (Camera Module 3: 66°) give the scale. ``blur`` is a Gaussian sigma in pixels,
    ``tilt_deg`` leans the card away from the camera, ``rotation_deg`` turns it on the table,
    ``noise`` is the sensor noise's standard deviation (0–255 scale), ``glare`` (0–1) a bright
    reflection over the sticker, ``light`` scales brightness (0.4 = a dim room).

    >>> round(Scene(width=1280).px_per_mm, 2)
    2.46
    """

    width: int = 1280
    height: int = 720
    sticker_mm: float = 20.0
    camera_height_mm: float = 400.0
    hfov_deg: float = 66.0
    blur: float = 0.0
    tilt_deg: float = 0.0
    rotation_deg: float = 0.0
    noise: float = 2.0
    glare: float = 0.0
    light: float = 1.0
    seed: int = 0

    @property
    def px_per_mm(self) -> float:
        return focal_px(self.width, self.hfov_deg) / self.camera_height_mm

    def harder(self, **changes: Any) -> Scene:
        """A copy with some settings changed (``dataclasses.replace``)."""
        return replace(self, **changes)


def qr_modules(text: str, border: int = 4) -> np.ndarray:
    """The QR code of ``text`` as a grey image with one pixel per module (0 dark, 255 light).

    Always a regular QR code (never Micro QR, which zbar cannot read).

    >>> qr_modules("HI").shape
    (29, 29)
    """
    import segno

    dark = np.array(segno.make_qr(text).matrix, dtype=np.uint8)
    return np.pad(255 - 255 * dark, border, constant_values=255)


def render_card(card: CardLike, scene: Scene) -> np.ndarray:
    """A card (BGR) at the scene's scale: a QR text on a plain card, or the given image."""
    if not isinstance(card, str):
        return _to_bgr(card)
    scale = scene.px_per_mm
    width, height = (max(8, round(mm * scale)) for mm in CARD_MM)
    image = np.empty((height, width, 3), np.uint8)
    image[:] = CARD_BGR
    modules = qr_modules(card)
    side = round(scene.sticker_mm * scale * modules.shape[0] / (modules.shape[0] - 8))
    sticker = _resize(modules, side)
    x, y = (width - side) // 2, max(0, round(height * 0.3) - side // 2)
    side = min(side, width - x, height - y)
    image[y : y + side, x : x + side] = sticker[:side, :side, None]
    art_top = y + side + round(height * 0.05)  # a band of "artwork" under the sticker
    image[art_top : height - round(height * 0.06), round(width * 0.1) : round(width * 0.9)] = (
        80, 130, 170
    )
    return image


def render_frame(cards: Sequence[CardLike], scene: Scene | None = None) -> np.ndarray:
    """A BGR frame of the table with these cards on it (side by side), or none.

    >>> render_frame([], Scene(width=320, height=240)).shape
    (240, 320, 3)
    """
    import cv2

    scene = scene or Scene()
    frame = _cloth(scene.width, scene.height, scene.seed).copy()
    count = len(cards)
    for index, card in enumerate(cards):
        image = render_card(card, scene)
        center = (scene.width * (index + 1) / (count + 1), scene.height / 2)
        quad = _card_quad(image.shape[1], image.shape[0], center, scene, index)
        _paste(frame, image, quad)
        if scene.glare > 0:
            _add_glare(frame, quad, scene.glare)
    frame = (frame.astype(np.float32) * _light(scene.width, scene.height, scene.light))
    if scene.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), scene.blur)
    if scene.noise > 0:
        rng = np.random.default_rng(scene.seed)
        frame += rng.normal(0, scene.noise, frame.shape).astype(np.float32)
    clipped: np.ndarray = np.clip(frame, 0, 255).astype(np.uint8)
    return clipped


def _to_bgr(image: Any) -> np.ndarray:
    """A numpy BGR copy of a PIL image (RGB) or of a numpy image (grey or BGR)."""
    if hasattr(image, "convert"):  # PIL
        return np.array(image.convert("RGB"))[:, :, ::-1].copy()
    array = np.asarray(image, dtype=np.uint8)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    return np.ascontiguousarray(array[:, :, :3])


def _resize(image: np.ndarray, side: int) -> np.ndarray:
    import cv2

    # INTER_AREA averages module edges the way a camera sensor does
    return cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)


@functools.cache
def _cloth(width: int, height: int, seed: int) -> np.ndarray:
    """A felt-like green cloth: a colour, a fine weave and soft blotches (cached per size)."""
    import cv2

    rng = np.random.default_rng(seed + 1)
    weave = rng.normal(0, 9, (height, width)).astype(np.float32)
    blotches = cv2.resize(
        rng.normal(0, 12, (max(2, height // 60), max(2, width // 60))).astype(np.float32),
        (width, height),
        interpolation=cv2.INTER_CUBIC,
    )
    texture = (weave + blotches)[:, :, None]
    return np.clip(np.array(CLOTH_BGR, np.float32) + texture, 0, 255).astype(np.uint8)


@functools.cache
def _light(width: int, height: int, level: float) -> np.ndarray:
    """Uneven light: brightest near one corner (a lamp), ``level`` overall."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    distance = np.hypot(xs / width - 0.3, ys / height - 0.2)
    light: np.ndarray = (level * (1.15 - 0.35 * distance))[:, :, None]
    return light


def _card_quad(
    width: int, height: int, center: tuple[float, float], scene: Scene, index: int
) -> np.ndarray:
    """Where the card's corners land in the frame: turned on the table, tilted toward the lens."""
    angle = math.radians(scene.rotation_deg + 7 * index)
    shrink = math.cos(math.radians(scene.tilt_deg))  # the far edge recedes
    half_w, half_h = width / 2, height / 2
    corners = [(-half_w, -half_h * shrink), (half_w, -half_h * shrink), (half_w, half_h),
               (-half_w, half_h)]
    if scene.tilt_deg:  # perspective: the far (top) edge is narrower
        narrow = 1 - 0.25 * math.sin(math.radians(scene.tilt_deg))
        corners[0] = (corners[0][0] * narrow, corners[0][1])
        corners[1] = (corners[1][0] * narrow, corners[1][1])
    cos, sin = math.cos(angle), math.sin(angle)
    return np.array(
        [(center[0] + x * cos - y * sin, center[1] + x * sin + y * cos) for x, y in corners],
        np.float32,
    )


def _paste(frame: np.ndarray, image: np.ndarray, quad: np.ndarray) -> None:
    import cv2

    h, w = image.shape[:2]
    source = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    matrix = cv2.getPerspectiveTransform(source, quad)
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size)
    np.copyto(frame, warped, where=mask[:, :, None] > 127)


def _add_glare(frame: np.ndarray, quad: np.ndarray, strength: float) -> None:
    """A soft white reflection over the upper part of the card, where the sticker is."""
    import cv2

    top = quad[:2].mean(axis=0) * 0.65 + quad[2:].mean(axis=0) * 0.35
    radius = float(np.linalg.norm(quad[1] - quad[0])) * 0.3
    spot = np.zeros(frame.shape[:2], np.float32)
    cv2.circle(spot, (round(top[0]), round(top[1])), max(1, round(radius)), 1.0, -1)
    glow = cv2.GaussianBlur(spot, (0, 0), max(1.0, radius / 2))
    lifted = frame.astype(np.float32) + (255 * strength * glow)[:, :, None]
    np.copyto(frame, np.clip(lifted, 0, 255).astype(np.uint8))


IDLE_AFTER = 1.0  # s: a bare table filmed at ``fps`` this long before ``idle_fps`` (see below)


class SyntheticSource:
    """A camera that films the virtual table: ``present(...)`` puts cards down, ``clear()``.

    Thread-safe: the demo or the simulator presents cards from one thread while the pipeline
    reads frames on another. ``read()`` paces itself to ``fps`` (``fps=0``: as fast as asked).
    Frames are rendered once per presentation; each frame gets its own sensor noise, a window
    at a random offset into a noise field drawn once (drawing 360,000 normal samples for every
    frame of a 30 fps camera took a third of a core; this costs a few hundredths of one).

    >>> camera = SyntheticSource(Scene(width=320, height=240), fps=0)
    >>> camera.open()
    >>> camera.present("NOAH1 CAT F2")
    >>> camera.read().shape
    (240, 320, 3)
    """

    def __init__(self, scene: Scene | None = None, fps: float = 15.0,
                 idle_fps: float | None = None) -> None:
        self.scene = scene or Scene()
        self.fps = fps
        #: Frames a second once the table has been bare for :data:`IDLE_AFTER` seconds (``None``:
        #: always ``fps``). A bare, still table filmed and decoded 30 times a second took a
        #: quarter of a core in the app's simulator for nothing; a card put down wakes the
        #: camera at once, and the pipeline sees it go at ``fps`` (the bare second after it).
        self.idle_fps = idle_fps
        self.name = f"synthetic camera {self.scene.width}×{self.scene.height}"
        self._lock = threading.Lock()
        self._cards: tuple[CardLike, ...] = ()
        self._frame: np.ndarray | None = None
        self._next_time = 0.0
        self._bare_since = time.monotonic()
        self._presented = threading.Event()  # wakes a read waiting at the idle pace
        self._rng = np.random.default_rng(self.scene.seed)
        self._noise: tuple[np.ndarray, np.ndarray] | None = None  # (lifts, dips), see _noisy

    def present(self, *cards: CardLike) -> None:
        """Show these cards (QR texts or card images) from the next frame on."""
        with self._lock:
            self._cards, self._frame = tuple(cards), None
            self._bare_since = time.monotonic()  # (only read while the table is bare)
        self._presented.set()

    def clear(self) -> None:
        """Take every card away."""
        self.present()

    @property
    def cards(self) -> tuple[CardLike, ...]:
        with self._lock:
            return self._cards

    def open(self) -> None:
        self._next_time = self._bare_since = time.monotonic()

    def read(self) -> np.ndarray:
        self._wait_for_next_frame()
        with self._lock:
            if self._frame is None:
                self._frame = render_frame(self._cards, replace(self.scene, noise=0))
            frame = self._frame
        if self.scene.noise <= 0:
            return frame.copy()
        return self._noisy(frame)

    def close(self) -> None:
        pass

    def _noisy(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with sensor noise (the same on the three channels, like the luminance noise
        of a real sensor): a frame-sized window, at a random offset, of a noise field
        ``NOISE_MARGIN`` pixels larger each way, added and subtracted with saturation."""
        import cv2

        height, width = frame.shape[:2]
        if self._noise is None or self._noise[0].shape[:2] != (height + NOISE_MARGIN,
                                                                 width + NOISE_MARGIN):
            field = np.rint(self._rng.normal(0, self.scene.noise, (height + NOISE_MARGIN,
                                                                   width + NOISE_MARGIN)))
            lifts = np.clip(field, 0, 255).astype(np.uint8)[:, :, None].repeat(3, axis=2)
            dips = np.clip(-field, 0, 255).astype(np.uint8)[:, :, None].repeat(3, axis=2)
            self._noise = (lifts, dips)
        lifts, dips = self._noise
        y, x = (int(offset) for offset in self._rng.integers(0, NOISE_MARGIN + 1, 2))
        noisy = cv2.add(frame, lifts[y : y + height, x : x + width])
        return cv2.subtract(noisy, dips[y : y + height, x : x + width], dst=noisy)

    def _wait_for_next_frame(self) -> None:
        if self.fps <= 0:
            return
        now = time.monotonic()
        idle = self.idling(now)
        fps = self.idle_fps if idle and self.idle_fps else self.fps
        self._next_time = max(self._next_time + 1 / fps, now)
        if not idle:
            time.sleep(max(0.0, self._next_time - now))
        elif self._presented.wait(max(0.0, self._next_time - now)):
            self._next_time = time.monotonic()  # cards put down: filmed now, then at ``fps``
        self._presented.clear()

    def idling(self, now: float) -> bool:
        """Whether the camera films at ``idle_fps`` at ``now``: the table bare for
        :data:`IDLE_AFTER` seconds.

        >>> camera = SyntheticSource(Scene(width=320, height=240), fps=30, idle_fps=2)
        >>> camera.open(); start = time.monotonic()
        >>> camera.idling(start), camera.idling(start + IDLE_AFTER + 0.1)
        (False, True)
        >>> camera.present("NOAH1 CAT F2"); camera.idling(time.monotonic() + 60)
        False
        """
        with self._lock:
            bare, since = not self._cards, self._bare_since
        return self.idle_fps is not None and bare and now - since >= IDLE_AFTER
