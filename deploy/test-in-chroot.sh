#!/usr/bin/env bash
# Test deploy/install.sh and the systemd unit in a scratch Debian bookworm root (the base of
# Raspberry Pi OS Bookworm), as far as a machine that is not a Raspberry Pi allows. Needs root
# and the Debian mirror (it installs debootstrap with apt-get if missing); the first run
# bootstraps a base root (about a minute), later runs start from a fresh copy of it. Results are summarised at the end; docs/raspberry-pi.md
# records the last run.
#
#   sudo deploy/test-in-chroot.sh [SCRATCH_DIR]      default: /var/tmp/noah-deploy
#
# What it checks: a first install (packages, user and groups, venv with the system's numpy,
# service files, enabled at boot), `systemd-analyze verify` and `security` inside the root,
# `sudo noah-companion --version` and `doctor` through the installed wrapper, and that a second
# run changes nothing but keeps an edited /etc/default/noah-companion.
# Then, if systemd-nspawn is installed (apt-get install systemd-container), it boots the root with
# systemd as PID 1 and checks the unit as it really runs: the app started at boot and running
# (drawing offscreen: there is no screen here), a failing program restarted until the start
# limit, what the sandbox allows and refuses (deploy/probes/sandbox.py),
# `doctor` inside the sandbox, and a worker thread's death restarting the app
# (deploy/probes/thread_crash.py).
# It cannot check: the screen, touch, camera and GPIO (no Raspberry Pi here).
set -euo pipefail

SCRATCH=${1:-/var/tmp/noah-deploy}
BASE=$SCRATCH/base
ROOT=$SCRATCH/root
SOURCE=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
# python3-numpy stands for the numpy that python3-picamera2 brings on a Raspberry Pi.
BASE_PACKAGES=systemd,python3,python3-venv,python3-numpy,ca-certificates
# shellcheck source-path=SCRIPTDIR source=test-lib.sh
source "$SOURCE/deploy/test-lib.sh"

bootstrap_base() {
    [ -f "$BASE/etc/debian_version" ] && return 0
    bootstrap_bookworm "$BASE" "$BASE_PACKAGES"
}

fresh_root() {
    say "Fresh scratch root $ROOT"
    fresh_copy_of_base "$BASE"
    bind_system_folders
    give_host_package_settings "$ROOT"
    if [ -f /etc/pip.conf ]; then  # its local wheel folders
        local folder
        for folder in /opt/wheels /opt/pypi /opt/pypi-more; do
            [ -d "$folder" ] && bind "$folder"
        done
    fi
    if ! in_root dpkg-query -W python3-numpy >/dev/null 2>&1; then
        in_root apt-get update -qq
        in_root apt-get install -y -qq --no-install-recommends python3-numpy >/dev/null
    fi
    # Groups that Raspberry Pi OS has and a minimal Debian root lacks.
    local group
    for group in render input gpio audio; do
        in_root getent group "$group" >/dev/null || in_root groupadd --system "$group"
    done
    mkdir -p "$ROOT/home/pi"
    # (tar's status 1 only says that a file changed while it was read: others work here too)
    { tar -C "$SOURCE" --exclude=.venv --exclude=.git --exclude='*.egg-info' --exclude=build \
        --exclude=.pytest_cache --exclude=.ruff_cache --warning=no-file-changed -cf - . \
        || [ $? -eq 1 ]; } | tar -C "$ROOT/home/pi" -xf - --one-top-level=noah-companion
}

