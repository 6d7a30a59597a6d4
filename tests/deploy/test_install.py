"""The systemd unit, the install script and the crash-safe launcher (deploy/).

The full install is tested in a scratch Debian root by deploy/test-in-chroot.sh (minutes, needs
root and the mirror), and the whole suite on emulated arm64 by deploy/test-arm64.sh (an hour);
here only the quick checks: the unit verifies and is hardened, the install script stages its
files idempotently and plans the right steps, the launcher ends the process when a thread dies,
the scratch-root scripts are well formed and refuse to run without root.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "systemd" / "noah-companion.service"
ENV_FILE = DEPLOY / "systemd" / "noah-companion.env"
INSTALL = DEPLOY / "install.sh"
TEST_LIB = DEPLOY / "test-lib.sh"
ROOT_TESTS = [DEPLOY / "test-in-chroot.sh", DEPLOY / "test-arm64.sh"]
SCRIPTS = [INSTALL, *ROOT_TESTS, TEST_LIB, DEPLOY / "files" / "noah-companion-admin.sh"]
needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                           reason="systemd-analyze is not installed")


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit file, repeated keys kept in order."""
    settings: dict[str, list[str]] = defaultdict(list)
    for line in text.splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings[key.strip()].append(value.strip())
    return settings


@pytest.fixture(scope="module")
def unit() -> dict[str, list[str]]:
    return unit_settings(UNIT.read_text())


@pytest.fixture
def verifiable_unit(tmp_path: Path) -> Path:
    """The unit with its programs pointing at this Python's (verify insists they exist), and
    its rollback unit beside it."""
    bin_folder = Path(sys.executable).parent
    for unit in (UNIT, DEPLOY / "systemd" / "noah-companion-rollback.service"):
        text = unit.read_text()
        for release in ("current", "previous"):
            text = text.replace(f"/opt/noah-companion/{release}/venv/bin/", f"{bin_folder}/")
        (tmp_path / unit.name).write_text(text)
    return tmp_path / UNIT.name


@needs_systemd_analyze
def test_unit_verifies_clean(verifiable_unit):
    result = subprocess.run(["systemd-analyze", "verify", str(verifiable_unit)],
                            capture_output=True, text=True, check=False)
    assert (result.returncode, result.stderr.strip()) == (0, "")


@needs_systemd_analyze
def test_unit_security_exposure_is_in_the_ok_band(verifiable_unit):
    result = subprocess.run(["systemd-analyze", "security", "--offline=yes",
                             str(verifiable_unit)], capture_output=True, text=True, check=False)
    score = re.search(r"Overall exposure level for \S+: ([0-9.]+)", result.stdout)
    assert score is not None, result.stdout + result.stderr
    assert float(score.group(1)) < 5.0  # systemd's "OK" band; 1.0 when measured


def test_unit_runs_unprivileged_and_restarts_on_failure(unit):
    assert unit["User"] == ["noah-companion"]
    assert unit["Restart"] == ["on-failure"]
    assert unit["StateDirectory"] == ["noah-companion"]
    assert unit["WorkingDirectory"] == ["%S/noah-companion"]  # lgpio writes .lgd-nfy* here
    assert unit["StandardOutput"] == ["journal"]
    assert unit["ExecStart"][0].startswith("/opt/noah-companion/current/venv/bin/python ")
    assert "/opt/noah-companion/launch.py" in unit["ExecStart"][0]


def test_unit_checks_a_new_version_and_goes_back_when_it_keeps_failing(unit):
    """Issue 20.5: a version on trial checks itself before each start; at the start limit the
    rollback unit, run by the previous version, switches back."""
    assert unit["ExecStartPre"] == [
        "/opt/noah-companion/current/venv/bin/noah-companion update --self-test"]
    assert unit["OnFailure"] == ["noah-companion-rollback.service"]
    assert int(unit["StartLimitBurst"][0]) * int(unit["RestartSec"][0]) < 60
    rollback = unit_settings((DEPLOY / "systemd" / "noah-companion-rollback.service").read_text())
    assert rollback["ExecStart"] == [
        "/opt/noah-companion/previous/venv/bin/noah-companion update --rollback --if-on-trial"]
    assert rollback["Type"] == ["oneshot"] and "User" not in rollback  # root: it writes /opt


def test_unit_allows_exactly_the_devices_in_use(unit):
    assert unit["DevicePolicy"] == ["closed"]
    assert "PrivateDevices" not in unit  # it would hide the screen, touch, camera and GPIO
    allowed = {value.split()[0] for value in unit["DeviceAllow"]}
    assert allowed == {"char-drm", "char-input", "char-video4linux", "char-media",
                       "char-dma_heap", "char-gpiochip", "char-alsa"}


def test_unit_is_hardened(unit):
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",
                       "CapabilityBoundingSet": ""}.items():
        assert unit[key] == [value], key


