"""Reading the whole table from one overhead frame: the five ferry mats, their top cards, Noah.

The table kit (``../shared/TABLE-KIT.md``, normative; docs/table-view.md) puts each ferry on a
printed mat of 100 × 150 mm with two ArUco markers (``DICT_4X4_50``, ids 2k−2 and 2k−1 for
ferry k, 20 mm, centred on the long axis 13.5 mm from each short edge) and Noah on a disc with
marker id 10. :class:`TableReader` turns one grayscale frame (the camera's Y plane) into a
:class:`TableReading`: per ferry position 1–5 whether its mat was found and the text of the code
on its top card, and the ferry where Noah stands. No game rules here: texts in, texts out.

How a frame is read (the steps live in :mod:`vision.table_markers` (1, 2, 5) and
:mod:`vision.table_codes` (4); the kit's geometry in :mod:`vision.table_kit`):

1. markers are found on a copy halved down to 1152–1536 px wide (a 20 mm marker still gets
   about 4 px per cell from 75 cm), their corners refined on the full frame;
2. each mat's pose (mat millimetres → frame pixels) comes from its markers' corners: a
   homography from both markers, or a similarity from one (a card or a hand may hide the other);
3. each mat's card zone, widened for cards that overhang or sit askew, is cut out of the
   full-resolution frame and read by zxing-cpp (QR codes only); overlapping crops are merged so
   that no pixel is decoded twice;
4. the top card (:func:`visibility` and :meth:`TableReader.read`): among the codes whose
   centre falls in a mat's zone, only a code that is *whole* can be a top card: on a grid
   fitted to the code's corners, its modules (each one's middle averaged, split by Otsu's
   threshold) match the code re-encoded from its text with its own mask (finder, timing and
   format patterns included) in all but a few isolated modules, and its white quiet zone is
   light all round. A card laid over a code breaks at least one of these. When exactly one
   code in a zone is whole, it is the top card; when none is, or two or more are (a fanned
   stack whose earlier sticker shows whole), or a code in the zone is *unsure* or was located
   but could not be read (it may be the real top card's, under glare or a hand), the reading
   says nothing for that ferry: the referee never guesses.
5. Noah is at the located mat whose centre is nearest to marker 10.
6. only when asked (``read(frame, loose=True)``: the round-end hand scan), the codes lying
   *beside* the mats (:class:`LooseCode`): the full-resolution frame is read once more with
   every mat's area painted over, and a code counts only when its centre lies outside every
   located mat's area (the zone of step 3 widened by :data:`LOOSE_MARGIN_MM` all round), so a
   ferry's card, top or buried, is never one of them. Not asked, or with a mat not located
   (the cards on it could not be told from loose ones), :attr:`TableReading.loose` is
   ``None``: unknown, not "none".

>>> reader = TableReader()
>>> blank = np.full((720, 1280), 200, np.uint8)
>>> reading = reader.read(blank)
>>> reading.noah, [reading.ferries[k].seen for k in FERRIES]
(None, [False, False, False, False, False])

Hands: a code partly under a hand is either not read or fails the fully-visible test, so a
hand over a ferry yields nothing for it. :func:`motion` and :func:`occluded_ferries` measure
change between small frames (the camera's low-resolution stream) so that the caller waits for a
still table before trusting a reading.
"""
from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from vision.errors import VisionError
from vision.table_codes import (
    SECOND_LOOKS,
    Code,
    code_corners,
    enlarged,
    merge_looks,
    moved_by,
    smoothed,
    top_card,
    verdict_settled,
    visibility,
    visibility_read_anew,
)
from vision.table_kit import (
    ARUCO_MAX_WIDTH,
    CARD_ZONE_MM,
    FERRIES,
    MAT_MM,
    QR_MODULES_MM,
    ZONE_OVERHANG_MM,
    Box,
    Point,
    Quad,
)
from vision.table_markers import (
    Marker,
    MatPose,
    detect_markers,
    look_again,
    mat_poses,
    noah_ferry,
    noah_marker,
    search_scale,
    unique_markers,
    whole_frame_markers,
)
from vision.table_zones import zone_may_hold_a_code

