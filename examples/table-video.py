"""Render examples/table-video.mp4: twenty seconds of a Noah table seen by the camera.

Real sticker images (``companion.tags``, label included) on the virtual table of
:mod:`vision.synthetic`, filmed from 25 cm at 800×450 and 5 frames a second: a card shown and
taken away, one held in view for five seconds, two shown at once, a QR code that is not a
card, a card under a lamp's glare. Play it with::

    noah-companion scan --source examples/table-video.mp4

Re-render it (deterministic) with ``.venv/bin/python examples/table-video.py``.
"""

from __future__ import annotations

from pathlib import Path

FPS = 5
VIDEO = Path(__file__).with_suffix(".mp4")
SCRIPT = (  # (seconds, cards in view by reference, what happens)
    (1.5, (), "an empty table"),
    (2.0, ("cat:F#2",), "a card shown"),
    (1.5, (), "taken away"),
    (5.0, ("lion:M#1",), "a card held in view for five seconds: still one event"),
    (1.5, (), ""),
    (2.5, ("elephant:F#1", "giraffe:M#1"), "two cards at once: the referee asks which"),
    (1.5, (), ""),
    (2.0, ("https://bombyx.fr",), "a QR code that is not a card"),
    (1.5, (), ""),
    (2.0, ("cat:F#2",), "the same card again, under a lamp's glare"),
    (1.0, (), ""),
)


def main(path: Path = VIDEO) -> None:
    import cv2

    from companion.game import default_deck
    from companion.tags.sticker import render_sticker
    from vision.synthetic import Scene, render_frame

    deck = default_deck()
    # no sensor noise and still cards between changes: the file stays small (< 2 MB)
    scene = Scene(width=800, height=450, camera_height_mm=250.0, noise=0.0, seed=5)
    dpi = round(scene.px_per_mm * 25.4)

    def card(ref: str):
        if ref.startswith("https:"):
            return ref
        return render_sticker(deck[ref], "BOX1", size_mm=scene.sticker_mm, dpi=dpi)

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS,
                             (scene.width, scene.height))
    frame_index = 0
    for step, (seconds, refs, _) in enumerate(SCRIPT):
        shot = scene.harder(glare=0.45 if step == 9 else 0.0, rotation_deg=3 * step - 6)
        frame = render_frame([card(ref) for ref in refs], shot)
        for _ in range(round(seconds * FPS)):
            writer.write(frame)
            frame_index += 1
    writer.release()
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {frame_index} frames)")


if __name__ == "__main__":
    main()
