"""What the table has half entered: not yet an action of the record.

A round's setup while its five starting animals are scanned, a card waiting for its snail side or
frog weight, a choice between several cards in view, the hands being scanned at round end, and
whether the giraffe's look was declined. All of it lives in one :class:`Drafts` value that the
session drops after every accepted action (and on ``cancel``), so after an undo or a resume the
right prompt comes back from the engine's state alone.

>>> drafts = Drafts()
>>> drafts.setup.next_ferry
0
>>> drafts.setup.ferries[0] = "bear:M#1"
>>> drafts.setup.next_ferry
1
>>> drafts.drop_half_entered(in_setup=True), drafts.setup.next_ferry
(True, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from companion.game import Game
from companion.game.actions import Play, StartRound
from companion.game.deck import HAND_SIZE, format_ref, parse_ref
from companion.game.sizes import FERRY_COUNT
from companion.session.notices import said
from companion.session.view import Phrase


@dataclass
class SetupDraft:
    """A round's setup while it is being scanned: Noah's ferry, the starting animals, and (round
    1 only) the starting player."""

    noah: int | None = None
    ferries: list[str | None] = field(default_factory=lambda: [None] * FERRY_COUNT)
    starter: int | None = None

    @property
    def next_ferry(self) -> int | None:
        """The first ferry still without its starting animal (None when all five are down)."""
        return next((k for k, ref in enumerate(self.ferries) if ref is None), None)

    def start_round(self, players: int, *, first_round: bool) -> StartRound | None:
        """The round's ``start_round`` action once everything is down (each hand dealt
        :data:`HAND_SIZE` cards); None while something is still missing."""
        if self.noah is None or self.next_ferry is not None \
                or (first_round and self.starter is None):
            return None
        return StartRound(noah=self.noah, ferries=tuple(ref for ref in self.ferries if ref),
                          hand_counts=(HAND_SIZE,) * players,
                          starter=self.starter if first_round else None)


@dataclass(frozen=True)
class PendingPlay:
    """A card shown that still needs an answer: the snail's side or the frog's weight.

    ``choices`` are the answers the rules accept, judged once when the card was shown (the
    game cannot change while a card waits: any accepted action drops the draft): the legal
    sides (``"M"``, ``"F"``) for a snail, the weights (1 = no declaration, 2-5) for a frog.
    """

    card: str
    choices: tuple[str, ...] | tuple[int, ...] = ()

    @property
    def species(self) -> str:
        return parse_ref(self.card).species

    @classmethod
    def judged(cls, game: Game, play: Play) -> PendingPlay | None:
        """The question a played snail or frog raises, with the answers the rules accept now:
        a snail always asks its side (both sides when neither is legal: the engine explains
        the refusal); a frog asks its weight only when declaring one is legal (R43)."""
        species = parse_ref(play.card).species
        if species == "snail":
            sides = tuple(side for side in ("M", "F")
                          if game.check(replace(play, as_gender=side)).accepted)
            return cls(play.card, sides or ("M", "F"))
        if species == "frog":
            weights = (1, *(weight for weight in range(2, 6)
                            if game.check(replace(play, frog_weight=weight)).accepted))
            return cls(play.card, weights) if len(weights) > 1 else None
        return None


@dataclass
class Drafts:
    """Everything half entered at a table, in one place."""

    setup: SetupDraft = field(default_factory=SetupDraft)
    pending: PendingPlay | None = None
    candidates: tuple[str, ...] = ()  # several cards in view: which one is meant?
    hands: list[list[str]] = field(default_factory=list)  # round-end scan, per seat
    giraffe_looked: bool = False  # the giraffe's optional look is done or declined

    def drop_half_entered(self, *, in_setup: bool) -> bool:
        """Drop the innermost half-entered thing (a waiting card or card choice, else the hand
        scan, else the setup scan); returns whether there was one."""
        if self.pending or self.candidates:
            self.pending, self.candidates = None, ()
        elif self.hands:
            self.hands = []
        elif in_setup and self.setup != SetupDraft():
            self.setup = SetupDraft()
        else:
            return False
        return True

    def last_laid(self) -> str | None:
        """The starting animal on the highest ferry so far (what ``undo`` at setup takes off),
        unless a card still waits for an answer or a choice."""
        laid = [ref for ref in self.setup.ferries if ref]
        return laid[-1] if laid and not (self.pending or self.candidates) else None

    def placed_at_setup(self, ref: str) -> tuple[int, str] | None:
        """The ferry and card already laid at setup that is this physical card, if any."""
        return next(((k, placed) for k, placed in enumerate(self.setup.ferries)
                     if placed is not None and same_copy(placed, ref)), None)

    def scan_card(self, ref: str, counts: Sequence[int]) -> int:
        """Put ``ref`` in the hand being scanned; returns that hand's seat."""
        if not self.hands:
            self.hands = [[] for _ in counts]
        seat = self.scan_seat(counts)
        assert seat is not None, "the scan is submitted as soon as every hand is complete"
        self.hands[seat].append(ref)
        return seat

    def scan_seat(self, counts: Sequence[int]) -> int | None:
        """The first seat whose hand is not completely scanned yet (None when all are).

        >>> Drafts(hands=[["cat:F#1"], []]).scan_seat([1, 2])
        1
        """
        scanned = self.hands or [[] for _ in counts]
        return next((seat for seat, count in enumerate(counts) if len(scanned[seat]) < count),
                    None)


def several_cards(cards: Iterable[str | None]) -> tuple[str, ...]:
    """The cards to choose between when several of this deck's cards are in view at once (the
    camera cannot tell which one is meant), in the order seen; ``()`` when at most one is.
    ``cards`` are the card ids of the codes in view (``None``: not one of this deck's).

    >>> several_cards(["cat:F#1", None, "cat:F#1"]), several_cards(["cat:F#1", "bear:M#2"])
    ((), ('cat:F#1', 'bear:M#2'))
    """
    distinct = tuple(dict.fromkeys(card for card in cards if card is not None))
    return distinct if len(distinct) > 1 else ()


def same_copy(a: str, b: str) -> bool:
    """Whether two references name the same physical card (a snail's side aside).

    >>> same_copy("snail:M#3", "snail#3"), same_copy("cat:F#1", "cat:F#2")
    (True, False)
    """
    ra, rb = parse_ref(a), parse_ref(b)
    if ra.species == "snail":
        return rb.species == "snail" and ra.copy == rb.copy
    return ra == rb


def with_side(ref: str, side: str) -> str:
    """The snail ``ref`` with ``side`` up.

    >>> with_side("snail#3", "F")
    'snail:F#3'
    """
    species, _, copy = parse_ref(ref)
    return format_ref(species, side, copy)


def not_in_a_hand(game: Game, ref: str) -> tuple[Phrase] | None:
    """Why a card scanned at round end cannot be in anyone's hand (not in this game, on a
    ferry, or gone on a ferry this round, R37), as a phrase; None if it can."""
    if game.cards_in_play.get(ref) is None:
        return said("not_in_game", card=ref)
    for k, ferry in enumerate(game.ferries):
        if any(same_copy(placed, ref) for placed in ferry or ()):
            return said("on_ferry_not_hand", card=ref, ferry=k + 1)
    if any(same_copy(gone, ref) for gone in game.departed_cards):
        return said("departed_not_hand", card=ref)
    return None
