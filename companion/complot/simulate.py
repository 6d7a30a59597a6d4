"""Seeded games to 400 played by simple players, with the referee's invariants checked.

Game ``seed`` depends only on its seed text. The players are plain heuristics (keep the cards
that go together, announce what the hand makes, sometimes launch an action, now and then a
wrong «Complot !» to exercise C44). They choose typed actions (:mod:`.actions`), a draw or a
discard among the referee's own ``legal_draws`` / ``legal_discards``, and each is pushed with
:meth:`Game.push_legal` (no verdict built); a narrated game, or one whose claims are read by a
camera, pushes the same actions' table log lines through the judged :meth:`Game.push`. After
each move :func:`play_game` checks that all cards in play are accounted for once (C1, C5a,
C17), that hands are back to 6 between turns (C14) and that scores come only from accepted
claims (C52).

>>> report = play_game("7", players=3, level=3, target=100)
>>> report.problem is None, max(report.scores) >= 100, report.manches > 1
(True, True, True)
"""

from __future__ import annotations

import gc
import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice
from operator import itemgetter

from .actions import Action, CardAction, Claim, Deal, Discard, Draw, Kill
from .cards import Card, Deck, default_deck
from .combos import ELYSEE_NAMES, best_claim, made
from .engine import ACTIONS, DISCARDED, TAKEN, Game
from .invariants import Invariants
from .judge import LEVEL_2_ACTIONS, TARGET_SCORE, defence_problem
from .narrate import narrate
from .state import without

NAMES = ("Ana", "Ben", "Chloé", "David", "Emma", "Farid")
#: How often a simulated player announces a «Complot !» the cards do not make (C44).
WRONG_CLAIM_RATE = 0.01
ACTION_RATE = 0.3
MAX_ACTIONS = 200_000  # a game never gets near this; it only bounds a bug


@dataclass
class Report:
    """What one simulated game did, and the first invariant it broke (or None)."""

    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    manches: int = 0
    turns: int = 0
    claims: int = 0
    problem: str | None = None
    narration: list[str] = field(default_factory=list)
    game: Game | None = field(default=None, repr=False)

    @property
    def log(self) -> str:
        """The game's table log (written when asked: most runs never need it)."""
        return "" if self.game is None else self.game.to_json()


def play_game(seed: str, players: int = 4, level: int = 1, check: bool = True,
              narrate_in: str | None = None, deck: Deck | None = None,
              target: int = TARGET_SCORE,
              read_cards: Callable[[Sequence[str]], list[str]] | None = None,
              tell: Callable[[str], object] | None = None) -> Report:
    """Play one seeded game to its end (``target`` points, 400 by C55); ``narrate_in`` (fr, en,
    zh) tells it line by line (to ``tell`` as it happens, else in the report). ``read_cards``
    reads the six cards a claimant lays down (say, through a camera): the claim is then judged
    on the cards it returns."""
    rng = random.Random(seed)
    game = Game(NAMES[:players], level=level, dealer=rng.randrange(players), seed=seed,
                deck=deck or default_deck(), target=target)
    report = Report()
    earned = [0] * players
    seats = Players(game, rng)
    if narrate_in is None and read_cards is None:
        _play_fast(game, seats.moves, report, earned, check)
    else:
        _play_told(game, seats.moves, report, earned, check, narrate_in, read_cards, tell)
    report.manches, report.turns, report.claims = seats.manches, seats.turns, seats.claims
    report.scores, report.winners = game.scores, game.winners
    report.game = game
    return report


#: Container objects allocated (less those freed) between two young-generation collections
#: while games are played (CPython's default is 700).
GAMES_GC_THRESHOLD = 50_000


