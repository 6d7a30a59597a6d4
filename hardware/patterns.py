"""What each ferry light does over time: pure data, no GPIO, no clock of its own.

A :class:`Wave` is one light's brightness as a function of time (piecewise linear, optionally
looping); a :class:`Pattern` gives a wave to each of the five ferries; a :class:`Player` knows
which pattern shows at a given instant, so the device layer only asks it for frames. Everything
takes the time as an argument, which makes the patterns testable with a fake clock:

>>> pattern = destinations(noah=0, choices=[2, 3])
>>> [light.pattern for light in pattern.frame(0.0)]
['noah', 'off', 'destination', 'destination', 'off']
>>> [light.brightness for light in pattern.frame(0.5)]
[1.0, 0.0, 0.0, 0.0, 0.0]
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

FERRIES = 5  # one LED per ferry mat: the wiring's fact (hardware never imports the companion)
Colour = tuple[float, float, float]
RED: Colour = (1.0, 0.0, 0.0)
ROLES = ("off", "noah", "destination", "noah, destination", "scan", "illegal", "departure",
         "round end", "game end")  # what FerryLight.pattern can say: others display these

# (level at start, level at end, seconds): a hold when both levels are equal, else a linear fade.
Segment = tuple[float, float, float]


class FerryLight(NamedTuple):
    """What one ferry's light shows at one instant (positions 0–4; people read ferry 1–5).

    ``colour`` is ``None`` for single-colour LEDs (and, inside patterns, for "the ferry's own
    colour"); ``pattern`` names the light's role, one of :data:`ROLES`.
    """

    ferry: int
    brightness: float
    colour: Colour | None
    pattern: str


@dataclass(frozen=True)
class Wave:
    """One light's brightness over time: linear between ``points`` of (seconds, level).

    Two points at the same time make a sharp edge. After the last point a wave holds its last
    level, or starts again when ``loop`` is set.

    >>> blink = Wave("destination", ((0, 1), (0.35, 1), (0.35, 0), (0.7, 0)), loop=True)
    >>> blink.level(0.1), blink.level(0.4), blink.level(0.8)
    (1, 0, 1)
    >>> round(blink.next_change(0.1), 2)  # seconds until the light may change again
    0.25
    """

    name: str
    points: tuple[tuple[float, float], ...]
    loop: bool = False
    colour: Colour | None = None  # overrides the ferry's own colour (RGB LEDs only)

    @property
    def end(self) -> float:
        """Time of the last point: the wave's length, or its period when it loops."""
        return self.points[-1][0]

    def _local(self, t: float) -> float:
        if self.loop and self.end > 0:
            return t % self.end
        return min(t, self.end)

    def _segment(self, t: float) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The two points around local time ``t``, or ``None`` past the end."""
        index = bisect_right([time for time, _ in self.points], t)
        if index >= len(self.points):
            return None
        return self.points[index - 1], self.points[index]

    def level(self, t: float) -> float:
        """Brightness 0–1 at ``t`` seconds after the wave started."""
        segment = self._segment(self._local(t))
        if segment is None:
            return self.points[-1][1]
        (t0, a), (t1, b) = segment
        return a if a == b else a + (b - a) * (self._local(t) - t0) / (t1 - t0)

    def next_change(self, t: float) -> float | None:
        """Seconds until the level may change: 0 while fading, ``None`` if it never will."""
        if not self.loop and t >= self.end:
            return None
        segment = self._segment(self._local(t))
        if segment is None:
            return None
        (_, a), (t1, b) = segment
        return 0.0 if a != b else t1 - self._local(t)


def wave(name: str, segments: Iterable[Segment], *, loop: bool = False,
         colour: Colour | None = None) -> Wave:
    """Build a :class:`Wave` from consecutive (from level, to level, seconds) segments.

    >>> wave("scan", [(0, 1, 0.5), (1, 0, 0.5)], loop=True).level(0.25)
    0.5
    """
    points: list[tuple[float, float]] = []
    t = 0.0
    for start, stop, seconds in segments:
        points += [(t, start), (t + seconds, stop)]
        t += seconds
    return Wave(name, tuple(points), loop, colour)


def steady(name: str, level: float = 1.0) -> Wave:
    """A light that stays at ``level``."""
    return wave(name, [(level, level, 0.0)])


OFF = steady("off", 0.0)


@dataclass(frozen=True)
class Pattern:
    """A wave for each ferry, under one name.

    A *lasting* pattern shows until it is replaced. Any other one is a *transient*: it plays
    once, for :attr:`duration` seconds, and then the last lasting pattern shows again — or
    darkness, when ``ends_dark`` is set (the end of a round or a game closes the display).
    """

    name: str
    waves: tuple[Wave, ...]
    lasting: bool = True
    ends_dark: bool = False

    def __post_init__(self) -> None:
        if len(self.waves) != FERRIES:
            raise ValueError(f"a pattern needs {FERRIES} waves, got {len(self.waves)}")

    @property
    def duration(self) -> float | None:
        """Seconds a transient plays; ``None`` for a lasting pattern."""
        return None if self.lasting else max(w.end for w in self.waves)

    def frame(self, t: float) -> tuple[FerryLight, ...]:
        """Every light ``t`` seconds after the pattern started."""
        return tuple(FerryLight(k, w.level(t), w.colour, w.name) for k, w in enumerate(self.waves))

    def next_change(self, t: float) -> float | None:
        """Seconds until any light may change (0 while one fades); ``None`` if none will."""
        waits = [w.next_change(t) for w in self.waves]
        if self.duration is not None:
            waits.append(max(self.duration - t, 0.0))
        known = [wait for wait in waits if wait is not None]
        return min(known) if known else None


def check_ferry(k: int) -> int:
    """``k`` if it is a ferry position (0–4); a programming error otherwise."""
    if not (isinstance(k, int) and 0 <= k < FERRIES):
        raise ValueError(f"ferry position must be 0–{FERRIES - 1}, got {k!r}")
    return k


def _one_ferry(name: str, k: int, ferry_wave: Wave, *, lasting: bool = True) -> Pattern:
    waves = [OFF] * FERRIES
    waves[check_ferry(k)] = ferry_wave
    return Pattern(name, tuple(waves), lasting=lasting)


# --- The patterns the referee asks for -----------------------------------------------------------
# Timings are chosen to be told apart at a glance: steady (Noah), a calm 1.4 Hz blink
# (destinations), a slow 0.8 Hz breath (scan prompt) and a 6 Hz strobe (illegal play).

BLINK = [(1.0, 1.0, 0.35), (0.0, 0.0, 0.35)]
NOAH_AND_DESTINATION = [(1.0, 1.0, 0.55), (0.15, 0.15, 0.15)]  # Noah may stay: mostly on, dips
PULSE = [(0.0, 1.0, 0.6), (1.0, 0.0, 0.6)]
STROBE_SECONDS, STROBE_FLASHES = 0.08, 4
# Dark first and last, so the flashes stand out on a light that was already lit (Noah's ferry).
STROBE = [(0.0, 0.0, STROBE_SECONDS)] + [(1.0, 1.0, STROBE_SECONDS), (0.0, 0.0, STROBE_SECONDS)] \
    * STROBE_FLASHES
SAIL_AWAY = [(1.0, 1.0, 0.12), (0.0, 0.0, 0.12)] * 3 + [(1.0, 1.0, 0.3), (1.0, 0.0, 1.0)]

DARK = Pattern("off", (OFF,) * FERRIES)


def noah(k: int) -> Pattern:
    """Noah stands at ferry ``k``: that light steady, the others dark."""
    return _one_ferry("noah", k, steady("noah"))


def destinations(noah: int, choices: Sequence[int]) -> Pattern:
    """Noah steady at ``noah``; each legal destination blinks.

    A destination at Noah's own ferry (he may stay) stays mostly lit with short dips.

    >>> [light.pattern for light in destinations(1, [1, 4]).frame(0)]
    ['off', 'noah, destination', 'off', 'off', 'destination']
    """
    waves = [OFF] * FERRIES
    waves[check_ferry(noah)] = steady("noah")
    for k in choices:
        waves[check_ferry(k)] = (
            wave("noah, destination", NOAH_AND_DESTINATION, loop=True)
            if k == noah
            else wave("destination", BLINK, loop=True)
        )
    return Pattern("destinations", tuple(waves))


def scan_prompt(k: int) -> Pattern:
    """Setup: "scan the card for ferry ``k``" — that light breathes slowly."""
    return _one_ferry("scan prompt", k, wave("scan", PULSE, loop=True))


def illegal(k: int) -> Pattern:
    """An illegal play: four fast red flashes at ferry ``k`` (0.72 s), then what showed before."""
    return _one_ferry("illegal", k, wave("illegal", STROBE, colour=RED), lasting=False)


def departure(k: int) -> Pattern:
    """Ferry ``k`` leaves: three quick blinks, a held glow, a one-second fade (about 2 s)."""
    return _one_ferry("departure", k, wave("departure", SAIL_AWAY), lasting=False)


def _chase(name: str, step: float, laps: int, finale: Sequence[Segment]) -> Pattern:
    """Each light in turn, ``laps`` times around the table, then ``finale`` on all five."""
    def lap(k: int) -> list[Segment]:
        return [(0.0, 0.0, k * step), (1.0, 1.0, step), (0.0, 0.0, (FERRIES - 1 - k) * step)]

    waves = tuple(wave(name, lap(k) * laps + list(finale)) for k in range(FERRIES))
    return Pattern(name, waves, lasting=False, ends_dark=True)


def round_end() -> Pattern:
    """End of a round: a light runs twice around the table, then all five flash twice."""
    return _chase("round end", 0.15, 2, [(1.0, 1.0, 0.3), (0.0, 0.0, 0.3)] * 2)


def game_end() -> Pattern:
    """End of the game: a fast triple chase, then all five breathe together three times."""
    return _chase("game end", 0.1, 3, PULSE * 3)


class Player:
    """Which pattern shows at any instant: the newest one, and after a transient, the last
    lasting one (it restarts when the transient ends, so a blink starts with its "on" phase).

    ``speed`` scales time (2.0 plays everything twice as fast). Times are the caller's clock:

    >>> player = Player()
    >>> player.play(noah(2), now=10.0)
    >>> player.play(illegal(2), now=11.0)
    >>> player.current(11.1).name, player.current(12.0).name
    ('illegal', 'noah')
    """

    def __init__(self, speed: float = 1.0) -> None:
        if not speed > 0:
            raise ValueError(f"speed must be positive, got {speed!r}")
        self.speed = speed
        self._pattern = self._lasting = DARK
        self._start = 0.0

    def play(self, pattern: Pattern, now: float) -> None:
        """Show ``pattern`` from ``now`` on, replacing whatever showed."""
        if pattern.lasting:
            self._lasting = pattern
        elif pattern.ends_dark:
            self._lasting = DARK
        self._pattern, self._start = pattern, now

    def current(self, now: float) -> Pattern:
        """The pattern showing at ``now`` (a finished transient gives way here)."""
        duration = self._pattern.duration
        if duration is not None and self._elapsed(now) >= duration:
            self._start += duration / self.speed
            self._pattern = self._lasting
        return self._pattern

    def frame(self, now: float) -> tuple[FerryLight, ...]:
        """Every light at ``now``."""
        return self.current(now).frame(self._elapsed(now))

    def next_change(self, now: float) -> float | None:
        """Real seconds until a light may change (0 while one fades); ``None``: not on its own."""
        wait = self.current(now).next_change(self._elapsed(now))
        return None if wait is None else wait / self.speed

    def _elapsed(self, now: float) -> float:
        return max(now - self._start, 0.0) * self.speed
