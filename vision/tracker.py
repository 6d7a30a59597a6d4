"""From per-frame detections to one event per presentation.

A code becomes *shown* once it has been found in ``confirm_frames`` consecutive frames, or
continuously for ``confirm_seconds`` (whichever comes first), and *removed* once it has been
missing from ``gone_frames`` consecutive frames **and** for ``gone_seconds`` (so a missed frame
or two never splits a presentation, at any frame rate). A card held in view for minutes is one
:class:`~vision.events.CardShown`; a code that is not ours (``is_ours`` says) is one
:class:`~vision.events.ForeignCode` per presentation and never a card.

The tracker is pure: it takes the capture time of each frame and a clock for latencies, so tests
drive it with made-up times.

>>> clock = iter([1.01, 1.02, 1.11, 1.12]).__next__
>>> tracker = Tracker(clock=clock)
>>> tracker.update(["noah:cat"], captured_at=1.0)
[]
>>> [type(e).__name__ for e in tracker.update(["noah:cat"], captured_at=1.1)]
['CardShown']
>>> tracker.update(["noah:cat"], captured_at=1.2)   # still in view: nothing new
[]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from vision.events import CardRemoved, CardShown, ForeignCode

#: What the tracker reports: a card shown or gone, or a code that is not ours.
TrackEvent = CardShown | CardRemoved | ForeignCode


@dataclass
class _Track:
    """What the tracker knows about one code now."""

    ours: bool
    first_seen: float  # capture time of the first frame of this run of sightings
    last_seen: float
    frames: int = 1  # consecutive frames with the code
    missing: int = 0  # consecutive frames without it, once confirmed
    confirmed_at: float | None = None


@dataclass(frozen=True)
class TrackerSettings:
    """When a code counts as shown and as gone (see the module's docstring).

    >>> TrackerSettings().confirm_frames
    2
    """

    confirm_frames: int = 2
    confirm_seconds: float = 0.25
    gone_frames: int = 3
    gone_seconds: float = 0.3


class Tracker:
    """Turns the codes found in each frame into shown / removed / foreign events."""

    def __init__(
        self,
        is_ours: Callable[[str], bool] = lambda text: True,
        settings: TrackerSettings | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.is_ours = is_ours
        self.settings = settings or TrackerSettings()
        self.clock = clock
        self.frame = 0
        self._tracks: dict[str, _Track] = {}  # in order of arrival

    @property
    def in_view(self) -> tuple[str, ...]:
        """Our codes shown and not yet removed, in the order they arrived."""
        return tuple(
            text
            for text, track in self._tracks.items()
            if track.confirmed_at is not None and track.ours
        )

    def update(self, texts: Iterable[str], captured_at: float) -> list[TrackEvent]:
        """The events that one frame's codes (captured at ``captured_at``) give rise to."""
        self.frame += 1
        found = dict.fromkeys(texts)  # no duplicates, order kept
        events: list[TrackEvent] = []
        for text in [t for t in self._tracks if t not in found]:
            self._missed(text, captured_at, events)
        confirmed = {text for text in found if self._sighted(text, captured_at)}
        # cards confirmed in the same frame share one in_view, listing them all in arrival order
        events.extend(self._shown_event(t, captured_at) for t in self._tracks if t in confirmed)
        return events

    def finish(self, captured_at: float) -> list[TrackEvent]:
        """Removal events for every card still in view (the stream has ended)."""
        events: list[TrackEvent] = []
        for text in list(self._tracks):
            self._forget(text, captured_at, events)
        return events

    def _sighted(self, text: str, captured_at: float) -> bool:
        """Note one sighting; true when it confirms the code as shown."""
        track = self._tracks.get(text)
        if track is None:
            track = _Track(self.is_ours(text), captured_at, captured_at, frames=0)
            self._tracks[text] = track
        track.frames += 1
        track.missing = 0
        track.last_seen = captured_at
        if track.confirmed_at is None and self._confirmed(track, captured_at):
            track.confirmed_at = captured_at
            return True
        return False

    def _confirmed(self, track: _Track, captured_at: float) -> bool:
        settings = self.settings
        return (
            track.frames >= settings.confirm_frames
            or captured_at - track.first_seen >= settings.confirm_seconds
        )

    def _missed(self, text: str, captured_at: float, events: list[TrackEvent]) -> None:
        track = self._tracks[text]
        if track.confirmed_at is None:  # a flicker that never became a presentation
            del self._tracks[text]
            return
        track.missing += 1
        settings = self.settings
        if (
            track.missing >= settings.gone_frames
            and captured_at - track.last_seen >= settings.gone_seconds
        ):
            self._forget(text, captured_at, events)

    def _forget(self, text: str, captured_at: float, events: list[TrackEvent]) -> None:
        track = self._tracks.pop(text)
        if track.confirmed_at is not None and track.ours:
            events.append(
                CardRemoved(
                    text,
                    in_view=self.in_view,
                    shown_for=max(0.0, track.last_seen - track.confirmed_at),
                    captured_at=captured_at,
                    latency=self.clock() - captured_at,
                    frame=self.frame,
                )
            )

    def _shown_event(self, text: str, captured_at: float) -> CardShown | ForeignCode:
        latency = self.clock() - captured_at
        if not self._tracks[text].ours:
            return ForeignCode(text, captured_at, latency, self.frame)
        return CardShown(text, self.in_view, captured_at, latency, self.frame)
