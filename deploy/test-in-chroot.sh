#!/usr/bin/env bash
# Test deploy/install.sh and the systemd unit in a scratch Debian bookworm root (the base of
# Raspberry Pi OS Bookworm), as far as a machine that is not a Raspberry Pi allows. Needs root,
# debootstrap and the Debian mirror; the first run bootstraps a base root (about a minute), later
# runs start from a fresh copy of it. Results are summarised at the end; docs/raspberry-pi.md
# records the last run.
#
#   sudo deploy/test-in-chroot.sh [SCRATCH_DIR]      default: /var/tmp/noah-deploy
#
# What it checks: a first install (packages, user and groups, venv with the system's numpy,
# service files, enabled at boot), `systemd-analyze verify` and `security` inside the root,
# `sudo noah-companion --version` and `doctor` through the installed wrapper, and that a second
# run changes nothing but keeps an edited /etc/default/noah-companion.
# It cannot check: booting, the screen, touch, camera, GPIO (no Raspberry Pi here).
set -euo pipefail

SCRATCH=${1:-/var/tmp/noah-deploy}
BASE=$SCRATCH/base
ROOT=$SCRATCH/root
SOURCE=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# python3-numpy stands for the numpy that python3-picamera2 brings on a Raspberry Pi.
BASE_PACKAGES=systemd,python3,python3-venv,python3-numpy,ca-certificates
FAILURES=0
MOUNTS=()

say() { printf '\n==> %s\n' "$*"; }
pass() { printf 'PASS  %s\n' "$*"; }
fail() { printf 'FAIL  %s\n' "$*"; FAILURES=$((FAILURES + 1)); }
check() {  # check DESCRIPTION COMMAND...: PASS when the command succeeds
    local description=$1
    shift
    if "$@" >/dev/null 2>&1; then pass "$description"; else fail "$description"; fi
}
in_root() { chroot "$ROOT" "$@"; }

bootstrap_base() {
    [ -f "$BASE/etc/debian_version" ] && return 0
    command -v debootstrap >/dev/null \
        || { echo "debootstrap is missing: sudo apt-get install debootstrap" >&2; exit 1; }
    say "Bootstrapping Debian bookworm into $BASE (once)"
    debootstrap --variant=minbase --include="$BASE_PACKAGES" bookworm "$BASE" "$MIRROR"
}

bind() {  # bind HOST_PATH: mount it at the same place inside the root
    mkdir -p "$ROOT$1"
    mount --bind "$1" "$ROOT$1"
    MOUNTS=("$ROOT$1" "${MOUNTS[@]}")
}

cleanup() {
    local mount_point
    for mount_point in "${MOUNTS[@]}"; do umount -l "$mount_point" 2>/dev/null || true; done
}

fresh_root() {
    say "Fresh scratch root $ROOT"
    rm -rf "$ROOT"
    cp -a "$BASE" "$ROOT"
    trap cleanup EXIT
    bind /proc
    bind /sys
    bind /dev
    bind /dev/pts
    cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
    # This machine's pip settings and certificates (mirror, proxy, local wheel folders), so that
    # pip in the root reaches the same packages.
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
    if [ -f /etc/pip.conf ]; then
        cp /etc/pip.conf "$ROOT/etc/pip.conf"
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
    for group in render input gpio; do
        in_root getent group "$group" >/dev/null || in_root groupadd --system "$group"
    done
    mkdir -p "$ROOT/home/pi"
    tar -C "$SOURCE" --exclude=.venv --exclude=.git --exclude='*.egg-info' --exclude=build \
        --exclude=.pytest_cache --exclude=.ruff_cache -cf - . | tar -C "$ROOT/home/pi" -xf - \
        --one-top-level=noah-companion
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
    for group in video render input gpio; do
        check "user noah-companion is in group $group" grep -qw "$group" <<<"$groups"
    done
    check "the unit is installed" test -f "$ROOT/etc/systemd/system/noah-companion.service"
    check "the unit is enabled at boot" \
        test -L "$ROOT/etc/systemd/system/multi-user.target.wants/noah-companion.service"
    check "the state directory belongs to the service user" \
        test "$(in_root stat -c %U /var/lib/noah-companion)" = noah-companion
    check "Kivy's touch settings are seeded" \
        grep -q provider=mtdev "$ROOT/var/lib/noah-companion/kivy/config.ini"
    check "the venv sees the system's numpy (no pip numpy shadowing it)" \
        in_root /opt/noah-companion/venv/bin/python -c \
        'import numpy, sys; sys.exit(not numpy.__file__.startswith("/usr/lib/python3/"))'
    check "the app's stack imports in the venv (cv2, pyzbar, zxingcpp, kivy, gpiozero)" \
        in_root /opt/noah-companion/venv/bin/python -c \
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
        /opt/noah-companion/venv/bin/python /tmp/one-game.py
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
    echo "SDL_VIDEODRIVER=x11  # a club's own edit" >>"$ROOT/etc/default/noah-companion"
    before=$(cd "$ROOT" && sha256sum etc/systemd/system/noah-companion.service \
        etc/default/noah-companion usr/local/bin/noah-companion opt/noah-companion/launch.py \
        var/lib/noah-companion/kivy/config.ini)
    local output
    output=$(in_root /home/pi/noah-companion/deploy/install.sh 2>&1) \
        || { fail "second install.sh failed: $output"; return 1; }
    after=$(cd "$ROOT" && sha256sum etc/systemd/system/noah-companion.service \
        etc/default/noah-companion usr/local/bin/noah-companion opt/noah-companion/launch.py \
        var/lib/noah-companion/kivy/config.ini)
    check "second run: service files unchanged" test "$before" = "$after"
    if grep -qE "Creating|Installing Debian" <<<"$output"; then
        fail "second run: created a user or venv, or installed packages, again"
    else
        pass "second run: no new user, packages or venv"
    fi
    check "second run: the edited settings file is kept, the new default put beside it" \
        test -f "$ROOT/etc/default/noah-companion.dist"
}

main() {
    [ "$(id -u)" -eq 0 ] || { echo "Run it as root: sudo $0" >&2; exit 1; }
    bootstrap_base
    fresh_root
    first_install && check_unit && check_wrapper && guide_commands && second_install
    say "Summary: $FAILURES failure(s)"
    [ "$FAILURES" -eq 0 ]
}

main
