"""Where the page's data comes from: the record opened read-only, and the app's session views.

:class:`RecordFollower` opens the SQLite record with ``mode=ro`` (never the writer's lock) and
re-reads it only when SQLite's ``PRAGMA data_version`` says another connection committed
something; a finished game's summary is replayed once and kept. :class:`Feed` holds what the
page shows now and serializes it once per change for every phone.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.errors import UserError
from companion.game.deck import Deck
from companion.games import GameKind
from companion.i18n import Catalog
from companion.web import snapshot

#: How many past games the page lists (the newest first).
PAST_GAMES = 20


class RecordFollower:
    """The record at ``path``, read-only, re-read when it changes (cheap to poll ~4×/s)."""

    def __init__(self, path: Path, deck: Deck) -> None:
        from companion.session.store import GameStore

        if not path.is_file():
            raise UserError(f"There is no game record at {path}.",
                            "Give the record's file (noah-companion history --db FILE lists it).")
        self.path, self.deck = path, deck
        self.store = GameStore.reader(path)
        uri = f"file:{quote(str(path.absolute()))}?mode=ro"
        self._version = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._seen: int | None = None
        self._summaries: dict[tuple[int, str], Any] = {}
        self._lock = threading.Lock()  # polls run in a worker thread; one at a time

    def changed(self) -> bool:
        """Whether another connection committed since the last call (True the first time)."""
        with self._lock:
            version = self._version.execute("PRAGMA data_version").fetchone()[0]
            fresh, self._seen = version != self._seen, version
            return fresh

    def games(self) -> list[tuple[Any, bool]]:
        """History summaries of the newest games (each replayed once per change), each with
        whether BG Stats takes it."""
        with self._lock:
            entries = self.store.games()[:PAST_GAMES]
            summaries = []
            for entry in entries:
                key = (entry.id, f"{entry.updated_at}/{entry.actions}")
                if key not in self._summaries:
                    self._summaries[key] = self._summary(entry)
                summaries.append(self._summaries[key])
            return summaries

    def _summary(self, entry: Any) -> tuple[Any, bool]:
        """A game's summary, and whether its kind makes it a BG Stats link (a finished game
        of a kind that has one)."""
        from companion.session.bgstats import summary_url
        from companion.session.history import summarize

        summary = summarize(self.store, entry, self.deck)
        try:
            bgstats = summary.finished and bool(summary_url(self.store, summary))
        except UserError:  # this game's kind has no BG Stats link
            bgstats = False
        return summary, bgstats

    def newest_live(self, catalog: Catalog) -> dict[str, Any] | None:
        """The newest game replayed by its own game's part, as the page's live snapshot (None
        when the record holds none)."""
        with self._lock:
            entries = self.store.games()
            if not entries:
                return None
            return snapshot.from_record(catalog, self.store, entries[0], self.deck)

    def export(self, game_id: int, fmt: str) -> str:
        """One game as ``log`` or ``csv`` (the export command's code)."""
        from companion.session.history import export_game

        with self._lock:
            return export_game(self.store, game_id, self.deck, fmt)[0]

    def bgstats_link(self, game_id: int) -> str:
        """The https BG Stats link of a finished game ("" when it is not finished; a
        UserError when its game has no BG Stats link)."""
        from companion.session.bgstats import summary_url, web_link
        from companion.session.history import summarize

        with self._lock:
            entry = self.store.game(game_id)
            summary = summarize(self.store, entry, self.deck)
            if not summary.finished:
                return ""
            # a button, not a QR code: the scores per period fit in the comments
            return web_link(summary_url(self.store, summary, rounds=True))

    def close(self) -> None:
        with self._lock:
            self._version.close()
            self.store.close()


class Feed:
    """What the page shows now, and its serialized form (rebuilt once per change)."""

    def __init__(self, language: str) -> None:
        self.catalog = Catalog(language)
        self.words = snapshot.words(self.catalog)
        self.live: dict[str, Any] = {"table": None, "prompt": "", "recent": []}
        self.games: list[dict[str, Any]] = []
        self.version = 0
        self._payload = b""

    def take_view(self, view: Any, kind: GameKind) -> None:
        """A view of ``kind``'s session. Each game has its own session: one with no game on
        does not hide another game's table (the app's Noah session stays idle while Complot is
        played)."""
        live = snapshot.from_view(self.catalog, view, kind)
        shown = self.live.get("table")
        if live["table"] is None and shown is not None and shown.get("kind") != kind.name:
            return
        self.live = live
        self._changed()

    def take_live(self, live: dict[str, Any]) -> None:
        """A live snapshot already built (a stored game replayed)."""
        self.live = live
        self._changed()

    def take_games(self, summaries: list[Any]) -> None:
        self.games = snapshot.past_games(summaries)
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._payload = b""

    def payload(self) -> bytes:
        """Everything the page needs, as JSON bytes (cached until the next change)."""
        if not self._payload:
            data = {"version": self.version, "language": self.catalog.language,
                    "words": self.words, "live": self.live, "games": self.games}
            self._payload = json.dumps(data, ensure_ascii=False,
                                       separators=(",", ":")).encode("utf-8")
        return self._payload
