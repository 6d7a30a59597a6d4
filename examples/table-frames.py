"""Render examples/table-frames/: overhead frames of a Noah table, as the table view sees it.

Each frame is what a Camera Module 3 (standard lens) 75 cm above the table gives, scaled to
3072 × 1728 and saved as JPEG (3 px per sticker module; the full 4608 × 2592 gives 4.5, but its
files are larger than an example should be): the five ferry mats and the Noah marker of the table
kit, stacks of stickered cards (squared, fanned, askew), in a row, an arc and around a board, with
a hand, a lamp's glare and a tilted camera. Read them with::

    noah-companion table scan --source examples/table-frames
    noah-companion table scan --source examples/table-frames --json

``expected.jsonl`` holds what a perfect reader says of each (the renderer's ground truth).
Re-render them (deterministic) with ``.venv/bin/python examples/table-frames.py``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

FOLDER = Path(__file__).with_suffix("")
FRAMES = (  # file name, variation, seed
    ("1-row.jpg", {"layout": "row"}, 11),
    ("2-arc-tilted.jpg", {"layout": "arc", "tilt_deg": 8.0}, 12),
    ("3-board.jpg", {"layout": "board"}, 13),
    ("4-row-hand.jpg", {"layout": "row", "hand": True}, 14),
    ("5-arc-glare-soft.jpg", {"layout": "arc", "glare": True, "blur": 1.1}, 15),
)


def main(folder: Path = FOLDER) -> None:
    import cv2

    from vision.table_kit import FERRIES
    from vision.table_render import OverheadCamera, Variation, render_table, varied_scene

    camera = OverheadCamera(width=3072, height=1728)
    folder.mkdir(exist_ok=True)
    lines = []
    for name, settings, seed in FRAMES:
        scene = replace(varied_scene(seed, Variation(**settings)), noise=1.5)
        shot = render_table(scene, camera)
        cv2.imwrite(str(folder / name), shot.frame, [cv2.IMWRITE_JPEG_QUALITY, 93])
        truth = shot.truth
        ferries = {str(k): {"seen": truth.ferries[k].mat_in_view,
                            "top": truth.ferries[k].top if truth.ferries[k].top_visible
                            and not truth.ferries[k].hand_over else None} for k in FERRIES}
        lines.append({"frame": name, "ferries": ferries,
                      "noah": truth.noah if truth.noah_visible else None})
    (folder / "expected.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    total = sum(p.stat().st_size for p in folder.glob("*.jpg"))
    print(f"wrote {len(FRAMES)} frames to {folder} ({total // 1024} KiB)")


if __name__ == "__main__":
    main()
