"""The referee session: one headless coordinator of a game at a real table.

Camera events, touches and ferry buttons come in as intents of :class:`Session`; it checks each
with the rules engine, writes it to the durable record (:class:`GameStore`, SQLite) before
acknowledging it, drives the ferry lights and publishes an immutable :class:`SessionView` whose
:class:`~companion.session.prompts.Prompt` says what is awaited. The Kivy app and
``noah-companion demo`` are views over it. See docs/session.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.game.lazy import exports

if TYPE_CHECKING:  # what mypy sees; at run time each name is imported when first used
    from companion.paths import default_store_path
    from companion.session.intents import Outcome, TableIntents
    from companion.session.prompts import (
        PROMPT_KINDS,
        ChooseCard,
        ChooseFrogWeight,
        ChooseNoahStart,
        ChooseSnailSide,
        ChooseStarter,
        ChooseTarget,
        EnterTears,
        GameOver,
        GiveCards,
        MoveNoah,
        NoGame,
        PlayCard,
        Prompt,
        ScanHand,
        ScanSetupCard,
    )
    from companion.session.session import Session
    from companion.session.store import GameRecord, GameStore
    from companion.session.view import Notice, SessionView

#: Where each name of the package's interface lives: imported on first use, so that importing
#: one small module of the package (``errors``, ``narrate``) does not load all of it (the
#: command line's ``--help`` stays instant).
_WHERE = {
    "Outcome": "companion.session.intents",
    "TableIntents": "companion.session.intents",
    "PROMPT_KINDS": "companion.session.prompts",
    "ChooseCard": "companion.session.prompts",
    "ChooseFrogWeight": "companion.session.prompts",
    "ChooseNoahStart": "companion.session.prompts",
    "ChooseSnailSide": "companion.session.prompts",
    "ChooseStarter": "companion.session.prompts",
    "ChooseTarget": "companion.session.prompts",
    "EnterTears": "companion.session.prompts",
    "GameOver": "companion.session.prompts",
    "GiveCards": "companion.session.prompts",
    "MoveNoah": "companion.session.prompts",
    "NoGame": "companion.session.prompts",
    "PlayCard": "companion.session.prompts",
    "Prompt": "companion.session.prompts",
    "ScanHand": "companion.session.prompts",
    "ScanSetupCard": "companion.session.prompts",
    "Session": "companion.session.session",
    "GameRecord": "companion.session.store",
    "GameStore": "companion.session.store",
    "default_store_path": "companion.paths",
    "Notice": "companion.session.view",
    "SessionView": "companion.session.view",
}


__getattr__ = exports(__name__, _WHERE)

__all__ = [
    "PROMPT_KINDS", "ChooseCard", "ChooseFrogWeight", "ChooseNoahStart", "ChooseSnailSide",
    "ChooseStarter", "ChooseTarget", "EnterTears", "GameOver", "GameRecord", "GameStore",
    "GiveCards", "MoveNoah", "NoGame", "Notice", "Outcome", "PlayCard", "Prompt", "ScanHand",
    "ScanSetupCard", "Session", "SessionView", "TableIntents", "default_store_path",
]
