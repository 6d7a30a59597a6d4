#!/usr/bin/env bash
# The whole test suite on the Raspberry Pi's platform without a Raspberry Pi: Raspberry Pi OS
# Bookworm is Debian 12 on arm64, so this builds a minimal Debian 12 arm64 root, installs the
# project in it as the README says (`./run.sh setup` in a copy of the committed files), and runs
# `./run.sh test` there (ruff and pytest, as CI runs them), every arm64 program emulated by qemu.
#
#   sudo deploy/test-arm64.sh [SCRATCH_DIR]      default: /var/tmp/noah-arm64
#
# Slow (half an hour on 2 cores: emulated, the suite runs 10-15 times slower than natively), so
# CI does not run it; docs/raspberry-pi.md records the last run. Needs root, the Debian mirror and
# PyPI. It installs what it needs on this machine with apt-get (debootstrap, qemu-user-static) and
# registers qemu as the kernel's handler for arm64 programs (binfmt_misc, as qemu-user-static does
# by itself on a machine that runs systemd), so that chroot runs them (not proot: Debian 12's proot
# does not translate faccessat2's path, so the root's `test -x` would look at this machine's
# files). The first run bootstraps a base root (its second stage emulated: about 8 minutes);
# later runs start from a fresh copy of it. The repository's uncommitted changes are not tested.
set -euo pipefail

SCRATCH=${1:-/var/tmp/noah-arm64}
BASE=$SCRATCH/base
ROOT=$SCRATCH/root
SOURCE=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
HOST_PACKAGES=(debootstrap qemu-user-static)
# What Raspberry Pi OS Lite has and a minimal Debian root lacks, that the README counts on.
BASE_PACKAGES=python3,ca-certificates
PROJECT=/home/pi/noah-companion
BINFMT=/proc/sys/fs/binfmt_misc
# shellcheck source-path=SCRIPTDIR source=test-lib.sh
source "$SOURCE/deploy/test-lib.sh"

enable_emulation() {
    [ -e "$BINFMT/qemu-aarch64" ] && return 0
    say "Registering qemu-aarch64-static as the handler for arm64 programs"
    [ -e "$BINFMT/register" ] || mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
    # The F flag in qemu-user-static's entry: the kernel keeps qemu open, so the root needs no copy.
    if ! cat /usr/lib/binfmt.d/qemu-aarch64.conf >"$BINFMT/register" 2>/dev/null; then
        echo "This machine cannot run arm64 programs: the kernel refused to register qemu in" \
            "$BINFMT (a container may need --privileged). Run it on a Debian 12 machine or VM." >&2
        exit 1
    fi
}

# as_host_user COMMAND: a shell command run in the root as someone logged in there would
# (a clean environment, in the project's folder).
as_host_user() {
    in_root env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "cd $PROJECT && $1"
}

bootstrap_base() {
    # The second stage removes /debootstrap: a root that still has it was interrupted.
    [ -f "$BASE/etc/debian_version" ] && [ ! -e "$BASE/debootstrap" ] && return 0
    local started=$SECONDS
    rm -rf "$BASE"
    bootstrap_bookworm "$BASE" "$BASE_PACKAGES" --arch=arm64 --foreign
    say "Second stage of the bootstrap, emulated"
    ROOT=$BASE in_root /debootstrap/debootstrap --second-stage
    pass "Debian $(cat "$BASE/etc/debian_version") arm64 bootstrapped ($((SECONDS - started)) s)"
}

fresh_root() {
    say "Fresh scratch root $ROOT with the committed files of $SOURCE"
    fresh_copy_of_base "$BASE"
    bind_system_folders
    give_host_package_settings "$ROOT"
    mkdir -p "$ROOT$PROJECT"
    git -C "$SOURCE" archive --format=tar HEAD | tar -C "$ROOT$PROJECT" -xf -
    echo "      commit $(git -C "$SOURCE" log -1 --format='%h %s')"
    check "the root runs arm64 programs (uname -m: $(in_root uname -m))" \
        test "$(in_root uname -m)" = aarch64
    echo "      $(in_root python3 --version), Debian $(cat "$ROOT/etc/debian_version")"
}

set_up() {
    say "./run.sh setup, as the README says"
    local started=$SECONDS
    if as_host_user "./run.sh setup"; then
        pass "./run.sh setup ($((SECONDS - started)) s)"
    else
        fail "./run.sh setup failed ($((SECONDS - started)) s)"
        return 1
    fi
    check "the venv's stack imports on arm64 (cv2, pyzbar, zxingcpp, kivy, gpiozero, numpy)" \
        in_root "$PROJECT/.venv/bin/python" -c 'import platform, sys, cv2, pyzbar.pyzbar, zxingcpp
import gpiozero, kivy, numpy, companion; sys.exit(platform.machine() != "aarch64")'
    in_root "$PROJECT/.venv/bin/python" -m pip list 2>/dev/null \
        | grep -iE '^(kivy|numpy|opencv[a-z-]*|zxing[a-z-]*|pyzbar|gpiozero|pytest|hypothesis) ' \
        | sed 's/^/      /' || true
}

run_suite() {
    say "./run.sh test, as CI runs it"
    local started=$SECONDS status=0
    # -rA lists every test's outcome at the end.
    as_host_user "./run.sh test -rA" | tee "$SCRATCH/suite.log" || status=$?
    local summary
    # pytest's closing line, e.g. "5 failed, 1055 passed, 8 skipped in 1160.31s (0:19:20)"
    summary=$(grep -E '(passed|failed|error).* in [0-9.]+s' "$SCRATCH/suite.log" | tail -n 1 || true)
    if [ "$status" -eq 0 ]; then
        pass "./run.sh test ($((SECONDS - started)) s): $summary"
    else
        fail "./run.sh test, exit status $status ($((SECONDS - started)) s): $summary"
    fi
    echo "      every test's outcome: $SCRATCH/suite.log"
}

main() {
    require_root
    install_host_packages "${HOST_PACKAGES[@]}"
    enable_emulation
    bootstrap_base
    fresh_root
    set_up && run_suite
    say "Summary: $FAILURES failure(s)"
    [ "$FAILURES" -eq 0 ]
}

main
