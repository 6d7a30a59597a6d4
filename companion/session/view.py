"""The snapshot the session publishes after every change: everything a view needs, immutable.

A :class:`SessionView` is rebuilt and handed to every listener after each accepted action,
answer, refusal, undo or camera change. It is a frozen value, safe to pass between threads; the
UI copies what it needs onto its own thread (``Clock.schedule_once``/``@mainthread``).

Ferries are positions 0-4 internally; every *sentence* in a view already says "ferry 1-5" and
names players.

>>> v = SessionView.empty()
>>> v.has_game, v.prompt.kind
(False, 'no_game')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.i18n import Phrase as Phrase  # a notice's sentences as data (the catalogs' keys)
from companion.i18n import sentences
from companion.session.prompts import NoGame, Prompt, worded
from companion.session.steps import Step


@dataclass(frozen=True)
class Notice:
    """One line for the table: what just happened (``info``), a refusal with the rule's reason
    (``refused``, ``reason`` is the TABLE-LOG code), what to put back after an undo
    (``reconcile``), or a problem with the camera or the record (``problem``).

    A notice is data only: its ``phrases`` (catalog keys and raw facts) are worded in the
    table's language by companion.i18n; :attr:`text` is the English sentence, worded from the
    same catalogs (the CLI's and the demo's words), never written beside them.

    >>> from companion.session.notices import said
    >>> Notice("refused", said("nothing_to_undo")).text
    'There is nothing to undo.'
    """

    level: str  # "info" | "refused" | "reconcile" | "problem"
    phrases: tuple[Phrase, ...]
    reason: str | None = None

    @property
    def text(self) -> str:
        """The notice in English (companion.i18n.sentences)."""
        return sentences(self.phrases)


@dataclass(frozen=True)
class SessionView:
    """Immutable picture of the session for views.

    ``seq`` counts the acknowledged lines of the record (it grows with every accepted action and
    every undo), so a view can skip redrawing identical snapshots. ``state`` is the engine's
    TABLE-LOG state dict (copy; do not mutate). ``lights`` is the ferry lights' own snapshot when
    lights are attached. ``tokens`` are the players' score-token colours chosen for this game
    (empty: the default colours by seat). During a round's setup, ``setup_noah`` and
    ``setup_ferries`` are what the table has put down so far (Noah's ferry, the starting
    animals; None where not yet).
    """

    game_id: int | None
    players: tuple[str, ...]
    score_only: bool
    seq: int
    prompt: Prompt
    state: dict[str, Any] = field(default_factory=dict)
    destinations: tuple[int, ...] = ()
    notices: tuple[Notice, ...] = ()
    reconciliation: tuple[str, ...] = ()
    can_undo: bool = False
    can_redo: bool = False
    camera_ok: bool = True
    camera_message: str = ""
    foreign_codes: int = 0
    round_scores: tuple[tuple[int, ...], ...] = ()
    lights: Any = None
    tokens: tuple[str, ...] = ()
    setup_noah: int | None = None
    setup_ferries: tuple[str | None, ...] = ()

    @classmethod
    def empty(cls, unfinished: tuple[int, ...] = ()) -> SessionView:
        """The view when no game is open."""
        return cls(
            game_id=None, players=(), score_only=False, seq=0,
            prompt=worded(NoGame(player=None, text="", unfinished=unfinished), ()),
        )

    @property
    def has_game(self) -> bool:
        return self.game_id is not None

    @property
    def phase(self) -> Step:
        """The step awaited: the prompt's kind (``"play_card"``, ``"move_noah"``, ...)."""
        return self.prompt.kind

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.get("scores", ()))

    @property
    def noah(self) -> int | None:
        return self.state.get("noah")

    @property
    def current_player(self) -> int | None:
        return self.state.get("current_player")

    @property
    def game_over(self) -> bool:
        return bool(self.state.get("game_over"))
