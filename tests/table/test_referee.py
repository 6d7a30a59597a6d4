"""``table referee`` (issue 19, point 5; TABLE-KIT.md "Refereeing a recording"): a recorded game
through the observer, the session and the audit, with the answers file for what the camera cannot
see. Whole games run on the demo's table with the renderer and the reader replaced by tokens
(each table state one token, read back exactly: fast); one end-to-end run reads the rendered
JPEG recording of examples/."""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field

import numpy as np
import pytest

from companion.cli import main
from companion.errors import UserError
from companion.game import Options
from companion.session import GameStore
from companion.sim.recording import ANSWERS, TRUE_LOG, GameRecording, compare_logs, read_log
from companion.sim.table_demo import OverheadTable, TableDemoReport, TableViewPlayers, _Enough
from companion.table_referee import (
    UNANSWERED,
    Answers,
    Question,
    Referee,
    RefereeEvent,
    question,
)
from companion.wiring import assemble
from vision.table import FerryView, LooseCode, TableReading
from vision.table_kit import FERRIES

pytestmark = pytest.mark.usefixtures("no_user_config")

EXAMPLE = pathlib.Path(__file__).parents[2] / "examples" / "table-recording"
PLAYERS = ("Ana", "Ben", "Chloé")
#: Every event's fields (TABLE-KIT.md), beside "frame" and "event".
CONTRACT = {"play": {"seat", "card", "ferry"}, "noah": {"to"}, "take_back": {"seat", "ferry"},
            "departure": {"ferry"}, "audit": {"ferry", "finding", "text"},
            "asked": {"ask", "card"}, "round_end": {"round", "scores"},
            "game_end": {"scores", "winners"}}
ZONE = ((8.0, 8.0), (24.0, 8.0), (24.0, 28.0), (8.0, 28.0))


# -- a table read back exactly ------------------------------------------------------------------

