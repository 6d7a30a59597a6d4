"""The composition root: the one place that wires camera → session → lights.

The referee session (:mod:`companion.session`) knows neither the camera nor the GPIO pins: it
takes sticker texts, touches and button presses as intents and drives anything with the
:class:`~companion.session.lights.TableLights` methods. This module builds the real parts and
connects them, the same way for the app (:mod:`companion.ui.app`), ``noah-companion demo``
(:mod:`companion.sim.demo`) and the tests:

* :func:`open_session` — the record, deck and deck id of the config file, and the lights
  (their buttons are routed to :meth:`Session.ferry_pressed`);
* :func:`open_lights` — the ferry lights of ``[lights]``, virtual when the pins cannot be
  opened (not a Pi), with the reason;
* :func:`camera_pipeline` — the vision pipeline on a camera source, keeping only our stickers
  (:meth:`Session.is_ours`) and handing every event to :meth:`Session.on_vision_event`;
* :func:`table_observer`, :func:`table_camera` — the overhead camera (``[camera] view = table``
  or ``both``): its capture thread feeding the table observer, which plays what it sees
  through the session's intents;
* :func:`open_cameras` — the cameras a ``[camera] view`` asks for, wired together: with
  ``both`` the two report plays through one :class:`~companion.session.table_observer.PlayLedger`
  (a play is never counted twice) and their condition as one (:class:`CameraHealth`);
* :class:`GameInPlay` — the session of the game being played (one per game kind of
  :mod:`companion.games`): the hand camera's codes go to it, whichever game it is.

It lives at the top of ``companion`` (not in ``session``, ``ui`` or ``sim``) because it is the
only module that imports the session, the vision pipeline and the hardware together, and the
app, the demo and the tests all sit above it.

>>> import pathlib, tempfile
>>> from companion.session import GameStore
>>> from vision.synthetic import Scene, SyntheticSource
>>> session = assemble(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite"))
>>> pipeline = camera_pipeline(SyntheticSource(Scene(width=320, height=180)), session)
>>> pipeline.source.name, session.view.prompt.kind
('synthetic camera 320×180', 'no_game')
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from companion.game.deck import Deck
from companion.session.lights import TableLights
from companion.session.session import Session
from companion.session.store import GameStore
from companion.tags.payload import DEFAULT_DECK_ID

if TYPE_CHECKING:
    from companion.config import Config
    from companion.session.table_observer import (
        Finding,
        ObservedSession,
        PlayLedger,
        Reader,
        TableObserver,
    )
    from hardware.lights import FerryLights
    from vision.config import DecoderSettings
    from vision.events import CameraStatus
    from vision.pipeline import Pipeline
    from vision.sources import Source
    from vision.table_capture import TableCapture, TableFrame, TableSource
    from vision.tracker import TrackerSettings


def assemble(store: GameStore, *, lights: TableLights | None = None, deck: Deck | None = None,
             deck_id: str = DEFAULT_DECK_ID) -> Session:
    """A session on ``store`` driving ``lights`` (their buttons call its ``ferry_pressed``)."""
    return Session(store, lights=lights, deck=deck, deck_id=deck_id)


def open_session(config: Config | None = None, *, lights: TableLights | None = None,
                 store: GameStore | None = None) -> Session:
    """The session the app runs: the record at ``[store] path`` (or ``store``), the deck and
    deck id of ``[game]``; ``config`` defaults to the user's config file."""
    from companion.config import load_config
    from companion.tags.tagged_deck import load_tagged_deck

    config = config if config is not None else load_config()
    tagged = load_tagged_deck(config.game.deck, config.game.deck_id)
    return assemble(store if store is not None else GameStore(config.store.path),
                    lights=lights, deck=tagged.deck, deck_id=tagged.deck_id)


def open_lights(section: Mapping[str, str], *, virtual: bool) -> tuple[FerryLights, str]:
    """The ferry lights of ``[lights]``; when the pins cannot be opened (not a Pi), virtual
    ones so the screen still shows them, with the reason ("" when the real pins opened)."""
    from hardware.lights import FerryLights

    if not virtual:
        try:
            return FerryLights.from_section(section), ""
        except Exception as error:  # the pins' own error types: the table goes on without
            return FerryLights.from_section(section, virtual=True), str(error)
    return FerryLights.from_section(section, virtual=True), ""


