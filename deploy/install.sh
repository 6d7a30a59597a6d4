#!/usr/bin/env bash
# Install (or update) the Noah Table Companion as a service that starts at boot on a Raspberry Pi
# with Raspberry Pi OS Bookworm. Run it from the project folder; running it again updates the
# app and changes nothing else. docs/raspberry-pi.md explains every step.
#
#   sudo deploy/install.sh              install or update, then (re)start the app
#   sudo deploy/install.sh --no-start   install and enable at boot, but do not start it now
#   deploy/install.sh --dry-run         print what would be done, change nothing
#   DESTDIR=/tmp/stage deploy/install.sh
#                                       only copy the service files under /tmp/stage (packaging,
#                                       tests): no packages, user, venv or systemctl
#
# What it sets up:
#   Debian packages   libzbar0 (QR decoding), Mesa, mtdev and ALSA (screen, touch, sounds),
#                     python3-venv, polkitd (lets the app's Shut down button ask logind);
#                     python3-picamera2 and python3-lgpio where the Raspberry Pi archive has them
#   user              noah-companion, a system user in the groups video, render, input, gpio
#                     and audio
#   /opt/noah-companion/releases/*, current
#                     the app, in a venv that also sees apt's picamera2 and lgpio, one folder per
#                     version; `current` names the one in use (`sudo noah-companion update`)
#   /var/lib/noah-companion    config, game history, Kivy's files (kept on updates)
#   /etc/systemd/system/noah-companion.service, noah-companion-rollback.service (goes back to
#                     the previous version after a failed update), /etc/default/noah-companion
#                     (kept if edited),
#   /usr/local/bin/noah-companion (`sudo noah-companion doctor` runs as the service does),
#   /usr/local/share/doc/noah-companion/raspberry-pi.md (the guide, for `systemctl help`)
#   /etc/polkit-1/rules.d/50-noah-companion.rules (Settings > Shut down may power the Pi off),
#   /etc/udev/rules.d/90-noah-companion-backlight.rules (Settings > Brightness may set the
#                     screen's backlight: the video group may write it)
set -euo pipefail

APP_USER=noah-companion
PREFIX=/opt/noah-companion
STATE_DIR=/var/lib/noah-companion
UNIT=noah-companion.service
ROLLBACK_UNIT=noah-companion-rollback.service  # the unit's OnFailure=: back after a failed update
GUIDE=/usr/local/share/doc/noah-companion/raspberry-pi.md  # the unit's Documentation=
POLKIT_RULE=/etc/polkit-1/rules.d/50-noah-companion.rules
UDEV_RULE=/etc/udev/rules.d/90-noah-companion-backlight.rules
DEVICE_GROUPS=(video render input gpio audio)
# libgl1: Kivy's SDL2 window cannot load without libGL.so.1, even on KMS/DRM; libasound2: sounds;
# DejaVu and Noto CJK: the fonts of the English/French and the Chinese screens.
APT_PACKAGES=(python3 python3-venv libzbar0 libmtdev1 libgl1 libegl1 libgles2 libgbm1
              libgl1-mesa-dri libasound2 fonts-dejavu-core fonts-noto-cjk polkitd)
# From the Raspberry Pi archive: installed when apt knows them (a USB camera and mock lights
# work without them).
APT_PACKAGES_PI=(python3-picamera2 python3-lgpio)

SOURCE=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
DESTDIR=${DESTDIR:-}
DRY_RUN=0
START=1

say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command that changes the system, or only show it with --dry-run.
run() {
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '+'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

# Write a small file, or only show it with --dry-run.
write_file() {  # write_file PATH TEXT
    if [ "$DRY_RUN" -eq 1 ]; then
        printf '+ write %s: %s\n' "$1" "$2"
    else
        printf '%s\n' "$2" >"$1"
    fi
}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --dry-run) DRY_RUN=1 ;;
            --no-start) START=0 ;;
            -h | --help) usage; exit 0 ;;
            *) die "unknown option '$1'. Run: deploy/install.sh --help" ;;
        esac
        shift
    done
}

check_system() {
    if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -f "$SOURCE/deploy/systemd/$UNIT" ]; then
        die "run this script from a copy of the project (it needs pyproject.toml next to deploy/)."
    fi
    [ -n "$DESTDIR" ] && return 0
    if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
        die "this needs administrator rights. Run: sudo $0"
    fi
    command -v apt-get >/dev/null \
        || die "apt-get not found: this script is for Raspberry Pi OS or Debian 12 (Bookworm)."
}

is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
apt_knows() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [0-9]'; }

