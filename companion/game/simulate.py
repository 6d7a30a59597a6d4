"""Seeded random games with known hands, checked after every action.

Each game plays uniformly at random among :meth:`Game.legal_actions` (deals from
:func:`.deal.random_start_round`) and, unless told not to, checks the table's invariants after
every action: every legal action is accepted, the dealt cards are all still somewhere (hands,
ferries, departed), no ferry is over its capacity, every ferry's genders follow R13, hand
counts match the hands, scores are never negative, and the game ends within a bound.

Game ``i`` of a run with seed ``s`` draws from ``random.Random(f"{s}:{i}")``, so a game is the
same whatever the number of processes and can be replayed alone.

>>> from companion.game import Options
>>> result = run_game(index=0, seed=1, players=3, options=Options())
>>> result.failure is None, result.game.is_over, result.game.round
(True, True, 3)
"""

from __future__ import annotations

import gc
import random
import traceback
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from .actions import Action, Give, LionSwap, ScanHands, StartRound
from .deal import random_start_round
from .deck import parse_ref
from .engine import Game
from .options import Options
from .state import IN_ROUND_PHASES
from .tablelog import Entry, Header

#: Actions allowed per round before a game counts as not terminating (real rounds take ~100).
MAX_ACTIONS_PER_ROUND = 2_000
#: Rounds allowed in a game ending at 26 points before it counts as not terminating.
MAX_ROUNDS = 60


class InvariantError(AssertionError):
    """A rule of the table was broken in a simulated game (an engine bug)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One simulated game: its number, the game as it ended or stopped, and what went wrong."""

    index: int
    seed: int | str
    game: Game
    actions: int
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None


def game_rng(seed: int | str, index: int) -> random.Random:
    """The random source of game ``index`` in a run with ``seed`` (independent of processes)."""
    return random.Random(f"{seed}:{index}")


def seat_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """The names of the seats: given, or ``Player 1``, ``Player 2``... for a count.

    >>> seat_names(2), seat_names(["Ana", "Ben"])
    (('Player 1', 'Player 2'), ('Ana', 'Ben'))
    """
    if isinstance(players, int):
        return tuple(f"Player {seat + 1}" for seat in range(players))
    return tuple(players)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a simulated game is played, back as it was after.

    A game's records are immutable tuples that reference counting frees (no cycles), yet the
    collector walks the young ones every few hundred allocations: about a tenth of a random
    game's time, for nothing. Whatever a game might leave in cycles is collected between games
    (the collector runs at the next allocations once it is back on).

    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def run_game(index: int, seed: int | str, players: int | Sequence[str], options: Options,
             check: bool = True) -> GameResult:
    """Play game ``index`` of a run (``players``: a count or the names); an invariant broken or
    an engine crash becomes ``failure``."""
    game = Game(seat_names(players), options)
    try:
        with collector_paused():
            play_random_game(game, game_rng(seed, index), check=check)
    except Exception as error:  # a crash is a finding to report, not a reason to stop the run
        actions = len(game.history)
        where = (f"after {actions} accepted action{'' if actions == 1 else 's'}, "
                 f"in round {game.round}")
        detail = str(error) if isinstance(error, InvariantError) else traceback.format_exc()
        return GameResult(index, seed, game, len(game.history), f"{where}: {detail}")
    return GameResult(index, seed, game, len(game.history))


