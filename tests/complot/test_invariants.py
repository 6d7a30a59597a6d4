"""The simulation's invariant checks (issue 21 §4; companion/complot/invariants.py) catch what
the whole-table check catches: the referee is broken on purpose, one way per test, and each
break must be caught **at the push that made it** — the cheap per-push check never later than
the whole check (C1, C5a, C14, C17, C52, C53)."""

from __future__ import annotations

import random

import pytest

from companion.complot import native, simulate
from companion.complot.engine import Game
from companion.complot.invariants import Invariants, invariant_problem
from companion.complot.state import replaced
from companion.complot.tablelog import game_from_header

# The suite runs the pure modules (tests/conftest.py); `NOAH_COMPLOT_PURE= pytest tests/complot`
# runs the compiled build, whose classes' methods cannot be replaced.
pytestmark = pytest.mark.skipif(native.kind() == "compiled",
                                reason="breaks the referee by replacing Game's methods")


class WholeTable:
    """The whole-table check (simulate's check before issue 21's cheaper one), in the place
    of :class:`Invariants`: the reference each break is compared with."""

    def __init__(self, game: Game, earned: list[int]) -> None:
        self.game, self.earned = game, earned

    def problem(self) -> str | None:
        return invariant_problem(self.game, self.earned)


class Fault:
    """Wraps ``Game.<method>``: its ``at``-th call is followed by ``breaking(game, state,
    *args)``; remembers which push it broke (a push is kept on the undo stack after it
    applied, so the push under way is the stack's length)."""

    def __init__(self, method: str, at: int, breaking) -> None:
        self.method, self.at, self.breaking = method, at, breaking
        self.calls, self.push = 0, None

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = getattr(Game, self.method)

        def wrapper(game, state, *args):
            result = original(game, state, *args)
            self.calls += 1
            if self.calls == self.at:
                self.push = len(game._undo)
                self.breaking(game, state, *args)
            return result

        monkeypatch.setattr(Game, self.method, wrapper)


def caught_at(monkeypatch, fault: Fault, checker=None, **options) -> tuple[int | None, str]:
    """Play a seeded game with ``fault`` in the referee and ``checker`` (default: the
    per-push checks) in simulate's loop: the push the check stopped after (None: the game
    went to its end), and its words."""
    fault.install(monkeypatch)
    if checker is not None:
        monkeypatch.setattr(simulate, "Invariants", checker)
    settings = {"seed": "broken", "players": 4, "level": 3, "target": 60} | options
    report = simulate.play_game(**settings)
    assert fault.push is not None, "the fault never fired"
    if report.problem is None:
        return None, ""
    return len(report.game._undo) - 1, report.problem


def duplicate_drawn_card(game, s, seat, source):
    s.pioche += (s.hands[seat][-1],)  # the card drawn is still on the «pioche» too


def lose_discarded_card(game, s, seat, card):
    s.defausse = s.defausse[:-1]  # the card discarded is nowhere


def swap_drawn_card(game, s, seat, source):
    s.hands = replaced(s.hands, seat, (*s.hands[seat][:-1], s.pioche[0]))  # not the top


def discard_kept_another_taken(game, s, seat, card):
    hand = s.hands[seat]  # the card discarded is still in the hand, its first card gone
    s.hands = replaced(s.hands, seat, (*hand[1:], card))


def neighbour_loses_a_card_at_a_discard(game, s, seat, card):
    other = next(other for other, hand in enumerate(s.hands) if hand and other != seat)
    s.hands = replaced(s.hands, other, s.hands[other][1:])


def lose_a_killed_card(game, s, card, events):
    s.defausse = s.defausse[1:]  # the bottom of the «défausse» dropped with the kill


def lose_a_dealt_card(game, s, order):
    s.pioche = s.pioche[1:]


def points_at_a_discard(game, s, seat, card):
    s.manche_points = replaced(s.manche_points, seat, s.manche_points[seat] + 10)


def points_at_the_manche_end(game, s, reason):
    s.scores = replaced(s.scores, 0, s.scores[0] + 10)


def claim_points_dropped(game, s, reason):
    s.scores = tuple(total - won for total, won in zip(s.scores, s.manche_points, strict=True))


def two_cards_discarded(game, s, seat, card):
    other = s.hands[seat][0]
    s.hands = replaced(s.hands, seat, s.hands[seat][1:])
    s.defausse += (other,)  # every card accounted for, the hand one short


def hand_short_after_a_claim(game, s, seat, word, verdict):
    other = s.hands[s.current][0]
    s.take(s.current, other)
    s.discard(other)  # every card accounted for, a hand one short


