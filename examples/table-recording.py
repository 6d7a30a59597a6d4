"""Render examples/table-recording/: a short recorded game for ``noah-companion table referee``.

The overhead camera of the table kit in its 2×2-binned mode (2304 × 1296, a Camera Module 3 75 cm
above the table: about 2.3 px per sticker module) films a seeded game of the table-view demo
(:func:`companion.sim.table_demo.run_table_demo`): the bare kit, Noah's marker put beside a mat,
the five starting animals laid one at a time on ferries 1 to 5, then a play (a hand passes
over the ferry), a move of Noah's marker and a snail laid on his new ferry. Every change is
followed by two still frames, each with its own sensor noise (TABLE-KIT.md, "Refereeing a
recording"). Saved as JPEG
(quality 85; the lens a little soft), with:

* ``answers.jsonl`` — what the camera cannot see: who begins, the snail's side;
* ``true-log.jsonl`` — the game's true table log;
* ``expected-events.jsonl`` — what ``table referee --json`` prints for it.

Referee it with::

    noah-companion table referee --source examples/table-recording --players Ana,Ben,Chloé \\
        --answers examples/table-recording/answers.jsonl --log game.jsonl

Re-render it (deterministic) with ``.venv/bin/python examples/table-recording.py``.
"""

from __future__ import annotations

import io
from pathlib import Path

FOLDER = Path(__file__).with_suffix("")
PLAYERS = ("Ana", "Ben", "Chloé")
SEED = 1
ACTIONS = 3  # plays and Noah moves after the deal
NOISE = 1.0  # grey levels: binning averages four sensor pixels, well under the full mode's noise
BLUR = 0.85  # a little soft (the kit allows it): the cloth's fine weave then costs fewer bytes


def main(folder: Path = FOLDER) -> None:
    from companion.sim.recording import ANSWERS, TRUE_LOG, GameRecording, compare_logs, read_log
    from companion.sim.table_demo import run_table_demo
    from companion.table_referee import Answers, referee_recording
    from vision.table_render import OverheadCamera

    for old in folder.glob("*.jpg"):
        old.unlink()
    run_table_demo(seed=SEED, players=PLAYERS, max_actions=ACTIONS, quiet=True,
                   out=io.StringIO(), camera=OverheadCamera(width=2304, height=1296),
                   noise=NOISE, blur=BLUR, recording=GameRecording(folder, quality=85),
                   hand_at_setup=False)
    run = referee_recording(str(folder), PLAYERS, options=None,
                            answers=Answers.read(folder / ANSWERS))
    true_log = (folder / TRUE_LOG).read_text(encoding="utf-8")
    match = compare_logs(read_log(true_log), read_log(run.log))
    if run.status or run.log != true_log:
        raise SystemExit(f"the referee does not give the true log: {match}")
    (folder / "expected-events.jsonl").write_text(
        "".join(event.to_json() + "\n" for event in run.events), encoding="utf-8")
    size = sum(p.stat().st_size for p in folder.iterdir())
    print(f"wrote {run.frames} frames to {folder} ({size // 1024} KiB); the referee gives the "
          f"true log: {match['right']}")


if __name__ == "__main__":
    main()
