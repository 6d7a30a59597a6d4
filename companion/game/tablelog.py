"""The table log (../shared/TABLE-LOG.md): read it, write it, and replay it line by line.

A log is JSON Lines: line 1 is the :class:`Header` (players and options), every later line an
engine action (:mod:`.actions`), a :class:`Note` or an :class:`Undo`. Writing then reading gives
back the same header and entries; unknown fields are ignored.

>>> from companion.game.actions import MoveNoah
>>> header = Header(("Ana", "Ben", "Chloé"), Options(hidden=True))
>>> text = dumps(header, [Note("Friday game"), MoveNoah(player=0, to=2), Undo()])
>>> print(text, end="")  # doctest: +ELLIPSIS
{"format":"noah-table-log","version":1,"players":["Ana","Ben","Chloé"],"options":{...}}
{"type":"note","text":"Friday game"}
{"type":"move_noah","player":0,"to":2}
{"type":"undo","count":1}
>>> loads(text) == (header, [Note("Friday game"), MoveNoah(player=0, to=2), Undo()])
True

:func:`replay` judges a log line by line: a rejected line is a verdict, not an error, and the
replay goes on. Only a log that cannot be read at all (no header, another format, a line cut
short, an unreadable file) raises :class:`InputError` with the line number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cache
from typing import Any, ClassVar, get_args, get_origin, get_type_hints

from .actions import (
    _LOG_NAMES,
    ACTION_TYPES,
    Action,
    Position,
    action_from_dict,
    action_to_dict,
)
from .deck import Deck, parse_ref
from .engine import Game
from .errors import InputError, shown
from .options import Options

FORMAT = "noah-table-log"
VERSION = 1

#: The limits of what one log line may hold (docs/table-log.md, "Limits"). A real line is a few
#: hundred bytes; these stop a hostile or damaged file before it costs memory or a crash.
MAX_LINE_BYTES = 64 * 1024
MAX_NESTING = 16
MAX_DIGITS = 20  # any 64-bit integer: extensions may carry e.g. timestamps in ns
MAX_LIST_ITEMS = 1000
MAX_ROUND = 99


@dataclass(frozen=True, slots=True)
class Header:
    """Line 1 of a log: who plays (seats in turn order) and with which options.

    >>> Header.from_dict({"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"],
    ...                   "options": {"hidden": True}}).options.hidden
    True
    """

    players: tuple[str, ...]
    options: Options = field(default_factory=Options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "players": list(self.players),
            "options": self.options.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Header:
        """The header of a log's first object; :class:`InputError` (line 1) if it is not one."""
        if "format" not in data:
            raise _header_error("it has no \"format\" field, so the log's header is missing",
                                "put the header line first")
        if data["format"] != FORMAT:
            raise _header_error(f"its format is {shown(repr(data['format']))}, not {FORMAT!r}",
                                "replay only Noah table logs")
        version = data.get("version")
        if type(version) is not int or version != VERSION:  # not true, not 1.0
            raise _header_error(f"its version is {_json(version)}; this program reads "
                                f"version {VERSION}", "convert the log or update the program")
        players = data.get("players")
        if not (isinstance(players, list) and players
                and all(isinstance(name, str) and name.strip() for name in players)):
            raise _header_error('"players" must list the player names in seat order',
                                'write e.g. "players": ["Ana", "Ben", "Chloé"]')
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise _header_error('"options" must be an object', 'write e.g. "options": {}')
        try:
            return cls(tuple(players), Options.from_dict(options))
        except InputError as error:
            raise InputError(f"Line 1: {error.message}", line=1, field=error.field) from error


def _header_error(problem: str, fix: str) -> InputError:
    return InputError(f"Line 1 is not a table-log header: {problem}. Fix: {fix}.", line=1)


def _json(value: Any) -> str:
    """A JSON value from a log as a message quotes it: escaped, and cut short if long."""
    return shown(json.dumps(value, ensure_ascii=False))


