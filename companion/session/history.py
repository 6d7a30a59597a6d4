"""Finished and unfinished games from the record: per-round scores, and exports.

Everything is computed by replaying each game's table log (the record is the truth; the store's
summary column is only a cache). Exports:

* ``log``  — the table log itself (JSON Lines: header, then every line, ``undo`` lines included):
  ``noah-companion replay`` reads it and reaches the same result;
* ``csv``  — one row per player and round: game, round, seat, player, tears, total;
* ``json`` — one object: players, options, dates, rounds, scores, winners and the table log.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from companion.game.deck import Deck
from companion.session import record
from companion.session.store import GameRecord, GameStore

FORMATS = ("log", "csv", "json")


@dataclass(frozen=True)
class GameSummary:
    """One game as the history shows it (``round``: the round being played, or the last one
    of a finished game)."""

    id: int
    players: tuple[str, ...]
    started_at: str
    updated_at: str
    score_only: bool
    finished: bool
    round: int
    rounds: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int

    @property
    def winner_names(self) -> list[str]:
        return [self.players[seat] for seat in self.winners]


def summarize(store: GameStore, entry: GameRecord | int, deck: Deck) -> GameSummary:
    """Replay one game of the record into its summary."""
    if isinstance(entry, int):
        entry = store.game(entry)
    lines = store.lines(entry.id)
    game, _ = record.replay(entry.header, lines, deck)
    state = game.state()
    rounds = record.round_scores(entry.header, lines, deck)
    between_rounds = state["phase"] == "round_over"  # the next round is the one to play
    return GameSummary(
        id=entry.id, players=tuple(entry.players), started_at=entry.started_at,
        updated_at=entry.updated_at, score_only=entry.score_only,
        finished=bool(state.get("game_over")), round=state["round"] + between_rounds,
        rounds=tuple(tears for _, tears in rounds), scores=tuple(state.get("scores") or ()),
        winners=tuple(state.get("winners") or ()), actions=len(game.history),
    )


def history(store: GameStore, deck: Deck, *, finished: bool | None = None) -> list[GameSummary]:
    """Every game (newest first), optionally only finished or unfinished ones."""
    summaries = [summarize(store, entry, deck) for entry in store.games()]
    if finished is not None:
        summaries = [s for s in summaries if s.finished == finished]
    return summaries


def export(store: GameStore, game_id: int, deck: Deck, fmt: str) -> str:
    """One game in ``fmt`` (``log``, ``csv`` or ``json``) as text."""
    if fmt == "log":
        return "".join(_json_line(line) + "\n" for line in store.table_log(game_id))
    summary = summarize(store, game_id, deck)
    if fmt == "csv":
        return _csv(summary)
    if fmt == "json":
        entry = store.game(game_id)
        data: dict[str, Any] = {
            "game": summary.id, "players": list(summary.players),
            "options": entry.header.get("options", {}), "started_at": summary.started_at,
            "updated_at": summary.updated_at, "finished": summary.finished,
            "score_only": summary.score_only,
            "rounds": [list(r) for r in summary.rounds], "scores": list(summary.scores),
            "winners": summary.winner_names, "table_log": store.table_log(game_id),
        }
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    raise ValueError(f"unknown export format {fmt!r}")


def _json_line(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, separators=(", ", ": "))


def _csv(summary: GameSummary) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("game", "round", "seat", "player", "tears", "total"))
    totals = [0] * len(summary.players)
    for number, tears in enumerate(summary.rounds, start=1):
        for seat, (name, value) in enumerate(zip(summary.players, tears, strict=True)):
            totals[seat] += value
            writer.writerow((summary.id, number, seat, name, value, totals[seat]))
    return out.getvalue()


def score_table(summary: GameSummary) -> list[str]:
    """The per-round score table of one game, as aligned text lines.

    >>> s = GameSummary(1, ("Ana", "Ben"), "", "", False, True, 3, ((2, 5), (1, 0), (4, 4)),
    ...                 (7, 9), (0,), 40)
    >>> print("\\n".join(score_table(s)))
    player   R1  R2  R3  total
    Ana       2   1   4      7
    Ben       5   0   4      9
    """
    width = max(len(name) for name in (*summary.players, "player")) + 1
    rounds = range(1, len(summary.rounds) + 1)
    lines = ["player".ljust(width) + "".join(f"R{n}".rjust(4) for n in rounds) + "total".rjust(7)]
    for seat, name in enumerate(summary.players):
        cells = "".join(str(r[seat]).rjust(4) for r in summary.rounds)
        total = summary.scores[seat] if summary.scores else 0
        lines.append(name.ljust(width) + cells + str(total).rjust(7))
    return lines
