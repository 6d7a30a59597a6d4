"""When does a light blink? Everything the referee shows on the ferry lights is decided here.

The lights themselves (:class:`hardware.lights.FerryLights`) know no rules: they play patterns
they are told to. The session tells them three things, through a :class:`TableLights`:

* **the step** — after every change the published prompt picks one steady pattern
  (:func:`pattern_for`): Noah's ferry lit while a card is awaited; Noah's ferry and the
  destinations the rules allow when he must move; the ferry whose starting animal is awaited at
  setup; the round-end and game-end patterns; all off while Noah's starting ferry or the first
  player is chosen. A pattern is only (re)started when it changes, so a notice does not restart
  a running pattern.
* **a departure** — an accepted action whose verdict reports a ferry leaving
  (:func:`departed_ferry`) plays ``departure(k)`` once over the step's pattern, which then
  takes over again.
* **a refusal** — a card play the rules refuse, or a ferry button pressed when no ferry is
  asked for, blinks that ferry red (``flash_illegal(k)``).

>>> from companion.session.prompts import MoveNoah
>>> pattern_for(MoveNoah(player=0, text="", choices=(1, 4)), noah=2)
ShowDestinations(noah=2, choices=(1, 4))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from companion.game.verdict import Event
from companion.session.prompts import (
    ChooseNoahStart,
    ChooseStarter,
    EnterTears,
    GameOver,
    MoveNoah,
    Prompt,
    ScanHand,
    ScanSetupCard,
)


class TableLights(Protocol):
    """What the session calls on the ferry lights (:class:`hardware.lights.FerryLights` is
    one; tests may pass anything with these methods). Ferries are positions 0-4."""

    def show_noah(self, k: int) -> None: ...

    def show_destinations(self, noah: int, choices: Sequence[int]) -> None: ...

    def prompt_scan(self, k: int) -> None: ...

    def round_end(self) -> None: ...

    def game_end(self) -> None: ...

    def off(self) -> None: ...

    def departure(self, k: int) -> None: ...

    def flash_illegal(self, k: int) -> None: ...

    def snapshot(self) -> object: ...


@runtime_checkable
class FerryButtons(Protocol):
    """Lights with a button at each ferry: ``when_ferry_pressed(k)`` is called on a press."""

    when_ferry_pressed: Callable[[int], object] | None


# -- the steady pattern of each step ------------------------------------------------------------


@dataclass(frozen=True)
class ShowNoah:
    """A card is awaited: Noah's ferry is lit."""

    noah: int

    def play(self, lights: TableLights) -> None:
        lights.show_noah(self.noah)


@dataclass(frozen=True)
class ShowDestinations:
    """Noah must move: his ferry and the legal destinations."""

    noah: int
    choices: tuple[int, ...]

    def play(self, lights: TableLights) -> None:
        lights.show_destinations(self.noah, self.choices)


@dataclass(frozen=True)
class PromptScan:
    """Round setup: the ferry whose starting animal is awaited."""

    ferry: int

    def play(self, lights: TableLights) -> None:
        lights.prompt_scan(self.ferry)


@dataclass(frozen=True)
class RoundEnd:
    """The round is over: hands are scanned or tears typed."""

    def play(self, lights: TableLights) -> None:
        lights.round_end()


@dataclass(frozen=True)
class GameEnd:
    """The game is over."""

    def play(self, lights: TableLights) -> None:
        lights.game_end()


@dataclass(frozen=True)
class Off:
    """Nothing on the ferries to point at (Noah's start or the first player is chosen)."""

    def play(self, lights: TableLights) -> None:
        lights.off()


Pattern = ShowNoah | ShowDestinations | PromptScan | RoundEnd | GameEnd | Off


def pattern_for(prompt: Prompt, noah: int | None) -> Pattern:
    """The steady pattern for the step a prompt asks for (``noah``: his ferry, if placed).

    >>> pattern_for(ChooseNoahStart(player=None, text=""), noah=None)
    Off()
    """
    if isinstance(prompt, MoveNoah) and noah is not None:
        return ShowDestinations(noah, prompt.choices)
    if isinstance(prompt, ScanSetupCard):
        return PromptScan(prompt.ferry)
    if isinstance(prompt, GameOver):
        return GameEnd()
    if isinstance(prompt, ScanHand | EnterTears):
        return RoundEnd()
    if isinstance(prompt, ChooseNoahStart | ChooseStarter) or noah is None:
        return Off()
    return ShowNoah(noah)


def departed_ferry(events: Iterable[Event]) -> int | None:
    """The position whose ferry left in an accepted action, if one did (its verdict's
    ``departure`` event).

    >>> departed_ferry([Event("departure", {"position": 3, "ferry": 4})])
    3
    """
    return next((int(event.params["position"]) for event in events
                 if event.kind == "departure"), None)


class LightsDriver:
    """The session's side of the ferry lights: remembers the pattern shown and a departure to
    play, so :meth:`show` only talks to the lights when something changed."""

    def __init__(self, lights: TableLights) -> None:
        self.lights = lights
        self._shown: Pattern | None = None
        self._departing: int | None = None

    def ferry_departed(self, ferry: int | None) -> None:
        """Remember a departure (None: none) to play at the next :meth:`show`."""
        self._departing = ferry

    def show(self, prompt: Prompt, noah: int | None) -> None:
        """The step's pattern if it changed, then the departure over it, if any."""
        pattern = pattern_for(prompt, noah)
        if pattern != self._shown:
            self._shown = pattern
            pattern.play(self.lights)
        if self._departing is not None:
            self.lights.departure(self._departing)
            self._departing = None

    def refused(self, ferry: int) -> None:
        """A play refused by the rules, or a ferry button pressed out of turn: blink red."""
        self.lights.flash_illegal(ferry)

    def on_button(self, pressed: Callable[[int], object]) -> None:
        """Route the ferry buttons to ``pressed(k)``, when these lights have buttons."""
        if isinstance(self.lights, FerryButtons):
            self.lights.when_ferry_pressed = pressed