def test_environment_file_sets_up_kivy_on_kms(unit):
    assert unit["EnvironmentFile"] == ["/etc/default/noah-companion"]
    env = dict(line.split("=", 1) for line in ENV_FILE.read_text().splitlines()
               if line and not line.startswith("#"))
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["KIVY_NO_ARGS"] == "1"
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    state_dir = "/var/lib/noah-companion/"
    for key in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):  # Kivy's home is in the data directory
        assert env[key].startswith(state_dir), key  # the only writable place besides the cache


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_shell_scripts_pass_shellcheck(script):
    # -x: follow deploy/test-lib.sh into the scripts that source it, checked as one program
    result = subprocess.run(["shellcheck", "-x", str(script)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 0, result.stdout


def run_install(*args: str, destdir: Path | None = None) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "DESTDIR"}
    if destdir is not None:
        env["DESTDIR"] = str(destdir)
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True,
                          env=env, check=False, timeout=120)


def test_install_stages_the_service_files_under_destdir(tmp_path):
    result = run_install(destdir=tmp_path)
    assert result.returncode == 0, result.stderr
    staged = {str(path.relative_to(tmp_path)): oct(path.stat().st_mode & 0o777)
              for path in tmp_path.rglob("*") if path.is_file()}
    assert staged == {
        "etc/systemd/system/noah-companion.service": "0o644",
        "etc/systemd/system/noah-companion-rollback.service": "0o644",
        "etc/default/noah-companion": "0o644",
        "opt/noah-companion/launch.py": "0o644",
        "usr/local/bin/noah-companion": "0o755",
        "usr/local/share/doc/noah-companion/raspberry-pi.md": "0o644",
        "etc/polkit-1/rules.d/50-noah-companion.rules": "0o644",
        "etc/udev/rules.d/90-noah-companion-backlight.rules": "0o644",
    }
    assert (tmp_path / "etc/systemd/system/noah-companion.service").read_text() == UNIT.read_text()


def test_install_twice_changes_nothing_and_keeps_an_edited_settings_file(tmp_path):
    run_install(destdir=tmp_path)
    settings = tmp_path / "etc/default/noah-companion"
    settings.write_text(settings.read_text() + "SDL_VIDEODRIVER=x11\n")
    config = tmp_path / "var/lib/noah-companion/config/noah-companion/companion.ini"
    config.write_text("[ui]\nrotation = 180\n")  # the club's, since the first run

    second = run_install(destdir=tmp_path)

    assert second.returncode == 0, second.stderr
    assert "    installed " not in second.stdout
    assert settings.read_text().endswith("SDL_VIDEODRIVER=x11\n")
    assert (tmp_path / "etc/default/noah-companion.dist").read_text() == ENV_FILE.read_text()
    assert config.read_text() == "[ui]\nrotation = 180\n"


def test_install_dry_run_plans_every_step_and_changes_nothing():
    result = run_install("--dry-run")
    assert result.returncode == 0, result.stderr
    plan = result.stdout
    for step in ("python3 -m companion.update --from ", "--prefix /opt/noah-companion",
                 "/opt/noah-companion/constraints.txt",
                 "/etc/systemd/system/noah-companion.service",
                 "systemctl enable --quiet noah-companion.service"):
        assert step in plan, step
    if subprocess.run(["id", "noah-companion"], capture_output=True).returncode != 0:
        assert "useradd --system" in plan


def test_install_rejects_unknown_options_with_a_hint():
    result = run_install("--frobnicate")
    assert result.returncode == 1
    assert "unknown option '--frobnicate'" in result.stderr
    assert "--help" in result.stderr


def test_install_help_describes_the_modes():
    result = run_install("--help")
    assert result.returncode == 0
    assert "--dry-run" in result.stdout and "DESTDIR" in result.stdout


def run_python(code: str) -> subprocess.CompletedProcess:
    prelude = (f"import runpy, threading, time\n"
               f"launch = runpy.run_path({str(DEPLOY / 'launch.py')!r}, run_name='launch')\n"
               f"launch['end_process_when_a_thread_dies']()\n")
    return subprocess.run([sys.executable, "-c", prelude + code], capture_output=True,
                          text=True, check=False, timeout=60)


def test_a_thread_that_dies_ends_the_process_so_systemd_restarts_it():
    result = run_python("threading.Thread(target=lambda: 1 / 0, name='camera').start()\n"
                        "time.sleep(50)\n")
    assert result.returncode == 70
    assert "ZeroDivisionError" in result.stderr
    assert "camera stopped on an error; restarting the app" in result.stderr


def test_a_thread_that_exits_on_purpose_does_not_end_the_process():
    result = run_python("import sys\n"
                        "thread = threading.Thread(target=sys.exit)\n"
                        "thread.start(); thread.join(); print('still here')\n")
    assert result.returncode == 0
    assert result.stdout == "still here\n"


