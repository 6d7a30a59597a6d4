"""The game seam (issue 21 §1): a registry of game kinds chosen by the table log's ``format``; the
history, export and replay of a record holding both games; ``[game] kind`` and ``[complot]``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion.cli import main
from companion.complot.simulate import play_game
from companion.config import Config
from companion.errors import UserError
from companion.games import DEFAULT_KIND, find_kind, kind_of_log, kinds
from companion.session import Session
from companion.session.base import SessionBase
from companion.session.bgstats import summary_url
from companion.session.history import export, history
from companion.session.store import UNSTATED_FORMAT, GameStore

COMPANION = Path(__file__).resolve().parents[1] / "companion"


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "games.sqlite") as store:
        yield store


@pytest.fixture(scope="module")
def complot_log():
    """A short seeded Complot game to 100 points (C55 with a lower target): 2 manches, 14 lines
    (each line of a record is its own committed write: few lines keep the tests fast)."""
    report = play_game("5", players=2, level=1, target=100)
    assert report.problem is None and report.winners
    return report


def _store_log(store, log_text):
    header, *lines = [json.loads(line) for line in log_text.splitlines() if line.strip()]
    game_id = store.create_game(header)
    for line in lines:
        store.append(game_id, line)
    return game_id


def test_each_game_is_found_by_its_log_format_and_by_its_config_name():
    assert [kind.name for kind in kinds()] == ["noah", "complot"]
    for kind in kinds():
        assert find_kind(kind.name) is find_kind(kind.log_format) is kind
    with pytest.raises(UserError, match="noah or complot"):
        find_kind("chess")
    # a header that names no game is the same game's for the record and for the registry
    assert find_kind(DEFAULT_KIND).log_format == UNSTATED_FORMAT


def test_a_log_s_first_line_chooses_its_referee_and_anything_else_goes_to_noah_s_errors():
    assert kind_of_log(b'{"format": "complot-table-log"}').name == "complot"
    for line in (b"", b"[1]", b'{"format": "go-table-log"}', b'{"format": 7}', b"\xff"):
        assert kind_of_log(line).name == "noah"


def test_the_two_games_stickers_are_foreign_to_each_other():
    """C6: a distinct magic, so a Noah card is never taken for a Complot card (nor back)."""
    noah, complot = find_kind("noah").codec(), find_kind("complot").codec()
    assert noah.MAGIC != complot.MAGIC
    assert noah.is_ours("NOAH1/BOX1/CAF2") and not complot.is_ours("NOAH1/BOX1/CAF2")
    assert complot.is_ours("CPLT1/BOX1/EPNO") and not noah.is_ours("CPLT1/BOX1/EPNO")


def test_each_kind_s_session_is_built_on_the_generic_session():
    assert find_kind("noah").session_class() is Session
    complot = find_kind("complot").session_class()
    assert issubclass(complot, SessionBase) and complot.log_format == "complot-table-log"


def test_history_lists_both_games_each_read_by_its_own_referee(store, complot_log):
    """C55 (the game ends at the target; the winner has the highest total) and each manche's
    points (C51) as the history reads them back from a stored Complot log."""
    noah = Session(store)
    noah.new_game(["Ana", "Ben"], score_only=True)
    noah.enter_tears((2, 1))
    complot_id = _store_log(store, complot_log.log)
    games = {game.kind: game for game in history(store)}
    assert set(games) == {"noah", "complot"}
    complot = games["complot"]
    assert complot.id == complot_id and complot.finished and complot.damage is None
    assert complot.scores == complot_log.scores and complot.winners == complot_log.winners
    assert len(complot.rounds) == complot_log.manches
    assert tuple(map(sum, zip(*complot.rounds, strict=True))) == complot.scores
    assert games["noah"].rounds == ((2, 1),)


def test_a_complot_game_exports_its_manches_and_totals_as_csv(store, complot_log):
    game_id = _store_log(store, complot_log.log)
    header, *rows = export(store, game_id, None, "csv").splitlines()
    assert header == "game,manche,seat,player,points,total"
    last = rows[-len(complot_log.scores):]  # the last manche: each seat's total is its score
    assert [int(row.split(",")[-1]) for row in last] == list(complot_log.scores)
    data = json.loads(export(store, game_id, None, "json"))
    assert data["kind"] == "complot" and data["scores"] == list(complot_log.scores)
    [summary] = history(store)
    play = json.loads(unquote(summary_url(store, summary).split("data=", 1)[1]))
    assert play["game"]["sourceGameId"] == "complot"  # the kind's facts, not Noah's (C55)
    assert [p["score"] for p in play["players"]] == list(complot_log.scores)


def test_an_exported_complot_log_replays_through_complot_s_referee(tmp_path, store, complot_log,
                                                                    capsys):
    game_id = _store_log(store, complot_log.log)
    log = tmp_path / "complot.jsonl"
    log.write_text(export(store, game_id, None, "log"), encoding="utf-8")
    assert main(["replay", str(log), "--strict"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("manche ") and "game_over" in out[-1]
    broken = tmp_path / "broken.jsonl"
    broken.write_text(log.read_text().splitlines()[0] + '\n{"type": "draw", "player": 9}\n')
    assert main(["replay", str(broken), "--strict"]) == 1


def test_a_complot_game_in_the_record_is_damaged_where_its_log_is(store, complot_log):
    header, first, *_ = complot_log.log.splitlines()
    game_id = store.create_game(json.loads(header))
    store.append(game_id, json.loads(first))
    store.append(game_id, {"type": "discard", "player": 0, "card": "nowhere"})
    [game] = history(store)
    assert game.kind == "complot" and game.damage is not None and game.damage.line == 3


def test_a_record_written_by_the_first_version_reads_as_it_did_then(tmp_path):
    """The record file written by the code of 2026-11-21 (71ba320, before any second game):
    its history as that version computed it, and its CSV byte for byte."""
    data = Path(__file__).parent / "session" / "data"
    record = tmp_path / "games.sqlite"
    record.write_bytes((data / "record-2026-11-21.sqlite").read_bytes())
    then = json.loads((data / "record-2026-11-21.history.json").read_text(encoding="utf-8"))
    with GameStore.reader(record) as store:
        now = history(store)
        csv = export(store, 1, None, "csv")
    assert [game.kind for game in now] == ["noah"] * len(then)
    for game, old in zip(now, then, strict=True):
        assert (game.id, list(game.players), game.finished, list(game.scores),
                list(game.winners), game.actions) == (
            old["id"], old["players"], old["finished"], old["scores"], old["winners"],
            old["actions"])
        if old["rounds"]:  # the first version counted rounds only of games its session wrote
            assert [list(r) for r in game.rounds] == old["rounds"]
    assert csv == (data / "record-2026-11-21.game1.csv").read_text(encoding="utf-8")
    with GameStore(record) as store:  # and the session resumes its unfinished game
        assert Session(store).resume().players == ("Dan", "Eve")


@pytest.mark.parametrize(("text", "key"), [
    ("[game]\nkind = chess\n", "kind"),
    ("[complot]\nlevel = 4\n", "level"),
    ("[complot]\ntarget = 0\n", "target"),
    ("[complot]\ntarget = ４００\n", "target"),
    ("[complot]\nlevels = 2\n", "'levels'"),
])
def test_the_game_settings_name_the_bad_key(text, key):
    with pytest.raises(UserError, match=re.escape(key)):
        Config.from_text(text)


def test_the_game_settings_default_to_noah_and_the_rulebook_s_complot():
    """C55: 400 points by default; C91/C92: level 1 unless the table chose more."""
    default = Config.from_text("")
    assert (default.game.kind, default.complot.level, default.complot.target) == (
        "noah", 1, 400)
    chosen = Config.from_text("[game]\nkind = Complot\n[complot]\nlevel = 3\ntarget = 300\n")
    assert (chosen.game.kind, chosen.validated("complot").level, chosen.complot.target) == (
        "complot", 3, 300)


#: Modules that are one game's own: its engine, its kind, its session and their helpers.
GAME_OWN = ("game/", "complot/", "games/", "tags/", "session/record.py", "session/session.py",
            "session/store.py")
#: Branching on which game is played: comparing with a game's name or log format.
BRANCH = re.compile(r"""(==|!=|\bin\b|\bis\b)\s*[("']*(noah|complot)(-table-log)?["']"""
                    r"""|["'](noah|complot)(-table-log)?["']\s*(==|!=)"""
                    r"""|isinstance\([^)]*\b(Session|ComplotSession|SessionView|ComplotView"""
                    r"""|NoahKind|ComplotKind)\b""")


def test_nothing_above_the_engines_branches_on_which_game_is_played():
    """The seam's test: the layers above the engines ask the game's kind (companion.games),
    never ``if noah``/``if complot``."""
    assert all(BRANCH.search(text) for text in (
        'if kind.name == "noah":', "x != 'complot-table-log'", "isinstance(s, ComplotSession)"))
    found = []
    for path in sorted(COMPANION.rglob("*.py")):
        name = path.relative_to(COMPANION).as_posix()
        if name.startswith(GAME_OWN):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BRANCH.search(line.split("#")[0]):
                found.append(f"companion/{name}:{number}: {line.strip()}")
    assert found == []


def test_a_real_table_s_complot_game_reads_back_with_its_manches_after_an_undo(store):
    """A score-only game of the app's session (hidden hands, C31/C32/C40 points): the history
    has each finished manche once, an undone end of manche no longer counted (C51, C55)."""
    from companion.complot import table
    session_class = find_kind("complot").session_class()
    session = session_class(store)
    session.new_game(["Ana", "Ben"], target=1000, scores_only=True)
    combination, points = next(iter(table.POINTS.items()))
    assert session.claim_points(0, combination).accepted  # manche 1 over
    assert session.next_manche().accepted
    assert session.claim_points(1, combination).accepted  # manche 2 over...
    assert session.undo().accepted  # ...not any more
    [game] = history(store)
    assert (game.kind, game.rounds, game.round, game.damage) == (
        "complot", ((points, 0),), 2, None)
