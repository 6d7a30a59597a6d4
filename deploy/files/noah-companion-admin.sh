#!/bin/sh
# `sudo noah-companion COMMAND`: run a noah-companion command as the service's user, with the
# service's settings (/etc/default/noah-companion), so that `doctor`, exports and backups see
# exactly the files, devices and permissions the app sees. `sudo noah-companion update` runs as
# root instead: it installs a new version under /opt/noah-companion and restarts the service.
# Installed by deploy/install.sh as /usr/local/bin/noah-companion.
set -eu
APP_USER=noah-companion
APP=/opt/noah-companion/current/venv/bin/noah-companion

if [ "$(id -u)" -ne 0 ]; then
    echo "noah-companion: run it with sudo, so it runs as the service does: sudo noah-companion $*" >&2
    exit 2
fi
if [ ! -x "$APP" ]; then
    echo "noah-companion: the app is not installed in /opt/noah-companion." \
         "Install it from the project folder: sudo deploy/install.sh" >&2
    exit 2
fi
set -a
# shellcheck source=/dev/null
. /etc/default/noah-companion
set +a
cd /var/lib/noah-companion
if [ "${1:-}" = update ]; then
    exec "$APP" "$@"
fi
exec runuser -u "$APP_USER" -- "$APP" "$@"