def camera_pipeline(source: Source, session: Refereed, *,
                    also: Callable[[object], object] | None = None,
                    decoding: DecoderSettings | None = None,
                    tracker: TrackerSettings | None = None,
                    events: Callable[[object], object] | None = None) -> Pipeline:
    """The vision pipeline on ``source`` feeding ``session`` (not started). ``also(event)``
    runs after the session for each event (a driver waiting on the camera); ``decoding`` is a
    validated ``[decoder]`` section (its decoder and tracker), ``tracker`` other tracker
    settings; ``events`` replaces :meth:`Session.on_vision_event` (the hand camera with
    ``view = both``: :func:`open_cameras`)."""
    from vision.pipeline import Pipeline

    to_session = events or session.on_vision_event

    def on_event(event: object) -> None:
        to_session(event)
        if also is not None:
            also(event)

    if decoding is not None:
        return Pipeline(source, is_ours=session.is_ours, on_event=on_event,
                        decoder=decoding.decoder(), tracker=decoding.tracker)
    return Pipeline(source, is_ours=session.is_ours, on_event=on_event, tracker=tracker)


SHORT_LOOK = True
"""Whether the app's observer asks the overhead camera for a short exposure of a ferry unread
under a highlight (docs/table-view.md, "A short exposure"): a camera that cannot take one (a USB
camera, a video, a folder of stills) declines and nothing changes. On since issue 19's glare
sweep with short frames names no buried code that main's reader does not name without the
highlight (docs/benchmarks.md, branch ``tshort``); ``False`` gives the observer no camera to
ask."""


def table_observer(session: Session, *, ledger: PlayLedger | None = None,
                   reader: Reader | None = None,
                   intents: ObservedSession | None = None,
                   camera: object = None) -> TableObserver:
    """The referee's eye over the table (``[camera] view = table`` or ``both``): feed it the
    overhead camera's frames (:class:`vision.table_capture.TableFrame`, ``observer.feed``); it
    plays what it sees through the session's intents, and its audit sentences become the
    session's notices with that ferry's light flashing (:meth:`Session.table_finding`). With
    ``both``, pass the same ``ledger`` to :func:`hand_camera_events` so a play is counted once.
    ``intents``: the session's intents seen through a watcher (``table referee``: every step
    made is also an event), the session itself by default. ``camera``: the overhead camera,
    asked for a short exposure of a ferry unread under a highlight when it can take one (the
    Pi camera: docs/table-view.md, "A short exposure")."""
    from companion.session.table_observer import NOT_WARNINGS, TableObserver

    def on_finding(finding: Finding) -> None:
        confirm = finding.phrase.key in NOT_WARNINGS
        session.table_finding((finding.phrase,), None if confirm else finding.ferry)

    return TableObserver(intents or session, sticker_card(session), reader=reader,
                         ledger=ledger, on_finding=on_finding, camera=camera)


def hand_camera_events(session: Session, ledger: PlayLedger) -> Callable[[object], None]:
    """The hand camera's pipeline callback with ``view = both``: card events go through the
    ledger shared with :func:`table_observer` (one play per presentation), the rest to
    :meth:`Session.on_vision_event`."""
    return ledger.hand_events(session, sticker_card(session))


def sticker_card(session: Session) -> Callable[[str], str | None]:
    """A sticker text's card id in the session's deck (None: not one of this box's cards)."""
    from companion.tags.payload import TagOk, classify

    def card_of(text: str) -> str | None:
        tag = classify(text, session.deck, session.deck_id)
        return tag.card.id if isinstance(tag, TagOk) else None

    return card_of


class Refereed(Protocol):
    """What a camera feeds: any game's session (companion.session.base), or a
    :class:`GameInPlay` standing for the one in play."""

    def is_ours(self, text: str) -> bool: ...

    def on_vision_event(self, event: object) -> None: ...


class GameSession(Refereed, Protocol):
    """A game's session as :class:`GameInPlay` knows it: its table log's ``format`` names its
    game kind (companion.games)."""

    @property
    def log_format(self) -> str: ...


