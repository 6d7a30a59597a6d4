"""The engine's one error type for bad input from outside (a deck file, a card reference)."""

from __future__ import annotations


class InputError(ValueError):
    """Something read from outside is wrong; says where (``line``, ``field``) and how to fix it.

    Rule violations at the table are never exceptions: they are rejected verdicts.

    >>> error = InputError("Line 4: weight 'x' is not a whole number.", line=4, field="weight")
    >>> (error.line, error.field)
    (4, 'weight')
    """

    def __init__(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.field = field


#: How much of a text from outside a message quotes before cutting it short.
SHOWN_TEXT_LIMIT = 60


def shown(text: str, limit: int | None = SHOWN_TEXT_LIMIT) -> str:
    """Text from outside (a QR code, a log line, a file) made safe to show a person.

    Control and other invisible characters (escape sequences, carriage returns, NULs, lone
    surrogates, bidirectional overrides) are written as Python escapes, so that nothing read
    from a sticker or a file can move the cursor, recolour or wipe a terminal or a screen, or
    fail to print; a text longer than ``limit`` is cut short with an ellipsis. Printable text,
    accents and emoji included, is left as it is.

    >>> shown("NOAH1/BOX1/CAF2")
    'NOAH1/BOX1/CAF2'
    >>> print(shown("NOAH1/\\x1b[2J\\r\\x00"))
    NOAH1/\\x1b[2J\\r\\x00
    >>> shown("Chloé \\ud800"), shown("x" * 80, limit=10)
    ('Chloé \\\\ud800', 'xxxxxxxxxx…')
    """
    cut_short = limit is not None and len(text) > limit
    body = text[:limit] if cut_short else text
    if not body.isprintable():
        body = "".join(char if char.isprintable() else repr(char)[1:-1] for char in body)
    return f"{body}…" if cut_short else body
