"""Line breaking that suits Chinese, for every label of the app.

Kivy breaks a line only at a space: Chinese has none, so Kivy cut a line wherever it reached the
edge of its box, inside a Latin name ("輪到C / hloé") or before a full stop ("。" starting a line).
Where a line may break is what the Unicode line-breaking algorithm (UAX #14) says, which the
``uniseg`` library implements: between two ideographs, never inside a Latin word or a number,
never before closing punctuation (。，、；：！？」』）) nor after opening punctuation (「『（)
— the kinsoku rules.

:func:`wrap` breaks a text into lines at those opportunities, greedily (as many units on a line
as fit its width). :func:`install` makes every Kivy label use it for text with Chinese
characters, and for text with a hyphenated word (a long name such as "Anne-Charlotte:" then
breaks after its hyphen instead of being cut before its colon); other Latin text keeps Kivy's
own breaking at spaces, which is the same thing there.

>>> wrap("輪到Chloé的回合。", 5, len)
['輪到', 'Chloé', '的回合。']
>>> wrap("請出牌，然後移動挪亞。", 3, len)  # "，" never starts a line: 牌， moves down whole
['請出', '牌，然', '後移動', '挪亞。']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import accumulate, pairwise
from typing import Any

from uniseg.linebreak import line_break_units

#: Characters of the scripts that break between characters (ideographs, kana, Hangul, CJK
#: punctuation and full-width forms): a text with one of them is broken by :func:`wrap`.
CJK = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")

#: The Chinese edition's words for the game's things (ferry, Noah, ark, tears): a line never
#: breaks inside one.
WORDS = re.compile("駁船|挪亞|方舟|眼淚")

#: An animal's sign is written against its name (獅子♂): it never starts a line.
GENDER_SIGNS = "♂♀"


def wrap(text: str, width: float, measure: Callable[[str], float]) -> list[str]:
    """The lines of ``text`` (paragraphs kept) no wider than ``width`` as ``measure`` measures
    them, broken only where UAX #14 allows; a unit wider than a whole line (a very long word)
    is cut where it reaches the edge, as Kivy does, rather than drawn outside the box.

    >>> wrap("Ana  Ben\\n雄雌", 3, len)
    ['Ana', 'Ben', '雄雌']
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += _wrap_paragraph(paragraph, width, measure) or [""]
    return lines


def _wrap_paragraph(paragraph: str, width: float,
                    measure: Callable[[str], float]) -> list[str]:
    lines: list[str] = []
    line = ""
    for unit in _units(paragraph):
        if line and measure((line + unit).rstrip()) > width:
            lines.append(line.rstrip())
            line = ""
        line += unit if line else unit.lstrip()
        while measure(line.rstrip()) > width and len(line.rstrip()) > 1:
            cut = _longest_fitting(line, width, measure)
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    return lines


@lru_cache(maxsize=4096)
def _units(paragraph: str) -> tuple[str, ...]:
    """The unbreakable units of a paragraph (each with the spaces after it): uniseg takes a
    few milliseconds a sentence, and a screen redraws the same sentences again and again.

    Three tailorings of UAX #14, as the Chinese edition prints its text: a number stays with
    the ideograph before or after it (駁船4, 第3行, 26滴), the game's own words
    (:data:`WORDS`) are never split — "駁" at a line's end and "船4。" on the next read as
    two things — and a gender sign stays with its animal (獅子♂).

    >>> _units("把動物送上駁船4。")
    ('把', '動', '物', '送', '上', '駁船4。')
    >>> _units("獅子♂送上")
    ('獅', '子♂', '送', '上')
    """
    inside = {k for word in WORDS.finditer(paragraph) for k in range(word.start() + 1, word.end())}
    units: list[str] = []
    at = 0
    for unit in _uax14_units(paragraph):
        if units and (at in inside or unit[:1] in GENDER_SIGNS
                      or _number_meets_ideograph(units[-1], unit)):
            units[-1] += unit
        else:
            units.append(unit)
        at += len(unit)
    return tuple(units)


def _number_meets_ideograph(before: str, after: str) -> bool:
    """Whether ``before`` ends and ``after`` starts with a digit and an ideograph (either
    way round), with no space between them."""
    last, first = before[-1:], after[:1]
    return bool(last and first) and (
        (last.isdigit() and CJK.match(first) is not None)
        or (first.isdigit() and CJK.match(last) is not None))


def _longest_fitting(text: str, width: float, measure: Callable[[str], float]) -> int:
    """How many characters of ``text`` fit ``width`` (at least one)."""
    cut = 1
    while cut < len(text) and measure(text[:cut + 1]) <= width:
        cut += 1
    return cut


