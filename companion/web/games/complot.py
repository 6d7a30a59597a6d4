"""Complot's part of the LAN page: the manche, whose turn, who is still in or must pass, the
scores to the target, the last claims with their verdicts and the cards laid down, the end.

The same snapshot is built from the app's :class:`~companion.complot.session.ComplotView`
(:func:`from_view`) and from a stored game replayed through its
:class:`~companion.complot.table.Table` (:func:`from_record`, the standalone server): both
read alike (``players``, ``manche``, ``current``, ``still_in``, ``must_pass``, ``scores``,
``manches``, ``winners``…) and both give the judged claims as
:class:`~companion.complot.session.ComplotOutcome`, worded by the rules' own messages in the
table's language. A card laid down is drawn on the page as a simple face: its first name and
its category (French names kept, C2), coloured by the category (``cat-XX`` in app.css, the
colours of the app's screens).

>>> from companion.i18n import Catalog
>>> from companion.complot.table import Table
>>> table = Table(["Ana", "Ben", "Chloé"])
>>> leonards = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
...             "leonard:sally", "leonard:sarah"]
>>> outcomes = [_outcome(table, action, table.push(action)) for action in (
...     {"type": "turn", "player": 0},
...     {"type": "claim", "player": 1, "claim": "complot", "cards": leonards})]
>>> shown = live_table(Catalog("fr"), 7, table, outcomes)
>>> shown["turn"], [seat["status"] for seat in shown["seats"]]
('Chloé', ['', 'a posé\xa0: 50', 'joue'])
>>> claim = shown["claims"][0]
>>> claim["accepted"], claim["said"], claim["cards"][0]
(True, 'Six Léonard · 50 pts', {'category': 'LE', 'name': 'Léonard', 'first_name': 'Amélie'})
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.complot.session import defausse_caption
from companion.web.games import NO_GAME

if TYPE_CHECKING:
    from companion.complot.engine import Verdict
    from companion.complot.session import ComplotOutcome
    from companion.complot.table import Table
    from companion.i18n import Catalog
    from companion.session.store import GameRecord, GameStore

KIND = "complot"
#: The last judged claims shown with their cards, and the last outcomes told (newest first).
CLAIMS = 4
RECENT = 6
#: The events of a judged claim: accepted, or wrong and a turn lost (C44).
CLAIM_EVENTS = ("claimed", "wrong_claim")


def words(catalog: Catalog) -> dict[str, str]:
    return {"scores": catalog.text("web.complot.scores"),
            "round": catalog.text("web.complot.manche"),
            "round_short": catalog.text("complot.scores.manche_col"),
            "note": catalog.text("web.complot.note"),
            **{word: catalog.text(f"web.complot.{word}")
               for word in ("claims", "accepted", "wrong", "to_target")}}


def from_view(catalog: Catalog, view: Any) -> dict[str, Any]:
    """A snapshot of the app's Complot session (its outcomes, refusals included)."""
    if not view.has_game:
        return dict(NO_GAME)
    return _snapshot(catalog, view.game_id, view, view.history)


def from_record(catalog: Catalog, store: GameStore, entry: GameRecord,
                deck: Any) -> dict[str, Any]:
    """A stored game of a real table replayed: every line the referee takes, as the session
    does on resume (a refused line changes nothing; an ``undo`` takes back its outcome)."""
    from companion.complot.cards import Deck
    from companion.complot.table import Table

    try:
        table = Table.from_header(entry.header, deck if isinstance(deck, Deck) else None)
    except ValueError:  # the engine's log of a simulated game, or a damaged header
        return {**NO_GAME, "prompt": catalog.text("web.complot.unreadable", n=entry.id)}
    outcomes: list[ComplotOutcome] = []
    for text in store.raw_lines(entry.id).texts:
        action = _json_object(text)
        verdict = table.push(action)
        if verdict.changed and action.get("type") != "undo":
            outcomes.append(_outcome(table, action, verdict))
        del outcomes[len(table.history):]  # an undo line took the last ones back
    return _snapshot(catalog, entry.id, table, outcomes)


def _snapshot(catalog: Catalog, game_id: int | None, table: Any,
              outcomes: Sequence[ComplotOutcome]) -> dict[str, Any]:
    language = catalog.language
    recent = [{"level": "info" if outcome.accepted else "refused",
               "text": outcome.sentence(language)}
              for outcome in outcomes[-RECENT:] if outcome.events or outcome.code]
    return {"table": live_table(catalog, game_id, table, outcomes), "prompt": "",
            "recent": recent}


def live_table(catalog: Catalog, game_id: int | None, table: Any,
               outcomes: Sequence[ComplotOutcome]) -> dict[str, Any]:
    """The table now, from a :class:`Table` or a ``ComplotView`` (the same fields)."""
    players: Sequence[str] = table.players
    current = table.current
    over = table.phase == "game_over"
    return {
        "kind": KIND,
        "game": game_id,
        "players": list(players),
        "manche": table.manche,
        "header": catalog.text("complot.play.header", n=table.manche, level=table.level,
                               target=table.target),
        "target": table.target,
        "turn": players[current] if current is not None and not over else "",
        "seats": [_seat(catalog, table, seat) for seat in range(len(players))],
        "scores": list(table.scores),
        "rounds": [list(points) for points in table.manches],
        "manche_over": _manche_end(catalog, table),
        "defausse": _defausse(catalog, table),
        "pending": _pending(catalog, table),
        "finished": over,
        "winners": [players[seat] for seat in table.winners],
        "end": _winners(catalog, table) if over else "",
        "claims": [_claim(catalog, outcome)
                   for outcome in reversed(outcomes) if _is_claim(outcome)][:CLAIMS],
    }


