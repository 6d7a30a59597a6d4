"""``noah-companion replay LOG``: judge a table log line by line and show the final table.

Text mode prints, per line, its number, ✓ or ✗ and the referee's sentence, then the ferries,
the players' hands and scores, and the winners. ``--json`` prints TABLE-LOG.md's objects, one
per line (``--states`` adds the state after each line); the last object is the final state.
Rejected lines do not stop the replay (exit status 0; ``--strict`` makes it 1). A line that is
no table-log line at all (not a JSON object, beyond the limits of docs/table-log.md, a ``type``
that is not a string) is judged ``bad_action`` and the replay goes on, but the log is malformed:
the command then exits with status 2, naming the line. A log that cannot be read at all (no
header, another format, cut short) stops at once with status 2 and says which line is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from companion.commands._options import add_json, add_quiet, progress_bar, shows_progress
from companion.errors import UserError
from companion.game import Game, Phase
from companion.game.errors import shown
from companion.game.tablelog import LineResult, animal_name
from companion.session.narrate import plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "replay", help="check a table log line by line and show the final table",
        description="Judge every line of a table log (JSON Lines, see docs/table-log.md) and "
        "show the final state. Use - to read the log from standard input.",
    )
    parser.add_argument("logs", metavar="LOG", nargs="+",
                        help="table log file(s) (.jsonl), or - for stdin; each is judged on its "
                        "own, in turn")
    add_json(parser, "one JSON object per line, then the final state (TABLE-LOG.md)")
    parser.add_argument("--states", action="store_true",
                        help="add the state after each line (implies --json)")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 if any line is rejected")
    add_quiet(parser, "no progress bar while several logs are judged")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Judge each log in turn; the exit status is the worst of theirs."""
    if len(args.logs) == 1:
        return replay_log(args.logs[0], args)
    worst = 0
    json_mode = args.json or args.states
    enabled = not json_mode and shows_progress(args.quiet)
    with progress_bar(len(args.logs), "Logs", "log", enabled) as bar:
        for number, path in enumerate(args.logs):
            if not json_mode:
                print(f"{'' if number == 0 else chr(10)}== {shown(path, limit=None)} ==")
            try:
                status = replay_log(path, args)
            except UserError as error:
                sys.stdout.flush()
                print(f"noah-companion: {error}", file=sys.stderr)
                status = 2
            worst = max(worst, status)
            bar.update()
    return worst


def replay_log(path: str, args: argparse.Namespace) -> int:
    """Judge one table log and show it; the exit status described in the module docstring."""
    from companion.game import InputError
    from companion.game.tablelog import replay

    json_mode = args.json or args.states
    show = _JsonReport(sys.stdout, args.states) if json_mode else _TextReport(sys.stdout)
    rejected = 0
    unreadable: list[int] = []
    last = None
    try:
        for last in replay(_read_lines(path)):
            rejected += not last.accepted
            if last.unreadable:
                unreadable.append(last.line)
            show.line(last)
    except InputError as error:
        sys.stdout.flush()
        after = "Nothing after that line was checked." if (error.line or 1) > 1 else ""
        raise UserError(f"{_name(path)}: {error.message}", after) from error
    assert last is not None, "a replay yields its header line or raises"
    show.end(last.game, lines=last.line, rejected=rejected)
    if unreadable:
        sys.stdout.flush()
        which = ("line " if len(unreadable) == 1 else "lines ") + ", ".join(map(str, unreadable))
        print(f"noah-companion: {_name(path)} is malformed: {which} cannot be read as "
              "table-log lines (see why above). Fix or remove them; the other lines were "
              "judged as shown.",
              file=sys.stderr)
        return 2
    return 1 if args.strict and rejected else 0


def _name(path: str) -> str:
    return "standard input" if path == "-" else path


def _read_lines(path: str) -> Iterator[bytes]:
    """The log's raw lines (decoded by the replay, so a bad byte is reported with its line)."""
    from companion.game import InputError
    from companion.game.inputs import require_regular_file

    if path == "-":
        yield from _bounded_lines(sys.stdin.buffer)
        return
    try:  # never open a device or a pipe by name: reading /dev/zero would never end
        require_regular_file(Path(path), "a table log", "Give the path of a .jsonl file, or - "
                             "to read the log from standard input.")
        with Path(path).open("rb") as file:
            yield from _bounded_lines(file)
    except InputError as error:
        raise UserError(error.message) from None
    except OSError as error:
        raise UserError(f"Cannot read the table log {path}: {error.strerror}.",
                        "Check the file name and that you may read it.") from error


def _bounded_lines(file: BinaryIO) -> Iterator[bytes]:
    """Each line, but never more than :data:`MAX_LINE_BYTES` + 1 bytes of one in memory: the
    replay reports an over-long line, and the rest of it is skipped unread."""
    from companion.game.tablelog import MAX_LINE_BYTES

    while line := file.readline(MAX_LINE_BYTES + 1):
        yield line
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := file.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass


class _JsonReport:
    def __init__(self, out: TextIO, states: bool) -> None:
        self.out, self.states = out, states

    def line(self, result: LineResult) -> None:
        self._print(result.to_dict(state=self.states))

    def end(self, game: Game, lines: int, rejected: int) -> None:
        self._print(game.state())

    def _print(self, data: dict[str, Any]) -> None:
        print(json.dumps(data, ensure_ascii=False), file=self.out)


class _TextReport:
    """A table a referee reads at a glance: the verdicts, then the table as it ends."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def line(self, result: LineResult) -> None:
        mark = "✓" if result.accepted else "✗"
        reason = f"[{result.reason}] " if result.reason else ""
        print(f"{result.line:>5} {mark} {reason}{shown(result.message, limit=None)}",
              file=self.out)

    def end(self, game: Game, lines: int, rejected: int) -> None:
        print(file=self.out)
        names = [shown(name, limit=None) for name in game.players]  # as the log wrote them
        for text in final_table(names, game.state()):
            print(text, file=self.out)
        verdicts = "every line accepted" if not rejected else f"{plural(rejected, 'line')} rejected"
        print(f"Replayed {plural(lines, 'line')}: {verdicts}.", file=self.out)


def final_table(players: Sequence[str], state: dict[str, Any]) -> Iterator[str]:
    """The final state in plain lines: round and step, ferries, players, winners.

    >>> state = {"round": 1, "phase": "play", "current_player": 1, "noah": 0,
    ...          "ferries": [["cat:F", "cat:M"], None, [], ["snail:M"], ["bear:M"]],
    ...          "weights": [4, None, 0, 1, 7], "capacities": [21, None, 21, 21, 21],
    ...          "departed": 1, "hand_counts": [7, 8], "scores": [0, 2], "winners": []}
    >>> print("\\n".join(final_table(["Ana", "Ben"], state)))
    Round 1, Ben to play (1 departure so far).
    Ferry  Weight  Animals, bottom first
      1     4/21   ♀ cat, ♂ cat   ← Noah
      2    gone
      3     0/21   (empty)
      4     1/21   ♂ snail
      5     7/21   ♂ bear
    Player  Cards  Score  Last round
    Ana         7      0           0
    Ben         8      2           0
    """
    yield _headline(players, state)
    if state.get("noah") is not None:
        yield "Ferry  Weight  Animals, bottom first"
        for position, (cards, weight, capacity) in enumerate(
                zip(state["ferries"], state["weights"], state["capacities"], strict=True)):
            yield _ferry_row(position, cards, weight, capacity, state["noah"])
    yield from _player_rows(players, state)
    if state.get("winners"):
        names = [players[seat] for seat in state["winners"]]
        yield f"{'Winner' if len(names) == 1 else 'Winners'}: {' and '.join(names)}."


def _player_rows(players: Sequence[str], state: dict[str, Any]) -> Iterator[str]:
    """Name, cards held (once cards are dealt), score, last round's tears, hand (if known)."""
    width = max(6, *map(len, players))
    dealt = state.get("noah") is not None  # never in a score-only game
    hands = state.get("hands")
    yield (f"{'Player':<{width}}" + ("  Cards" if dealt else "") + "  Score  Last round"
           + ("  Hand" if hands else ""))
    last_round = state.get("round_scores") or [0] * len(players)
    for seat, name in enumerate(players):
        cards = f"  {state['hand_counts'][seat]:>5}" if dealt else ""
        row = f"{name:<{width}}{cards}  {state['scores'][seat]:>5}  {last_round[seat]:>10}"
        if hands is not None:
            row += "  " + ", ".join(animal_name(ref) for ref in hands[seat])
        yield row.rstrip()


def _headline(players: Sequence[str], state: dict[str, Any]) -> str:
    phase: Phase = state["phase"]
    round_ = state.get("round")
    if phase == "game_over":
        return f"Game over after round {round_}."
    if phase == "round_over":
        return ("No round started yet." if not round_
                else f"Round {round_} is over; round {round_ + 1} is next.")
    if phase == "scan":
        return f"Round {round_} is over: every hand must be scanned."
    actor = players[state["current_player"]]
    steps: dict[Phase, str] = {
        "play": "to play", "croc_flee": "to name who takes the fleeing animal",
        "lion_swap": "to swap a card (lion)", "move_noah": "to move Noah", "give": "to give cards"}
    step = steps.get(phase, f"({phase})")
    return f"Round {round_}, {actor} {step} ({plural(state['departed'], 'departure')} so far)."


def _ferry_row(position: int, cards: list[str] | None, weight: int | None,
               capacity: int | None, noah: int) -> str:
    if cards is None:
        return f"  {position + 1}    gone"
    load = ", ".join(animal_name(ref) for ref in cards) or "(empty)"
    here = "   ← Noah" if position == noah else ""
    return f"  {position + 1}    {weight:>2}/{capacity}   {load}{here}"
