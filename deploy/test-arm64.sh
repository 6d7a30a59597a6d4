#!/usr/bin/env bash
# The whole test suite on the Raspberry Pi's platform without a Raspberry Pi: Raspberry Pi OS
# Bookworm is Debian 12 on arm64, so this builds a minimal Debian 12 arm64 root, installs the
# project in it as the README says (`./run.sh setup` in a copy of the committed files), and runs
# `./run.sh test` there (ruff and pytest, as CI runs them), every arm64 program emulated by qemu.
#
#   sudo deploy/test-arm64.sh [SCRATCH_DIR]      default: /var/tmp/noah-arm64
#   sudo SKIP_UPDATE=1 deploy/test-arm64.sh       the suite only, without the update scenario
#   sudo deploy/test-arm64.sh --prepare [SCRATCH_DIR]
#                                               only bootstrap the base root (once), so that a
#                                               later run starts at once
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

PREPARE=0
if [ "${1:-}" = --prepare ]; then
    PREPARE=1
    shift
fi
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
# NOAH_TEST_SLOWNESS: emulated, the suite runs 10-15 times slower; the tests' bounds on a hang
# (never what they check) stretch by that much (companion/ui/driver.py).
as_host_user() {
    in_root env -i HOME=/root LANG=C.UTF-8 TERM=dumb NOAH_TEST_SLOWNESS=15 \
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

# `noah-companion update` for real (a venv, pip, the new version's doctor and seeded game, all
# emulated) into a scratch prefix: a first release, a good update, a broken version refused, a
# power cut in the middle of an update (SIGKILL), and a rollback by hand. The service's part
# (the trial, the rollback unit) needs systemd as PID 1: deploy/test-in-chroot.sh's territory.
UPDATE_PREFIX=/tmp/noah-update
update_in_root() {  # update_in_root LOG [OPTION...]: noah-companion update in the root, as root
    local log=$1
    shift
    as_host_user ".venv/bin/noah-companion update --prefix $UPDATE_PREFIX $*" >"$log" 2>&1
    local status=$?
    sed 's/^/      /' "$log"
    return $status
}
release_link() { readlink "$ROOT$UPDATE_PREFIX/$1" 2>/dev/null || echo none; }

break_a_copy() {  # a copy of the project whose seeded game fails
    rm -rf "$ROOT/tmp/broken"
    mkdir -p "$ROOT/tmp/broken"
    git -C "$SOURCE" archive --format=tar HEAD | tar -C "$ROOT/tmp/broken" -xf -
    printf '\nraise RuntimeError("broken on purpose")\n' >>"$ROOT/tmp/broken/companion/sim/demo.py"
}

cut_the_power_mid_update() {  # SIGKILL to the whole update, while pip writes the new release
    setsid bash -c "chroot '$ROOT' env -i HOME=/root LANG=C.UTF-8 PATH=/usr/bin:/bin \
        $PROJECT/.venv/bin/noah-companion update --prefix $UPDATE_PREFIX" \
        >"$SCRATCH/update-cut.log" 2>&1 &
    local group=$! tries
    for tries in $(seq 900); do  # until the new release's venv exists (the third one)
        [ "$(find "$ROOT$UPDATE_PREFIX/releases" -maxdepth 5 -name site-packages | wc -l)" -ge 3 ] \
            && break
        sleep 1
    done
    sleep 20  # well into pip's work
    kill -KILL -- "-$group" 2>/dev/null || true
    wait "$group" 2>/dev/null || true
    echo "      cut after ${tries} s + 20 s; the update had printed: $(tr '\n' ' ' <"$SCRATCH/update-cut.log")"
}

update_scenario() {
    say "noah-companion update: good, broken, power cut, rollback (real builds, emulated)"
    local started=$SECONDS first second
    check "a first release built, checked (doctor, seeded game) and switched to" \
        update_in_root "$SCRATCH/update-first.log" --from "$PROJECT"
    first=$(release_link current)
    update_in_root "$SCRATCH/update-good.log" || true
    second=$(release_link current)
    check "a good update: a new release is current, the first one previous" \
        test "$second" != "$first" -a "$(release_link previous)" = "$first"
    break_a_copy
    if update_in_root "$SCRATCH/update-broken.log" --from /tmp/broken; then
        fail "a broken version was switched to"
    else
        check "a broken version is refused, the running one stays" \
            test "$(release_link current)" = "$second"
    fi
    cut_the_power_mid_update
    check "after the power cut the current release is still the one before" \
        test "$(release_link current)" = "$second"
    check "after the power cut the current release is whole: it starts" \
        in_root "$UPDATE_PREFIX/current/venv/bin/noah-companion" --version
    update_in_root "$SCRATCH/update-rollback.log" --rollback --db /tmp/none.sqlite || true
    check "update --rollback by hand: the first release is current again" \
        test "$(release_link current)" = "$first"
    echo "      (the update scenario took $((SECONDS - started)) s)"
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
    if [ "$PREPARE" -eq 1 ]; then
        say "The base root is ready in $BASE"
        return 0
    fi
    fresh_root
    if [ "${SKIP_UPDATE:-0}" = 1 ]; then
        set_up && run_suite
    else
        set_up && update_scenario && run_suite
    fi
    say "Summary: $FAILURES failure(s)"
    [ "$FAILURES" -eq 0 ]
}

main
