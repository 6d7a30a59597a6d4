"""FerryLights on gpiozero's MockFactory: pin histories, replacement, buttons, buzzer, RGB,
release on exit, and the ``lights test`` command."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.cli import main
from companion.commands import lights as lights_command
from hardware import FerryLights, HardwareError, LightsConfig, patterns
from hardware.config import DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS

ROOT = Path(__file__).resolve().parents[2]
RGB_PINS = ((4, 17, 27), (22, 5, 6), (13, 19, 26), (12, 16, 20), (21, 23, 24))
FAST = 10.0  # patterns ten times faster: a blink is 35 ms


@pytest.fixture
def factory():
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.close()


def make_lights(factory, speed: float = FAST, **config) -> FerryLights:
    return FerryLights(LightsConfig(**config), pin_factory=factory, speed=speed)


@pytest.fixture
def lights(factory):
    with make_lights(factory, buzzer=25) as lights:
        yield lights


@pytest.fixture
def lights_with_buttons(factory):
    with make_lights(factory, buttons=DEFAULT_BUTTON_PINS) as lights:
        yield lights


def led(factory, ferry: int) -> MockPWMPin:
    return factory.pin(DEFAULT_LED_PINS[ferry])


def values(pin: MockPWMPin, since: int = 0) -> list[float]:
    return [float(state.state) for state in pin.states[since:]]


class FrameClock:
    """The lights' clock for the tests that count flashes exactly: real time, except that only
    the lights' drawing thread moves it, by at most ``step`` from one frame it draws to the
    next. A thread that runs late (a loaded machine) then slows the pattern down instead of
    skipping a phase of it: every flash is drawn, and counting them does not depend on the
    machine's speed (issue 20.2). ``step`` must be shorter than the shortest phase."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = self.real = time.monotonic()

    def monotonic(self) -> float:
        if threading.current_thread().name == "ferry-lights":
            real = time.monotonic()
            self.now += min(real - self.real, self.step)
            self.real = real
        return self.now


STROBE_SPEED = 8.0  # the illegal strobe's 80 ms phases last 10 ms (it was 2: 40 ms)


