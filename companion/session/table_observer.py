"""Refereeing from the table: what the overhead camera saw, compared with the record.

The table view (docs/table-view.md) reads the five ferry mats and Noah's marker
(:class:`vision.table.TableReading`). This module turns *stable* readings into the intents a
person would otherwise make, and checks the table against the record all game long:

* :func:`infer` — one step of the game seen on the table: a new top card on Noah's ferry is the
  play (the same intent as a card shown to the hand camera, ``choose_card``); Noah's marker at
  a new ferry is his move; Noah's ferry emptied is the take-back (R25); at a round's setup the
  starting animal on the ferry awaited and Noah's marker where the table put him; at round end
  the hand of the player whose scan is awaited, laid face up beside the ferries (below, "The
  round-end hand scan").
* :func:`audit` — every difference between the table and the record as one sentence naming
  what to put where (:class:`Finding`), with the ferry whose light flashes.

No game rules here: the engine judges every inferred action through the session's intents and
only what it accepts is written. The audit never changes the record.

The round-end hand scan. The camera cannot tell whose hand a card laid on the table is, so the
hands are read one at a time, in the session's order (``Drafts.scan_seat``): the screen says
"Ben: lay your 5 cards face up beside the ferries"; when a still table shows exactly as many
cards beside the mats (never a ferry's card: :attr:`vision.table.TableReading.loose`) as Ben
still has to scan, not counting the cards already in the scan (earlier hands may stay on the
table), those cards are Ben's hand, each sent through the session's usual hand-scan intent
(``choose_card``: the same checks, notices and record). More of them than Ben holds, or one that
cannot be in a hand (``drafts.not_in_a_hand``: not in this game, on a ferry, departed), gives one
sentence saying what to take away, and nothing is scanned. Fewer: the table waits.

Ferries are positions 0-4 here (the record's); sentences say 1-5.

>>> record = RecordTable(step="play_card", noah=1, ferries=((), ("cat:F#1",), (), (), ()),
...                      player="Ana")
>>> sight = TableSight(noah=1, tops=(None, "lion:M#2", None, None, None),
...                    empty=(True, False, True, True, True))
>>> infer(record, sight)
PlaySeen(ferry=1, card='lion:M#2')
>>> audit(record, TableSight(noah=1, tops=(None, "cat:F#1", None, None, "bear:M#1"),
...                          empty=(True, False, True, True, False)))[0].text
"Ferry 5 should be empty; it shows the ♂ bear: put the ♂ bear back in Ana's hand."
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from companion.game.deck import format_ref, parse_ref
from companion.game.sizes import FERRY_COUNT
from companion.game.state import IN_ROUND_PHASES
from companion.i18n import english
from companion.session.drafts import not_in_a_hand, several_cards
from companion.session.intents import Outcome
from companion.session.notices import said
from companion.session.steps import Step
from companion.session.view import Phrase, SessionView

if TYPE_CHECKING:
    import numpy as np

    from companion.game import Game
    from vision.table import TableReading
    from vision.table_capture import TableFrame
    from vision.table_exposure import ShortLook

POSITIONS = range(FERRY_COUNT)
#: The steps in which the table holds exactly what the record says (no card half-entered).
AUDITED_STEPS: tuple[Step, ...] = ("play_card", "move_noah", "choose_target", "give_cards")


def physical(ref: str) -> str:
    """The card a sticker names, whatever side a snail shows (``snail:F#3`` → ``snail#3``).

    >>> physical("snail:F#3"), physical("cat:F#2")
    ('snail#3', 'cat:F#2')
    """
    species, _, copy = parse_ref(ref)
    return format_ref(species, None, copy) if species == "snail" else ref


class Reader(Protocol):
    """What the observer needs of a table reader (:class:`vision.table.TableReader`)."""

    def read(self, frame: np.ndarray, *, loose: bool = False) -> TableReading: ...


class ObservedSession(Protocol):
    """What the observer needs of the session (:class:`~companion.session.Session`): its view,
    its game (read to check a hand's cards) and the intents a table can show."""

    @property
    def view(self) -> SessionView: ...

    @property
    def game(self) -> Game | None: ...

    def choose_card(self, ref: str) -> Outcome: ...

    def move_noah(self, ferry: int) -> Outcome: ...

    def take_back(self) -> Outcome: ...

    def choose_noah_start(self, ferry: int) -> Outcome: ...


class HandCameraSession(ObservedSession, Protocol):
    """The session as the hand camera's callback needs it (``view = both``)."""

    def on_vision_event(self, event: object) -> None: ...


# -- the record and the table, as the observer compares them ------------------------------------

@dataclass(frozen=True)
class RecordTable:
    """What the record says should be on the table: the step awaited (a prompt kind), Noah's
    position, each ferry's cards bottom first (physical ids; ``None`` once gone), who acts,
    the departed animals of this round, and at setup the ferry whose animal is awaited."""

    step: Step
    noah: int | None
    ferries: tuple[tuple[str, ...] | None, ...]
    player: str | None = None
    departed: tuple[str, ...] = ()
    setup_ferry: int | None = None
    seat: int | None = None
    """Who acts (at round end: whose hand is awaited)."""
    hand_missing: int = 0
    """Round end: how many cards of ``seat``'s hand are still to be scanned."""
    hand_known: frozenset[str] = frozenset()
    """Round end: the cards already in the hand scan (this hand's and earlier ones')."""

    @classmethod
    def from_view(cls, view: SessionView) -> RecordTable:
        """The record's table from a session's :class:`~companion.session.view.SessionView`."""
        state: Mapping[str, Any] = view.state or {}
        ferries = tuple(None if f is None else tuple(physical(r) for r in f)
                        for f in state.get("ferries") or (None,) * 5)
        prompt = view.prompt
        seat = prompt.player
        player = view.players[seat] if seat is not None and seat < len(view.players) else None
        scanned = tuple(physical(r) for r in getattr(prompt, "scanned", ())) \
            if prompt.kind == "scan_hand" else ()
        return cls(step=prompt.kind, noah=state.get("noah"), ferries=ferries,
                   player=player,
                   departed=tuple(physical(r) for r in state.get("departed_cards") or ()),
                   setup_ferry=getattr(prompt, "ferry", None)
                   if prompt.kind == "scan_setup_card" else None,
                   seat=seat,
                   hand_missing=max(0, getattr(prompt, "expected", 0) - len(scanned))
                   if prompt.kind == "scan_hand" else 0,
                   hand_known=frozenset(scanned))

    def top(self, ferry: int) -> str | None:
        cards = self.ferries[ferry]
        return cards[-1] if cards else None

    def ferry_holding(self, card: str) -> int | None:
        return next((k for k in POSITIONS if card in (self.ferries[k] or ())), None)


class CardBeside(NamedTuple):
    """A card of this deck lying face up beside the mats, and the position (0-4) of the mat
    nearest to it (to say where it lies)."""

    card: str
    near: int


@dataclass(frozen=True)
class TableSight:
    """A stable table as the camera saw it: Noah's position (``None``: not seen), each ferry's
    top card (a card id; ``None``: nothing read) and whether its card zone is seen empty (mat
    located, no code at all, a blank zone: an empty ferry, not one the camera cannot read);
    ``beside``: the cards laid face up beside the mats (``None``: not read)."""

    noah: int | None
    tops: tuple[str | None, ...]
    empty: tuple[bool, ...]
    beside: tuple[CardBeside, ...] | None = None


def sight_of(reading: TableReading, card_of: Callable[[str], str | None],
             blank: Callable[[int], bool] = lambda ferry: True) -> TableSight:
    """A :class:`TableSight` from a :class:`vision.table.TableReading` (ferries 1-5 there).

    ``card_of(text)`` is the card id of a sticker text of this deck (``None`` for anything
    else); ``blank(k)`` says whether position k's card zone looks like bare mat (no card, no
    hand) in the frame.
    """
    tops: list[str | None] = []
    empty: list[bool] = []
    for k in POSITIONS:
        view = reading.ferries[k + 1]
        top = card_of(view.top) if view.seen and view.top else None
        tops.append(physical(top) if top else None)
        empty.append(bool(view.seen and view.top is None and not view.codes and blank(k)))
    noah = reading.noah - 1 if reading.noah is not None else None
    beside = None
    if reading.loose is not None:
        cards = ((card_of(code.text), code.near - 1) for code in reading.loose)
        beside = tuple(CardBeside(physical(card), near) for card, near in cards if card)
    return TableSight(noah, tuple(tops), tuple(empty), beside)


# -- inference ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlaySeen:
    """A new top card on Noah's ferry: the play (``choose_card``)."""

    ferry: int
    card: str


@dataclass(frozen=True)
class NoahSeen:
    """Noah's marker at another ferry while he must move: his move (``move_noah``)."""

    ferry: int


@dataclass(frozen=True)
class TakeBackSeen:
    """Noah's ferry emptied on the player's turn: they cannot play and take it back (R25)."""

    ferry: int


@dataclass(frozen=True)
class SetupCardSeen:
    """Round setup: the starting animal on the ferry awaited."""

    ferry: int
    card: str


@dataclass(frozen=True)
class NoahStartSeen:
    """Round setup: Noah's marker beside the ferry where the table put him."""

    ferry: int


@dataclass(frozen=True)
class HandSeen:
    """Round end: the cards of ``seat``'s hand laid face up beside the mats, in card order
    (each one ``choose_card`` in the session's hand scan)."""

    seat: int
    cards: tuple[str, ...]


Inference = PlaySeen | NoahSeen | TakeBackSeen | SetupCardSeen | NoahStartSeen | HandSeen


def infer(record: RecordTable, sight: TableSight) -> Inference | None:
    """The one step of the game the table shows beyond the record, if any.

    >>> record = RecordTable(step="move_noah", noah=1, ferries=((),) * 5)
    >>> infer(record, TableSight(noah=3, tops=(None,) * 5, empty=(True,) * 5))
    NoahSeen(ferry=3)
    >>> infer(record, TableSight(noah=None, tops=(None,) * 5, empty=(True,) * 5)) is None
    True
    """
    step, noah = record.step, record.noah
    if step == "scan_hand":
        return _hand_seen(record, sight)
    if step == "choose_noah_start" and sight.noah is not None:
        return NoahStartSeen(sight.noah)
    if step == "scan_setup_card" and record.setup_ferry is not None:
        card = sight.tops[record.setup_ferry]
        return SetupCardSeen(record.setup_ferry, card) if card else None
    if step == "move_noah" and sight.noah is not None and sight.noah != noah:
        return NoahSeen(sight.noah)
    if step != "play_card" or noah is None or record.ferries[noah] is None:
        return None
    cards, top = record.ferries[noah] or (), sight.tops[noah]
    if cards and sight.empty[noah]:
        return TakeBackSeen(noah)
    if top is None or top == record.top(noah):
        return None
    if top in cards:  # an earlier card of this ferry on top: taken back, and that one replayed
        return TakeBackSeen(noah)
    if record.ferry_holding(top) is not None or top in record.departed:
        return None  # a card moved from elsewhere: the audit says where it belongs
    return PlaySeen(noah, top)


def new_beside(record: RecordTable, sight: TableSight) -> list[CardBeside]:
    """The cards beside the mats that are not yet in the hand scan (round end).

    >>> record = RecordTable(step="scan_hand", noah=None, ferries=((),) * 5, seat=1,
    ...                      hand_missing=1, hand_known=frozenset({"cat:F#1"}))
    >>> sight = TableSight(None, (None,) * 5, (True,) * 5,
    ...                    (CardBeside("cat:F#1", 0), CardBeside("bear:M#1", 3)))
    >>> new_beside(record, sight), infer(record, sight)
    ([CardBeside(card='bear:M#1', near=3)], HandSeen(seat=1, cards=('bear:M#1',)))
    """
    return [c for c in sight.beside or () if c.card not in record.hand_known]


def _hand_seen(record: RecordTable, sight: TableSight) -> HandSeen | None:
    """The awaited hand, when exactly its missing count of new cards lies beside the mats."""
    new = new_beside(record, sight)
    if record.seat is None or not record.hand_missing or len(new) != record.hand_missing:
        return None
    return HandSeen(record.seat, tuple(sorted(c.card for c in new)))


# -- the audit ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """One difference between the table and the record: the sentence (English), the same as
    data (catalog key ``audit.<name>``) and the position whose light flashes (``None``: no
    light, e.g. too many cards beside the ferries)."""

    ferry: int | None
    text: str
    phrase: Phrase


def audit(record: RecordTable, sight: TableSight) -> list[Finding]:
    """Every difference between a stable table and the record, one sentence each, ferry by
    ferry, then Noah. Nothing is said where the camera could not tell (no top card read on a
    zone that is not blank), nor outside the steps where the table must match the record.

    >>> record = RecordTable(step="play_card", noah=0, ferries=(("cat:F#1",), (), (), (), ()))
    >>> [f.text for f in audit(record, TableSight(2, ("cat:F#1",) + (None,) * 4, (False,)
    ...                                                + (True,) * 4))]
    ['Noah should be at ferry 1; he is at ferry 3: move him back to ferry 1.']
    """
    if record.step not in AUDITED_STEPS:
        return []
    findings = [f for k in POSITIONS if (f := _ferry_finding(record, sight, k)) is not None]
    if sight.noah is not None and record.noah is not None and sight.noah != record.noah \
            and record.step != "move_noah":
        findings.append(_finding(sight.noah, "noah_elsewhere", noah=record.noah + 1,
                                 ferry=sight.noah + 1))
    return findings


#: Why a card cannot be in a hand (``drafts.not_in_a_hand``'s notice) → the sentence to take it
#: away from beside the ferries.
NOT_A_HAND_CARD = {"notice.not_in_game": "not_in_game", "notice.on_ferry_not_hand": "on_ferry",
                   "notice.departed_not_hand": "departed"}


def hand_findings(record: RecordTable, sight: TableSight,
                  why_not: Callable[[str], Phrase | None]) -> list[Finding]:
    """Round end: what keeps the cards beside the mats from being the awaited hand, one
    sentence each: a card that cannot be in a hand (``why_not(card)``: the session's reason as
    a ``notice.*`` phrase, or ``None``), else more new cards than the hand holds.

    >>> record = RecordTable(step="scan_hand", noah=None, ferries=((),) * 5, player="Ben",
    ...                      seat=1, hand_missing=1)
    >>> sight = TableSight(None, (None,) * 5, (True,) * 5,
    ...                    (CardBeside("cat:F#1", 0), CardBeside("bear:M#1", 3)))
    >>> [finding] = hand_findings(record, sight, lambda card: None)
    >>> finding.text.startswith("Ben holds 1 card but 2 unread cards lie beside the ferries")
    True
    """
    if record.step != "scan_hand" or record.seat is None or not record.hand_missing:
        return []
    new = new_beside(record, sight)
    findings = []
    for card, near in new:
        phrase = why_not(card)
        if phrase is not None:
            params = {"card": card, "near": near + 1, "name": record.player}
            if "ferry" in phrase.params:
                params["home"] = phrase.params["ferry"]
            findings.append(_finding(near, f"hand_card.{NOT_A_HAND_CARD[phrase.key]}", **params))
    if not findings and len(new) > record.hand_missing:
        findings.append(_finding(None, "hand_too_many", name=record.player,
                                 count=record.hand_missing, seen=len(new)))
    return findings


def _ferry_finding(record: RecordTable, sight: TableSight, k: int) -> Finding | None:
    """Ferry ``k``'s difference, if any. Params: ``card`` is what the record has on top,
    ``cards`` what is out of place (to put back, or missing)."""
    cards = record.ferries[k] or ()
    shown, expected = sight.tops[k], record.top(k)
    if sight.empty[k]:
        if not cards:
            return None
        return _finding(k, "cards_missing", ferry=k + 1, cards=list(cards))
    if shown is None or shown == expected:
        return None
    if shown in cards:  # cards above it were taken off
        above = list(cards[cards.index(shown) + 1:])
        return _finding(k, "put_back_on_top", ferry=k + 1, card=expected, cards=above)
    where, params = _belongs(record, shown)
    if expected is None:
        return _finding(k, f"should_be_empty.{where}", ferry=k + 1, cards=[shown], **params)
    return _finding(k, f"wrong_top.{where}", ferry=k + 1, card=expected, cards=[shown],
                    **params)


def _belongs(record: RecordTable, card: str) -> tuple[str, dict[str, Any]]:
    """Where a card the table shows out of place belongs: another ferry, the departed pile, or
    a hand (the player's whose turn it is: the one who laid it)."""
    home = record.ferry_holding(card)
    if home is not None:
        return "ferry", {"home": home + 1}
    if card in record.departed:
        return "departed", {}
    return "hand", {"name": record.player or "its player"}


#: Every ``audit.<name>`` key the observer says (the catalogs word each one).
TABLE_KEYS = frozenset({
    "audit.cards_missing", "audit.put_back_on_top", "audit.noah_elsewhere",
    "audit.should_be_empty.ferry", "audit.should_be_empty.departed",
    "audit.should_be_empty.hand", "audit.wrong_top.ferry", "audit.wrong_top.departed",
    "audit.wrong_top.hand", "audit.departing", "audit.departure_seen",
    "audit.lay_hand", "audit.hand_too_many", "audit.hand_card.not_in_game",
    "audit.hand_card.on_ferry", "audit.hand_card.departed",
})
#: Instructions and confirmations, not differences: never counted as audit warnings.
NOT_WARNINGS = frozenset({"audit.departing", "audit.departure_seen", "audit.lay_hand"})


def _finding(light: int | None, key: str, /, **params: Any) -> Finding:
    phrase = Phrase(f"audit.{key}", params)
    return Finding(light, english(phrase), phrase)


# -- the observer: frames in, intents and findings out ------------------------------------------

@dataclass(frozen=True)
class Inferred:
    """One step the observer inferred from a stable table, the session's answer to the intent
    it made (:class:`~companion.session.intents.Outcome`: accepted, or refused with the
    sentence and TABLE-LOG reason code), and the seconds from the first still frame to it."""

    inference: Inference
    outcome: Outcome
    seconds: float

    @property
    def accepted(self) -> bool:
        return self.outcome.accepted

    @property
    def message(self) -> str:
        return self.outcome.message


class StillTable:
    """Waits for a still table and two agreeing readings (docs/table-view.md, TABLE-KIT.md).

    Stillness is judged between consecutive frames: each frame's small copy is compared with
    the previous one and with the card zones of the last reading (a hand over a card zone), by
    :class:`vision.table_motion.StillnessWatch`. A frame is still once the next one shows no
    motion against it; the two are then read, and when their readings agree the table is
    *settled* (the first of the two is when it became still): no more readings until
    something moves again. So a change followed by two still frames is always seen, live or in
    a recording. ``loose``: the readings also report the codes beside the mats (the round-end
    hand scan). ``short_look``: when the camera can take a short exposure, a settled table
    with a ferry left unread under a clipped highlight is read again there, once
    (:class:`vision.table_exposure.ShortLook`: only those ferries, by the ordinary rules).
    """

    def __init__(self, reader: Reader, short_look: ShortLook | None = None) -> None:
        from vision.table_motion import StillnessWatch

        self.reader, self.short_look = reader, short_look
        self.loose = False
        self._previous: TableFrame | None = None
        self._watch = StillnessWatch()
        self._candidate: TableReading | None = None  # the reading of the previous frame
        self._still_since: float | None = None
        self.settled = False

    def read_loose(self, loose: bool) -> None:
        """Whether readings report the codes beside the mats. A change makes a settled table
        be read again: a hand laid out before its scan was awaited is read without waiting for
        something to move."""
        if loose != self.loose:
            self.loose, self.settled = loose, False
            self._candidate, self._still_since = None, None

    def feed(self, frame: TableFrame) -> tuple[TableReading, float] | None:
        """One frame; returns ``(reading, still_since)`` the moment the table is stable, else
        ``None``."""
        previous, self._previous = self._previous, frame
        moving = self._watch.moving(frame.small)  # every frame: the watch keeps the last one
        if previous is None or moving:
            self._candidate, self._still_since, self.settled = None, None, False
            return None
        if self.settled:
            return None
        if self._candidate is None:  # the previous frame is still now that this one is
            self._candidate, self._still_since = self._read(previous), previous.captured_at
        reading = self._read(frame)
        candidate, self._candidate = self._candidate, reading
        if not candidate.agrees_with(reading):
            return None
        self.settled = True
        if self.short_look is not None:  # the camera's thread: no frame is being grabbed
            reading = self.short_look.improve(frame.full, reading)
        return reading, self._still_since if self._still_since is not None else frame.captured_at

    def _read(self, frame: TableFrame) -> TableReading:
        reading = self.reader.read(frame.full, loose=True) if self.loose \
            else self.reader.read(frame.full)
        self._watch.watch_zones({k: v.zone for k, v in reading.ferries.items()},
                                (frame.full.shape[1], frame.full.shape[0]))
        return reading


class TableObserver:
    """Feeds a session from the overhead camera: infers plays, Noah's moves, take-backs and the
    round-end hands from stable tables and audits every stable table against the record.

    ``intents``: the session (any object with ``choose_card``, ``move_noah``, ``take_back``,
    ``choose_noah_start``, a ``view`` and, for the round-end hand scan, its ``game``, read to
    check each card before a hand is scanned); ``card_of(text)``: a sticker text's card id in this
    deck, or ``None``; ``flash(k)``: blink ferry k's light (the lights' ``flash_illegal``);
    ``on_finding(finding)``: shows an audit sentence; ``ledger``: shared with the hand camera
    when both report plays (:class:`PlayLedger`); ``camera``: the overhead camera, asked for a
    short exposure of a still table whose ferry stays unread under a highlight when it can take
    one (:func:`vision.table_exposure.short_exposure_camera`: a Pi camera; :meth:`feed` runs on
    the camera's own capture thread, so the short frame is never taken while a frame is being
    grabbed).
    """

    MAX_STEPS = 4  # inferences from one stable table (a play, then Noah's move, ...)

    def __init__(self, intents: ObservedSession, card_of: Callable[[str], str | None], *,
                 reader: Reader | None = None, flash: Callable[[int], object] | None = None,
                 on_finding: Callable[[Finding], object] | None = None,
                 ledger: PlayLedger | None = None,
                 clock: Callable[[], float] | None = None, camera: object = None) -> None:
        import time

        from vision.table_exposure import ShortLook, short_exposure_camera
        from vision.table_tracker import TableTracker

        self.intents, self.card_of = intents, card_of
        self.flash, self.on_finding = flash, on_finding
        self.ledger = ledger or PlayLedger()
        short = short_exposure_camera(camera)
        self.still = StillTable(reader or TableTracker(),
                                ShortLook(short) if short is not None else None)
        self.clock = clock or time.monotonic
        self.verdicts: list[Inferred] = []
        self.findings: list[Finding] = []
        self._shown: tuple[Phrase, ...] = ()
        self._sight: TableSight | None = None
        self._refused: set[tuple[str, int, int]] = set()
        self._departing: set[int] = set()
        self._told_departing: set[int] = set()
        self._audited_seq: int | None = None
        self._hands: dict[str, int] = {}  # round end: each card the table scanned → its seat
        self._hands_round: int | None = None
        self._instructed: tuple[int | None, int] | None = None

    def feed(self, frame: TableFrame) -> list[Inferred]:
        """One frame of the overhead camera; returns the verdicts it led to."""
        from vision.table_zones import zone_is_blank

        self._instruct()
        self.still.read_loose(self.intents.view.prompt.kind == "scan_hand")
        stable = self.still.feed(frame)
        if stable is None:
            if self.still.settled and self._sight is not None \
                    and self.intents.view.seq != self._audited_seq:
                self._check(self._sight)  # the record changed by touch: audit again
            return []
        reading, since = stable

        def blank(k: int) -> bool:
            zone = reading.ferries[k + 1].zone
            return zone is not None and zone_is_blank(frame.full, zone)

        self._sight = sight_of(reading, self.card_of, blank)
        return self._act(self._sight, since)

    def _act(self, sight: TableSight, since: float) -> list[Inferred]:
        verdicts = []
        for _ in range(self.MAX_STEPS):
            record = self._record()
            inference = infer(record, sight)
            if inference is None or self._tried(inference, record) \
                    or self._cannot_be_a_hand(inference):
                break
            outcome = self._submit(inference, record)
            verdict = Inferred(inference, outcome, max(0.0, self.clock() - since))
            verdicts.append(verdict)
            if not outcome.accepted:
                if isinstance(inference, PlaySeen):
                    self._refused.add((inference.card, inference.ferry, self.intents.view.seq))
                break
            if not isinstance(inference, TakeBackSeen | HandSeen):
                self._note_departure(record)
        self.verdicts += verdicts
        self._instruct()
        self._check(sight)
        return verdicts

    def _record(self) -> RecordTable:
        """The record's table, with the cards of earlier hands this observer scanned at round
        end (the session's view shows only the hand being scanned). Cards scanned for the hand
        awaited or a later one are forgotten: the session dropped them (undo, cancel, a hand
        scan refused)."""
        view = self.intents.view
        record = RecordTable.from_view(view)
        round_ = (view.state or {}).get("round")
        if record.step != "scan_hand" or record.seat is None or round_ != self._hands_round:
            self._hands, self._hands_round = {}, round_
            return record
        seat = record.seat
        self._hands = {card: s for card, s in self._hands.items() if s < seat}
        return replace(record, hand_known=record.hand_known | set(self._hands))

    def _instruct(self) -> None:
        """Round end: tell the player whose hand is awaited to lay it beside the ferries (once
        per hand)."""
        view = self.intents.view
        if view.prompt.kind != "scan_hand" or view.prompt.player is None:
            self._instructed = None
            return
        hand = ((view.state or {}).get("round"), view.prompt.player)
        if hand == self._instructed:
            return
        self._instructed = hand
        record = self._record()
        self._say(_finding(None, "lay_hand", name=record.player, count=record.hand_missing),
                  flash=False)

    def _why_not(self, card: str) -> Phrase | None:
        """Why ``card`` cannot be in a hand (the session's rule, as its notice), or ``None``."""
        game = getattr(self.intents, "game", None)
        problem = not_in_a_hand(game, card) if game is not None else None
        return problem[0] if problem else None

    def _cannot_be_a_hand(self, inference: Inference) -> bool:
        """A hand with a card that cannot be in one is not scanned at all (the audit says
        which card to take away)."""
        return isinstance(inference, HandSeen) and any(
            self._why_not(card) is not None for card in inference.cards)

    def _tried(self, inference: Inference, record: RecordTable) -> bool:
        """A play the engine refused is not tried again until the record changes."""
        return isinstance(inference, PlaySeen) and (
            inference.card, inference.ferry, self.intents.view.seq) in self._refused

    def _submit(self, inference: Inference, record: RecordTable) -> Outcome:
        intents = self.intents
        if isinstance(inference, PlaySeen | SetupCardSeen):
            return self.ledger.report(intents, inference.card, "table")
        if isinstance(inference, NoahSeen):
            return intents.move_noah(inference.ferry)
        if isinstance(inference, NoahStartSeen):
            return intents.choose_noah_start(inference.ferry)
        if isinstance(inference, HandSeen):
            return self._scan_hand(inference)
        return intents.take_back()

    def _scan_hand(self, hand: HandSeen) -> Outcome:
        """Each card of the hand through the session's hand scan, as if shown one by one; stops
        at a refusal (the cards accepted so far stay in the session's scan)."""
        outcome = Outcome(False, said("no_card_in_hand"))
        for card in hand.cards:
            outcome = self.intents.choose_card(card)
            if not outcome.accepted:
                break
            self._hands[card] = hand.seat
        return outcome

    def _note_departure(self, before: RecordTable) -> None:
        """A ferry that held cards and holds none in the record after a play or a Noah move
        has departed (after Noah's move, R19, or at once after a donkey, R24)."""
        after = RecordTable.from_view(self.intents.view)
        for k in POSITIONS:
            if before.ferries[k] and not after.ferries[k]:
                self._departing.add(k)

    def _check(self, sight: TableSight) -> None:
        """Audit the table against the record; say each new difference once and flash its
        ferry; confirm departures whose cards have left the table."""
        view = self.intents.view
        self._audited_seq = view.seq
        record = self._record()
        for k in sorted(self._departing):
            if sight.empty[k] or (record.ferries[k] is None and sight.tops[k] is None):
                self._departing.discard(k)
                self._told_departing.discard(k)
                self._say(_finding(k, "departure_seen", ferry=k + 1), flash=False)
        # A departing ferry's cards are still on the table until the players take them off:
        # that is the next thing to do, not a mistake (one instruction, no warning).
        findings = [f for f in audit(record, sight) if f.ferry not in self._departing
                    or f.phrase.key == "audit.noah_elsewhere"]
        findings += hand_findings(record, sight, self._why_not)
        for k in sorted(self._departing - self._told_departing):
            self._told_departing.add(k)
            self._say(_finding(k, "departing", ferry=k + 1), flash=False)
        shown = tuple(f.phrase for f in findings)
        for finding in findings:
            if finding.phrase not in self._shown:
                self._say(finding)
        self._shown = shown

    def _say(self, finding: Finding, *, flash: bool = True) -> None:
        self.findings.append(finding)
        if self.on_finding is not None:
            self.on_finding(finding)
        if flash and self.flash is not None and finding.ferry is not None:
            self.flash(finding.ferry)


class PlayLedger:
    """One play per presentation when both cameras report plays (``[camera] view = both``).

    Every card report goes through :meth:`report`, one at a time. A report of the card that was
    the last play accepted, while that card is still on its ferry in the record, is the same
    presentation seen by the other camera: it is dropped without a word (no R54 refusal on the
    screen). The key is the card and the record's action index of its play.

    >>> class Table:  # a stand-in session: accepts every card once
    ...     def __init__(self): self.played = []
    ...     view = property(lambda self: type("V", (), {"seq": len(self.played), "state": {
    ...         "phase": "play", "ferries": [self.played, [], [], [], []]}})())
    ...     def choose_card(self, ref):
    ...         self.played.append(ref); return type("O", (), {"accepted": True})()
    >>> ledger, table = PlayLedger(), Table()
    >>> [ledger.report(table, "cat:F#1", cam).accepted for cam in ("hand", "table")]
    [True, False]
    >>> len(table.played)
    1
    """

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._last: tuple[str, int] | None = None  # (card, record index after its play)
        self.dropped = 0

    def report(self, intents: ObservedSession, card: str, camera: str) -> Outcome:
        """``camera`` ("hand" or "table") reports ``card``: play it unless it is a repeat."""
        with self._lock:
            if self._last is not None and self._last[0] == card and self._on_a_ferry(
                    intents, card) and intents.view.seq >= self._last[1]:
                self.dropped += 1
                return Outcome(False, said(f"already_played_{camera}"))
            outcome = intents.choose_card(card)
            if outcome.accepted:
                self._last = (card, intents.view.seq)
            return outcome

    def hand_events(self, session: HandCameraSession, card_of: Callable[[str], str | None]
                    ) -> Callable[[object], None]:
        """A vision-pipeline callback for the hand camera that sends card events through this
        ledger (other events go to ``session.on_vision_event`` as usual: a foreign code, or
        several cards in view, which the session asks about)."""
        from vision.events import CardShown

        def on_event(event: object) -> None:
            if isinstance(event, CardShown) \
                    and not several_cards(card_of(text) for text in event.in_view):
                card = card_of(event.text)
                if card is not None:
                    self.report(session, card, "hand")
                    return
            session.on_vision_event(event)

        return on_event

    @staticmethod
    def _on_a_ferry(intents: ObservedSession, card: str) -> bool:
        """``card`` is on a ferry of the round being played. Between two rounds the record still
        shows the last round's ferries, while the same card may be dealt again as a starting
        animal: that is a new presentation, not a repeat."""
        state = intents.view.state or {}
        if state.get("phase") not in IN_ROUND_PHASES:
            return False
        return any(card in {physical(r) for r in f or ()} for f in state.get("ferries") or ())

