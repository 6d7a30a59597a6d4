"""Noah Table Companion: a referee for the card game Noah (Noé, Bombyx 2012).

Packages:

* :mod:`companion.game` — the rules engine and the table log (standard library only, no I/O).
* :mod:`companion.tags` — the QR payload of a card sticker, sticker sheets.
* :mod:`companion.session` — the referee session: intents, the durable record, prompts, lights.
* :mod:`companion.wiring` — the composition root: camera pipeline → session → ferry lights.
* :mod:`companion.sim` — the simulated table, the demo, the crash drill, the session benchmark.
* :mod:`companion.ui` — the Kivy app; :mod:`companion.commands` — the ``noah-companion``
  sub-commands, one module each.

:mod:`vision` (camera, QR decoding) and :mod:`hardware` (ferry lights) never import this package.
"""

__version__ = "0.1.0"
