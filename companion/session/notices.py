"""The session's own sentences as data: ``notice.<name>`` keys of the translation catalogs.

The engine words its verdicts (``reason.<code>``, ``event.<kind>``); everything else the session
tells the table — a card scanned twice, the camera lost, nothing to undo — is one of these,
worded in every language by the catalogs (English too: a notice has no English of its own).

>>> said("undo", count=2)
(Phrase(key='notice.undo', params={'count': 2}),)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.session.view import Phrase

if TYPE_CHECKING:
    from companion.tags.envelope import TagError

#: Every ``notice.<name>``; ``tag_<reason>`` words a sticker that cannot be used
#: (companion.tags.payload.TagError reasons).
NOTICE_KEYS = frozenset({
    "already_on_ferry", "already_played_hand", "already_played_table", "already_scanned",
    "camera_back", "camera_lost", "cancelled", "choose_a_player", "departed_not_hand",
    "ferry_button", "ferry_range", "foreign_code", "hand_scanned", "new_game",
    "no_card_expected", "no_card_in_hand", "no_frog_waiting", "no_game", "no_snail_waiting",
    "no_such_card", "noah_start", "noah_start_chosen", "not_a_card", "not_a_setup_card",
    "not_in_game", "not_in_scan", "nothing_to_cancel", "nothing_to_redo", "nothing_to_undo",
    "on_ferry_not_hand", "record_error", "redo", "removed_from_scan", "rescan_hands",
    "rescan_setup", "resumed", "score_only_card", "set_aside", "setup_card",
    "setup_card_removed", "several_cards", "snail_side", "starter_not_asked",
    "summary_not_saved", "tears_numbers", "undo", "vision_error",
    "tag_too_long", "tag_version", "tag_malformed", "tag_other_deck", "tag_unknown_card",
})


def said(key: str, /, **params: Any) -> tuple[Phrase]:
    """One of the session's own sentences as data (``notice.<key>`` in the catalogs)."""
    assert key in NOTICE_KEYS, key
    return (Phrase(f"notice.{key}", params),)


def sticker_problem(tag: TagError, deck_id: str) -> tuple[Phrase]:
    """Why one of the game's stickers cannot be used here (``notice.tag_<reason>``); a sticker
    of another box names that box and this one (``deck_id``).

    >>> from companion.tags.envelope import TagError
    >>> sticker_problem(TagError("NOAH1/ZOO7/CAM1", "other_deck", "…"), "BOX1")
    (Phrase(key='notice.tag_other_deck', params={'deck': 'ZOO7', 'this_deck': 'BOX1'}),)
    """
    if tag.reason != "other_deck":
        return said(f"tag_{tag.reason}")
    printed = tag.text.split("/")[1]  # another box's sticker is well formed: MAGICn/DECK/BODY
    return said("tag_other_deck", deck=printed, this_deck=deck_id)