@contextmanager
def collector_for_games() -> Iterator[None]:
    """The cyclic garbage collector set for a run of games, then put back as it was.

    The heap alive before the games (the imports, the deck) is frozen out of the collector's
    sight (``gc.freeze``), and the young generation is collected after 50,000 new container
    objects instead of CPython's 700: a game's tuples (states, hands, counts) die young and
    leave no cycles (none collected in ten games at the default setting). The same games
    (the collector only frees what nothing reaches), a few megabytes of young objects at
    most, and callgrind counts 6–13 % fewer instructions a game, pure or compiled
    (docs/benchmarks.md, "cnative2")."""
    threshold = gc.get_threshold()
    gc.freeze()  # (no gc.collect() first: a run enters this for every game of a progress bar)
    gc.set_threshold(GAMES_GC_THRESHOLD, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _play_fast(game: Game, moves: Iterator[Action], report: Report, earned: list[int],
               check: bool) -> None:
    """The players' typed actions pushed with :meth:`Game.push_legal` (no verdicts built):
    the players choose only among the referee's legal actions (tests/complot replays these
    games through the judged dict path). Unchecked, the loop only pushes (the players count
    what they did); checked, it keeps the accepted claims' points apart for the checks."""
    table, push_legal = game.table, game.push_legal
    invariants = Invariants(game, earned)
    if not check:
        for action in islice(moves, MAX_ACTIONS):
            push_legal(action)
    for action in islice(moves, MAX_ACTIONS):  # (checked; nothing left when unchecked)
        claims = len(table.claims)
        push_legal(action)
        if len(table.claims) > claims:  # an accepted claim: its points are the last claim's
            earned[table.claims[-1][0]] += table.claims[-1][2]
        if (problem := invariants.problem()) is not None:
            report.problem = f"after {type(action).__name__} in manche {game.manche}: {problem}"
            return
    if table.phase != "game_over":
        report.problem = "the game did not end"


def _play_told(game: Game, moves: Iterator[Action], report: Report, earned: list[int],
               check: bool, narrate_in: str | None,
               read_cards: Callable[[Sequence[str]], list[str]] | None,
               tell: Callable[[str], object] | None) -> None:
    """The same game through the judged path, each action as the table log's line: for a
    narration (from the verdicts' events) or a claim's cards read through ``read_cards``."""
    invariants = Invariants(game, earned)
    for move in islice(moves, MAX_ACTIONS):
        action = game.action_dict(move)
        if read_cards is not None and action["type"] == "claim":
            action["cards"] = read_cards(game.hand(action["player"]))
        verdict = game.push(action)
        if not verdict.changed:
            report.problem = f"the player's action {action} was refused: {verdict.code}"
            return
        if verdict.accepted and action["type"] == "claim":
            earned[action["player"]] += verdict.points
        if narrate_in is not None:
            _tell(narrate(game, action, verdict, narrate_in), report, tell)
        if check and (problem := invariants.problem()) is not None:
            report.problem = f"after {action['type']} in manche {game.manche}: {problem}"
            return
    if game.phase != "game_over":
        report.problem = "the game did not end"


def _tell(lines: list[str], report: Report, tell: Callable[[str], object] | None) -> None:
    if tell is None:
        report.narration += lines
        return
    for line in lines:
        tell(line)


# -- the simulated players ----------------------------------------------------------------------
# They read the referee's table directly (``Game.table``: cards as numbers, see .state) and
# count hands through small per-deck tables (_Marks); their actions name cards by id. A
# random number costs a simulated game about as much as a push's bookkeeping, so they draw
# few: one sort key per card for a deal, the gaps between rare events (Chance), a tie broken
# only when there is one.

class Chance:
    """Events that each happen with probability ``rate``, told one trial at a time, with one
    random number per event instead of one per trial: the number of failures before the next
    event is drawn from its geometric law (the same process as a coin tossed each time).

    >>> rare = Chance(0.25, random.Random(1))
    >>> sum(rare.happens() for _ in range(40_000))
    10019
    >>> any(Chance(0.0, random.Random(1)).happens() for _ in range(1000))
    False
    """

    __slots__ = ("_log_miss", "_rng", "_wait")

    def __init__(self, rate: float, rng: random.Random) -> None:
        self._log_miss = math.log1p(-rate) if rate > 0 else 0.0
        self._rng = rng
        self._wait = self._gap()

    def _gap(self) -> int:
        if not self._log_miss:
            return sys.maxsize  # never
        return int(math.log1p(-self._rng.random()) / self._log_miss)

    def happens(self) -> bool:
        if self._wait:
            self._wait -= 1
            return False
        self._wait = self._gap()
        return True


def shuffled(cards: Sequence[str], rng: random.Random) -> list[str]:
    """``cards`` in a random order: sorted by random 32-bit keys drawn in one call (``random
    .shuffle`` draws a number per card, which costs more than the rest of the deal). Equal
    keys, about one deal in a million, leave those cards in id order.

    >>> shuffled(["a", "b", "c", "d"], random.Random(3))
    ['d', 'a', 'c', 'b']
    """
    keys = memoryview(rng.randbytes(4 * len(cards))).cast("I")
    return [card for _, card in sorted(zip(keys, cards, strict=True))]


class Players:
    """The simulated players of one game: keep the cards that go together, announce what the
    hand makes, sometimes launch an action, now and then a wrong «Complot !» (C44).
    :attr:`moves` yields each next action, of whoever's move it is, until the game is over;
    :meth:`choose` is the next one."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.table = game.table  # the referee keeps one State for the whole game
        self.rng = rng
        self.marks = _marks(game.deck)
        self.wrong_claim = Chance(WRONG_CLAIM_RATE, rng)
        self.action = Chance(ACTION_RATE if game.level >= 2 else 0.0, rng)
        self.id_ranks, self.numbers_by_id = _deal_order(self.marks, game.in_play)
        # Each seat's hand as last counted, with its key counts and jokers (_count_keys),
        # kept up to date as cards come and go, in place: see _counts. (Each seat its own
        # list from the start: the deck's blank counts are shared by every game.)
        self.counted: list[tuple[tuple[int, ...], list[int], int]] = [
            ((), self.marks.blank.copy(), 0) for _ in game.players]
        # Each seat's hand as last looked at, with what it announces (_announced): worked
        # out at the discard that makes the hand, just before its owner's claim window
        # (C30), and read again at their next turn start if the hand is still the same.
        self.announced: list[tuple[tuple[int, ...], tuple[bool, str | None]]] = [
            ((), (False, None)) for _ in game.players]
        self.discards = game.moves.discards  # (the typed discards legal_discards hands out)
        #: What the players did (play_game pushes every action they choose): manches dealt,
        #: turns ended (a discard, an action card or a kill) and claims accepted.
        self.manches = self.turns = self.claims = 0
        self.moves: Iterator[Action] = self._play()

    def choose(self) -> Action:
        """The next action, of whoever's move it is (StopIteration once the game is over)."""
        return next(self.moves)

    def _play(self) -> Iterator[Action]:
        """Each next action, chosen from the table as it stands when it is asked for
        (whatever was pushed since the last one), until the game is over: one generator
        resumed per push, which calls the method of the move's kind (a turn's start or end,
        or between turns) and counts what was played."""
        table = self.table
        turn_start, turn_end, between_turns = self._turn_start, self._turn_end, \
            self._between_turns
        while table.phase != "game_over":
            if table.phase != "turn":
                yield between_turns()
            elif table.drawn:  # the draw closed the claim window (C30): an action or a discard
                self.turns += 1
                yield turn_end(table.current)
            else:
                action = turn_start(table.current)
                if type(action) is Draw:
                    yield action
                else:  # a claim: accepted if the table's claims grew once it was pushed
                    claims = len(table.claims)
                    yield action
                    self.claims += len(table.claims) > claims

    def _between_turns(self) -> Deal | Kill:
        """The victim's previous player kills (C82), or the dealer deals a new manche."""
        if self.table.phase == "attentat":
            self.turns += 1  # the victim's turn ends with the kill
            return _kill(self.game, self.marks, self.rng)
        self.manches += 1
        return Deal(self._shuffled())

    def _shuffled(self) -> tuple[int, ...]:
        """The game's cards as :func:`shuffled` orders their ids (the same random keys, ties
        in id order), as numbers, sorted and picked in C: no Python loop over the 93 cards."""
        keys = memoryview(self.rng.randbytes(4 * len(self.id_ranks))).cast("I")
        _, ranks = zip(*sorted(zip(keys, self.id_ranks, strict=True)), strict=True)
        return itemgetter(*ranks)(self.numbers_by_id)  # type: ignore[no-any-return]

    def _turn_start(self, seat: int) -> Claim | Draw:
        """A claim (:meth:`_claim`), else the draw: the «défausse» when its top card helps
        a lot (:func:`_gain` of 5 or more), now and then (else the game could loop on the
        same few cards passed around), the «pioche» otherwise."""
        table = self.table
        if table.turns_done[seat] or table.window is not None:
            claim = self._claim(seat)
            if claim is not None:
                return claim
        draws = self.game.legal_draws()  # the «défausse» too when it may be taken (C68, C83)
        if len(draws) == 1:
            return draws[0]
        counts, _ = self._counts(seat, table.hands[seat])
        helps = _gain(table.defausse[-1], counts, self.marks) >= 5
        return draws[1] if helps and self.rng.random() < 0.5 else draws[0]

    def _claim(self, seat: int) -> Claim | None:
        """At the start of the turn of ``seat``: announce what the hand makes, the Élysée
        for ``seat`` itself, else what the claim window's hand makes."""
        table = self.table
        if table.turns_done[seat] > 0 and self._announcement(seat)[0]:
            return Claim(seat, "complot_elysee")
        window = None if table.window_used else table.window
        if window is None:
            return None
        elysee, best = self._announcement(window)
        if best is not None and not elysee:
            return Claim(window, best)
        if best is None and self.wrong_claim.happens():
            return Claim(window, "complot")
        return None

    def _turn_end(self, seat: int) -> CardAction | Discard:
        """Now and then an action card, else the discard of the least connected card of the
        hand (:func:`_worst_card`); the hand it leaves is looked at at once (its owner's claim
        window comes next)."""
        hand = self.table.hands[seat]
        counts, _ = self._counts(seat, hand)
        if self.action.happens():
            action = _action(self.game, self.marks, seat, self.rng, counts)
            if action is not None:
                return action
        marks = self.marks
        card = _worst_card(marks, hand, self.rng, counts)
        kept = without(hand, card)
        jokers = _counted_less(counts, card, marks)
        self.counted[seat] = (kept, counts, jokers)
        if kept != self.announced[seat][0]:  # (often the card drawn goes: the same hand)
            self.announced[seat] = (kept, _announced(marks, kept, counts, jokers))
        return self.discards[seat][card]

    def _counts(self, seat: int, hand: tuple[int, ...]) -> tuple[list[int], int]:
        """The key counts and jokers of ``hand``, the hand of ``seat`` (as _count_keys):
        the last ones worked out for the seat when it holds the same hand, or that hand with a
        card drawn at its end; counted afresh only when the hand changed otherwise (an action
        or a new manche)."""
        old, counts, jokers = self.counted[seat]
        if hand != old:
            if hand[:-1] == old:  # the seat's own counts, updated in place (no list copied)
                jokers = _counted_more(counts, hand[-1], self.marks)
            else:
                counts, jokers = _count_keys(hand, self.marks)
            self.counted[seat] = (hand, counts, jokers)
        return counts, jokers

    def _announcement(self, seat: int) -> tuple[bool, str | None]:
        """Whether the hand of ``seat`` makes the Élysée, and the best other announcement it
        makes: the answer worked out at the seat's last discard while the hand is the same
        (:meth:`_turn_end`), else worked out now."""
        hand = self.table.hands[seat]
        looked_at, known = self.announced[seat]
        if hand != looked_at:
            known = _announced(self.marks, hand, *self._counts(seat, hand))
            self.announced[seat] = (hand, known)
        return known


@lru_cache(maxsize=8)
def _deal_order(marks: _Marks, in_play: tuple[str, ...]) -> tuple[list[int], tuple[int, ...]]:
    """What a deal sorts: the rank of each card's id, in play order, with random keys (ties
    by id, as :func:`shuffled`); and the card numbers by rank, which an itemgetter picks in
    one call (worked out once per deck and level: the ranks cost more than a few deals)."""
    by_id = sorted(in_play)
    rank = {card: at for at, card in enumerate(by_id)}
    return [rank[card] for card in in_play], tuple(marks.number_of[card] for card in by_id)


def _kill(game: Game, marks: _Marks, rng: random.Random) -> Kill:
    table = game.table
    category = marks.category
    cards = [card for card in table.hands[table.current] if category[card] != "AT"]
    return Kill(table.previous_seat(table.current), rng.choice(cards))


def _announced(marks: _Marks, hand: tuple[int, ...], counts: list[int],
               jokers: int) -> tuple[bool, str | None]:
    """Whether the hand makes the Élysée, and the best other announcement it makes; most
    hands make nothing, and :func:`_near` says so from the hand's key ``counts``."""
    near_elysee, near_other = _near(hand, marks, counts, jokers)
    if not (near_elysee or near_other):
        return False, None
    cards = [marks.cards[card] for card in hand]
    best = best_claim(cards) if near_other else None
    elysee = near_elysee and made("complot_elysee", cards) is not None
    return elysee, None if best is None else best[0]


def _may_announce(hand: Sequence[int], marks: _Marks) -> bool:
    """False when the six cards can make no announcement: a quick necessary test, not the
    rules (C31–C40 stay in :mod:`.combos`); see :func:`_near`.

    >>> marks = _marks(default_deck())
    >>> _may_announce(marks.numbers("leonard:emma", "duron:david", "empires:noe",
    ...                             "leonard:sally", "espions:karl", "alphas:naomie"), marks)
    False
    >>> _may_announce(marks.numbers("leonard:emma", "duron:emma", "archange:igor",
    ...                             "leonard:sally", "leonard:sarah", "alphas:sally"), marks)
    True
    """
    return any(_near(hand, marks, *_count_keys(hand, marks)))


#: The first keys of every _Marks, by their index: what _near counts (Noé is one of the
#: Élysée's five names).
_FIRST_KEYS = ("JO", "PO", "AL", "-", *(f"/{name}" for name in ELYSEE_NAMES))
_JO, _PO, _AL, _VILLAIN = range(4)
_ELYSEE = slice(4, len(_FIRST_KEYS))
_NOE = _FIRST_KEYS.index("/NO")


def _near(hand: Sequence[int], marks: _Marks, counts: list[int],
          jokers: int) -> tuple[bool, bool]:
    """Whether the six cards may make the Élysée, and any other announcement: quick necessary
    tests. The Élysée needs three Noé, or the five names present, with the jokers (C40);
    three Journalistes or Pompiers, five Alphas need their count plus the jokers (C32, C31);
    two trios and the sixes need no méchant (C20) and each card sharing its category or first
    name with enough cards and jokers to make a trio (C21–C25), or with two jokers or three,
    enough real cards linked (:func:`_linked`). ``counts`` and ``jokers`` are the hand's, as
    :func:`_count_keys` counts them."""
    near_elysee = (counts[_NOE] + jokers >= 3
                   or len(ELYSEE_NAMES) - counts[_ELYSEE].count(0) + jokers >= 5)
    if (counts[_JO] + jokers >= 3 or counts[_PO] + jokers >= 3
            or counts[_AL] + jokers >= 5):
        return near_elysee, True
    if counts[_VILLAIN]:
        return near_elysee, False
    pairs = marks.pairs  # (a joker's pair reads 50: it never fails the tests)
    if jokers > 1:  # each card passes the test below: the real cards' links say more
        return near_elysee, jokers > 3 or _linked(hand, pairs, counts) >= 5
    need = 3 - jokers
    for card in hand:
        first, second = pairs[card]
        if counts[first] < need and counts[second] < need:
            return near_elysee, False
    return near_elysee, True


def _linked(hand: Sequence[int], pairs: tuple[tuple[int, int], ...], counts: list[int]) -> int:
    """How many of the cards share their category or first name with another card, a joker
    counted as linked (its pair reads 50). In two trios or a six, a trio's real cards share
    a key (C21–C24), so a hand with two jokers has at least three real cards linked (a trio
    of real cards, or two pairs) and one with three jokers two (a pair): five in all with
    the jokers.

    >>> marks = _marks(default_deck())
    >>> hand = marks.numbers("archange:igor", "archange:gabrielle", "alphas:karl",
    ...                      "duron:emma", "espions:max", "espions:henri")
    >>> _linked(hand, marks.pairs, _count_keys(hand, marks)[0])  # two jokers, one pair
    4
    """
    linked = 0
    for card in hand:
        first, second = pairs[card]
        if counts[first] > 1 or counts[second] > 1:
            linked += 1
    return linked


def _count_keys(hand: Sequence[int], marks: _Marks) -> tuple[list[int], int]:
    """How many of the cards have each key (by its index in ``marks``), and the jokers."""
    counted_at = marks.counted_at
    counts = marks.blank.copy()
    for card in hand:  # two slots a card, whatever it is: no test in the loop
        first, second = counted_at[card]
        counts[first] += 1
        counts[second] += 1
    return counts, counts[marks.jokers]


def _counted_more(counts: list[int], card: int, marks: _Marks) -> int:
    """``counts`` (a hand's, :func:`_count_keys`) with ``card`` more, changed in place: the
    hand's jokers are returned. In place: a turn's two copies of a list of every key count
    cost 1.2 M instructions a game (docs/benchmarks.md, "sixth round")."""
    first, second = marks.counted_at[card]
    counts[first] += 1
    counts[second] += 1
    return counts[marks.jokers]


def _counted_less(counts: list[int], card: int, marks: _Marks) -> int:
    """``counts`` with ``card`` less, changed in place; the hand's jokers are returned."""
    first, second = marks.counted_at[card]
    counts[first] -= 1
    counts[second] -= 1
    return counts[marks.jokers]


@dataclass(frozen=True, slots=True, eq=False)
class _Marks:
    """The deck as the simulated players count it, by card number (``Game.card_ids``):
    each card's keys (its category and its first name ``/NO``; ``-`` for a méchant; None for
    a joker) as small ints, which count in a list faster than strings in a dict; and each
    card's category."""

    cards: tuple[Card, ...]
    keys_of: tuple[tuple[int, ...] | None, ...]
    category: tuple[str, ...]
    size: int
    number_of: dict[str, int]
    villain: tuple[int, ...]  # the keys of every méchant: one tuple, told by ``is``
    #: The counts of an empty hand: 0 for every key, then three constants that
    #: :func:`_worst_card` reads through ``pairs``: 50 (twice: a joker, kept), -1 and 0 (a
    #: méchant, thrown first); then the jokers' count and the spare one (``counted_at``).
    blank: list[int]
    #: Per card, the two counts whose sum says how well it goes with the hand: its category
    #: and first name's, or the constants of ``blank`` for a joker and a méchant.
    pairs: tuple[tuple[int, int], ...]
    #: Per card, the two counts it adds one to: its keys; a méchant's ``-`` and its
    #: category (which says what actions a hand may launch), a joker's count and a spare
    #: count that nothing reads (see _count_keys).
    counted_at: tuple[tuple[int, int], ...]
    jokers: int  # where the jokers are counted
    #: The action cards' needs (:data:`~.judge.ACTIONS`) with their category's count:
    #: (action, count index, cards needed, targets needed), in ACTIONS' order.
    actions: tuple[tuple[str, int, int, int], ...]

    def numbers(self, *card_ids: str) -> tuple[int, ...]:
        """The cards' numbers, by id."""
        return tuple(self.number_of[card_id] for card_id in card_ids)


@lru_cache(maxsize=8)
def _marks(deck: Deck) -> _Marks:
    names = [None if card.is_joker else ("-", card.category) if not card.is_character
             else (card.category, f"/{card.name}") for card in deck]
    keys = [*_FIRST_KEYS]
    keys += sorted({key for marks in names if marks for key in marks} - set(keys))
    at = {key: index for index, key in enumerate(keys)}
    # One tuple object for every méchant (``_Marks.villain`` is told by identity); typed as
    # variable-length so that a compiled build keeps it boxed, not rebuilt at each use.
    villain: tuple[int, ...] = (at["-"],)
    keys_of = tuple(None if marks is None else villain if marks[0] == "-"
                    else tuple(at[key] for key in marks) for marks in names)
    joker, spoilt, none = len(keys), len(keys) + 1, len(keys) + 2
    pairs = tuple((joker, joker) if marks is None else (spoilt, none) if marks is villain
                  else (marks[0], marks[1]) for marks in keys_of)
    jokers, spare = len(keys) + 3, len(keys) + 4
    counted_at = tuple((jokers, spare) if marks is None else (at[marks[0]], at[marks[1]])
                       for marks in names)
    actions = tuple((kind, at[category], count, targets)
                    for kind, (category, count, targets) in ACTIONS.items() if category in at)
    return _Marks(deck.cards, keys_of, tuple(card.category for card in deck), len(keys),
                  {card_id: number for number, card_id in enumerate(deck.ids())}, villain,
                  [0] * len(keys) + [50, -1, 0, 0, 0], pairs, counted_at, jokers, actions)


def _gain(card: int, counts: list[int], marks: _Marks) -> int:
    """How much ``card`` adds to how well a hand's cards go together, where that is the sum
    of the squares of the counts of each category and each first name among the characters,
    and 6 for each joker: a character adds ``2n + 1`` for each count ``n`` it raises.
    ``counts``: the hand's key counts (:func:`_count_keys`).

    >>> marks = _marks(default_deck())
    >>> hand = marks.numbers("leonard:sally", "espions:emma", "empires:noe")
    >>> _gain(*marks.numbers("leonard:emma"), _count_keys(hand, marks)[0], marks)
    6
    """
    keys = marks.keys_of[card]
    if keys is None:
        return 6
    if keys is marks.villain:
        return 0
    return 2 * (counts[keys[0]] + counts[keys[1]]) + 2


def _worst_card(marks: _Marks, hand: Sequence[int], rng: random.Random,
                counts: list[int] | None = None) -> int:
    """The least connected card (fewest others of its category or first name), a méchant
    first; jokers are kept. Ties are broken at random. ``counts``: the hand's key counts, when
    known (else counted here)."""
    if counts is None:
        counts, _ = _count_keys(hand, marks)
    pairs = marks.pairs  # a card's links: 100 for a joker, -1 for a méchant (_Marks.blank)
    fewest, worst = 1000, [hand[0]]
    for card in hand:
        key, name = pairs[card]
        links = counts[key] + counts[name]
        if links < fewest:
            fewest, worst = links, [card]
        elif links == fewest:
            worst.append(card)
    return worst[0] if len(worst) == 1 else rng.choice(worst)


#: The most targets an action needs (a violet spy's two, C85).
_MOST_TARGETS = max(targets for _, _, targets in ACTIONS.values())


def _action(game: Game, marks: _Marks, seat: int, rng: random.Random,
            counts: list[int]) -> CardAction | None:
    """A random action the hand allows, with random blind takes and a sensible discard;
    ``counts``: the hand's key counts (:func:`_count_keys`), which say what it allows."""
    kinds = [kind for kind, key, count, _ in marks.actions if counts[key] >= count]
    if not kinds:  # most hands hold no action card
        return None
    table = game.table
    opponents = [other for other in table.still_in() if other != seat]
    if len(opponents) < _MOST_TARGETS:  # one opponent left: no violet spy (C85)
        kinds = [kind for kind in kinds if ACTIONS[kind][2] <= len(opponents)]
        if not kinds:
            return None
    kind = rng.choice(kinds)
    category, count, target_count = ACTIONS[kind]
    hand = table.hands[seat]
    category_of = marks.category
    used = _sample([card for card in hand if category_of[card] == category], count, rng)
    targets = _sample(opponents, target_count, rng)
    sources = targets if kind == "double_hameconnage" else [targets[0]]
    take: list[int] = []
    for source in sources:
        take += _sample(table.hands[source], TAKEN[kind] // len(sources), rng)
    defence = _defence(game, marks, kind, used, targets[0])
    if defence is not None:
        return CardAction(kind, seat, tuple(used), tuple(targets), tuple(take), (), defence)
    kept = [card for card in hand if card not in used] + ([] if kind == "bombe" else take)
    discard = []
    for _ in range(DISCARDED[kind]):
        worst = _worst_card(marks, kept, rng)
        kept.remove(worst)
        discard.append(worst)
    return CardAction(kind, seat, tuple(used), tuple(targets), tuple(take), tuple(discard))


def _sample(population: Sequence[int], count: int, rng: random.Random) -> list[int]:
    """``rng.sample(population, count)`` for the few cards or seats of an action, the same
    items from the same random numbers: one item is ``rng.choice``, which draws the same
    index as ``sample``, without ``sample``'s checks and set-up (an action card's three
    samples cost more than the rest of its choice).

    >>> rng = random.Random(5)
    >>> state = rng.getstate()
    >>> mine = [_sample([4, 5, 6, 7], count, rng) for count in (1, 3, 1)]
    >>> rng.setstate(state)
    >>> mine == [rng.sample([4, 5, 6, 7], count) for count in (1, 3, 1)]
    True
    """
    if count == 1:
        return [rng.choice(population)]
    return rng.sample(population, count)


def _defence(game: Game, marks: _Marks, kind: str, used: list[int], target: int) -> int | None:
    """The target's first État-Major card that stops the action (targets always defend),
    asked of the rules of C65–C67 directly: the rest of the action is the attacker's own,
    chosen from what the hand allows."""
    if kind not in LEVEL_2_ACTIONS:
        return None
    ids, category_of = game.card_ids, marks.category
    used_ids = [ids[card] for card in used]
    for card in game.table.hands[target]:
        # only an État-Major card defends (C65)
        if category_of[card] == "EM" and defence_problem(kind, used_ids, ids[card],
                                                          game.deck) is None:
            return card
    return None