def _seat(catalog: Catalog, table: Any, seat: int) -> dict[str, Any]:
    """One player: name, total, this manche's points and a word on where they stand."""
    points = table.manche_points[seat] if seat < len(table.manche_points) else 0
    if table.phase != "manche":
        status, state = "", "done"
    elif seat not in table.still_in:
        status, state = catalog.text("complot.play.status_out", points=points), "out"
    elif seat == table.current:
        status, state = catalog.text("complot.play.status_turn"), "turn"
    elif seat in table.must_pass:
        status, state = catalog.text("complot.play.status_pass"), "pass"
    else:
        status, state = "", "in"
    counts = table.hand_counts if state in ("turn", "pass", "in") else ()
    held = counts[seat] if seat < len(counts) else None
    return {"name": table.players[seat], "score": table.scores[seat], "points": points,
            "status": status, "state": state, "hand": held,
            "cards": "" if held is None else catalog.text("complot.play.cards", count=held)}


def _defausse(catalog: Catalog, table: Any) -> dict[str, Any] | None:
    """The top of the «défausse» during a manche: the caption and the card when shown."""
    if table.phase != "manche" or getattr(table, "scores_only", False):
        return None
    top = table.top_of_defausse
    return {"caption": defausse_caption(catalog, table), "blocked": table.top_blocked,
            "card": None if top is None else card_face(top, catalog.language)}


def _manche_end(catalog: Catalog, table: Any) -> str:
    """Why the last manche ended (C51), while the table is between manches or at the end."""
    if table.phase == "manche" or table.end_reason is None:
        return ""
    return "\n".join((catalog.text("complot.scores.manche_over", n=table.manche),
                     catalog.text(f"complot.scores.reason.{table.end_reason}")))


def _pending(catalog: Catalog, table: Any) -> str:
    """A contrôle or descente waiting for its target's defence (levels 2-3, C65), or ""."""
    if table.pending_action is None or table.pending_target is None:
        return ""
    return catalog.text("web.complot.pending", name=table.players[table.pending_target],
                        action=catalog.text(f"complot.action.{table.pending_action}"))


def _winners(catalog: Catalog, table: Any) -> str:
    """The end: the winner, or the players sharing the victory (C55)."""
    names = [table.players[seat] for seat in table.winners]
    points = max(table.scores, default=0)
    if len(names) == 1:
        return catalog.text("complot.scores.winner", name=names[0], points=points)
    return catalog.text("complot.scores.tie", names=catalog.join(names), points=points)


def _is_claim(outcome: ComplotOutcome) -> bool:
    return any(event in CLAIM_EVENTS for event, _ in outcome.events)


def _claim(catalog: Catalog, outcome: ComplotOutcome) -> dict[str, Any]:
    """A judged claim: who, the combination and points or what was wrong, the cards laid."""
    from companion.complot.messages import sentence

    seat = outcome.seat
    name = outcome.players[seat] if seat is not None and seat < len(outcome.players) else ""
    if outcome.accepted and outcome.combination:
        said = " · ".join((catalog.text(f"complot.combo.{outcome.combination}"),
                           catalog.text("complot.play.points", n=outcome.points)))
    else:
        said = sentence(outcome.code or "", catalog.language)
    return {"player": name, "accepted": outcome.accepted, "said": said,
            "cards": [card_face(card, catalog.language) for card in outcome.cards]}


def card_face(card_id: str, language: str = "fr") -> dict[str, str]:
    """What a card shows: its category's code (its colour), the category's name in the
    table's language (docs/complot.md, "Names on the screens") and the card's first name,
    French; an id the box does not know shows as itself.

    >>> card_face("archange:noe"), card_face("etat-major:sophie", "en")["name"]
    ({'category': 'AR', 'name': 'Archange', 'first_name': 'Noé'}, 'General Staff')
    >>> card_face("nobody:x")
    {'category': '', 'name': '', 'first_name': 'nobody:x'}
    """
    from companion.complot.cards import default_deck
    from companion.complot.messages import category_name

    card = default_deck().get(card_id)
    if card is None:
        return {"category": "", "name": "", "first_name": card_id}
    return {"category": card.category, "name": category_name(card.category, language),
            "first_name": card.first_name}


def _outcome(table: Table, action: dict[str, Any], verdict: Verdict) -> ComplotOutcome:
    """A stored line's outcome, as the session told it when the line was played (the
    session's own wording of a verdict, whose seat is the player's)."""
    from dataclasses import replace

    from companion.complot.session import ComplotSession

    seat = action.get("player")
    told = ComplotSession._outcome(table, action, verdict)
    return replace(told, seat=seat if isinstance(seat, int) and 0 <= seat < len(table.players)
                   else None)


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}
