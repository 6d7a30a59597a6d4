"""What the installer lets the app do to the machine for the settings page (issue 15 item 4):
power off through logind (a polkit rule for the service's user only) and write the screen's
backlight (a udev rule for the video group, and the one sysfs folder the unit leaves writable)."""

from __future__ import annotations

import re
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
INSTALL = (DEPLOY / "install.sh").read_text()
POLKIT = (DEPLOY / "files" / "50-noah-companion.rules").read_text()
UDEV = (DEPLOY / "files" / "90-noah-companion-backlight.rules").read_text()
UNIT = (DEPLOY / "systemd" / "noah-companion.service").read_text()


def install_variable(name: str) -> str:
    match = re.search(rf"^{name}=(\([^)]*\)|\S+)", INSTALL, re.MULTILINE)
    assert match, name
    return re.sub(r"#.*", "", match.group(1)).strip("()")


def test_the_polkit_rule_lets_only_the_service_user_power_off():
    assert re.findall(r'subject\.user == "([^"]+)"', POLKIT) == [install_variable("APP_USER")]
    actions = set(re.findall(r'action\.id == "([^"]+)"', POLKIT))
    assert actions == {"org.freedesktop.login1.power-off",
                       "org.freedesktop.login1.power-off-multiple-sessions"}
    code = re.sub(r"//.*", "", POLKIT)
    assert "reboot" not in code and "suspend" not in code


def test_the_udev_rule_lets_the_video_group_write_the_brightness_only():
    rule = [line for line in UDEV.splitlines() if line and not line.startswith("#")]
    assert len(rule) == 1 and 'SUBSYSTEM=="backlight"' in rule[0]
    assert "video" in install_variable("DEVICE_GROUPS").split()
    assert re.findall(r"RUN\+=\"([^\"]+)\"", rule[0]) == [
        "/bin/chgrp video /sys%p/brightness", "/bin/chmod g+w /sys%p/brightness"]


def test_the_installer_installs_both_rules_and_polkit():
    for variable, target in (("POLKIT_RULE", "/etc/polkit-1/rules.d/50-noah-companion.rules"),
                             ("UDEV_RULE",
                              "/etc/udev/rules.d/90-noah-companion-backlight.rules")):
        assert install_variable(variable) == target
        assert f'"${variable}"' in INSTALL
    assert "polkitd" in install_variable("APT_PACKAGES").split()


def test_the_unit_leaves_the_backlight_writable_and_the_rest_of_sys_read_only():
    settings = [line.strip() for line in UNIT.splitlines() if not line.startswith("#")]
    assert "ProtectKernelTunables=yes" in settings
    assert "ReadWritePaths=-/sys/devices/platform" in settings
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK" in settings  # D-Bus to logind: AF_UNIX
