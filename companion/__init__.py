"""Noah Table Companion: a referee for the card game Noah (Noé, Bombyx 2012).

Packages:

* :mod:`companion.game` — the rules engine and the table log (standard library only, no I/O).
* :mod:`companion.commands` — the ``noah-companion`` sub-commands, one module each.
* the referee session, persistence and the Kivy app build on the engine.

:mod:`vision` (camera, QR decoding) and :mod:`hardware` (ferry lights) never import this package.
"""

__version__ = "0.1.0"
