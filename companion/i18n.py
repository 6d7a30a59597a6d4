"""The app's words in several languages: one JSON catalog per language in ``locales/``.

A catalog maps keys to sentences with ``{named}`` fields. Keys cover the screens (``home.*``,
``table.*``…), the session's prompts (``prompt.<kind>``), the engine's reason codes
(``reason.<code>``, TABLE-LOG.md) and the species. English is complete and the fallback; adding a
language (the Chinese edition exists) is adding ``locales/zh.json`` with the same keys.

Prompts are worded from their fields, not from the session's English sentence, so every
language says the same thing. What the session, the table observer and the record say (what to
put back after an undo, a difference between the table and the record) is a :class:`Phrase`:
a key and raw facts, worded here in every language, English included (:func:`english`, the
words of the CLI and the demo): a notice has no English of its own. The keys are the engine's
``reason.<code>[.<variant>]`` and ``event.<kind>`` (companion.game.messages), the session's
``notice.<name>`` (``NOTICE_KEYS`` in companion.session.notices), ``undo.<name>``
(``UNDO_KEYS`` in companion.session.reconcile), ``audit.<name>`` (``TABLE_KEYS`` in
companion.session.table_observer) and ``damaged.again``. A phrase the language cannot word is
shown in English.

A sentence that counts something has one wording per plural category of the language (CLDR's,
through Babel): ``{"one": "{count} card", "other": "{count} cards"}``. The count is the param
named by ``"_by"`` (``count`` when absent). English and French say "one"/"other" (French "one"
covers 0 and 1), Chinese has only "other".

>>> fr = Catalog.load("fr")
>>> fr.text("table.ferry", n=3)
'N°\xa03'
>>> fr.card_label("cat:F#2"), Catalog.load("en").card_label("snail:M#1")
('Chat ♀', 'Snail ♂')
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence, Sized
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from companion.game.deck import parse_ref
from companion.game.errors import InputError

if TYPE_CHECKING:
    from babel import Locale

    from companion.session.steps import Step

LOCALES = Path(__file__).with_name("locales")
#: Params that are a player's name (``of_<param>`` says "of" that player: ``d'Ana``).
NAMES = ("name", "holder", "target", "target_name", "current_name", "starter_name")
FALLBACK = "en"
#: How every catalog addresses a prompt to a player: the name, then a colon ("Ana: …",
#: "Ana : …", "Ana：…"; tests/ui/test_i18n_catalogs.py checks each catalog keeps to it).
ADDRESS = r"[ \u00a0\u202f]?[:：][ \u00a0]?"


class Phrase(NamedTuple):
    """One sentence as data: a catalog key and the raw facts it is worded from.

    Params are raw facts, not words: card refs (``card``, ``cards``), ferries numbered 1-5
    (``ferry``), player names, counts; a param may itself be a phrase (``source``). A
    ``variant`` param picks a variant of the key (``undo.put_back.all``).
    """

    key: str
    params: Mapping[str, Any]


def template_key(phrase: Phrase) -> str:
    """The key of the phrase's template, its ``variant`` included.

    >>> template_key(Phrase("undo.put_back", {"variant": "all"}))
    'undo.put_back.all'
    """
    variant = phrase.params.get("variant")
    return f"{phrase.key}.{variant}" if variant else phrase.key


def english(phrase: Phrase) -> str:
    """The phrase in English: the words of the session's notices, the CLI and the demo (the
    screens word it in the table's language). The rules engine's verdicts (``reason.*``,
    ``event.*``) are worded by the engine itself (companion.game.messages, the words of its
    TABLE-LOG replay too); every other phrase by the English catalog.

    >>> english(Phrase("undo.take_off", {"cards": ["cat:F#2"], "ferry": 2, "name": "Ana"}))
    "Take the ♀ cat back from ferry 2 into Ana's hand."
    >>> english(Phrase("audit.cards_missing", {"ferry": 1, "cards": ["cat:F#1", "bear:M#1"]}))
    'Ferry 1 should hold the ♀ cat and the ♂ bear; it shows no card: put them back (bottom first).'
    >>> english(Phrase("event.noah_moved", {"ferry": 4}))
    'Noah moves to ferry 4.'
    """
    kind, _, code = phrase.key.partition(".")
    if kind in ("reason", "event"):
        from companion.game.messages import render, render_event

        return render(code, phrase.params) if kind == "reason" else render_event(code,
                                                                                 phrase.params)
    words = english_catalog().phrase(phrase)
    if words is None:
        raise KeyError(f"{template_key(phrase)} has no English wording in {FALLBACK}.json")
    return words


def sentences(phrases: Sequence[Phrase]) -> str:
    """Phrases in English, one sentence after the other: a notice's or an outcome's text.

    >>> sentences([Phrase("notice.redo", {}), Phrase("event.turn", {"name": "Ben"})])
    "Redo: Ben's turn."
    """
    return english_catalog().text("words.sentence_sep").join(english(phrase)
                                                             for phrase in phrases)


@cache
def english_catalog() -> Catalog:
    """The English catalog, the words of the terminal (loaded once)."""
    return Catalog(FALLBACK)


def languages() -> list[str]:
    """The languages with a catalog, e.g. ``['en', 'fr']``."""
    return sorted(path.stem for path in LOCALES.glob("*.json"))


#: A catalog's value: a sentence, or one sentence per CLDR plural category (and ``_by``).
Entry = str | dict[str, str]
#: Babel's name of each catalog's locale (the Chinese edition is Traditional Chinese).
LOCALE_NAMES = {"zh": "zh_Hant_TW"}


@cache
def _entries(language: str) -> dict[str, Entry]:
    path = LOCALES / f"{language}.json"
    if not path.exists():
        return {}
    entries: dict[str, Entry] = json.loads(path.read_text(encoding="utf-8"))
    return entries


@cache
def _locale(language: str) -> Locale:
    from babel import Locale  # imported when a count is first worded: keeps `--help` fast

    return Locale.parse(LOCALE_NAMES.get(language, language))


def plural_category(language: str, count: Any) -> str:
    """The CLDR plural category of ``count`` in ``language`` (``one``, ``other``…); a
    collection counts its items.

    >>> plural_category("en", 1), plural_category("en", 0), plural_category("fr", 0)
    ('one', 'other', 'one')
    >>> plural_category("zh", 1), plural_category("en", ["cat:F#1"])
    ('other', 'one')
    """
    if isinstance(count, Sized) and not isinstance(count, str):
        count = len(count)
    try:
        number = int(count)
    except (TypeError, ValueError):
        return "other"
    return str(_locale(language).plural_form(number))


def choose(entry: Entry, language: str, params: Mapping[str, Any]) -> str:
    """The wording of a catalog entry for these params: its plural variant when it has some.

    >>> choose({"one": "{count} card", "other": "{count} cards"}, "en", {"count": 1})
    '{count} card'
    >>> choose({"_by": "owed", "one": "a", "other": "b"}, "fr", {"owed": 3})
    'b'
    """
    if isinstance(entry, str):
        return entry
    category = plural_category(language, params.get(entry.get("_by", "count")))
    return entry.get(category, entry["other"])


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
        entry = self._own.get(key)
        language = self.language
        if entry is None:
            entry, language = self._fallback.get(key, key), FALLBACK
        template = choose(entry, language, params)
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
        if not gender:
            return self.species(species)
        # Chinese writes the sign against the name (大象♀): a space would let a line break
        # between an animal and its gender
        return self.text("words.card_label", species=self.species(species),
                         sign=self.text("sign." + gender))

    def prompt(self, prompt: Any, players: Sequence[str], *, named: bool = True,
               reading: str = "hand") -> str:
        """The one sentence saying what the table must do now, from the prompt's fields.

        A prompt addressed to a player starts with their name and a colon ("Ana: move Noah to
        ferry 2."); with ``named=False`` (the table, whose title already shows whose turn it
        is) the sentence comes alone ("Move Noah to ferry 2."), leaving room for the answers.
        ``reading`` is where the cards are read (``hand``, ``table`` or ``both``, the
        ``[camera] view``): the round-end hand scan asks to lay the hand beside the ferries
        when the overhead camera reads it.
        """
        text = self._prompt(prompt, players, reading)
        if named or prompt.player is None or not players:
            return text
        name = players[prompt.player]
        found = re.match(re.escape(name) + ADDRESS, text)
        if not found:
            return text
        rest = text[found.end():]
        return rest[:1].upper() + rest[1:]

    def _prompt(self, prompt: Any, players: Sequence[str], reading: str = "hand") -> str:
        kind: Step = prompt.kind
        fields: dict[str, Any] = {
            "player": players[prompt.player] if prompt.player is not None and players else "",
            **self._prompt_facts(prompt, players),
        }
        key = f"prompt.{kind}"
        if kind == "choose_target":
            key = f"prompt.choose_target.{prompt.action}"
        elif kind == "move_noah" and prompt.giraffe_targets:
            key = "prompt.move_noah_giraffe"
        elif kind == "scan_hand" and reading != "hand":
            key = f"prompt.scan_hand_{reading}"
        elif kind == "no_game" and prompt.unfinished:
            key = "prompt.no_game.unfinished"
        return self.text(key, **fields)

    def _prompt_facts(self, prompt: Any, players: Sequence[str]) -> dict[str, Any]:
        """A prompt's fields in this language's words: ferries numbered from 1, Noah's choices
        joined with "or" ("3 or 4", as the refusal says it, never "3 / 4"), the card fleeing
        from the crocodile named, the winners and every score at the game's end."""
        facts = {name: getattr(prompt, name) for name in ("count", "expected", "round")
                 if hasattr(prompt, name)}
        if hasattr(prompt, "ferry"):
            facts["ferry"] = prompt.ferry + 1
        if prompt.kind == "move_noah":
            facts["ferries"] = self.join([str(k + 1) for k in prompt.choices], "words.or")
        if prompt.kind == "scan_hand":
            facts["scanned"] = len(prompt.scanned)
        if prompt.kind == "choose_target":
            facts.update(self._card_words(prompt.card))
        if prompt.kind == "game_over":
            names = [players[seat] for seat in prompt.winners if seat < len(players)]
            facts.update(winners=len(names), winner_names=self.join(names),
                         scores=self.scores(list(zip(players, prompt.scores, strict=False))))
        return facts

    def notice(self, notice: Any, players: Sequence[str] = ()) -> str:
        """A session notice (or an intent's outcome) for the table: its phrases worded in this
        language, a phrase this language cannot word in English. With the table's ``players``,
        a resumed game is named by its players, not by its number.

        >>> from companion.session.view import Notice
        >>> from companion.session.notices import said
        >>> resumed = Notice("info", said("resumed", game=4))
        >>> resumed.text, Catalog("en").notice(resumed, ["Ana", "Ben"])
        ('Game 4 resumed where it stopped.', 'The game of Ana and Ben goes on where it stopped.')
        """
        if players and any(phrase.key == "notice.resumed" for phrase in notice.phrases):
            return self.text("notice.resumed_players", of_players=self.of(self.join(players)))
        parts = [self._said(phrase) for phrase in notice.phrases]
        return self.text("words.sentence_sep").join(part for part in parts if part)

    def _said(self, phrase: Phrase) -> str:
        """A notice's phrase in this language, else in English; a phrase nothing can word
        shows as its key (as :meth:`text` does), never a crash on the table's screen."""
        own = self.phrase(phrase) if self.language != FALLBACK else None  # en: english()
        try:
            return own or english(phrase)
        except (KeyError, IndexError, ValueError):
            return template_key(phrase)

    def error(self, error: Any) -> str:
        """A :class:`~companion.errors.UserError` for a person on the screen: its key worded
        in this language (English too: the screen's sentence may differ from the terminal's,
        e.g. no ``--db`` on a touchscreen), else its English sentences.

        >>> from companion.config import yes_or_no
        >>> try:
        ...     yes_or_no("ui", "sounds", "maybe")
        ... except Exception as error:
        ...     print(Catalog("fr").error(error).replace("\xa0", " "))
        [ui] sounds = « maybe » n'est ni yes ni no. Écrivez sounds = yes ou sounds = no.
        """
        key = getattr(error, "key", None)
        if key and self.has(key):
            return self.text(key, **error.params)
        return str(error)

    def phrase(self, phrase: Phrase) -> str | None:
        """One phrase in this language, or None when the catalog has no wording for it."""
        key = template_key(phrase)
        entry = self._own.get(key, self._own.get(phrase.key))
        if entry is None:
            return None
        template = choose(entry, self.language, phrase.params)
        try:
            return template.format_map(self._words(phrase.params))
        except (KeyError, IndexError, ValueError, TypeError):
            return None

    def _words(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A phrase's raw facts turned into this language's words (cards, genders, lists)."""
        words = dict(params)
        for name, value in params.items():
            if isinstance(value, Phrase):
                words[name] = self.phrase(value) or english(value)
        words.update(self._card_words(params.get("card")))
        for name in NAMES:
            if isinstance(params.get(name), str):
                words[f"of_{name}"] = self.of(params[name])
        if "cards" in params:
            words["cards"] = self.cards(params["cards"])
        if "species" in params:
            words["species"] = self.species(params["species"])
        for fact, word in (("needed", "needed_word"), ("top", "top_word")):
            if params.get(fact) in ("M", "F"):
                words[word] = self.text(f"gender.{params[fact]}")
        words.update(self._list_words(params))
        return words

    def _card_words(self, card: Any) -> dict[str, Any]:
        """A phrase's ``card`` (a reference or a species) as this language names it."""
        if not (isinstance(card, str) and (_is_ref(card) or self.has(f"species.{card}"))):
            return {}
        label = self.card_label(card) if _is_ref(card) else self.species(card)
        named = self.card(card)
        return {"label": label, "copy": parse_ref(card).copy if _is_ref(card) else None,
                "card": named, "animal": named, "Card": named[:1].upper() + named[1:]}

    def _list_words(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """A phrase's lists (fleeing cards, Noah's choices, players, winners, scores, gifts)
        joined in this language."""
        words: dict[str, Any] = {}
        if params.get("fleeing_card"):
            words["fleeing"] = self.cards([params["fleeing_card"]])
        if "noah_choices" in params:
            words["choices"] = self.join([str(n) for n in params["noah_choices"]], "words.or")
        if isinstance(params.get("players"), (list, tuple)):
            words["players"] = self.join(params["players"])
        if "names" in params:
            words["winner_names"] = self.join(params["names"])
        if "scores" in params and isinstance(params["scores"], list):
            words["scores"] = self.scores(params["scores"])
        if "gifts" in params:
            words["gifts"] = self.join([self.text("undo.gift", giver=giver, count=count)
                                        for giver, count in params["gifts"]])
        return words

    def scores(self, scores: Sequence[tuple[str, Any]]) -> str:
        """Players' scores in a sentence: a default name keeps its number apart from the score
        ("Player 4 (5), Player 5 (2)", never "Player 4 5").

        >>> Catalog("zh").scores([("玩家4", 5), ("Ben", 2)])
        '玩家4（5）、Ben（2）'
        """
        return self.text("words.list_sep").join(
            self.text("round.tears_of", name=name, tears=score) for name, score in scores)

    def card(self, card: str) -> str:
        """A card (a reference, or a species) in a sentence, with its article.

        ``words.card`` names a gendered card, ``words.card.<species>`` a species' own way
        (a snail's side), ``words.card_ungendered`` a card without gender; their fields are the
        tile's ``label``, the ``sign`` and the species' name in lower case (``animal``).

        >>> en, fr = Catalog("en"), Catalog("fr")
        >>> en.card("cat:F#2"), en.card("snail:M#1"), en.card("snail#3"), fr.card("cat:F#2")
        ('the ♀ cat', 'the snail (♂ side up)', 'the snail', 'la carte Chat ♀')
        """
        species, gender = parse_ref(card)[:2] if _is_ref(card) else (card, None)
        fields = {"label": self.card_label(card) if gender else self.species(species),
                  "sign": self.text(f"sign.{gender}") if gender else "",
                  "animal": self.species(species).lower()}
        if gender is None:
            return self.text("words.card_ungendered", **fields)
        own = f"words.card.{species}"
        return self.text(own if self.has(own) else "words.card", **fields)

    def cards(self, refs: Sequence[str]) -> str:
        """Several cards in a sentence: ``la carte Chat ♀``, ``les cartes Chat ♀ et Lion ♂``.

        >>> Catalog("en").cards(["cat:F#2", "lion:M#1"]), Catalog("en").cards([])
        ('the ♀ cat and the ♂ lion', 'no card')
        """
        if not refs:
            return self.text("words.no_card")
        if len(refs) == 1:
            return self.card(refs[0])
        return self.text("words.cards", labels=self.join([self.card_label(r) for r in refs]),
                         named=self.join([self.card(ref) for ref in refs]))

    def of(self, name: str) -> str:
        """``de Ben``, ``d'Ana``: a player's name after "of" (French elides before a vowel).

        >>> Catalog("fr").of("Ana"), Catalog("fr").of("Ben"), Catalog("en").of("Ana")
        ("d'Ana", 'de Ben', 'of Ana')
        >>> Catalog("fr").of("Joueur 1"), Catalog("en").of("Player 1")
        ('du Joueur 1', 'of Player 1')
        """
        if self.has("words.of_default") and self._is_default_name(name):
            return self.text("words.of_default", name=name)  # "du Joueur 1"
        vowel = name[:1].lower() in "aeiouyàâäéèêëîïôöùûü" and self.has("words.of_vowel")
        return self.text("words.of_vowel" if vowel else "words.of", name=name)

    def _is_default_name(self, name: str) -> bool:
        """Whether ``name`` is the new game screen's placeholder ("Joueur 3")."""
        before, _, after = self.text("new.player", n="{n}").partition("{n}")
        return re.fullmatch(re.escape(before) + r"\d+" + re.escape(after), name) is not None

    def join(self, items: Sequence[str], word: str = "words.and") -> str:
        """``A, B and C`` in this language (``word`` is the key of the last joining word)."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        first = self.text("words.list_sep").join(items[:-1])
        return self.text("words.join_last", first=first, word=self.text(word), last=items[-1])


def _is_ref(text: str) -> bool:
    try:
        parse_ref(text)
    except InputError:
        return False
    return True