# -- what a reading is ---------------------------------------------------------------------------

@dataclass(frozen=True)
class FerryView:
    """One ferry position in one frame.

    ``seen``: its mat was located; ``top``: the text of its top card's code, or ``None`` (no
    readable top code, an empty ferry, or not sure); ``zone``: the card zone's corners in frame
    pixels (for occlusion checks and for drawing), ``px_per_module``: the size of a sticker's
    module there (2.5 or more reads well); ``codes``: every code text read in the zone, top or
    not (for diagnostics, never to be taken as the top card).
    """

    seen: bool = False
    top: str | None = None
    zone: Quad | None = None
    centre: Point | None = None
    px_per_module: float | None = None
    codes: tuple[str, ...] = ()


@dataclass(frozen=True)
class LooseCode:
    """A code read beside the mats (a card laid face up on the table, not on a ferry): its
    text, its centre in full-resolution frame pixels (whatever crop or enlargement it was read
    on) and the ferry whose mat centre is nearest to it."""

    text: str
    centre: Point
    near: int


@dataclass(frozen=True)
class TableReading:
    """What one frame shows: the five ferry positions and the ferry where Noah is, and (when
    asked) the codes beside the mats.

    ``loose``: the codes read outside every mat's area (:class:`LooseCode`), or ``None`` when
    they were not read (not asked, or a mat not located: a card on it could not be told from a
    loose one).

    >>> reading = TableReading({k: FerryView() for k in FERRIES}, noah=None)
    >>> reading.to_json()["ferries"]["3"]
    {'seen': False, 'top': None}
    >>> reading.loose_texts is None
    True
    """

    ferries: Mapping[int, FerryView]
    noah: int | None
    noah_at: Point | None = None
    ms: float = 0.0
    loose: tuple[LooseCode, ...] | None = None

    @property
    def loose_texts(self) -> frozenset[str] | None:
        """The texts of the codes beside the mats (``None``: not read)."""
        return None if self.loose is None else frozenset(c.text for c in self.loose)

    def to_json(self) -> dict[str, Any]:
        """The reading as ``table scan --json`` prints it (without the frame's name): the
        contract of issue 14, so the codes beside the mats are not in it."""
        return {
            "ferries": {str(k): {"seen": self.ferries[k].seen, "top": self.ferries[k].top}
                        for k in FERRIES},
            "noah": self.noah,
            "ms": round(self.ms, 1),
        }

    def agrees_with(self, other: TableReading) -> bool:
        """The same mats seen, the same top cards, Noah at the same ferry and the same codes
        beside the mats (or neither read them).

        >>> a = TableReading({k: FerryView() for k in FERRIES}, noah=2)
        >>> a.agrees_with(a), a.agrees_with(TableReading(a.ferries, noah=3))
        (True, False)
        >>> a.agrees_with(TableReading(a.ferries, noah=2, loose=()))
        False
        """
        return self.noah == other.noah and self.loose_texts == other.loose_texts and all(
            (self.ferries[k].seen, self.ferries[k].top) == (other.ferries[k].seen,
                                                            other.ferries[k].top)
            for k in FERRIES)


# -- the reader ----------------------------------------------------------------------------------

