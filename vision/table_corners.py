"""A covering card's corner just beside a code's corner, seen by its two straight edges (issue 19;
asked by the short look, :mod:`vision.table_exposure`).

The quiet-zone band (:func:`vision.table_edges.quiet_zone_is_clear`) judges each point by a
module's mean against the paper's level fitted to the code's own light modules. A card whose
corner lies 2–3 modules off the code's corner puts only its thin outline's tip in the band's
corner; a highlight beside the code lifts that tip to the fitted paper's level, and the band
says clear (issue 19's glare sweep with short frames: 0.62 module² darker than paper without
the highlight, 0.12 under one of 0.6 × paper; docs/benchmarks.md, branch ``tshort``).

Here the corner is looked for as a corner: two short legs, each :data:`LEG` modules of the
card's outline, meeting at a point :data:`REACH` modules out from the code's corner along both
sides and running *away* from the code (a card lying beyond the corner), at any of
:data:`ANGLES` degrees. Each leg's mean is compared with the lighter of its two neighbourhoods
(:data:`SIDE` modules either side), so a highlight's smooth light, which lifts the leg and its
neighbours alike, cancels; a corner is seen when both legs lie below it by :data:`EDGE` of the
code's contrast and by :data:`NOISE_Z` standard errors of their means. The sticker's own corner
lies 4 modules out with its edges running back *along* the code: past :data:`REACH`, and
opening the other way.

Under a glow that saturates the code's modules the line look's far shallow lines are left to
the sticker's own edge (:func:`vision.table_edges.card_outline_under_glow`); a card lying beyond
the sticker is then looked for by its corner there (:func:`card_corner_beyond_sticker`): two
legs of :data:`FAR_LEG` modules meeting :data:`BEYOND` modules out from one of the code's sides
— past the sticker's edge — anywhere :data:`ALONG_SIDE` along it, still opening away from the
code, each dark against the corner's inside only (a card lying beyond is light inside its own
outline; the sticker's edge is light on the code's side). Issue 19 §3, branch tcorner: a card
turned 7° about its own middle puts the corner it was laid 1 module beyond the code's corner
some 5 modules further round, below the code's side.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from vision.table_codes import remap_rows
from vision.table_edges import MIN_CONTRAST, code_grid
from vision.table_lines import light_modules, line_noise, oversampling

CORNER_PX = 4  # grid pixels per module
REACH = tuple(0.5 + 0.25 * i for i in range(11))  # modules out, each axis: 0.5 to 3 (the band's)
ANGLES = tuple(range(-12, 13, 3))  # degrees: a card lies at any small angle to the code
LEG = tuple(0.25 * i for i in range(1, 10))  # modules along a leg from the corner's point
SIDE = (0.75, 1.0, 1.25, 1.5)  # modules either side of a leg: where the paper's level is taken
EDGE = 0.3  # of the code's contrast: how far both legs lie below their neighbourhoods
NOISE_Z = 6.0  # standard errors of a leg's mean: a dip smaller than this may be noise
_MARGIN = math.ceil(REACH[-1] + LEG[-1] + SIDE[-1])
BEYOND = tuple(4.5 + 0.5 * i for i in range(6))  # modules out: 4.5 to 7, past the sticker's 4
ALONG_SIDE = tuple(-12.5 + 0.5 * i for i in range(32))  # modules from the corner back along its
# side (to a version 2 code's middle; the side's other corner looks at the other half) to 3 past
FAR_LEG = tuple(0.25 * i for i in range(1, 17))  # modules along a far corner's leg: 4, not 2.25
_FAR_MARGIN = math.ceil(BEYOND[-1] + FAR_LEG[-1] + SIDE[-1])


def card_corner_beside(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray) -> bool:
    """Whether a covering card's corner lies just beyond one of the code's corners
    (``corners``: the code's outer corners in ``gray``, top left first, clockwise;
    ``expected``: its modules, True = dark); see the module's docstring.

    >>> n, k = 21, 3
    >>> modules = np.zeros((n, n), bool); modules[::2, ::3] = True
    >>> sticker = np.pad(np.where(modules, 30.0, 200.0), 4, constant_values=200.0)
    >>> card = np.pad(sticker, 6, constant_values=90.0)  # the card's artwork round the sticker
    >>> frame = np.kron(card, np.ones((k, k)))
    >>> corners = np.array([(10, 10), (31, 10), (31, 31), (10, 31)], np.float32) * k - 0.5
    >>> card_corner_beside(frame, corners, modules)  # the sticker's own corners only
    False
    >>> covered = frame.copy()  # a light card's corner 2 modules off the code's lower right
    >>> covered[(31 + 2) * k:, (31 + 2) * k:] = 190
    >>> covered[(31 + 2) * k:, (31 + 2) * k] = covered[(31 + 2) * k, (31 + 2) * k:] = 60
    >>> card_corner_beside(covered, corners, modules)
    True
    """
    return _corner_seen(gray, corners, expected, far=False)


def card_corner_beyond_sticker(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray
                               ) -> bool:
    """Whether a covering card's corner lies beyond the sticker's edge, off one of the code's
    sides (:data:`BEYOND` modules out, anywhere :data:`ALONG_SIDE`), its edges running away from
    the code; see the module's docstring.

    >>> modules = np.zeros((21, 21), bool); modules[::2, ::3] = True
    >>> card = np.full((47, 47), 90.0)  # the card's artwork round the sticker (4 modules)
    >>> card[9:-9, 9:-9] = 200.0; card[13:-13, 13:-13] = np.where(modules, 30.0, 200.0)
    >>> frame = np.kron(card, np.ones((3, 3)))
    >>> at = np.array([(13, 13), (34, 13), (34, 34), (13, 34)], np.float32) * 3 - 0.5
    >>> card_corner_beyond_sticker(frame, at, modules)  # the sticker's own edges only
    False
    >>> frame[40 * 3:, 30 * 3:] = 190  # a light card's corner 6 modules below the code's
    >>> frame[40 * 3:, 30 * 3] = frame[40 * 3, 30 * 3:] = 60  # side, 4 left of its corner
    >>> card_corner_beyond_sticker(frame, at, modules)
    True
    """
    return _corner_seen(gray, corners, expected, far=True)


def _corner_seen(gray: np.ndarray, corners: np.ndarray, expected: np.ndarray, *, far: bool
                 ) -> bool:
    """Whether both legs of a candidate corner (beyond the code's corners, or ``far``: beyond
    the sticker off its sides) lie below their neighbourhoods by the floor."""
    n, k = expected.shape[0], CORNER_PX
    margin = _FAR_MARGIN if far else _MARGIN
    grid = code_grid(gray, corners, n, k, margin)
    light, contrast = light_modules(grid, expected, k, margin)
    if contrast < MIN_CONTRAST:
        return False
    samples = len(FAR_LEG if far else LEG)
    noise = float(line_noise(light, np.array(float(samples)), oversampling(corners, n, k)))
    floor = max(EDGE * contrast, NOISE_Z * noise)
    return any(bool((_leg_dips(grid, n, corner, far=far).min(axis=0) > floor).any())
               for corner in range(4))


def _leg_dips(grid: np.ndarray, n: int, corner: int, *, far: bool = False) -> np.ndarray:
    """For each candidate corner beyond the code's ``corner`` (0: top left, clockwise), each
    leg's dip below the lighter of its neighbourhoods: 2 × len(REACH)² × len(ANGLES) (``far``:
    below its neighbourhood on the corner's inside alone, 2 × the far candidates ×
    len(ANGLES), on a grid of :data:`_FAR_MARGIN` modules round the code)."""
    import cv2

    dips = []
    for leg_maps in _leg_maps(n, corner, far):
        means = []
        for map_x, map_y, shape in leg_maps:
            values = cv2.remap(grid, map_x, map_y, cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
            means.append(values.reshape(shape).mean(axis=(-2, -1)))
        if far:
            line, inside = means
            dips.append(inside - line)
        else:
            line, plus, minus = means
            dips.append(np.maximum(plus, minus) - line)
    return np.stack(dips)


_LegMaps = tuple[tuple[np.ndarray, np.ndarray, tuple[int, ...]], ...]


@functools.cache
def _leg_maps(n: int, corner: int, far: bool = False) -> tuple[_LegMaps, _LegMaps]:
    """:func:`_leg_dips`' sampling maps for an n-module code's ``corner``, for each leg's
    direction: remap's x and y maps (in :func:`code_grid`'s pixels, 2-D, small) and the
    samples' shape, on the leg, then at :data:`SIDE` on either side of it (``far``: the
    :data:`FAR_LEG` legs, then :data:`SIDE` on the corner's inside only). They depend on the
    code's version and the corner only, not on the image: worked out once (read-only; 1.4 MB
    a version and corner, the far ones 4.4 MB), where each look worked them out anew, about 4
    ms of its 5
    (issue 19 §4, branch tcost3: the same floats, tests/table/test_corner_maps_exact.py)."""
    x0, y0, sx, sy = _CORNERS[corner](n)
    points, directions = _candidates(sx, sy, far)
    margin = _FAR_MARGIN if far else _MARGIN
    origin = np.array([x0 + margin, y0 + margin], float)
    legs = FAR_LEG if far else LEG
    per_direction = []
    for index, direction in enumerate(directions):
        normal = np.stack([-direction[..., 1], direction[..., 0]], axis=-1)
        inward = sx * sy * (1 if index == 0 else -1)  # the normal's sign towards the other leg
        sides = (SIDE, tuple(-s for s in SIDE))
        maps = []
        for across in ((0.0,), tuple(inward * s for s in SIDE)) if far else ((0.0,), *sides):
            at = (points[..., np.newaxis, np.newaxis, :]
                  + direction[..., np.newaxis, np.newaxis, :] * np.array(legs)[:, None, None]
                  + normal[..., np.newaxis, np.newaxis, :] * np.array(across)[None, :, None])
            pixels = ((at + origin) * CORNER_PX - 0.5).astype(np.float32)
            count = pixels.size // 2  # in long rows (the values' order kept): remap_rows
            rows = pixels.reshape(*remap_rows(count, len(legs) * len(across)), 2)
            map_x, map_y = np.ascontiguousarray(rows[..., 0]), np.ascontiguousarray(rows[..., 1])
            for array in (map_x, map_y):
                array.setflags(write=False)
            maps.append((map_x, map_y, at.shape[:-1]))
        per_direction.append(tuple(maps))
    return per_direction[0], per_direction[1]


_CORNERS = (lambda n: (0, 0, -1, -1), lambda n: (n, 0, 1, -1),
            lambda n: (n, n, 1, 1), lambda n: (0, n, -1, 1))
"""Each code corner (module units) and the signs of outwards along x and y."""


@functools.cache
def _candidates(sx: int, sy: int, far: bool = False
                ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """The candidate corners' points (module units from the code's corner) and their two legs'
    directions, for the corner whose outwards signs are ``sx``, ``sy``: :data:`REACH` out along
    both axes, or ``far``: :data:`BEYOND` out along one axis and :data:`ALONG_SIDE` along the
    other (the two sides' candidates one after the other)."""
    if far:
        below = np.meshgrid(ALONG_SIDE, BEYOND, np.radians(ANGLES), indexing="ij")
        beside = np.meshgrid(BEYOND, ALONG_SIDE, np.radians(ANGLES), indexing="ij")
        a, b, turn = (np.concatenate([one.reshape(-1, len(ANGLES)), other.reshape(-1, len(ANGLES))])
                      for one, other in zip(below, beside, strict=True))
    else:
        a, b, turn = np.meshgrid(REACH, REACH, np.radians(ANGLES), indexing="ij")
    points = np.stack([sx * a, sy * b], axis=-1)
    cos, sin = np.cos(turn), np.sin(turn)
    along_x = np.stack([sx * cos, sx * sin], axis=-1)  # the outwards x axis, turned
    along_y = np.stack([-sy * sin, sy * cos], axis=-1)  # the outwards y axis, turned
    for array in (points, along_x, along_y):
        array.setflags(write=False)
    return points, (along_x, along_y)
