"""Each game's part of the LAN page, found through the game's kind (companion.games).

The page's frame — the token, the events, the score sheet by period, the past games, the
downloads — is the same for every game; what the live table shows and how it is read is each
game's own: ``companion/web/games/<kind>.py`` for the kind named ``<kind>``, a module with
:class:`PagePart`'s functions. Nothing here, nor in the page's script, asks which game it is by
name: the parts are found by the kind (a record's game, :func:`part`) or by the view a session
publishes (:func:`part_of_view`).

>>> from companion.games import find_kind
>>> part(find_kind("complot-table-log")).__name__
'companion.web.games.complot'
>>> part_of_view(object())
Traceback (most recent call last):
...
LookupError: no game's page part shows a object
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, cast

from companion.games import kinds

if TYPE_CHECKING:
    from companion.games import GameKind
    from companion.i18n import Catalog
    from companion.session.store import GameRecord, GameStore

#: What the page shows when no game is on.
NO_GAME: dict[str, Any] = {"table": None, "prompt": "", "recent": []}


class PagePart(Protocol):
    """What the page needs of one game (a module of this package)."""

    __name__: str
    #: The kind's name (``noah``, ``complot``): the ``kind`` of the live tables it builds.
    KIND: str

    def owns(self, view: Any) -> bool:
        """Whether ``view`` is a view this game's referee session publishes."""
        ...

    def words(self, catalog: Catalog) -> dict[str, str]:
        """The game's own words on the page: ``scores`` (the sheet's title), ``round`` and
        ``round_short`` (a period's heading, with ``{n}``), ``note`` (who wins); and those of
        its own table."""
        ...

    def from_view(self, catalog: Catalog, view: Any) -> dict[str, Any]:
        """The live snapshot (``table``, ``prompt``, ``recent``) of a session's view."""
        ...

    def from_record(self, catalog: Catalog, store: GameStore, entry: GameRecord,
                    deck: Any) -> dict[str, Any]:
        """The live snapshot of a stored game, replayed (the standalone server)."""
        ...


def part(kind: GameKind) -> PagePart:
    """The page part of a game kind."""
    return cast(PagePart, import_module(f"{__name__}.{kind.name}"))


def part_of_view(view: Any) -> PagePart:
    """The page part of the game whose session published ``view`` (LookupError if none)."""
    for kind in kinds():
        found = part(kind)
        if found.owns(view):
            return found
    raise LookupError(f"no game's page part shows a {type(view).__name__}")