@dataclass(frozen=True, slots=True)
class Note:
    """A comment line: free text that changes nothing."""

    type: ClassVar[str] = "note"
    text: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last ``count`` accepted actions (R55)."""

    type: ClassVar[str] = "undo"
    count: int = 1


Entry = Action | Note | Undo


def entry_to_dict(entry: Entry) -> dict[str, Any]:
    """The log object of an entry.

    >>> entry_to_dict(Undo(2))
    {'type': 'undo', 'count': 2}
    """
    if isinstance(entry, Note):
        return {"type": "note", "text": entry.text}
    if isinstance(entry, Undo):
        return {"type": "undo", "count": entry.count}
    return action_to_dict(entry)


def entry_from_dict(data: Mapping[str, Any]) -> Entry:
    """The entry of a log object; :class:`InputError` if it is malformed (a ``bad_action``).

    >>> entry_from_dict({"type": "undo"})
    Undo(count=1)
    >>> entry_from_dict({"type": "note", "text": "tea break", "by": "Ana"})
    Note(text='tea break')
    """
    kind = data.get("type")
    if "type" in data and not isinstance(kind, str):
        raise InputError(f'"type" must be a string naming the line\'s type, not {_json(kind)}.',
                         field="type")
    if kind == "note":
        text = data.get("text", "")
        if not isinstance(text, str):
            raise InputError("A note's text must be a string.", field="text")
        return Note(text)
    if kind == "undo":
        count = data.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise InputError(f"Undo count {count!r} must be a whole number, 1 or more.",
                             field="count")
        return Undo(count)
    if kind in ACTION_TYPES:
        _check_field_types(ACTION_TYPES[kind], data)
        return action_from_dict(dict(data))
    raise InputError(
        f"Unknown line type {kind!r}: use one of {', '.join([*ACTION_TYPES, 'note', 'undo'])}.",
        field="type",
    )


def _check_field_types(cls: type, data: Mapping[str, Any]) -> None:
    """Raise :class:`InputError` naming the first field whose JSON value has the wrong type.

    >>> _check_field_types(ACTION_TYPES["play"],
    ...                    {"type": "play", "player": 0, "card": "cat:F", "ferry": "2"})
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: Field "ferry" of a play line must be a whole number, not "2".
    """
    hints = _field_hints(cls)
    kind: str = data["type"]
    for name, hint in hints.items():
        log_name = _LOG_NAMES.get(name, name)
        if log_name not in data:
            continue
        if _longest_list(data[log_name]) > MAX_LIST_ITEMS:
            raise InputError(f'Field "{log_name}" of a {kind} line lists more than '
                             f"{MAX_LIST_ITEMS} items: no table holds that many.", field=log_name)
        if not _conforms(data[log_name], hint):
            raise InputError(
                f'Field "{log_name}" of a {kind} line must be {_describe(hint)}, not '
                f"{_json(data[log_name])}.", field=log_name)


def _longest_list(value: Any) -> int:
    """The length of the longest list in a JSON value (its depth is capped when it is read)."""
    if isinstance(value, dict):
        value = list(value.values())
    if not isinstance(value, list):
        return 0
    return max([len(value), *map(_longest_list, value)])


@cache
def _field_hints(cls: type) -> dict[str, Any]:
    hints = get_type_hints(cls)
    return {item.name: hints[item.name] for item in fields(cls)}


def _conforms(value: Any, hint: Any) -> bool:
    """Whether a JSON value fits a field's type hint (int, str, bool, None, unions, tuples as
    lists, and dataclasses such as :class:`~.actions.Gift` as objects)."""
    if hint is int:
        return type(value) is int
    if hint in (str, bool):
        return type(value) is hint
    if hint is type(None):
        return value is None
    if isinstance(hint, type) and is_dataclass(hint):
        return isinstance(value, dict) and all(
            _conforms(value[name], inner) for name, inner in _field_hints(hint).items()
            if name in value)
    args = get_args(hint)
    if get_origin(hint) is tuple:
        if not isinstance(value, list):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(item, args[0]) for item in value)
        return len(value) == len(args) and all(map(_conforms, value, args))
    return any(_conforms(value, arg) for arg in args)  # a union


def _describe(hint: Any, many: bool = False) -> str:
    """Plain words for a type hint: ``a whole number``, ``a list of lists of strings``..."""
    words = {int: ("a whole number", "whole numbers"), str: ("a string", "strings"),
             bool: ("true or false", "true or false values"), type(None): ("null", "nulls")}
    if hint in words:
        return words[hint][many]
    if isinstance(hint, type) and is_dataclass(hint):
        keys = ", ".join(f'"{name}"' for name in _field_hints(hint))
        return f"{'objects' if many else 'an object'} with {keys}"
    if get_origin(hint) is tuple:
        return f"{'lists' if many else 'a list'} of {_describe(get_args(hint)[0], many=True)}"
    return " or ".join(_describe(arg, many) for arg in get_args(hint))


def to_line(item: Header | Entry) -> str:
    """One log line (compact JSON, UTF-8 text kept readable, no newline)."""
    data = item.to_dict() if isinstance(item, Header) else entry_to_dict(item)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def dumps(header: Header, entries: Iterable[Entry]) -> str:
    """A whole log as text, one line per item, each ending with a newline."""
    return "".join(f"{to_line(item)}\n" for item in (header, *entries))


def loads(text: str) -> tuple[Header, list[Entry]]:
    """Read a whole log strictly: any malformed line raises :class:`InputError` naming it.

    (To judge a log line by line, rejections included, use :func:`replay`.)
    """
    parsed = _parsed_lines(text.splitlines(keepends=True))
    _, header = _header_of(parsed)
    entries = []
    for number, data in parsed:
        if data is None:
            continue
        if isinstance(data, InputError):
            raise data
        try:
            entries.append(entry_from_dict(data))
        except InputError as error:
            raise InputError(f"Line {number}: {error.message}", line=number,
                             field=error.field) from error
    return header, entries


def game_lines(game: Game) -> Iterator[str]:
    """The log of a game's accepted history (no notes, no undos), line by line."""
    yield to_line(Header(tuple(game.players), game.options))
    for action in game.history:
        yield to_line(action)


