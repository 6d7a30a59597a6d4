"""A small capture loop for the demo: frames in, vision events out, on one thread.

The demo prefers the vision package's threaded pipeline (``vision.pipeline``); while that part
is not in this tree, this loop stands in for it with the same contract, built from the vision
package's own pieces: a capture source (``open``/``read``/``close``), a decoder
(:func:`vision.decoders.make_decoder`) and its event types (:mod:`vision.events`). It reads the
newest frame, decodes it, and keeps one presentation per code: a code seen in ``confirm``
consecutive frames is *shown* once (``CardShown`` for ours, ``ForeignCode`` for others, as the
``is_ours`` predicate says) and *removed* (``CardRemoved``) after ``gone`` frames without it —
so a card held in view for seconds is still one event.

>>> from vision.synthetic import Scene, SyntheticSource
>>> events = []
>>> camera = SyntheticSource(Scene(width=640, height=360, camera_height_mm=200), fps=0)
>>> loop = FrameLoop(camera, is_ours=lambda text: text.startswith("NOAH"),
...                  on_event=events.append)
>>> loop.start(); camera.present("NOAH1/BOX1/CAF2")
>>> loop.wait_for(lambda: events, timeout=10)
True
>>> loop.stop(); type(events[0]).__name__, events[0].text
('CardShown', 'NOAH1/BOX1/CAF2')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from vision.decoders import make_decoder
from vision.events import CardRemoved, CardShown, ForeignCode


class FrameLoop:
    """Capture, decode and track on one background thread; events go to ``on_event``."""

    def __init__(
        self,
        source: Any,
        *,
        is_ours: Callable[[str], bool],
        on_event: Callable[[Any], None],
        decoder: str = "zxing",
        confirm: int = 2,
        gone: int = 2,
    ) -> None:
        self.source, self.is_ours, self.on_event = source, is_ours, on_event
        self.decoder = make_decoder(decoder)
        self.confirm, self.gone = confirm, gone
        self._seen: dict[str, int] = {}  # code -> consecutive frames seen (before shown)
        self._missing: dict[str, int] = {}  # shown code -> consecutive frames missing
        self._shown: dict[str, float] = {}  # shown code -> capture time, in arrival order
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-camera", daemon=True)
        self.frames = 0

    def start(self) -> None:
        self.source.open()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.source.close()

    def wait_for(self, condition: Callable[[], Any], timeout: float) -> bool:
        """Poll ``condition`` until it is true or ``timeout`` seconds pass."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            captured = time.monotonic()
            frame = self.source.read()
            self.frames += 1
            texts = list(dict.fromkeys(d.text for d in self.decoder.decode(frame)))
            self._track(texts, captured)

    def _track(self, texts: list[str], captured: float) -> None:
        for text in texts:
            self._missing.pop(text, None)
            if text in self._shown:
                continue
            self._seen[text] = self._seen.get(text, 0) + 1
            if self._seen[text] >= self.confirm:
                del self._seen[text]
                self._shown[text] = captured
                self._emit_shown(text, captured)
        for text in [t for t in self._seen if t not in texts]:
            del self._seen[text]  # a flicker that never became a presentation
        for text in [t for t in self._shown if t not in texts]:
            self._missing[text] = self._missing.get(text, 0) + 1
            if self._missing[text] >= self.gone:
                del self._missing[text]
                shown_for = captured - self._shown.pop(text)
                if self.is_ours(text):
                    ours = tuple(t for t in self._shown if self.is_ours(t))
                    self.on_event(CardRemoved(text, ours, shown_for, captured,
                                              time.monotonic() - captured, self.frames))

    def _emit_shown(self, text: str, captured: float) -> None:
        latency = time.monotonic() - captured
        if self.is_ours(text):
            ours = tuple(t for t in self._shown if self.is_ours(t))
            self.on_event(CardShown(text, ours, captured, latency, self.frames))
        else:
            self.on_event(ForeignCode(text, captured, latency, self.frames))
