"""Noah over a recording (issue 19.3, TABLE-KIT.md: every mat counts for "nearest", those
located now and those known from an earlier still frame while nothing moved near them): the
mat beside Noah's half covered, then covered for a few frames, then uncovered."""

from tests.table.test_tracking import OVER_MARKERS, frame, scene
from vision.table_tracker import TableTracker


def test_a_neighbour_covered_for_a_few_frames_silences_noah_then_gives_him_back():
    """Noah beside ferry 4's mat. A card over one of ferry 3's markers: the other marker places
    that mat, Noah stays at 4. Cards over both: the tracker forgets the mat (a hand over it may
    have moved it), which could then be nearer: nothing said for Noah, frame after frame, never
    ferry 3 nor another. Uncovered: Noah at 4 again."""
    tracker = TableTracker()
    whole, half = frame(scene()), frame(scene(extra={3: OVER_MARKERS[:1]}))
    covered = frame(scene(extra={3: OVER_MARKERS}))
    said = [tracker.read(picture).noah for picture in (whole, half, half, covered, covered,
                                                       covered, whole)]
    assert said == [4, 4, 4, None, None, None, 4]