# -- reading lines ------------------------------------------------------------------------------


def _parsed_lines(
    lines: Iterable[str | bytes],
) -> Iterator[tuple[int, dict[str, Any] | InputError | None]]:
    """Each line's number and object (None for a blank line), or the :class:`InputError` that
    makes it a ``bad_action``. A last line cut short (no newline, unfinished JSON) ends the log
    with an :class:`InputError` raised, as does a line that is not UTF-8 text."""
    pending: tuple[int, str | bytes] | None = None
    for number, raw in enumerate(lines, start=1):
        if pending is not None:
            yield _decoded(*pending, is_last=False)
        pending = (number, raw)
    if pending is not None:
        yield _decoded(*pending, is_last=True)


def _decoded(number: int, raw: str | bytes, is_last: bool) -> tuple[int, Any]:
    if len(raw) > MAX_LINE_BYTES:  # before decoding: a 50 MB line must not cost gigabytes
        return number, InputError(f"line {number} is longer than the "
                                  f"{MAX_LINE_BYTES // 1024} KiB a table-log line may have",
                                  line=number)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"Line {number} is not UTF-8 text: the file is not a table log or "
                             "is damaged.", line=number) from error
    text = raw.strip().removeprefix("\ufeff").strip()  # a BOM some editors write
    if not text:
        return number, None
    problem = _nesting_problem(text)
    if problem:
        return number, InputError(f"line {number} {problem}", line=number)
    try:
        data = json.loads(text, parse_int=_whole_number, parse_constant=_no_constant)
    except _Unreadable as error:
        return number, InputError(f"line {number} {error}", line=number)
    except json.JSONDecodeError as error:
        if is_last and not raw.endswith("\n") and text.startswith("{"):
            raise InputError(f"The log ends in the middle of line {number} (the file was cut "
                             "short): remove that line or restore the file.",
                             line=number) from error
        return number, InputError(f"line {number} is not JSON ({error.msg})", line=number)
    if not isinstance(data, dict):
        return number, InputError(f"line {number} is not a JSON object", line=number)
    if not _is_text(text, data):
        return number, InputError(f"line {number} holds a lone surrogate escape (such as "
                                  "\\ud800), which is no character", line=number)
    return number, data


