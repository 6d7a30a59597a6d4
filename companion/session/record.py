"""A game's record read back: one replay of its table log, damaged or not.

A game's record is its table log: :func:`header` is line 1 and every accepted action, ``undo``
lines included, is one more line. :func:`read_game` replays the stored lines once through
:func:`companion.game.tablelog.replay` (the same judge as ``noah-companion replay``) and gives
everything resume, the history and export need: the engine's game, its redo stack and the
scores of each round.

A record is input like any other file: a line may be damaged (not JSON, not legal, an undo of
more than was played, a page of the file that cannot be read, a header that is not one). The
replay then goes on to the end the way ``noah-companion replay`` does, but the game is read
*up to its last good move*; the :class:`Damage` says at which line and why, ``dropped`` lists
the lines from there on and ``put_back`` what the table puts back to return to that move (the
undo sentences of :mod:`companion.session.reconcile`). Nothing is changed in the record: only
the table's choice ("Resume up to the last good move") sets those lines aside.

>>> import tempfile, pathlib
>>> from companion.game import default_deck
>>> from companion.game.options import Options
>>> from companion.session.store import GameStore
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite")
>>> game_id = store.create_game(header(["Ana", "Ben"], Options(hidden=True)))
>>> store.append(game_id, {"type": "note", "text": "Friday"})
1
>>> store.append(game_id, {"type": "undo", "count": 3})
2
>>> reading = read_game(store, game_id, default_deck())
>>> reading.damage
Damage(line=3, reason='This line is malformed: it undoes 3 actions but only 0 can be taken back.')
>>> [(line.line, line.accepted) for line in reading.dropped], reading.keep
([(3, False)], 1)
>>> store.close()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import UserError
from companion.game.actions import Action, action_to_dict
from companion.game.deck import Deck
from companion.game.engine import Game
from companion.game.errors import InputError
from companion.game.options import Options
from companion.game.tablelog import Header, LineResult, Note, Undo, describe_action, replay
from companion.session.reconcile import explain_undo
from companion.session.store import GameRecord, GameStore
from companion.session.view import Phrase

FORMAT = "noah-table-log"
VERSION = 1
SCORING = ("scan_hands", "score_round")
#: A record whose lines keep stopping the replay itself is not replayed more often than this.
MAX_RESTARTS = 20

#: Scores of the rounds played: ``(history length after the round's scoring, tears per seat)``.
RoundScores = tuple[tuple[int, tuple[int, ...]], ...]


def header(players: Sequence[str], options: Options, deck_id: str = "",
           tokens: Sequence[str] = ()) -> dict[str, Any]:
    """The table log's line 1. Extension fields (TABLE-LOG readers ignore them): ``deck_id``
    names the sticker set, ``tokens`` the colour of each player's score token.

    >>> header(["Ana", "Ben"], Options(hidden=True))["options"]["hidden"]
    True
    """
    line: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "players": list(players),
        "options": options.to_dict(),
    }
    if deck_id:
        line["deck_id"] = deck_id
    if tokens:
        line["tokens"] = list(tokens)
    return line


def summary(state: Mapping[str, Any], rounds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The history list's cache for one game."""
    return {
        "round": state.get("round"),
        "scores": list(state.get("scores") or ()),
        "round_scores": [list(r) for r in rounds],
        "winners": list(state.get("winners") or ()),
        "game_over": bool(state.get("game_over")),
    }


# -- reading a game back ---------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """Where a stored game breaks: its table-log ``line`` (1 is the header) and why."""

    line: int
    reason: str


@dataclass(frozen=True)
class DroppedLine:
    """A line from the break on: ``action`` when it is one (``None`` for an undo, a note or an
    unreadable line), whether the replay past the break ``accepted`` it, and in words."""

    line: int
    accepted: bool
    text: str
    action: Action | None = None
    undo_count: int = 0


@dataclass(frozen=True)
class GameReading:
    """One stored game, replayed once. ``game`` stands at the end of the record, or at its last
    good move when it is damaged (``None`` when even its header is); ``keep`` is how many stored
    lines that is; ``problems`` lists every line the replay refuses (the first is ``damage``)."""

    entry: GameRecord
    lines: tuple[str, ...]
    game: Game | None
    redo: tuple[Action, ...] = ()
    round_scores: RoundScores = ()
    damage: Damage | None = None
    problems: tuple[Damage, ...] = ()
    keep: int = 0
    seqs: tuple[int, ...] = ()
    dropped: tuple[DroppedLine, ...] = ()
    put_back: tuple[Phrase, ...] = field(default=())

    @property
    def damaged(self) -> bool:
        return self.damage is not None

    @property
    def resumable(self) -> bool:
        """Whether "resume up to the last good move" can be offered (the header is sound)."""
        return self.game is not None


