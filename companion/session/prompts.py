"""What the referee session is waiting for: one prompt at a time, for the UI to show.

A prompt is a frozen dataclass published in :attr:`SessionView.prompt`. It names who must act
(``player``, a seat, or ``None`` for the whole table), says it in one plain English sentence
(``text``, worded from its fields by the English catalog's ``prompt.<kind>``, as every language
words it: companion.i18n.Catalog.prompt) and lists the answers the rules allow right now, so a
view can offer exactly those buttons.
Each prompt kind is answered by one :class:`~companion.session.Session` intent, named in its
docstring; a card shown to the camera answers the card prompts too.

Prompts are *derived* — :func:`derive_prompt` is where the prompt is decided — from the
engine's game, the session's small in-progress drafts (a setup being scanned, a hand scan, a card
waiting for its snail side: :mod:`companion.session.drafts`) and the players' names, never
stored: after an undo or a resume the right prompt comes back by itself.

>>> from companion.game import Game
>>> from companion.session.drafts import Drafts
>>> derive_prompt(Game(["Ana", "Ben"]), Drafts(), ("Ana", "Ben")).text
'Round 1: put Noah on a ferry and touch it.'
>>> MoveNoah(player=1, text="Ben: move Noah to ferry 2 or 5.", choices=(1, 4)).kind
'move_noah'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, ClassVar, TypeVar

from companion.i18n import english_catalog
from companion.session.steps import Step

if TYPE_CHECKING:
    from companion.game import Game, Phase
    from companion.session.drafts import Drafts


@dataclass(frozen=True)
class Prompt:
    """Base of every prompt: who acts and the sentence to show."""

    kind: ClassVar[Step]
    player: int | None
    text: str


@dataclass(frozen=True)
class ChooseNoahStart(Prompt):
    """Round setup: the table puts Noah on a ferry. Answer: ``choose_noah_start(ferry)`` or a
    ferry button. ``choices`` are positions 0-4 (shown to people as ferries 1-5)."""

    kind: ClassVar[Step] = "choose_noah_start"
    choices: tuple[int, ...] = (0, 1, 2, 3, 4)
    round: int = 1


@dataclass(frozen=True)
class ScanSetupCard(Prompt):
    """Round setup: show the starting animal of ``ferry`` to the camera (the lights prompt
    "scan for ferry k"). Answer: a card shown, or ``choose_card(ref)`` by touch."""

    kind: ClassVar[Step] = "scan_setup_card"
    ferry: int = 0
    scanned: tuple[str | None, ...] = (None, None, None, None, None)


@dataclass(frozen=True)
class ChooseStarter(Prompt):
    """Round 1 setup: who starts (the shortest player, R10). Answer: ``choose_starter(seat)``."""

    kind: ClassVar[Step] = "choose_starter"
    choices: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayCard(Prompt):
    """A turn: ``player`` loads an animal on Noah's ``ferry``. Answer: a card shown to the camera
    or ``choose_card(ref)``; ``take_back()`` when the player cannot play (R25)."""

    kind: ClassVar[Step] = "play_card"
    ferry: int = 0
    can_take_back: bool = False


@dataclass(frozen=True)
class ChooseCard(Prompt):
    """Several of our cards were in view at once: which one is meant? Answer:
    ``choose_card(ref)`` with one of ``candidates``, or ``cancel()``."""

    kind: ClassVar[Step] = "choose_card"
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChooseSnailSide(Prompt):
    """A snail is being loaded (or laid at setup): which side is up? Answer:
    ``choose_snail_side("M" | "F")``; ``legal`` lists the sides the rules accept here."""

    kind: ClassVar[Step] = "choose_snail_side"
    card: str = "snail"
    ferry: int = 0
    legal: tuple[str, ...] = ("M", "F")


@dataclass(frozen=True)
class ChooseFrogWeight(Prompt):
    """A frog is being loaded: it weighs 1 unless a declared weight makes the ferry depart (R43).
    Answer: ``choose_frog_weight(weight)`` with one of ``choices`` (1 means "no declaration")."""

    kind: ClassVar[Step] = "choose_frog_weight"
    card: str = "frog"
    ferry: int = 0
    choices: tuple[int, ...] = (1,)


@dataclass(frozen=True)
class ChooseTarget(Prompt):
    """An animal's effect needs an opponent: ``action`` is ``"croc_flee"`` (who takes the
    animal fleeing from the crocodile) or ``"lion_swap"``. Answer: ``choose_target(seat)``.
    (The giraffe's optional look is offered by :class:`MoveNoah`.)"""

    kind: ClassVar[Step] = "choose_target"
    action: Phase = "lion_swap"
    choices: tuple[int, ...] = ()
    optional: bool = False
    card: str = ""  # the card fleeing from the crocodile


@dataclass(frozen=True)
class MoveNoah(Prompt):
    """``player`` moves Noah: ``choices`` are the legal destinations (also on the lights).
    Answer: ``move_noah(ferry)`` or a ferry button. ``giraffe_targets`` is non-empty when a
    giraffe was just loaded and its optional look (R31) is still possible before Noah moves:
    answer it with ``choose_target(seat)`` or decline it with ``skip()`` (moving Noah declines
    it too)."""

    kind: ClassVar[Step] = "move_noah"
    choices: tuple[int, ...] = ()
    giraffe_targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class GiveCards(Prompt):
    """``player``'s ferry departed: they give ``count`` cards to opponents (R20). Answer:
    ``give_cards({seat: n, ...})`` with the numbers summing to ``count``."""

    kind: ClassVar[Step] = "give_cards"
    count: int = 1
    opponents: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScanHand(Prompt):
    """Round end: show every card left in ``player``'s hand to the camera (or choose them by
    touch). ``expected`` is the hand's size, ``scanned`` what was read so far
    (``remove_scanned(ref)`` drops a wrong one). When a hand is complete the next player's
    comes; empty hands are skipped; after the last one the round is scored."""

    kind: ClassVar[Step] = "scan_hand"
    expected: int = 0
    scanned: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnterTears(Prompt):
    """Score-only mode: type each player's tears for this round. Answer:
    ``enter_tears([n0, n1, ...])``, one number per seat."""

    kind: ClassVar[Step] = "enter_tears"
    round: int = 1


@dataclass(frozen=True)
class GameOver(Prompt):
    """The game is over. ``winners`` are seats; ``bgstats_url`` is the link a phone opens in the
    BG Stats app (``bgstats.qr_code(url)`` draws it as a QR code)."""

    kind: ClassVar[Step] = "game_over"
    winners: tuple[int, ...] = ()
    bgstats_url: str = ""
    scores: tuple[int, ...] = ()  # every seat's tears


@dataclass(frozen=True)
class NoGame(Prompt):
    """No game is open. Answer: ``new_game(...)`` or ``resume(game_id)``; ``unfinished`` lists
    the ids of games that can be resumed (newest first)."""

    kind: ClassVar[Step] = "no_game"
    unfinished: tuple[int, ...] = field(default=())


PROMPT_KINDS = {
    cls.kind: cls
    for cls in (
        ChooseNoahStart, ScanSetupCard, ChooseStarter, PlayCard, ChooseCard, ChooseSnailSide,
        ChooseFrogWeight, ChooseTarget, MoveNoah, GiveCards, ScanHand, EnterTears, GameOver,
        NoGame,
    )
}
"""Every prompt class by its ``kind``."""


# -- deciding the prompt ----------------------------------------------------------------------

#: The step of each in-round engine phase (a round's setup and the drafts come first).
PHASE_STEPS: dict[Phase, Step] = {
    "play": "play_card", "croc_flee": "choose_target", "lion_swap": "choose_target",
    "move_noah": "move_noah", "give": "give_cards", "scan": "scan_hand",
}


def in_setup(game: Game | None) -> bool:
    """Whether the table is setting up a round (between rounds, before the first deal)."""
    return game is not None and game.phase == "round_over"


def current_step(game: Game | None, drafts: Drafts) -> Step:
    """The kind of prompt awaited now (cheap: no prompt is built).

    >>> from companion.session.drafts import Drafts
    >>> current_step(None, Drafts())
    'no_game'
    """
    if game is None:
        return "no_game"
    phase = game.phase
    if phase == "game_over":
        return "game_over"
    if drafts.candidates:
        return "choose_card"
    if drafts.pending is not None:
        return "choose_snail_side" if drafts.pending.species == "snail" else "choose_frog_weight"
    if game.options.score_only:
        return "enter_tears"
    if phase == "round_over":
        setup = drafts.setup
        if setup.noah is None:
            return "choose_noah_start"
        if setup.next_ferry is not None:
            return "scan_setup_card"
        return "choose_starter"
    return PHASE_STEPS[phase]


PromptT = TypeVar("PromptT", bound=Prompt)


def worded(prompt: PromptT, players: Sequence[str]) -> PromptT:
    """``prompt`` with its English ``text``, worded from its fields by the English catalog.

    >>> worded(PlayCard(player=1, text="", ferry=2), ["Ana", "Ben"]).text
    'Ben: load an animal on ferry 3.'
    """
    return replace(prompt, text=english_catalog().prompt(prompt, players))


def derive_prompt(game: Game, drafts: Drafts, players: Sequence[str], *,
                  bgstats_url: str = "") -> Prompt:
    """The one thing awaited now, from the engine's game, the drafts and the players' names.
    ``bgstats_url`` goes into :class:`GameOver` (the session's link for a finished game)."""
    return worded(_derived(game, drafts, players, bgstats_url), players)


def _derived(game: Game, drafts: Drafts, players: Sequence[str], bgstats_url: str) -> Prompt:
    """:func:`derive_prompt`'s prompt, its text not worded yet."""
    step = current_step(game, drafts)
    seat = game.current_player
    pending = drafts.pending
    if step == "game_over":
        return GameOver(player=None, text="", winners=game.winners, bgstats_url=bgstats_url,
                        scores=tuple(game.scores))
    if step == "choose_card":
        return ChooseCard(player=None, text="", candidates=drafts.candidates)
    if step == "choose_snail_side" and pending is not None:
        setup = in_setup(game)
        return ChooseSnailSide(
            player=None if setup else seat, text="", card=pending.card,
            ferry=(drafts.setup.next_ferry or 0) if setup else _noah(game),
            legal=tuple(str(side) for side in pending.choices),
        )
    if step == "choose_frog_weight" and pending is not None:
        return ChooseFrogWeight(player=seat, text="", card=pending.card, ferry=_noah(game),
                                choices=tuple(int(weight) for weight in pending.choices))
    if step in ("enter_tears", "choose_noah_start", "scan_setup_card", "choose_starter"):
        return _table_prompt(step, game, drafts, len(players))
    if step == "scan_hand":
        return _scan_prompt(game, drafts)
    assert seat is not None, f"nobody acts at step {step}"
    return _turn_prompt(step, game, drafts, len(players), seat)


def _table_prompt(step: Step, game: Game, drafts: Drafts, seats: int) -> Prompt:
    """The prompts addressed to the whole table: a round's setup, score-only tears."""
    if step == "enter_tears":
        return EnterTears(player=None, text="", round=game.round + 1)
    if step == "choose_noah_start":
        return ChooseNoahStart(player=None, text="", round=game.round + 1)
    if step == "scan_setup_card":
        return ScanSetupCard(player=None, text="", ferry=drafts.setup.next_ferry or 0,
                             scanned=tuple(drafts.setup.ferries))
    return ChooseStarter(player=None, text="", choices=tuple(range(seats)))


def _turn_prompt(step: Step, game: Game, drafts: Drafts, seats: int, seat: int) -> Prompt:
    """The prompts of a turn's steps: ``seat`` acts."""
    if step == "play_card":
        noah = _noah(game)
        return PlayCard(player=seat, text="", ferry=noah, can_take_back=bool(game.ferries[noah]))
    if step == "choose_target":
        return ChooseTarget(player=seat, text="", action=game.phase,
                            choices=opponents_of(seat, seats),
                            card=game.fleeing or "" if game.phase == "croc_flee" else "")
    if step == "move_noah":
        looks: tuple[int, ...] = ()
        if game.giraffe_look and not drafts.giraffe_looked:
            looks = opponents_of(seat, seats)
        return MoveNoah(player=seat, text="", choices=tuple(game.legal_noah_moves()),
                        giraffe_targets=looks)
    return GiveCards(player=seat, text="", count=game.gifts_owed,  # give_cards
                     opponents=opponents_of(seat, seats))


def _scan_prompt(game: Game, drafts: Drafts) -> ScanHand:
    counts = game.hand_counts
    seat = drafts.scan_seat(counts)
    assert seat is not None, "the scan is submitted as soon as every hand is complete"
    scanned = tuple(drafts.hands[seat]) if seat < len(drafts.hands) else ()
    return ScanHand(player=seat, text="", expected=counts[seat], scanned=scanned)


def opponents_of(seat: int, count: int) -> tuple[int, ...]:
    """Every seat but ``seat``.

    >>> opponents_of(1, 4)
    (0, 2, 3)
    """
    return tuple(s for s in range(count) if s != seat)


def _noah(game: Game) -> int:
    noah = game.noah
    assert noah is not None, "Noah is on a ferry once a round is dealt"
    return noah
