"""Ferry lights, ferry buttons and buzzer on gpiozero for the Noah Table Companion.

The referee tells this package what to show; it knows nothing of the game's rules and never
imports :mod:`companion`.
"""
