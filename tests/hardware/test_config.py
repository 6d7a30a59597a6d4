"""The [lights] settings and the pin factory: every bad setting gets a message naming its key."""

from __future__ import annotations

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware import DEFAULTS, FerryLights, HardwareError, LightsConfig
from hardware.config import DEFAULT_BUTTON_PINS, DEFAULT_BUZZER_PIN, DEFAULT_LED_PINS
from hardware.pins import GpioHost, explain_factory_failure, open_pin_factory

PI = "Raspberry Pi 5 Model B Rev 1.0"


def test_defaults_are_five_leds_and_nothing_else():
    config = LightsConfig.from_section({})
    assert config == LightsConfig()
    assert config.leds == DEFAULT_LED_PINS and not config.rgb and config.active_high
    assert config.buttons is None and config.buzzer is None and config.pin_factory == "auto"
    assert LightsConfig.from_section(DEFAULTS) == config


def test_defaults_keep_i2c_uart_spi_and_the_id_eeprom_free():
    """GPIO 2/3 (I²C, the touchscreen), 14/15 (UART), 7–11 (SPI0) and 0/1 (HAT EEPROM)."""
    everything = LightsConfig.from_section({"buttons": "yes", "buzzer": "yes"})
    used = {pin for pin, _ in everything.pin_uses()}
    assert len(used) == 11
    assert used.isdisjoint({0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15})


def test_full_settings_are_read():
    config = LightsConfig.from_section({
        "pins": "GPIO4, gpio17 27 22 23", "active_high": "no", "buttons": "5,6,13,19,26",
        "buzzer": "12", "pin_factory": "Mock",
    })
    assert config.leds == (4, 17, 27, 22, 23)
    assert config.buttons == (5, 6, 13, 19, 26) and config.buzzer == 12
    assert not config.active_high and config.pin_factory == "mock"


def test_yes_means_the_documented_pins():
    config = LightsConfig.from_section({"buttons": "yes", "buzzer": "on"})
    assert config.buttons == DEFAULT_BUTTON_PINS and config.buzzer == DEFAULT_BUZZER_PIN
    assert LightsConfig.from_section({"buttons": "0", "buzzer": ""}).buttons is None


def test_rgb_takes_a_triple_per_ferry():
    config = LightsConfig.from_section(
        {"rgb": "yes", "pins": "4/17/27, 22/5/6, 13/19/26, 12/16/20, 21/23/24"})
    assert config.rgb and config.leds[1] == (22, 5, 6)
    assert "pins (ferry 2, blue)" in dict(config.pin_uses()).values()


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ({"pins": "17, 27, 22, 23"}, ["pins lists 4 pins", "5 ferries"]),
        ({"pins": "17, 27, 22, 23, 40"}, ["pins", "'40' is not a GPIO pin", "0 to 27"]),
        ({"buttons": "5, 6, 13, 19, pin26"}, ["buttons", "'pin26'"]),
        ({"buzzer": "GPIO99"}, ["buzzer", "'GPIO99'"]),
        ({"pins": "17, 27, 22, 23, 17"}, ["GPIO 17 is used twice", "ferry 1", "ferry 5"]),
        ({"buttons": "5, 6, 13, 19, 24"},
         ["GPIO 24 is used twice", "pins (ferry 5)", "buttons (ferry 5)"]),
        ({"buttons": "yes", "buzzer": "26"}, ["GPIO 26", "buttons (ferry 5)", "buzzer"]),
        ({"active_high": "maybe"}, ["active_high", "yes or no"]),
        ({"rgb": "yes"}, ["rgb = yes", "red/green/blue triple"]),
        ({"pins": "4/17/27, 22/5/6, 13/19/26, 12/16/20, 21/23/24"}, ["rgb = no", "rgb = yes"]),
        ({"pin": "17"}, ["Unknown setting 'pin'", "Did you mean 'pins'"]),
        ({"pin_factory": "wiringpi"}, ["pin_factory", "'wiringpi'", "lgpio", "mock"]),
    ],
)
def test_bad_settings_name_the_key_and_the_fix(section, words):
    with pytest.raises(HardwareError) as caught:
        LightsConfig.from_section(section)
    message = str(caught.value)
    assert message.startswith("[lights] ")
    assert caught.value.fix  # always says what to do
    for word in words:
        assert word in message


def test_mock_factory_has_pins_that_dim():
    factory = open_pin_factory("mock")
    assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin


def test_auto_off_the_pi_says_to_use_virtual_pins(monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(GpioHost, "probe", classmethod(lambda cls: GpioHost(None, (), ())))
    monkeypatch.setattr(Device, "pin_factory", None)
    with pytest.raises(HardwareError, match="not a Raspberry Pi") as caught:
        open_pin_factory("auto")
    assert "pin_factory = mock" in caught.value.fix


@pytest.mark.parametrize(
    ("host", "error", "what", "fix"),
    [
        (GpioHost(PI, ("/dev/gpiochip0",), ("/dev/gpiochip0",)), OSError("can not open"),
         "may not open /dev/gpiochip0", "usermod -aG gpio"),
        (GpioHost(PI, ("/dev/gpiochip0",), ()), ImportError("No module named 'lgpio'"),
         "cannot load its pin library", "apt install python3-lgpio"),
        (GpioHost(PI, ("/dev/gpiochip0",), ()), RuntimeError("odd failure"),
         "odd failure", "pin_factory"),
        (GpioHost(None, (), ()), RuntimeError("Unable to load any default pin factory!"),
         "not a Raspberry Pi", "--simulate"),
    ],
)
def test_factory_failures_are_explained(host, error, what, fix):
    explained = explain_factory_failure(error, host)
    assert what in explained.what and fix in explained.fix


def test_a_pin_held_by_someone_else_is_explained():
    factory = MockFactory(pin_class=MockPWMPin)
    with FerryLights(pin_factory=factory), pytest.raises(HardwareError, match="already in use"):
        FerryLights(pin_factory=factory)
    factory.close()


def test_pins_without_pwm_are_explained():
    factory = MockFactory()  # what GPIOZERO_PIN_FACTORY=mock gives: no PWM
    with pytest.raises(HardwareError, match="cannot dim") as caught:
        FerryLights(pin_factory=factory)
    assert "pin_factory = mock" in caught.value.fix
    factory.close()


def test_a_failed_start_releases_the_pins_it_took():
    factory = MockFactory(pin_class=MockPWMPin)
    other = Button(26, pin_factory=factory)  # ferry 5's default button pin, taken
    with pytest.raises(HardwareError, match="already in use"):
        FerryLights(LightsConfig(buttons=DEFAULT_BUTTON_PINS), pin_factory=factory)
    other.close()
    with FerryLights(LightsConfig(buttons=DEFAULT_BUTTON_PINS), pin_factory=factory):
        pass  # the LEDs and buttons of the failed attempt were given back
    factory.close()
