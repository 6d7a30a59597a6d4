"""A damaged game in the app: resume it up to its last good move, abandon it, or delete it.

When the table resumes a game whose record is damaged (a line that is not JSON or not legal, an
undo of more than was played, a page of the file that cannot be read), the session raises
:class:`~companion.session.record.DamagedGame` and changes nothing. :func:`resume` (what the
home and history screens call) then opens :class:`DamagedGamePopup`: where the record breaks
and why, which lines resuming would set aside (kept in the record, never lost) and what the
table puts back, in the undo's own words (R55), with three choices: "Resume up to the last good
move", "Abandon" and "Delete" (both confirmed). Nothing in the record changes before a choice.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.errors import UserError
from companion.i18n import english
from companion.session.record import DamagedGame, DroppedLine, GameReading
from companion.session.view import Phrase

KV = Path(__file__).with_name("damaged.kv")
#: Dropped lines listed one by one; more are counted, not listed (the popup has one screen).
MAX_LISTED = 6

if str(KV) not in Builder.files:
    Builder.load_file(str(KV))


def resume(app: Any, game_id: int | None = None) -> None:
    """Resume a game (the newest unfinished one by default) as the app's "Resume" does; a
    damaged one opens its choices instead of an error."""
    app.showing_result = False
    try:
        app.session.resume(game_id)
    except DamagedGame as damaged:
        DamagedGamePopup(damaged.reading).open()
    except UserError as error:
        app.message(app.catalog.error(error))


class DamagedGamePopup(ModalView):
    """The table's choice for a damaged game (see the module's text). ``reading``: Noah's
    damaged record, explained line by line. Another game's session (``session``, default the
    app's Noah session) gives its ``game_id`` and its sentence (``details``) instead, and
    ``then`` runs once the game is resumed, abandoned or deleted (its own screens)."""

    title = StringProperty("")
    details = StringProperty("")
    resumable = BooleanProperty(True)

    def __init__(self, reading: GameReading | None = None, *, session: Any = None,
                 game_id: int = 0, details: str = "",
                 then: Callable[[], object] | None = None, **kwargs: Any) -> None:
        self.reading = reading
        super().__init__(**kwargs)
        app = App.get_running_app()
        self.session = session if session is not None else app.session
        self._game_id = reading.entry.id if reading is not None else game_id
        self._then = then
        self.resumable = reading.resumable if reading is not None else True
        self.title = app.t("damaged.title", game=self._game_id)
        self.details = "\n".join(explain(app.catalog, reading)) if reading is not None \
            else details

    @property
    def game_id(self) -> int:
        return self._game_id

    def resume_to_last_good_move(self) -> None:
        self.dismiss()
        app = App.get_running_app()
        app.showing_result = False
        app.act(self.session.resume, self.game_id, to_last_good_move=True)
        self._done()

    def ask(self, choice: str) -> None:
        """``abandon`` or ``delete``, once the table confirms it."""
        app = App.get_running_app()
        intent = self.session.abandon_game if choice == "abandon" else self.session.delete_game

        def confirmed() -> None:
            self.dismiss()
            app.act(intent, self.game_id)
            self._done()

        ConfirmPopup(app.t(f"damaged.confirm_{choice}", game=self.game_id), confirmed).open()

    def _done(self) -> None:
        if self._then is not None:
            self._then()


class ConfirmPopup(ModalView):
    """A yes/no question; ``on_yes`` runs only on "Yes"."""

    question = StringProperty("")

    def __init__(self, question: str, on_yes: Callable[[], None], **kwargs: Any) -> None:
        self._on_yes = on_yes
        super().__init__(**kwargs)
        self.question = question

    def answer(self, yes: bool) -> None:
        self.dismiss()
        if yes:
            self._on_yes()


def explain(catalog: Any, reading: GameReading) -> list[str]:
    """The popup's text in the catalog's language: where the game breaks, the lines resuming
    sets aside, and what the table puts back.

    >>> from companion.session.record import Damage
    >>> from companion.session.store import GameRecord
    >>> from companion.i18n import Catalog
    >>> entry = GameRecord(3, "", "", {"players": ["Ana", "Ben"]}, False, False, {}, 4)
    >>> reading = GameReading(entry, ("{}",) * 5, None, damage=Damage(1, "No header."))
    >>> explain(Catalog("en"), reading)
    ['Its first line (the players and options) is damaged, so it cannot be resumed.']
    """
    damage = reading.damage
    if damage is None or not reading.resumable:
        return [catalog.text("damaged.header")]
    where = ("damaged.where" if catalog.language == "en" else "damaged.where_short")
    lines = [catalog.text(where, line=damage.line, reason=damage.reason), "",
             catalog.text("damaged.dropped", count=len(reading.lines) - reading.keep)]
    players = reading.entry.players
    for dropped in reading.dropped[:MAX_LISTED]:
        lines.append("  • " + catalog.text("damaged.line", line=dropped.line,
                                          what=_dropped_words(catalog, dropped, players)))
    if len(reading.dropped) > MAX_LISTED:
        lines.append("  • …")
    if reading.put_back:
        lines += ["", catalog.text("damaged.put_back")]
        for phrase in reading.put_back:
            lines.append("  • " + (catalog.phrase(phrase) or english(phrase)))
    return lines


def _dropped_words(catalog: Any, dropped: DroppedLine, players: list[str]) -> str:
    """A dropped line in words: the English description, or the catalog's own wording."""
    if catalog.language == "en":
        return dropped.text
    action = dropped.action
    if action is not None:
        facts = _facts(action, players)
        words = catalog.phrase(Phrase(f"damaged.action.{action.type}", facts))
    elif dropped.undo_count:
        words = catalog.phrase(Phrase("damaged.action.undo", {"count": dropped.undo_count}))
    else:
        words = catalog.phrase(Phrase("damaged.action.other", {}))
    words = words or dropped.text
    return words if dropped.accepted or action is None else catalog.text("damaged.refused",
                                                                         what=words)


def _facts(action: Any, players: list[str]) -> dict[str, Any]:
    """The raw facts of an action for a phrase: names, card, ferries numbered 1-5."""
    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    facts: dict[str, Any] = {"name": name(getattr(action, "player", None)),
                             "target": name(getattr(action, "target", None))}
    if getattr(action, "card", None):
        facts["card"] = action.card
    for field in ("ferry", "to"):
        if isinstance(getattr(action, field, None), int):
            facts[field] = getattr(action, field) + 1
    return facts
