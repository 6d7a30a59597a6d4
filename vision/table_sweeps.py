"""The table view's "never wrong" guard sweeps (issue 19): scenes built so that a buried card's
code shows, whole or nearly, beside or under the card that covers it — in dim light, noise, glare,
a short exposure — and read by the reader as the app reads a frame. A sweep passes when no buried
code is named the top card; its controls (the same scenes with nothing over the code) say the
sweep reaches codes the reader does read, so it can fail.

Until this module, the sweeps lived in scratch scripts outside the repository and were lost with
them; each is now a function of this seam, run by ``noah-companion bench sweeps``, whose JSON lines
compare two versions of the reader scene by scene.

The seam (python-chess's variants are the model: one small type, many siblings):

- a sweep is a function ``(reader, px_per_module) -> Iterator[SweepResult]``, registered by name
  in a module's ``SWEEPS`` mapping;
- :data:`SWEEP_MODULES` lists the modules that hold sweeps, imported when a sweep runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from vision.table import TableReader
from vision.table_kit import QR_MODULES_MM
from vision.table_render import CARD_MM, STICKER_AT, STICKER_CODE_MM, OverheadCamera

Kind = Literal["buried", "control"]


@dataclass(frozen=True)
class SweepResult:
    """One scene of a sweep, read.

    ``key``: the scene's name, stable across versions of the reader and unique in its sweep (its
    parameters, e.g. ``"left/0.75/-7/light0.45/noise6/blur1.1"``): two runs are compared key by
    key. ``kind``: ``"buried"`` — a card lies over (or beside) the code, which must never be named
    the top; ``"control"`` — nothing covers the code, which the reader should name.
    ``decoded``: the code's text was decoded somewhere on its ferry (the scene reached the
    top-card test). ``named``: the code was named the ferry's top card — for a buried scene, a
    wrong top. ``detail``: anything a reader of the log needs (measured distances, which look
    named it), JSON-serialisable.
    """

    key: str
    kind: Kind
    decoded: bool
    named: bool
    detail: Mapping[str, object] = field(default_factory=dict)

    @property
    def wrong(self) -> bool:
        """A buried code named the top card."""
        return self.kind == "buried" and self.named


Sweep = Callable[[TableReader, float], Iterator[SweepResult]]
"""A guard sweep: its scenes rendered at ``px_per_module`` (3: the reader's normal path; 2.3: the
binned mode's, enlarged before decoding) and read by ``reader``."""

SWEEP_MODULES: tuple[str, ...] = ("vision.table_sweeps_glare",)
"""The modules holding sweeps, each with a ``SWEEPS: Mapping[str, Sweep]``."""


# -- the overlap sweeps' scene: one mat, a buried card, a card laid over or beside its code --------

SWEEP_CAMERA = OverheadCamera(width=640, height=720, height_mm=750.0 * 640 / 3072)
"""One mat under a camera of 3 px per module (CAMERA's scale, a small field): cheap frames."""
BURIED = "NOAH1/BOX1/CAF1"


def overlap_positions(depths: tuple[float, ...] = (0.75, 1.5, 3.0)
                      ) -> list[tuple[str, float, float, float]]:
    """(side, depth in modules, card offset dx, dy): a card without a visible sticker laid so
    that its edge runs ``depth`` modules into the buried card's code from one side, or into
    one corner of it (both edges); a negative depth lays the edge that far outside the code,
    over its quiet zone alone."""
    card_w, card_h = CARD_MM[0] / 2, CARD_MM[1] / 2
    code_x, code_y = STICKER_AT[0] - card_w, STICKER_AT[1] - card_h  # from the card's centre
    half = STICKER_CODE_MM / 2
    positions = []
    for depth in depths:
        d = depth * QR_MODULES_MM
        left, right = code_x - half + d - card_w, code_x + half - d + card_w
        above, below = code_y - half + d - card_h, code_y + half - d + card_h
        positions += [("left", depth, left, 0.0), ("right", depth, right, 0.0),
                      ("above", depth, 0.0, above), ("below", depth, 0.0, below)]
        if depth > 1 or depth < 0:  # a corner one module deep hides less than one module
            positions.append(("corner", depth, right, below))
    return positions
