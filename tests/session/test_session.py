"""The referee session: a game at the table through intents, prompts, undo, resume, score-only."""

from __future__ import annotations

import io
import json
import time
import urllib.parse

import numpy as np
import pytest
from PIL import Image

from companion.errors import UserError
from companion.game import Options
from companion.game.tablelog import replay
from companion.session import Session
from companion.session.bgstats import qr_code
from companion.session.history import export, history
from companion.sim.autoplay import SimulatedTable
from vision.decoders import decode

PLAYERS = ["Ana", "Ben", "Chloé"]
SETUP = ["cat:F#1", "bear:M#1", "lion:M#1", "panda:F#1", "snail#1"]


@pytest.fixture
def session(store):
    return Session(store)


def start(session: Session, noah: int = 2, starter: int = 1) -> None:
    """Round 1 set up by touch: Noah on ferry 3, the five animals, Ben starts."""
    session.new_game(PLAYERS)
    assert session.choose_noah_start(noah).accepted
    for ref in SETUP:
        session.choose_card(ref)
    assert session.view.prompt.kind == "choose_snail_side"
    session.choose_snail_side("M")
    assert session.choose_starter(starter).accepted


def test_the_view_shows_what_the_setup_has_put_down_so_far_even_waiting_for_a_snail(session):
    """R8-R9: Noah's ferry, chosen with a ferry button, and each starting animal are in the
    view for the board to draw, also while the snail's side is asked."""
    session.new_game(PLAYERS)
    assert (session.view.setup_noah, session.view.setup_ferries) == (None, (None,) * 5)
    session.ferry_pressed(3)
    for ref in SETUP:
        session.choose_card(ref)
    view = session.view
    assert view.prompt.kind == "choose_snail_side"
    assert view.setup_noah == 3 and view.setup_ferries == (*SETUP[:4], None)
    session.choose_snail_side("F")
    session.choose_starter(0)
    assert session.view.setup_noah is None and session.view.state["noah"] == 3


def test_token_colours_are_kept_with_the_game_and_come_back_on_resume(store):
    first = Session(store)
    first.new_game(PLAYERS, tokens=["green", "purple", "red"])
    first.close_game()
    resumed = Session(store).resume()
    assert resumed.tokens == ("green", "purple", "red")
    with pytest.raises(UserError, match="one token colour per player"):
        Session(store).new_game(PLAYERS, tokens=["green"])
    assert len(store.unfinished()) == 1  # the refused game was not created


def test_setup_prompts_walk_the_table_through_the_deal(session):
    session.new_game(PLAYERS)
    assert session.view.prompt.kind == "choose_noah_start"
    session.ferry_pressed(2)  # a ferry button chooses Noah's ferry
    kinds = []
    for ref in SETUP[:4]:
        kinds.append((session.view.prompt.kind, session.view.prompt.ferry))
        session.choose_card(ref)
    assert kinds == [("scan_setup_card", k) for k in range(4)]
    refused = session.choose_card("cat:F#1")  # the same sticker again
    assert not refused.accepted and "already on ferry 1" in refused.message
    session.choose_card("snail#1")
    session.choose_snail_side("F")
    assert session.view.prompt.kind == "choose_starter"
    session.choose_starter(0)
    state = session.view.state
    assert state["phase"] == "play" and state["noah"] == 2 and state["current_player"] == 0
    assert state["ferries"][4] == ["snail:F#1"]
    assert state["hand_counts"] == [8, 8, 8]


def test_a_turn_from_card_to_noah_move_with_destinations_on_the_view(session):
    start(session)
    prompt = session.view.prompt
    assert (prompt.kind, prompt.player, prompt.ferry) == ("play_card", 1, 2)
    assert session.choose_card("cat:M#1").accepted  # on the ♂ lion of ferry 3
    prompt = session.view.prompt
    assert prompt.kind == "move_noah" and prompt.choices == (0, 4)  # R22: a male, two away
    assert session.view.destinations == (0, 4)
    refused = session.move_noah(1)
    assert not refused.accepted and refused.reason == "noah_move_illegal"
    assert session.ferry_pressed(4).accepted
    assert session.view.prompt.player == 2 and session.view.noah == 4