def play_random_game(game: Game, rng: random.Random, check: bool = True) -> Game:
    """Play ``game`` (known hands) to its end, choosing uniformly among the legal actions."""
    if game.options.hidden:
        raise ValueError("random games need known hands (Options(hidden=False))")
    round_actions = 0
    while (phase := game.phase) != "game_over":
        if phase == "round_over":
            if game.round >= MAX_ROUNDS:
                raise InvariantError(f"the game did not end within {MAX_ROUNDS} rounds")
            action: Action = random_start_round(game, rng)
            round_actions = 0
        else:
            choices = game.legal_actions()
            if not choices:
                raise InvariantError(f"no legal action in phase {phase!r}")
            action = rng.choice(choices)
            round_actions += 1
            if round_actions > MAX_ACTIONS_PER_ROUND:
                raise InvariantError(
                    f"round {game.round} did not end within {MAX_ACTIONS_PER_ROUND} actions")
        verdict = game.push(action)
        if check:
            if not verdict.accepted:
                raise InvariantError(f"the legal action {action} was rejected: {verdict.message}")
            check_invariants(game)
    return game


# -- invariants ---------------------------------------------------------------------------------


def check_invariants(game: Game) -> None:
    """Raise :class:`InvariantError` if the table as it stands breaks a rule that always holds.
    """
    state = game.state()
    _check_counts(state, len(game.players))
    if state["phase"] in IN_ROUND_PHASES:
        _check_cards_kept(game, state)
        for position, cards in enumerate(state["ferries"]):
            if cards is not None:
                _check_ferry(position, cards, state, game.options)


def _check_counts(state: dict[str, Any], players: int) -> None:
    if any(score < 0 for score in state["scores"]):
        raise InvariantError(f"a score is negative: {state['scores']}")
    hands = state.get("hands")
    if hands is not None and [len(hand) for hand in hands] != state["hand_counts"]:
        raise InvariantError(f"hand counts {state['hand_counts']} do not match the hands")
    player = state["current_player"]
    seated = isinstance(player, int) and 0 <= player < players
    if state["phase"] in IN_ROUND_PHASES and not seated:
        raise InvariantError(f"phase {state['phase']} awaits seat {player!r}")
    if not 0 <= state["departed"] <= 4 or state["gifts_owed"] > state["departed"]:
        raise InvariantError(f"{state['departed']} departures, {state['gifts_owed']} gifts owed")
    if state["phase"] == "play":
        _check_turn(state, player)


def _check_turn(state: dict[str, Any], player: int) -> None:
    """A loading is awaited on a ferry that is there, from a player who holds cards (R33)."""
    noah = state["noah"]
    if not (isinstance(noah, int) and 0 <= noah < 5) or state["ferries"][noah] is None:
        raise InvariantError(f"a loading is awaited but Noah is at {noah!r}: {state['ferries']}")
    if state["hand_counts"][player] == 0:
        raise InvariantError(f"seat {player} must load a card but holds none (the round should "
                             "have ended, R33)")


def _check_cards_kept(game: Game, state: dict[str, Any]) -> None:
    """The cards dealt this round are all in hands, on ferries, fleeing or departed."""
    deal = next(action for action in reversed(game.history) if isinstance(action, StartRound))
    dealt = _dealt(deal)
    refs = [*(ref for hand in state["hands"] for ref in hand), *state["departed_cards"],
            *(ref for cards in state["ferries"] if cards for ref in cards)]
    if state.get("fleeing"):
        refs.append(state["fleeing"])
    held = Counter(map(_identity, refs))
    if dict.__ne__(held, dealt):  # no zero counts here, so C-speed dict equality is exact
        lost, extra = dealt - held, held - dealt
        raise InvariantError(f"cards not conserved: missing {dict(lost)}, extra {dict(extra)}")


@lru_cache(maxsize=64)  # one entry per round in play
def _dealt(deal: StartRound) -> Counter[tuple[str, str | None]]:
    assert deal.hands is not None  # random games have known hands
    return Counter(map(_identity, [*deal.ferries, *(ref for hand in deal.hands for ref in hand)]))


@cache
def _identity(ref: str) -> tuple[str, str | None]:
    """A card whatever its copy number or a snail's declared side."""
    parsed = parse_ref(ref)
    return parsed.species, None if parsed.species == "snail" else parsed.gender


