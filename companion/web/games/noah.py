"""Noah's part of the LAN page: the five ferries with the animals, Noah, whose turn, the hands.

A snapshot is built from the same facts the app draws (the engine's TABLE-LOG state dict, the
round scores, the session's notices and prompt), worded with the app's catalogs. Two sources
build one: the app's published :class:`~companion.session.view.SessionView` (:func:`from_view`:
prompt and notices included) and a game replayed from the record (:func:`from_record`: the
standalone server, where refusals are not recorded, shows the last accepted actions instead).

>>> from companion.i18n import Catalog
>>> state = {"round": 1, "noah": 2, "ferries": [["cat:F#1"], [], [], [], []],
...          "weights": [2, 0, 0, 0, 0], "capacities": [21] * 5, "current_player": 1,
...          "hand_counts": [7, 6], "scores": [0, 0], "game_over": False}
>>> table = live_table(Catalog("fr"), 4, ("Ana", "Ben"), state, ())
>>> table["ferries"][0]["cards"][0]["label"], table["turn"], table["noah"], table["kind"]
('Chat ♀', 'Ben', 3, 'noah')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from companion.game.deck import parse_ref
from companion.web.games import NO_GAME

if TYPE_CHECKING:
    from companion.i18n import Catalog
    from companion.session.record import GameReading
    from companion.session.store import GameRecord, GameStore

KIND = "noah"
#: Notices and accepted actions shown under the table (the newest last).
RECENT = 6


def words(catalog: Catalog) -> dict[str, str]:
    return {"scores": catalog.text("web.scores"), "round": catalog.text("web.round"),
            "round_short": catalog.text("web.round_short"),
            "note": catalog.text("web.tears_note")}


def live_table(catalog: Catalog, game_id: int | None, players: Sequence[str],
               state: Mapping[str, Any], rounds: Sequence[Sequence[int]]) -> dict[str, Any]:
    """The table now: ferries with their animals, Noah (ferry 1-5), whose turn, hands, scores."""
    ferries = state.get("ferries") or []
    weights = state.get("weights") or [0] * len(ferries)
    capacities = state.get("capacities") or [0] * len(ferries)
    current = state.get("current_player")
    noah = state.get("noah")
    return {
        "kind": KIND,
        "game": game_id,
        "players": list(players),
        "round": state.get("round"),
        "noah": noah + 1 if isinstance(noah, int) else None,
        "turn": players[current] if isinstance(current, int) and current < len(players) else "",
        "hand_counts": list(state.get("hand_counts") or ()),
        "scores": list(state.get("scores") or ()),
        "rounds": [list(r) for r in rounds],
        "finished": bool(state.get("game_over")),
        "winners": [players[seat] for seat in state.get("winners") or () if seat < len(players)],
        "ferries": [  # a ferry that left this round is None in the state
            {"n": n + 1, "weight": weights[n] or 0, "capacity": capacities[n] or 0,
             "departed": cards is None, "cards": [_card(catalog, ref) for ref in cards or ()]}
            for n, cards in enumerate(ferries)
        ],
    }


def _card(catalog: Catalog, ref: str) -> dict[str, str]:
    species = parse_ref(ref)[0]
    return {"species": species, "label": catalog.card_label(ref)}


def from_view(catalog: Catalog, view: Any) -> dict[str, Any]:
    """A snapshot of the app's session view (prompt and last notices worded)."""
    if not view.has_game:
        return dict(NO_GAME)
    table = live_table(catalog, view.game_id, view.players, view.state, view.round_scores)
    return {
        "seq": view.seq,  # the record's line count: which accepted action this shows
        "table": table,
        "prompt": catalog.prompt(view.prompt, view.players),
        "recent": [{"level": notice.level, "text": catalog.notice(notice)}
                   for notice in view.notices[-RECENT:]],
    }


def from_record(catalog: Catalog, store: GameStore, entry: GameRecord,
                deck: Any) -> dict[str, Any]:
    """A snapshot of a stored Noah game replayed (to its last good move when damaged)."""
    from companion.game.deck import Deck, default_deck
    from companion.session.record import read_game

    box = deck if isinstance(deck, Deck) else default_deck()
    return from_reading(catalog, read_game(store, entry, box))


def from_reading(catalog: Catalog, reading: GameReading) -> dict[str, Any]:
    """A snapshot of a game replayed from the record (the last accepted actions as sentences,
    in English as the table log words them)."""
    from companion.game.tablelog import describe_action

    game = reading.game
    if game is None:
        return dict(NO_GAME)
    players = reading.entry.players
    rounds = [tears for _, tears in reading.round_scores]
    recent = [{"level": "info", "text": describe_action(action, players)}
              for action in game.history[-RECENT:]]
    return {"table": live_table(catalog, reading.entry.id, players, game.state(), rounds),
            "prompt": "", "recent": recent}
