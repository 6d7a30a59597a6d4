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
  (:meth:`Session.is_ours`) and handing every event to :meth:`Session.on_vision_event`.

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

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.game.deck import Deck
from companion.session.lights import TableLights
from companion.session.session import Session
from companion.session.store import GameStore
from companion.tags.payload import DEFAULT_DECK_ID

if TYPE_CHECKING:
    from companion.config import Config
    from companion.session.table_observer import PlayLedger, TableObserver
    from hardware.lights import FerryLights
    from vision.pipeline import Pipeline
    from vision.sources import Source
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


def camera_pipeline(source: Source, session: Session, *,
                    also: Callable[[Any], object] | None = None, decoding: Any = None,
                    tracker: TrackerSettings | None = None) -> Pipeline:
    """The vision pipeline on ``source`` feeding ``session`` (not started). ``also(event)``
    runs after the session for each event (a driver waiting on the camera); ``decoding`` is a
    validated ``[decoder]`` section (its decoder and tracker), ``tracker`` other tracker
    settings."""
    from vision.pipeline import Pipeline

    def on_event(event: object) -> None:
        session.on_vision_event(event)
        if also is not None:
            also(event)

    if decoding is not None:
        return Pipeline(source, is_ours=session.is_ours, on_event=on_event,
                        decoder=decoding.decoder(), tracker=decoding.tracker)
    return Pipeline(source, is_ours=session.is_ours, on_event=on_event, tracker=tracker)


def table_observer(session: Session, *, ledger: PlayLedger | None = None,
                   reader: Any = None) -> TableObserver:
    """The referee's eye over the table (``[camera] view = table`` or ``both``): feed it the
    overhead camera's frames (:class:`vision.table_capture.TableFrame`, ``observer.feed``); it
    plays what it sees through the session's intents, and its audit sentences become the
    session's notices with that ferry's light flashing (:meth:`Session.table_finding`). With
    ``both``, pass the same ``ledger`` to :func:`hand_camera_events` so a play is counted once."""
    from companion.session.table_observer import NOT_WARNINGS, TableObserver

    def on_finding(finding: Any) -> None:
        confirm = finding.phrase.key in NOT_WARNINGS
        session.table_finding(finding.text, (finding.phrase,), None if confirm else finding.ferry)

    return TableObserver(session, sticker_card(session), reader=reader, ledger=ledger,
                         on_finding=on_finding)


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
