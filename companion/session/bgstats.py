"""Push a finished game to the BG Stats app: its documented import link, and a QR code of it.

BG Stats (https://www.bgstatsapp.com, "Push plays to BG Stats from other apps or websites")
opens ``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` (its own URL
scheme; ``https://app.bgstatsapp.com/createPlay.html?data=…`` is the documented web form of the
same link) in its import dialog, where players match the game and the names to their own entries.
The QR code carries the ``bgstats://`` form, which opens the app directly when a phone camera
reads it; ``web_link`` gives the https form for phones where the scheme is not registered.
Noah is won with the *fewest* tears, so ``highestWins`` is false; ranks follow the scores
(ties share a rank).

The fields, checked against BG Stats' published format ("Push plays to BG Stats from other
apps or websites"): ``sourceName``, ``sourcePlayId`` (the record's game number: importing the
same play twice is recognised), ``playDate`` (``YYYY-MM-DD HH:MM:SS``, local time),
``durationMin``, ``game`` (``name``, ``highestWins``, ``sourceGameId``: the companion's own id
for Noah, so the match of "Noah" to the user's game is remembered), ``board`` (the variant: the
promo animals and rules variants in play; absent in a plain game), ``players`` (``name``,
``score``, ``rank``, ``winner``, ``startPlayer``) and ``comments``. A link is read from a QR code
on a 7" screen, so :func:`play_data` leaves out what BG Stats takes as false or empty anyway
(``noPoints``, ``winner``/``startPlayer`` when false) and the tears per round unless asked
(``rounds``): a three-player game's link is about 520 characters instead of 700.

>>> data = play_data(["Ana", "Ben"], [12, 7], winners=[1], starter=0, game_id=3,
...                  played_at="2026-11-21 20:15:00", minutes=35)
>>> [(p["name"], p["rank"], p.get("winner", False)) for p in data["players"]]
[('Ana', 2, False), ('Ben', 1, True)]
>>> data["players"][0]
{'name': 'Ana', 'score': 12, 'rank': 2, 'startPlayer': True}
>>> play_data(["Ana", "Ben"], [3, 3], winners=[0, 1], starter=None, game_id=4,
...           played_at="2026-11-21 20:15:00", variant="Frog, Crocodile")["board"]
'Frog, Crocodile'
>>> play_link(data).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=%7B")
True
>>> web_link(play_link(data)).startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
True
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from companion.game import Game

LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Noah Table Companion"
GAME_NAME = "Noah"
#: The header's option flags named as BG Stats' ``board`` shows them (R6, R27, R47).
VARIANTS = (("frog", "Frog"), ("crocodile", "Crocodile"), ("roommates", "Roommates"),
            ("pair_mf", "Male-female pairs"))


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
    variant: str = "",
) -> dict[str, Any]:
    """The JSON object BG Stats imports for one play (its documented fields; those BG Stats
    takes as false or empty when absent are left out, for a shorter link)."""
    ranks = {score: 1 + sum(other < score for other in scores) for score in scores}
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game_id),
        "playDate": played_at,
        "game": {"name": GAME_NAME, "highestWins": False, "sourceGameId": "noah"},
        "players": [_player(name, score, ranks[score], seat in winners, seat == starter)
                    for seat, (name, score) in enumerate(zip(players, scores, strict=True))],
    }
    if variant:
        data["board"] = variant
    if comments:
        data["comments"] = comments
    if minutes is not None:
        data["durationMin"] = minutes
    return data


def _player(name: str, score: int, rank: int, winner: bool, starter: bool) -> dict[str, Any]:
    player: dict[str, Any] = {"name": name, "score": score, "rank": rank}
    if winner:
        player["winner"] = True
    if starter:
        player["startPlayer"] = True
    return player


def play_link(data: dict[str, Any]) -> str:
    """The import link for ``data`` (compact JSON, URL-encoded)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # ":,@!$'()*;/?" are allowed as they are in a query (RFC 3986): a smaller QR code
    return LINK + urllib.parse.quote(text, safe=":,@!$'()*;/?")


def web_link(link: str) -> str:
    """The https form of a ``bgstats://`` import link (same data)."""
    return WEB_LINK + link.removeprefix(LINK)


def qr_code(url: str):
    """A regular QR code of ``url`` (never Micro QR): ``.save("play.png", scale=6)`` for the
    screen, ``.terminal(compact=True)`` for the command line."""
    import segno

    return segno.make_qr(url, error="l")


def game_url(store: Any, game_id: int | None, game: Game | None) -> str:
    """The BG Stats link of the open game of the record, "" unless it is over."""
    if game_id is None or game is None or not game.is_over:
        return ""
    return play_url(game_id, game.players, game.scores, game.winners, store)


def play_url(game_id: int, players: Sequence[str], scores: Sequence[int],
             winners: Sequence[int], store: Any, *, rounds: bool = False,
             options: Mapping[str, Any] | None = None) -> str:
    """The BG Stats link of a finished game of the record, with its date, duration and
    variant (``options``: the table log's header options; the record's when None); the tears
    per round in the comments when ``rounds`` (a longer link: for a button, not a QR code)."""
    entry = store.game(game_id)
    started, ended = _time(entry.started_at), _time(entry.updated_at)
    minutes = max(1, round((ended - started).total_seconds() / 60))
    lines = store.lines(game_id)
    starter = next(
        (line.get("starter") for line in lines if line.get("starter") is not None), None
    )
    per_round = entry.summary.get("round_scores") or []
    comments = "Tears per round: " + " | ".join("-".join(map(str, r)) for r in per_round)
    data = play_data(
        players, scores, winners=winners, starter=starter,
        game_id=game_id, played_at=started.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        minutes=minutes, comments=comments if rounds and per_round else "",
        variant=variant_name(entry.header.get("options", {}) if options is None else options),
    )
    return play_link(data)


def variant_name(options: Mapping[str, Any]) -> str:
    """The promo animals and rules variants in play, in English ("" for a plain game).

    >>> variant_name({"frog": True, "crocodile": True, "end_rule": "rounds"})
    'Frog, Crocodile'
    >>> variant_name({"roommates": True, "end_rule": "score26"})
    'Roommates, Play to 26 tears'
    """
    names = [name for key, name in VARIANTS if options.get(key)]
    if options.get("end_rule") == "score26":
        names.append("Play to 26 tears")
    return ", ".join(names)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)