first_install() {
    say "First install"
    local started=$SECONDS
    if in_root /home/pi/noah-companion/deploy/install.sh; then
        pass "install.sh runs to the end ($((SECONDS - started)) s)"
    else
        fail "install.sh failed"
        return 1
    fi
    local groups
    groups=$(in_root id -nG noah-companion)
    for group in video render input gpio audio; do
        check "user noah-companion is in group $group" grep -qw "$group" <<<"$groups"
    done
    check "the unit is installed" test -f "$ROOT/etc/systemd/system/noah-companion.service"
    check "the unit is enabled at boot" \
        test -L "$ROOT/etc/systemd/system/multi-user.target.wants/noah-companion.service"
    check "the state directory belongs to the service user" \
        test "$(in_root stat -c %U /var/lib/noah-companion)" = noah-companion
    check "the config file's folder is ready for the service user" \
        test "$(in_root stat -c %U /var/lib/noah-companion/config/noah-companion)" = noah-companion
    check "the venv sees the system's numpy (no pip numpy shadowing it)" \
        in_root /opt/noah-companion/current/venv/bin/python -c \
        'import numpy, sys; sys.exit(not numpy.__file__.startswith("/usr/lib/python3/"))'
    check "the app's stack imports in the venv (cv2, pyzbar, zxingcpp, kivy, gpiozero)" \
        in_root /opt/noah-companion/current/venv/bin/python -c \
        'import cv2, pyzbar.pyzbar, zxingcpp, gpiozero, kivy, companion'
}

check_unit() {
    say "The unit inside the root"
    local output
    if output=$(in_root systemd-analyze verify noah-companion.service 2>&1) && [ -z "$output" ]; then
        pass "systemd-analyze verify: clean"
    else
        fail "systemd-analyze verify: $output"
    fi
    local score
    score=$(in_root systemd-analyze security --offline=yes noah-companion.service 2>/dev/null \
        | sed -n 's/.*Overall exposure level for noah-companion.service: //p')
    echo "      systemd-analyze security: $score"
    if [ -n "$score" ] && [ "${score%%.*}" -lt 5 ]; then
        pass "security exposure below 5 (OK band)"
    else
        fail "security exposure: '$score'"
    fi
}

check_wrapper() {
    say "sudo noah-companion, as the service user"
    check "noah-companion --version through the wrapper" in_root noah-companion --version
    echo "      noah-companion doctor (exit status non-zero is expected: no camera, screen, GPIO):"
    local status=0
    in_root noah-companion doctor | sed 's/^/      /' || status=$?
    echo "      doctor's exit status: $status"
    check "doctor runs and reports (exit status 0 or 1, not a crash)" test "$status" -le 1
}

guide_commands() {
    say "Commands of docs/raspberry-pi.md (sections 6, 10 and 12), typed as a club member would"
    in_root apt-get install -y -qq --no-install-recommends sudo sqlite3 >/dev/null
    local data=/var/lib/noah-companion/data/noah-companion
    # A game in the record, written as the app writes it (as the service user, in its folders).
    cat >"$ROOT/tmp/one-game.py" <<'PYTHON'
from companion.session.store import GameStore, default_store_path

with GameStore(default_store_path()) as store:
    store.create_game({"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"],
                       "options": {}})
PYTHON
    in_root runuser -u noah-companion -- env XDG_DATA_HOME=/var/lib/noah-companion/data \
        /opt/noah-companion/current/venv/bin/python /tmp/one-game.py
    check "sudo noah-companion doctor runs" \
        bash -c "chroot '$ROOT' sudo noah-companion doctor; [ \$? -le 1 ]"
    check "sudo noah-companion history lists the game" \
        bash -c "chroot '$ROOT' sudo noah-companion history | grep -q Ana"
    check "the config folder can be edited by the service user" \
        in_root sudo -u noah-companion touch /var/lib/noah-companion/config/noah-companion/companion.ini
    check "backup with sqlite3 .backup" \
        in_root sudo sqlite3 "$data/games.sqlite" ".backup '/root/games-backup.sqlite'"
    check "the backup holds the game" \
        bash -c "chroot '$ROOT' sqlite3 /root/games-backup.sqlite 'select header from games' | grep -q Ana"
    in_root sudo rm -f "$data/games.sqlite" "$data/games.sqlite-wal" "$data/games.sqlite-shm"
    in_root sudo install -o noah-companion -g noah-companion -m 0600 /root/games-backup.sqlite \
        "$data/games.sqlite"
    check "restore: the history shows the game again" \
        bash -c "chroot '$ROOT' sudo noah-companion history | grep -q Ana"
}

