"""The hand camera reaches the game being played (issue 21, loose end 1): the stickers a
rendered camera frame shows go to the session of the game chosen — a Complot card to
Complot's session, ready for the claim picker's :class:`ClaimReader` (C17, C33) — and the
other game's stickers are foreign codes there; the camera's condition reaches every game."""

from __future__ import annotations

import queue
from typing import Any

import pytest

from companion.complot.claim_reader import ClaimReader
from companion.complot.session import ComplotSession
from companion.errors import UserError
from companion.session import GameStore
from companion.wiring import GameInPlay, assemble, camera_pipeline, open_cameras
from vision.events import CameraState, CameraStatus
from vision.synthetic import Scene, SyntheticSource

HANG = 30.0  # only bounds a hang: a frame is read in milliseconds


@pytest.fixture
def store(tmp_path):
    store = GameStore(tmp_path / "g.sqlite")
    yield store
    store.close()


@pytest.fixture
def sessions(store):
    """Noah's session and Complot's on one record, both playing a game."""
    noah = assemble(store)
    noah.new_game(["Ana", "Ben", "Chloé"])
    complot = ComplotSession(store)
    complot.new_game(["Ana", "Ben", "Chloé"])
    return noah, complot


def shown_to_camera(played: GameInPlay, text: str) -> list[Any]:
    """Render ``text`` as a QR code in front of a synthetic camera whose pipeline feeds
    ``played``; the events it reported once the card was read (shown, or foreign)."""
    events: queue.Queue[Any] = queue.Queue()
    source = SyntheticSource(Scene(width=320, height=240, camera_height_mm=150.0), fps=0)
    pipeline = camera_pipeline(source, played, also=events.put)
    seen: list[Any] = []
    with pipeline:
        source.present(text)
        while not any(type(e).__name__ in ("CardShown", "ForeignCode") for e in seen):
            seen.append(events.get(timeout=HANG))
    return seen


def test_a_complot_card_shown_to_the_camera_lands_in_complots_session_c17(sessions):
    """C17/C33: with Complot chosen, a card under the hand camera joins the Complot view's
    cards read (what the picker lays down), through the claim reader; Noah hears nothing."""
    noah, complot = sessions
    played = GameInPlay(noah)
    played.add(complot)
    played.choose("complot")
    seen = shown_to_camera(played, "CPLT1/BOX1/LEEM")
    assert "CardShown" in [type(event).__name__ for event in seen]
    assert complot.view.cards_read == ("leonard:emma",)
    assert noah.view.foreign_codes == 0 and complot.view.foreign_codes == 0
    reader = ClaimReader(size=6)
    reading = reader.add_card(complot.view.cards_read[0])
    assert reading.kind == "added" and reading.message("en") == "Emma (Léonard) read: card 1 of 6."


def test_with_noah_chosen_a_complot_card_is_a_foreign_code_and_complot_hears_nothing(sessions):
    noah, complot = sessions
    played = GameInPlay(noah)
    played.add(complot)
    seen = shown_to_camera(played, "CPLT1/BOX1/LEEM")
    assert "ForeignCode" in [type(event).__name__ for event in seen]
    assert complot.view.cards_read == () and noah.view.foreign_codes == 1
    assert played.name == "noah"


def test_the_cameras_condition_reaches_every_game_and_a_game_without_session_is_refused(
        sessions):
    noah, complot = sessions
    cameras = open_cameras(noah, "hand")
    cameras.played.add(complot)
    cameras.played.on_vision_event(CameraStatus(CameraState.LOST, "Hand camera lost.", at=0.0))
    assert not noah.view.camera_ok and not complot.view.camera_ok
    with pytest.raises(UserError, match="no game 'chess'"):
        cameras.played.choose("chess")
    assert cameras.played.name == "noah"  # nothing changed
