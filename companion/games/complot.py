"""Complot's kind (companion.games): the session, the stickers, the history's reading and the
command line's replay of a ``complot-table-log``.

Two Complot logs share the format: the rules engine's (companion/complot/tablelog.py, every
card known: ``complot simulate`` and ``demo`` write it) and a real table's, whose header says
``"hands": "hidden"`` (companion/complot/table.py's ``Table``: what the app's session writes).
:func:`_referee` gives the model a header names; both judge with ``push`` and read alike
(``phase``, ``manche``, ``manche_points``, ``scores``, ``winners``, ``history``).
``complot replay`` and ``noah-companion replay`` read both through companion/complot/tablelog.

>>> KIND.name, KIND.log_format, KIND.title_key, KIND.period
('complot', 'complot-table-log', 'games.complot', 'manche')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion.session.bgstats import BGStatsGame, PlayFacts
from companion.session.record import Damage

if TYPE_CHECKING:
    from companion.complot.engine import Game
    from companion.complot.table import Table
    from companion.games import GameKind, StickerCodec
    from companion.session.base import SessionBase
    from companion.session.history import GameSummary
    from companion.session.store import GameRecord, GameStore
    from companion.tags.tagged_deck import StickeredDeck


#: «Noé, Complot à l'Élysée» in BG Stats: the highest total wins (C55).
BGSTATS = BGStatsGame("Noé, Complot à l'Élysée", "complot", highest_wins=True,
                      periods="Points per manche")


def first_player(players: int, options: Mapping[str, Any]) -> int | None:
    """The seat that played first in the game: on the first dealer's left (C12); None when
    the header names no dealer a seat can be.

    >>> first_player(3, {"dealer": 2}), first_player(3, {"dealer": 0}), first_player(3, {})
    (0, 1, None)
    """
    from companion.complot.judge import is_int

    dealer = options.get("dealer")
    if not is_int(dealer) or not 0 <= dealer < players:
        return None
    return (dealer + 1) % players


def board(options: Mapping[str, Any]) -> str:
    """The way the game was played, in English, as BG Stats' ``board`` shows it: the level
    (1-3; levels 2 and 3: C60-C92), and the target when the table chose another than 400 (C55).

    >>> board({"level": 2, "target": 400}), board({"level": 1, "target": 300}), board({})
    ('Level 2', 'Level 1, Play to 300', 'Level 1')
    """
    from companion.complot.judge import TARGET_SCORE, is_int

    level, target = options.get("level", 1), options.get("target", TARGET_SCORE)
    words = [f"Level {level}"] if is_int(level) else []
    if is_int(target) and target != TARGET_SCORE:
        words.append(f"Play to {target}")
    return ", ".join(words)


class ComplotKind:
    """«Noé, Complot à l'Élysée» (C1-C94): points per manche to the target (400), its
    stickers ``CPLT1/…``."""

    name = "complot"
    log_format = "complot-table-log"
    title = "Noé, Complot à l'Élysée"
    title_key = "games.complot"
    period = "manche"
    points = "points"

    def session_class(self) -> type[SessionBase[Any, Any]]:
        from companion.complot.session import ComplotSession

        return ComplotSession

    def codec(self) -> StickerCodec:
        from companion.complot import payload

        return payload

    def stickered_deck(self, deck: str | None, deck_id: str | None) -> StickeredDeck:
        """The rulebook's 93 cards, or a Complot deck file; ``deck_id`` or BOX1 (the config
        names no Complot box yet)."""
        from companion.complot.cards import load_deck_file
        from companion.complot.payload import DEFAULT_DECK_ID, TaggedDeck
        from companion.tags.payload import check_deck_id

        box = check_deck_id(deck_id or DEFAULT_DECK_ID)
        if deck in (None, "default"):
            return TaggedDeck(load_deck_file(None), box)
        return TaggedDeck(load_deck_file(Path(str(deck))), box, source=str(deck))

    def configured_deck_id(self) -> str | None:
        return None

    def summarize(self, store: GameStore, entry: GameRecord, deck: Any = None) -> GameSummary:
        """Replay a stored Complot game once: its manches' points, totals, winners; the first
        line refused (or not JSON) is its damage, and the summary stands where the replay
        ends (a refused line changes nothing)."""
        from companion.complot.cards import Deck

        reading = _Reading(entry, deck if isinstance(deck, Deck) else None)
        for number, text in enumerate(store.raw_lines(entry.id).texts, start=2):
            reading.take(number, text)
        return reading.summary()

    def bgstats_facts(self, store: GameStore, entry: GameRecord) -> PlayFacts:
        """Complot for BG Stats: the highest total wins (C55); the first manche's first
        player, on the first dealer's left (C12); the level, and the target when it is not
        the rulebook's 400, as the ``board``."""
        options = entry.header.get("options") if isinstance(entry.header, dict) else None
        return PlayFacts(BGSTATS, first_player(len(entry.players), options or {}),
                         board(options or {}))

    def replay(self, lines: Iterable[bytes], out: TextIO, *, name: str, json_mode: bool,
               states: bool, strict: bool) -> int:
        """``complot replay``'s output (companion/complot/tablelog.py: either log); ``--states``
        is Noah's only."""
        from companion.complot.tablelog import replay_lines
        from companion.errors import UserError

        texts = (line.decode("utf-8", errors="replace") for line in lines)
        try:
            return replay_lines(texts, json_mode, strict, out)
        except UserError as error:
            raise UserError(f"{name}: {error.what}", error.fix) from None