second_install() {
    say "Second install (idempotence)"
    local before after
    printf '# our club edits this\nKCFG_KIVY_LOG_LEVEL=info\n' >>"$ROOT/etc/default/noah-companion"
    before=$(cd "$ROOT" && sha256sum etc/systemd/system/noah-companion.service \
        etc/default/noah-companion usr/local/bin/noah-companion opt/noah-companion/launch.py)
    local output
    output=$(in_root /home/pi/noah-companion/deploy/install.sh 2>&1) \
        || { fail "second install.sh failed: $output"; return 1; }
    after=$(cd "$ROOT" && sha256sum etc/systemd/system/noah-companion.service \
        etc/default/noah-companion usr/local/bin/noah-companion opt/noah-companion/launch.py)
    check "second run: service files unchanged" test "$before" = "$after"
    if grep -qE "Creating|Installing Debian" <<<"$output"; then
        fail "second run: created a user or venv, or installed packages, again"
    else
        pass "second run: no new user, packages or venv"
    fi
    check "second run: the edited settings file is kept, the new default put beside it" \
        test -f "$ROOT/etc/default/noah-companion.dist"
}

# ---- the root booted with systemd as PID 1 (systemd-nspawn): the unit as it really runs ----

LEADER=""
in_boot() { nsenter -t "$LEADER" -a "$@"; }
service_property() { in_boot systemctl show -p "$1" --value noah-companion.service; }
SINCE="2000-01-01 00:00:00"  # service_log shows the journal from here on
service_log() { in_boot journalctl -u noah-companion.service -o cat --no-pager --since "$SINCE"; }

boot_root() {
    say "Booting the root with systemd-nspawn (systemd as PID 1)"
    cleanup  # nspawn mounts /proc, /sys and /dev itself
    MOUNTS=()
    systemd-nspawn --register=no --keep-unit -q -D "$ROOT" -b --console=pipe \
        >"$SCRATCH/boot.log" 2>&1 &
    NSPAWN=$!
    local tries
    for tries in $(seq 30); do
        LEADER=$(pgrep -x systemd -P "$NSPAWN" || true)
        [ -n "$LEADER" ] && break
        sleep 1
    done
    if [ -z "$LEADER" ]; then
        fail "the root did not boot (see $SCRATCH/boot.log)"
        return 1
    fi
    timeout 120 nsenter -t "$LEADER" -a systemctl is-system-running --wait >/dev/null || true
    pass "booted: systemd $(in_boot systemctl --version | sed -n '1s/systemd \([0-9]*\).*/\1/p')" \
        "is PID 1 in the root (after ${tries} s)"
}

wait_until_stopped() {
    local tries state
    for tries in $(seq 30); do
        state=$(service_property ActiveState)
        [ "$state" = inactive ] || [ "$state" = failed ] && return 0
        sleep 1
    done
    return 1
}

# The service runs COMMAND instead of the app, through a runtime drop-in: same user, sandbox,
# environment and (unless --once) restart policy.
run_as_service() {
    local dropin=/run/systemd/system/noah-companion.service.d restart=""
    if [ "$1" = --once ]; then
        restart="Restart=no"
        shift
    fi
    printf '[Service]\nExecStart=\nExecStart=%s\n%s\n' "$*" "$restart" \
        | in_boot sh -c "mkdir -p $dropin && cat > $dropin/probe.conf"
    in_boot systemctl daemon-reload
    in_boot systemctl stop noah-companion.service
    in_boot systemctl reset-failed noah-companion.service 2>/dev/null || true
    sleep 1  # the journal's --since counts in seconds
    SINCE=$(in_boot date '+%Y-%m-%d %H:%M:%S')
    in_boot systemctl start noah-companion.service
}

