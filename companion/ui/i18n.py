"""The app's words in several languages: one JSON catalog per language in ``locales/``.

A catalog maps keys to sentences with ``{named}`` fields. Keys cover the screens (``home.*``,
``table.*``…), the session's prompts (``prompt.<kind>``), the engine's reason codes
(``reason.<code>``, TABLE-LOG.md) and the species. English is complete and the fallback; adding a
language (the Chinese edition exists) is adding ``locales/zh.json`` with the same keys.

Prompts are worded from their fields, not from the session's English sentence, so every
language says the same thing. A refusal in English keeps the engine's own sentence (it names
the rule with the actual cards); other languages word the reason code.

>>> fr = Catalog.load("fr")
>>> fr.text("table.ferry", n=3)
'Ferry 3'
>>> fr.card_label("cat:F#2"), Catalog.load("en").card_label("snail:M#1")
('Chat ♀', 'Snail ♂')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from companion.game.deck import parse_ref

LOCALES = Path(__file__).with_name("locales")
FALLBACK = "en"


def languages() -> list[str]:
    """The languages with a catalog, e.g. ``['en', 'fr']``."""
    return sorted(path.stem for path in LOCALES.glob("*.json"))


@cache
def _entries(language: str) -> dict[str, str]:
    path = LOCALES / f"{language}.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


class Catalog:
    """The sentences of one language, falling back to English key by key."""

    def __init__(self, language: str) -> None:
        self.language = language if language in languages() else FALLBACK
        self._own = _entries(self.language)
        self._fallback = _entries(FALLBACK)

    @classmethod
    def load(cls, language: str) -> Catalog:
        return cls(language)

    def text(self, key: str, **params: Any) -> str:
        """The sentence for ``key`` with its fields filled; an unknown key shows as itself, so a
        missing translation is visible on screen instead of crashing the app."""
        template = self._own.get(key, self._fallback.get(key, key))
        try:
            return template.format(**params)
        except (KeyError, IndexError, ValueError):
            return template

    def has(self, key: str) -> bool:
        return key in self._own

    # -- game words ------------------------------------------------------------------------

    def species(self, species: str) -> str:
        return self.text(f"species.{species}")

    def card_label(self, ref: str) -> str:
        """A card as printed on a tile: species and gender sign (never colour alone)."""
        species, gender, _ = parse_ref(ref)
        sign = f" {self.text('sign.' + gender)}" if gender else ""
        return f"{self.species(species)}{sign}"

    def prompt(self, prompt: Any, players: Sequence[str]) -> str:
        """The one sentence saying what the table must do now, from the prompt's fields."""
        kind = prompt.kind
        fields: dict[str, Any] = {
            "player": players[prompt.player] if prompt.player is not None and players else "",
        }
        if kind == "choose_target":
            return self.text(f"prompt.choose_target.{prompt.action}", **fields)
        if kind == "move_noah":
            if prompt.giraffe_targets:
                return self.text("prompt.move_noah_giraffe", **fields)
            fields["ferries"] = " / ".join(str(k + 1) for k in prompt.choices)
        for name in ("ferry",):
            if hasattr(prompt, name):
                fields[name] = getattr(prompt, name) + 1
        for name in ("count", "expected", "round"):
            if hasattr(prompt, name):
                fields[name] = getattr(prompt, name)
        if kind == "scan_hand":
            fields["scanned"] = len(prompt.scanned)
        return self.text(f"prompt.{kind}", **fields)

    def notice(self, notice: Any) -> str:
        """A session notice for the table. English shows the session's sentence; another
        language words a refusal from its reason code (the sentence itself stays English when
        the catalog has no wording for it)."""
        if self.language == FALLBACK or notice.level != "refused":
            return notice.text
        if notice.reason and self.has(f"reason.{notice.reason}"):
            return self.text(f"reason.{notice.reason}")
        return notice.text