@dataclass
class TableReader:
    """Reads tables, one frame at a time (it keeps only its zxing-cpp options between frames).

    ``marker_width``: the widest copy markers are searched on (PLATFORM-NOTES: ≤ 1536 px finds
    96–97 % of 20 mm markers at 75 cm; :func:`search_scale` halves the frame down to between ¾
    of it and it, 1152 px for the 4608 px sensor, and the look again at full resolution finds
    the rest); ``enlarge_below``: crops whose modules are smaller than this many
    pixels are enlarged 2× before decoding (for the 2×2-binned mode or a high camera).
    """

    marker_width: int = ARUCO_MAX_WIDTH
    enlarge_below: float = 2.6
    _read: Any = field(default=None, init=False, repr=False)
    _read_closer: Any = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        import zxingcpp

        self._read = functools.partial(
            zxingcpp.read_barcodes, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode),
            try_rotate=False,
            try_invert=False, try_downscale=False, text_mode=zxingcpp.TextMode.Plain,
            return_errors=True)
        # The second look also lets zxing-cpp search scaled-down copies of the zone, as a bare
        # whole-frame reading does: a dim, soft code it misses at full size (issue 19: 5 more
        # DEV top cards; on every zone it cost 5 % of a reading's time for the same 5).
        self._read_closer = functools.partial(self._read, try_downscale=True)

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading:
        """The reading of one frame: grayscale (H × W, uint8), or BGR (converted first).

        ``loose``: also read the codes beside the mats (one more pass over the whole frame:
        the round-end hand scan asks for it; an ordinary reading does not pay for it)."""
        started = time.perf_counter()
        gray = _gray(frame)
        markers = self.find_markers(gray)
        poses = mat_poses(markers)
        ferries = self.read_ferries(gray, poses)
        noah_at = noah_marker(markers)
        noah = noah_ferry(noah_at, poses)
        beside = self.loose_codes(gray, poses) if loose else None
        ms = (time.perf_counter() - started) * 1000
        return TableReading(ferries, noah, noah_at, ms, beside)

    def find_markers(self, gray: np.ndarray, boxes: Sequence[Box] | None = None,
                     known: Iterable[int] = ()) -> list[Marker]:
        """The kit's markers in the frame (or only in ``boxes``, full-frame pixels): found on a
        copy at most :attr:`marker_width` wide, then looked for again at full resolution
        (:func:`look_again`) where a mat's marker is missing; the ids ``known`` (placed by a
        caller that remembers them) are not looked for again."""
        scale = search_scale(gray.shape[1], self.marker_width)
        if boxes is None:
            markers, rejected = whole_frame_markers(gray, scale, known)
            return look_again(gray, unique_markers(markers), rejected, known)
        found: list[Marker] = []
        candidates: list[np.ndarray] = []
        for box in boxes:
            markers, rejected = detect_markers(gray, box, scale)
            found += markers
            candidates += rejected
        return look_again(gray, unique_markers(found), candidates, known)

    def read_ferries(self, gray: np.ndarray, poses: Mapping[int, MatPose],
                     which: Iterable[int] = FERRIES) -> dict[int, FerryView]:
        """The views of the ferries ``which`` (their mats' places: ``poses``, which may hold
        other mats too: a code is given to the mat whose zone holds it)."""
        wanted = [k for k in which if k in poses]
        codes = self._codes(gray, poses, wanted)
        views = {k: self._ferry_view(poses.get(k), codes.get(k, [])) for k in which}
        for k in wanted:
            zone = views[k].zone
            may_hold = functools.partial(zone_may_hold_a_code, gray, zone) if zone else _no
            if views[k].top is None and _may_hide_the_top(codes.get(k, []), may_hold):
                views[k] = self._look_closer(gray, poses, k, codes.get(k, [])) or views[k]
        return views

    def _ferry_view(self, pose: MatPose | None, codes: Sequence[Code]) -> FerryView:
        if pose is None:
            return FerryView()
        return FerryView(
            seen=True, top=top_card(codes), zone=pose.quad(*CARD_ZONE_MM), centre=pose.centre,
            px_per_module=pose.px_per_mm * QR_MODULES_MM,
            codes=tuple(sorted({c.text for c in codes if c.readable})))

    def _codes(self, gray: np.ndarray, poses: Mapping[int, MatPose], which: Sequence[int]
               ) -> dict[int, list[Code]]:
        """Every code read in the zones of the mats ``which``, each given to the mat it lies on
        (among all of ``poses``); only those are judged (:class:`_Symbols`)."""
        zones = [np.array(poses[k].search_zone(), np.float32) for k in which]
        boxes = merge_boxes([_box(zone, gray.shape) for zone in zones])
        enlarge = self._enlargement(poses)
        found: dict[int, list[Code]] = {}
        seen: set[tuple[str, int, int]] = set()
        for left, top, right, bottom in boxes:
            symbols = self._decode_crop(gray, left, top, right, bottom, enlarge)
            ferries = _zones_of([symbol.centre for symbol in symbols.unjudged], poses)
            for index, (symbol, ferry) in enumerate(zip(symbols.unjudged, ferries, strict=True)):
                x, y = symbol.centre
                key = (symbol.text, round(x / 16), round(y / 16))
                if ferry is not None and ferry in which and key not in seen:
                    seen.add(key)
                    found.setdefault(ferry, []).append(symbols.judged(index))
        return found

    def _look_closer(self, gray: np.ndarray, poses: Mapping[int, MatPose], ferry: int,
                     codes: list[Code]) -> FerryView | None:
        """A second look at one ferry that gave no top card while its zone holds an unsure
        code or a symbol located but not read, or no code in a zone that is not bare mat
        (:func:`_may_hide_the_top`: glare over part of a code, a soft or small code): its zone
        decoded again with
        the highlights pulled down, then enlarged 2× (when the reader did not enlarge it
        already), each look's codes judged on the image it was read in and all looks merged
        (:func:`merge_looks`); last, where a look located a symbol it could not read, a box
        round it smoothed and enlarged 2× (:func:`unread_symbols_box`), its codes judged on
        the pixels as they are. The top-card test alone
        decides, so a second look can only read what is there: never a guess."""
        pose = poses[ferry]
        zone = _box(np.array(pose.search_zone(), np.float32), gray.shape)
        enlarge = self._enlargement(poses)
        looks = [codes]
        for enhance, more in SECOND_LOOKS:
            if enlarge * more <= 2.0:
                view = self._look_again(gray, poses, ferry, looks, zone, enhance, enlarge * more)
                if view is not None:
                    return view
        around = unread_symbols_box(looks, pose, gray.shape) if enlarge < 2.0 else None
        if around is None:
            return None
        return self._look_again(gray, poses, ferry, looks, around, smoothed, 2.0)

    def _look_again(self, gray: np.ndarray, poses: Mapping[int, MatPose], ferry: int,
                    looks: list[list[Code]], box: Box,
                    enhance: Callable[[np.ndarray], np.ndarray], enlarge: float
                    ) -> FerryView | None:
        """One second look (:meth:`_look_closer`) at ``box`` of the frame, redrawn by
        ``enhance`` and enlarged ``enlarge`` times: its codes in ``ferry``'s zone are judged
        (on the crop as it is when the look smoothed it) and added to ``looks``; the ferry's
        view when the looks merged name a top card."""
        left, top, right, bottom = box
        crop = gray[top:bottom, left:right]
        image = enhance(crop)
        symbols = self._decode_crop(image, 0, 0, image.shape[1], image.shape[0], enlarge,
                                    read=self._read_closer)
        if enhance is smoothed:
            symbols = symbols.seen_in(crop)  # judged on the pixels as they are
        pose = poses[ferry]
        half_code_px = pose.px_per_mm * QR_MODULES_MM * 10.5
        look: list[Code] = []
        looks.append(look)
        codes = [replace(code, corners=moved_by(code.corners, left, top))
                 for code in symbols.unjudged]
        ferries = _zones_of([code.centre for code in codes], poses)
        for index, code in enumerate(codes):
            if ferries[index] != ferry:
                continue
            # not judged, a code reads as covered: what the merge makes of it anyway
            settled = verdict_settled(looks, code, half_code_px)
            look.append(code if settled else
                        replace(symbols.judged(index), corners=code.corners))
        merged = merge_looks(looks, half_code_px)
        return self._ferry_view(pose, merged) if top_card(merged) is not None else None

    def _enlargement(self, poses: Mapping[int, MatPose]) -> float:
        """2 when the stickers' modules are too small for zxing-cpp as they are, else 1."""
        px_per_module = min((p.px_per_mm * QR_MODULES_MM for p in poses.values()), default=0)
        return 2.0 if 0 < px_per_module < self.enlarge_below else 1.0

    def loose_codes(self, gray: np.ndarray, poses: Mapping[int, MatPose]
                     ) -> tuple[LooseCode, ...] | None:
        """The codes whose centre lies outside every mat's area, from the whole frame with the
        mats' areas painted over (their codes are the ferries' and were read already); ``None``
        unless all five mats are located."""
        import cv2

        if len(poses) < len(FERRIES):
            return None
        beside = gray.copy()
        level = int(gray[::16, ::16].mean())  # a flat patch: nothing there to decode
        for pose in poses.values():
            area = np.round(np.array(pose.area(), np.float32)).astype(np.int32)
            cv2.fillConvexPoly(beside, area, level)
        height, width = gray.shape
        centres = {k: pose.centre for k, pose in poses.items()}
        found: dict[str, LooseCode] = {}
        symbols = self._decode_crop(beside, 0, 0, width, height, self._enlargement(poses))
        for code in symbols.unjudged:  # a card beside the mats need not show whole
            if code.readable and not any(p.holds(code.centre) for p in poses.values()):
                near = min(centres, key=lambda k: math.dist(code.centre, centres[k]))
                found.setdefault(code.text, LooseCode(code.text, code.centre, near))
        return tuple(sorted(found.values(), key=lambda c: c.text))

    def _decode_crop(self, gray: np.ndarray, left: int, top: int, right: int, bottom: int,
                     enlarge: float, *, read: Any = None) -> _Symbols:
        """The symbols zxing-cpp finds in a crop (``read``: zxing-cpp with other options than
        the reader's own), corners in frame pixels, each judged only when asked for."""
        source = gray[top:bottom, left:right]
        # zxing-cpp and OpenCV read a strided view as it is: a crop that is not enlarged is
        # not copied (two copies of each zone once, a millisecond of a 12 MP frame's reading)
        crop = source if enlarge == 1.0 else enlarged(source, enlarge, sharp=True)
        return _Symbols(list((read or self._read)(crop)), crop, source, enlarge, (left, top))