@lru_cache(maxsize=4096)
def _uax14_units(paragraph: str) -> tuple[str, ...]:
    """UAX #14's own units of a paragraph (no line feed in it), untailored: uniseg is asked
    once a paragraph, for the wrapping (:func:`_units`) and the checks
    (:func:`break_positions`) alike — the layout checks ask about the texts the labels wrapped.

    >>> _uax14_units("輪到Chloé。")
    ('輪', '到', 'Chloé。')
    """
    return tuple(line_break_units(paragraph))


@lru_cache(maxsize=4096)
def break_positions(text: str) -> frozenset[int]:
    """The offsets in ``text`` where a line may break (UAX #14), for checks: each paragraph's
    own, and after each line feed, never before one (rules LB5 and LB6; no other rule looks
    across a line feed).

    >>> sorted(break_positions("輪到Chloé。"))
    [1, 2, 8]
    >>> sorted(break_positions("Ana Ben\\n\\n雄雌"))
    [4, 8, 9, 10, 11]
    >>> from uniseg.linebreak import line_break_boundaries  # the whole text at once: the same
    >>> texts = ("a\\r\\nb", " x \\n y ", "（第3艘）\\n「挪亞」", "\\n\\n", "Anne-\\nCharlotte")
    >>> all(break_positions(t) == frozenset(line_break_boundaries(t)) for t in texts)
    True
    """
    positions: set[int] = set()
    paragraphs = text.split("\n")
    at = 0
    for index, paragraph in enumerate(paragraphs):
        ends = list(accumulate(len(unit) for unit in _uax14_units(paragraph)))
        if index < len(paragraphs) - 1:
            ends = [*ends[:-1], len(paragraph) + 1]  # the line feed stays on its line
        positions.update(at + end for end in ends)
        at += len(paragraph) + 1
    return frozenset(positions)


def breaks_of(lines: list[str], text: str) -> Iterator[tuple[int, int]]:
    """Where each line of ``lines`` (as a label drew ``text``, spaces at the breaks dropped)
    ends in ``text`` and where the next one starts: the span a break was made in.

    >>> list(breaks_of(["輪到", "Chloé"], "輪到Chloé"))
    [(2, 2)]
    """
    position = 0
    for line, following in pairwise(lines):
        start = text.find(line, position) if line else position
        position = (start if start >= 0 else position) + len(line)
        end = position
        while position < len(text) and text[position].isspace():
            position += 1
        if following and text.startswith(following, position):
            yield end, position


def needs_wrap(text: str, width: float, measure: Callable[[str], float]) -> bool:
    """Whether Kivy's own breaking (at spaces) would break ``text`` badly at ``width``:
    Chinese (no spaces), or a hyphenated word wider than the line ("Anne-Charlotte:" then
    breaks after "Anne-" instead of being cut before its colon).

    >>> needs_wrap("輪到你", 100, len), needs_wrap("Anne-Charlotte: go", 8, len)
    (True, True)
    >>> needs_wrap("Anne-Charlotte: go", 20, len), needs_wrap("a very long sentence", 8, len)
    (False, False)
    """
    if CJK.search(text):
        return True
    return any(measure(word) > width for word in text.split() if _INNER_BREAK.search(word))


_INNER_BREAK = re.compile(r"\w[-‐/]\w")


def install() -> None:
    """Make every Kivy label break text with Chinese characters with :func:`wrap`.

    Kivy's ``Label`` widget draws through the core label class ``kivy.uix.label`` names
    ``CoreLabel``; this puts a subclass there whose layout first breaks such text into lines
    (``\\n``) at the allowed places, then lays it out as usual. Labels that shorten their text
    (an ellipsis) or have no width are left as they are. Idempotent.
    """
    import kivy.uix.label as uix_label

    if getattr(uix_label.CoreLabel, "breaks_chinese", False):
        return
    uix_label.CoreLabel = _breaking_label(uix_label.CoreLabel)


def _breaking_label(base: Any) -> Any:
    class BreakingLabel(base):  # type: ignore[misc, valid-type]
        """Kivy's core label, breaking Chinese lines where UAX #14 allows."""

        breaks_chinese = True
        text: str  # Kivy's core label property (declared for mypy only)

        def render(self, real: bool = False) -> Any:
            width = self._text_size[0]
            text: str = self.text
            if real or not width or self.options.get("shorten"):
                return super().render(real)
            padding = self.options["padding"]
            inner = max(0, width - padding[0] - padding[2])

            def measure(part: str) -> float:
                return float(self.get_extents(part)[0])

            if not needs_wrap(text, inner, measure):
                return super().render(real)
            self.text = "\n".join(wrap(text.strip(), inner, measure))
            try:
                return super().render(real)
            finally:
                self.text = text

    return BreakingLabel
