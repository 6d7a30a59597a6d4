"""QR decoders behind one interface: ``decoder.decode(frame) -> list[Detection]``.

Two real decoders: ``zxing`` (zxing-cpp) and ``zbar`` (pyzbar over libzbar0). A frame is a
numpy array, grey (H×W) or BGR (H×W×3, as OpenCV and the capture sources give them), or a PIL
image. Only QR codes are read (Micro QR, which zbar cannot read, is never printed on stickers).

>>> import numpy as np, segno
>>> dark = np.array(segno.make_qr("noah:1:cat:F#2").matrix, np.uint8)  # 1 = dark module
>>> sticker = np.kron(np.pad(255 - 255 * dark, 4, constant_values=255), np.ones((4, 4), np.uint8))
>>> [d.text for d in decode(sticker)]
['noah:1:cat:F#2']
>>> [d.text for d in make_decoder("zbar").decode(sticker)]
['noah:1:cat:F#2']

The default is ``zxing``: it reads more of the shared real photos and is several times faster
(figures in docs/benchmarks.md). :class:`RescueDecoder` (the pipeline's default, see
``[decoder] rescue``) adds a second look at codes zxing-cpp locates but cannot read.
"""

from __future__ import annotations

import functools
from typing import Any, Protocol

import numpy as np

from vision.errors import VisionError
from vision.events import Detection, Point

DEFAULT_DECODER = "zxing"


class Decoder(Protocol):
    """Anything that finds the QR codes in one frame."""

    name: str

    def decode(self, frame: Any) -> list[Detection]:
        """Every QR code found in ``frame``, in no particular order (empty if none)."""
        ...


def to_gray(frame: Any) -> np.ndarray:
    """The frame as a contiguous 8-bit grey numpy array (no copy if it already is one).

    >>> to_gray(np.zeros((2, 3, 3), np.uint8)).shape
    (2, 3)
    """
    image = np.asarray(frame)
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 3:
        import cv2

        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    if image.ndim != 2:
        raise ValueError(f"a frame must be grey or BGR, not of shape {image.shape}")
    if image.dtype != np.uint8:
        image = image.astype(np.uint8)
    return np.ascontiguousarray(image)


class ZxingDecoder:
    """zxing-cpp: reads smaller and blurrier codes than zbar, and faster.

    ``try_invert`` also reads light-on-dark codes; ``try_downscale`` also searches scaled-down
    copies of large frames (helps with big, blurred codes); ``binarizer`` is one of zxing-cpp's
    ``LocalAverage`` (default), ``GlobalHistogram``, ``FixedThreshold``.
    """

    name = "zxing"

    def __init__(
        self,
        *,
        try_invert: bool = True,
        try_downscale: bool = True,
        binarizer: str = "LocalAverage",
        return_errors: bool = False,
    ) -> None:
        import zxingcpp

        self._read = functools.partial(
            zxingcpp.read_barcodes,
            formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode),
            try_rotate=False,  # a QR code's finder patterns already give its orientation
            try_invert=try_invert,
            try_downscale=try_downscale,
            binarizer=getattr(zxingcpp.Binarizer, binarizer),
            text_mode=zxingcpp.TextMode.Plain,
            return_errors=return_errors,
        )

    def decode(self, frame: Any) -> list[Detection]:
        return [detection for detection, valid in self.candidates(frame) if valid]

    def candidates(self, frame: Any) -> list[tuple[Detection, bool]]:
        """Every symbol found, with whether it decoded (only decoded ones unless the decoder
        was made with ``return_errors=True``: then also those located but unreadable)."""
        found = []
        for barcode in self._read(to_gray(frame)):
            p = barcode.position
            a, b, c, d = (
                (float(c.x), float(c.y))
                for c in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)
            )
            found.append((Detection(barcode.text, (a, b, c, d)), barcode.valid))
        return found


class ZbarDecoder:
    """zbar through pyzbar, restricted to QR codes; needs Debian's ``libzbar0``.

    zbar needs modules of about 3 px; ``upscale`` (a factor, e.g. 2) enlarges small frames first
    so that 2 px modules read too, at about four times the cost.
    """

    name = "zbar"

    def __init__(self, *, upscale: float = 1.0) -> None:
        try:
            from pyzbar import pyzbar
        except ImportError as error:  # the shared library is missing, not the wheel
            raise VisionError(
                f"The zbar decoder cannot start ({error}).",
                "Install it with 'sudo apt-get install --no-install-recommends libzbar0', "
                "or choose the zxing decoder.",
            ) from error
        self._pyzbar = pyzbar
        self._symbols = [pyzbar.ZBarSymbol.QRCODE]
        self._upscale = upscale

    def decode(self, frame: Any) -> list[Detection]:
        gray = to_gray(frame)
        scale = self._upscale
        if scale != 1.0:
            import cv2

            gray = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
        found = []
        for symbol in self._pyzbar.decode(gray, symbols=self._symbols):
            found.append(Detection(_zbar_text(symbol.data), _zbar_corners(symbol, scale)))
        return found