def _check_ferry(position: int, cards: list[str], state: dict[str, Any],
                 options: Options) -> None:
    weight, capacity = state["weights"][position], state["capacities"][position]
    # A full ferry waits only for Noah's move before it leaves (R18, R19).
    limit = capacity - 1 if state["phase"] in ("play", "give") else capacity
    if weight > limit:
        raise InvariantError(f"ferry {position + 1} weighs {weight} of {capacity}: {cards}")
    broken = _broken_rule(tuple(cards), options.roommates)
    if broken:
        raise InvariantError(f"ferry {position + 1} {broken}: {cards}")


@lru_cache(maxsize=8192)  # a ferry keeps its load over many actions: judge each load once
def _broken_rule(cards: tuple[str, ...], roommates: bool) -> str | None:
    """What a ferry's load breaks among the rules that do not depend on weight, if anything."""
    genders = [parse_ref(ref).gender for ref in cards]
    if None in genders:
        return "holds a snail without a side"
    if len(genders) > 2 and not _gender_sequence_ok(genders):
        return "breaks the gender rule (R13)"
    species = [parse_ref(ref).species for ref in cards]
    if roommates and len(set(species)) != len(species):
        return "holds roommates (R47)"
    return None


def _gender_sequence_ok(genders: list[str | None]) -> bool:
    """R13: all one gender, or strictly alternating.

    >>> _gender_sequence_ok(["M", "M", "M"]), _gender_sequence_ok(["F", "M", "F"])
    (True, True)
    >>> _gender_sequence_ok(["M", "M", "F"])
    False
    """
    same = all(gender == genders[0] for gender in genders)
    alternating = all(a != b for a, b in pairwise(genders))
    return same or alternating


# -- what a real table records ------------------------------------------------------------------


def table_view(game: Game) -> tuple[Header, list[Entry]]:
    """A known-hands game as a camera referee would have logged it (hidden hands, R48).

    Deals give hand counts, lion swaps and gifts lose their cards, and every round end gets
    the scan of the hands that were left.

    >>> from companion.game import Options
    >>> header, entries = table_view(run_game(0, seed=1, players=3, options=Options()).game)
    >>> header.options.hidden, sum(isinstance(entry, ScanHands) for entry in entries)
    (True, 3)
    """
    replayed = Game(game.players, game.options, deck=game.deck)
    entries: list[Entry] = []
    for action in game.history:
        replayed.push(action)
        entries.append(_hidden(action))
        if replayed.phase in ("round_over", "game_over"):
            hands = replayed.state()["hands"]  # what was left in each hand
            entries.append(ScanHands(tuple(tuple(hand) for hand in hands)))
    return Header(game.players, replace(game.options, hidden=True)), entries


def _hidden(action: Action) -> Action:
    if isinstance(action, StartRound) and action.hands is not None:
        return replace(action, hands=None, hand_counts=tuple(map(len, action.hands)))
    if isinstance(action, LionSwap):
        return replace(action, take=None, give=None)
    if isinstance(action, Give):
        return replace(action, gifts=tuple(replace(gift, card=None) for gift in action.gifts))
    return action


def simulate(games: int, players: int | Sequence[str], options: Options, seed: int | str,
             check: bool = True, first: int = 0) -> Iterator[GameResult]:
    """Games ``first`` .. ``first + games - 1`` of a run, in one process.

    The cycle collector stays paused for the whole run (also while the caller reads each
    result), not only during each game: turned back on after a game, its first pass walks
    every record of that game, still alive in its result, and finds nothing (a game makes no
    reference cycles; a crashed game's traceback does, collected once the run ends or is
    dropped).
    """
    with collector_paused():
        for index in range(first, first + games):
            yield run_game(index, seed, players, options, check)


__all__ = [
    "MAX_ACTIONS_PER_ROUND", "MAX_ROUNDS", "GameResult", "InvariantError",
    "check_invariants", "game_rng", "play_random_game", "run_game", "seat_names", "simulate",
    "table_view",
]
