"""A play read by the tracker (issue 19 §1 and §4: mats move only when touched; after motion
only what changed is read again): what may have moved is looked for where it was first, a
marker not known at all only where something changed off the mats kept still, and Noah is
kept while his marker's square is unchanged — never at a wrong ferry (TABLE-KIT.md: "Noah is
never placed at a wrong ferry"). The small frames of tests/table/test_tracking.py."""

import math
import random
from dataclasses import replace

import numpy as np

from tests.table.test_tracking import (
    MATS,
    NOAH_BY_4,
    OVER_MARKERS,
    CountingSearch,
    frame,
    scene,
)
from vision.table import TableReader
from vision.table_render import CardOnMat, TableScene, noah_beside
from vision.table_tracker import TableTracker

PLAYED_ON_2 = {2: (CardOnMat("NOAH1/BOX1/GIF2"),)}  # square on the card zone: no marker touched


def searched_area(boxes) -> int:
    return sum((right - left) * (bottom - top) for left, top, right, bottom in boxes)


def test_a_play_beside_noah_searches_no_marker():
    """A card laid on ferry 4, Noah just beside its mat: his marker's square did not change,
    so he is kept where he was (no search at all) and still at 4. (The mats lie 5 mm apart:
    the card lies in the search zones of ferries 3 and 5 too, which are read again.)"""
    tracker = TableTracker()
    searches = CountingSearch(tracker.reader)
    assert tracker.read(frame(scene())).noah == 4
    played = tracker.read(frame(scene(extra={4: (CardOnMat("NOAH1/BOX1/GIF2"),)})))
    assert searches.calls == [None] and 4 in tracker.decoded_ferries
    assert played.ferries[4].top == "NOAH1/BOX1/GIF2" and played.noah == 4


def test_a_mat_pushed_while_a_card_is_played_lies_where_it_now_is():
    """Ferry 5's mat pushed 6 mm while a card is played on ferry 2: the mat is looked for round
    its markers only (a search smaller than the changes), found at its new place, and the card
    read."""
    tracker = TableTracker()
    searches = CountingSearch(tracker.reader)
    tracker.read(frame(scene()))
    moved = TableScene(tuple(replace(m, x_mm=m.x_mm + 6.0) if m.ferry == 5 else m
                             for m in scene(extra=PLAYED_ON_2).mats), noah=NOAH_BY_4)
    reading = tracker.read(frame(moved))
    alone = TableReader().read(frame(moved))
    assert len(searches.calls) == 2 and searches.calls[1] is not None
    centre, expected = reading.ferries[5].centre, alone.ferries[5].centre
    assert centre and expected and math.dist(centre, expected) < 1.0
    assert reading.ferries[2].top == "NOAH1/BOX1/GIF2" and reading.noah == alone.noah == 4


def test_noah_moved_with_the_play_is_found_where_he_now_stands():
    """A card played on ferry 2 and Noah carried from ferry 4 to ferry 2 in the same move: he is
    not found round his old place, so the whole change is searched and he is at 2."""
    tracker = TableTracker()
    searches = CountingSearch(tracker.reader)
    assert tracker.read(frame(scene())).noah == 4
    carried = scene(noah=noah_beside(MATS[1], random.Random(2)), extra=PLAYED_ON_2)
    reading = tracker.read(frame(carried))
    assert len(searches.calls) == 3  # the whole frame, round his old place, then the change
    assert reading.noah == 2


def test_a_hand_left_over_a_marker_forgets_its_mat_and_silences_noah():
    """Cards (a hand's, a phone) left over both of ferry 4's markers during a play on ferry 2:
    the mat is not found round its markers nor in the change, so it is forgotten and Noah,
    beside it, is unknown rather than placed at 3 or 5."""
    tracker = TableTracker()
    tracker.read(frame(scene()))
    reading = tracker.read(frame(scene(OVER_MARKERS, extra=PLAYED_ON_2)))
    assert not reading.ferries[4].seen and reading.noah is None
    assert reading.ferries[2].top == "NOAH1/BOX1/GIF2"


def test_a_mat_not_known_is_looked_for_only_where_something_changed_off_the_kept_mats():
    """Ferry 4's markers hidden from the start: a play on ferry 2 changes only mat 2's face,
    where no marker of ferry 4 can appear (no search); the hiding cards taken away change the
    table off the kept mats, that is searched, and ferry 4 and Noah are back."""
    tracker = TableTracker()
    searches = CountingSearch(tracker.reader)
    assert tracker.read(frame(scene(OVER_MARKERS))).noah is None
    played = tracker.read(frame(scene(OVER_MARKERS, extra=PLAYED_ON_2)))
    assert searches.calls == [None] and played.noah is None
    assert played.ferries[2].top == "NOAH1/BOX1/GIF2"
    uncovered = tracker.read(frame(scene(extra=PLAYED_ON_2)))
    assert len(searches.calls) == 2 and uncovered.ferries[4].seen and uncovered.noah == 4
    height, width = frame(scene()).shape
    assert 0 < searched_area(searches.calls[1]) < 0.35 * width * height


def test_specks_of_noise_off_the_mats_are_not_searched_but_a_thing_taken_away_is():
    """Ferry 4's markers hidden, then a play on ferry 2 whose frame also carries specks of
    sensor noise off the mats (single thumbnail pixels, far under 40 mm² once blurred): no
    marker can have been uncovered there, nothing is searched. A patch 30 mm wide changed off
    the mats (something taken away) is searched."""
    tracker = TableTracker()
    searches = CountingSearch(tracker.reader)
    tracker.read(frame(scene(OVER_MARKERS)))
    noisy = frame(scene(OVER_MARKERS, extra=PLAYED_ON_2)).copy()
    for x, y in [(40, 40), (200, 64), (1880, 1000), (960, 1040), (1600, 48)]:
        noisy[y, x] = 0 if noisy[y, x] > 127 else 255  # thumbnail pixels: every 8th one
    assert tracker.read(noisy).ferries[2].top == "NOAH1/BOX1/GIF2"
    assert searches.calls == [None]
    patch = noisy.copy()
    patch[960:1064, 1700:1804] = np.where(patch[960:1064, 1700:1804] > 127, 0, 255)
    tracker.read(patch)
    assert len(searches.calls) == 2 and searches.calls[1]
