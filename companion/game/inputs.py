"""Checks of outside input shared by the rules engine and the command line (standard library)."""

from __future__ import annotations

import stat
from pathlib import Path

from .errors import InputError


def is_ascii_number(text: str) -> bool:
    """Whether ``text`` is a whole number written with the digits 0 to 9 only.

    Not ``str.isdigit()`` alone: it also takes ``"²"`` (which ``int()`` then refuses) and other
    scripts' digits, which no one types for a game number or a count.

    >>> is_ascii_number("12"), is_ascii_number("²"), is_ascii_number("٣"), is_ascii_number("")
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit()


def require_regular_file(path: Path, what: str, fix: str, *, folder_fix: str | None = None) -> None:
    """Raise :class:`InputError` unless ``path`` is a regular file, before anyone opens it: reading
    a pipe or a device (``/dev/zero``) may never end. ``what`` names the file expected ("a deck
    file"), ``fix`` says what to give instead; ``folder_fix`` replaces it for a folder. A missing
    file raises :class:`OSError`, for the caller to word with its other reading errors.

    >>> require_regular_file(Path("/dev/null"), "a table log", "Give a .jsonl file.")
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: /dev/null is not a regular file (a pipe or a device), so \
it cannot be a table log. Give a .jsonl file.
    """
    kind = path.stat().st_mode
    if stat.S_ISDIR(kind):
        raise InputError(f"{path} is a folder, not {what}. {folder_fix or fix}")
    if not stat.S_ISREG(kind):
        raise InputError(f"{path} is not a regular file (a pipe or a device), so it cannot be "
                         f"{what}. {fix}")