def read_game(store: GameStore, entry: GameRecord | int, deck: Deck) -> GameReading:
    """Replay one stored game (see the module's text). Never raises for a damaged game."""
    if isinstance(entry, int):
        entry = store.game(entry)
    stored = store.raw_lines(entry.id)
    texts = stored.texts
    skipped: dict[int, str] = {n + 2: "This line is empty." for n, text in enumerate(texts)
                               if not text.strip()}
    for attempt in range(MAX_RESTARTS + 1):  # again only when a line stops the replay itself
        reader = _Reader(entry, texts, skipped, stored.unreadable)
        fed = ["" if n + 2 in skipped else text for n, text in enumerate(texts)]
        try:
            for result in replay([f"{entry.header_text}\n", *(f"{t}\n" for t in fed)], deck):
                reader.take(result)
        except (InputError, ValueError, TypeError, RecursionError) as error:
            line = _failing_line(error, reader.last_line, fed)
            if line <= 1:
                return reader.broken_header(_sentence(error))
            why = f"This line cannot be read: {_sentence(error)}"
            if line in skipped or line > len(texts) + 1:  # not a line of its own: stop there
                line = reader.last_line + 1
            last = len(texts) + 2 if attempt >= MAX_RESTARTS - 1 or line in skipped else line + 1
            skipped.update({n: why if n == line else "Not replayed (too many damaged lines)."
                            for n in range(line, last)})
            continue
        return reader.finish(stored.seqs)
    raise AssertionError("the last attempt skips every line that could stop the replay")


def reopen(store: GameStore, game_id: int | None, deck: Deck, *,
           to_last_good_move: bool = False) -> tuple[GameReading, int]:
    """A stored game to resume (the newest unfinished one when ``game_id`` is None), read
    once, with the sequence number of its last line kept. A damaged game raises
    :class:`DamagedGame` unless the table chose ``to_last_good_move``: its lines from the
    damaged one on are then set aside (kept in the record, shown by export)."""
    if game_id is None:
        unfinished = store.unfinished(FORMAT)
        if not unfinished:
            raise UserError("There is no unfinished game to resume.", "Start a new game.",
                            key="error.nothing_to_resume")
        game_id = unfinished[0].id
    reading = read_game(store, game_id, deck)
    if reading.game is None or (reading.damage is not None and not to_last_good_move):
        raise DamagedGame(reading)
    seq = reading.seqs[reading.keep - 1] if reading.keep else 0
    if reading.damage is not None:
        store.set_aside(game_id, seq + 1, describe(reading.damage))
    return reading, seq


def _failing_line(error: Exception, last: int, fed: Sequence[str]) -> int:
    """The line that stopped the replay: the error's own, else the next non-blank one."""
    line = getattr(error, "line", None)
    if isinstance(line, int) and line > last:
        return line
    number = last + 1
    while number - 2 < len(fed) and number >= 2 and not fed[number - 2].strip():
        number += 1
    return number


def _sentence(error: Exception) -> str:
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    return text if text.endswith(".") else f"{text}."


