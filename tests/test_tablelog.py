"""The table log (TABLE-LOG.md): header, entries, round trips, malformed lines, replay."""

from __future__ import annotations

import doctest
import json

import pytest

from companion.commands import replay as replay_command
from companion.game import InputError, Options, simulate, tablelog
from companion.game.actions import (
    Gift,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    Position,
    ScanHands,
    ScoreRound,
    StartRound,
)
from companion.game.tablelog import (
    Header,
    Note,
    Undo,
    dumps,
    entry_from_dict,
    entry_to_dict,
    loads,
    replay,
    to_line,
)

HEADER = {"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben", "Chloé"],
          "options": {"hidden": True, "frog": False, "crocodile": False, "roommates": False,
                      "pair_mf": False, "end_rule": "rounds"}}
DEAL = {"type": "start_round", "noah": 0, "ferries": ["cat:F", "bear:M", "lion:M", "panda:F",
                                                      "snail:M"],
        "hand_counts": [8, 8, 8], "starter": 1}


def lines(*objects) -> list[str]:
    return [f"{json.dumps(item, ensure_ascii=False)}\n" for item in objects]


@pytest.mark.parametrize("module", [tablelog, simulate, replay_command])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


def test_header_reads_players_and_options():
    header = Header.from_dict(HEADER)
    assert header.players == ("Ana", "Ben", "Chloé")
    assert header.options == Options(hidden=True)
    assert Header.from_dict(header.to_dict()) == header


def test_header_ignores_unknown_fields_and_options():
    data = {**HEADER, "deck_id": "ours-1", "options": {**HEADER["options"], "music": "loud"}}
    assert Header.from_dict(data).options == Options(hidden=True)


@pytest.mark.parametrize(("data", "words"), [
    ({"type": "play"}, "header is missing"),
    ({**HEADER, "format": "chess-pgn"}, "'chess-pgn'"),
    ({**HEADER, "version": 2}, "version is 2"),
    ({**HEADER, "players": "Ana"}, "players"),
    ({**HEADER, "options": {"hidden": "yes"}}, "hidden"),
])
def test_bad_header_names_line_1(data, words):
    with pytest.raises(InputError) as error:
        Header.from_dict(data)
    assert error.value.line == 1
    assert words in str(error.value)


def test_every_action_kind_round_trips_through_a_line():
    entries = [
        Position(round=2, round_starter=1, current_player=2, noah=3,
                 ferries=(("cat:F", "cat:M"), None, (), ("snail:M#3",), ("bear:M",)),
                 departed=4, scores=(3, 0, 7), hand_counts=(5, 9, 6), extra_turn=True,
                 departed_cards=("lion:M",)),
        StartRound(noah=0, ferries=("cat:F", "bear:M", "lion:M", "panda:F", "snail:M"),
                   hands=(("cat:M",) * 8, ("snail",) * 8), starter=1),
        Play(1, "snail#2", 0, as_gender="F"), Play(2, "frog:F", 4, frog_weight=3),
        LionSwap(0, 2), LionSwap(0, 2, take="cat:F", give="bear:M"),
        Give(1, (Gift(0), Gift(2, "panda:M"))), ScanHands((("cat:F",), (), ("snail",))),
        ScoreRound((4, 0, 2), starter=2), Note("Chloé arrives — tea"), Undo(3), MoveNoah(0, 4),
    ]
    header = Header(("Ana", "Ben", "Chloé"), Options(frog=True, end_rule="score26"))
    assert loads(dumps(header, entries)) == (header, entries)


def test_lines_are_compact_utf8_json():
    assert to_line(Note("Chloé")) == '{"type":"note","text":"Chloé"}'
    assert entry_to_dict(Play(0, "snail", 4, as_gender="M"))["as"] == "M"


def test_unknown_fields_are_ignored():
    assert entry_from_dict({"type": "move_noah", "player": 0, "to": 2, "by": "camera"}) == \
        MoveNoah(0, 2)


@pytest.mark.parametrize(("data", "field"), [
    ({"type": "dance", "player": 0}, "type"),
    ({"player": 0}, "type"),
    ({"type": "play", "player": 0, "ferry": 1}, "card"),
    ({"type": "play", "player": "0", "card": "cat:F", "ferry": 1}, "player"),
    ({"type": "play", "player": 0, "card": "cat:F", "ferry": 1.0}, "ferry"),
    ({"type": "play", "player": 0, "card": ["cat:F"], "ferry": 1}, "card"),
    ({"type": "move_noah", "player": True, "to": 1}, "player"),
    ({"type": "give", "player": 0, "gifts": {"to": 1}}, "gifts"),
    ({"type": "give", "player": 0, "gifts": [{"to": "Ben"}]}, "gifts"),
    ({"type": "scan_hands", "hands": [["cat:F"], "bear:M"]}, "hands"),
    ({"type": "start_round", "noah": 0, "ferries": "cat:F", "hand_counts": [8, 8]}, "ferries"),
    ({"type": "undo", "count": 0}, "count"),
    ({"type": "undo", "count": "2"}, "count"),
    ({"type": "note", "text": 5}, "text"),
])
def test_malformed_entries_name_their_field(data, field):
    with pytest.raises(InputError) as error:
        entry_from_dict(data)
    assert error.value.field == field