def admin_wrapper_as(user: str | None) -> subprocess.CompletedProcess:
    """Run the installed wrapper's script as ``user``. It is fed on standard input, so the test
    works wherever the checkout lies (``/root/...`` is closed to other users)."""
    command = ["sh", "-s", "doctor"]
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    script = (DEPLOY / "files" / "noah-companion-admin.sh").read_text()
    return subprocess.run(command, input=script, capture_output=True, text=True, check=False,
                          cwd="/")


def test_admin_command_asks_for_sudo():
    result = admin_wrapper_as("nobody" if os.geteuid() == 0 else None)
    assert result.returncode == 2
    assert "sudo noah-companion doctor" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0 or Path("/opt/noah-companion/current").exists(),
                    reason="needs root, on a machine where the app is not installed")
def test_admin_command_says_how_to_install_when_the_app_is_missing():
    result = admin_wrapper_as(None)
    assert result.returncode == 2
    assert "sudo deploy/install.sh" in result.stderr


def shell_functions(script: Path) -> set[str]:
    return set(re.findall(r"^([a-z_]+)\(\) \{", script.read_text(), re.MULTILINE))


@pytest.mark.parametrize("script", [*ROOT_TESTS, TEST_LIB], ids=lambda path: path.name)
def test_scratch_root_scripts_parse(script):
    result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True,
                            check=False)
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("script", ROOT_TESTS, ids=lambda path: path.name)
def test_scratch_root_scripts_share_their_helpers_instead_of_repeating_them(script):
    shared = shell_functions(TEST_LIB)
    assert {"check", "in_root", "bind", "bootstrap_bookworm", "install_host_packages"} <= shared
    assert 'source "$SOURCE/deploy/test-lib.sh"' in script.read_text()
    assert shell_functions(script) & shared == set()


def test_arm64_script_names_what_it_needs_and_runs_the_readme_commands():
    text = (DEPLOY / "test-arm64.sh").read_text()
    host_packages = re.search(r"^HOST_PACKAGES=\((.*)\)$", text, re.MULTILINE)
    assert host_packages is not None
    assert set(host_packages.group(1).split()) == {"debootstrap", "qemu-user-static"}
    assert "--arch=arm64 --foreign" in text  # first stage natively, second stage emulated
    assert "--variant=minbase" in TEST_LIB.read_text()
    assert "/usr/lib/binfmt.d/qemu-aarch64.conf" in text  # qemu-user-static's own entry
    assert "git -C \"$SOURCE\" archive" in text  # the committed files, as a clone has them
    assert 'as_host_user "./run.sh setup"' in text  # exactly the README's set-up...
    assert 'as_host_user "./run.sh test' in text  # ...and the suite as CI runs it


@pytest.mark.parametrize("script", ROOT_TESTS, ids=lambda path: path.name)
def test_scratch_root_scripts_refuse_without_root_and_touch_nothing(script, tmp_path):
    """Run as an ordinary user (a fake ``id`` says uid 1000): one sentence saying how to run it,
    and none of the programs that change the machine is called."""
    calls = tmp_path / "calls"
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "id").write_text("#!/bin/sh\necho 1000\n")
    for program in ("apt-get", "debootstrap", "mount", "chroot", "cp", "rm"):
        (fake_bin / program).write_text(f'#!/bin/sh\necho {program} >> "{calls}"\n')
    for fake in fake_bin.iterdir():
        fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake_bin}:{os.environ['PATH']}"}
    result = subprocess.run(["bash", str(script), str(tmp_path / "scratch")], capture_output=True,
                            text=True, env=env, check=False, timeout=60)
    assert result.returncode == 1
    assert result.stderr == f"Run it as root: sudo {script}\n"
    assert not calls.exists()
    assert not (tmp_path / "scratch").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to mount")
def test_a_fresh_root_never_empties_folders_a_killed_run_left_mounted(tmp_path):
    """A run killed with its bind mounts still up must not rm -rf this machine's /dev through
    them: the next run unmounts them before it removes the old root."""
    base, root, precious = tmp_path / "base", tmp_path / "root", tmp_path / "precious"
    (base / "etc").mkdir(parents=True)
    (base / "etc" / "debian_version").write_text("12.0\n")
    (root / "dev").mkdir(parents=True)
    precious.mkdir()
    (precious / "keep").write_text("this machine's own file\n")
    if subprocess.run(["mount", "--bind", str(precious), str(root / "dev")],
                      capture_output=True, check=False).returncode != 0:
        pytest.skip("bind mounts are not allowed here")
    try:
        result = subprocess.run(["bash", "-c", f'set -euo pipefail; ROOT="{root}"; '
                                 f'source "{TEST_LIB}"; fresh_copy_of_base "{base}"'],
                                capture_output=True, text=True, check=False, timeout=60)
    finally:
        subprocess.run(["umount", "-l", str(root / "dev")], capture_output=True, check=False)
    assert result.returncode == 0, result.stderr
    assert (precious / "keep").exists()
    assert sorted(path.name for path in root.iterdir()) == ["etc"]