class _Symbols:
    """The symbols zxing-cpp found in one crop: :attr:`unjudged` gives each one as a
    :class:`Code` not judged yet (text, corners in frame pixels, readable; never whole),
    :meth:`judged` the same one judged whole, covered or unsure (:func:`visibility`).

    Judging is most of a reading's time (a few milliseconds a code): a reading judges only
    the codes whose verdict it uses, those in the zones it was asked for, once each (a second
    look's crop also holds its neighbours' codes); the codes beside the mats are never judged.
    """

    def __init__(self, barcodes: list[Any], crop: np.ndarray, source: np.ndarray,
                 enlarge: float, offset: tuple[int, int]) -> None:
        self._barcodes: list[Any] = []
        self._crop, self._source, self._enlarge = crop, source, enlarge
        self._plain: np.ndarray | None = None  # the unsharpened copy, made when first asked
        self._offset = offset
        self._judge: Callable[[Any, np.ndarray, np.ndarray], str] = visibility
        shift = np.array(offset, np.float32)
        self.unjudged: list[Code] = []
        for barcode in barcodes:
            outline = code_corners(barcode)
            if not barcode.valid and not square_enough(outline):
                continue  # not a code's outline: nothing a top card's sticker could be
            self._barcodes.append(barcode)
            corners = outline / enlarge + shift
            # tolist gives each float32 as the Python float float() gives, without a NumPy
            # scalar per number (a few hundredths of a millisecond a code)
            quad: Quad = tuple(map(tuple, corners.tolist()))  # type: ignore[assignment]
            self.unjudged.append(Code(barcode.text if barcode.valid else "", quad, False,
                                      readable=bool(barcode.valid)))

    def seen_in(self, source: np.ndarray) -> _Symbols:
        """The same symbols judged on ``source``, the crop before a look redrew it for decoding
        (:func:`vision.table_codes.smoothed`), by the line look as well
        (:func:`vision.table_codes.visibility_read_anew`)."""
        crop = source if self._enlarge == 1.0 else enlarged(source, self._enlarge, sharp=True)
        seen = _Symbols(self._barcodes, crop, source, self._enlarge, self._offset)
        seen._judge = visibility_read_anew
        return seen

    def judged(self, index: int) -> Code:
        """The ``index``-th symbol of :attr:`unjudged`, judged whole, covered or unsure."""
        barcode, code = self._barcodes[index], self.unjudged[index]
        if not code.readable:
            return code
        seen = self._judge(barcode, self._crop, self._plain_round(barcode))
        return replace(code, fully_visible=seen == "whole", unsure=seen == "unsure")

    def _plain_round(self, barcode: Any) -> np.ndarray:
        """The unsharpened copy of the crop (:func:`enlarged`, ``sharp=False``), exact round
        ``barcode``: a judgement samples a code and a few modules round it (the band's grid
        reaches 4 modules out, the edge strips 2.4 along a side and 2 across it, the fit moves
        a corner 0.6: tilt stretches these a little), so the copy is made
        only a code's width round each judged code, not over the whole crop (issue 19: a
        binned frame's crops, enlarged 2×, hold 4× the pixels and few codes). Elsewhere it is
        0, never sampled; :func:`plain_part` is why the parts equal the whole copy's pixels."""
        if self._enlarge == 1.0:  # not enlarged: nothing sharpened, the crop is the copy
            return self._crop
        if self._enlarge != PART_FACTOR:
            if self._plain is None:
                self._plain = enlarged(self._source, self._enlarge, sharp=False)
            return self._plain
        if self._plain is None:
            self._plain = np.zeros_like(self._crop)  # pages untouched until a part is written
        corners = code_corners(barcode) / self._enlarge
        points = corners.tolist()  # the sides' lengths from Python floats: no array per side
        side = max(math.dist(points[i - 1], points[i]) for i in range(4))
        low = np.floor(corners.min(axis=0) - side).astype(int)
        high = np.ceil(corners.max(axis=0) + side).astype(int)
        plain_part(self._source, self._plain, (int(low[0]), int(low[1]), int(high[0]),
                                               int(high[1])))
        return self._plain


