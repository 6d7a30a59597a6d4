"""The optional compiled build of the Complot engine and its simulated players (mypyc).

``./run.sh setup`` compiles the modules of :data:`COMPILED` with mypyc (from mypy, a test
dependency) into :func:`build_dir`, inside the virtual environment whose Python it is built
for, never into the source tree. :mod:`companion.complot` then imports them instead of the
``.py`` files **only when the build was made from exactly these sources**: the build records
a SHA-256 of the sources, the Python it was built for and the build's file names
(:func:`fingerprint`); any edit of a compiled module, another Python or a missing file, and
the package imports the pure Python modules, which give the same games bit for bit
(tests/complot/test_native.py). A machine without a C compiler or Python's headers (a
Raspberry Pi as deploy/install.sh sets it up) simply runs pure Python.

``NOAH_COMPLOT_PURE=1`` in the environment imports the pure modules even when a build is
there (to compare the two). :func:`kind` says which ones this process runs, :func:`status`
the same for people (``compiled (mypyc build of 10 modules in …/.venv/complot-native)``);
``./run.sh setup`` calls ``main(["build"])``.

This module itself is never compiled: it decides, and it stays importable on any machine.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import IdentityFunction

#: The modules compiled, all the simulate path imports but the sticker payloads (a mypyc
#: native dataclass there breaks a field order CPython accepts) and the interpreted table.
COMPILED = ("actions", "cards", "combos", "engine", "invariants", "judge", "messages",
            "narrate", "state", "simulate")
#: The environment variable that asks for the pure Python modules.
PURE_ENV = "NOAH_COMPLOT_PURE"
#: mypyc's shared library of the build, one module of this package (so that it is found
#: through the package's path like the compiled modules).
_GROUP = "companion.complot.native_lib"
_STAMP = "fingerprint.txt"
_SOURCES = Path(__file__).resolve().parent


def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
    """mypy_extensions' decorator when mypy is not installed: it only speaks to mypyc.

    >>> mypyc_attr(allow_interpreted_subclasses=True)(int) is int
    True
    """
    def same(thing: object) -> object:
        return thing
    return same  # type: ignore[return-value]  # IdentityFunction is a generic protocol


def build_dir() -> Path:
    """Where the build goes: the running environment's own folder (``.venv``), since the
    compiled files fit only its Python."""
    return Path(sys.prefix) / "complot-native"


def fingerprint() -> str:
    """What a build must have been made from: the compiled sources, the Python's version
    and its extension suffix."""
    digest = hashlib.sha256(f"{sys.version}\0{_ext_suffix()}\0".encode())
    for name in COMPILED:
        digest.update(name.encode() + b"\0" + (_SOURCES / f"{name}.py").read_bytes())
    return digest.hexdigest()


def _ext_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX"))


def _expected_files(folder: Path) -> list[Path]:
    package = folder / "companion" / "complot"
    suffix = _ext_suffix()
    return [package / f"{name}{suffix}" for name in (*COMPILED, "native_lib__mypyc")]


def usable_build() -> Path | None:
    """The build's package folder if it was made from these very sources, else None."""
    folder = build_dir()
    try:
        stamp = (folder / _STAMP).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if stamp != fingerprint() or not all(path.is_file() for path in _expected_files(folder)):
        return None
    return folder / "companion" / "complot"


def install(package_path: list[str]) -> str | None:
    """Put a usable build first on ``package_path`` (the package's ``__path__``), so that the
    compiled modules are imported instead of the sources; the folder, or None (pure)."""
    if os.environ.get(PURE_ENV):
        return None
    folder = usable_build()
    if folder is None:
        return None
    package_path.insert(0, str(folder))
    return str(folder)


def kind() -> str:
    """``"compiled"`` or ``"pure"``: what this process imported."""
    from . import engine
    return "compiled" if not engine.__file__ or not engine.__file__.endswith(".py") else "pure"


def status() -> str:
    """One line for people: what runs and, when it is pure Python, why."""
    if kind() == "compiled":
        return f"compiled (mypyc build of {len(COMPILED)} modules in {build_dir()})"
    if os.environ.get(PURE_ENV):
        return f"pure Python ({PURE_ENV} is set)"
    if not (build_dir() / _STAMP).exists():
        return "pure Python (no compiled build: ./run.sh setup makes one where gcc is found)"
    if usable_build() is None:
        return "pure Python (the compiled build is stale: ./run.sh setup rebuilds it)"
    return "pure Python"


def build(say: Callable[[str], None] = print) -> bool:
    """Compile :data:`COMPILED` with mypyc into :func:`build_dir` unless the build there is
    already made from these sources. False, after one line said why, when it cannot be
    built (no mypyc, no C compiler, no Python headers, a compile error): the package then
    runs pure Python."""
    import shutil  # (here: every import of the package comes through this module)
    import tempfile

    if usable_build() is not None:
        return True
    problem = _missing_tools()
    if problem:
        say(f"Complot engine: pure Python ({problem}).")
        return False
    folder = build_dir()
    with tempfile.TemporaryDirectory(prefix="complot-native-") as scratch:
        staging = Path(scratch) / "out"
        try:
            _compile(Path(scratch), staging)
        except (Exception, SystemExit) as error:  # mypyc and setuptools fail in many ways
            say(f"Complot engine: pure Python (the compiled build failed: {error}).")
            return False
        (staging / _STAMP).write_text(fingerprint() + "\n", encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(staging, folder)
    say(f"Complot engine: compiled with mypyc into {folder}.")
    return True


def _missing_tools() -> str | None:
    import shutil

    if shutil.which(os.environ.get("CC", "cc")) is None:
        return "no C compiler: sudo apt-get install gcc"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers: sudo apt-get install python3-dev"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed: .venv/bin/pip install -e '.[test]'"
    return None


def _compile(scratch: Path, staging: Path) -> None:
    """mypyc's C files into ``scratch``, the extension modules into ``staging``."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    root = _SOURCES.parent.parent
    sources = [str(_SOURCES / f"{name}.py") for name in COMPILED]
    cwd = Path.cwd()
    os.chdir(root)  # mypy reads pyproject.toml's [tool.mypy] and names modules from here
    try:
        # (the config's sections for modules outside the build would fail it as unused)
        extensions = mypycify(["--no-warn-unused-configs", *sources], opt_level="3",
                              group_name=_GROUP, target_dir=str(scratch / "c"))
        distribution = Distribution({"name": "complot-native", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(staging)  # type: ignore[attr-defined]
        command.build_temp = str(scratch / "objects")  # type: ignore[attr-defined]
        distribution.run_command("build_ext")
    finally:
        os.chdir(cwd)
    missing = [path.name for path in _expected_files(staging) if not path.is_file()]
    if missing:
        raise RuntimeError(f"missing after the build: {', '.join(missing)}")


def main(argv: list[str]) -> int:
    """``["build"]`` (./run.sh setup) or ``["status"]``; 2 for anything else."""
    if argv == ["build"]:
        build()
        return 0  # a failed build is not an error: pure Python runs the same games
    if argv == ["status"]:
        print(status())
        return 0
    print("usage: main(['build']) or main(['status'])", file=sys.stderr)
    return 2
