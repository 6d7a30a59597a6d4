"""``export --bgstats`` (the link checked against BG Stats' published format, a QR code that fits
or a file), ``[web]`` in the config, ``doctor``'s LAN page check and ``noah-companion web``."""

from __future__ import annotations

import argparse
import json
import re
import threading
import urllib.parse
import urllib.request

import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.config import Config
from companion.doctor import Status, check_web
from companion.errors import UserError
from tests.web.conftest import TOKEN, in_thread, wait_for

#: BG Stats' createPlay format ("Push plays to BG Stats from other apps or websites").
PLAY_FIELDS = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players",
               "board", "comments", "location"}
GAME_FIELDS = {"name", "highestWins", "noPoints", "sourceGameId", "bggId"}
PLAYER_FIELDS = {"name", "score", "rank", "winner", "startPlayer", "role", "sourcePlayerId"}


@pytest.fixture
def db(table, tmp_path, monkeypatch):
    monkeypatch.setenv("NOAH_COMPANION_CONFIG", str(tmp_path / "none.ini"))
    return table.app.store_path


def _play(link: str) -> dict:
    return json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))


def test_export_bgstats_gives_the_link_without_dumping_the_log(db, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["export", "1", "--bgstats", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "noah-table-log" not in out and '"type"' not in out  # no table log
    link = re.search(r"BG Stats: (\S+)", out)[1]
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert "--qr FILE.png" in out  # 81 columns of code do not fit 80: a file instead
    assert max(len(line) for line in out.splitlines()[1:]) <= 80


def test_the_bgstats_play_uses_only_its_documented_fields(db, capsys):
    assert main(["export", "1", "--bgstats", "--db", str(db)]) == 0
    play = _play(re.search(r"BG Stats: (\S+)", capsys.readouterr().out)[1])
    assert set(play) <= PLAY_FIELDS and set(play["game"]) <= GAME_FIELDS
    assert all(set(player) <= PLAYER_FIELDS for player in play["players"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    assert play["game"] == {"name": "Noah", "highestWins": False, "sourceGameId": "noah"}
    assert play["sourcePlayId"] == "1" and play["durationMin"] >= 1
    players = play["players"]
    assert [p["name"] for p in players] == ["Ana", "Ben", "Chloé"]
    best = min(p["score"] for p in players)  # Noah: the fewest tears win
    assert all(p.get("winner", False) == (p["score"] == best) for p in players)
    assert all((p["rank"] == 1) == (p["score"] == best) for p in players)
    assert sum(p.get("startPlayer", False) for p in players) == 1


def test_export_bgstats_saves_a_qr_code_a_phone_reads(db, tmp_path, capsys):
    import zxingcpp

    png = tmp_path / "play.png"
    assert main(["export", "1", "--bgstats", "--qr", str(png), "--db", str(db)]) == 0
    link = re.search(r"BG Stats: (\S+)", capsys.readouterr().out)[1]
    [code] = zxingcpp.read_barcodes(np.array(Image.open(png).convert("L")))
    assert code.text == link


def test_the_web_section_is_checked_like_the_others():
    from companion.web.settings import WebSettings

    config = Config.from_text("[web]\nenabled = yes\nport = 9000\n")
    assert config.validated("web", WebSettings.from_section).port == 9000
    for text, words in (("port = 22", "port = '22'"), ("host = the-pi", "not an IP address"),
                        ("enable = yes", "did you mean 'enabled'")):
        with pytest.raises(UserError, match=words):
            Config.from_text(f"[web]\n{text}\n").validated("web", WebSettings.from_section)


class Machine:
    def __init__(self, text: str) -> None:
        self.config = Config.from_text(text)


def test_doctor_says_whether_the_page_is_on_and_where(table):
    assert check_web(Machine("")).status is Status.OK  # off by default
    port = table.app.port
    found = check_web(Machine(f"[web]\nenabled = yes\nhost = 127.0.0.1\nport = {port}\n"))
    assert found.status is Status.OK and f"http://127.0.0.1:{port}/" in found.found
    nobody = check_web(Machine("[web]\nenabled = yes\nhost = 127.0.0.1\nport = 1025\n"))
    assert nobody.status is Status.WARN and "nothing answers" in nobody.found


def test_the_web_command_serves_a_record_read_only_and_prints_its_address(db, capsys):
    from companion.commands.web import serve

    args = argparse.Namespace(db=str(db), host="127.0.0.1", port=18765, token=TOKEN,
                              language="fr", no_mdns=True)
    stop = threading.Event()
    server = in_thread(lambda: serve(args, stop))
    try:
        state = wait_for(lambda: _get(f"http://127.0.0.1:18765/api/state?token={TOKEN}"),
                         "the page")
        assert json.loads(state)["games"][-1]["players"] == ["Ana", "Ben", "Chloé"], state[:300]
        assert json.loads(state)["language"] == "fr"
    finally:
        stop.set()
        server.join(10)
    assert f"http://127.0.0.1:18765/?token={TOKEN}" in capsys.readouterr().out


def _get(url: str) -> bytes | None:
    try:
        return urllib.request.urlopen(url, timeout=5).read()
    except OSError:
        return None
