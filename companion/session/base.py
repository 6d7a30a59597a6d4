"""The generic referee session: what every game's session shares, whatever the game.

A game's session (Noah's :class:`~companion.session.session.Session`, Complot's
``ComplotSession``) subclasses :class:`SessionBase` and adds its intents and its view. The base
holds what is not a game's own:

* the durable record (:class:`~companion.session.store.GameStore`, writer lock included) and
  the open game's id and line number (``seq``);
* one lock for every intent (camera, UI and button threads alike: one at a time, in arrival
  order) and the listeners it publishes to (``subscribe``; listeners are called with the lock
  held and must return quickly);
* **the one write path**: :meth:`SessionBase._judged` pushes an action to the game's referee
  (anything with ``push`` and ``pop``, :class:`Referee`), stores the accepted action's line
  durably — taking the action back if the write fails, so nothing unrecorded stays applied —
  and keeps the redo stack; the subclass then words the verdict and publishes;
* the redo stack, undo lines, the unfinished games of *this* game's table-log format (a record
  holds games of every kind; Noah's resume never opens a Complot game), abandon, delete, close;
* the table's notices and the cameras' status (lost, back, foreign codes).

>>> import tempfile, pathlib
>>> from companion.session.store import GameStore
>>> from types import SimpleNamespace
>>> class Counter:                     # a referee: push judges and applies, pop takes back
...     def __init__(self): self.history = []
...     def push(self, n):
...         self.history += [n] * (n > 0)
...         return SimpleNamespace(accepted=n > 0)
...     def pop(self): return self.history.pop()
>>> class Tally(SessionBase[int, int]):
...     log_format = "tally-log"
...     def __init__(self, store):
...         super().__init__(store)
...         self.counter = Counter()
...         self._view = 0
...     def _build_view(self): return sum(self.counter.history)
...     def _clear_game(self): self.counter = Counter()
...     def add(self, n):
...         with self._lock:
...             verdict = self._judged(self.counter, n, {"type": "add", "n": n})
...             self._publish()
...             return verdict.accepted
>>> store = GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite")
>>> tally = Tally(store)
>>> tally._game_id = store.create_game({"format": "tally-log", "version": 1, "players": []})
>>> seen = []
>>> unsubscribe = tally.subscribe(seen.append)
>>> tally.add(2), tally.add(-1), tally.add(3)
(True, False, True)
>>> seen, [line["n"] for line in store.lines(tally._game_id)]
([0, 2, 2, 5], [2, 3])
>>> [entry.id for entry in tally.unfinished_games()]
[1]
>>> store.close()
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from companion.errors import UserError
from companion.session.notices import said
from companion.session.store import GameRecord, GameStore
from companion.session.view import Notice, Phrase
from vision.events import CameraStatus, CardShown, ForeignCode

#: The session's published snapshot (Noah's SessionView, Complot's ComplotView...).
ViewT = TypeVar("ViewT")
#: One action of the game's referee (what ``push`` takes and ``pop`` gives back).
ActionT = TypeVar("ActionT")

log = logging.getLogger(__name__)

#: How many recent notices a view carries.
MAX_NOTICES = 6


class Judged(Protocol):
    """What a referee's verdict must say for the write path: accepted or not."""

    @property
    def accepted(self) -> bool: ...


#: A verdict of the game's referee (Noah's Verdict...).
JudgedT = TypeVar("JudgedT", bound=Judged)
JudgedT_co = TypeVar("JudgedT_co", bound=Judged, covariant=True)


class Referee(Protocol[ActionT, JudgedT_co]):
    """What the write path needs of a game's rules engine: ``push`` judges an action once and
    applies it when accepted (the verdict says which), ``pop`` takes the last one back exactly
    (python-chess's ``push``/``pop``)."""

    def push(self, action: ActionT) -> JudgedT_co: ...

    def pop(self) -> ActionT: ...


