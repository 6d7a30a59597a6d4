"""A new game's line 1, checked: players, options and score-token colours.

The record's header itself is :func:`companion.session.record.header` (TABLE-LOG's line 1 with
this product's extension fields); this module checks what a person typed before it is written,
and reads the extension fields back from a stored header, tolerating damage.

>>> new_header(["Ana ", "Ben"], {"frog": True}, deck_id="BOX1")["players"]
['Ana', 'Ben']
>>> new_header(["Ana"], None)
Traceback (most recent call last):
...
companion.errors.UserError: Noah is played by 2 to 5 players, not 1. Enter between two and ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from companion.errors import UserError
from companion.game.errors import InputError
from companion.game.options import Options
from companion.game.sizes import MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS
from companion.session import record


def new_header(players: Sequence[str], options: Options | Mapping[str, Any] | None, *,
               score_only: bool = False, deck_id: str = "",
               tokens: Sequence[str] = ()) -> dict[str, Any]:
    """The checked line 1 of a new game (see :func:`check_options`, :func:`check_players`,
    :func:`check_tokens`); raises :class:`UserError` for anything a person has to change."""
    checked = check_options(options, score_only)
    names = check_players(players)
    return record.header(names, checked, deck_id, check_tokens(tokens, len(names)))


def check_options(options: Options | Mapping[str, Any] | None, score_only: bool) -> Options:
    """The game's options: a referee at a table never sees the hands (R48), so ``hidden`` is
    always on; ``score_only`` from the argument or the options.

    >>> check_options({"frog": True}, score_only=False)
    Options(hidden=True, frog=True, crocodile=False, roommates=False, pair_mf=False, \
end_rule='rounds', score_only=False)
    """
    given = options.to_dict() if isinstance(options, Options) else dict(options or {})
    try:
        return Options.from_dict({**given, "hidden": True,
                                  "score_only": score_only or bool(given.get("score_only"))})
    except InputError as error:
        raise UserError(error.message, "Choose the game's options again.") from None


def check_players(players: Sequence[str]) -> tuple[str, ...]:
    """The players' names, stripped: 2 to 5 of them, none empty, no two alike.

    >>> check_players([" Ana", "Ben "])
    ('Ana', 'Ben')
    """
    names = tuple(name.strip() for name in players)
    if len(names) not in PLAYER_COUNTS:
        raise UserError(f"Noah is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                        f"not {len(names)}.",
                        "Enter between two and five names.", key="error.player_count",
                        count=len(names))
    if any(not name for name in names):
        raise UserError("A player has no name.", "Give every player a name.",
                        key="error.player_unnamed")
    if len(set(names)) != len(names):
        raise UserError("Two players have the same name.", "Add an initial to tell them apart.",
                        key="error.player_twice")
    return names


def check_tokens(tokens: Sequence[str], players: int) -> tuple[str, ...]:
    """One short colour name per player, or none at all (the default colours by seat).

    >>> check_tokens(["green", "red"], 2)
    ('green', 'red')
    """
    tokens = tuple(tokens)
    if tokens and (len(tokens) != players or not all(
            isinstance(t, str) and 0 < len(t) <= 20 for t in tokens)):
        raise UserError(f"Give one token colour per player ({players}), each a short name.",
                        "Choose the players' colours again.", key="error.tokens")
    return tokens


class StoredHeader(NamedTuple):
    """What the session reads back from a game's line 1."""

    players: tuple[str, ...]
    options: Options
    tokens: tuple[str, ...]  # () when absent or damaged: the default colours by seat


def read_header(header: Mapping[str, Any]) -> StoredHeader:
    """The players, options and token colours of a stored line 1 (``{}``: no game).

    >>> read_header({"players": ["Ana", "Ben"], "options": {"score_only": True}}).options.score_only
    True
    """
    return StoredHeader(tuple(header.get("players", ())),
                        Options.from_dict(header.get("options", {})), stored_tokens(header))


def stored_tokens(header: Mapping[str, Any]) -> tuple[str, ...]:
    """The header's token colours; a damaged entry is ignored (default colours are shown).

    >>> stored_tokens({"players": ["Ana", "Ben"], "tokens": ["green"]})
    ()
    """
    tokens = header.get("tokens")
    players = header.get("players", ())
    if isinstance(tokens, list) and len(tokens) == len(players) \
            and all(isinstance(t, str) for t in tokens):
        return tuple(tokens)
    return ()