SLIVER_RATIO = 3.0  # a located symbol's longest side over its shortest: above, not a QR code
NO_SIZE_PX = 1.0  # a located symbol's shortest side under this: zxing-cpp gave no position


def square_enough(outline: np.ndarray) -> bool:
    """Whether a symbol zxing-cpp located and could not read (``outline``: its four corners,
    4 × 2) may be a QR code: its longest side at most :data:`SLIVER_RATIO` times its shortest,
    and that side a pixel long at least (:data:`NO_SIZE_PX`).

    A QR code's outline is a square, seen at most 25° off the camera's axis (the kit's
    tilt) and with its fourth corner guessed by zxing-cpp: its sides differ by a few tenths
    (1.00–1.20 on the dev frames). zxing-cpp also "locates" slivers 3.4–22 times as long as
    wide, three finder-like marks on a card's art, a board's track or the stripes of a
    glossy highlight lined up; counted as symbols not read, they kept a ferry silent whose
    top card was read whole (issue 19: DEV 1085 ferry 3, 1179 ferry 5, branch tdecode).

    An outline of no size is no place at all: where zxing-cpp's QR detector fails before it
    has placed a symbol ("Invalid symbol size", a format error), it returns the failure with
    all four corners at (0, 0), which the crop's offset then moves to the crop's top-left
    corner, a place that says nothing of where the finders were; counted there as a symbol
    not read, it kept silent a ferry whose top card was read whole (issue 19: tdim4's seed
    6355 ferry 1, the second look's enlarged zone; branch ttopcard2).

    >>> square_enough(np.array([(0, 0), (100, 4), (98, 104), (-3, 99)], np.float32))
    True
    >>> square_enough(np.array([(2351, 1377), (2394, 1014), (2444, 1028), (2408, 1383)],
    ...                        np.float32))  # DEV 1070: 360 px long, 50 wide
    False
    >>> square_enough(np.zeros((4, 2), np.float32))  # no position
    False
    """
    sides = np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1)
    return bool(sides.min() >= NO_SIZE_PX and sides.max() <= SLIVER_RATIO * sides.min())


