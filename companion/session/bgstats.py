"""Push a finished game to the BG Stats app: its documented import link, and a QR code of it.

BG Stats (https://www.bgstatsapp.com, "Push plays to BG Stats from other apps or websites")
opens ``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` (its own URL
scheme; ``https://app.bgstatsapp.com/createPlay.html?data=…`` is the documented web form of the
same link) in its import dialog, where players match the game and the names to their own entries.
The QR code carries the ``bgstats://`` form, which opens the app directly when a phone camera
reads it; ``web_link`` gives the https form for phones where the scheme is not registered.
Noah is won with the *fewest* tears, so ``highestWins`` is false; ranks follow the scores
(ties share a rank).

>>> data = play_data(["Ana", "Ben"], [12, 7], winners=[1], starter=0, game_id=3,
...                  played_at="2026-11-21 20:15:00", minutes=35)
>>> [(p["name"], p["rank"], p["winner"]) for p in data["players"]]
[('Ana', 2, False), ('Ben', 1, True)]
>>> play_link(data).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=%7B")
True
>>> web_link(play_link(data)).startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
True
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from companion.game import Game

if TYPE_CHECKING:
    import segno

    from companion.session.store import GameStore

LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Noah Table Companion"
GAME_NAME = "Noah"


def play_data(
    players: Sequence[str],
    scores: Sequence[int],
    *,
    winners: Sequence[int],
    starter: int | None,
    game_id: int,
    played_at: str,
    minutes: int | None = None,
    comments: str = "",
) -> dict[str, Any]:
    """The JSON object BG Stats imports for one play (its documented fields)."""
    ranks = {score: 1 + sum(other < score for other in scores) for score in scores}
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game_id),
        "playDate": played_at,
        "game": {"name": GAME_NAME, "highestWins": False, "noPoints": False,
                 "sourceGameId": "noah"},
        "players": [
            {"name": name, "score": score, "rank": ranks[score], "winner": seat in winners,
             "startPlayer": seat == starter}
            for seat, (name, score) in enumerate(zip(players, scores, strict=True))
        ],
    }
    if comments:
        data["comments"] = comments
    if minutes is not None:
        data["durationMin"] = minutes
    return data


def play_link(data: dict[str, Any]) -> str:
    """The import link for ``data`` (compact JSON, URL-encoded)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return LINK + urllib.parse.quote(text, safe=":,")  # both are fine in a query: a smaller QR


def web_link(link: str) -> str:
    """The https form of a ``bgstats://`` import link (same data)."""
    return WEB_LINK + link.removeprefix(LINK)


def qr_code(url: str) -> segno.QRCode:
    """A regular QR code of ``url`` (never Micro QR): ``.save("play.png", scale=6)`` for the
    screen, ``.terminal(compact=True)`` for the command line."""
    import segno

    return segno.make_qr(url, error="l")


def game_url(store: GameStore, game_id: int | None, game: Game | None) -> str:
    """The BG Stats link of the open game of the record, "" unless it is over."""
    if game_id is None or game is None or not game.is_over:
        return ""
    return play_url(game_id, game.players, game.scores, game.winners, store)


def play_url(game_id: int, players: Sequence[str], scores: Sequence[int],
             winners: Sequence[int], store: GameStore) -> str:
    """The BG Stats link of a finished game of the record, with its date and duration."""
    entry = store.game(game_id)
    started, ended = _time(entry.started_at), _time(entry.updated_at)
    minutes = max(1, round((ended - started).total_seconds() / 60))
    lines = store.lines(game_id)
    starter = next(
        (line.get("starter") for line in lines if line.get("starter") is not None), None
    )
    rounds = entry.summary.get("round_scores") or []
    comments = "Tears per round: " + " | ".join("-".join(map(str, r)) for r in rounds)
    data = play_data(
        players, scores, winners=winners, starter=starter,
        game_id=game_id, played_at=started.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        minutes=minutes, comments=comments if rounds else "",
    )
    return play_link(data)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)
