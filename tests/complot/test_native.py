"""The optional compiled build of the Complot engine (companion/complot/native.py): imported
only when made from exactly these sources, and then the same games bit for bit.

The suite itself runs the pure modules (tests/conftest.py); the one test below that needs a
build plays it in a child process and is skipped where ``./run.sh setup`` could not make one
(no gcc or Python headers). Nothing here compiles: the build is setup's job."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.complot import native

ROOT = Path(__file__).resolve().parents[2]
AUDIT = Path(__file__).with_name("contract_audit.jsonl")


def seeded_fingerprint() -> str:
    """One SHA-256 over seeded games (levels 1–3, 2, 4 and 6 players, invariant checks on,
    one narrated in French), their logs replayed, and the judge's verdicts on the contract
    audit (C94): what a compiled build must reproduce exactly."""
    from companion.complot.judge import judge_line
    from companion.complot.simulate import play_game
    from companion.complot.tablelog import replay

    digest = hashlib.sha256()
    for level in (1, 2, 3):
        for players in (2, 4, 6):
            report = play_game(f"native:{level}:{players}", players, level, target=150)
            digest.update(repr((report.problem, report.scores, report.winners, report.manches,
                                report.turns, report.claims, report.log)).encode())
            digest.update(repr(list(replay(report.log.splitlines()))).encode())
    narrated = play_game("native:told", 3, 3, target=60, narrate_in="fr")
    digest.update(repr(narrated.narration).encode())
    for line in AUDIT.read_text(encoding="utf-8").splitlines():
        digest.update(repr(judge_line(line)).encode())
    return digest.hexdigest()


_CHILD = """
from companion.complot import native
from tests.complot.test_native import seeded_fingerprint
print(native.kind(), seeded_fingerprint())
"""


@pytest.mark.skipif(native.usable_build() is None,
                    reason="no compiled build here (./run.sh setup makes one where gcc is found)")
def test_the_compiled_build_plays_the_same_games_C1_C52_C94():
    """The compiled modules and the pure ones (one in a child process, the other in this
    one: the pure ones in the suite) give the same games, replays and verdicts (C1, C52:
    with the invariant checks)."""
    other = "compiled" if native.kind() == "pure" else "pure"
    env = {**os.environ, native.PURE_ENV: "1" if other == "pure" else ""}
    done = subprocess.run([sys.executable, "-c", _CHILD], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    kind, fingerprint = done.stdout.split()
    assert kind == other
    assert fingerprint == seeded_fingerprint()


@pytest.fixture
def sources(tmp_path, monkeypatch) -> Path:
    """A copy of the compiled modules' sources and a build made from them (empty files in
    the place of the compiled ones: what is tested is the choice, not the import)."""
    copy = tmp_path / "sources"
    copy.mkdir()
    for name in native.COMPILED:
        shutil.copy(Path(native.__file__).with_name(f"{name}.py"), copy)
    monkeypatch.setattr(native, "_SOURCES", copy)
    monkeypatch.setattr(native, "build_dir", lambda: tmp_path / "build")
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    for path in native._expected_files(tmp_path / "build"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    (tmp_path / "build" / native._STAMP).write_text(native.fingerprint() + "\n")
    return copy


def test_a_build_of_these_sources_comes_first_on_the_package_path(sources, tmp_path):
    path = ["/the/sources"]
    assert native.install(path) == str(tmp_path / "build" / "companion" / "complot")
    assert path == [str(tmp_path / "build" / "companion" / "complot"), "/the/sources"]


def test_a_source_edited_after_the_build_means_pure_python(sources):
    engine = sources / "engine.py"
    engine.write_text(engine.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    path = ["/the/sources"]
    assert native.install(path) is None
    assert path == ["/the/sources"]


def test_a_build_with_a_file_missing_means_pure_python(sources, tmp_path):
    native._expected_files(tmp_path / "build")[0].unlink()
    assert native.usable_build() is None


def test_the_environment_can_ask_for_pure_python(sources, monkeypatch):
    monkeypatch.setenv(native.PURE_ENV, "1")
    path: list[str] = []
    assert native.install(path) is None and path == []


def test_without_a_compiler_the_build_says_why_in_one_line(sources, tmp_path, monkeypatch):
    """setup goes on with pure Python, after one line saying what is missing."""
    (tmp_path / "build" / native._STAMP).unlink()
    monkeypatch.setenv("CC", "no-such-compiler-here")
    said: list[str] = []
    assert native.build(said.append) is False
    assert said == ["Complot engine: pure Python (no C compiler: sudo apt-get install gcc)."]