def test_loads_is_strict_and_names_the_line():
    text = "".join(lines(HEADER, DEAL)) + "{not json}\n"
    with pytest.raises(InputError) as error:
        loads(text)
    assert error.value.line == 3


def _verdicts(log: list[str]) -> list[tuple[int, str, str | None]]:
    return [(r.line, r.verdict, r.reason) for r in replay(log)]


def test_replay_judges_each_line_and_goes_on_after_a_rejection():
    log = lines(HEADER, DEAL, {"type": "play", "player": 0, "card": "cat:M", "ferry": 0},
                {"type": "play", "player": 1, "card": "cat:M", "ferry": 0})
    assert _verdicts(log) == [(1, "accepted", None), (2, "accepted", None),
                              (3, "rejected", "not_your_turn"), (4, "accepted", None)]


def test_replay_malformed_lines_are_bad_action_verdicts():
    log = [*lines(HEADER, DEAL), "this is not json\n", "[1, 2]\n",
           *lines({"type": "dance"},
                  {"type": "play", "player": "Ben", "card": "cat:M", "ferry": 0},
                  {"type": "play", "player": 1, "card": "cat:M", "ferry": 0})]
    assert _verdicts(log)[2:] == [(3, "rejected", "bad_action"), (4, "rejected", "bad_action"),
                                  (5, "rejected", "bad_action"), (6, "rejected", "bad_action"),
                                  (7, "accepted", None)]


def test_replay_skips_blank_lines_and_accepts_notes():
    log = [*lines(HEADER), "\n", "   \n", *lines({"type": "note", "text": "hello"})]
    results = list(replay(log))
    assert [(r.line, r.verdict) for r in results] == [(1, "accepted"), (4, "accepted")]
    assert results[-1].message == "Note: hello"


def test_replay_undo_restores_and_too_many_is_rejected():
    play = {"type": "play", "player": 1, "card": "cat:M", "ferry": 0}
    results = list(replay(lines(HEADER, DEAL, play, {"type": "undo"},
                                {"type": "undo", "count": 5}, play)))
    assert [(r.verdict, r.reason) for r in results[3:]] == [
        ("accepted", None), ("rejected", "bad_action"), ("accepted", None)]
    assert results[3].message == "Took back 1 action, last first: Ben's ♂ cat on ferry 1."
    assert len(results[-1].game.history) == 2


def test_replay_reads_bytes_and_reports_bad_utf8():
    log = [line.encode() for line in lines(HEADER, DEAL)]
    assert _verdicts(log)[-1] == (2, "accepted", None)
    with pytest.raises(InputError) as error:
        list(replay([*log, b"\xff\xfe{\n"]))
    assert error.value.line == 3


@pytest.mark.parametrize(("log", "line", "words"), [
    ([], 1, "empty"),
    (["\n"], 1, "empty"),
    (lines({"type": "note", "text": "no header"}), 1, "header is missing"),
    (["not json at all\n"], 1, "header"),
    (lines({**HEADER, "version": 9}), 1, "version"),
    ([*lines(HEADER, DEAL), '{"type": "play", "player": 1, "ca'], 3, "middle of line 3"),
])
def test_replay_unreadable_logs_raise_with_the_line(log, line, words):
    with pytest.raises(InputError) as error:
        list(replay(log))
    assert error.value.line == line
    assert words in error.value.message


def test_replay_state_objects_follow_table_log():
    results = list(replay(lines(HEADER, DEAL)))
    data = results[-1].to_dict(state=True)
    assert set(data) == {"line", "verdict", "reason", "message", "state"}
    state = data["state"]
    for key in ("round", "phase", "current_player", "round_starter", "noah", "ferries",
                "weights", "capacities", "departed", "reserve", "hand_counts", "scores",
                "round_scores", "extra_turn", "gifts_owed", "round_over", "game_over",
                "winners", "next_round_starter"):
        assert key in state, key
    assert state["hand_counts"] == [8, 8, 8] and state["current_player"] == 1


def test_loads_skips_blank_lines():
    header = Header(("Ana", "Ben"))
    text = dumps(header, [Note("a"), Undo()]).replace("\n", "\n\n", 1)
    assert loads(text) == (header, [Note("a"), Undo()])


def test_replay_accepts_windows_line_ends_and_a_byte_order_mark():
    log = [("\ufeff" + line).replace("\n", "\r\n") if number == 0 else line.replace("\n", "\r\n")
           for number, line in enumerate(lines(HEADER, DEAL))]
    assert _verdicts([line.encode("utf-8") for line in log]) == [(1, "accepted", None),
                                                                 (2, "accepted", None)]
