"""The table kit PDF (TABLE-KIT.md, issue 14.1): rasterised as a printer would, every marker
id is found by cv2.aruco, at 20 mm, on A4 and Letter."""

import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from companion.tags.kit import render_kit
from vision.table_kit import MARKER_MM, NOAH_MARKER
from vision.table_markers import find_markers

DPI = 100
pytestmark = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                reason="needs pdftoppm (Debian: poppler-utils)")


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_every_marker_at_its_size(paper, tmp_path):
    (tmp_path / "kit.pdf").write_bytes(render_kit(paper))
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", "kit.pdf", "page"], cwd=tmp_path,
                   check=True)
    pages = [np.asarray(Image.open(p).convert("L")) for p in sorted(tmp_path.glob("page-*"))]
    assert len(pages) == 3
    found = {}
    for page in pages:
        for marker in find_markers(page):
            found[marker.id] = marker.side_px / (DPI / 25.4)
    assert sorted(found) == list(range(NOAH_MARKER + 1))
    for side_mm in found.values():
        assert abs(side_mm - MARKER_MM) < 0.6


def test_kit_print_command(tmp_path, capsys):
    from companion.cli import main

    assert main(["kit", "print", "--out", str(tmp_path / "kit.pdf"), "--paper", "letter"]) == 0
    assert (tmp_path / "kit.pdf").read_bytes().startswith(b"%PDF")
    assert "letter" in capsys.readouterr().out
    assert main(["kit", "print", "--out", str(tmp_path / "no" / "kit.pdf")]) == 2
    assert "Traceback" not in capsys.readouterr().err
