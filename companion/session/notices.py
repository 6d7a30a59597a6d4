"""The session's own sentences as data: ``notice.<name>`` keys of the translation catalogs.

The engine words its verdicts (``reason.<code>``, ``event.<kind>``); everything else the session
tells the table — a card scanned twice, the camera lost, nothing to undo — is one of these.

>>> said("undo", count=2)
(Phrase(key='notice.undo', params={'count': 2}),)
"""

from __future__ import annotations

from typing import Any

from companion.session.view import Phrase

#: Every ``notice.<name>``; ``tag_<reason>`` words a sticker that cannot be used
#: (companion.tags.payload.TagError reasons).
NOTICE_KEYS = frozenset({
    "already_on_ferry", "already_scanned", "camera_back", "camera_lost", "choose_a_player",
    "departed_not_hand", "ferry_button", "ferry_range", "foreign_code", "hand_scanned",
    "new_game", "no_card_expected", "no_frog_waiting", "no_game", "no_snail_waiting",
    "no_such_card", "noah_start", "noah_start_chosen", "not_a_setup_card", "not_in_game",
    "not_in_scan", "setup_card_removed",
    "nothing_to_redo", "nothing_to_undo", "on_ferry_not_hand", "record_error", "redo",
    "rescan_hands", "rescan_setup", "resumed", "score_only_card", "setup_card", "several_cards",
    "snail_side", "starter_not_asked", "tears_numbers", "undo", "vision_error",
    "set_aside", "summary_not_saved",
    "tag_too_long", "tag_version", "tag_malformed", "tag_other_deck", "tag_unknown_card",
})


def said(key: str, /, **params: Any) -> tuple[Phrase]:
    """One of the session's own sentences as data (``notice.<key>`` in the catalogs)."""
    assert key in NOTICE_KEYS, key
    return (Phrase(f"notice.{key}", params),)
