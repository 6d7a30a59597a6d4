"""Noah's kind (companion.games): the session, the stickers, the history's reading and the
command line's replay of a ``noah-table-log``.

>>> KIND.name, KIND.log_format, KIND.title_key
('noah', 'noah-table-log', 'games.noah')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from companion.errors import UserError
from companion.game.errors import shown
from companion.game.tablelog import FORMAT, animal_name
from companion.session.bgstats import BGStatsGame, PlayFacts
from companion.session.narrate import plural

if TYPE_CHECKING:
    from companion.game import Game, Phase
    from companion.game.tablelog import LineResult
    from companion.games import GameKind, StickerCodec
    from companion.session.history import GameSummary
    from companion.session.record import GameReading
    from companion.session.session import Session
    from companion.session.store import GameRecord, GameStore
    from companion.tags.tagged_deck import StickeredDeck


#: Noah in BG Stats: won with the fewest tears.
BGSTATS = BGStatsGame("Noah", "noah", highest_wins=False, periods="Tears per round")
#: The header's option flags named as BG Stats' ``board`` shows them (R6, R27, R47).
VARIANTS = (("frog", "Frog"), ("crocodile", "Crocodile"), ("roommates", "Roommates"),
            ("pair_mf", "Male-female pairs"))


class NoahKind:
    """Noah (R1-R55): tears per round, its stickers ``NOAH1/…`` (companion/tags)."""

    name = "noah"
    log_format = FORMAT
    title = "Noah"
    title_key = "games.noah"
    period = "round"
    points = "tears"

    def session_class(self) -> type[Session]:
        from companion.session.session import Session

        return Session

    def codec(self) -> StickerCodec:
        from companion.tags import payload

        return payload

    def stickered_deck(self, deck: str | None, deck_id: str | None) -> StickeredDeck:
        from companion.tags.tagged_deck import configured_tagged_deck

        return configured_tagged_deck(deck, deck_id)

    def configured_deck_id(self) -> str | None:
        from companion.config import load_config

        return load_config().game.deck_id

    def summarize(self, store: GameStore, entry: GameRecord, deck: Any = None) -> GameSummary:
        from companion.game.deck import Deck, default_deck
        from companion.session.record import read_game

        box = deck if isinstance(deck, Deck) else default_deck()
        return summary_of(read_game(store, entry, box))

    def bgstats_facts(self, store: GameStore, entry: GameRecord) -> PlayFacts:
        """Noah for BG Stats: the fewest tears win; the first round's starter (its
        ``round_start`` line); the promo animals and rules variants of the header."""
        starter = next((line.get("starter") for line in store.lines(entry.id)
                        if line.get("starter") is not None), None)
        return PlayFacts(BGSTATS, starter, variant_name(entry.header.get("options") or {}))

    def replay(self, lines: Iterable[bytes], out: TextIO, *, name: str, json_mode: bool,
               states: bool, strict: bool) -> int:
        """Judge a Noah table log (TABLE-LOG.md); the exit statuses of ``noah-companion
        replay`` (docs/table-log.md)."""
        from companion.game import InputError
        from companion.game.tablelog import replay

        show = _JsonReport(out, states) if json_mode else _TextReport(out)
        rejected = 0
        unreadable: list[int] = []
        last = None
        try:
            for last in replay(lines):
                rejected += not last.accepted
                if last.unreadable:
                    unreadable.append(last.line)
                show.line(last)
        except InputError as error:
            out.flush()
            after = "Nothing after that line was checked." if (error.line or 1) > 1 else ""
            raise UserError(f"{name}: {error.message}", after) from error
        assert last is not None, "a replay yields its header line or raises"
        show.end(last.game, lines=last.line, rejected=rejected)
        if unreadable:
            out.flush()
            which = ("line " if len(unreadable) == 1 else "lines ") + ", ".join(
                map(str, unreadable))
            raise MalformedLog(f"{name} is malformed: {which} cannot be read as table-log "
                               "lines (see why above). Fix or remove them; the other lines "
                               "were judged as shown.")
        return 1 if strict and rejected else 0


def variant_name(options: Mapping[str, Any]) -> str:
    """The promo animals and rules variants in play, in English, as BG Stats' ``board`` shows
    them ("" for a plain game).

    >>> variant_name({"frog": True, "crocodile": True, "end_rule": "rounds"})
    'Frog, Crocodile'
    >>> variant_name({"roommates": True, "end_rule": "score26"})
    'Roommates, Play to 26 tears'
    """
    names = [name for key, name in VARIANTS if options.get(key)]
    if options.get("end_rule") == "score26":
        names.append("Play to 26 tears")
    return ", ".join(names)


def summary_of(reading: GameReading) -> GameSummary:
    """The history's summary of a Noah game already read (a damaged one at its last good move)."""
    from companion.session.history import GameSummary

    entry, game = reading.entry, reading.game
    state = game.state() if game is not None else {}  # None: not even the header is readable
    # the next round is the one to play
    between_rounds = game is not None and game.phase == "round_over"
    return GameSummary(
        id=entry.id, players=tuple(entry.players), started_at=entry.started_at,
        updated_at=entry.updated_at, score_only=entry.score_only,
        finished=bool(state.get("game_over")), round=state.get("round", 1) + between_rounds,
        rounds=tuple(tears for _, tears in reading.round_scores),
        scores=tuple(state.get("scores") or ()), winners=tuple(state.get("winners") or ()),
        actions=len(game.history) if game is not None else 0, damage=reading.damage,
        problems=reading.problems, abandoned=entry.abandoned, kind=KIND.name,
    )




class MalformedLog(UserError):
    """A log whose every line was judged, some of which are no table-log lines at all (exit
    status 2, after the verdicts)."""


KIND: GameKind = NoahKind()


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