class _Reader:
    """Follows one replay: round scores, the last good move, the lines dropped after it."""

    def __init__(self, entry: GameRecord, texts: tuple[str, ...], skipped: dict[int, str],
                 unreadable: str) -> None:
        self.entry, self.texts = entry, texts
        self.skipped = dict(skipped)
        if unreadable:
            self.skipped[len(texts) + 2] = f"The lines from here on cannot be read: {unreadable}."
        self.first_skipped = min(self.skipped, default=None)
        self.game: Game | None = None
        self.redo: tuple[Action, ...] = ()
        self.rounds: list[tuple[int, tuple[int, ...]]] = []
        self.last_line = 0
        self.problems: list[Damage] = [Damage(n, why) for n, why in sorted(self.skipped.items())]
        self.good: tuple[int, tuple[Action, ...], tuple[Action, ...], RoundScores] | None = None
        self.after_break: list[LineResult] = []

    def take(self, result: LineResult) -> None:
        self.game, self.last_line = result.game, result.line
        if result.line == 1:
            return
        if self.good is None:
            if self.first_skipped is not None and result.line > self.first_skipped:
                self.good = (self.first_skipped, _history_before(result), self.redo,
                             tuple(self.rounds))
            elif not result.accepted:
                self.good = (result.line, result.game.history, self.redo, tuple(self.rounds))
        if self.good is not None:
            self.after_break.append(result)
        if not result.accepted:
            self.problems.append(Damage(result.line, result.message))
            return
        self.redo = result.redo
        kind = getattr(result.entry, "type", None)
        if kind in SCORING:
            tears = tuple(result.game.state().get("round_scores") or ())
            self.rounds.append((len(result.game.history), tears))
        elif kind == "undo":
            left = len(result.game.history)
            self.rounds = [entry for entry in self.rounds if entry[0] <= left]

    def broken_header(self, why: str) -> GameReading:
        damage = Damage(1, f"The game's first line (players and options) cannot be used: {why}")
        dropped = [DroppedLine(n + 2, False, "Not replayed: the game's first line is damaged.")
                   for n in range(len(self.texts))]
        return GameReading(self.entry, self.texts, None, damage=damage, problems=(damage,),
                           dropped=tuple(dropped))

    def finish(self, seqs: tuple[int, ...]) -> GameReading:
        assert self.game is not None
        if self.good is None and self.first_skipped is not None:  # only skipped lines at the end
            self.good = (self.first_skipped, self.game.history, self.redo, tuple(self.rounds))
        problems = tuple(sorted(self.problems, key=lambda d: d.line))
        if self.good is None:
            return GameReading(self.entry, self.texts, self.game, self.redo, tuple(self.rounds),
                               problems=problems, keep=len(self.texts), seqs=seqs)
        line, history, redo, rounds = self.good
        put_back = _rewind(self.game, history, self.entry.players)
        return GameReading(
            self.entry, self.texts, self.game, redo, rounds, damage=problems[0],
            problems=problems, keep=line - 2, seqs=seqs, dropped=tuple(self._dropped(line)),
            put_back=tuple(put_back),
        )

    def _dropped(self, first: int) -> list[DroppedLine]:
        judged = {result.line: result for result in self.after_break}
        dropped = []
        for line in range(first, len(self.texts) + 2):
            result = judged.get(line)
            if result is not None:
                dropped.append(_dropped_line(result, self.entry.players))
            elif line in self.skipped:
                dropped.append(DroppedLine(line, False, self.skipped[line]))
        if len(self.texts) + 2 in self.skipped:
            dropped.append(DroppedLine(len(self.texts) + 2, False,
                                       self.skipped[len(self.texts) + 2]))
        return dropped


def _history_before(result: LineResult) -> tuple[Action, ...]:
    """The game's history just before ``result``'s line (the game object has moved on)."""
    history = result.game.history
    if not result.accepted or isinstance(result.entry, Note):
        return history
    if isinstance(result.entry, Undo):
        return history + tuple(reversed(result.undone))
    return history[:-1]


def _dropped_line(result: LineResult, players: Sequence[str]) -> DroppedLine:
    entry = result.entry
    if isinstance(entry, Undo):
        return DroppedLine(result.line, result.accepted, result.message, undo_count=entry.count)
    if entry is None or isinstance(entry, Note | Header):
        return DroppedLine(result.line, result.accepted, result.message)
    words = describe_action(entry, players)
    if not result.accepted:
        words = f"{words} (refused: {result.message})"
    return DroppedLine(result.line, result.accepted, words, action=entry)


def _rewind(game: Game, good: tuple[Action, ...], players: Sequence[str]) -> list[Phrase]:
    """Bring ``game`` (the replay's end) back to the ``good`` history; returns what the table
    puts back, in the undo's words (R55)."""
    history = game.history
    common = 0
    while common < min(len(history), len(good)) and history[common] == good[common]:
        common += 1
    sentences: list[Phrase] = []
    for _ in range(len(history) - common):
        after = game.state()
        action = game.pop()
        sentences += explain_undo(action_to_dict(action), after, game.state(), players)
    for action in good[common:]:  # good moves an undo after the break took back
        verdict = game.push(action)
        assert verdict.accepted, "a move accepted once is accepted again"
        sentences.append(Phrase("damaged.again", {"action": describe_action(action, players)}))
    return sentences


class DamagedGame(UserError):
    """A stored game cannot be resumed as it is: ``reading`` says where it breaks, which lines
    would be dropped and what the table would put back. Nothing has been changed."""

    def __init__(self, reading: GameReading) -> None:
        damage = reading.damage or Damage(1, "")
        game = reading.entry.id
        fix = ("Choose to resume it up to the last good move, to abandon it or to delete it."
               if reading.resumable else "Abandon it or delete it (it cannot be resumed).")
        super().__init__(f"Game {game} is damaged at line {damage.line}: {damage.reason}", fix,
                         key="error.damaged_game", game=game, line=damage.line)
        self.reading = reading


def describe(damage: Damage) -> str:
    """A damage in one line, as the record keeps it with the lines set aside.

    >>> describe(Damage(33, "It is Ana's turn."))
    "line 33: It is Ana's turn."
    """
    return f"line {damage.line}: {damage.reason}"
