"""Drive the app without a person: a headless app, a pump for its event loop, screenshots.

Used by the screenshot script, the benchmark and the UI tests. The app is built as
:func:`companion.ui.app.create_app` builds it, with a record and config file in ``workdir``,
and rendered offscreen (Mesa) at 800×480::

    with HeadlessApp(Path(tempfile.mkdtemp()), simulate=True) as driver:
        driver.app.open_new_game(score_only=False)
        driver.pump_until(lambda: driver.app.root.sm.current == "new_game")
        driver.screenshot(Path("new-game.png"))
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.ui.environment import prepare_environment

#: How many times slower than this machine the tests may run: deploy/test-arm64.sh sets it for
#: the emulated Raspberry Pi root (qemu runs the suite 10-15 times slower). It stretches the
#: bounds on a hang, never what a test checks.
SLOWNESS_VARIABLE = "NOAH_TEST_SLOWNESS"


def slowness(environ: Mapping[str, str] = os.environ) -> float:
    """:data:`SLOWNESS_VARIABLE` as a factor of at least 1 (1 when unset or not a number).

    >>> slowness({SLOWNESS_VARIABLE: "15"}), slowness({SLOWNESS_VARIABLE: "fast"}), slowness({})
    (15.0, 1.0, 1.0)
    """
    try:
        return max(1.0, float(environ.get(SLOWNESS_VARIABLE, "1")))
    except ValueError:
        return 1.0

QUICK_DECODER = ("[decoder]\nconfirm_frames = 1\nconfirm_ms = 0\ngone_frames = 1\n"
                 "gone_ms = 0\n")


class Timeout(AssertionError):
    """The app did not reach the awaited state in time."""


class HeadlessApp:
    """The app running offscreen, driven step by step from the calling (UI) thread."""

    def __init__(self, workdir: Path, *, simulate: bool = True, language: str = "en",
                 quick_camera: bool = False, paced: bool = False) -> None:
        prepare_environment(workdir / "kivy", headless=True)
        from companion.config import Config
        from companion.session import GameStore
        from companion.ui.app import create_app
        from companion.ui.settings import UiSettings

        workdir.mkdir(parents=True, exist_ok=True)
        config_file = workdir / "companion.ini"
        text = f"[ui]\nlanguage = {language}\nsounds = no\n"
        if quick_camera:  # tests: a card counts as shown and gone after one frame
            text += QUICK_DECODER
        config_file.write_text(text, encoding="utf-8")
        config = Config.from_text(config_file.read_text(), config_file)
        self.app = create_app(config, simulate=simulate, store=GameStore(workdir / "g.sqlite"),
                              settings=UiSettings(language=language, sounds=False,
                                                  fullscreen=False),
                              config_file=config_file, paced=paced)

    def __enter__(self) -> HeadlessApp:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> None:
        self.app._run_prepare()  # what App.run() does before its loop (Kivy's own tests too)
        self.pump(3)

    def stop(self) -> None:
        from kivy.base import stopTouchApp

        from companion.ui.app import close_app

        self.app.stop()
        close_app(self.app)
        stopTouchApp()

    def pump(self, frames: int = 1, draw: bool = False) -> None:
        """Run the event loop for ``frames`` frames (clock, touches, layout, animations).

        A frame does all but draw the window unless ``draw``: the screens, labels and layout
        are the same, and only what reads pixels needs them drawn (:meth:`screenshot` and the
        legibility check draw first). Drawing was over half of the UI tests' time."""
        from kivy.base import EventLoop

        for _ in range(frames):
            if draw:
                EventLoop.idle()
            else:
                _undrawn_frame(EventLoop)

    def pump_until(self, condition: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Run the event loop until ``condition()`` is true; :class:`Timeout` after
        ``timeout`` seconds (times :func:`slowness`) so a hang never stalls a test run."""
        timeout *= slowness()
        started = time.monotonic()
        deadline = started + timeout
        while not (result := condition()):
            now = time.monotonic()
            if now > deadline:
                shown = self.app.view.prompt.kind if self.app.view else None
                raise Timeout(f"the app did not get there in {timeout:.0f} s "
                              f"(screen {self.app.root.sm.current}, shown prompt {shown}, "
                              f"session's prompt {self.app.session.view.prompt.kind})")
            self.pump()
            # a condition the UI meets comes within a few frames; one that waits for another
            # thread (a camera, the session) need not have the UI thread spin meanwhile
            time.sleep(0.002 if now - started < 0.05 else 0.01)
        return result

    def settle(self) -> None:
        """Let the session's published view reach the screens (one ``@mainthread`` hop)."""
        session = self.app.session

        def arrived() -> bool:  # the same game step (camera and lights may change meanwhile)
            shown, latest = self.app.view, session.view
            if shown is None:
                return False
            step = (shown.seq, shown.prompt, shown.notices)
            return shown is latest or step == (latest.seq, latest.prompt, latest.notices)

        self.pump_until(arrived)
        self.pump(2)

    @contextmanager
    def own_views(self) -> Iterator[None]:
        """Inside, the session's published views do not reach the screens, so a test can draw
        views of its own with ``app.show_view``: the simulator's cameras keep publishing (their
        status, a fresh frame), and one such view landing between the test's ``show_view`` and
        its checks would draw the session's screen over the test's (a race a loaded machine
        loses now and then). A view already on its way to the UI thread lands before the
        block begins; on leaving, the app follows the session again and shows its latest view.
        """
        app = self.app
        app._unsubscribe()
        self.pump(2)  # what was published before now reaches the screens first
        try:
            yield
        finally:
            app._unsubscribe = app.session.subscribe(app._view_published)

    def screenshot(self, path: Path) -> Path:
        """Save the window as ``path`` (PNG, 800×480)."""
        from kivy.core.window import Window

        self.pump(2, draw=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        written = Path(Window.screenshot(name=str(path)))  # Kivy adds a counter to the name
        _save_small(written, path)
        written.unlink()
        return path

    def press(self, widget: Any) -> None:
        """Touch a button as a finger would: press, release."""
        widget.trigger_action(duration=0)
        self.pump(2)


def _undrawn_frame(loop: Any) -> None:
    """Kivy's ``EventLoop.idle`` up to, and not including, drawing the window (kivy/base.py,
    2.3): the clock, the touches, the pending rules, the clock's draw-time callbacks (layout,
    label textures) and the rules they added."""
    from kivy.clock import Clock
    from kivy.lang import Builder

    Clock.tick()
    loop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


def _save_small(source: Path, target: Path) -> None:
    """A 256-colour PNG: the screens are flat colours, so it looks the same at a third of the
    size."""
    from PIL import Image

    with Image.open(source) as image:
        image.convert("RGB").quantize(256).save(target, optimize=True)


# -- layout checks ----------------------------------------------------------------------------

#: Widget classes whose labels are drawn over the screen on purpose (a layer of their own):
#: the app's banners and any popup. Labels are compared with labels of the same layer only.
LAYERS = ("Banner", "ModalView")


def layout_problems(size: tuple[float, float] = (800, 480)) -> list[str]:
    """Every visible label of the window that is cut off, lies outside the window or overlaps
    another visible label of the same layer, as sentences (empty: the screen is sound).

    A label is visible when it has text, a size and no transparent ancestor. Its *text* must
    fit its box (the text it would need, laid out at its width, is no taller and no wider than
    the box: a cut line at the top or bottom counts, an ellipsis (``shorten``) is by design),
    without a word cut in two across lines;
    its box must lie inside the window (inside its scroll view's viewport, for a scrolled
    list) and must not overlap another label's text of the same layer (a banner or a popup is
    a layer over the screen).
    """
    from kivy.core.window import Window

    found = [info for top in Window.children for info in _visible_labels(top)]
    problems = [problem for info in found for problem in _fit_problems(info, size)]
    drawn = [_clipped(_text_box(label, box), view) for label, box, _layer, view in found]
    for i, (label, _box, layer, _view) in enumerate(found):
        for j in range(i + 1, len(found)):
            other, _, other_layer, _ = found[j]
            if layer is other_layer and _overlap(drawn[i], drawn[j]):
                problems.append(f"{_short(label.text)!r} overlaps {_short(other.text)!r}")
    return problems


#: Labels allowed below :data:`theme.BODY <companion.ui.theme.BODY>` px, by the class of the
#: label or of an ancestor, and why. Everything else a player reads is 22 px or more.
SMALL_TEXT = {
    "CardTile": "a ferry tile's longest names (Woodpecker ♂, Rhinocéros ♀) shrink to 16 px; "
                "the animal's picture and the ♂/♀ on its colour say the same",
}


def legibility_problems(exceptions: dict[str, str] | None = None) -> list[str]:
    """Every visible label of the window whose text is smaller than ``theme.BODY`` (unless its
    class or an ancestor's is in ``exceptions``, :data:`SMALL_TEXT` by default) or whose colour
    has a WCAG contrast under ``theme.MIN_CONTRAST`` against what is drawn behind it, as
    sentences. The background is read from the window's pixels (the colour most of the
    text's box has), so a label on a button, a gauge or a tile is judged on what a player
    sees. A disabled button's dimmed text is not meant to be read and is not judged. A text
    field is judged the same way on its text, or on its placeholder ("Player 3") when empty."""
    from kivy.core.window import Window
    from kivy.uix.textinput import TextInput

    from companion.ui import theme

    allowed = SMALL_TEXT if exceptions is None else exceptions
    pixels = _window_pixels()
    problems = []
    found = [info for top in Window.children for info in _visible_labels(top)]
    fields = [info for top in Window.children for info in _visible_fields(top)]
    covers = _covers(found + fields)
    for widget, box, layer, view in found + fields:
        field = isinstance(widget, TextInput)
        text = _short(_field_text(widget)[0] if field else widget.text)
        chain = list(_ancestors(widget))
        small_ok = any(type(w).__name__ in allowed for w in chain)
        if widget.font_size < theme.BODY - 0.5 and not small_ok:
            problems.append(f"{text!r} is {widget.font_size:.0f} px (at least {theme.BODY})")
        drawn = _clipped(_field_box(widget, box) if field else _text_box(widget, box), view)
        if widget.disabled or any(cover is not layer and _overlap(drawn, area)
                                  for cover, area in covers):
            continue  # dimmed on purpose, or under a banner or popup: not what is seen
        colour = _field_text(widget)[1] if field else widget.color
        background = _background(pixels, drawn, colour)
        if background is None:
            continue
        alpha = colour[3]
        for ancestor in chain:
            alpha *= getattr(ancestor, "opacity", 1)
        seen = [alpha * c + (1 - alpha) * b for c, b in zip(colour[:3], background,
                                                                  strict=True)]
        ratio = theme.contrast(seen, background)
        if ratio < theme.MIN_CONTRAST:
            problems.append(f"{text!r} has a contrast of {ratio:.1f}:1 on its background "
                            f"({', '.join(f'{c:.2f}' for c in background)})")
    return problems


def _visible_fields(top: Any) -> list[LabelInfo]:
    """The text fields shown, as :func:`_visible_labels` gives labels (a field that shows
    neither text nor placeholder has nothing to read)."""
    from kivy.uix.textinput import TextInput

    return [info for info in _visible_widgets(top, TextInput)
            if _field_text(info[0])[0].strip()]


def _field_text(field: Any) -> tuple[str, Any]:
    """What a text field shows and in which colour: its text, else its placeholder."""
    if field.text:
        return field.text, field.foreground_color
    return field.hint_text, field.hint_text_color


def _field_box(field: Any, box: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Where a text field draws its text: inside its padding."""
    left, top, right, bottom = field.padding
    return (box[0] + left, box[1] + bottom, box[2] - right, box[3] - top)


def _covers(found: list[LabelInfo]) -> list[tuple[Any, tuple[float, ...]]]:
    """The layers drawn over the screen (a shown banner, an open popup) and their boxes."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    layers = {id(layer): layer for _label, _box, layer, _view in found}
    return [(layer, (0, 0, *Window.size) if isinstance(layer, ModalView)  # it dims it all
             else _window_box(layer)) for layer in layers.values()
            if any(c.__name__ in LAYERS for c in type(layer).__mro__)]


def _window_pixels() -> Any:
    """The window as drawn, an array of rows from the bottom (window coordinates), RGB 0-255
    (bytes: :func:`_background` scales only the boxes it reads, not the whole window)."""
    import numpy as np
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    if Window.canvas.needs_redraw:  # undrawn frames (``pump``) changed it
        Window.dispatch("on_draw")
        Window.dispatch("on_flip")
    width, height = (int(v) for v in Window.size)
    data = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
    return np.frombuffer(data, np.uint8).reshape(height, width, 4)[:, :, :3]


def _background(pixels: Any, box: tuple[float, ...], text: Any) -> tuple[float, ...] | None:
    """The colour most of ``box`` has that is not the text's own colour (None: box empty).

    A pixel is the text's own when each of its channels lies within 0.15 of the text colour's;
    the others are put in 8×8×8 bins, and the fullest bin's mean is the background. Tables of
    the 256 byte values per channel (:func:`_glyph_free`, :func:`_colour_bins`) give each pixel
    the same verdict and bin as the whole box scaled to floats did (the same values exactly),
    for 0.6 of the CPU; only the fullest bin's pixels are scaled.
    """
    import numpy as np

    height, width = pixels.shape[:2]
    left, bottom = max(0, int(box[0])), max(0, int(box[1]))
    right, top = min(width, int(box[2])), min(height, int(box[3]))
    if right - left < 2 or top - bottom < 2:
        return None
    area = pixels[bottom:top, left:right].reshape(-1, 3)
    free = _glyph_free(tuple(float(c) for c in text[:3]))
    area = area[free[0][area[:, 0]] | free[1][area[:, 1]] | free[2][area[:, 2]]]  # no glyph
    if not len(area):
        return None
    weighted = _colour_bins()
    bins = weighted[0][area[:, 0]] + weighted[1][area[:, 1]] + weighted[2][area[:, 2]]
    common = np.bincount(bins).argmax()
    return tuple(float(v) for v in (area[bins == common] / 255.0).mean(axis=0))


@functools.lru_cache(maxsize=256)
def _glyph_free(text: tuple[float, float, float]) -> Any:
    """For each channel, which byte values lie more than 0.15 from the text colour's (a
    pixel with one such channel is not the glyphs'): 3 tables of 256 booleans."""
    import numpy as np

    return np.abs(np.arange(256) / 255.0 - np.asarray(text)[:, None]) > 0.15


@functools.cache
def _colour_bins() -> Any:
    """Each byte value's bin (of 8) per channel, weighted 64, 8 and 1: a pixel's bin of
    512 is the sum of its three channels' entries."""
    import numpy as np

    return (np.arange(256) / 255.0 * 7.99).astype(int) * np.array([[64], [8], [1]])


def _clipped(box: tuple[float, ...], view: Any) -> tuple[float, ...]:
    """The part of ``box`` a scroll view shows (it draws nothing outside its viewport)."""
    if view is None:
        return box
    port = _window_box(view)
    return (max(box[0], port[0]), max(box[1], port[1]), min(box[2], port[2]),
            min(box[3], port[3]))


LabelInfo = tuple[Any, tuple[float, float, float, float], Any, Any]


def _visible_labels(top: Any) -> list[LabelInfo]:
    """(label, its box in window coordinates, its layer, its scroll view or None)."""
    from kivy.uix.label import Label

    return [info for info in _visible_widgets(top, Label) if info[0].text.strip()]


def _visible_widgets(top: Any, kind: type[Any]) -> list[LabelInfo]:
    """The widgets of ``kind`` shown under ``top``, as (widget, its box in window coordinates,
    its layer, its scroll view or None)."""
    found: list[LabelInfo] = []
    for widget in top.walk(restrict=True):
        if not isinstance(widget, kind) or min(widget.size) < 1:
            continue
        chain = list(_ancestors(widget))
        if any(getattr(w, "opacity", 1) == 0 for w in chain):
            continue
        layer = next((w for w in chain
                      if any(c.__name__ in LAYERS for c in type(w).__mro__)), top)
        view = next((w for w in chain[1:] if type(w).__name__ == "ScrollView"), None)
        box = _window_box(widget)
        if view is not None and not _overlap(box, _window_box(view)):
            continue  # scrolled out of sight
        found.append((widget, box, layer, view))
    return found


def _ancestors(widget: Any) -> Any:
    while widget is not None and widget is not widget.parent:
        yield widget
        widget = widget.parent


def _window_box(widget: Any) -> tuple[float, float, float, float]:
    left, bottom = widget.to_window(widget.x, widget.y)
    return (left, bottom, left + widget.width, bottom + widget.height)


def _text_box(label: Any, box: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Where the label's text is drawn: its texture, centred on the label."""
    width, height = label.texture_size
    x = (box[0] + box[2]) / 2
    y = (box[1] + box[3]) / 2
    return (x - width / 2, y - height / 2, x + width / 2, y + height / 2)


def _fit_problems(info: tuple, size: tuple[float, float]) -> list[str]:
    label, box, _layer, view = info
    text, problems = _short(label.text), []
    width, height = box[2] - box[0], box[3] - box[1]
    need_width, need_height = _needed(label)
    if need_height > height + 1 or need_width > width + 1:
        problems.append(f"{text!r} does not fit its box: it needs {need_width:.0f}×"
                        f"{need_height:.0f} px, its box is {width:.0f}×{height:.0f}")
    broken = _broken_word(label)
    if broken:
        problems.append(f"{text!r} breaks a line where it must not: {broken!r}")
    missing = _missing_glyphs(label)
    if missing:
        problems.append(f"{text!r} has characters its font cannot draw (boxes): {missing!r}")
    limit = _window_box(view) if view is not None else (0, 0, *size)
    drawn = _text_box(label, box)
    if view is None and (drawn[0] < limit[0] - 1 or drawn[1] < limit[1] - 1
                         or drawn[2] > limit[2] + 1 or drawn[3] > limit[3] + 1):
        problems.append(f"{text!r} lies outside the screen ({_rounded(drawn)})")
    return problems


def _needed(label: Any) -> tuple[float, float]:
    """The size the label's text needs, laid out at the label's text width (height free)."""
    if label.shorten or label.texture is None:
        return tuple(label.texture_size)
    core_label = label._label
    options = {k: v for k, v in core_label.options.items() if k != "text"}
    width = (label.text_size[0] if label.text_size and label.text_size[0] else None)
    options["text_size"] = (width, None)
    key = (type(core_label), core_label.text, repr(sorted(options.items())))
    if key not in _NEEDED:
        free = type(core_label)(text=core_label.text, **options)
        free.resolve_font_name()
        _NEEDED[key] = free.render()  # the layout only: no texture is drawn
    needed = _NEEDED[key]
    return (needed[0] if width is None else min(needed[0], width), needed[1])


#: The sizes :func:`_needed` measured, by label class, text and options (screens repeat).
_NEEDED: dict[tuple[Any, str, str], tuple[int, int]] = {}


def _broken_word(label: Any) -> str | None:
    """Where a line of the label breaks at a place its language forbids (UAX #14,
    :mod:`companion.ui.linebreak`): inside a word or a number ("Chloé-Marguerit / e", "C /
    hloé"), before a closing mark ("。" starting a line) or after an opening one; None when every
    break is allowed (or the text is shortened). Shown as the two sides of the break."""
    width = label.text_size[0] if label.text_size else None
    if label.shorten or not width or label.markup or label._label is None:
        return None
    from companion.ui.linebreak import break_positions, breaks_of

    lines = ["".join(word.text for word in line.words) for line in label._label._cached_lines]
    text = label.text
    for end, start in breaks_of(lines, text):
        # UAX #14 is slow in pure Python (uniseg): asked only for a label that has a break
        if not break_positions(text).intersection(range(end, start + 1)):
            return f"{text[max(0, end - 6):end].lstrip()} / {text[start:start + 6].rstrip()}"
    return None


def _missing_glyphs(label: Any) -> str:
    """The characters of the label's text that the font file it is drawn with has no glyph
    for (SDL then draws an empty box, "tofu"), e.g. "✕" in the Chinese font."""
    core = label._label
    font = core.options.get("font_name_r") if core is not None else None
    if not font:
        return ""
    drawn = _characters(str(font))
    return "".join(sorted({c for c in label.text if not c.isspace() and ord(c) not in drawn}))


@functools.cache
def _characters(font: str) -> frozenset[int]:
    """The code points a font file has glyphs for."""
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(font, lazy=True)["cmap"].getBestCmap())


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def _rounded(box: tuple[float, ...]) -> str:
    return ", ".join(f"{v:.0f}" for v in box)
