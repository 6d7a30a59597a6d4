"""Finished and unfinished games from the record, of every game: scores per period, exports.

Everything is computed by replaying each game's table log once (the record is the truth; the
store's summary column is only a cache), by its own game's referee: the kind its header's
``format`` names (companion.games), so one record lists Noah and Complot games side by side. A
damaged game is listed and exported like any other: its summary stands at its last good move and
``damage`` says at which line it breaks and why. Exports:

* ``log``  — the table log itself, every line exactly as stored (JSON Lines: header, then every
  line, ``undo`` lines included): ``noah-companion replay`` reads it and reaches the same result
  (and names the same damaged lines);
* ``csv``  — one row per player and scoring period, in the game's words: game, round, seat,
  player, tears, total for Noah; game, manche, seat, player, points, total for Complot;
* ``json`` — one object: the game's kind, players, options, dates, rounds (or manches), scores,
  winners, the table log (a line that is not JSON as its text), the damaged lines and any lines
  set aside.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any

from companion.games import DEFAULT_KIND, find_kind, kind_of
from companion.session.record import Damage
from companion.session.store import GameRecord, GameStore

FORMATS = ("log", "csv", "json")


@dataclass(frozen=True)
class GameSummary:
    """One game as the history shows it (``round``: the round — or manche — being played, or
    the last one of a finished game; ``rounds``: each finished one's points per seat;
    ``kind``: which game, companion.games)."""

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
    damage: Damage | None = None
    problems: tuple[Damage, ...] = ()
    abandoned: bool = False
    kind: str = DEFAULT_KIND

    @property
    def winner_names(self) -> list[str]:
        return [self.players[seat] for seat in self.winners]


def summarize(store: GameStore, entry: GameRecord | int, deck: Any = None) -> GameSummary:
    """Replay one game of the record (once) into its summary, by its own game's referee.
    ``deck``: the box the config names; a game whose box it is not reads with its default."""
    if isinstance(entry, int):
        entry = store.game(entry)
    return kind_of(entry).summarize(store, entry, deck)


def history(store: GameStore, deck: Any = None, *,
            finished: bool | None = None) -> list[GameSummary]:
    """Every game (newest first), damaged ones included, optionally only finished or
    unfinished ones."""
    summaries = [summarize(store, entry, deck) for entry in store.games()]
    if finished is not None:
        summaries = [s for s in summaries if s.finished == finished]
    return summaries


def export(store: GameStore, game_id: int, deck: Any, fmt: str) -> str:
    """One game in ``fmt`` (``log``, ``csv`` or ``json``) as text; a damaged game too (see
    :func:`export_game` for its damaged lines)."""
    return export_game(store, game_id, deck, fmt)[0]


def export_game(store: GameStore, game_id: int, deck: Any,
                fmt: str) -> tuple[str, GameSummary]:
    """One game in ``fmt`` and its summary, whose ``problems`` flag the damaged lines."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    entry = store.game(game_id)
    summary = summarize(store, entry, deck)
    stored = (entry.header_text, *store.raw_lines(game_id).texts)
    if fmt == "log":  # exactly as stored: a damaged line stays as it is, for replay to name
        return "".join(_log_line(text) + "\n" for text in stored), summary
    if fmt == "csv":
        return _csv(summary), summary
    data: dict[str, Any] = {
        "game": summary.id, "kind": summary.kind, "players": list(summary.players),
        "options": entry.header.get("options", {}), "started_at": summary.started_at,
        "updated_at": summary.updated_at, "finished": summary.finished,
        "score_only": summary.score_only, "abandoned": summary.abandoned,
        "rounds": [list(r) for r in summary.rounds], "scores": list(summary.scores),
        "winners": summary.winner_names,
        "table_log": [_as_json(text) for text in stored],
        "damaged_lines": [{"line": d.line, "reason": d.reason} for d in summary.problems],
        "set_aside": [{**line, "line": _as_json(line["line"])}
                      for line in store.set_aside_lines(game_id)],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n", summary


def _log_line(text: str) -> str:
    """A stored line for the exported log: re-spaced when it is JSON, else as it is (on one
    line, so the line numbers stay those of the record)."""
    value = _as_json(text)
    if isinstance(value, str) and value is text:
        return text.replace("\r", " ").replace("\n", " ")
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _as_json(text: str) -> Any:
    """A stored line as its JSON value, or the text itself when it is not JSON."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _csv(summary: GameSummary) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    kind = find_kind(summary.kind)
    writer.writerow(("game", kind.period, "seat", "player", kind.points, "total"))
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
    from companion.terminal import display_width, ljust  # columns, not characters: 陳 is two

    width = max(display_width(name) for name in (*summary.players, "player")) + 1
    rounds = range(1, len(summary.rounds) + 1)
    letter = find_kind(summary.kind).period[0].upper()  # R1 R2 (rounds), M1 M2 (manches)
    lines = ["player".ljust(width) + "".join(f"{letter}{n}".rjust(4) for n in rounds)
             + "total".rjust(7)]
    for seat, name in enumerate(summary.players):
        cells = "".join(str(r[seat]).rjust(4) for r in summary.rounds)
        total = summary.scores[seat] if summary.scores else 0
        lines.append(ljust(name, width) + cells + str(total).rjust(7))
    return lines
