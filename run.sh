#!/usr/bin/env bash
# The project's single entry point. It sets this machine up when needed (Debian packages and a
# virtual environment in .venv, both from this repository's own lists), then runs a command:
#
#   ./run.sh demo        a whole simulated game through the real pipeline (no Pi, camera or screen)
#   ./run.sh test        the whole test suite (ruff, mypy, pytest), as CI runs it
#   ./run.sh setup       only the set-up
#   ./run.sh ARGS...     any noah-companion command, e.g. ./run.sh replay examples/three-players.jsonl
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

# Debian 12 packages: zbar for pyzbar, poppler for rasterising sticker sheets in tests, Mesa and
# Xvfb for Kivy without a screen, mtdev for Kivy's touch provider, DejaVu for the ♂/♀ glyphs,
# Noto CJK for the Chinese screens, chromium and its driver for the LAN page's browser tests,
# gcc and Python's headers for the optional compiled build of the Complot engine (below).
APT_PACKAGES=(libzbar0 poppler-utils xvfb xauth libgl1 libegl1 libgl1-mesa-dri libmtdev1
              fonts-dejavu-core fonts-noto-cjk chromium chromium-driver gcc python3-dev)
VENV=.venv
STAMP="$VENV/.installed"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# The interpreter of the virtual environment: Debian's own python3 when it is 3.11 or newer,
# else the first python3 on PATH. Debian's is the one a Raspberry Pi runs the app with (apt's
# picamera2 and lgpio are built for it), and Debian builds it with profile-guided and link-time
# optimisation: a python3 built by pyenv earlier on PATH (shared library, no PGO) took about a
# tenth more CPU for the test suite on this kind of machine, a fifth more for a pure Python loop
# (docs/benchmarks.md).
SYSTEM_PYTHON=/usr/bin/python3
python_for_venv() {
    if "$SYSTEM_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "$SYSTEM_PYTHON"
    else
        command -v python3 || echo python3
    fi
}
PYTHON=$(python_for_venv)

install_apt_packages() {
    local missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
    done
    "$PYTHON" -c "import ensurepip, venv" 2>/dev/null || missing+=(python3-venv)
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    say "Installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

check_python() {
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Python 3.11 or newer is needed (found: $("$PYTHON" --version 2>&1))." >&2
        echo "On Debian 12 or Raspberry Pi OS Bookworm: sudo apt-get install python3" >&2
        exit 1
    fi
}

setup() {
    check_python
    install_apt_packages
    local want
    want="$(sha256sum pyproject.toml | cut -d' ' -f1) $PYTHON"
    if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ] && [ -x "$VENV/bin/noah-companion" ]; then
        return 0
    fi
    if [ -f "$VENV/pyvenv.cfg" ] && ! venv_made_by "$PYTHON"; then
        say "Making $VENV again with $PYTHON (it was made with another Python)"
        rm -rf "$VENV"
    fi
    say "Creating the virtual environment in $VENV (first run only)"
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e ".[test]"
    echo "$want" > "$STAMP"
    build_complot_native
}

# Whether the environment's interpreter is $1 (pyvenv.cfg names the folder it came from).
venv_made_by() {
    local home
    home=$(sed -n 's/^home = //p' "$VENV/pyvenv.cfg")
    [ "$(readlink -f "$home/$(basename "$1")")" = "$(readlink -f "$1")" ]
}

# The Complot engine and its simulated players compiled with mypyc into $VENV/complot-native
# (companion/complot/native.py, docs/complot.md): made with the environment and by
# `./run.sh setup`, never by the other commands (about 25 s of CPU). An engine edited since
# is not imported from the build: the pure modules run, with the same games, until the next
# `./run.sh setup`. Without gcc or Python's headers, one line says so and the set-up goes on.
build_complot_native() {
    local log="$VENV/complot-native.log" line
    "$VENV/bin/python" -c 'from companion.complot.native import main; main(["build"])' \
        > "$log" 2>&1 || echo "Complot engine: pure Python (the build stopped)." >> "$log"
    line=$(grep '^Complot engine: ' "$log" | tail -n 1 || true)
    case "$line" in
        "") ;;  # already built from these very sources
        *failed* | *stopped*) say "$line See $log." ;;
        *) say "$line" ;;
    esac
}

run_tests() {
    "$VENV/bin/ruff" check companion vision hardware tests examples
    # Compiled modules are kept between runs. With PYTHONDONTWRITEBYTECODE set (containers and
    # CI images often set it) both pytest workers and every child process a test starts
    # compiled every module again, and pytest rewrote every test module's asserts again:
    # collection alone took 6 s of CPU a process instead of 2.5 s. (__pycache__ is ignored by
    # git and left out of releases.)
    unset PYTHONDONTWRITEBYTECODE
    # Types: strict for companion/game, vision and hardware, the default level elsewhere
    # (pyproject.toml's [tool.mypy]). mypy checks on one core: it runs beside pytest instead
    # of before it (a cold cache costs about 9 s of CPU), and its report follows pytest's.
    local status=0 types_status=0
    TYPES_LOG=$(mktemp)
    "$VENV/bin/mypy" > "$TYPES_LOG" 2>&1 &
    MYPY_PID=$!
    trap 'kill "$MYPY_PID" 2>/dev/null || true; rm -f "$TYPES_LOG"' EXIT  # pytest interrupted too
    # Kivy renders offscreen through Mesa; its config and logs stay out of the home directory.
    export KIVY_NO_ARGS=1 KIVY_NO_CONSOLELOG=1
    "$VENV/bin/python" -m pytest -q -n 2 --dist worksteal "$@" || status=$?
    wait "$MYPY_PID" || types_status=$?
    sed 's/^/mypy: /' "$TYPES_LOG"
    if [ "$status" -ne 0 ]; then
        return "$status"
    fi
    return "$types_status"
}

cmd=${1:-demo}
[ $# -gt 0 ] && shift
setup
case "$cmd" in
    setup) build_complot_native; say "Set-up complete." ;;
    test) run_tests "$@" ;;
    demo) exec "$VENV/bin/noah-companion" demo "$@" ;;
    *) exec "$VENV/bin/noah-companion" "$cmd" "$@" ;;
esac