SMOOTHED_MARGIN = 1.0  # codes' widths: how far round the symbols not read the smoothed look sees


def unread_symbols_box(looks: Sequence[Sequence[Code]], pose: MatPose, shape: tuple[int, ...]
                       ) -> Box | None:
    """Where the smoothed look (:func:`vision.table_codes.smoothed`) is worth its cost after
    ``looks`` (a zone's first look and its second looks, this ferry's codes only) gave no top
    card: round the symbols one of them located and could not read, at places no look judged
    covered, a code's width (:data:`SMOOTHED_MARGIN`) all round, clipped to the frame
    (``shape``); ``None`` when there is no such symbol.

    A symbol located but not read is what a code whose modules the sensor noise breaks up
    looks like to zxing-cpp, and every top card the smoothed look read on the dev frames
    showed one first (DEV 2 of 2, fresh dev seeds 1 of 1). A place judged covered stays
    covered whatever a later look reads there (:func:`vision.table_codes.verdict_settled`), so
    its symbols are not a reason to look. A zone where nothing was located (a hand, a strong
    highlight, no card: 57 of DEV's 75 zones still without a top card; 3 more hold symbols
    only at covered places) is not smoothed: the whole zone smoothed everywhere cost 8 % of a
    reading's CPU for one more top card in 300 fresh frames (seed 5028 ferry 2). The box
    round the symbols holds about a sixth of the zone's pixels (half a code's width lost one
    of the three).

    >>> pose = MatPose(3, np.eye(3), px_per_mm=1.0)  # a code 20 px across
    >>> square = ((100.0, 100.0), (120.0, 100.0), (120.0, 120.0), (100.0, 120.0))
    >>> unread_symbols_box([[Code("A", square, False)], []], pose, (480, 640)) is None
    True
    >>> unread_symbols_box([[], [Code("", square, False, readable=False)]], pose, (480, 640))
    (80, 80, 140, 140)
    """
    half_code_px = pose.px_per_mm * QR_MODULES_MM * 10.5
    unread = [c for look in looks for c in look
              if not c.readable and not verdict_settled(looks, c, half_code_px)]
    if not unread:
        return None
    margin = pose.px_per_mm * QR_MODULES_MM * 21 * SMOOTHED_MARGIN
    points = np.array([p for c in unread for p in c.corners], np.float32)
    low = np.floor(points.min(axis=0) - margin).astype(int)
    high = np.ceil(points.max(axis=0) + margin).astype(int)
    height, width = shape[:2]
    return (max(int(low[0]), 0), max(int(low[1]), 0), min(int(high[0]), width),
            min(int(high[1]), height))