def test_a_sticker_scanned_twice_is_refused_R54(session):
    start(session)
    session.choose_card("cat:M#1")
    session.move_noah(0)
    refused = session.choose_card("cat:M#1")
    assert refused.reason == "card_already_on_table"
    assert session.view.notices[-1].level == "refused"


def test_snail_side_is_asked_and_only_legal_sides_offered_R14(session):
    start(session, noah=0)  # ferry 1 holds the ♀ cat
    session.choose_card("snail#2")
    prompt = session.view.prompt
    assert prompt.kind == "choose_snail_side" and set(prompt.legal) == {"M", "F"}
    assert session.choose_snail_side("F").accepted
    assert session.view.state["ferries"][0] == ["cat:F#1", "snail:F#2"]


def test_undo_says_what_to_put_back_and_redo_restores_R55(session):
    start(session)
    session.choose_card("cat:M#1")
    session.move_noah(4)
    before = session.view.state
    assert session.undo().accepted
    assert session.view.reconciliation == ("Move Noah back to ferry 3.",)
    session.undo()
    assert session.view.reconciliation == ("Take the ♂ cat back from ferry 3 into Ben's hand.",)
    assert session.view.prompt.kind == "play_card" and session.view.can_redo
    session.redo()
    session.redo()
    assert session.view.state == before and not session.view.can_redo


def test_a_new_action_ends_redo(session):
    start(session)
    session.choose_card("cat:M#1")
    session.undo()
    session.choose_card("kangaroo:M#1")
    assert not session.view.can_redo
    assert not session.redo().accepted


def test_undo_first_drops_what_is_half_entered(session):
    start(session)
    session.choose_card("snail#2")
    lines = session.view.seq
    assert session.undo().message == "Cancelled."
    assert session.view.prompt.kind == "play_card" and session.view.seq == lines


def test_undo_across_departures_and_rounds_restores_every_earlier_state(session):
    table = SimulatedTable(session, PLAYERS, seed=5)
    seen = set()
    table.on_step = lambda step: seen.add(json.dumps(session.view.state, sort_keys=True))
    table.play()
    sentences = []
    while session.game.history:
        session.undo()
        sentences += session.view.reconciliation
        assert json.dumps(session.view.state, sort_keys=True) in seen
    text = " ".join(sentences)
    assert "departed pile" in text and "The deal of round 3 is undone" in text
    assert "The scoring of round 1 is undone" in text


def test_resume_after_closing_continues_exactly_with_redo(store):
    first = Session(store)
    start(first)
    first.choose_card("cat:M#1")
    first.move_noah(4)
    first.undo()
    state, game_id = first.view.state, first.view.game_id
    first.close_game()
    assert first.view.prompt.unfinished == (game_id,)
    second = Session(store)
    assert second.view.prompt.kind == "no_game" and second.view.prompt.unfinished == (game_id,)
    second.resume()
    assert second.view.state == state and second.view.can_redo
    assert second.redo().accepted and second.view.noah == 4


def test_nothing_is_applied_when_the_record_cannot_be_written(session, store):
    start(session)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "disk full"
    with pytest.raises(UserError):  # fill what is left of the last pages
        while True:
            store.append(session.view.game_id, {"type": "note", "text": "x" * 200})
    state, seq, history = session.view.state, session.view.seq, session.game.history
    with pytest.raises(UserError, match="disk is full"):
        session.choose_card("cat:M#1")
    assert session.view.state == state and session.view.seq == seq
    assert session.game.history == history  # pushed, not written: taken back exactly (R55)
    assert session.view.notices[-1].level == "problem"
    assert session.view.prompt.kind == "play_card"
    with pytest.raises(UserError, match="disk is full"):
        session.undo()  # the undo line cannot be written either: the deal stays
    assert session.view.state == state and not session.view.can_redo


def _count_judgments(game, monkeypatch) -> list[str]:
    """Record every time the engine judges an action on this game (push or check)."""
    judged: list[str] = []
    push, check = game.push, game.check
    monkeypatch.setattr(game, "push", lambda action: judged.append("push") or push(action))
    monkeypatch.setattr(game, "check", lambda action: judged.append("check") or check(action))
    return judged


