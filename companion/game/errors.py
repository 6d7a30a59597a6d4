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