PART_FACTOR = 2.0  # the enlargement whose unsharpened copy is made in parts (:func:`plain_part`)


def plain_part(source: np.ndarray, plain: np.ndarray, box: Box) -> None:
    """Write into ``plain`` the pixels that ``enlarged(source, 2.0, sharp=False)`` has over
    ``box`` (``left, top, right, bottom`` in ``source``'s pixels, clipped to it).

    Linear interpolation at 2× reads, for each output pixel, the two source pixels either
    side of its centre (x / 2 − ¼): a part enlarged from a source box one pixel wider all
    round gives the whole copy's pixels inside, and at the source's own edges clamps as the
    whole copy does. A margin of 2 pixels is kept.

    >>> source = np.random.default_rng(1).integers(0, 256, (30, 40), np.uint8)
    >>> whole = enlarged(source, 2.0, sharp=False)
    >>> plain = np.zeros_like(whole)
    >>> plain_part(source, plain, (5, -3, 17, 12))
    >>> bool((plain[0:24, 10:34] == whole[0:24, 10:34]).all()), int(plain[24:].max())
    (True, 0)
    """
    height, width = source.shape[:2]
    left, top = max(box[0], 0), max(box[1], 0)
    right, bottom = min(box[2], width), min(box[3], height)
    if right <= left or bottom <= top:
        return
    x0, y0 = max(left - 2, 0), max(top - 2, 0)
    x1, y1 = min(right + 2, width), min(bottom + 2, height)
    part = enlarged(source[y0:y1, x0:x1], PART_FACTOR, sharp=False)
    dx, dy = 2 * (left - x0), 2 * (top - y0)
    plain[2 * top:2 * bottom, 2 * left:2 * right] = \
        part[dy:dy + 2 * (bottom - top), dx:dx + 2 * (right - left)]


