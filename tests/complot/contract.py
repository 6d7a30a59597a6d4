"""Where the tests find RULINGS-COMPLOT.md: the team's shared folder beside the repository
(``../shared``, as on the team's machines and CI), else ``/work/shared``. A checkout without it
(the emulated Raspberry Pi root of deploy/test-arm64.sh copies the repository alone) skips the
tests that read the contract's own text, and says why."""

from pathlib import Path

import pytest

PLACES = (Path(__file__).resolve().parents[2].parent / "shared", Path("/work/shared"))


def contract_text() -> str:
    """The contract's text, or the test is skipped (with where it was looked for)."""
    for folder in PLACES:
        path = folder / "RULINGS-COMPLOT.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip("RULINGS-COMPLOT.md is not beside this checkout (looked in "
                + ", ".join(map(str, PLACES)) + ")")
