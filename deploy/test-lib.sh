# Shared by deploy/test-in-chroot.sh and deploy/test-arm64.sh (sourced, not run): how they report
# checks, install what they need on this machine, bootstrap a Debian 12 root, give it this
# machine's package settings and run commands in it. The sourcing script sets ROOT.
# shellcheck shell=bash

MIRROR=${MIRROR:-http://deb.debian.org/debian}
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

require_root() {
    [ "$(id -u)" -eq 0 ] || { echo "Run it as root: sudo $0" >&2; exit 1; }
}

install_host_packages() {  # install_host_packages PACKAGE...: those not yet installed, with apt-get
    local package missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
            || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "Installing on this machine: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

bootstrap_bookworm() {  # bootstrap_bookworm TARGET INCLUDED_PACKAGES [DEBOOTSTRAP_OPTION...]
    local target=$1 included=$2
    shift 2
    say "Bootstrapping Debian bookworm into $target (once)"
    debootstrap --variant=minbase --include="$included" "$@" bookworm "$target" "$MIRROR"
}

give_host_package_settings() {  # give_host_package_settings ROOT: DNS, certificates, pip.conf
    # This machine's pip settings and certificates (mirror, proxy, certificate authority), so
    # that apt and pip in the root reach the same packages.
    cp /etc/resolv.conf "$1/etc/resolv.conf"
    mkdir -p "$1/etc/ssl/certs"
    cp /etc/ssl/certs/ca-certificates.crt "$1/etc/ssl/certs/ca-certificates.crt"
    if [ -f /etc/pip.conf ]; then cp /etc/pip.conf "$1/etc/pip.conf"; fi
}

in_root() { chroot "$ROOT" "$@"; }

bind() {  # bind HOST_PATH: mount it at the same place inside the root
    mkdir -p "$ROOT$1"
    mount --bind "$1" "$ROOT$1"
    MOUNTS=("$ROOT$1" "${MOUNTS[@]}")
}

cleanup() {
    local mount_point
    for mount_point in "${MOUNTS[@]}"; do umount -l "$mount_point" 2>/dev/null || true; done
}

fresh_copy_of_base() {  # fresh_copy_of_base BASE: $ROOT becomes a copy of BASE
    # A run that was killed leaves its mounts behind (/dev, /proc...): unmount them first, or
    # rm -rf would empty this machine's own folders through them.
    local mount_point
    findmnt -rn -o TARGET | sort -r | while read -r mount_point; do
        case $mount_point in "$ROOT" | "$ROOT"/*) umount -l "$mount_point" ;; esac
    done
    rm -rf --one-file-system "$ROOT"
    cp -a "$1" "$ROOT"
}

bind_system_folders() {  # /proc, /sys and /dev in the root, unmounted when the script ends
    trap cleanup EXIT
    bind /proc
    bind /sys
    bind /dev
    bind /dev/pts
}