install_packages() {
    local missing=() wanted=() pkg
    for pkg in "${APT_PACKAGES[@]}" "${APT_PACKAGES_PI[@]}"; do
        is_installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "Debian packages: all present"
        return 0
    fi
    run apt-get update -qq  # a fresh SD card may not know the Raspberry Pi archive's packages yet
    for pkg in "${missing[@]}"; do
        if [[ " ${APT_PACKAGES_PI[*]} " == *" $pkg "* ]] && ! apt_knows "$pkg"; then
            warn "$pkg is not available here (it comes from the Raspberry Pi archive); skipped."
        else
            wanted+=("$pkg")
        fi
    done
    [ ${#wanted[@]} -eq 0 ] && return 0
    say "Installing Debian packages: ${wanted[*]}"
    # --no-install-recommends: libzbar0's recommendations alone pull in ImageMagick and Ghostscript.
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${wanted[@]}"
}

python_ok() { python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }

create_user() {
    if id "$APP_USER" >/dev/null 2>&1; then
        say "User $APP_USER: exists"
    else
        say "Creating the system user $APP_USER"
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Noah Table Companion" "$APP_USER"
    fi
    local group present=() absent=()
    for group in "${DEVICE_GROUPS[@]}"; do
        if getent group "$group" >/dev/null; then present+=("$group"); else absent+=("$group"); fi
    done
    [ ${#present[@]} -gt 0 ] && run usermod --append --groups "$(IFS=,; echo "${present[*]}")" "$APP_USER"
    if [ ${#absent[@]} -gt 0 ]; then
        warn "no group ${absent[*]} on this system, so the app cannot use the devices it would" \
             "own (normal off a Raspberry Pi; the lights then need mock pins)."
    fi
    return 0
}

# pip must not replace apt's numpy: picamera2's simplejpeg is built against it, and a pip numpy 2
# (which a new OpenCV wheel pulls in) breaks the camera. Pin pip to the system's version.
write_constraints() {
    local numpy_version
    numpy_version=$(/usr/bin/python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null) || true
    if [ -n "$numpy_version" ]; then
        say "Keeping the system's numpy $numpy_version in the venv"
        write_file "$PREFIX/constraints.txt" "numpy==$numpy_version"
    else
        write_file "$PREFIX/constraints.txt" "# no system numpy: pip chooses"
    fi
}

# The app itself, the way every later update installs it (companion/update.py, run by the
# system's Python from this folder): a new release beside the running one under
# $PREFIX/releases, checked (its doctor and a seeded game), then `current` switched to it with
# one atomic rename, the service restarted and watched for a minute. The first time, nothing
# runs yet; running the installer again is an update, with the same way back.
install_app() {
    run install -d -m 0755 "$PREFIX"
    write_constraints
    say "Installing the app beside the running one in $PREFIX/releases (a few minutes the first time)"
    local options=(--from "$SOURCE" --prefix "$PREFIX")
    [ "$START" -eq 1 ] || options+=(--no-restart)
    run env PYTHONPATH="$SOURCE" python3 -m companion.update "${options[@]}"
    # The single venv of installers before releases: the service no longer uses it.
    if [ -d "$PREFIX/venv" ] && [ -L "$PREFIX/current" ]; then
        say "Removing the old $PREFIX/venv (the app runs from $PREFIX/current now)"
        run rm -rf "$PREFIX/venv"
    fi
}

# Copy a file only when it changed, and say which.
put() {
    local mode=$1 from=$2 to=$DESTDIR$3
    if [ -f "$to" ] && cmp -s "$from" "$to"; then
        echo "    unchanged $3"
        return 0
    fi
    run install -D -m "$mode" "$from" "$to"
    [ "$DRY_RUN" -eq 1 ] || echo "    installed $3"
}

# A settings file the club may have edited: never overwritten; the new default goes next to it.
put_config() {
    local from=$1 to=$DESTDIR$2
    if [ -f "$to" ] && ! cmp -s "$from" "$to"; then
        run install -D -m 0644 "$from" "$to.dist"
        warn "$2 was edited here and is kept; the new default is in $2.dist"
        return 0
    fi
    put 0644 "$from" "$2"
}

install_files() {
    say "Installing the service files"
    put 0644 "$SOURCE/deploy/launch.py" "$PREFIX/launch.py"
    put 0644 "$SOURCE/deploy/systemd/$UNIT" "/etc/systemd/system/$UNIT"
    put 0644 "$SOURCE/deploy/systemd/$ROLLBACK_UNIT" "/etc/systemd/system/$ROLLBACK_UNIT"
    put_config "$SOURCE/deploy/systemd/noah-companion.env" /etc/default/noah-companion
    put 0755 "$SOURCE/deploy/files/noah-companion-admin.sh" /usr/local/bin/noah-companion
    put 0644 "$SOURCE/docs/raspberry-pi.md" "$GUIDE"
    # Settings > Shut down (polkit lets the service's user ask logind to power off, nothing
    # else) and Settings > Brightness (udev lets the video group write the backlight).
    put 0644 "$SOURCE/deploy/files/50-noah-companion.rules" "$POLKIT_RULE"
    put 0644 "$SOURCE/deploy/files/90-noah-companion-backlight.rules" "$UDEV_RULE"
    # The state directory, with the folders of the config file (so that it can be edited before
    # the app first writes it) and of the record (Kivy's files go there too).
    run install -d -m 0750 "$DESTDIR$STATE_DIR" "$DESTDIR$STATE_DIR/config/noah-companion" \
        "$DESTDIR$STATE_DIR/data/noah-companion"
    [ -n "$DESTDIR" ] || run chown -R "$APP_USER:$APP_USER" "$STATE_DIR"
}

systemd_running() { [ -d /run/systemd/system ]; }

enable_service() {
    if systemd_running; then
        run systemctl daemon-reload
        # The backlight rule for the screen already there (it applies by itself at each boot).
        run udevadm control --reload
        run udevadm trigger --subsystem-match=backlight --action=add
    fi
    run systemctl enable --quiet "$UNIT"
    say "The app now starts at boot"
    if [ "$START" -eq 1 ] && ! systemd_running; then
        warn "systemd is not running here (a chroot or container): the app starts at the next boot."
    fi
}

main() {
    parse_args "$@"
    check_system
    if [ -n "$DESTDIR" ]; then
        install_files
        say "Service files staged under $DESTDIR"
        return 0
    fi
    install_packages
    python_ok || die "Python 3.11 or newer is needed (found: $(python3 --version 2>&1))." \
        "Use Raspberry Pi OS Bookworm."
    create_user
    install_files
    enable_service
    install_app  # (re)starts the service on the new version, and watches it
    [ "$START" -eq 1 ] && systemd_running && say "Watch it with: sudo journalctl -u noah-companion -f"
    say "Done. Check the set-up with: sudo noah-companion doctor"
}

main "$@"