class SessionBase(Generic[ViewT, ActionT]):
    """The generic part of a referee session (see the module's text). Subclasses set
    :attr:`log_format`, a first ``self._view`` in their ``__init__``, and define
    :meth:`_build_view` and :meth:`_clear_game`; a game read by cameras overrides
    :meth:`tag_seen`."""

    #: The table log's ``format`` this session writes and resumes (``noah-table-log``...).
    log_format: ClassVar[str]
    _view: ViewT

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self._lock = threading.RLock()
        self._listeners: list[Callable[[ViewT], None]] = []
        self._game_id: int | None = None
        self._seq = 0
        self._redo: list[ActionT] = []
        self._notices: list[Notice] = []
        self._camera_ok, self._camera_message, self._foreign_codes = True, "", 0

    # -- what each game defines ------------------------------------------------------------

    def _build_view(self) -> ViewT:
        """A fresh snapshot of the table (called with the lock held, after every change)."""
        raise NotImplementedError

    def _clear_game(self) -> None:
        """Forget the open game's own state (its engine, drafts...): no game is open now."""
        raise NotImplementedError

    def tag_seen(self, text: str, in_view: tuple[str, ...] = ()) -> object:
        """A sticker read by a camera (``in_view``: every code in view with it). A game whose
        cards are read by the cameras overrides this."""
        raise UserError("This game does not read cards from the camera.",
                        "Choose the cards on the screen.")

    # -- publishing ------------------------------------------------------------------------

    def subscribe(self, listener: Callable[[ViewT], None]) -> Callable[[], None]:
        """Call ``listener(view)`` now and after every change; returns the unsubscriber."""
        with self._lock:
            self._listeners.append(listener)
            listener(self._view)
        return lambda: self._unsubscribe(listener)

    def _unsubscribe(self, listener: Callable[[ViewT], None]) -> None:
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    @property
    def view(self) -> ViewT:
        """The latest published snapshot."""
        return self._view

    def _publish(self) -> None:
        self._view = self._build_view()
        for listener in list(self._listeners):
            listener(self._view)

    def _notice(self, level: str, phrases: tuple[Phrase, ...], reason: str | None = None) -> None:
        """Add a line for the table: ``phrases`` say it as data (``said(...)``, the engine's
        verdict), worded by the catalogs in every language, English included."""
        self._notices = [*self._notices, Notice(level, phrases, reason)][-MAX_NOTICES:]

    # -- the one write path ----------------------------------------------------------------

    def _judged(self, referee: Referee[ActionT, JudgedT], action: ActionT,
                line: dict[str, Any], *, redoing: bool = False) -> JudgedT:
        """Judge ``action`` once (``referee.push``); when accepted, store ``line`` durably
        (:meth:`_write`, the action taken back if that fails) and keep the redo stack: a redo
        consumes its action, any other accepted action clears the stack. Refused: nothing is
        written. The caller words the verdict and publishes."""
        verdict = referee.push(action)
        if verdict.accepted:
            self._write(line, taken_back_by=referee.pop)
            if redoing:
                self._redo.pop()
            else:
                self._redo.clear()
        return verdict

    def _write(self, line: dict[str, Any], *,
               taken_back_by: Callable[[], object] | None = None) -> None:
        """Write one line of the open game durably (committed before this returns). On
        failure the table is told and an action already applied is taken back first
        (``taken_back_by``), so nothing unrecorded stays applied; the UserError is raised."""
        if self._game_id is None:
            raise RuntimeError("no game is open")
        try:
            self._seq = self.store.append(self._game_id, line)
        except UserError:
            if taken_back_by is not None:
                taken_back_by()
            self._notice("problem", said("record_error"))
            self._publish()
            raise

    def _store_summary(self, summary: dict[str, Any], *, finished: bool) -> None:
        """Refresh the history list's cache. The action itself is already saved and applied,
        so a failure here (a disk that just filled up) must not make it look failed: the table
        would enter it again and count it twice. The cache catches up at the next resume."""
        if self._game_id is None:
            return
        try:
            self.store.set_summary(self._game_id, summary, finished=finished)
        except UserError:
            self._notice("problem", said("summary_not_saved"))

    # -- games -----------------------------------------------------------------------------

    def unfinished_games(self) -> list[GameRecord]:
        """This game's games that can be resumed (newest first)."""
        return self.store.unfinished(self.log_format)

    def _unfinished_ids(self) -> tuple[int, ...]:
        return tuple(entry.id for entry in self.unfinished_games())

    def _game_to_resume(self, game_id: int | None) -> int:
        """``game_id``, or the newest unfinished game of this kind (UserError if none)."""
        if game_id is not None:
            return game_id
        unfinished = self.unfinished_games()
        if not unfinished:
            raise UserError("There is no unfinished game to resume.", "Start a new game.",
                            key="error.nothing_to_resume")
        return unfinished[0].id

    def _opened(self, game_id: int | None, *, seq: int = 0,
                redo: list[ActionT] | None = None) -> None:
        """The record's side of opening a game (``None``: none open): its id, its last line,
        its redo stack; the notices start afresh."""
        self._game_id, self._seq, self._redo = game_id, seq, list(redo or [])
        self._notices = []

    def abandon_game(self, game_id: int) -> None:
        """Give a stored game up: kept in the history, no longer offered for resume."""
        self._forget(game_id, lambda: self.store.abandon(game_id, "abandoned by the table"))

    def delete_game(self, game_id: int) -> None:
        """Delete a stored game and all its lines for good."""
        self._forget(game_id, lambda: self.store.delete_game(game_id))

    def _forget(self, game_id: int, change: Callable[[], object]) -> None:
        with self._lock:
            change()
            if game_id == self._game_id:
                self._close()
            self._publish()

    def close_game(self) -> None:
        """Leave the open game; it stays in the record and can be resumed."""
        with self._lock:
            self._close()
            self._publish()

    def _close(self) -> None:
        self._opened(None)
        self._clear_game()

    # -- the cameras -----------------------------------------------------------------------

    def on_vision_event(self, event: object) -> None:
        """Callback for the vision pipeline (any thread): card shown, foreign code, camera
        status (other events are not the referee's). Errors are published as notices, never
        raised into the pipeline's thread."""
        try:
            match event:
                case CardShown(text=text, in_view=in_view):
                    self.tag_seen(text, tuple(in_view))
                case ForeignCode(text=text):
                    self.foreign_code(text)
                case CameraStatus():
                    self.camera_status(event.ok, event.message)
        except UserError as error:
            log.warning("A camera event changed nothing: %s", error)  # the table: a notice
            with self._lock:
                self._notice("problem", said("vision_error"))
                self._publish()

    def camera_status(self, ok: bool, message: str = "") -> None:
        """The camera came back or was lost; choosing cards by touch stays possible."""
        with self._lock:
            was_ok, self._camera_ok, self._camera_message = self._camera_ok, ok, message
            if not ok:  # the camera's own words stay in the view (``camera_message``)
                self._notice("problem", said("camera_lost"))
            elif not was_ok:
                self._notice("info", said("camera_back"))
            self._publish()

    def foreign_code(self, text: str) -> None:
        """A QR code that is none of this game's stickers: counted and ignored (never an
        action)."""
        with self._lock:
            self._foreign_codes += 1
            self._notice("info", said("foreign_code"))
            self._publish()
