"""The 93 cards of «Noé, Complot à l'Élysée» as data (RULINGS-COMPLOT C1–C7, C64).

Every physical card is unique (C2): its id is ``<category slug>:<first-name slug>`` and its
sticker body is the two-letter category code followed by the two-letter first-name code (C6).

>>> deck = default_deck()
>>> len(deck), len(deck.for_level(1)), len(deck.for_level(3))
(93, 79, 93)
>>> card = deck["etat-major:noe"]
>>> card.first_name, card.category_name, card.grade, card.code
('Noé', 'État-Major', 1, 'EMNO')
>>> deck.by_code("SEAB").id
'senechales:abigail'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

#: Category code → (slug in card ids, French name), in the deck's stable order (C6).
CATEGORIES: dict[str, tuple[str, str]] = {
    "EM": ("etat-major", "État-Major"),
    "EN": ("enqueteurs", "Enquêteurs"),
    "ES": ("espions", "Espions"),
    "LE": ("leonard", "Léonard"),
    "AL": ("alphas", "Alphas"),
    "SE": ("senechales", "Sénéchales"),
    "EP": ("empires", "Empires"),
    "PO": ("pompiers", "Pompiers"),
    "JO": ("journalistes", "Journalistes"),
    "DU": ("duron", "Famille Duron"),
    "AR": ("archange", "Archange"),
    "AT": ("attentat", "Attentats"),
    "RO": ("espion-rouge", "Espions rouges"),
    "VI": ("espion-violet", "Espions violets"),
    "PB": ("poseur-bombe", "Poseurs de bombes"),
}
CHARACTER_CATEGORIES = ("EM", "EN", "ES", "LE", "AL", "SE", "EP", "PO", "JO", "DU")
JOKER = "AR"
VILLAIN_CATEGORIES = ("AT", "RO", "VI", "PB")
ATTENTAT, RED_SPY, VIOLET_SPY, BOMB_SETTER = VILLAIN_CATEGORIES

#: First-name code → French first name (C2, C6).
FIRST_NAMES: dict[str, str] = {
    "AB": "Abigaïl", "AM": "Amélie", "AR": "Arthur", "CA": "Camille", "CL": "Clara",
    "DA": "David", "EL": "Elena", "EM": "Emma", "ES": "Estelle", "ET": "Etienne",
    "FR": "Franck", "HE": "Henri", "JA": "Jacquotte", "KA": "Karl", "MC": "Marc",
    "MR": "Marie", "MX": "Max", "NA": "Naomie", "NO": "Noé", "RO": "Rose", "SL": "Sally",
    "SD": "Sandy", "SA": "Sarah", "SI": "Sindy", "SO": "Sophie", "SU": "Susy",
    "GA": "Gabrielle", "IS": "Ismaëlle", "IG": "Igor",
    "TO": "Todorov", "AX": "Alexandrov", "SM": "Simeonova", "BA": "Babouchka Anna",
    "SV": "Svetlana", "VA": "Valentina", "OL": "Olga", "IR": "Irina",
}
NOE = "NO"

#: The character table (C2 with C3's Famille Duron column): category → first-name codes.
_CHARACTERS: dict[str, str] = {
    "EM": "AB AR DA HE KA MX NO SA SO",
    "EN": "AM AR CL DA EM HE MX NO SA",
    "ES": "AB AM AR CL EL EM FR HE KA MR MX NO SA SI SO",
    "LE": "AM AR CL EM SL SA",
    "AL": "KA NA SL SD SO",
    "SE": "AB EL MR RO SA SU",
    "EP": "HE KA MR MX NO SA SO",
    "PO": "CA CL ET",
    "JO": "EM ES MC",
    "DU": "CA CL DA EM ES ET HE JA MC NO SA",
    "AR": "NO GA IS IG SA",
    "AT": "TO AX SM BA SV",
    "RO": "VA OL IR",
    "VI": "VA OL IR",
    "PB": "VA OL IR",
}

#: Grade ranks of C64 by first name (1 = Major Général, the highest): the rank belongs to the
#: first name, for État-Major and Enquêteurs cards alike.
GRADES: dict[str, int] = {
    "NO": 1, "SO": 2, "AB": 3, "KA": 3, "MX": 3, "HE": 4, "SA": 5, "DA": 6, "AR": 7,
    "AM": 8, "CL": 8, "EM": 8,
}
GRADE_NAMES = {
    1: "Major Général", 2: "Contre-Amirale", 3: "Général(e) d'État-Major", 4: "Général de Corps",
    5: "Colonel", 6: "Lieutenant-Colonel", 7: "Commandant", 8: "Officier",
}


def slug(text: str) -> str:
    """Lower-case ASCII, accents dropped, spaces as ``-`` (C6).

    >>> slug("Babouchka Anna"), slug("Ismaëlle")
    ('babouchka-anna', 'ismaelle')
    """
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return plain.lower().replace(" ", "-")


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card: a category code and a first-name code (C2, C6).

    >>> Card("AR", "NO").id, Card("AR", "NO").is_joker, Card("RO", "OL").is_villain
    ('archange:noe', True, True)
    """

    category: str
    name: str
    first_name: str = ""
    id: str = field(default="", compare=False)
    # What the judge asks of a card thousands of times a second, worked out once.
    is_character: bool = field(default=False, init=False, compare=False, repr=False)
    is_joker: bool = field(default=False, init=False, compare=False, repr=False)
    is_villain: bool = field(default=False, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        first = self.first_name or FIRST_NAMES[self.name]
        object.__setattr__(self, "first_name", first)
        object.__setattr__(self, "id", f"{CATEGORIES[self.category][0]}:{slug(first)}")
        object.__setattr__(self, "is_character", self.category in CHARACTER_CATEGORIES)
        object.__setattr__(self, "is_joker", self.category == JOKER)
        object.__setattr__(self, "is_villain", self.category in VILLAIN_CATEGORIES)

    @property
    def code(self) -> str:
        """The sticker body: category code then first-name code (``EPNO``)."""
        return self.category + self.name

    @property
    def category_name(self) -> str:
        return CATEGORIES[self.category][1]

    @property
    def grade(self) -> int | None:
        """C64's rank (1 highest) of an État-Major or Enquêteurs card; None for any other."""
        if self.category not in ("EM", "EN"):
            return None
        return GRADES.get(self.name)

    def __str__(self) -> str:
        return f"{self.first_name} ({self.category_name})"


class Deck:
    """An ordered set of unique cards, found by id or by sticker body.

    >>> deck = default_deck()
    >>> "archange:igor" in deck, deck.get("nobody:x") is None
    (True, True)
    >>> sum(1 for card in deck if card.is_villain)
    14
    """

    __slots__ = ("_by_code", "_by_id", "cards", "name_codes")

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self._by_id = {card.id: card for card in cards}
        self._by_code = {card.code: card for card in cards}
        self.name_codes = frozenset(card.name for card in cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._by_id

    def __getitem__(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def get(self, card_id: str) -> Card | None:
        return self._by_id.get(card_id)

    def by_code(self, code: str) -> Card | None:
        """The card whose sticker body is ``code`` (``EPNO``), if the deck has one."""
        return self._by_code.get(code)

    def for_level(self, level: int) -> tuple[Card, ...]:
        """The cards in play at ``level``: no méchant below level 3 (C5a)."""
        if level >= 3:
            return self.cards
        return tuple(card for card in self.cards if not card.is_villain)

    def ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards)


def _ordered_cards() -> tuple[Card, ...]:
    # Characters by category then first name (C6's table order); jokers and méchants in the
    # rulebook's order, as listed in _CHARACTERS.
    cards: list[Card] = []
    for category, names in _CHARACTERS.items():
        codes = names.split()
        if category in CHARACTER_CATEGORIES:
            codes.sort(key=lambda code: slug(FIRST_NAMES[code]))
        cards.extend(Card(category, code) for code in codes)
    return tuple(cards)


@cache
def default_deck() -> Deck:
    """The rulebook's 93 cards in C6's stable order."""
    return Deck(_ordered_cards())


#: The limits of a deck file: the rulebook's is 2 kB, one short line per card.
MAX_DECK_BYTES = 64 * 1024
MAX_DECK_CARDS = 200


def deck_text(deck: Deck) -> str:
    """A deck as a deck file: one ``category,first-name code,first name`` line per card.

    >>> print(deck_text(default_deck()).splitlines()[1])
    EM,AB,Abigaïl
    >>> parse_deck(deck_text(default_deck())).ids() == default_deck().ids()
    True
    """
    lines = ["# Noé, Complot à l'Élysée: one card a line: category code, first-name code, "
             "first name (RULINGS-COMPLOT C6)"]
    lines += [f"{card.category},{card.name},{card.first_name}" for card in deck]
    return "\n".join(lines) + "\n"


def parse_deck(text: str) -> Deck:
    """The deck a deck file describes, for a box that differs from the rulebook (say 8
    Attentats instead of 5). Lines are ``CATEGORY,NAME[,First name]``; ``#`` starts a comment.
    A first name is needed for a first-name code that C6 does not list.

    >>> extra = "AT,XA,Xavier Attentat\\nAT,YB,Yuri\\nAT,ZC,Zora\\n"
    >>> deck = parse_deck(deck_text(default_deck()) + extra)
    >>> len(deck), deck["attentat:xavier-attentat"].code
    (96, 'ATXA')
    >>> parse_deck("EM,NO\\nEM,NO\\n")
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: Line 2: the card EM,NO (etat-major:noe) is listed twice; \
every card of the box is unique (C2).
    """
    from companion.game.errors import InputError

    if len(text) > MAX_DECK_BYTES:
        raise InputError("The deck file is too big for a deck (over 64 kB).")
    cards: list[Card] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        card = _deck_line(line, number)
        if card.code in seen or card.id in seen:
            raise InputError(f"Line {number}: the card {card.category},{card.name} ({card.id}) "
                             "is listed twice; every card of the box is unique (C2).",
                             line=number)
        seen.update((card.code, card.id))
        cards.append(card)
        if len(cards) > MAX_DECK_CARDS:
            raise InputError(f"Line {number}: a deck has at most {MAX_DECK_CARDS} cards.",
                             line=number)
    if not cards:
        raise InputError("The deck file lists no card: write one card a line, for example "
                         "'EP,NO' for Noé of the Empires.")
    return Deck(tuple(cards))


def load_deck_file(path: Path | None) -> Deck:
    """The rulebook's deck for None, else the deck the file at ``path`` describes: an
    InputError says what is wrong with the file (with its line), a UserError that it cannot
    be read."""
    from companion.errors import UserError
    from companion.game.inputs import require_regular_file

    if path is None:
        return default_deck()
    try:
        require_regular_file(path, "a deck file", "Give a text file, one card a line.")
        with path.open("rb") as file:
            data = file.read(MAX_DECK_BYTES + 1)
    except OSError as error:
        raise UserError(f"The deck file {path} cannot be read ({error.strerror}).",
                        "Check the name and the folder.") from None
    return parse_deck(data.decode("utf-8", errors="replace"))


def _deck_line(line: str, number: int) -> Card:
    from companion.game.errors import InputError, shown

    fields = [field.strip() for field in line.split(",")]
    if len(fields) not in (2, 3):
        raise InputError(f"Line {number}: '{shown(line)}' is not 'CATEGORY,NAME' or "
                         "'CATEGORY,NAME,First name'.", line=number)
    category, name = fields[0], fields[1]
    if category not in CATEGORIES:
        raise InputError(f"Line {number}: '{shown(category)}' is not a category code; use one "
                         f"of {' '.join(CATEGORIES)}.", line=number, field="category")
    if len(name) != 2 or not ("A" <= name[0] <= "Z" and "A" <= name[1] <= "Z"):
        raise InputError(f"Line {number}: '{shown(name)}' is not a first-name code (two "
                         "capital letters A-Z).", line=number, field="name")
    first_name = fields[2] if len(fields) == 3 else FIRST_NAMES.get(name, "")
    if not first_name or not slug(first_name).replace("-", "").isalnum():
        raise InputError(f"Line {number}: the first-name code {name} is new: write its first "
                         "name after it, for example 'AT,XA,Xavier'.", line=number,
                         field="first_name")
    return Card(category, name, first_name)
