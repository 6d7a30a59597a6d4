"""The referee session: one headless coordinator of a game at a real table.

Camera events, touches and ferry buttons come in as intents of :class:`Session`; it checks each
with the rules engine, writes it to the durable record (:class:`GameStore`, SQLite) before
acknowledging it, drives the ferry lights and publishes an immutable :class:`SessionView` whose
:class:`~companion.session.prompts.Prompt` says what is awaited. The Kivy app and
``noah-companion demo`` are views over it. See docs/session.md.
"""

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

__all__ = [
    "PROMPT_KINDS", "ChooseCard", "ChooseFrogWeight", "ChooseNoahStart", "ChooseSnailSide",
    "ChooseStarter", "ChooseTarget", "EnterTears", "GameOver", "GameRecord", "GameStore",
    "GiveCards", "MoveNoah", "NoGame", "Notice", "Outcome", "PlayCard", "Prompt", "ScanHand",
    "ScanSetupCard", "Session", "SessionView", "TableIntents", "default_store_path",
]
