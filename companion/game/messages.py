"""English sentences for verdicts and events, as templates keyed by code and filled from params.

A translation supplies the same keys with the same ``{params}``. A rejection's template is
``REASONS[code]``, or ``REASONS[f"{code}.{variant}"]`` when its params carry a ``variant``.
Params for people: ``name`` (acting player), ``ferry`` (1-5), ``animal`` (``♀ cat``), ...

>>> render("wrong_ferry", {"ferry": 2, "noah_ferry": 4})
'Noah is on ferry 4: load your animal there, not on ferry 2.'
>>> render_event("loaded", {"name": "Ben", "animal": "♀ cat", "ferry": 3})
'Ben loaded the ♀ cat on ferry 3.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Rejection templates, keyed by TABLE-LOG reason code (and ``code.variant``).
REASONS: dict[str, str] = {
    "not_your_turn": "It is {current_name}'s turn, not {name}'s: wait for your turn.",
    "wrong_ferry": "Noah is on ferry {noah_ferry}: load your animal there, not on ferry {ferry}.",
    "wrong_ferry.take_back": "Noah is on ferry {noah_ferry}: only that ferry can be taken back, "
    "not ferry {ferry}.",
    "unknown_card": "There is no {animal} in this game{why}: check the card.",
    "snail_gender_required": "Say which side of the snail is up: load it as male or female.",
    "card_not_in_hand": "{holder} has no {animal} in hand: choose a card from that hand.",
    "card_unavailable": "Every {species} of this game is already on the ferries or has left: "
    "check the card that was played.",
    "card_already_on_table": "The {animal} is already on the table: it was shown twice or moved "
    "without the referee; put it back where it was.",
    "card_already_on_table.ferry": "The {animal} is already on ferry {on_ferry}: it was shown "
    "twice; leave it there and show the animal being loaded.",
    "card_already_on_table.departed": "The {animal} left on a ferry this round: it cannot be "
    "played again; put it back with the departed ferries and show the animal being loaded.",
    "card_already_on_table.fleeing": "The {animal} is fleeing from the crocodile: first name the "
    "opponent who takes it.",
    "woodpecker_over_13": "Ferry {ferry} already weighs {weight}, more than 13: a woodpecker "
    "cannot board it; load another animal.",
    "frog_weight_invalid": "A frog may weigh 2 to 5 only to fill ferry {ferry} exactly "
    "({weight} of {capacity}): declare weight 1{exact_hint}.",
    "weight": "Ferry {ferry} carries {weight} of {capacity}: the {animal} ({card_weight}) would "
    "overload it; load a lighter animal, or take the ferry back if none fits.",
    "gender.same": "Ferry {ferry} takes only {needed_word}s: load a {needed_word}, or take the "
    "ferry back if you cannot.",
    "gender.alternate": "Ferry {ferry} alternates and its top card is {top_word}: load a "
    "{needed_word}, or take the ferry back if you cannot.",
    "roommates": "Ferry {ferry} already carries a {species} and roommates are not allowed: load "
    "another animal.",
    "take_back_not_allowed.empty": "Ferry {ferry} is empty: load any animal on it instead.",
    "take_back_not_allowed.can_play": "{name} can still load an animal on ferry {ferry}: play it; "
    "a ferry is taken back only when nothing fits.",
    "take_back_not_allowed": "Ferry {ferry} cannot be taken back now: load an animal on it.",
    "noah_move_illegal.female": "After a female, Noah moves to a neighbouring ferry: choose "
    "ferry {choices}.",
    "noah_move_illegal.male": "After a male, Noah moves two ferries away: choose ferry {choices}.",
    "noah_move_illegal.play": "Noah does not move now: {current_name} must first load an animal "
    "on ferry {noah_ferry}.",
    "invalid_target": "That player is not at this table: choose an opponent.",
    "invalid_target.self": "{name} cannot choose themselves here: choose an opponent.",
    "gift_count": "{name} owes {owed} card{owed_s} for this departure, not {given}: give exactly "
    "{owed}.",
    "no_giraffe_effect": "There is no giraffe look to make now: it is only allowed right after "
    "loading a giraffe, before Noah moves.",
    "must_play": "{current_name} must first load an animal on ferry {noah_ferry}.",
    "must_choose_flee_target": "The crocodile scared the {fleeing}: {current_name} must first "
    "name the opponent who takes it.",
    "must_lion_swap": "The lion's effect comes first: {current_name} must swap a card with an "
    "opponent.",
    "must_move_noah": "{current_name} must first move Noah: to ferry {choices}.",
    "must_give_cards": "{current_name} must first give {owed} card{owed_s} for the departure.",
    "must_scan_hands": "The round is over: scan every player's hand first.",
    "round_over": "No round is being played: deal the cards and start round {next_round}.",
    "game_over": "The game is over: start a new game to play again.",
    "scan_mismatch.seats": "The scan lists {got} hands for {players} players: scan every hand.",
    "scan_mismatch.count": "{holder}'s hand should hold {expected} cards but the scan shows "
    "{got}: scan that hand again.",
    "scan_mismatch": "The scan does not fit this round: {problem}; scan the hands again.",
    "setup_invalid": "This set-up cannot be right: {problem}.",
    "bad_action": "This action is malformed: {problem}.",
}

#: Event templates: the sentences of accepted verdicts.
EVENTS: dict[str, str] = {
    "position": "Position set: round {round}, {current_name} to play, Noah on ferry {noah_ferry}.",
    "round_started": "Round {round} starts: {starter_name} plays first, Noah is on ferry "
    "{noah_ferry}.",
    "loaded": "{name} loaded the {animal} on ferry {ferry}.",
    "took_back": "{name} took back {count_the} animal{count_s} of ferry {ferry}.",
    "crocodile_tears": "Crocodile tears: {name}'s score drops to {score}.",
    "fled": "The {animal} fled to {target_name}'s hand.",
    "lion_swap": "{name} swapped a card with {target_name}.",
    "giraffe_look": "{name} looked at {target_name}'s hand.",
    "noah_moved": "Noah moves to ferry {ferry}.",
    "departure": "Ferry {ferry} departs (departure {number} of 4).",
    "gifts_owed": "{name} gives {owed} card{owed_s} to {owed_opponents}.",
    "gifts": "{name} gave {count} card{count_s}.",
    "pair_bonus": "Pair of {species}s: {name} plays again.",
    "turn": "{name}'s turn.",
    "round_ended": "Round {round} is over.",
    "scan_needed": "Scan every player's hand.",
    "round_scored": "Scores: {summary}.",
    "game_over": "Game over: {winner_names} won.",
}


def render(code: str, params: Mapping[str, Any], templates: Mapping[str, str] = REASONS) -> str:
    """The sentence for a reason code (and its ``variant``) filled from ``params``."""
    variant = params.get("variant")
    template = templates.get(f"{code}.{variant}") if variant else None
    return (template or templates[code]).format_map(_with_plurals(params))


def render_event(kind: str, params: Mapping[str, Any]) -> str:
    """The sentence for an event of an accepted action."""
    return EVENTS[kind].format_map(_with_plurals(params))


def _with_plurals(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` and, for each count among them, the English plural ending ``<name>_s``
    ("" for 1, "s" otherwise), ``<name>_opponents`` and ``<name>_the`` ("the", "the 3"), so a
    template says "1 card", "2 cards", "the animal", "the 3 animals".

    >>> render_event("gifts", {"name": "Ana", "count": 1})
    'Ana gave 1 card.'
    >>> render_event("took_back", {"name": "Ana", "count": 1, "ferry": 3})
    'Ana took back the animal of ferry 3.'
    >>> render_event("took_back", {"name": "Ana", "count": 2, "ferry": 3})
    'Ana took back the 2 animals of ferry 3.'
    """
    words = dict(params)
    for name, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool):
            words[f"{name}_s"] = "" if value == 1 else "s"
            words[f"{name}_opponents"] = "an opponent" if value == 1 else "opponents"
            words[f"{name}_the"] = "the" if value == 1 else f"the {value}"
    return words