def _may_hide_the_top(codes: Sequence[Code], may_hold_a_code: Callable[[], bool]) -> bool:
    """Whether a ferry without a top card is worth a second look (:meth:`TableReader.
    _look_closer`): one of its codes is unsure or a symbol was located but not read, or no
    code was read at all in a zone that may hold one (``may_hold_a_code``: not bare mat, or
    darkened as a soft code darkens it — :func:`~vision.table_zones.zone_may_hold_a_code`).

    A zone whose codes were all judged covered was looked at again too until issue 19's speed
    work: on 120 dev frames that read no top card in 38 looks (a quarter of the second looks'
    time); the second looks' top cards came from zones with an unsure code, or with no code
    read (soft codes that the enlarged look reads).

    >>> square = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> _may_hide_the_top([Code("A", square, False)], lambda: True)
    False
    >>> _may_hide_the_top([], lambda: True), _may_hide_the_top([], lambda: False)
    (True, False)
    """
    if not codes:
        return may_hold_a_code()
    return any(c.unsure or not c.readable for c in codes)


def _no() -> bool:
    """No: a ferry without a zone holds no code worth a look (:func:`_may_hide_the_top`)."""
    return False


def _zones_of(points: Sequence[Point], poses: Mapping[int, MatPose]) -> list[int | None]:
    """For each of ``points``, the mat whose search zone holds it; the nearest centre (in mat
    units) if two do. The points are placed on each mat in one call (a reading places about
    four codes on five mats: half a millisecond, one call each).

    >>> pose = MatPose(3, np.array([[2.0, 0, 100], [0, 2.0, 0], [0, 0, 1]]), px_per_mm=2.0)
    >>> _zones_of([(150.0, 100.0), (50.0, 100.0), (30.0, 100.0)], {3: pose})  # x −25, −35 mm
    [3, 3, None]
    """
    width, height = MAT_MM
    best: list[tuple[float, int] | None] = [None] * len(points)
    if not points:
        return []
    for ferry, pose in poses.items():
        for index, (x, y) in enumerate(pose.to_mat(np.array(points))):
            if -ZONE_OVERHANG_MM <= x <= width + ZONE_OVERHANG_MM and 0 <= y <= height:
                distance = math.hypot((x - width / 2) / width, (y - height / 2) / height)
                if best[index] is None or distance < best[index][0]:  # type: ignore[index]
                    best[index] = (distance, ferry)
    return [None if b is None else b[1] for b in best]


def _box(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    height, width = shape[:2]
    left, top = np.floor(quad.min(axis=0)).astype(int)
    right, bottom = np.ceil(quad.max(axis=0)).astype(int)
    return max(0, int(left)), max(0, int(top)), min(width, int(right)), min(height, int(bottom))


def merge_boxes(boxes: Iterable[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Boxes ``(left, top, right, bottom)`` with every overlapping pair merged into its union.

    >>> merge_boxes([(0, 0, 10, 10), (5, 5, 20, 20), (30, 30, 40, 40)])
    [(0, 0, 20, 20), (30, 30, 40, 40)]
    """
    merged = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    changed = True
    while changed:
        changed = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                a, b = merged[i], merged[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    merged[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                                 max(a[3], b[3]))
                    del merged[j]
                    changed = True
                    break
            if changed:
                break
    return sorted(merged)


def _gray(frame: np.ndarray) -> np.ndarray:
    image = np.asarray(frame)
    if image.ndim == 3:
        import cv2

        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if image.ndim != 2 or image.dtype != np.uint8:
        raise VisionError("A table frame must be an 8-bit grayscale or BGR image.",
                          "Give the camera's Y plane or a BGR frame.")
    return np.ascontiguousarray(image)
