"""A finished Complot game goes to BG Stats like a Noah game (issue 21): the play a seeded game
makes (the highest total wins, C55; ties share rank and victory; the first player on the first
dealer's left, C12; the level as the ``board``; the manches in the comments), and ``export N
--bgstats`` on a Complot record."""

from __future__ import annotations

import json
import re
import urllib.parse

import pytest

from companion.cli import main
from companion.complot.session import ComplotSession
from companion.complot.simulate import play_game
from companion.session.bgstats import summary_url
from companion.session.history import history
from companion.session.store import GameStore
from tests.web.test_cli import GAME_FIELDS, PLAY_FIELDS, PLAYER_FIELDS

COMPLOT = {"name": "Noé, Complot à l'Élysée", "highestWins": True, "sourceGameId": "complot"}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    """A seeded level-2 game of three to 100 points (a short one: each stored line is its own
    committed write), in a record: the report and the record's summary of it."""
    report = play_game("37", players=3, level=2, target=100)
    assert report.problem is None and report.winners
    with GameStore(tmp_path_factory.mktemp("seeded") / "games.sqlite") as store:
        game_id = _stored(store, report.log)
        [summary] = history(store)
        assert summary.id == game_id and summary.finished
        yield report, store, summary


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "none.ini"))
    with GameStore(tmp_path / "games.sqlite") as store:
        yield store


def _stored(store: GameStore, log: str) -> int:
    header, *lines = [json.loads(line) for line in log.splitlines() if line.strip()]
    game_id = store.create_game(header)
    for line in lines:
        store.append(game_id, line)
    return game_id


def _play(link: str) -> dict:
    return json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))


def _tied_game(store: GameStore) -> ComplotSession:
    """Scores only to 100: Ana and Ben each announce 50 in two manches (C51, C52): both reach
    100, Chloé none — the victory is shared (C55)."""
    session = ComplotSession(store)
    session.new_game(["Ana", "Ben", "Chloé"], target=100, scores_only=True)
    while session.view.phase != "game_over":
        for seat in (0, 1):
            if session.view.phase == "manche":
                session.claim_points(seat, "six_empires")
        if session.view.phase == "manche_over":
            session.next_manche()
    return session


def test_a_seeded_complot_game_s_play_is_worded_for_bg_stats_c12_c55(seeded):
    report, store, summary = seeded
    header = json.loads(report.log.splitlines()[0])
    play = _play(summary_url(store, summary))
    assert set(play) <= PLAY_FIELDS and set(play["game"]) <= GAME_FIELDS
    assert all(set(player) <= PLAYER_FIELDS for player in play["players"])
    assert play["game"] == COMPLOT and play["sourcePlayId"] == str(summary.id)
    assert play["board"] == "Level 2, Play to 100" and "comments" not in play
    players = play["players"]
    assert [p["score"] for p in players] == list(report.scores)
    assert [seat for seat, p in enumerate(players) if p.get("winner")] == list(report.winners)
    for player in players:  # the highest total ranks first
        assert player["rank"] == 1 + sum(p["score"] > player["score"] for p in players)
    first = (header["options"]["dealer"] + 1) % 3  # the first dealer's left (C12)
    assert [seat for seat, p in enumerate(players) if p.get("startPlayer")] == [first]


def test_the_manches_go_in_the_comments_where_noah_puts_its_rounds(seeded):
    _report, store, summary = seeded
    comments = _play(summary_url(store, summary, rounds=True))["comments"]
    assert summary.rounds and comments == "Points per manche: " + " | ".join(
        "-".join(map(str, points)) for points in summary.rounds)


def test_players_tied_at_the_top_share_rank_1_and_the_victory_c55(store):
    session = _tied_game(store)
    play = _play(session.bgstats_url())
    assert session.bgstats_url().startswith("bgstats://app.bgstatsapp.com/createPlay.html?")
    assert [(p["name"], p["score"], p["rank"], p.get("winner", False))
            for p in play["players"]] == [("Ana", 100, 1, True), ("Ben", 100, 1, True),
                                          ("Chloé", 0, 3, False)]
    # the table's first dealer is the last seat by default: Ana plays first (C12)
    assert play["players"][0].get("startPlayer") and play["board"] == "Level 1, Play to 100"


def test_export_bgstats_on_a_complot_record(store, capsys):
    session = _tied_game(store)
    game = session.view.game_id
    assert main(["export", str(game), "--bgstats", "--db", str(store.path)]) == 0
    out = capsys.readouterr().out
    assert "complot-table-log" not in out  # the link alone, no table log
    link = re.search(r"BG Stats: (\S+)", out)[1]
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert _play(link)["game"] == COMPLOT


def test_an_unfinished_complot_game_has_no_bg_stats_link(store, capsys):
    session = ComplotSession(store)
    session.new_game(["Ana", "Ben"], scores_only=True)
    assert session.bgstats_url() == ""
    assert main(["export", "last", "--bgstats", "--db", str(store.path)]) == 2
    assert "not finished" in capsys.readouterr().err