class GameInPlay:
    """The hand camera's codes to the session of the game being played.

    The app has one session per game kind (companion.games: Noah's, Complot's), all on one
    record; the camera has one pipeline. This stands between them: :meth:`is_ours` and the
    card events go to the session of the game chosen (:meth:`choose`, by the kind's name), the
    camera's condition to every session (each says it on its own screens, and it is still
    right after the table changes game). A session joins with :meth:`add`, under the kind its
    ``log_format`` names; ``events`` replaces its ``on_vision_event`` (Noah's with ``view =
    both``: the table's ledger). The first session added is in play.

    >>> class Referee:
    ...     def __init__(self, log_format, magic):
    ...         self.log_format, self.magic, self.seen = log_format, magic, []
    ...     def is_ours(self, text): return text.startswith(self.magic)
    ...     def on_vision_event(self, event): self.seen.append(event)
    >>> noah = Referee("noah-table-log", "NOAH1/")
    >>> complot = Referee("complot-table-log", "CPLT1/")
    >>> played = GameInPlay(noah)
    >>> played.add(complot)
    'complot'
    >>> played.is_ours("CPLT1/BOX1/LEEM"), played.choose("complot").is_ours("CPLT1/BOX1/LEEM")
    (False, True)
    >>> played.on_vision_event("a card"); complot.seen, noah.seen
    (['a card'], [])
    >>> played.choose("chess")
    Traceback (most recent call last):
    ...
    companion.errors.UserError: There is no game 'chess' in this app. Choose noah or complot.
    """

    def __init__(self, session: GameSession, *,
                 events: Callable[[object], None] | None = None) -> None:
        self._sessions: dict[str, tuple[GameSession, Callable[[object], None]]] = {}
        self._lock = threading.Lock()
        self._name = self.add(session, events=events)

    def add(self, session: GameSession, *,
            events: Callable[[object], None] | None = None) -> str:
        """``session`` referees its game kind from now on (the one it had before is let go);
        the kind's name, for :meth:`choose`."""
        from companion.games import find_kind

        name = find_kind(session.log_format).name
        with self._lock:
            self._sessions[name] = (session, events or session.on_vision_event)
        return name

    def choose(self, name: str) -> GameInPlay:
        """The camera's codes go to the session of ``name`` from now on (UserError when the
        app has no session of that game: nothing changes)."""
        with self._lock:
            if name not in self._sessions:
                from companion.errors import UserError

                raise UserError(f"There is no game {name!r} in this app.",
                                f"Choose {' or '.join(self._sessions)}.",
                                key="error.unknown_game", name=name)
            self._name = name
        return self

    @property
    def name(self) -> str:
        """The game kind in play (``noah``, ``complot``)."""
        return self._name

    def has(self, name: str) -> bool:
        """Has the game kind ``name`` a session here yet?"""
        return name in self._sessions

    @property
    def session(self) -> GameSession:
        """The session of the game in play."""
        return self._sessions[self._name][0]

    def is_ours(self, text: str) -> bool:
        """Is ``text`` a sticker of the game in play (any thread)?"""
        return self.session.is_ours(text)

    def on_vision_event(self, event: object) -> None:
        """A pipeline event (any thread): the camera's condition to every session, the rest
        to the game in play's."""
        from vision.events import CameraStatus

        if isinstance(event, CameraStatus):
            with self._lock:
                every = [events for _session, events in self._sessions.values()]
            for events in every:
                events(event)
            return
        self._sessions[self._name][1](event)


class StatusListener(Protocol):
    """What :class:`CameraHealth` tells: the session's camera condition."""

    def camera_status(self, ok: bool, message: str = "") -> None: ...


class CameraHealth:
    """Two cameras' condition as one for the session (``view = both``): it is told of each
    camera's :class:`~vision.events.CameraStatus` and tells the session
    (:meth:`Session.camera_status`) when the pair changes: a camera lost while the other works
    is still said (the banner: cards by touch meanwhile), and "back" only once both work.

    >>> from vision.events import CameraState, CameraStatus
    >>> said = []
    >>> class Table:
    ...     def camera_status(self, ok, message=""): said.append((ok, message))
    >>> health = CameraHealth(Table())
    >>> health.report("hand", CameraStatus(CameraState.OK, "Hand camera working.", at=0.0))
    >>> health.report("table", CameraStatus(CameraState.LOST, "Table camera lost.", at=1.0))
    >>> health.report("hand", CameraStatus(CameraState.LOST, "Hand camera lost.", at=2.0))
    >>> health.report("table", CameraStatus(CameraState.OK, "Table camera back.", at=3.0))
    >>> said
    [(True, 'Hand camera working.'), (False, 'Table camera lost.'), (False, 'Hand camera lost.')]
    """

    def __init__(self, session: StatusListener) -> None:
        self.session = session
        self._problems: dict[str, str] = {}
        self._said: tuple[bool, str] | None = None
        self._lock = threading.Lock()

    def report(self, camera: str, status: CameraStatus) -> None:
        """``camera`` ("hand" or "table") is in condition ``status`` (any thread)."""
        with self._lock:
            if status.ok:
                self._problems.pop(camera, None)
            else:
                self._problems[camera] = status.message
            ok = not self._problems
            # this camera works again while the other does not: the other's sentence stays
            others = iter(self._problems.values())
            message = status.message if ok or not status.ok else next(others)
            said = self._said
            if said is not None and said[0] == ok and (ok or said[1] == message):
                return  # nothing new for the table
            self._said = (ok, message)
        self.session.camera_status(ok, message)


