"""Push a finished game to the BG Stats app: its documented import link, and a QR code of it.

BG Stats (https://www.bgstatsapp.com, "Push plays to BG Stats from other apps or websites")
opens ``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` (its own URL
scheme; ``https://app.bgstatsapp.com/createPlay.html?data=…`` is the documented web form of the
same link) in its import dialog, where players match the game and the names to their own entries.
The QR code carries the ``bgstats://`` form, which opens the app directly when a phone camera
reads it; ``web_link`` gives the https form for phones where the scheme is not registered.

One module for every game: what differs is data each game's kind (companion.games) reads in a
stored game, :class:`PlayFacts` — the game as BG Stats names it (:class:`BGStatsGame`: its name,
whether the highest or the lowest score wins, its own ``sourceGameId``), who started and the
variant (``board``). Ranks follow the scores in the game's direction, ties sharing a rank
(Noah's fewest tears, R-rules; Complot's highest total, C55).

The fields, checked against BG Stats' published format ("Push plays to BG Stats from other
apps or websites"): ``sourceName``, ``sourcePlayId`` (the record's game number: importing the
same play twice is recognised), ``playDate`` (``YYYY-MM-DD HH:MM:SS``, local time),
``durationMin``, ``game`` (``name``, ``highestWins``, ``sourceGameId``: the companion's own id
for the game, so the match to the user's game is remembered), ``board`` (the variant; absent
when the game has none), ``players`` (``name``, ``score``, ``rank``, ``winner``,
``startPlayer``) and ``comments``. A link is read from a QR code on a 7" screen, so
:func:`play_data` leaves out what BG Stats takes as false or empty anyway (``noPoints``,
``winner``/``startPlayer`` when false) and the scores per period unless asked (``rounds``):
a three-player Noah game's link is about 520 characters instead of 700.

>>> noah = BGStatsGame("Noah", "noah", highest_wins=False, periods="Tears per round")
>>> data = play_data(["Ana", "Ben"], [12, 7], winners=[1], starter=0, game_id=3,
...                  played_at="2026-11-21 20:15:00", minutes=35, game=noah)
>>> [(p["name"], p["rank"], p.get("winner", False)) for p in data["players"]]
[('Ana', 2, False), ('Ben', 1, True)]
>>> data["players"][0]
{'name': 'Ana', 'score': 12, 'rank': 2, 'startPlayer': True}
>>> play_data(["Ana", "Ben"], [3, 3], winners=[0, 1], starter=None, game_id=4,
...           played_at="2026-11-21 20:15:00", variant="Frog, Crocodile", game=noah)["board"]
'Frog, Crocodile'
>>> play_link(data).startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=%7B")
True
>>> web_link(play_link(data)).startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
True

The highest total wins Complot; two players tied at the top share rank 1 and the next is 3rd
(C55):

>>> complot = BGStatsGame("Noé, Complot à l'Élysée", "complot", highest_wins=True)
>>> play = play_data(["Ana", "Ben", "Chloé"], [400, 400, 250], winners=[0, 1], starter=2,
...                  game_id=5, played_at="2026-11-21 20:15:00", game=complot)
>>> [(p["rank"], p.get("winner", False)) for p in play["players"]], play["game"]["highestWins"]
([(1, True), (1, True), (3, False)], True)
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import segno

    from companion.session.history import GameSummary
    from companion.session.store import GameStore

LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Noah Table Companion"


@dataclass(frozen=True)
class BGStatsGame:
    """A game as BG Stats' import names it (createPlay's ``game`` object), and the words
    that head its scores per period in the play's comments."""

    name: str
    #: The companion's own id of the game: BG Stats remembers the user's match to it.
    source_game_id: str
    #: True when the highest score wins (Complot), False when the lowest does (Noah's tears).
    highest_wins: bool
    periods: str = "Points per round"

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "highestWins": self.highest_wins,
                "sourceGameId": self.source_game_id}


@dataclass(frozen=True)
class PlayFacts:
    """What a game's kind reads in one stored game for BG Stats (``GameKind.bgstats_facts``):
    the game, the seat that played first (None when the record does not say) and the variant
    in BG Stats' ``board`` ("" for none)."""

    game: BGStatsGame
    starter: int | None = None
    board: str = ""


def play_data(
    players: Sequence[str],
    scores: Sequence[int],
    *,
    winners: Sequence[int],
    starter: int | None,
    game_id: int,
    played_at: str,
    game: BGStatsGame,
    minutes: int | None = None,
    comments: str = "",
    variant: str = "",
) -> dict[str, Any]:
    """The JSON object BG Stats imports for one play (its documented fields; those BG Stats
    takes as false or empty when absent are left out, for a shorter link)."""
    ranks = {score: 1 + sum(_beats(other, score, game.highest_wins) for other in scores)
             for score in scores}
    data: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game_id),
        "playDate": played_at,
        "game": game.as_json(),
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


def _beats(other: int, score: int, highest_wins: bool) -> bool:
    return other > score if highest_wins else other < score


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


def qr_code(url: str) -> segno.QRCode:
    """A regular QR code of ``url`` (never Micro QR): ``.save("play.png", scale=6)`` for the
    screen, ``.terminal(compact=True)`` for the command line."""
    import segno

    return segno.make_qr(url, error="l")


def game_url(store: GameStore, game_id: int | None, game: Any) -> str:
    """The BG Stats link of the open game of the record, "" unless it is over (``game``: a
    referee with ``players``, ``scores``, ``winners`` and ``is_over``, of any game)."""
    if game_id is None or game is None or not game.is_over:
        return ""
    return play_url(game_id, game.players, game.scores, game.winners, store)


def summary_url(store: GameStore, summary: GameSummary, *, rounds: bool = False) -> str:
    """The BG Stats link of a finished game of the history (companion.session.history), its
    scores per period in the comments when ``rounds``."""
    return play_url(summary.id, summary.players, summary.scores, summary.winners, store,
                    rounds=rounds, periods=summary.rounds)


def play_url(game_id: int, players: Sequence[str], scores: Sequence[int],
             winners: Sequence[int], store: GameStore, *, rounds: bool = False,
             periods: Sequence[Sequence[int]] | None = None) -> str:
    """The BG Stats link of a finished game of the record, with its date, duration, starting
    player and variant as its game's kind reads them (a UserError when its game has no BG
    Stats link); the scores per period (``periods``, else the record's cached ones) in the
    comments when ``rounds`` (a longer link: for a button, not a QR code)."""
    from companion.games import kind_of

    entry = store.game(game_id)
    facts = kind_of(entry).bgstats_facts(store, entry)
    started, ended = _time(entry.started_at), _time(entry.updated_at)
    minutes = max(1, round((ended - started).total_seconds() / 60))
    per_period = (entry.summary.get("round_scores") or []) if periods is None else periods
    comments = f"{facts.game.periods}: " + " | ".join("-".join(map(str, p)) for p in per_period)
    data = play_data(
        players, scores, winners=winners, starter=facts.starter, game=facts.game,
        game_id=game_id, played_at=started.astimezone().strftime("%Y-%m-%d %H:%M:%S"),
        minutes=minutes, comments=comments if rounds and per_period else "",
        variant=facts.board,
    )
    return play_link(data)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)