def _zbar_text(data: bytes) -> str:
    # zbar already converts the QR's own encoding (ECI, Shift-JIS) to UTF-8.
    return data.decode("utf-8", errors="replace")


def _zbar_corners(symbol: Any, scale: float) -> tuple[Point, Point, Point, Point]:
    points = [(p.x / scale, p.y / scale) for p in symbol.polygon]
    if len(points) != 4:  # zbar gives a convex hull; fall back on its upright rectangle
        x, y, w, h = (v / scale for v in symbol.rect)
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    a, b, c, d = ((float(x), float(y)) for x, y in points)
    return a, b, c, d


class RescueDecoder:
    """zxing-cpp first; where it locates a code but cannot read it, a second look at that spot.

    The second look (zbar on the spot enlarged, then zxing-cpp on it sharpened) runs only on
    the few symbols that zxing-cpp located but could not decode (blur, glare, a tilted card), so
    it adds next to nothing to frames without codes or with readable ones. Measured gains are in
    docs/benchmarks.md.

    >>> RescueDecoder().name
    'zxing+zbar'
    """

    name = "zxing+zbar"

    def __init__(self, *, margin: float = 0.25, min_side: int = 160) -> None:
        self._first = ZxingDecoder(return_errors=True)
        self._second: list[tuple[Decoder, bool]] = [(ZxingDecoder(try_downscale=False), True)]
        try:
            self._second.insert(0, (ZbarDecoder(), False))  # zbar reads the enlarged spot as is
        except VisionError:  # no libzbar0: the sharpened look alone
            self.name = "zxing+"
        self.margin, self.min_side = margin, min_side

    def decode(self, frame: Any) -> list[Detection]:
        gray = to_gray(frame)
        found: list[Detection] = []
        unread: list[Detection] = []
        for detection, valid in self._first.candidates(gray):
            (found if valid else unread).append(detection)
        for spot in unread:  # several spots may be one code seen twice: keep each text once
            known = {d.text for d in found}
            found += [d for d in self._second_look(gray, spot) if d.text not in known]
        return found

    def _second_look(self, gray: np.ndarray, spot: Detection) -> list[Detection]:
        import cv2

        x, y, w, h = spot.bbox
        if w < 4 or h < 4:  # a degenerate position: nothing to look at
            return []
        pad = round(max(w, h) * self.margin)
        left, top = max(0, x - pad), max(0, y - pad)
        crop = gray[top : y + h + pad, left : x + w + pad]
        scale = max(1.0, self.min_side / max(1, min(crop.shape)))
        if scale > 1:
            crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        sharpened = cv2.addWeighted(crop, 2.0, cv2.GaussianBlur(crop, (0, 0), scale), -1.0, 0)
        for decoder, sharpen in self._second:
            detections = decoder.decode(sharpened if sharpen else crop)
            if detections:
                return [_moved(d, scale, left, top) for d in detections]
        return []


def _moved(detection: Detection, scale: float, left: int, top: int) -> Detection:
    """A detection found in an enlarged crop, with its corners back in frame pixels."""
    a, b, c, d = ((x / scale + left, y / scale + top) for x, y in detection.corners)
    return Detection(detection.text, (a, b, c, d))


DECODERS: dict[str, type] = {"zxing": ZxingDecoder, "zbar": ZbarDecoder}


def make_decoder(name: str = DEFAULT_DECODER, **options: Any) -> Decoder:
    """A new decoder by name (``zxing`` or ``zbar``), with that decoder's options.

    >>> make_decoder("zxing").name
    'zxing'
    """
    try:
        cls = DECODERS[name]
    except KeyError:
        raise VisionError(
            f"There is no QR decoder called '{name}'.",
            f"Choose one of: {', '.join(DECODERS)}.",
            key="name",
        ) from None
    decoder: Decoder = cls(**options)
    return decoder


@functools.cache
def _shared_decoder(name: str) -> Decoder:
    return make_decoder(name)


def decode(frame: Any, decoder: str = DEFAULT_DECODER) -> list[Detection]:
    """The QR codes in one frame, with a shared decoder of that name (default ``zxing``)."""
    return _shared_decoder(decoder).decode(frame)
