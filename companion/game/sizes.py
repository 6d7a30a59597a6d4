"""The game's sizes, said once: how many ferries, how many players, the tears that end a game.

The session, the UI, the CLI and the configuration count with these. (``vision`` and
``hardware`` never import the companion: their five mats and five LEDs are facts of the table
kit and of the wiring, said there.)

>>> FERRY_COUNT, PLAYER_COUNTS, TEAR_TARGET
(5, range(2, 6), 26)
"""

FERRY_COUNT = 5  # R3: five ferries in play round the board (three more wait in reserve)
MIN_PLAYERS, MAX_PLAYERS = 2, 5  # R5
#: Every table size the game is played at, fewest players first.
PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
TEAR_TARGET = 26  # R41: 26 tears or more end a game of the 26-point variant
