"""The ``[camera]`` and ``[decoder]`` sections of the app's config file, validated.

Both come as ``Mapping[str, str]`` (every key optional); a bad value raises
:class:`~vision.errors.VisionError` naming the key. ::

    [camera]
    source = auto          # auto, picamera2, usb, usb:1, synthetic, or a video file / folder
    resolution = 1280x720  # width x height of the frames asked of the camera
    fps = 15               # frames per second asked of the camera
    roi = full             # the scan zone: left, top, width, height as fractions of the frame
    exposure = auto        # or a fixed exposure time in milliseconds (e.g. 8)
    focus = auto           # or fixed: Pi camera in dioptres (2.5 = 40 cm), webcam its own scale
    view = hand            # hand: cards shown to the camera; table: one camera above the whole
                           # table (docs/table-view.md); both: either camera reports a play
    table_source = auto    # the overhead camera (view = table or both): auto, picamera2:1, usb:1…

    [decoder]
    name = zxing           # zxing (default) or zbar
    rescue = yes           # zxing: a second look (zbar, sharpening) at codes it could not read
    confirm_frames = 2     # a card counts as shown after this many frames in a row...
    confirm_ms = 250       # ...or this long in view, whichever comes first
    gone_frames = 3        # and as taken away after this many frames without it...
    gone_ms = 300          # ...and this long out of view (both)

>>> camera_settings({"resolution": "640x480", "roi": "0.25, 0, 0.5, 1"}).roi
(0.25, 0.0, 0.5, 1.0)
>>> camera_settings({"fps": "fast"})
Traceback (most recent call last):
...
vision.errors.VisionError: [camera] fps = 'fast' is not a number. Write e.g. fps = 15.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from vision.decoders import DECODERS, DEFAULT_DECODER, Decoder, RescueDecoder, make_decoder
from vision.errors import VisionError
from vision.tracker import TrackerSettings

CAMERA_KEYS = ("source", "resolution", "fps", "roi", "exposure", "focus", "view", "table_source")
VIEWS = ("hand", "table", "both")
DECODER_KEYS = ("name", "rescue", "confirm_frames", "confirm_ms", "gone_frames", "gone_ms")

Roi = tuple[float, float, float, float]
FULL_FRAME: Roi = (0.0, 0.0, 1.0, 1.0)


@dataclass(frozen=True)
class CameraSettings:
    """Where frames come from and how the camera is set up (see the module's docstring).

    ``exposure`` is in milliseconds; ``focus`` is in dioptres (1 / metres) for the Pi Camera
    Module 3 and in the webcam's own units (``v4l2-ctl -L`` lists ``focus_absolute``) for a USB
    camera; ``None`` means automatic.
    """

    source: str = "auto"
    width: int = 1280
    height: int = 720
    fps: float = 15.0
    roi: Roi = FULL_FRAME
    exposure: float | None = None
    focus: float | None = None
    view: str = "hand"
    table_source: str = "auto"


@dataclass(frozen=True)
class DecoderSettings:
    """Which decoder reads the frames, and when a code counts as shown or gone."""

    name: str = DEFAULT_DECODER
    rescue: bool = True
    tracker: TrackerSettings = field(default_factory=TrackerSettings)

    def decoder(self) -> Decoder:
        """The decoder these settings describe.

        >>> DecoderSettings().decoder().name, DecoderSettings(rescue=False).decoder().name
        ('zxing+zbar', 'zxing')
        """
        if self.name == "zxing" and self.rescue:
            return RescueDecoder()
        return make_decoder(self.name)


def camera_settings(values: Mapping[str, str]) -> CameraSettings:
    """Validate ``[camera]``; errors name the key.

    >>> camera_settings({}).source, camera_settings({"exposure": "8"}).exposure
    ('auto', 8.0)
    """
    _reject_unknown("camera", values, CAMERA_KEYS)
    get = _getter(values)
    width, height = _resolution(get("resolution", "1280x720"))
    return CameraSettings(
        source=get("source", "auto") or "auto",
        width=width,
        height=height,
        fps=_number("camera", "fps", get("fps", "15"), low=1, high=120, example="15"),
        roi=_roi(get("roi", "full")),
        exposure=_automatic_or("exposure", get("exposure", "auto"), low=0.01, high=1000,
                               example="8"),
        focus=_automatic_or("focus", get("focus", "auto"), low=0, high=1023, example="2.5"),
        view=_view(get("view", "hand"), get("source", "auto") or "auto",
                   get("table_source", "auto") or "auto"),
        table_source=get("table_source", "auto") or "auto",
    )


def _view(text: str, source: str, table_source: str) -> str:
    """``hand``, ``table`` or ``both``; with both, the two cameras must be two.

    >>> _view("Table", "auto", "auto")
    'table'
    >>> _view("both", "usb:0", "usb:0")
    Traceback (most recent call last):
    ...
    vision.errors.VisionError: [camera] view = both needs two cameras, but source and \
table_source are both 'usb:0'. Name the overhead camera, e.g. table_source = picamera2:1, or \
use view = table.
    """
    view = text.lower()
    if view not in VIEWS:
        close = difflib.get_close_matches(view, VIEWS, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise VisionError(f"[camera] view = '{text}' is not a view{hint}.",
                          "Write view = hand (cards shown to the camera), view = table (one "
                          "camera above the table) or view = both.", key="view",
                          words="config.camera_view", value=text)
    if view == "both" and source == table_source:
        raise VisionError(f"[camera] view = both needs two cameras, but source and table_source "
                          f"are both '{source}'.", "Name the overhead camera, e.g. table_source "
                          "= picamera2:1, or use view = table.", key="view",
                          words="config.camera_two_cameras", source=source)
    return view


def decoder_settings(values: Mapping[str, str]) -> DecoderSettings:
    """Validate ``[decoder]``; errors name the key.

    >>> decoder_settings({"name": "zbar", "confirm_frames": "3"}).tracker.confirm_frames
    3
    """
    _reject_unknown("decoder", values, DECODER_KEYS)
    get = _getter(values)
    name = get("name", DEFAULT_DECODER) or DEFAULT_DECODER
    if name not in DECODERS:
        raise VisionError(f"[decoder] name = '{name}' is not a decoder.",
                          f"Write name = {' or name = '.join(DECODERS)}.", key="name",
                          words="config.decoder_name", value=name, choices=" / ".join(DECODERS))

    def frames(key: str, default: int) -> int:
        return int(_number("decoder", key, get(key, str(default)), low=1, high=100,
                           example=str(default), whole=True))

    def seconds(key: str, default: int) -> float:
        return _number("decoder", key, get(key, str(default)), low=0, high=10_000,
                       example=str(default)) / 1000

    rescue = get("rescue", "yes").lower()
    if rescue not in ("yes", "no"):
        raise VisionError(f"[decoder] rescue = '{rescue}' is not yes or no.",
                          "Write rescue = yes or rescue = no.", key="rescue",
                          words="config.not_yes_no", section="decoder", name="rescue",
                          value=rescue)
    tracker = TrackerSettings(
        confirm_frames=frames("confirm_frames", 2),
        confirm_seconds=seconds("confirm_ms", 250),
        gone_frames=frames("gone_frames", 3),
        gone_seconds=seconds("gone_ms", 300),
    )
    return DecoderSettings(name, rescue == "yes", tracker)


def _getter(values: Mapping[str, str]) -> Callable[[str, str], str]:
    return lambda key, default: values.get(key, default).strip()


def _reject_unknown(section: str, values: Mapping[str, str], known: tuple[str, ...]) -> None:
    for key in values:
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise VisionError(f"[{section}] has no setting '{key}'{hint}.",
                              f"Known settings: {', '.join(known)}.", key=key,
                              words="config.unknown_setting", section=section, name=key,
                              known=", ".join(known))


def _number(
    section: str, key: str, text: str, *, low: float, high: float, example: str,
    whole: bool = False,
) -> float:
    kind = "a whole number" if whole else "a number"
    facts = {"section": section, "name": key, "value": text, "example": example}
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        raise VisionError(f"[{section}] {key} = '{text}' is not {kind}.",
                          f"Write e.g. {key} = {example}.", key=key,
                          words="config.not_whole_number" if whole else "config.not_number",
                          **facts) from None
    if not low <= value <= high:
        raise VisionError(f"[{section}] {key} = {text} is out of range.",
                          f"Use {kind} from {low:g} to {high:g}, e.g. {key} = {example}.",
                          key=key, words="config.out_of_range", low=f"{low:g}",
                          high=f"{high:g}", **facts)
    return value


def _automatic_or(key: str, text: str, *, low: float, high: float, example: str) -> float | None:
    if text.lower() in ("", "auto"):
        return None
    return _number("camera", key, text, low=low, high=high, example=example)


def _resolution(text: str) -> tuple[int, int]:
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (int(part) for part in parts)
    except ValueError:
        raise VisionError(f"[camera] resolution = '{text}' is not width x height.",
                          "Write e.g. resolution = 1280x720.", key="resolution",
                          words="config.resolution_format", value=text) from None
    if not (160 <= width <= 4096 and 120 <= height <= 3072):
        raise VisionError(f"[camera] resolution = {text} is out of range.",
                          "Use e.g. 640x480, 1280x720 or 1920x1080.", key="resolution",
                          words="config.resolution_range", value=text)
    return width, height


def _roi(text: str) -> Roi:
    if text.lower() in ("", "full"):
        return FULL_FRAME
    fix = ("Write roi = full, or left, top, width, height as fractions of the frame, "
           "e.g. roi = 0.25, 0, 0.5, 1.")
    try:
        left, top, width, height = (float(part) for part in text.split(","))
    except ValueError:
        raise VisionError(f"[camera] roi = '{text}' is not four numbers.", fix,
                          key="roi", words="config.roi_format", value=text) from None
    inside = 0 <= left < 1 and 0 <= top < 1 and width > 0 and height > 0
    if not (inside and left + width <= 1.0001 and top + height <= 1.0001):
        raise VisionError(f"[camera] roi = {text} does not fit in the frame.", fix, key="roi",
                          words="config.roi_outside", value=text)
    return left, top, width, height
