"""The table on every phone: a read-only page on the local network (``[web]``, off by default).

* :mod:`~companion.web.settings` — the ``[web]`` section (port, bind address, limits);
* :mod:`~companion.web.snapshot` — what the page shows, as plain JSON-ready data, worded in the
  table's language (the app's catalogs, ``web.*`` keys);
* :mod:`~companion.web.games` — each game's part of the page (its live table, its words), found
  by the game's kind (companion.games): ``games/noah.py``, ``games/complot.py``;
* :mod:`~companion.web.feed` — where it comes from: the session's published views (in the app)
  and the SQLite record opened read-only (games, downloads; the live table too when standalone);
* :mod:`~companion.web.server` — the aiohttp server in its own thread and event loop: token,
  bounds, security headers, server-sent events;
* :mod:`~companion.web.mdns` — the "Noah table" announcement (python-zeroconf).

See docs/web.md.
"""
