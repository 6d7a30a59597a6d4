"""The five ferry lights (and optional ferry buttons and buzzer) on gpiozero devices.

:class:`FerryLights` turns the referee's rule-free calls into :mod:`hardware.patterns` and
renders the newest one on a single background thread. Every call returns at once and shows its
first frame before returning, so the newest call always wins and nothing stale is drawn after it.

>>> with FerryLights(LightsConfig(pin_factory="mock")) as lights:
...     lights.show_destinations(noah=0, choices=[2, 3])
...     [(light.pattern, light.brightness) for light in lights.snapshot()][:3]
[('noah', 1.0), ('off', 0.0), ('destination', 1.0)]
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from types import FrameType
from typing import TypeVar, cast

from gpiozero import PWMLED, RGBLED, Button, Buzzer, Device
from gpiozero.exc import GPIOPinInUse, GPIOZeroError, PinPWMUnsupported
from gpiozero.pins import Factory

from hardware import patterns
from hardware.config import LightsConfig
from hardware.errors import HardwareError
from hardware.patterns import FERRIES, Colour, FerryLight, Pattern, Player
from hardware.pins import open_pin_factory

log = logging.getLogger(__name__)
WHITE: Colour = (1.0, 1.0, 1.0)
FRAME_SECONDS = 0.02  # 50 frames a second while a light fades; steps wait for their exact edge

Snapshot = tuple[FerryLight, ...]
DeviceT = TypeVar("DeviceT", bound=Device)


class FerryLights:
    """Five ferry lights, driven by patterns; optional ferry buttons and buzzer.

    Positions ``k`` are 0–4 (table-log positions). Callbacks, gpiozero style:

    * ``when_changed(snapshot)`` after every change of a light (virtual LEDs). It runs while the
      lights are locked, on whichever thread changed them: keep it short and hand the snapshot
      to your own thread (Kivy: ``Clock.schedule_once``).
    * ``when_ferry_pressed(k)`` when the button at ferry ``k`` is pressed (gpiozero's thread).

    After :meth:`close` (also on leaving a ``with`` block) further calls are ignored.
    """

    def __init__(
        self,
        config: LightsConfig = LightsConfig(),  # noqa: B008 (frozen, so sharing it is safe)
        *,
        pin_factory: Factory | None = None,
        speed: float = 1.0,
    ) -> None:
        self.config = config
        self.pin_factory = pin_factory or open_pin_factory(config.pin_factory)
        self._owns_factory = pin_factory is None and self.pin_factory is not Device.pin_factory
        self.when_changed: Callable[[Snapshot], object] | None = None
        self.when_ferry_pressed: Callable[[int], object] | None = None
        self._devices: list[Device] = []
        self._open_devices()
        self._colours: list[Colour] = [WHITE] * FERRIES
        self._player = Player(speed)
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._shown: Snapshot = ()
        self._closed = False
        self._render()
        self._thread = threading.Thread(target=self._render_loop, name="ferry-lights", daemon=True)
        self._thread.start()

    @classmethod
    def from_section(cls, section: Mapping[str, str], *, virtual: bool = False) -> FerryLights:
        """Lights as the ``[lights]`` config section describes them (validated); ``virtual``
        puts them on virtual pins whatever the section says (the app's ``--simulate``).

        >>> with FerryLights.from_section({"buttons": "yes"}, virtual=True) as lights:
        ...     lights.config.buttons, lights.config.pin_factory
        ((5, 6, 13, 19, 26), 'mock')
        """
        config = LightsConfig.from_section(section)
        return cls(replace(config, pin_factory="mock") if virtual else config)

    # --- What the referee asks for -------------------------------------------------------------

    def show_noah(self, k: int) -> None:
        """Noah stands at ferry ``k``: that light steady."""
        self._play(patterns.noah(k))

    def show_destinations(self, noah: int, choices: Sequence[int]) -> None:
        """Noah steady at ``noah``, every ferry he may move to blinking."""
        self._play(patterns.destinations(noah, choices))

    def flash_illegal(self, k: int) -> None:
        """A short red strobe at ferry ``k`` (and beeps, if a buzzer is wired); then back."""
        self._play(patterns.illegal(k), beep=True)

    def departure(self, k: int) -> None:
        """Ferry ``k`` leaves: blinks, glows and fades out; then back to what showed before."""
        self._play(patterns.departure(k))

    def round_end(self) -> None:
        """All five: a light runs round the table, then they flash; ends dark."""
        self._play(patterns.round_end())

    def game_end(self) -> None:
        """All five: a fast chase, then they breathe together; ends dark."""
        self._play(patterns.game_end())

    def prompt_scan(self, k: int) -> None:
        """Setup: "scan the card for ferry ``k``" — that light pulses slowly."""
        self._play(patterns.scan_prompt(k))

    def off(self) -> None:
        """All lights dark."""
        self._play(patterns.DARK)

    def set_colour(self, k: int, colour: Colour) -> None:
        """The colour of ferry ``k``'s RGB LED (red, green, blue 0–1); single-colour LEDs ignore
        it. The referee might shade a ferry from green to red as it fills."""
        if len(colour) != 3 or not all(0.0 <= c <= 1.0 for c in colour):
            raise ValueError(f"colour must be three values 0–1, got {colour!r}")
        with self._lock:
            self._colours[patterns.check_ferry(k)] = tuple(colour)  # type: ignore[assignment]
            self._render()

    # --- What the lights show ------------------------------------------------------------------

    @property
    def speed(self) -> float:
        """How many times faster than normal the patterns play (1.0 normally)."""
        return self._player.speed

    @property
    def pattern(self) -> str:
        """The name of the pattern showing now, e.g. ``"destinations"``."""
        with self._lock:
            return self._player.current(time.monotonic()).name

    def snapshot(self) -> Snapshot:
        """Every light as last drawn: brightness 0–1, colour (RGB LEDs), role."""
        with self._lock:
            return self._shown

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current transient (flash, departure, round or game end) has played;
        ``False`` if ``timeout`` ran out first. Returns at once for a lasting pattern."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while not self._closed and not self._player.current(time.monotonic()).lasting:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._wake.wait(remaining)
            if not self._closed:
                # The clock may end a transient before the drawing thread has drawn what comes
                # after it: draw it now, so the caller sees the lights as they will stay.
                self._render()
        return True

    # --- Life cycle ----------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Turn every light off, stop the thread and release the pins. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._play(patterns.DARK)
            self._closed = True
            self._wake.notify_all()
        self._thread.join(timeout=1.0)
        self._release()

    def __enter__(self) -> FerryLights:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else self.pattern
        return f"<FerryLights {state}>"

    # --- Inside --------------------------------------------------------------------------------

    def _open_devices(self) -> None:
        """Build the gpiozero devices; on failure release those already built."""
        config, factory = self.config, self.pin_factory
        try:
            self._leds = tuple(
                self._own(RGBLED(*cast("tuple[int, int, int]", pins),
                                 active_high=config.active_high, pin_factory=factory)
                          if config.rgb else
                          PWMLED(pins, active_high=config.active_high, pin_factory=factory))
                for pins in config.leds
            )
            self._buttons = tuple(
                self._own(Button(pin, bounce_time=0.05, pin_factory=factory))
                for pin in config.buttons or ()
            )
            for k, button in enumerate(self._buttons):
                button.when_pressed = partial(self._ferry_pressed, k)
            self._buzzer = None if config.buzzer is None else self._own(
                Buzzer(config.buzzer, pin_factory=factory))
        except GPIOZeroError as error:
            self._release()
            raise _explain_device_failure(error) from error

    def _release(self) -> None:
        """Close every device, and the pin factory if it was made for these lights alone.

        The devices close side by side: a gpiozero button's close waits up to 0.1 s for its
        hold-watching thread, and five one after another made every close half a second."""
        if self._devices:
            with ThreadPoolExecutor(len(self._devices)) as closing:
                for closed in [closing.submit(device.close) for device in self._devices]:
                    closed.result()  # a device that failed to close says so here
        if self._owns_factory:
            self.pin_factory.close()

    def _own(self, device: DeviceT) -> DeviceT:
        """Remember ``device`` so that :meth:`close` releases it."""
        self._devices.append(device)
        return device

    def _ferry_pressed(self, k: int) -> None:
        callback = self.when_ferry_pressed
        if callback is not None and not self._closed:
            callback(k)

    def _play(self, pattern: Pattern, *, beep: bool = False) -> None:
        with self._lock:  # also serialises the buzzer: gpiozero's beep() is not thread-safe
            if self._closed:
                return
            self._player.play(pattern, time.monotonic())
            self._render()
            self._wake.notify_all()
            if self._buzzer is not None:
                self._beep() if beep else self._buzzer.off()  # a newer call silences a beep

    def _beep(self) -> None:
        """Beep in step with the illegal-play strobe."""
        seconds = patterns.STROBE_SECONDS / self._player.speed
        assert self._buzzer is not None, "only called with a buzzer"
        self._buzzer.beep(seconds, seconds, n=patterns.STROBE_FLASHES, background=True)

    def _render(self) -> float | None:
        """Draw the current frame if it changed; seconds until the next may differ."""
        now = time.monotonic()
        frame = tuple(self._coloured(light) for light in self._player.frame(now))
        if frame != self._shown:
            before = self._shown or (None,) * FERRIES
            for device, light, old in zip(self._leds, frame, before, strict=True):
                if light != old:  # only the lights that changed: fewer pin writes
                    device.value = self._device_value(light)
            self._shown = frame
            self._tell(frame)
        wait = self._player.next_change(now)
        return FRAME_SECONDS if wait == 0 else wait

    def _tell(self, frame: Snapshot) -> None:
        """Call ``when_changed``; its failure is logged, never allowed to stop the lights."""
        if self.when_changed is None:
            return
        try:
            self.when_changed(frame)
        except Exception:
            log.exception("The lights' when_changed callback failed; the lights go on.")

    def _coloured(self, light: FerryLight) -> FerryLight:
        if not self.config.rgb:
            return light._replace(colour=None)
        return light._replace(colour=light.colour or self._colours[light.ferry])

    @staticmethod
    def _device_value(light: FerryLight) -> float | Colour:
        if light.colour is None:
            return light.brightness
        return tuple(c * light.brightness for c in light.colour)  # type: ignore[return-value]

    def _render_loop(self) -> None:
        with self._lock:
            while not self._closed:
                wait = self._render()
                self._wake.notify_all()  # wakes callers of wait() to see a transient end
                self._wake.wait(wait)


def _explain_device_failure(error: GPIOZeroError) -> HardwareError:
    if isinstance(error, GPIOPinInUse):
        return HardwareError(
            f"A ferry-light pin is already in use ({error}).",
            "Another program (or a second copy of the companion) holds it: stop it "
            "(sudo systemctl stop noah-companion), or choose other pins in [lights].",
        )
    if isinstance(error, PinPWMUnsupported):
        return HardwareError(
            "These pins cannot dim the LEDs (no PWM).",
            "Set pin_factory = lgpio on a Raspberry Pi, or pin_factory = mock for virtual lights "
            "(GPIOZERO_PIN_FACTORY=mock alone gives pins without PWM).",
        )
    return HardwareError(
        f"The ferry lights could not be set up ({error}).",
        "Check the pins in [lights] against docs/wiring.md.",
    )


def release_on_exit(lights: FerryLights) -> Callable[[], None]:
    """Make sure the lights go dark and the pins are released however the program ends.

    Covers a normal exit and Ctrl-C (``atexit``) and ``systemctl stop`` (SIGTERM: the lights
    close, then the previous handler runs, or the program exits with status 143). Call it from
    the main thread; elsewhere only the ``atexit`` part applies. Returns a function that undoes
    both, for a program that goes on after closing the lights itself.
    """
    atexit.register(lights.close)
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        lights.close()
        if callable(previous):
            previous(signum, frame)
        else:
            raise SystemExit(128 + signum)

    def forget() -> None:
        atexit.unregister(lights.close)
        if signal.getsignal(signal.SIGTERM) is on_sigterm:
            signal.signal(signal.SIGTERM, previous)

    with contextlib.suppress(ValueError):  # signal handlers can only be set on the main thread
        signal.signal(signal.SIGTERM, on_sigterm)
    return forget