class _Unreadable(ValueError):
    """A line that is JSON in form but beyond what a table log may hold."""


def _whole_number(digits: str) -> int:
    """``json``'s integer hook: refuse a number too long to mean anything before converting it
    (Python refuses more than 4,300 digits with an exception of its own)."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _Unreadable(f"holds a number of {len(digits.lstrip('-'))} digits; table-log "
                          f"numbers have at most {MAX_DIGITS}")
    return int(digits)


def _no_constant(name: str) -> Any:
    raise _Unreadable(f"is not JSON ({name} is not a JSON number)")


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting_problem(text: str) -> str | None:
    """Lists and objects nested deeper than :data:`MAX_NESTING`: Python's JSON reader would
    exhaust its recursion (a crash, not an error) at about 1,000 levels."""
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return None  # the usual case, at C speed
    depth = 0
    for bracket in _BRACKETS.finditer(_JSON_STRING.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_NESTING:
            return f"nests lists or objects more than {MAX_NESTING} deep"
    return None


def _is_text(text: str, data: Any) -> bool:
    """False if a JSON escape made a lone surrogate (``"\\ud800"``): no character, so it can be
    neither printed nor stored as UTF-8."""
    if "\\u" not in text and text.isascii():
        return True
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _header_of(parsed: Iterator[tuple[int, Any]]) -> tuple[int, Header]:
    """Consume the header (skipping leading blank lines) from parsed lines."""
    for number, data in parsed:
        if data is None:
            continue
        if isinstance(data, InputError):
            raise InputError(f"Line {number} should be the log's header but {data.message}: "
                             "check that the file is a Noah table log.", line=number)
        try:
            return number, Header.from_dict(data)
        except InputError as error:
            raise InputError(error.message.replace("Line 1", f"Line {number}", 1),
                             line=number, field=error.field) from error
    raise InputError("The log is empty: it has no header line. Check that this is the right file.",
                     line=1)


# -- replay -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineResult:
    """The verdict on one log line, and the game as it stands after it.

    ``game`` is the one game being replayed (it keeps changing): read it before asking for
    the next line, or copy it.
    """

    line: int
    accepted: bool
    reason: str | None
    message: str
    entry: Header | Entry | None
    game: Game
    #: The line is not a JSON object at all: the log itself is malformed (TABLE-LOG.md), so the
    #: replay goes on but its command ends with a non-zero status.
    unreadable: bool = False
    #: The actions an ``undo`` line took back, latest first (empty for any other line).
    undone: tuple[Action, ...] = ()
    #: The redo stack after this line, top last, as a live referee keeps it: an ``undo`` pushes
    #: what it took back, an action equal to the top is a redo (pops it), any other action
    #: clears it; notes and rejected lines leave it alone.
    redo: tuple[Action, ...] = ()

    @property
    def verdict(self) -> str:
        return "accepted" if self.accepted else "rejected"

    def to_dict(self, state: bool = False) -> dict[str, Any]:
        """TABLE-LOG's replay object: ``line``, ``verdict``, ``reason``, ``message`` [, ``state``].
        """
        data: dict[str, Any] = {"line": self.line, "verdict": self.verdict,
                                "reason": self.reason, "message": self.message}
        if state:
            data["state"] = self.game.state()
        return data


def replay(lines: Iterable[str | bytes], deck: Deck | None = None) -> Iterator[LineResult]:
    """Judge a table log line by line, yielding one :class:`LineResult` per non-blank line.

    ``lines`` may come straight from a file (text or binary). Malformed lines are rejected as
    ``bad_action``; a rejected line changes nothing and the replay goes on. A log that cannot be
    read (no header, another format, a last line cut short) raises :class:`InputError`. Each
    result carries the redo stack as it stands (``redo``), so a stored game resumes with it.

    >>> log = ['{"format": "noah-table-log", "version": 1, "players": ["Ana", "Ben"]}\\n',
    ...        '{"type": "move_noah", "player": 0, "to": 1}\\n', '{"type": "tea"}\\n']
    >>> [(r.line, r.verdict, r.reason) for r in replay(log)]
    [(1, 'accepted', None), (2, 'rejected', 'round_over'), (3, 'rejected', 'bad_action')]
    """
    parsed = _parsed_lines(lines)
    number, header = _header_of(parsed)
    try:
        game = Game(header.players, header.options, deck=deck)
    except InputError as error:  # e.g. one player, or promos the deck cannot deal
        raise InputError(f"Line {number}: {error.message}", line=number,
                         field=error.field) from error
    yield LineResult(number, True, None, describe_header(header), header, game)
    redo: list[Action] = []
    for number, data in parsed:
        if data is not None:
            result = _judge(number, data, game)
            _follow_redo(result, redo)
            yield replace(result, redo=tuple(redo)) if redo else result


def _follow_redo(result: LineResult, redo: list[Action]) -> None:
    """Update the redo stack after one judged line (see :attr:`LineResult.redo`)."""
    if not result.accepted or isinstance(result.entry, Note):
        return
    if isinstance(result.entry, Undo):
        redo.extend(result.undone)
    elif redo and redo[-1] == result.entry:
        redo.pop()
    else:
        redo.clear()


def _judge(number: int, data: dict[str, Any] | InputError, game: Game) -> LineResult:
    try:
        if isinstance(data, InputError):
            raise data
        entry = entry_from_dict(data)
    except InputError as error:
        message = f"This line is malformed: {error.message.rstrip('.')}."
        # A line that is no table-log line at all (not a JSON object, beyond the limits, a
        # "type" that is not even a string) makes the log itself malformed.
        unreadable = isinstance(data, InputError) or not isinstance(data.get("type", ""), str)
        return LineResult(number, False, "bad_action", message, None, game, unreadable)
    if isinstance(entry, Note):
        return LineResult(number, True, None, f"Note: {shown(entry.text, limit=None)}", entry,
                          game)
    if isinstance(entry, Undo):
        return _undo(number, entry, game)
    beyond = _beyond_the_game(entry, game)
    if beyond:
        reason, problem = beyond
        message = (f"This set-up cannot be right: {problem}." if reason == "setup_invalid"
                   else f"This line is malformed: {problem}.")
        return LineResult(number, False, reason, message, entry, game)
    verdict = game.push(entry)
    return LineResult(number, verdict.accepted, verdict.reason, verdict.message, entry, game)


def _beyond_the_game(entry: Action, game: Game) -> tuple[str, str] | None:
    """Numbers no table can reach, whatever the rules say about them (a reason code and the
    problem), or None: a hand holds at most the cards in play, a round's tears are at most
    those of every card in play, a score at most those of every round so far."""
    counts = getattr(entry, "hand_counts", None) or ()
    tears = getattr(entry, "tears", None) or ()
    scores = getattr(entry, "scores", None) or ()
    if not (counts or tears or scores):
        return None
    cards = game.deck.for_game(len(game.players), game.options)
    if any(count > len(cards) for count in counts):
        return "setup_invalid", (f"a hand of {max(counts)} cards, but this game has "
                                 f"{len(cards)} cards in all")
    all_tears = sum(card.tears for card in cards)
    if any(count > all_tears for count in tears):
        return "bad_action", (f"{max(tears)} tears in one round, but all the cards in play "
                              f"together bring {all_tears}")
    round_ = max(1, getattr(entry, "round", 1))
    if isinstance(entry, Position) and round_ > MAX_ROUND:
        return "setup_invalid", f"round {round_}: this program counts up to round {MAX_ROUND}"
    if any(score > round_ * all_tears for score in scores):
        return "setup_invalid", (f"a score of {max(scores)} in round {round_}, but one round "
                                 f"brings at most {all_tears} tears")
    return None


def _actions(count: int) -> str:
    """``1 action``, ``3 actions``."""
    return f"{count} action" if count == 1 else f"{count} actions"


def _undo(number: int, undo: Undo, game: Game) -> LineResult:
    available = len(game.history)
    if undo.count > available:
        message = (f"This line is malformed: it undoes {_actions(undo.count)} but only "
                   f"{available} can be taken back.")
        return LineResult(number, False, "bad_action", message, undo, game)
    undone = tuple(game.pop() for _ in range(undo.count))
    words = "; ".join(describe_action(action, game.players) for action in undone)
    message = f"Took back {_actions(undo.count)}, last first: {words}."
    return LineResult(number, True, None, message, undo, game, undone=undone)


#: What an undone action was, for the table putting cards and tokens back (R55).
_UNDONE = {
    "position": "the position set-up",
    "start_round": "the deal",
    "play": "{name}'s {card} on ferry {ferry}",
    "take_back": "{name}'s take-back of ferry {ferry}",
    "move_noah": "Noah's move to ferry {to}",
    "croc_flee": "the fleeing animal given to {target}",
    "lion_swap": "{name}'s lion swap with {target}",
    "giraffe_look": "{name}'s giraffe look",
    "give": "{name}'s gifts",
    "scan_hands": "the hand scan",
    "score_round": "the round's scores",
}


def describe_action(action: Action, players: Sequence[str]) -> str:
    """A few words naming an action for people (ferries 1-5, players by name).

    >>> from companion.game.actions import Play, MoveNoah
    >>> describe_action(Play(1, "snail", 2, as_gender="F"), ["Ana", "Ben"])
    "Ben's ♀ snail on ferry 3"
    >>> describe_action(MoveNoah(0, 4), ["Ana", "Ben"])
    "Noah's move to ferry 5"
    """
    def seat(value: Any) -> str:
        return players[value] if isinstance(value, int) and 0 <= value < len(players) else "?"

    facts = {name: getattr(action, name, None) for name in ("card", "ferry", "to")}
    card = facts["card"] and animal_name(facts["card"], getattr(action, "as_gender", None))
    return _UNDONE[action.type].format(
        name=seat(getattr(action, "player", None)), target=seat(getattr(action, "target", None)),
        card=card, ferry=(facts["ferry"] or 0) + 1, to=(facts["to"] or 0) + 1)


def animal_name(ref: str, side: str | None = None) -> str:
    """A card reference as people say it: ``cat:F#2`` → ``♀ cat``; a snail shows its ``side``
    (given, or from the reference) and otherwise stays ``snail``.

    >>> animal_name("cat:F#2"), animal_name("snail#3", side="M"), animal_name("snail")
    ('♀ cat', '♂ snail', 'snail')
    """
    parsed = parse_ref(ref)
    gender = parsed.gender or side
    return f"{_SYMBOLS[gender]} {parsed.species}" if gender else parsed.species


_SYMBOLS = {"M": "♂", "F": "♀"}


def describe_header(header: Header) -> str:
    """The sentence for a log's header line.

    >>> describe_header(Header(("Ana", "Ben", "Chloé"), Options(hidden=True, frog=True)))
    'New game: Ana, Ben and Chloé; hidden hands, frog, 3 rounds.'
    """
    names = header.players
    who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    options = header.options
    chosen = [
        "score only" if options.score_only else ("hidden hands" if options.hidden
                                                 else "known hands"),
        *(label for label, on in (("frog", options.frog), ("crocodile", options.crocodile),
                                  ("roommates", options.roommates),
                                  ("pair needs male and female", options.pair_mf)) if on),
        "3 rounds" if options.end_rule == "rounds" else "until someone has 26",
    ]
    return f"New game: {who}; {', '.join(chosen)}."