def test_each_action_is_judged_once(session, monkeypatch):
    """Issue 13: push, write, pop if the write fails — not check, then push."""
    start(session)
    judged = _count_judgments(session.game, monkeypatch)
    assert session.choose_card("cat:M#1").accepted
    assert judged == ["push"]
    judged.clear()
    assert not session.move_noah(2).accepted  # R22: Noah cannot stay where he is
    assert judged == ["push"]


def test_a_waiting_snail_is_not_judged_again_on_every_view(session, monkeypatch):
    """R14: the legal sides are judged when the snail is shown, not at each publish."""
    start(session)
    judged = _count_judgments(session.game, monkeypatch)
    session.choose_card("snail#2")
    assert session.view.prompt.kind == "choose_snail_side"
    shown = len(judged)
    assert shown == 2  # one check per side
    session.camera_status(False, "The camera stopped.")
    session.foreign_code("https://example.com")
    session.camera_status(True)
    assert len(judged) == shown and session.view.prompt.legal == ("M", "F")
    assert session.choose_snail_side("F").accepted and judged[shown:] == ["push"]


def test_camera_events_foreign_codes_two_cards_and_a_lost_camera(session):
    from vision.events import CameraState, CameraStatus, CardShown, ForeignCode

    start(session)
    session.on_vision_event(ForeignCode("https://example.com", 1.0, 0.01, 3))
    assert session.view.foreign_codes == 1 and session.view.prompt.kind == "play_card"
    cat, kangaroo = "NOAH1/BOX1/CAM1", "NOAH1/BOX1/KAM1"
    session.on_vision_event(CardShown(cat, (cat, kangaroo), 2.0, 0.01, 4))
    prompt = session.view.prompt
    assert prompt.kind == "choose_card" and prompt.candidates == ("cat:M#1", "kangaroo:M#1")
    session.choose_card("kangaroo:M#1")
    assert session.view.state["ferries"][2][-1] == "kangaroo:M#1"
    session.on_vision_event(CameraStatus(CameraState.LOST, "The camera stopped.", at=3.0))
    assert not session.view.camera_ok and "by touch" in session.view.notices[-1].text


