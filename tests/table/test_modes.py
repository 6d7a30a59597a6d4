"""`[camera] view = hand | table | both` (issue 14 item 6) and `demo --table-view` (item 8)."""

from __future__ import annotations

import io

import pytest

from vision.config import camera_settings
from vision.errors import VisionError


def test_the_view_defaults_to_the_hand_camera():
    assert camera_settings({}).view == "hand"


@pytest.mark.parametrize("text, view", [("table", "table"), ("Hand", "hand"),
                                        (" both ", "both")])
def test_each_view_is_accepted(text, view):
    assert camera_settings({"view": text, "table_source": "picamera2:1"}).view == view


def test_a_misspelled_view_names_the_key_and_the_choices():
    with pytest.raises(VisionError) as error:
        camera_settings({"view": "tabel"})
    assert error.value.key == "view"
    assert "did you mean 'table'" in str(error.value)
    assert "view = hand" in str(error.value)


def test_both_needs_two_cameras():
    with pytest.raises(VisionError, match="needs two cameras"):
        camera_settings({"view": "both", "source": "usb:0", "table_source": "usb:0"})
    settings = camera_settings({"view": "both", "source": "usb:0", "table_source": "usb:1"})
    assert (settings.view, settings.table_source) == ("both", "usb:1")


@pytest.mark.slow
def test_the_table_view_demo_plays_with_no_touch_for_plays_and_noah(tmp_path):
    """Item 8: the setup, every play and Noah move of a seeded game's first turns are read from
    rendered overhead frames; the answers the camera cannot see are the only touches. (The
    whole game: `noah-companion demo --table-view`.)"""
    from companion.sim.table_demo import run_table_demo

    out = io.StringIO()
    report = run_table_demo(seed=2, players=("Ana", "Ben"), max_actions=8, quiet=True,
                            out=out, db=tmp_path / "g.sqlite")
    assert report.plays >= 4 and report.noah_moves >= 3 and report.setup == 6
    assert report.ordinary_touches == 0
    assert report.warnings == []
    assert set(report.touches) <= {"choose_snail_side", "choose_frog_weight", "choose_target",
                                   "give_cards", "choose_starter", "skip"}
    assert "Touches for plays, Noah moves, take-backs and hands: 0" in out.getvalue()
    assert "Median time from still table to verdict" in out.getvalue()
