"""What the page shows, as JSON-ready data worded in the table's language.

The page's frame is the same for every game: its words (the ``web.*`` keys of the app's
catalogs, :class:`companion.i18n.Catalog`, with each game's own under ``kinds``), the past games
with their sheets, and a live snapshot (``table``, ``prompt``, ``recent``) built by the game's
part of the page (companion/web/games) from the view its session publishes (:func:`from_view`,
the session's game known by its log's format)
or from its stored game replayed (:func:`from_record`).

>>> from companion.i18n import Catalog
>>> words(Catalog("fr"))["kinds"]["complot"]["round_short"]
'M{n}'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from companion.games import kind_of, kinds
from companion.web.games import part

if TYPE_CHECKING:
    from companion.games import GameKind
    from companion.i18n import Catalog
    from companion.session.history import GameSummary
    from companion.session.store import GameRecord, GameStore

#: The page's own words (``web.*`` in the catalogs), sent once with each snapshot.
PAGE_WORDS = (
    "web.title", "web.live", "web.offline", "web.table", "web.recent",
    "web.past", "web.no_game", "web.turn", "web.hand_counts", "web.total",
    "web.winners", "web.download_log", "web.download_csv", "web.bgstats", "web.noah",
    "web.ferry", "web.weight", "web.game", "web.finished", "web.playing", "web.empty",
    "web.refused", "web.bgstats_none", "web.score_sheet",
)


def words(catalog: Catalog) -> dict[str, Any]:
    """The page's words in this catalog's language (templates keep their ``{fields}``), and
    each game's own (``kinds``: the sheet's title, a period's heading, who wins)."""
    found: dict[str, Any] = {key.removeprefix("web."): catalog.text(key) for key in PAGE_WORDS}
    found["kinds"] = {kind.name: {**part(kind).words(catalog),
                                  "title": catalog.text(kind.title_key)}
                      for kind in kinds()}
    return found


def from_view(catalog: Catalog, view: Any, kind: GameKind) -> dict[str, Any]:
    """The live snapshot of a view published by ``kind``'s session (its game's part)."""
    return part(kind).from_view(catalog, view)


def from_record(catalog: Catalog, store: GameStore, entry: GameRecord,
                deck: Any) -> dict[str, Any]:
    """The live snapshot of a stored game, replayed by its own game's part."""
    return part(kind_of(entry)).from_record(catalog, store, entry, deck)


def past_games(summaries: Iterable[tuple[GameSummary, bool]]) -> list[dict[str, Any]]:
    """The record's games with their sheets (newest first), from history summaries, each
    with whether BG Stats can take it (its kind makes a link for it)."""
    return [
        {"id": s.id, "kind": s.kind, "players": list(s.players),
         "started_at": s.started_at, "finished": s.finished,
         "rounds": [list(r) for r in s.rounds], "scores": list(s.scores),
         "winners": s.winner_names, "bgstats": bgstats}
        for s, bgstats in summaries
    ]