check_booted_service() {
    say "The app's service at boot"
    wait_until_stopped || true  # the app should not stop: waits 30 s
    local log
    log=$(service_log)
    check "the service was started at boot" grep -q "Started noah-companion.service" <<<"$log"
    echo "      its state: $(service_property ActiveState), $(service_property NRestarts)" \
        "restart(s); the app's last line: $(grep -v '^ ' <<<"$log" | grep -vE '^(Started|Starting|Stopped|Failed to start|noah-companion)' \
        | tail -n 1)"
    check "the app runs under the service (still up after 30 s, not restarted)" \
        test "$(service_property ActiveState)/$(service_property NRestarts)" = active/0

    say "A program that keeps failing (/bin/false run as the service)"
    run_as_service /bin/false  # stops the app first
    check "the app stopped on systemctl stop within 10 s (no SIGKILL needed)" \
        bash -c "! nsenter -t $LEADER -a journalctl -u noah-companion -o cat | grep -q Killing"
    wait_until_stopped
    log=$(service_log)
    check "after failing, it was restarted" grep -q "Scheduled restart job" <<<"$log"
    check "after 5 failures in 5 minutes, systemd gave up" \
        grep -q "Start request repeated too quickly" <<<"$log"

    say "Inside the service's sandbox (deploy/probes/sandbox.py run as the service)"
    install -D -m 0644 "$SOURCE/deploy/probes/sandbox.py" "$ROOT/usr/local/lib/noah-probes/sandbox.py"
    install -D -m 0644 "$SOURCE/deploy/probes/thread_crash.py" \
        "$ROOT/usr/local/lib/noah-probes/thread_crash.py"
    run_as_service --once /opt/noah-companion/current/venv/bin/python /usr/local/lib/noah-probes/sandbox.py
    wait_until_stopped
    log=$(service_log)
    sed -n 's/^\(allowed\|refused\|user\|working\|KIVY\)/      &/p' <<<"$log"
    local expected
    for expected in "allowed: write in the state directory" \
        "allowed: write in the working directory" "allowed: write in the cache directory" \
        "refused: write in /etc" "refused: write in /opt/noah-companion" \
        "refused: list /home/pi" "refused: open an internet socket" \
        "allowed: open a netlink socket" "allowed: open a local socket" \
        "refused: change the process priority"; do
        check "sandbox: $expected" grep -q "^$expected" <<<"$log"
    done
    check "sandbox: the app's user has the groups video, render, input, gpio and audio" \
        grep -qE "^user: .*groups: audio.*gpio.*input.*render.*video" <<<"$log"

    say "noah-companion doctor inside the sandbox"
    run_as_service --once /opt/noah-companion/current/venv/bin/python /opt/noah-companion/launch.py doctor
    wait_until_stopped
    log=$(service_log)
    grep -E '^(✓|!|✗)' <<<"$log" | sed 's/^/      /'
    check "doctor in the sandbox: the config file is usable" grep -q "^✓ Config" <<<"$log"
    check "doctor in the sandbox: the game record is writable" grep -q "^✓ Game record" <<<"$log"

    say "A worker thread that dies (deploy/probes/thread_crash.py run as the service)"
    run_as_service /opt/noah-companion/current/venv/bin/python /usr/local/lib/noah-probes/thread_crash.py
    local tries
    for tries in $(seq 20); do
        [ "$(service_property NRestarts)" -ge 1 ] && break
        sleep 1
    done
    log=$(service_log)
    check "the process ended with status 70" grep -q "status=70" <<<"$log"
    check "systemd restarted it ($(service_property NRestarts) restart(s) after ${tries} s)" \
        test "$(service_property NRestarts)" -ge 1
    in_boot systemctl stop noah-companion.service
}

shutdown_root() {
    [ -n "$LEADER" ] || return 0
    in_boot systemctl poweroff 2>/dev/null || true
    timeout 60 tail --pid="$NSPAWN" -f /dev/null || kill "$NSPAWN" 2>/dev/null || true
}

main() {
    require_root
    install_host_packages debootstrap
    bootstrap_base
    fresh_root
    first_install && check_unit && check_wrapper && guide_commands && second_install
    if command -v systemd-nspawn >/dev/null; then
        boot_root && check_booted_service
        shutdown_root
    else
        echo "Skipped booting the root: systemd-nspawn is missing (apt-get install systemd-container)."
    fi
    say "Summary: $FAILURES failure(s)"
    [ "$FAILURES" -eq 0 ]
}

main