class _Reading:
    """Follows one stored Complot game's replay for the history."""

    def __init__(self, entry: GameRecord, deck: Any) -> None:

        self.entry = entry
        self.game: Game | Table | None = None
        self.ended: dict[int, tuple[int, ...]] = {}  # each manche's points, as it ended
        self.problems: list[Damage] = []
        try:
            self.game = _referee(entry.header, deck)
        except ValueError as error:  # LogError is a ValueError
            self.problems.append(Damage(1, f"The game's first line (players and options) "
                                        f"cannot be used: {error}"))

    def take(self, number: int, text: str) -> None:
        if self.game is None:
            return
        try:
            action = json.loads(text)
        except (ValueError, RecursionError):
            self.problems.append(Damage(number, "This line is not JSON."))
            return
        if isinstance(action, dict) and action.get("type") == "note":
            return
        verdict = self.game.push(action)
        if not verdict.changed:
            self.problems.append(Damage(number, verdict.message or str(verdict.code)))
        elif self.game.phase in ("manche_over", "game_over"):  # again after an undo: replaced
            self.ended[self.game.manche] = self.game.manche_points

    def manches(self) -> tuple[tuple[int, ...], ...]:
        """The points of each manche that is over where the replay ends (an undone end is
        not: its manche is on again)."""
        game = self.game
        if game is None:
            return ()
        over = game.manche if game.phase in ("manche_over", "game_over") else game.manche - 1
        return tuple(points for manche, points in sorted(self.ended.items()) if manche <= over)

    def summary(self) -> GameSummary:
        from companion.session.history import GameSummary

        entry, game = self.entry, self.game
        over = game is not None and game.is_over
        return GameSummary(
            id=entry.id, players=tuple(entry.players), started_at=entry.started_at,
            updated_at=entry.updated_at, score_only=entry.score_only, finished=over,
            round=game.manche if game is not None else 1, rounds=self.manches(),
            scores=game.scores if game is not None else (),
            winners=game.winners if game is not None else (),
            actions=len(game.history) if game is not None else 0,
            damage=self.problems[0] if self.problems else None,
            problems=tuple(self.problems), abandoned=entry.abandoned, kind=KIND.name,
        )


def _referee(header: Any, deck: Any) -> Game | Table:
    """The referee of a stored Complot log, the model its header names (ValueError if the
    header is no Complot header)."""
    from companion.complot.table import Table, is_hidden_header
    from companion.complot.tablelog import game_from_header

    if is_hidden_header(header):
        return Table.from_header(header, deck)
    return game_from_header(header, deck)


KIND: GameKind = ComplotKind()
