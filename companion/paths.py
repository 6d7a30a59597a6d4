"""Where the app keeps its files on this machine (platformdirs: the XDG directories on Linux).

One place for the folders the config, the game record and Kivy's files live in, so that none of
those parts has to ask another where its neighbours are.

>>> config_dir().name, data_dir().name, default_store_path().name
('noah-companion', 'noah-companion', 'games.sqlite')
"""

from __future__ import annotations

from pathlib import Path

APP_NAME = "noah-companion"


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