@dataclass
class Tokens:
    """Each table state drawn is one token (a grey level for motion, its number in row 0); the
    reader gives back that state's reading."""

    readings: list[TableReading] = field(default_factory=list)

    def draw(self, reading: TableReading) -> np.ndarray:
        token = len(self.readings)
        self.readings.append(reading)
        image = np.full((36, 64), 60 + 40 * (token % 4), np.int16)  # bare: every zone blank
        image[0, :3] = (token % 256, token // 256 % 256, token // 65536)
        return image

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading:
        row = frame[0, :3].astype(int)
        reading = self.readings[int(row[0] + 256 * row[1] + 65536 * row[2])]
        return reading if loose else TableReading(reading.ferries, reading.noah)


class TokenTable(OverheadTable):
    """The demo's table, each state drawn as a token instead of rendered."""

    def __init__(self, table: OverheadTable, tokens: Tokens) -> None:
        super().__init__(table.deck_id, table.deck, seed=1, noise=0.0)
        self.tokens = tokens

    def _render(self, hand_over):
        views = {}
        for k in FERRIES:
            cards = self.cards[k - 1]
            top = cards[-1].text if cards and hand_over != k - 1 else None
            views[k] = FerryView(seen=True, top=top, zone=ZONE,
                                 codes=(top,) if top else ("under a hand",) if cards else ())
        loose = tuple(LooseCode(c.text, (0.0, 0.0), 1) for c in self.beside if c.text)
        noah = self.noah + 1 if self.noah is not None else None
        return self.tokens.draw(TableReading(views, noah, loose=loose))

    def _shot(self, image):
        """The frame of a token: no noise, its small copy a sample of it (tiny: fast)."""
        import time

        from vision.table_capture import TableFrame

        full = image.astype(np.uint8)
        self.clock += 0.1
        return TableFrame(full, np.ascontiguousarray(full[::2, ::2]), f"frame {self.clock:.1f}",
                          time.monotonic())


class Frames(GameRecording):
    """A recording kept in memory (its answers as the real one writes them)."""

    def __init__(self, folder: pathlib.Path) -> None:
        super().__init__(folder)
        self.kept: list = []

    def frame(self, frame) -> None:
        self.kept.append(frame)


def record_game(tmp_path, players=PLAYERS, *, seed=1, options=None, max_actions=None):
    """A seeded demo game on the token table: (frames, answers, true table log)."""
    tokens = Tokens()
    recording = Frames(tmp_path / "frames")
    with fast(GameStore(tmp_path / "truth.sqlite")) as store:
        session = assemble(store)
        table = TableViewPlayers(session, players, seed=seed, options=options,
                                 report=TableDemoReport(), max_actions=max_actions,
                                 recording=recording)
        table.table = TokenTable(table.table, tokens)
        table.observer.still.reader = tokens
        table.do(session.new_game, table.players, table.options)
        table.film_bare_kit()
        try:
            while not table.truth.is_over:
                table.play_round()
        except _Enough:
            pass
        recording.finish(session)
    answers = (recording.folder / ANSWERS).read_text()
    return recording.kept, tokens, answers, (recording.folder / TRUE_LOG).read_text()


def referee(tmp_path, frames, tokens, answers: str, players=PLAYERS, options=None):
    """The frames through a Referee: (events, status, table log)."""
    events, status, ref = run_referee(tmp_path, frames, tokens, answers, players, options)
    return events, status, table_log(ref)


def run_referee(tmp_path, frames, tokens, answers: str, players=PLAYERS, options=None):
    """(events, status, the Referee, its session still open)."""
    from companion.table_referee import Unanswered

    events: list[RefereeEvent] = []
    session = assemble(fast(GameStore(tmp_path / "referee.sqlite")))
    session.new_game(players, options)
    ref = Referee(session, Answers.parse(answers, "answers.jsonl"), events.append,
                  reader=tokens)
    status = 0
    try:
        for frame in frames:
            ref.feed(frame)
    except Unanswered:
        status = UNANSWERED
    return events, status, ref


def table_log(ref: Referee) -> str:
    from companion.session.history import export_game

    session = ref.session
    return export_game(session.store, session.view.game_id, session.deck, "log")[0]


@pytest.fixture(scope="module")
def short_game(tmp_path_factory):
    """The deal and four plays and Noah moves of seed 1 (recorded once for this module)."""
    return record_game(tmp_path_factory.mktemp("short"), max_actions=4)


def fast(store: GameStore) -> GameStore:
    """A record that does not wait for the disk at each line (a test's record is thrown away:
    the app's waits, so that a pulled plug loses nothing)."""
    store._db.execute("PRAGMA synchronous=OFF")
    return store


def kinds(events) -> dict[str, int]:
    counted: dict[str, int] = {}
    for event in events:
        counted[event.event] = counted.get(event.event, 0) + 1
    return counted


# -- whole games ----------------------------------------------------------------------------------

def test_a_whole_game_comes_out_as_its_true_log(tmp_path):
    """R12-R37 end to end: every play, Noah move, take-back, gift, departure and round end of a
    seeded three-round game, none wrong, none extra. Two players: the crocodile's, lion's and
    gifts' answers are forced (R20, R33, R45: one opponent), so the answers file never holds
    them, and they are answered all the same."""
    players, options = ("Ana", "Ben"), Options(hidden=True, crocodile=True)
    frames, tokens, answers, truth = record_game(tmp_path, players, seed=3, options=options)
    assert {json.loads(line)["ask"] for line in answers.splitlines()} <= {
        "starter", "snail_side", "giraffe_look"}
    events, status, log = referee(tmp_path, frames, tokens, answers, players, options)
    assert status == 0
    assert log == truth
    match = compare_logs(read_log(truth), read_log(log))
    assert not match["wrong"] and not match["missing"] and not match["extra"]
    truth_kinds = {line.get("type") for line in read_log(truth)}
    assert {"give", "croc_flee", "take_back"} <= truth_kinds
    counted = kinds(events)
    assert counted["round_end"] == 3 and counted["game_end"] == 1
    assert counted["departure"] >= 1 and counted["take_back"] >= 1
    assert counted["play"] == sum(1 for line in read_log(truth) if line.get("type") == "play")
    for event in events:
        data = json.loads(event.to_json())
        assert set(data) - {"frame", "event"} <= CONTRACT.get(data["event"], set()), data
    last = json.loads(events[-1].to_json())
    assert last["event"] == "game_end" and len(last["scores"]) == 2 and last["winners"]
    assert json.loads(events[-2].to_json())["event"] == "round_end"


def test_each_event_has_the_contracts_fields_numbered_as_on_the_mats(tmp_path, short_game):
    """TABLE-KIT.md: ferries 1-5 as on the mats, seats 0… in turn order, cards as stickers."""
    frames, tokens, answers, truth = short_game
    events, _, _ = referee(tmp_path, frames, tokens, answers)
    plays = [line for line in read_log(truth) if line.get("type") == "play"]
    moves = [line for line in read_log(truth) if line.get("type") == "move_noah"]
    seen = [json.loads(e.to_json()) for e in events if e.event in ("play", "noah")]
    assert [e for e in seen if e["event"] == "play"] == [
        {"frame": e["frame"], "event": "play", "seat": p["player"],
         "card": sticker(p["card"]), "ferry": p["ferry"] + 1}
        for e, p in zip([e for e in seen if e["event"] == "play"], plays, strict=True)]
    assert [e["to"] for e in seen if e["event"] == "noah"] == [m["to"] + 1 for m in moves]


def sticker(ref: str) -> str:
    from companion.game.deck import default_deck
    from companion.session.table_observer import physical
    from companion.tags.payload import DEFAULT_DECK_ID, encode

    return encode(DEFAULT_DECK_ID, default_deck()[physical(ref)])


def test_a_question_the_answers_do_not_cover_stops_with_status_3(tmp_path, short_game):
    """TABLE-KIT.md: an `asked` event naming it; the log keeps what was accepted."""
    frames, tokens, answers, truth = short_game
    snail = [line for line in answers.splitlines() if '"snail_side"' in line]
    assert snail, "seed 1 lays a snail among the first plays"
    events, status, log = referee(tmp_path, frames, tokens, answers.replace(snail[0], ""))
    assert status == UNANSWERED
    assert json.loads(events[-1].to_json()) == {
        "frame": events[-1].frame, "event": "asked", "ask": "snail_side",
        "card": json.loads(snail[0])["card"]}
    true_lines = read_log(truth)
    snail_play = next(n for n, line in enumerate(true_lines)
                      if line.get("type") == "play" and line["card"].startswith("snail"))
    assert read_log(log) == true_lines[:snail_play]  # what was accepted before it


def test_no_starter_answer_is_asked_at_once(tmp_path, short_game):
    frames, tokens, _, _ = short_game
    events, status, _ = referee(tmp_path, frames, tokens, "")
    assert status == UNANSWERED
    assert [json.loads(e.to_json())["ask"] for e in events if e.event == "asked"] == ["starter"]


def test_a_refused_play_is_a_refusal_event_with_its_reason_code(tmp_path):
    """R13/R15 (R50-R53's order): a card laid on Noah's ferry that the rules refuse comes out
    as `refusal` with its TABLE-LOG code, and the audit says to take it back (`audit`)."""
    from companion.game.actions import Play

    frames, tokens, answers, _ = record_game(tmp_path, max_actions=8)
    events, status, ref = run_referee(tmp_path, frames, tokens, answers)
    game, view = ref.session.game, ref.session.view
    assert status == 0 and view.prompt.kind == "play_card"
    on_table = {c for f in view.state["ferries"] for c in f or ()} | set(
        view.state.get("departed_cards") or ())
    refused = next(card.id for card in ref.session.deck
                   if card.species not in ("snail", "frog") and card.id not in on_table
                   and not game.check(Play(game.current_player, card.id, game.noah)).accepted)
    reading = tokens.read(frames[-1].full, loose=True)
    views = dict(reading.ferries)
    text = ref.sticker(refused)
    views[game.noah + 1] = FerryView(seen=True, top=text, zone=ZONE, codes=(text,))
    image = tokens.draw(TableReading(views, reading.noah))
    camera = TokenTable(OverheadTable("BOX1", ref.session.deck, 1), tokens)
    before = len(events)
    for _ in range(2):
        ref.feed(camera._shot(image))
    new = [json.loads(e.to_json()) for e in events[before:]]
    refusal = next(e for e in new if e["event"] == "refusal")
    assert refusal == {"frame": refusal["frame"], "event": "refusal",
                       "code": game.check(Play(game.current_player, refused, game.noah)).reason,
                       "seat": game.current_player, "card": text, "ferry": game.noah + 1}
    assert [e["finding"] for e in new if e["event"] == "audit"] == ["audit.wrong_top.hand"]


# -- the answers file -----------------------------------------------------------------------------

@pytest.mark.parametrize(("line", "says"), [
    ("not json", "line 2 is not JSON"),
    ('{"ask": "snail"}', '"ask" must be one of'),
    ('{"ask": "starter", "seat": true}', 'needs "seat"'),
    ('{"ask": "snail_side", "as": "M"}', 'needs "card"'),
    ('{"ask": "give", "gifts": [{"to": "Ben"}]}', 'each gift is {"to": seat}'),
    ('[1, 2]', '"ask" must be one of'),
])
def test_a_malformed_answers_line_is_named(line, says):
    with pytest.raises(UserError) as error:
        Answers.parse('{"ask": "starter", "seat": 0}\n' + line + "\n", "a.jsonl")
    assert says in str(error.value) and "a.jsonl" in str(error.value)


def test_an_answer_about_a_card_is_matched_on_its_sticker_text_in_order():
    answers = Answers.parse(
        '{"ask": "croc_flee", "card": "C1", "target": 2}\n'
        '{"ask": "giraffe_look", "card": "G1", "target": null}\n'
        '{"ask": "croc_flee", "card": "C2", "target": 1}\n'
        '{"ask": "croc_flee", "card": "C1", "target": 0}\n', "a.jsonl")
    assert answers.take("croc_flee", "C2")["target"] == 1
    assert [answers.take("croc_flee", "C1")["target"] for _ in range(2)] == [2, 0]
    assert answers.take("croc_flee", "C1") is None
    assert answers.take("giraffe_look", "G1")["target"] is None and answers.unused == 0


def test_a_question_with_one_legal_answer_is_forced():
    from companion.session.prompts import ChooseSnailSide, GiveCards

    assert question(ChooseSnailSide(player=0, text="", legal=("F",)), None).forced
    assert not question(ChooseSnailSide(player=0, text=""), None).forced
    assert question(GiveCards(player=0, text="", count=2, opponents=(1,)), None) == \
        Question("give", None, ({1: 2},))
    assert not question(GiveCards(player=0, text="", count=2, opponents=(1, 2)), None).forced


# -- the command ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_examples_recording_gives_its_expected_events_and_true_log(tmp_path, capsys):
    """The rendered recording (binned 2304 × 1296 JPEGs) end to end through the CLI."""
    log = tmp_path / "game.jsonl"
    status = main(["table", "referee", "--source", str(EXAMPLE), "--players", ",".join(PLAYERS),
                   "--answers", str(EXAMPLE / ANSWERS), "--log", str(log), "--json"])
    assert status == 0
    assert capsys.readouterr().out == (EXAMPLE / "expected-events.jsonl").read_text()
    assert log.read_text() == (EXAMPLE / TRUE_LOG).read_text()


def test_the_text_output_is_one_sentence_per_event():
    event = RefereeEvent("00017.jpg", "play", {"seat": 0, "card": "NOAH1/BOX1/ELM1",
                                               "ferry": 1}, said="the ♂ elephant")
    assert event.sentence(PLAYERS) == "00017.jpg: Ana loads the ♂ elephant on ferry 1."
    end = RefereeEvent("9.jpg", "game_end", {"scores": [3, 5, 3], "winners": [0, 2]})
    assert end.sentence(PLAYERS) == "9.jpg: Game over, Ana and Chloé win: Ana 3, Ben 5, Chloé 3."


@pytest.mark.parametrize(("extra", "says"), [
    (["--source", "/no/such/recording"], "neither a folder nor a video"),
    (["--options", "{frog"], "--options is not JSON"),
    (["--options", "[1]"], "--options must be a JSON object"),
    (["--answers", "/no/such/answers.jsonl"], "cannot be read"),
])
def test_bad_input_is_a_clear_error_never_a_traceback(tmp_path, capsys, extra, says):
    args = ["table", "referee", "--source", str(tmp_path), "--players", "Ana,Ben", *extra]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_an_unreadable_frame_or_an_empty_folder_stops_the_run(tmp_path, capsys):
    assert main(["table", "referee", "--source", str(tmp_path), "--players", "2"]) == 2
    assert "holds no images" in capsys.readouterr().err
    (tmp_path / "00001.jpg").write_bytes(b"not a picture")
    assert main(["table", "referee", "--source", str(tmp_path), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert "00001.jpg" in err and "Traceback" not in err


def test_a_malformed_answers_file_is_refused_before_any_frame(tmp_path, capsys):
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"ask": "starter"}\n')
    assert main(["table", "referee", "--source", str(EXAMPLE), "--players", "3",
                 "--answers", str(answers)]) == 2
    assert 'answers.jsonl, line 1: the starter answer needs "seat"' in capsys.readouterr().err


def test_the_command_referees_a_folder_of_frames_in_file_name_order(tmp_path, monkeypatch,
                                                                     capsys, short_game):
    """The CLI on a folder (PNG frames of the token table, read back by the token reader):
    one JSON line per event with the frame's file name, the log, exit status 3 on a question
    the answers do not cover."""
    import cv2

    import vision.table

    frames, tokens, answers, truth = short_game
    folder = tmp_path / "recording"
    folder.mkdir()
    for number, frame in enumerate(frames, start=1):
        cv2.imwrite(str(folder / f"{number:05d}.png"), frame.full)
    monkeypatch.setattr(vision.table, "TableReader", lambda: tokens)
    (tmp_path / "answers.jsonl").write_text(answers)
    args = ["table", "referee", "--source", str(folder), "--players", ",".join(PLAYERS),
            "--answers", str(tmp_path / "answers.jsonl"), "--log", str(tmp_path / "log.jsonl")]
    assert main([*args, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    moves = [line for line in read_log(truth) if line.get("type") in ("play", "move_noah")]
    assert [(e["event"], e.get("seat"), e.get("ferry", e.get("to"))) for e in lines] == [
        ("play" if m["type"] == "play" else "noah", m["player"] if m["type"] == "play" else None,
         m.get("ferry", m.get("to")) + 1) for m in moves]
    assert all(line["frame"].endswith(".png") for line in lines)
    assert [e["frame"] for e in lines] == sorted(e["frame"] for e in lines)
    assert (tmp_path / "log.jsonl").read_text() == truth
    (tmp_path / "answers.jsonl").write_text(answers.split("\n", 1)[1])  # no first player
    assert main(args) == UNANSWERED
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith("add a {\"ask\": \"starter\"} line and run it again.")
    assert [line.get("type") for line in read_log((tmp_path / "log.jsonl").read_text())] == [
        None]  # the header only: nothing was accepted before the question
