"""The games the companion referees, each a *kind* chosen by its table log's ``format``.

python-chess's variants are the model: ``find_variant(name)`` gives a board class from a PGN
header's ``Variant``; here :func:`find_kind` gives a :class:`GameKind` from a table log's
``format`` (``noah-table-log``, ``complot-table-log``) or from the config's ``[game] kind``
(``noah``, ``complot``). Everything above the rules engines that differs between games — the
session class, the sticker codec, how a log is replayed on the command line, how a stored game
is read for the history, the CSV export and BG Stats — is asked of the kind, never decided by an
``if`` on the game's name.

>>> find_kind("complot-table-log").name
'complot'
>>> find_kind("noah").log_format
'noah-table-log'
>>> [kind.name for kind in kinds()]
['noah', 'complot']
>>> find_kind("chess")
Traceback (most recent call last):
...
companion.errors.UserError: There is no game 'chess' here. Choose noah or complot.

Registering a third game is one line of :data:`_WHERE` and a module with its ``KIND`` (see
docs/architecture.md, "The game seam"); the kinds' modules are imported on first use, so that
reading the config or ``--help`` loads no engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from companion.errors import UserError
from companion.game.errors import shown

if TYPE_CHECKING:
    from companion.session.base import SessionBase
    from companion.session.bgstats import PlayFacts
    from companion.session.history import GameSummary
    from companion.session.store import GameRecord, GameStore
    from companion.tags.tagged_deck import StickeredDeck

#: Each kind's name and the module holding its ``KIND``, in the order the app offers them.
_WHERE = {
    "noah": "companion.games.noah",
    "complot": "companion.games.complot",
}
#: The kind of a record whose header names no game (companion.session.store.UNSTATED_FORMAT).
DEFAULT_KIND = "noah"
NAMES = tuple(_WHERE)


class StickerCodec(Protocol):
    """A game's sticker text, ``MAGIC<v>/<deck>/<body>`` (companion/tags, companion/complot):
    each game its own magic, so a card of one game is a foreign code to the other."""

    MAGIC: str
    DEFAULT_DECK_ID: str

    def is_ours(self, text: str) -> bool: ...


class GameKind(Protocol):
    """What the layers above the rules engines need of one game."""

    #: ``[game] kind`` in the config: ``noah``, ``complot``.
    name: str
    #: The table log's ``format`` (line 1): ``noah-table-log``...
    log_format: str
    #: The game's name in English (the command line); the catalogs' key of its title
    #: (``games.noah``), for the screens.
    title: str
    title_key: str
    #: The game's own words for a scoring period and its points, in the history and the CSV.
    period: str
    points: str

    def session_class(self) -> type[SessionBase[Any, Any]]:
        """The referee session of this game (built on companion.session.base)."""
        ...

    def codec(self) -> StickerCodec:
        """The sticker codec of this game's cards."""
        ...

    def stickered_deck(self, deck: str | None, deck_id: str | None) -> StickeredDeck:
        """The box whose stickers ``tags print`` and ``tags check`` make and check: ``deck``
        (a deck file, or ``default``) and ``deck_id`` from the command line, else the config's
        where this game has them there."""
        ...

    def configured_deck_id(self) -> str | None:
        """The deck id the referee expects on this game's stickers (the config's), or None
        when the config names none for this game."""
        ...

    def summarize(self, store: GameStore, entry: GameRecord, deck: Any = None) -> GameSummary:
        """One stored game replayed into the history's summary (never raises for a damaged
        game). ``deck``: the box the config names, when it is this game's; else the game's
        default deck."""
        ...

    def bgstats_facts(self, store: GameStore, entry: GameRecord) -> PlayFacts:
        """What BG Stats needs of one stored game besides its players and scores: the game
        as BG Stats names it, who started, the variant (companion/session/bgstats.py makes
        the link, the same for every game; UserError when this game has none)."""
        ...

    def replay(self, lines: Iterable[bytes], out: TextIO, *, name: str, json_mode: bool,
               states: bool, strict: bool) -> int:
        """``noah-companion replay``: judge a log's lines (the header first) and print the
        verdicts and the final table to ``out``; the exit status (0, 1 with ``strict`` and a
        refusal, 2 for a malformed log). ``name`` names the log in errors."""
        ...


def find_kind(format_or_name: str) -> GameKind:
    """The kind a table log's ``format`` or a config's ``kind`` names (UserError if none)."""
    for module in _WHERE.values():
        kind: GameKind = importlib.import_module(module).KIND
        if format_or_name in (kind.name, kind.log_format):
            return kind
    raise UserError(f"There is no game {shown(format_or_name)!r} here.",
                    f"Choose {' or '.join(NAMES)}.", key="error.unknown_game",
                    name=shown(format_or_name))


def kinds() -> Iterator[GameKind]:
    """Every game, in the order the app offers them."""
    return (find_kind(name) for name in NAMES)


def kind_of(entry: GameRecord) -> GameKind:
    """The kind of a stored game, from its header's ``format``; a header naming a game this
    version does not know is read as :data:`DEFAULT_KIND`'s, which reports it as damaged."""
    try:
        return find_kind(entry.format)
    except UserError:
        return find_kind(DEFAULT_KIND)


def kind_of_log(first_line: bytes | str) -> GameKind:
    """The kind of a table log from its first line; a line that is not a header naming a
    known game gives :data:`DEFAULT_KIND`, whose replay then says what is wrong with it.

    >>> kind_of_log(b'{"format": "complot-table-log", "version": 1}').name
    'complot'
    >>> kind_of_log("not json").name
    'noah'
    """
    import json

    try:
        header = json.loads(first_line)
    except (ValueError, RecursionError):
        header = None
    form = header.get("format") if isinstance(header, dict) else None
    try:
        return find_kind(form) if isinstance(form, str) else find_kind(DEFAULT_KIND)
    except UserError:
        return find_kind(DEFAULT_KIND)