def test_the_same_card_from_camera_and_touch_at_once_is_one_action(session):
    import threading

    start(session)
    barrier, outcomes = threading.Barrier(4), []

    def play() -> None:
        barrier.wait()
        outcomes.append(session.choose_card("cat:M#1"))

    threads = [threading.Thread(target=play) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(outcome.accepted for outcome in outcomes) == 1
    assert session.view.state["ferries"][2] == ["lion:M#1", "cat:M#1"]
    assert len(session.store.lines(session.view.game_id)) == 2  # the deal and one play


def test_a_sticker_of_another_box_is_explained(session):
    start(session)
    outcome = session.tag_seen("NOAH1/ZOO7/CAM1")
    assert not outcome.accepted and "deck ZOO7" in outcome.message


def test_lights_follow_the_prompts(session):
    from hardware.config import LightsConfig
    from hardware.lights import FerryLights

    with FerryLights(LightsConfig(pin_factory="mock")) as lights:
        session = Session(session.store, lights=lights)
        session.new_game(PLAYERS)
        session.choose_noah_start(2)
        assert lights.pattern == "scan prompt"
        for ref in SETUP:
            session.choose_card(ref)
        session.choose_snail_side("M")
        session.choose_starter(1)
        assert [light.pattern for light in lights.snapshot()][2] == "noah"
        session.choose_card("cat:M#1")
        assert lights.pattern == "destinations"
        session.choose_card("cat:F#2")  # out of step: Noah must move first
        assert lights.pattern == "illegal"


def test_a_ferry_button_moves_noah_through_the_lights_callback(session):
    from hardware.lights import FerryLights

    with FerryLights.from_section({"buttons": "yes"}, virtual=True) as lights:
        session = Session(session.store, lights=lights)
        start(session)
        session.choose_card("cat:M#1")
        pin = lights.pin_factory.pin(lights.config.buttons[4])
        pin.drive_low()  # gpiozero calls back on its own thread, the session takes its lock
        pin.drive_high()
        for _ in range(500):  # up to 5 s on a busy machine
            if session.view.noah == 4:
                break
            time.sleep(0.01)
        assert session.view.noah == 4 and session.view.prompt.player == 2


def test_the_hand_scan_refuses_cards_that_cannot_be_in_a_hand_R37(session):
    table = SimulatedTable(session, PLAYERS, seed=2)
    table.do(table.session.new_game, table.players, table.options)
    table.play_round(scan_hands=False)
    assert session.view.prompt.kind == "scan_hand"
    on_ferry = next(card for ferry in session.view.state["ferries"] for card in ferry or ())
    refused = session.choose_card(on_ferry)
    assert not refused.accepted and "cannot be in a hand" in refused.message
    five_plus = next(card.id for card in session.deck if card.mark == "5+")
    assert "not used in this game" in session.choose_card(five_plus).message
    assert session.view.prompt.scanned == ()


def test_score_only_game_keeps_the_same_score_track_and_history(store):
    session = Session(store)
    session.new_game(PLAYERS, score_only=True)
    assert session.view.prompt.kind == "enter_tears" and session.view.score_only
    for tears in ([3, 5, 1], [2, 2, 6], [4, 0, 1]):
        assert session.enter_tears(tears).accepted
    view = session.view
    assert view.game_over and view.scores == (9, 7, 8) and view.prompt.winners == (1,)
    assert view.round_scores == ((3, 5, 1), (2, 2, 6), (4, 0, 1))
    [summary] = history(store, session.deck)
    assert summary.finished and summary.rounds == view.round_scores
    assert summary.winner_names == ["Ben"]


def test_score_only_undo_takes_a_round_back(store):
    session = Session(store)
    session.new_game(PLAYERS, score_only=True)
    session.enter_tears([3, 5, 1])
    session.undo()
    assert session.view.scores == (0, 0, 0)
    assert "scoring of round 1 is undone" in session.view.reconciliation[0]


def test_whole_game_exports_and_the_log_replays_to_the_same_result(store):
    session = Session(store)
    table = SimulatedTable(session, PLAYERS, seed=2, mishaps=True)
    view = table.play()
    log = export(store, view.game_id, session.deck, "log")
    results = list(replay(log.splitlines(keepends=True)))
    assert all(result.accepted for result in results)
    assert results[-1].game.state() == view.state
    rows = export(store, view.game_id, session.deck, "csv").splitlines()
    assert rows[0] == "game,round,seat,player,tears,total" and len(rows) == 1 + 3 * 3
    data = json.loads(export(store, view.game_id, session.deck, "json"))
    assert data["scores"] == list(view.scores) and len(data["rounds"]) == 3


def test_game_end_offers_a_bg_stats_link(session):
    view = SimulatedTable(session, PLAYERS, seed=3).play()
    url = view.prompt.bgstats_url
    assert url.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(urllib.parse.unquote(url.split("data=", 1)[1]))
    assert [p["name"] for p in data["players"]] == PLAYERS
    assert [p["score"] for p in data["players"]] == list(view.scores)
    assert data["game"]["highestWins"] is False
    png = io.BytesIO()
    qr_code(session.bgstats_url()).save(png, kind="png", scale=4)
    image = np.array(Image.open(png).convert("RGB"))
    assert [d.text for d in decode(image)] == [url]  # a phone camera reads the same link


@pytest.mark.parametrize("options", [Options(hidden=True, frog=True, crocodile=True),
                                     Options(hidden=True, end_rule="score26", roommates=True)])
def test_promo_animals_and_variants_play_through(store, options):
    view = SimulatedTable(Session(store), PLAYERS, seed=8, options=options).play()
    assert view.game_over


def test_the_app_session_follows_the_config(tmp_path):
    from companion.config import Config
    from companion.wiring import open_session

    config = Config.from_text(f"[game]\ndeck_id = ZOO7\n[store]\npath = {tmp_path}\n")
    session = open_session(config)
    assert session.deck_id == "ZOO7" and session.store.path == tmp_path / "games.sqlite"
    session.new_game(PLAYERS)
    session.choose_noah_start(0)
    assert session.tag_seen("NOAH1/ZOO7/CAF1").accepted
    session.store.close()


def test_bad_player_lists_are_user_errors(session):
    with pytest.raises(UserError, match="2 to 5"):
        session.new_game(["Solo"])
    with pytest.raises(UserError, match="same name"):
        session.new_game(["Ana", "Ana"])