BREAKS = {
    "C17 a card drawn duplicated": ("_drawn", 5, duplicate_drawn_card, "extra or twice"),
    "C17 a card discarded lost": ("_discarded", 3, lose_discarded_card, "cards lost"),
    "C17 a card swapped for another during a draw": ("_drawn", 7, swap_drawn_card, "twice"),
    "C17 a discard that takes another card out of the hand": ("_discarded", 8,
                                                              discard_kept_another_taken,
                                                              "twice"),
    "C17 a card of another hand lost at a discard": ("_discarded", 9,
                                                     neighbour_loses_a_card_at_a_discard,
                                                     "cards lost"),
    "C82 a card lost in a kill": ("_killed", 1, lose_a_killed_card, "cards lost"),
    "C11 a card lost in the second deal": ("_start_manche", 2, lose_a_dealt_card, "lost"),
    "C52 manche points not from a claim": ("_discarded", 4, points_at_a_discard, "points"),
    "C53 score added at the manche's end": ("_end_manche", 1, points_at_the_manche_end,
                                            "scores"),
    "C53 a claim's points left out": ("_end_manche", 2, claim_points_dropped, "scores"),
    "C14 a hand one short after a discard": ("_discarded", 6, two_cards_discarded, "C14"),
    "C14 a hand one short after a claim": ("_accept_claim", 1, hand_short_after_a_claim,
                                           "C14"),
}


@pytest.mark.parametrize("name", BREAKS)
def test_each_break_is_caught_at_the_push_that_made_it(monkeypatch, name):
    method, at, breaking, words = BREAKS[name]
    fault = Fault(method, at, breaking)
    push, problem = caught_at(monkeypatch, fault)
    assert push == fault.push and words in problem


@pytest.mark.parametrize("name", BREAKS)
def test_the_whole_check_catches_no_break_sooner(monkeypatch, name):
    """The reference: the whole-table check stops at the same push; manche points given
    mid-manche it reads only in the totals at the manche's end, and in this game not at all
    (the seat's claim later replaced them: C52's points are the claim's)."""
    method, at, breaking, _ = BREAKS[name]
    fault = Fault(method, at, breaking)
    push, _ = caught_at(monkeypatch, fault, checker=WholeTable)
    assert push == (None if name.startswith("C52") else fault.push)


def test_a_break_in_the_judged_path_is_caught_too(monkeypatch):
    """A narrated game pushes table-log lines through ``push(dict)``: the same checks."""
    fault = Fault("_drawn", 4, swap_drawn_card)
    push, problem = caught_at(monkeypatch, fault, narrate_in="en", players=3)
    assert push == fault.push and "twice" in problem


def corruptions(s, rng: random.Random):
    """Ways to put the table wrong between two pushes (each keeps the piles tuples)."""
    seats = [seat for seat, hand in enumerate(s.hands) if hand]
    seat = rng.choice(seats)
    hand = s.hands[seat]
    some = rng.choice(s.pioche or s.defausse)
    return [
        ("duplicate", lambda: setattr(s, "hands", replaced(s.hands, seat, (*hand, some)))),
        ("lose", lambda: setattr(s, "hands", replaced(s.hands, seat, hand[1:]))),
        ("replace", lambda: setattr(s, "hands",
                                    replaced(s.hands, seat, (*hand[:-1], some)))),
        ("lose from the pile", lambda: setattr(s, "defausse", s.defausse[1:])),
    ]


@pytest.mark.parametrize("seed", ["c1", "c2"])
def test_c17_both_checks_agree_on_random_corruptions(seed):
    """Seeded games stopped at random pushes, the table put wrong: the per-push check and
    the whole check both see it; on the pushes before, neither saw anything."""
    rng = random.Random(seed)
    played = simulate.play_game(seed, 4, 3, check=False, target=60).game
    actions = played.history
    for _ in range(6):
        game = game_from_header(played.header())
        earned = [0] * 4
        checks = Invariants(game, earned)
        stop = rng.randrange(1, len(actions) - 1)
        for action in actions[:stop]:
            verdict = game.push(action)
            if verdict.accepted and action["type"] == "claim":
                earned[action["player"]] += verdict.points
            assert checks.problem() is None
        if game.phase != "turn":
            continue
        name, corrupt = rng.choice(corruptions(game.table, rng))
        corrupt()
        assert checks.problem() is not None, name
        assert game.missing_cards() is not None, name


def test_a_push_that_moves_no_card_with_the_pioche_empty():
    """C16: the «pioche» can be empty between a draw and the next; a push that then moves
    no card (a wrong claim) is no draw and no discard, and nothing is wrong."""
    game = game_from_header(simulate.play_game("e", 2, 1, check=False, target=60)
                            .game.header())
    checks = Invariants(game, [0, 0])
    game.push({"type": "deal", "order": list(game.in_play)})
    assert checks.problem() is None
    table = game.table
    table.pioche, table.defausse = (), table.pioche + table.defausse  # the same cards
    assert checks.problem() is None
    assert checks.problem() is None  # nothing moved
    table.defausse = table.defausse[:-1]
    assert "cards lost" in checks.problem()