@pytest.fixture
def frame_clock(monkeypatch):
    """Strobes at :data:`STROBE_SPEED` drawn on a :class:`FrameClock` of half-phase steps."""
    import hardware.lights

    clock = FrameClock(step=patterns.STROBE_SECONDS / STROBE_SPEED / 2)
    monkeypatch.setattr(hardware.lights, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    return clock


HANG = 120.0  # seconds: only bounds a hang, never measures the machine's speed


def wait_until(condition, timeout: float = HANG) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the lights never got there"
        time.sleep(0.005)


def test_a_call_shows_on_the_pins_before_it_returns(lights, factory):
    lights.show_noah(3)
    assert [led(factory, k).state for k in range(5)] == [0, 0, 0, 1, 0]
    assert lights.pattern == "noah"
    assert lights.snapshot()[3] == (3, 1.0, None, "noah")


def test_destinations_blink_on_their_pins_and_noah_stays_steady(lights, factory):
    lights.show_destinations(0, [2, 4])
    wait_until(lambda: len(led(factory, 4).states) >= 6)
    blink = values(led(factory, 4))
    assert blink[1:6] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert values(led(factory, 0)) == [0.0, 1.0]  # Noah: switched on once
    assert values(led(factory, 1)) == [0.0]  # untouched
    # How long each phase lasts is the pattern's (test_hardware_patterns, on a virtual clock):
    # a wall-clock bound here measured the machine's load, not the lights.


def test_a_newer_call_replaces_a_pattern_with_no_stale_frame(lights, factory):
    lights.show_destinations(0, [2])
    wait_until(lambda: len(led(factory, 2).states) >= 3)
    lights.prompt_scan(1)
    marks = [len(led(factory, k).states) for k in range(5)]
    assert led(factory, 2).state == 0 and led(factory, 0).state == 0
    time.sleep(0.2)  # several blink periods at this speed, for a stale blink to come back...
    # ...and the pulse fading in and out, waited for: a loaded machine runs the thread late.
    wait_until(lambda: len(led(factory, 1).states) > marks[1] + 5)
    assert len(led(factory, 2).states) == marks[2]  # the old blink never came back
    assert len(led(factory, 0).states) == marks[0]


def test_illegal_flash_strobes_beeps_and_returns_to_the_destinations(factory, frame_clock):
    with make_lights(factory, speed=STROBE_SPEED, buzzer=25) as lights:
        lights.show_destinations(1, [3])
        mark = len(led(factory, 1).states)
        lights.flash_illegal(1)
        assert lights.pattern == "illegal" and lights.snapshot()[3].brightness == 0
        assert lights.wait(timeout=HANG)
        assert lights.pattern == "destinations"
        assert values(led(factory, 1), mark) == [0.0, 1.0] * 5  # dark, 4 flashes, Noah again
        buzzer = factory.pin(25)
        wait_until(lambda: [state.state for state in buzzer.states].count(True) == 4)
        wait_until(lambda: not buzzer.state)


def test_a_newer_call_silences_the_beep(lights, factory):
    lights.flash_illegal(0)
    lights.show_noah(0)
    time.sleep(0.05)
    assert not factory.pin(25).state


def test_departure_plays_then_the_last_lasting_display_returns(lights, factory):
    lights.show_noah(4)
    lights.departure(2)
    assert lights.snapshot()[4].brightness == 0  # the departure has the table's eyes
    lights.wait(timeout=HANG)
    assert [light.pattern for light in lights.snapshot()] == ["off"] * 4 + ["noah"]
    assert values(led(factory, 2))[-1] == 0.0


END_SPEED = 40.0  # the chases' 0.1 s steps last 2.5 ms


@pytest.mark.parametrize("sequence", ["round_end", "game_end"])
def test_end_sequences_light_every_ferry_then_go_dark(factory, sequence, monkeypatch):
    """Played fast on a :class:`FrameClock` whose steps are half the chase's shortest phase,
    with a fade's frames as short: a late thread slows the sequence down but never skips a
    ferry's turn, so every ferry is seen lit on any machine (it was speed 4, 1.9 s, on the
    real clock)."""
    import hardware.lights

    step = 0.1 / END_SPEED / 2  # game_end's chase: 0.1 s a ferry
    clock = FrameClock(step=step)
    monkeypatch.setattr(hardware.lights, "time", types.SimpleNamespace(monotonic=clock.monotonic))
    monkeypatch.setattr(hardware.lights, "FRAME_SECONDS", step)
    with make_lights(factory, speed=END_SPEED) as lights:
        lights.show_noah(1)
        mark = len(led(factory, 0).states)
        getattr(lights, sequence)()
        assert lights.wait(timeout=HANG)
        assert lights.pattern == "off"
        assert max(values(led(factory, 0), mark)) > 0.5  # ferry 1, dark before, lit
        for k in range(5):
            assert max(values(led(factory, k))) > 0.5 and led(factory, k).state == 0


def test_a_failing_change_callback_never_stops_the_lights(lights, factory, caplog):
    def broken(snapshot):
        raise RuntimeError("virtual LED widget gone")

    lights.when_changed = broken
    lights.show_destinations(0, [1])
    wait_until(lambda: len(led(factory, 1).states) >= 4)  # still blinking
    assert "when_changed callback failed" in caplog.text


def test_change_callback_sees_every_change(lights):
    seen = []
    lights.when_changed = seen.append
    lights.show_noah(0)
    lights.show_noah(0)  # nothing changes: no call
    lights.off()
    assert [[light.brightness for light in snapshot] for snapshot in seen] == [
        [1, 0, 0, 0, 0], [0, 0, 0, 0, 0]]


def test_calls_from_many_threads_end_in_the_newest_state(lights):
    def hammer(k: int) -> None:
        for _ in range(50):
            lights.show_destinations(k, [(k + 1) % 5])
            lights.flash_illegal(k)
            lights.prompt_scan(k)

    threads = [threading.Thread(target=hammer, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lights.show_noah(4)
    time.sleep(0.1)
    assert [light.brightness for light in lights.snapshot()] == [0, 0, 0, 0, 1]


def test_ferry_buttons_report_their_position(lights_with_buttons, factory):
    lights = lights_with_buttons
    pressed = []
    lights.when_ferry_pressed = pressed.append
    factory.pin(DEFAULT_BUTTON_PINS[2]).drive_low()  # to ground: pressed (pull-up)
    factory.pin(DEFAULT_BUTTON_PINS[2]).drive_high()
    factory.pin(DEFAULT_BUTTON_PINS[0]).drive_low()
    assert pressed == [2, 0]
    factory.pin(DEFAULT_BUTTON_PINS[0]).drive_high()  # a held button delays close by 1 s


def test_rgb_leds_show_the_ferry_colour_and_a_red_illegal_flash(factory, frame_clock):
    with make_lights(factory, speed=STROBE_SPEED, rgb=True, leds=RGB_PINS) as lights:
        lights.set_colour(1, (0.0, 1.0, 0.0))
        lights.show_noah(1)
        assert [factory.pin(pin).state for pin in RGB_PINS[1]] == [0, 1, 0]
        assert lights.snapshot()[1].colour == (0.0, 1.0, 0.0)
        marks = [len(factory.pin(pin).states) for pin in RGB_PINS[1]]
        lights.flash_illegal(1)
        assert lights.snapshot()[1].colour == (1.0, 0.0, 0.0)
        assert lights.wait(timeout=HANG)
        red, green, blue = (values(factory.pin(pin), mark)
                            for pin, mark in zip(RGB_PINS[1], marks, strict=True))
        assert red == [1.0, 0.0] * 4 and green == [0.0, 1.0] and blue == []
        with pytest.raises(ValueError, match="three values"):
            lights.set_colour(0, (2.0, 0.0, 0.0))


def test_active_low_leds_are_driven_inverted(factory):
    with make_lights(factory, active_high=False) as lights:
        lights.show_noah(0)
        assert [led(factory, k).state for k in range(2)] == [0, 1]


def test_close_goes_dark_releases_pins_and_ignores_later_calls(factory):
    lights = make_lights(factory, buttons=DEFAULT_BUTTON_PINS)
    seen = []
    lights.when_changed = seen.append
    lights.when_ferry_pressed = seen.append
    lights.prompt_scan(2)
    lights.close()
    lights.close()
    assert lights.closed and [light.brightness for light in seen[-1]] == [0] * 5
    lights.show_noah(1)
    assert led(factory, 1).state == 0 and repr(lights) == "<FerryLights closed>"
    with make_lights(factory, buttons=DEFAULT_BUTTON_PINS):  # every pin was given back
        pass


def test_sigterm_turns_the_lights_off_and_exits(tmp_path):
    script = tmp_path / "serve.py"
    script.write_text(
        "import sys, time\n"
        "from hardware import FerryLights, LightsConfig, release_on_exit\n"
        "lights = FerryLights(LightsConfig(pin_factory='mock'))\n"
        "release_on_exit(lights)\n"
        "lights.show_noah(2)\n"
        "try:  # inside the try: the SIGTERM may come at once\n"
        "    print('ready', [l.brightness for l in lights.snapshot()], flush=True)\n"
        "    time.sleep(30)\n"
        "finally:  # runs after the SIGTERM handler closed the lights\n"
        "    print('closed', [l.brightness for l in lights.snapshot()], flush=True)\n"
    )
    process = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # SIGTERM once the call has returned, as systemd stops an idle app. (A SIGTERM landing inside
    # a lights call once hung this test under heavy load; see the closing note of issue 5. A
    # change callback printing from the lights' thread could also deadlock with the handler on
    # stdout's lock: the script prints from its main thread only.)
    assert process.stdout.readline().strip() == "ready [0.0, 0.0, 1.0, 0.0, 0.0]"
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=HANG)
    assert process.returncode == 128 + signal.SIGTERM, err
    assert out.strip().splitlines()[-1] == "closed [0.0, 0.0, 0.0, 0.0, 0.0]"


def test_lights_test_command_runs_on_virtual_pins(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "absent.ini"))  # all defaults
    handler = signal.getsignal(signal.SIGTERM)
    from companion.ui.driver import slowness

    # The blink is drawn from samples of the lights, taken by their own thread on the real
    # clock: a slower machine plays it slower, and a loaded one may not wake that thread within
    # a 9 ms blink (the bar then shows the light on throughout). So the walk is played again
    # ten times slower when no blink was drawn; a blink that never comes fails at both speeds.
    for speed in (max(1.0, 40 / slowness()), max(1.0, 4 / slowness())):
        assert main(["lights", "test", "--mock", "--speed", f"{speed:g}"]) == 0
        out = capsys.readouterr().out
        assert "virtual pins" in out and "GPIO 17, 27, 22, 23, 24" in out
        assert "13/13  All off." in out and "Done: all lights are off." in out
        blink_step = out.split("After a play")[1].split("Illegal play")[0]
        assert "ferry 3  destination" in blink_step and "ferry 1  noah " in blink_step
        if "█ " in blink_step:
            break
    assert "█ " in blink_step, blink_step  # ferry 3 blinked: lit, then dark
    assert signal.getsignal(signal.SIGTERM) is handler  # the command put it back


def test_lights_test_command_reads_the_config_file(tmp_path, capsys):
    config = tmp_path / "companion.ini"
    config.write_text("[lights]\nrgb = yes   # one RGB LED per ferry\npins = " + ", ".join(
        "/".join(map(str, triple)) for triple in RGB_PINS) + "\nbuzzer = 25\n")
    # only the steps' titles are checked, not the drawings of the lights: as fast as it goes
    assert main(["lights", "test", "--mock", "--speed", "1000", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "RGB LEDs" in out and "Ferry 5 alone, blue." in out and "buzzer beeps" in out


def test_lights_test_command_explains_bad_settings(tmp_path, capsys):
    config = tmp_path / "companion.ini"
    config.write_text("[lights]\npins = 17, 27, 22, 23, 17\n")
    assert main(["lights", "test", "--mock", "--config", str(config)]) == 2
    assert "GPIO 17 is used twice" in capsys.readouterr().err
    assert main(["lights", "test", "--config", str(tmp_path / "missing.ini")]) == 2
    assert "Cannot read the config file" in capsys.readouterr().err


def test_button_echo_lights_the_pressed_ferry(lights_with_buttons, factory):
    lights = lights_with_buttons
    out = io.StringIO()

    def press_all() -> None:
        time.sleep(0.05)
        for pin in DEFAULT_BUTTON_PINS:
            factory.pin(pin).drive_low()
            factory.pin(pin).drive_high()

    presser = threading.Thread(target=press_all)
    presser.start()
    lights_command.echo_buttons(lights, out, seconds=HANG, virtual=False)  # ends at the 5th
    presser.join()
    text = out.getvalue()
    assert "Ferry 3 button pressed" in text and "All five ferry buttons work." in text


def test_button_echo_names_the_buttons_never_pressed(lights_with_buttons):
    lights = lights_with_buttons
    out = io.StringIO()
    lights_command.echo_buttons(lights, out, seconds=0.01, virtual=False)
    assert "No press seen from ferry 1, 2, 3, 4, 5" in out.getvalue()


def test_benchmark_reports_every_figure():
    from hardware.bench import measure

    figures = measure(seconds=0.02, calls=20)  # four watches of 20 ms (was 0.2 s: 0.8 s idle)
    # How many blink phases fit in the watch is the machine's load (a busy machine runs the
    # lights' thread late): the figures' shape is checked here, their values are the benchmark's.
    assert isinstance(figures["blink_error_ms"]["phases"], int)
    assert all(value >= 0 for value in figures["blink_error_ms"].values())
    assert set(figures) == {"call_latency_ms", "blink_error_ms", "cpu_percent_steady",
                            "cpu_percent_blinking", "cpu_percent_fading"}


def test_lights_test_command_says_how_to_try_without_hardware(tmp_path, capsys, monkeypatch):
    def no_gpio(name):
        raise HardwareError("This user may not open /dev/gpiochip0.", "Join the gpio group.")

    monkeypatch.setattr("hardware.lights.open_pin_factory", no_gpio)
    config = tmp_path / "companion.ini"
    config.write_text("[lights]\npin_factory = lgpio\n")
    assert main(["lights", "test", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "may not open /dev/gpiochip0" in err and "lights test --mock" in err
