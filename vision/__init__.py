"""Camera capture, QR decoding and detection tracking for the Noah Table Companion.

Frames in, decoded QR texts and stable "card shown" events out. This package knows nothing of
the game's rules and never imports :mod:`companion`.
"""
