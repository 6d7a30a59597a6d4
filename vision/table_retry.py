"""The last look at a ferry (issue 19, branch tboth): a zone where no look decoded any code.

Every look before it (:meth:`vision.table.TableReader._look_closer`) decodes the zone's crop
as it is, with its highlights pulled down, enlarged, or smoothed round a symbol located and not
read. A clear top card none of them decodes, on the tuned sets, is a dim code half washed out by
a weak highlight (dim side light, a head's shadow: bare whole-frame zxing-cpp misses it too):
zxing-cpp's binarizer sees neither the washed half (too little contrast) nor the dim half as
one code, and locates no symbol, so the smoothed look is not asked. Pulled down, smoothed and
enlarged, the same crop decodes (:func:`washed_redrawn`).

The look is asked only where nothing was decoded in the zone after every other look
(:func:`nothing_decoded`): a zone holding a code, read or located, already has its answer or
its smoothed look, and a cold frame whose tops were read never pays for it. Its codes are
judged by the same verdict as every other look's, on the crop as it is (the smoothing only
helps zxing-cpp decode: it would also soften a card edge across a code), so it can read only
a code that is there and whole: never a guess.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.table_codes import Code, highlights_down, smoothed


def washed_redrawn(crop: np.ndarray) -> np.ndarray:
    """The crop with its highlights pulled down (:func:`vision.table_codes.highlights_down`)
    and then smoothed (:func:`vision.table_codes.smoothed`): a dim code's light modules parted
    from its dark ones again where a weak highlight lifted both, the sensor noise that the
    stretched tones make louder smoothed away. Only decoded (after the reader's enlargement):
    its codes are judged on the crop as it is.

    >>> ramp = np.tile(np.arange(0, 256, 16, dtype=np.uint8), (16, 1))
    >>> redrawn = washed_redrawn(ramp)
    >>> redrawn.shape == ramp.shape, int(redrawn[8, 8]) < int(ramp[8, 8])  # mid-tones darker
    (True, True)
    """
    return smoothed(highlights_down(crop))


def nothing_decoded(looks: Sequence[Sequence[Code]]) -> bool:
    """Whether no look at a zone (``looks``: each look's codes in the zone) decoded any code
    (a symbol located and not read counts as no code: its own smoothed look was asked).

    >>> square = ((0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0))
    >>> nothing_decoded([[], [Code("", square, False, readable=False)]])
    True
    >>> nothing_decoded([[], [Code("A", square, False)]])
    False
    """
    return not any(code.readable for look in looks for code in look)