def table_camera(source: TableSource, *, observer: TableObserver | None = None,
                 on_status: Callable[[CameraStatus], object] | None = None,
                 also: Callable[[TableFrame], object] | None = None) -> TableCapture:
    """The overhead camera's capture thread on ``source`` (not started): each frame goes to
    ``observer.feed`` (when given: the referee's eye, :func:`table_observer`), then to
    ``also(frame)`` (the calibration screen's look); the camera's condition to ``on_status``
    (a session's, or :class:`CameraHealth`'s). Without an observer it is a camera to look
    through only (the calibration screen with ``view = hand``)."""
    from vision.table_capture import TableCapture

    def on_frame(frame: TableFrame) -> None:
        if observer is not None:
            observer.feed(frame)
        if also is not None:
            also(frame)

    return TableCapture(source, on_frame, on_status=on_status)


@dataclass
class Cameras:
    """The cameras of one ``[camera] view``, wired to a session (:func:`open_cameras`):
    ``hand`` the hand camera's pipeline, ``table`` the overhead camera's capture, ``observer``
    the referee's eye over the table (each ``None`` when the view has none); ``played`` the
    session of the game in play, which the hand camera feeds (:class:`GameInPlay`: another
    game's session joins it with ``add``)."""

    view: str
    played: GameInPlay
    hand: Pipeline | None = None
    table: TableCapture | None = None
    observer: TableObserver | None = None

    def start(self) -> None:
        for camera in (self.hand, self.table):
            if camera is not None:
                camera.start()

    def stop(self) -> None:
        """Stop both threads and release both cameras."""
        for camera in (self.hand, self.table):
            if camera is not None:
                camera.stop()


def open_cameras(session: Session, view: str, *, hand: Source | None = None,
                 table: TableSource | None = None, decoding: DecoderSettings | None = None,
                 also_hand: Callable[[object], object] | None = None,
                 also_table: Callable[[TableFrame], object] | None = None,
                 reader: Reader | None = None) -> Cameras:
    """The cameras ``view`` asks for (``hand``, ``table`` or ``both``) on the sources given,
    feeding ``session`` (nothing started). ``hand``: the hand camera's pipeline as ever;
    ``table``: the overhead camera with the table observer, its condition the session's;
    ``both``: both, their plays through one :class:`PlayLedger` and their condition through
    :class:`CameraHealth`. ``also_hand``/``also_table`` see each event/frame after the session.
    The hand camera feeds ``cameras.played`` (:class:`GameInPlay`): ``session``'s game until
    another game's session is added and chosen; the overhead camera referees ``session``'s.

    >>> import pathlib, tempfile
    >>> from companion.session import GameStore
    >>> session = assemble(GameStore(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite"))
    >>> from vision.table_capture import FedTableSource
    >>> cameras = open_cameras(session, "table", table=FedTableSource("rendered table"))
    >>> cameras.hand is None, cameras.table.name, cameras.observer is not None
    (True, 'rendered table', True)
    """
    from companion.session.table_observer import PlayLedger

    cameras = Cameras(view, GameInPlay(session))
    if view == "hand":
        if hand is not None:
            cameras.hand = camera_pipeline(hand, cameras.played, also=also_hand,
                                           decoding=decoding)
        return cameras
    ledger = PlayLedger()
    health = CameraHealth(session)
    cameras.observer = table_observer(session, ledger=ledger, reader=reader,
                                      camera=table if SHORT_LOOK else None)
    if table is not None:
        cameras.table = table_camera(table, observer=cameras.observer, also=also_table,
                                     on_status=lambda status: health.report("table", status))
    if view == "both" and hand is not None:
        cards = hand_camera_events(session, ledger)

        def hand_events(event: object) -> None:
            from vision.events import CameraStatus

            if isinstance(event, CameraStatus):
                health.report("hand", event)
            else:
                cards(event)

        cameras.played.add(session, events=hand_events)
        cameras.hand = camera_pipeline(hand, cameras.played, also=also_hand, decoding=decoding)
    return cameras
