"""Where the app keeps its files on this machine (platformdirs: the XDG directories on Linux).

One place for the folders the config, the game record and Kivy's files live in, so that none of
those parts has to ask another where its neighbours are, and for the modes the app gives what
it makes: :func:`protect_new_files` (called once when the command line starts) keeps every file
and folder the app or its libraries (SQLite, Kivy's ``mods/``) make from being writable by
others or readable by strangers, whatever the login's umask (``umask 000`` made them 0777/0666);
the game record and its folder are the family's alone (:data:`PRIVATE_FILE`,
:func:`make_private_dir`).

>>> config_dir().name, data_dir().name, default_store_path().name
('noah-companion', 'noah-companion', 'games.sqlite')
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "noah-companion"

#: Bits never given to what the app makes: nobody but the owner writes (a group reads).
#: Folders are at most 0750, files at most 0640 (exports and PDFs included).
NOT_FOR_OTHERS = 0o027
#: The game record (SQLite gives its ``-wal``/``-shm`` files the same mode).
PRIVATE_FILE = 0o600
#: The record's folder when the app makes it.
PRIVATE_DIR = 0o700


def protect_new_files() -> int:
    """Add :data:`NOT_FOR_OTHERS` to the process's umask (a stricter one, e.g. the service's
    ``UMask=0077``, stays as it is); returns the umask before.

    >>> before = protect_new_files()
    >>> oct(os.umask(before) & 0o777) == oct((before | 0o027) & 0o777)
    True
    """
    before = os.umask(0)
    os.umask(before | NOT_FOR_OTHERS)
    return before


def make_private_dir(folder: Path) -> None:
    """Make ``folder`` and its missing parents 0700 (existing folders keep their mode).

    >>> import tempfile
    >>> new = Path(tempfile.mkdtemp()) / "a" / "b"
    >>> make_private_dir(new)
    >>> oct(new.stat().st_mode & 0o777), oct(new.parent.stat().st_mode & 0o777)
    ('0o700', '0o700')
    """
    if folder.is_dir():
        return
    make_private_dir(folder.parent)
    try:
        folder.mkdir(mode=PRIVATE_DIR)
    except FileExistsError:  # made meanwhile by another process, or a file (mkdir says so)
        if not folder.is_dir():
            raise


def config_dir() -> Path:
    """The user's config folder for the app (``~/.config/noah-companion`` on Linux, or under
    ``$XDG_CONFIG_HOME``)."""
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def data_dir() -> Path:
    """The user's data folder for the app (``~/.local/share/noah-companion`` on Linux, or under
    ``$XDG_DATA_HOME``): the game record and Kivy's files."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_store_path() -> Path:
    """The game record when ``[store] path`` is not set: ``games.sqlite`` in :func:`data_dir`."""
    return data_dir() / "games.sqlite"
