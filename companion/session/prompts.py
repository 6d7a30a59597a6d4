"""What the referee session is waiting for: one prompt at a time, for the UI to show.

A prompt is a frozen dataclass published in :attr:`SessionView.prompt`. It names who must act
(``player``, a seat, or ``None`` for the whole table), says it in one plain sentence (``text``)
and lists the answers the rules allow right now, so a view can offer exactly those buttons.
Each prompt kind is answered by one :class:`~companion.session.Session` intent, named in its
docstring; a card shown to the camera answers the card prompts too.

Prompts are *derived* from the engine's state and the session's small in-progress drafts (a
setup being scanned, a hand scan, a card waiting for its snail side), never stored: after an undo
or a resume the right prompt comes back by itself.

>>> MoveNoah(player=1, text="Ben: move Noah to ferry 2 or 5.", choices=(1, 4)).kind
'move_noah'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class Prompt:
    """Base of every prompt: who acts and the sentence to show."""

    kind: ClassVar[str] = "prompt"
    player: int | None
    text: str


@dataclass(frozen=True)
class ChooseNoahStart(Prompt):
    """Round setup: the table puts Noah on a ferry. Answer: ``choose_noah_start(ferry)`` or a
    ferry button. ``choices`` are positions 0-4 (shown to people as ferries 1-5)."""

    kind: ClassVar[str] = "choose_noah_start"
    choices: tuple[int, ...] = (0, 1, 2, 3, 4)


@dataclass(frozen=True)
class ScanSetupCard(Prompt):
    """Round setup: show the starting animal of ``ferry`` to the camera (the lights prompt
    "scan for ferry k"). Answer: a card shown, or ``choose_card(ref)`` by touch."""

    kind: ClassVar[str] = "scan_setup_card"
    ferry: int = 0
    scanned: tuple[str | None, ...] = (None, None, None, None, None)


@dataclass(frozen=True)
class ChooseStarter(Prompt):
    """Round 1 setup: who starts (the shortest player, R10). Answer: ``choose_starter(seat)``."""

    kind: ClassVar[str] = "choose_starter"
    choices: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayCard(Prompt):
    """A turn: ``player`` loads an animal on Noah's ``ferry``. Answer: a card shown to the camera
    or ``choose_card(ref)``; ``take_back()`` when the player cannot play (R25)."""

    kind: ClassVar[str] = "play_card"
    ferry: int = 0
    can_take_back: bool = False


@dataclass(frozen=True)
class ChooseCard(Prompt):
    """Several of our cards were in view at once: which one is meant? Answer:
    ``choose_card(ref)`` with one of ``candidates``, or ``cancel()``."""

    kind: ClassVar[str] = "choose_card"
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChooseSnailSide(Prompt):
    """A snail is being loaded (or laid at setup): which side is up? Answer:
    ``choose_snail_side("M" | "F")``; ``legal`` lists the sides the rules accept here."""

    kind: ClassVar[str] = "choose_snail_side"
    card: str = "snail"
    ferry: int = 0
    legal: tuple[str, ...] = ("M", "F")


@dataclass(frozen=True)
class ChooseFrogWeight(Prompt):
    """A frog is being loaded: it weighs 1 unless a declared weight makes the ferry depart (R43).
    Answer: ``choose_frog_weight(weight)`` with one of ``choices`` (1 means "no declaration")."""

    kind: ClassVar[str] = "choose_frog_weight"
    card: str = "frog"
    ferry: int = 0
    choices: tuple[int, ...] = (1,)


@dataclass(frozen=True)
class ChooseTarget(Prompt):
    """An animal's effect needs an opponent: ``action`` is ``"croc_flee"`` (who takes the
    animal fleeing from the crocodile) or ``"lion_swap"``. Answer: ``choose_target(seat)``.
    (The giraffe's optional look is offered by :class:`MoveNoah`.)"""

    kind: ClassVar[str] = "choose_target"
    action: str = "lion_swap"
    choices: tuple[int, ...] = ()
    optional: bool = False


@dataclass(frozen=True)
class MoveNoah(Prompt):
    """``player`` moves Noah: ``choices`` are the legal destinations (also on the lights).
    Answer: ``move_noah(ferry)`` or a ferry button. ``giraffe_targets`` is non-empty when a
    giraffe was just loaded and its optional look (R31) is still possible before Noah moves:
    answer it with ``choose_target(seat)`` or decline it with ``skip()`` (moving Noah declines
    it too)."""

    kind: ClassVar[str] = "move_noah"
    choices: tuple[int, ...] = ()
    giraffe_targets: tuple[int, ...] = ()


@dataclass(frozen=True)
class GiveCards(Prompt):
    """``player``'s ferry departed: they give ``count`` cards to opponents (R20). Answer:
    ``give_cards({seat: n, ...})`` with the numbers summing to ``count``."""

    kind: ClassVar[str] = "give_cards"
    count: int = 1
    opponents: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScanHand(Prompt):
    """Round end: show every card left in ``player``'s hand to the camera (or choose them by
    touch). ``expected`` is the hand's size, ``scanned`` what was read so far
    (``remove_scanned(ref)`` drops a wrong one). When a hand is complete the next player's
    comes; empty hands are skipped; after the last one the round is scored."""

    kind: ClassVar[str] = "scan_hand"
    expected: int = 0
    scanned: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnterTears(Prompt):
    """Score-only mode: type each player's tears for this round. Answer:
    ``enter_tears([n0, n1, ...])``, one number per seat."""

    kind: ClassVar[str] = "enter_tears"
    round: int = 1


@dataclass(frozen=True)
class GameOver(Prompt):
    """The game is over. ``winners`` are seats; ``bgstats_url`` is the link a phone opens in the
    BG Stats app (``Session.bgstats_qr()`` renders it as a QR code)."""

    kind: ClassVar[str] = "game_over"
    winners: tuple[int, ...] = ()
    bgstats_url: str = ""


@dataclass(frozen=True)
class NoGame(Prompt):
    """No game is open. Answer: ``new_game(...)`` or ``resume(game_id)``; ``unfinished`` lists
    the ids of games that can be resumed (newest first)."""

    kind: ClassVar[str] = "no_game"
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
