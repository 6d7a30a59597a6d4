"""The animal cards: a deck is data (a CSV a user can replace with their own box's composition).

Every card has a species, a gender (``M``, ``F``, or ``H`` for the hermaphrodite snail), a weight,
tears (penalty points when left in hand), an optional player-count mark (``4+``/``5+``, R5), a
promo flag (frog and crocodile, R6) and a copy number, counted from 1 within its species and
gender in file order. Its id is a card reference in the table log's syntax (``cat:F#2``,
``snail#3``).

>>> deck = default_deck()
>>> len(deck), deck["cat:F#2"].weight
(52, 2)
>>> len(deck.for_game(4, Options())), len(deck.for_game(5, Options(frog=True)))
(39, 45)
>>> parse_ref("snail:F#3")
Ref(species='snail', gender='F', copy=3)
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple, overload

from .errors import InputError, shown
from .inputs import is_ascii_number, require_regular_file
from .options import Options

#: Species names exactly as in the table log, lightest first (R1).
SPECIES = (
    "woodpecker", "parrot", "snail", "frog", "cat", "kangaroo", "panda", "lion", "donkey",
    "crocodile", "bear", "giraffe", "rhino", "elephant",
)
PROMO_SPECIES = ("frog", "crocodile")
GENDERS = ("M", "F")
COLUMNS = ("species", "gender", "weight", "tears", "mark", "promo")
MARKS = {"": None, "4+": "4+", "5+": "5+"}
_YES_NO = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False, "": False}
#: Cards a round needs: one on each of the 5 ferries and 8 per player (R8, R9).
FERRY_CARDS, HAND_SIZE = 5, 8
#: Copies of one animal (species and gender) a deck may hold: a sticker writes the copy number
#: in two digits (docs/tags.md), so a 100th copy could never be tagged. The one place it is set.
MAX_COPIES = 99
_COPY = re.compile(r"[1-9][0-9]?")
#: The limits of a deck file: a real one is about 2 kB, one short line per card.
MAX_DECK_BYTES = 256 * 1024
MAX_DECK_LINE = 256


@dataclass(frozen=True, slots=True)
class Card:
    """One physical animal card.

    >>> Card("cat", "F", 2, 1, copy=2).id
    'cat:F#2'
    >>> Card("snail", "H", 1, 2, copy=3).id
    'snail#3'
    """

    species: str
    gender: str
    weight: int
    tears: int
    mark: str | None = None
    promo: bool = False
    copy: int = 1

    @property
    def ref(self) -> str:
        """The reference without copy number: copies of a species and gender are alike."""
        return self.species if self.gender == "H" else f"{self.species}:{self.gender}"

    @property
    def id(self) -> str:
        """The reference naming this physical copy (what its QR sticker says)."""
        return f"{self.ref}#{self.copy}"


class Ref(NamedTuple):
    """A parsed card reference; ``gender`` None: a snail in hand; ``copy`` None: untagged."""

    species: str
    gender: str | None
    copy: int | None


# Bounded: the text may come from any QR code at the table (failures are never cached, but a
# hostile deck of valid references could still fill an unbounded cache).
@lru_cache(maxsize=2048)
def parse_ref(text: str) -> Ref:
    """Parse a card reference of the table log (``cat:F``, ``cat:F#2``, ``snail``, ``snail:M#3``).

    Raises :class:`InputError` (field ``card``) with a plain explanation when it is malformed.

    >>> parse_ref("cat:F#2")
    Ref(species='cat', gender='F', copy=2)
    >>> parse_ref("snail")
    Ref(species='snail', gender=None, copy=None)
    >>> parse_ref("cat")
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: Card 'cat' has no gender: write cat:M or cat:F.
    """
    quoted = shown(repr(text))  # a reference read from a file or a QR code: echoed safely
    if not isinstance(text, str):
        raise InputError(f"Card {quoted} is not a card reference like cat:F.", field="card")
    body, _, copy_text = text.partition("#")
    species, _, gender = body.partition(":")
    if species not in SPECIES:
        raise InputError(
            f"Card {quoted} names no known animal: use one of {', '.join(SPECIES)}.", field="card"
        )
    copy = None
    if copy_text or "#" in text:
        if not _COPY.fullmatch(copy_text):  # not str.isdigit(): it takes "²" and "٣"
            raise InputError(f"Card {quoted} has a bad copy number: copies go from 1 to "
                             f"{MAX_COPIES}, written like {species}:F#2.", field="card")
        copy = int(copy_text)
    if gender in GENDERS:
        return Ref(species, gender, copy)
    if species == "snail" and not gender and ":" not in body:
        return Ref(species, None, copy)
    if not gender:
        raise InputError(
            f"Card {quoted} has no gender: write {species}:M or {species}:F.", field="card"
        )
    raise InputError(f"Card {quoted} has gender {shown(repr(gender))}: use M or F.", field="card")


@cache
def format_ref(species: str, gender: str | None, copy: int | None = None) -> str:
    """The reference text for a species, a gender (None or ``H`` for a snail in hand), a copy.

    >>> format_ref("snail", "F", 3), format_ref("snail", None), format_ref("cat", "M")
    ('snail:F#3', 'snail', 'cat:M')
    """
    text = species if gender in (None, "H") else f"{species}:{gender}"
    return text if copy is None else f"{text}#{copy}"


class Deck(Sequence[Card]):
    """An ordered, immutable collection of cards with lookup by id (``deck["cat:F#2"]``).

    ``source`` names where it came from, for messages.
    """

    __slots__ = ("_by_id", "_cards", "_hash", "_refs", "source")

    def __init__(self, cards: Sequence[Card], source: str = "deck") -> None:
        self._cards = tuple(cards)
        self._by_id = {card.id: card for card in self._cards}
        self._hash: int | None = None
        self._refs: tuple[str, ...] | None = None
        self.source = source

    @overload
    def __getitem__(self, key: int) -> Card: ...
    @overload
    def __getitem__(self, key: slice) -> tuple[Card, ...]: ...
    @overload
    def __getitem__(self, key: str) -> Card: ...
    def __getitem__(self, key: int | slice | str) -> Card | tuple[Card, ...]:
        if isinstance(key, str):
            return self._by_id[key]
        return self._cards[key]

    def __len__(self) -> int:
        return len(self._cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return item in self._by_id
        return item in self._cards

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self._cards == other._cards

    def __hash__(self) -> int:
        if self._hash is None:  # a deck is a cache key: hash its cards once
            self._hash = hash(self._cards)
        return self._hash

    def __repr__(self) -> str:
        return f"<Deck {self.source!r}: {len(self)} cards>"

    @property
    def refs(self) -> tuple[str, ...]:
        """Every card's reference without copy number, in deck order (what a deal shuffles).

        >>> default_deck().refs[:3]
        ('woodpecker:M', 'woodpecker:F', 'parrot:M')
        """
        if self._refs is None:  # built once: every simulated deal reads them
            self._refs = tuple(card.ref for card in self._cards)
        return self._refs

    def get(self, card_id: str) -> Card | None:
        """The card with this id, or None."""
        return self._by_id.get(card_id)

    def for_game(self, players: int, options: Options) -> Deck:
        """The cards in use for this player count and these options (R5, R6).

        >>> [len(default_deck().for_game(n, Options())) for n in (2, 3, 4, 5)]
        [31, 31, 39, 47]
        """
        return Deck([c for c in self if _in_game(c, players, options)], self.source)

    def removed_for(self, players: int, options: Options) -> Deck:
        """The cards to leave in the box for this game (R5, R6), so people can sort them out."""
        return Deck([c for c in self if not _in_game(c, players, options)], self.source)

    def species(self) -> frozenset[str]:
        """The species present in this deck."""
        return frozenset(card.species for card in self)

    def to_csv(self) -> str:
        """The deck as CSV text that :func:`parse_deck` reads back identically."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for c in self:
            writer.writerow(
                (c.species, c.gender, c.weight, c.tears, c.mark or "", "yes" if c.promo else "no")
            )
        return out.getvalue()


def _in_game(card: Card, players: int, options: Options) -> bool:
    if (card.mark == "5+" and players < 5) or (card.mark == "4+" and players < 4):
        return False
    if card.species in ("snail", "frog") and (card.species == "frog") != options.frog:
        return False
    return not (
        card.species in ("donkey", "crocodile")
        and (card.species == "crocodile") != options.crocodile
    )


def parse_deck(text: str, source_name: str = "deck") -> Deck:
    """Read a deck from CSV text (columns ``species, gender, weight, tears, mark, promo``).

    Lines starting with ``#`` and blank lines are ignored. Errors name the line and the field.

    >>> parse_deck("species,gender,weight,tears,mark,promo\\ncat,F,2,1,,no\\n")[0].id
    'cat:F#1'
    >>> parse_deck("species,gender,weight,tears,mark,promo\\ncat,X,2,1,,no\\n", "box.csv")
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: box.csv, line 2: gender 'X' is not M or F.
    """
    lines = [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise InputError(f"{source_name} is empty: it needs a header line and one line per card.")
    rows = (_csv_row(line, f"{source_name}, line {number}", number) for number, line in lines)
    header = [name.strip().lower() for name in next(rows)]
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        raise InputError(
            f"{source_name}, line {lines[0][0]}: the header lacks {', '.join(missing)}; "
            f"it must name the columns {','.join(COLUMNS)}.",
            line=lines[0][0],
            field=missing[0],
        )
    copies: dict[tuple[str, str], int] = {}
    species_data: dict[str, tuple[int, int, int]] = {}
    cards = []
    for (number, _), row in zip(lines[1:], rows, strict=True):
        values = dict(zip(header, (value.strip() for value in row), strict=False))
        where = f"{source_name}, line {number}"
        card = _parse_row(values, where, number)
        first = species_data.setdefault(card.species, (card.weight, card.tears, number))
        if (card.weight, card.tears) != first[:2]:
            raise InputError(
                f"{where}: this {card.species} has weight {card.weight} and "
                f"tears {card.tears} but line {first[2]} says {first[0]} and {first[1]}: every "
                "card of a species has the same weight and tears.",
                line=number,
                field="weight" if card.weight != first[0] else "tears",
            )
        key = (card.species, card.gender)
        copies[key] = copies.get(key, 0) + 1
        if copies[key] > MAX_COPIES:
            raise InputError(
                f"{where}: this is copy {copies[key]} of {card.ref}, but a deck holds at most "
                f"{MAX_COPIES} copies of one animal (a sticker numbers them 1 to {MAX_COPIES}).",
                line=number, field="species")
        cards.append(Card(card.species, card.gender, card.weight, card.tears, card.mark,
                          card.promo, copies[key]))
    if not cards:
        raise InputError(f"{source_name} lists no cards: add one line per card under the header.")
    return Deck(cards, source_name)


def _csv_row(line: str, where: str, number: int) -> list[str]:
    """One CSV line's fields; a deck file has one card per line, so a quoted field must close
    on the line it opens (and a line is short)."""
    if len(line) > MAX_DECK_LINE:
        raise InputError(f"{where} is {len(line)} characters long: a card's line is short, "
                         f"at most {MAX_DECK_LINE}.", line=number)
    try:
        return next(csv.reader([line], strict=True), [])
    except csv.Error as error:
        raise InputError(f"{where}: its quotes do not pair up ({error}): a quoted field must "
                         "close on the line where it opens, one card per line.",
                         line=number) from error


def _parse_row(values: dict[str, str], where: str, line: int) -> Card:
    def fail(field: str, problem: str) -> InputError:
        return InputError(f"{where}: {problem}", line=line, field=field)

    species = values.get("species", "").lower()
    if species not in SPECIES:
        raise fail("species", f"species {species!r} is not one of {', '.join(SPECIES)}.")
    gender = values.get("gender", "").upper()
    if species == "snail" and gender != "H":
        raise fail("gender", f"gender {gender!r}: a snail is hermaphrodite, write H.")
    if species != "snail" and gender not in GENDERS:
        raise fail("gender", f"gender {values.get('gender', '')!r} is not M or F.")
    weight = _parse_count(values.get("weight", ""), 21, "weight", where, line)
    tears = _parse_count(values.get("tears", ""), 26, "tears", where, line)
    mark = values.get("mark", "")
    if mark not in MARKS:
        raise fail("mark", f"mark {mark!r} is not empty, 4+ or 5+.")
    promo_text = values.get("promo", "").lower()
    if promo_text not in _YES_NO:
        raise fail("promo", f"promo {promo_text!r} is not yes or no.")
    promo = _YES_NO[promo_text]
    if promo != (species in PROMO_SPECIES):
        raise fail("promo", f"promo is {promo_text or 'empty'} but only frog and crocodile are "
                            "promo animals: write yes for them and no for the others.")
    return Card(species, gender, weight, tears, MARKS[mark], promo)


def _parse_count(text: str, maximum: int, field: str, where: str, line: int) -> int:
    # int() of 5,000 digits is an error of its own, hence the length.
    if not (is_ascii_number(text) and len(text) <= 3) or int(text) > maximum:
        raise InputError(
            f"{where}: {field} {shown(repr(text))} is not a whole number from 0 to {maximum}.",
            line=line,
            field=field,
        )
    return int(text)


def load_deck(path: str | Path) -> Deck:
    """Read a deck CSV file (UTF-8); a missing, unreadable or oversized file, a folder, a pipe,
    or text in another encoding is an :class:`InputError` that says so."""
    path = Path(path)
    name = path.name
    try:
        require_regular_file(path, "a deck file",
                             "Give the path of a .csv file, or use the default deck.",
                             folder_fix="Give the path of the deck's .csv file inside it, or "
                                        "use the default deck.")
        with path.open("rb") as file:
            data = file.read(MAX_DECK_BYTES + 1)
    except OSError as error:
        raise InputError(f"Cannot read the deck file {path}: {error.strerror or error}. Check "
                         "the path, or use the default deck.") from error
    if len(data) > MAX_DECK_BYTES:
        raise InputError(f"{name} is larger than {MAX_DECK_BYTES // 1024} kB: a deck file is "
                         "one short line per card. Check that this is the right file.")
    return parse_deck(_deck_text(data, name), name)


def _deck_text(data: bytes, name: str) -> str:
    """The file's text; a UTF-16 or UTF-32 file (as some Windows editors save) or bytes that
    are not UTF-8 are named as such, with the line where they are."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        raise InputError(f"{name} is not saved as UTF-8 text (it looks like UTF-16, as some "
                         "Windows editors save): save it again as UTF-8 (CSV UTF-8).")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        number = data[:error.start].count(b"\n") + 1
        raise InputError(f"{name}, line {number}: this is not UTF-8 text: save the file as "
                         "UTF-8 (CSV UTF-8).", line=number) from error


@cache
def default_deck() -> Deck:
    """The default composition (RULINGS appendix, UNVERIFIED): 47 animals, 3 frogs, 2 crocodiles."""
    text = resources.files("companion.data").joinpath("default-deck.csv").read_text("utf-8")
    return parse_deck(text, "default-deck.csv")
