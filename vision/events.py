"""What the vision pipeline reports: detections in one frame, and events over time.

A :class:`Detection` is one QR code found in one frame. The tracker turns the stream of
detections into events, which the pipeline hands to its user through a callback or a queue:

* :class:`CardShown` / :class:`CardRemoved`: one pair per presentation of one of *our* codes;
* :class:`ForeignCode`: a QR code that is not ours, reported once per presentation and never as
  a card;
* :class:`CodesSeen`: every code found in one frame (only when raw reporting is on);
* :class:`CameraStatus`: the camera is ok, missing, lost, reconnecting or stopped;
* :class:`PipelineStats`: frame counts (captured, decoded, dropped as stale) and timings.

Every timed event carries ``captured_at`` (the :func:`time.monotonic` time at which the frame
that confirmed it was captured) and ``latency`` (seconds from that capture to the event).

>>> shown = CardShown("noah:1:cat:F#2", in_view=("noah:1:cat:F#2",), captured_at=10.0,
...                   latency=0.004, frame=3)
>>> shown.several
False
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

Point = tuple[float, float]


@dataclass(frozen=True)
class Detection:
    """One QR code found in one frame: its text and its four corners in frame pixels.

    Corners go clockwise from the code's own top-left corner, whatever its rotation.

    >>> d = Detection("hello", ((10, 20), (50, 22), (48, 60), (9, 58)))
    >>> d.bbox
    (9, 20, 41, 40)
    >>> d.center
    (29.25, 40.0)
    """

    text: str
    corners: tuple[Point, Point, Point, Point]

    @property
    def bbox(self) -> tuple[int, int, int, int]:
        """The upright bounding box ``(x, y, width, height)``, in whole pixels."""
        xs = [x for x, _ in self.corners]
        ys = [y for _, y in self.corners]
        left, top = int(min(xs)), int(min(ys))
        return left, top, int(max(xs)) - left, int(max(ys)) - top

    @property
    def center(self) -> Point:
        """The mean of the four corners."""
        return (
            sum(x for x, _ in self.corners) / 4,
            sum(y for _, y in self.corners) / 4,
        )


@dataclass(frozen=True)
class CardShown:
    """One of our codes has been in view long enough to count as shown (once per presentation).

    ``in_view`` lists every code of ours in view now, this one included, in the order they
    arrived: when it holds more than one, two cards are on show at once and the referee has to
    ask which one is played. Cards that arrive in the same frame each get their own event, with
    the same ``in_view``.
    """

    text: str
    in_view: tuple[str, ...]
    captured_at: float
    latency: float
    frame: int

    @property
    def several(self) -> bool:
        """True when more than one of our cards is in view."""
        return len(self.in_view) > 1


@dataclass(frozen=True)
class CardRemoved:
    """A shown card has left the view (missing long enough to be gone, not a missed frame).

    ``shown_for`` is the time in seconds from its :class:`CardShown` to its disappearance;
    ``in_view`` lists the cards of ours still in view.
    """

    text: str
    in_view: tuple[str, ...]
    shown_for: float
    captured_at: float
    latency: float
    frame: int


@dataclass(frozen=True)
class ForeignCode:
    """A QR code that is not one of ours was presented (once per presentation; never a card)."""

    text: str
    captured_at: float
    latency: float
    frame: int


@dataclass(frozen=True)
class CodesSeen:
    """Every code found in one frame, ours or not (raw reporting; frames with none are silent)."""

    detections: tuple[Detection, ...]
    captured_at: float
    latency: float
    frame: int
    decode_time: float = 0.0

    @property
    def texts(self) -> tuple[str, ...]:
        return tuple(d.text for d in self.detections)


class CameraState(enum.Enum):
    """The camera's condition, as the UI shows it."""

    OK = "ok"
    NO_CAMERA = "no camera"
    LOST = "lost"
    RECONNECTING = "reconnecting"
    STOPPED = "stopped"


@dataclass(frozen=True)
class CameraStatus:
    """A change in the camera's condition, with a plain sentence for the player.

    ``retry_in`` is the number of seconds before the next reconnection attempt, if one is due.

    >>> CameraStatus(CameraState.LOST, "The camera stopped sending pictures.", at=5.0).ok
    False
    """

    state: CameraState
    message: str
    at: float
    source: str = ""
    retry_in: float | None = None

    @property
    def ok(self) -> bool:
        return self.state is CameraState.OK


def state_after_fault(status: CameraStatus | None, *, missing: bool) -> CameraState:
    """The camera's state after it failed to open or to give a frame, from its last status:
    a camera never seen is missing (``missing``: no camera answered) or lost; one that worked
    is lost; one already missing stays so (said once); one lost is reconnecting. Shared by
    every camera thread (the hand camera's pipeline, the overhead camera's capture).

    >>> state_after_fault(None, missing=True).value, state_after_fault(
    ...     CameraStatus(CameraState.OK, "", at=0.0), missing=True).value
    ('no camera', 'lost')
    """
    if status is None:
        return CameraState.NO_CAMERA if missing else CameraState.LOST
    if status.ok:
        return CameraState.LOST
    if status.state is CameraState.NO_CAMERA:
        return CameraState.NO_CAMERA
    return CameraState.RECONNECTING


@dataclass(frozen=True)
class PipelineStats:
    """Counters since the pipeline started, reported now and then and when it stops.

    ``dropped`` counts frames captured but never decoded because a newer one was waiting
    (the pipeline always decodes the newest frame). Times are in seconds.
    """

    captured: int
    decoded: int
    dropped: int
    at: float
    mean_decode_time: float = 0.0
    mean_latency: float = 0.0
    max_latency: float = 0.0
    errors: int = 0
    extra: dict[str, float] = field(default_factory=dict)


Event = CardShown | CardRemoved | ForeignCode | CodesSeen | CameraStatus | PipelineStats
