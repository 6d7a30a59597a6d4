"""The session's steps: what the table is asked for now, one name per prompt kind.

A step is a plain string (it is a prompt's ``kind``, and the table log, the demo's JSON and the
UI's screen table use it as is), typed as a :data:`Step` literal so that mypy refuses a
misspelled step wherever one is assigned, looked up or compared (``strict_equality``).
A ``Literal`` rather than an enum: the values stay ``str`` objects (same JSON, same reprs in
doctests) and comparing them costs nothing on the table's hot paths.

>>> from typing import get_args
>>> "move_noah" in get_args(Step), len(STEPS)
(True, 14)
"""

from __future__ import annotations

from typing import Literal, get_args

Step = Literal[
    "no_game", "choose_noah_start", "scan_setup_card", "choose_starter", "play_card",
    "choose_card", "choose_snail_side", "choose_frog_weight", "choose_target", "move_noah",
    "give_cards", "scan_hand", "enter_tears", "game_over",
]
#: Every step, in the order a game meets them (round setup, a turn, round end, game end).
STEPS: tuple[Step, ...] = get_args(Step)
