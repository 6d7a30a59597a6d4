"""The tracker on made-up detections and a fake clock: debounce, repeats, two cards, foreign
codes, nothing from empty frames."""

from __future__ import annotations

import pytest

from vision.events import CardRemoved, CardShown, ForeignCode
from vision.tracker import Tracker, TrackerSettings

CAT, LION, URL = "NOAH1/BOX1/CAF2", "NOAH1/BOX1/LIM1", "https://example.com"
FRAME = 1 / 15  # seconds between frames at 15 frames per second


def ours(text: str) -> bool:
    return text.startswith("NOAH")


def run(frames: list[list[str]], settings: TrackerSettings | None = None) -> list:
    """Every event of a sequence of frames, one frame every 1/15 s."""
    tracker = Tracker(ours, settings, clock=lambda: 0.0)
    events = []
    for index, texts in enumerate(frames):
        events += tracker.update(texts, captured_at=index * FRAME)
    return events


def kinds(events: list) -> list[tuple[str, str]]:
    return [(type(event).__name__, event.text) for event in events]


def test_a_card_is_shown_once_after_two_frames_and_removed_once():
    events = run([[], [CAT], [CAT], [CAT], [], [], [], [], [], []])
    assert kinds(events) == [("CardShown", CAT), ("CardRemoved", CAT)]
    shown, removed = events
    assert shown.frame == 3  # entered in frame 2, confirmed in frame 3: within 3 frames
    assert shown.captured_at == 2 * FRAME
    assert removed.shown_for == pytest.approx(FRAME)  # last seen one frame after it was confirmed


def test_a_single_frame_flicker_is_no_event():
    assert run([[CAT], [], [CAT], [], [LION], []]) == []


def test_a_card_held_ten_seconds_is_one_event():
    events = run([[CAT]] * 150 + [[]] * 10)
    assert kinds(events) == [("CardShown", CAT), ("CardRemoved", CAT)]
    assert round(events[1].shown_for, 3) == round(148 * FRAME, 3)


def test_missed_frames_while_in_view_do_not_split_a_presentation():
    frames = [[CAT], [CAT], [], [CAT], [], [], [CAT], [CAT]] + [[]] * 8
    assert kinds(run(frames)) == [("CardShown", CAT), ("CardRemoved", CAT)]


def test_removal_needs_both_frames_and_time_missing():
    # at 100 frames a second three missed frames are only 30 ms: not yet gone
    tracker = Tracker(ours, TrackerSettings(gone_frames=3, gone_seconds=0.3), clock=lambda: 0)
    tracker.update([CAT], 0.00)
    tracker.update([CAT], 0.01)
    assert [tracker.update([], 0.01 * i) for i in range(2, 6)] == [[], [], [], []]
    assert kinds(tracker.update([], 0.4)) == [("CardRemoved", CAT)]


def test_a_slow_camera_confirms_on_time_alone():
    settings = TrackerSettings(confirm_frames=5, confirm_seconds=0.25)
    tracker = Tracker(ours, settings, clock=lambda: 0.0)
    assert tracker.update([CAT], 0.0) == []
    assert kinds(tracker.update([CAT], 0.3)) == [("CardShown", CAT)]


def test_showing_the_same_card_again_is_a_new_presentation():
    frames = [[CAT]] * 3 + [[]] * 6 + [[CAT]] * 3
    assert kinds(run(frames)) == [("CardShown", CAT), ("CardRemoved", CAT), ("CardShown", CAT)]


def test_two_cards_in_view_are_reported_as_such():
    events = run([[CAT, LION], [LION, CAT]])
    assert kinds(events) == [("CardShown", CAT), ("CardShown", LION)]
    assert all(event.in_view == (CAT, LION) and event.several for event in events)


def test_a_second_card_joining_lists_both_and_removal_lists_the_one_left():
    events = run([[CAT], [CAT], [CAT, LION], [CAT, LION]] + [[LION]] * 6)
    assert kinds(events) == [("CardShown", CAT), ("CardShown", LION), ("CardRemoved", CAT)]
    assert events[0].in_view == (CAT,)
    assert events[1].in_view == (CAT, LION)
    assert events[2].in_view == (LION,)


def test_foreign_codes_are_reported_apart_and_never_as_cards():
    events = run([[URL], [URL, CAT], [URL, CAT], [URL]] + [[]] * 8)
    assert kinds(events) == [("ForeignCode", URL), ("CardShown", CAT), ("CardRemoved", CAT)]
    assert isinstance(events[0], ForeignCode)
    assert events[1].in_view == (CAT,)  # the foreign code is not a card in view


def test_a_foreign_code_held_in_view_is_reported_once():
    assert kinds(run([[URL]] * 100)) == [("ForeignCode", URL)]


def test_frames_without_codes_give_nothing():
    assert run([[]] * 200) == []


def test_duplicate_detections_in_one_frame_count_once():
    events = run([[CAT, CAT], [CAT, CAT, CAT]])
    assert kinds(events) == [("CardShown", CAT)]
    assert events[0].in_view == (CAT,)


def test_finish_removes_the_cards_still_in_view():
    tracker = Tracker(ours, clock=lambda: 5.0)
    tracker.update([CAT, URL], 1.0)
    tracker.update([CAT, URL], 1.1)
    assert kinds(tracker.finish(4.0)) == [("CardRemoved", CAT)]
    assert tracker.in_view == ()


def test_latency_is_measured_from_the_capture():
    tracker = Tracker(ours, clock=lambda: 2.5)
    tracker.update([CAT], 2.0)
    (shown,) = tracker.update([CAT], 2.1)
    assert isinstance(shown, CardShown) and round(shown.latency, 6) == 0.4


def test_the_default_predicate_takes_every_code_as_ours():
    tracker = Tracker(clock=lambda: 0.0)
    tracker.update([URL], 0.0)
    assert all(isinstance(e, CardShown) for e in tracker.update([URL], 0.1))
    assert not any(isinstance(e, CardRemoved) for e in tracker.update([URL], 0.2))
