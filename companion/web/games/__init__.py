"""Each game's part of the LAN page, found through the game's kind (companion.games).

The page's frame — the token, the events, the score sheet by period, the past games, the
downloads — is the same for every game; what the live table shows and how it is read is each
game's own: ``companion/web/games/<kind>.py`` for the kind named ``<kind>``, a module with
:class:`PagePart`'s functions. Nothing here, nor in the page's script, asks which game it is by
name: the parts are found by the kind (:func:`part`), the record's game's or the one whose
session publishes the view (``WebServer.follow``: by the session's log format).

>>> from companion.games import find_kind
>>> part(find_kind("complot-table-log")).__name__
'companion.web.games.complot'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from companion.games import GameKind
    from companion.i18n import Catalog
    from companion.session.store import GameRecord, GameStore

#: What the page shows when no game is on.
NO_GAME: dict[str, Any] = {"table": None, "prompt": "", "recent": []}


class PagePart(Protocol):
    """What the page needs of one game (a module of this package)."""

    __name__: str

    def words(self, catalog: Catalog) -> dict[str, str]:
        """The game's own words on the page: ``scores`` (the sheet's title), ``round`` and
        ``round_short`` (a period's heading, with ``{n}``), ``note`` (who wins); and those of
        its own table."""
        ...

    def from_view(self, catalog: Catalog, view: Any) -> dict[str, Any]:
        """The live snapshot (``table``, ``prompt``, ``recent``) of a view of this game's
        session."""
        ...

    def from_record(self, catalog: Catalog, store: GameStore, entry: GameRecord,
                    deck: Any) -> dict[str, Any]:
        """The live snapshot of a stored game, replayed (the standalone server)."""
        ...


def part(kind: GameKind) -> PagePart:
    """The page part of a game kind."""
    return cast(PagePart, import_module(f"{__name__}.{kind.name}"))
