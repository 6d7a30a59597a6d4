"""The contract's pure functions (C90–C94): JSON object in, JSON object out, never an exception.

>>> check_claim({"level": 1, "cards": ["pompiers:camille", "pompiers:clara",
...     "pompiers:etienne", "duron:jacquotte", "archange:gabrielle", "archange:igor"],
...     "claim": "complot", "moment": "discard", "first_turn": False})
{'accepted': True, 'points': 15, 'combination': 'two_trios', 'code': None}
>>> check_claim({"level": 1, "cards": [], "claim": "complot"})["code"]
'hand_size'
>>> check_defence({"action": "controle", "cards": ["enqueteurs:david"],
...                "defence": "etat-major:david"})
{'accepted': False, 'code': 'defence_grade_too_low'}
>>> judge_line('{"id": 7, "kind": "payload", "input": {"text": "NOAH1/BOX1/CAF2", '
...            '"deck_id": "BOX1"}}')
{'id': 7, 'kind': 'payload', 'result': {'kind': 'foreign'}}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeGuard

from .cards import ATTENTAT, BOMB_SETTER, RED_SPY, VIOLET_SPY, Card, Deck, default_deck
from .combos import CLAIMS, made, why_not
from .payload import DECK_ID, DEFAULT_DECK_ID, Foreign, TagOk, classify

MOMENTS = ("discard", "turn_start")
#: Action → (category of its cards, number of cards, number of targets) (C91).
ACTIONS: dict[str, tuple[str, int, int]] = {
    "controle": ("EN", 1, 1),
    "descente": ("EN", 3, 1),
    "hameconnage": (RED_SPY, 1, 1),
    "double_hameconnage": (VIOLET_SPY, 1, 2),
    "bombe": (BOMB_SETTER, 1, 1),
}
LEVEL_2_ACTIONS = ("controle", "descente")
TARGET_SCORE = 400
BAD_INPUT = {"error": "bad_input"}


def is_int(value: object) -> TypeGuard[int]:
    """A JSON integer (``true`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _is_level(value: object) -> TypeGuard[int]:
    return is_int(value) and value in (1, 2, 3)


def _str_list(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _int_list(value: object) -> TypeGuard[list[int]]:
    return isinstance(value, list) and all(is_int(item) for item in value)


def refused(code: str) -> dict[str, Any]:
    """A C90 refusal."""
    return {"accepted": False, "points": 0, "combination": None, "code": code}


# -- C90: claims ------------------------------------------------------------------------------

def claim_shape(request: Any, level: Any = None) -> tuple[int, list[str], str, str, bool] | None:
    """The fields of a C90 request (``level`` given by a manche overrides the request's), or
    None when it is malformed."""
    if not isinstance(request, dict):
        return None
    level = request.get("level") if level is None else level
    cards, claim = request.get("cards"), request.get("claim")
    if not _is_level(level) or not _str_list(cards) or claim not in CLAIMS:
        return None
    moment = request.get("moment", "turn_start" if claim == "complot_elysee" else "discard")
    first_turn = request.get("first_turn", False)
    if moment not in MOMENTS or not isinstance(first_turn, bool):
        return None
    return level, cards, claim, moment, first_turn


def check_claim(request: Any, deck: Deck | None = None) -> dict[str, Any]:
    """C90: is the announcement ``claim`` made by the six ``cards``, and for how many points.

    >>> check_claim({"level": 1, "claim": "complot_elysee", "cards": ["etat-major:noe",
    ...     "empires:sarah", "espions:max", "senechales:marie", "leonard:arthur",
    ...     "duron:clara"]})
    {'accepted': True, 'points': 100, 'combination': 'complot_elysee', 'code': None, \
'form': '5_names'}
    """
    shape = claim_shape(request)
    if shape is None:
        return refused("bad_input")
    return claim_verdict(*shape, deck=deck or default_deck())


def claim_verdict(level: int, ids: Sequence[str], claim: str, moment: str, first_turn: bool,
                  deck: Deck) -> dict[str, Any]:
    """C90 on well-formed fields, checks in C47's order."""
    cards = [deck.get(card_id) for card_id in ids]
    code = _cards_problem(level, cards, ids)
    if code is not None:
        return refused(code)
    return hand_verdict(level, [card for card in cards if card is not None], claim, moment,
                        first_turn)


def hand_verdict(level: int, laid: Sequence[Card], claim: str, moment: str,
                 first_turn: bool) -> dict[str, Any]:
    """C90 for six cards that pass C47's card checks (known, distinct, of the level, no
    Attentat): what a referee that knows the hand asks.

    >>> from companion.complot.cards import default_deck
    >>> deck = default_deck()
    >>> six = [deck[f"leonard:{name}"] for name in ("amelie", "arthur", "clara", "emma",
    ...                                             "sally", "sarah")]
    >>> hand_verdict(1, six, "complot", "discard", False)["combination"]
    'six_leonards'
    """
    code = _moment_problem(claim, moment, first_turn)
    if code is not None:
        return refused(code)
    result = made(claim, laid)
    if result is None:
        return refused(why_not(claim, laid, level))
    verdict = {"accepted": True, "points": result.points, "combination": result.combination,
               "code": None}
    if result.form is not None:
        verdict["form"] = result.form
    return verdict


def _cards_problem(level: int, cards: Sequence[Card | None], ids: Sequence[str]) -> str | None:
    if any(card is None for card in cards):
        return "unknown_card"
    if len(set(ids)) != len(ids):
        return "duplicate_card"
    if level < 3 and any(card is not None and card.is_villain for card in cards):
        return "card_not_in_play"
    if len(cards) != 6:
        return "hand_size"
    if any(card is not None and card.category == ATTENTAT for card in cards):
        return "attentat_in_hand"
    return None


def _moment_problem(claim: str, moment: str, first_turn: bool) -> str | None:
    if claim == "complot_elysee":
        return "elysee_must_wait" if moment == "discard" or first_turn else None
    return "claim_wrong_moment" if moment == "turn_start" else None


# -- C91: actions -----------------------------------------------------------------------------

def _action_shape(request: Any) -> bool:
    if not isinstance(request, dict):
        return False
    fields_ok = (
        _is_level(request.get("level"))
        and request.get("action") in ACTIONS
        and _str_list(request.get("hand"))
        and _str_list(request.get("cards"))
        and is_int(request.get("actor"))
        and _int_list(request.get("targets"))
        and _int_list(request.get("active"))
    )
    drawn = request.get("drawn", True)
    done = request.get("actions_this_turn", 0)
    return fields_ok and isinstance(drawn, bool) and is_int(done) and done >= 0


def check_action(request: Any, deck: Deck | None = None) -> dict[str, Any]:
    """C91: may the action be launched with these cards against these targets.

    >>> check_action({"level": 2, "action": "controle", "hand": ["enqueteurs:max"] + [
    ...     "espions:noe"] * 6, "cards": ["enqueteurs:max"], "actor": 0, "targets": [1],
    ...     "active": [0, 1, 2]})
    {'accepted': True, 'code': None}
    """
    if not _action_shape(request):
        return {"accepted": False, "code": "bad_input"}
    code = action_problem(request, deck or default_deck())
    return {"accepted": code is None, "code": code}


def action_problem(request: dict[str, Any], deck: Deck) -> str | None:
    """The first failing check of C91 on a well-formed request, or None."""
    level, action = request["level"], request["action"]
    hand, used = request["hand"], request["cards"]
    cards = [deck.get(card_id) for card_id in [*hand, *used]]
    if any(card is None for card in cards):
        return "unknown_card"
    if level < 3 and any(card is not None and card.is_villain for card in cards):
        return "card_not_in_play"
    if level == 1 or (level == 2 and action not in LEVEL_2_ACTIONS):
        return "action_not_in_level"
    if not request.get("drawn", True):
        return "must_draw_first"
    if request.get("actions_this_turn", 0) > 0:
        return "one_action_per_turn"
    return (_action_cards_problem(action, hand, used, deck)
            or _targets_problem(action, request["actor"], request["targets"],
                                request["active"]))


def _action_cards_problem(action: str, hand: Sequence[str], used: Sequence[str],
                          deck: Deck) -> str | None:
    if len(set(used)) != len(used) or any(card_id not in hand for card_id in used):
        return "card_not_in_hand"
    category, count, _ = ACTIONS[action]
    if len(used) != count:
        return "wrong_card_count"
    if any(deck[card_id].category != category for card_id in used):
        return "wrong_action_card"
    return None


def _targets_problem(action: str, actor: int, targets: Sequence[int],
                     active: Sequence[int]) -> str | None:
    if len(set(targets)) != len(targets) or any(
            target == actor or target not in active for target in targets):
        return "invalid_target"
    if len(targets) != ACTIONS[action][2]:
        return "wrong_target_count"
    return None


# -- C92: defences ----------------------------------------------------------------------------

def check_defence(request: Any, deck: Deck | None = None) -> dict[str, Any]:
    """C92: does the État-Major card shown stop the contrôle or descente (C64–C66).

    >>> check_defence({"action": "descente", "defence": "etat-major:sophie",
    ...     "cards": ["enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara"]})
    {'accepted': True, 'code': None}
    """
    if not (isinstance(request, dict) and request.get("action") in ACTIONS
            and _str_list(request.get("cards")) and isinstance(request.get("defence"), str)):
        return {"accepted": False, "code": "bad_input"}
    code = defence_problem(request["action"], request["cards"], request["defence"],
                           deck or default_deck())
    return {"accepted": code is None, "code": code}


def defence_problem(action: str, used: Sequence[str], defence: str, deck: Deck) -> str | None:
    """The first failing check of C92, or None when the defence stops the action."""
    cards = [deck.get(card_id) for card_id in used]
    shown = deck.get(defence)
    if shown is None or any(card is None for card in cards):
        return "unknown_card"
    if action not in LEVEL_2_ACTIONS:
        return "defence_not_allowed"
    if len(cards) != ACTIONS[action][1]:
        return "wrong_card_count"
    ranks = [card.grade for card in cards if card is not None and card.category == "EN"]
    if len(ranks) != len(cards):
        return "wrong_action_card"
    if shown.category != "EM":
        return "defence_not_etat_major"
    senior = min(rank for rank in ranks if rank is not None)
    if shown.grade is None or shown.grade >= senior:
        return "defence_grade_too_low"
    return None


# -- C93: a whole manche ----------------------------------------------------------------------

def _manche_shape(request: Any) -> tuple[int, int, list[int], list[Any]] | None:
    if not isinstance(request, dict):
        return None
    level, players = request.get("level", 1), request.get("players")
    scores, claims = request.get("scores"), request.get("claims")
    if not _is_level(level) or not is_int(players) or not 2 <= players <= 6:
        return None
    if not _int_list(scores) or len(scores) != players or min(scores) < 0:
        return None
    if not isinstance(claims, list) or not all(isinstance(claim, dict) for claim in claims):
        return None
    return level, players, scores, claims


def score_manche(request: Any, deck: Deck | None = None) -> dict[str, Any]:
    """C93: the claims of one manche judged in order, its scores and the game's end (C50–C55).

    >>> result = score_manche({"players": 2, "scores": [390, 0], "claims": [{"player": 1,
    ...     "claim": "complot", "cards": ["leonard:amelie", "leonard:arthur", "leonard:clara",
    ...     "leonard:emma", "leonard:sally", "leonard:sarah"]}]})
    >>> result["manche_points"], result["end_reason"], result["totals"], result["winners"]
    ([0, 50], 'last_player', [390, 50], [])
    """
    shape = _manche_shape(request)
    if shape is None:
        return dict(BAD_INPUT)
    level, players, scores, claims = shape
    deck = deck or default_deck()
    points = [0] * players
    still_in = list(range(players))
    verdicts, end_reason = [], None
    for claim in claims:
        verdict = _manche_claim(claim, level, players, still_in, end_reason, deck)
        verdicts.append(verdict)
        if verdict["accepted"]:
            seat = claim["player"]
            points[seat] = verdict["points"]
            still_in.remove(seat)
            if verdict["combination"] == "complot_elysee":
                end_reason = "elysee"
            elif len(still_in) == 1:
                end_reason = "last_player"
    return _manche_result(verdicts, points, scores, end_reason, still_in)


def _manche_claim(claim: dict[str, Any], level: int, players: int, still_in: list[int],
                  end_reason: str | None, deck: Deck) -> dict[str, Any]:
    if end_reason is not None:
        return refused("manche_over")
    seat = claim.get("player")
    if not is_int(seat) or not 0 <= seat < players:
        return refused("bad_input")
    if seat not in still_in:
        return refused("player_out")
    shape = claim_shape(claim, level)
    if shape is None:
        return refused("bad_input")
    return claim_verdict(*shape, deck=deck)


def _manche_result(verdicts: list[dict[str, Any]], points: list[int], scores: list[int],
                   end_reason: str | None, still_in: list[int]) -> dict[str, Any]:
    ended = end_reason is not None
    totals = list(scores)
    if ended:
        totals = [before + won for before, won in zip(scores, points, strict=True)]
    winners = game_winners(totals) if ended else []
    return {
        "verdicts": verdicts, "manche_points": points, "ended": ended, "end_reason": end_reason,
        "still_in": [] if ended else still_in, "totals": totals,
        "game_over": bool(winners), "winners": winners,
    }


def game_winners(totals: Sequence[int], target: int = TARGET_SCORE) -> list[int]:
    """C55: the seats with the highest total once someone has ``target`` or more; else [].

    >>> game_winners([410, 420, 420]), game_winners([399, 10])
    ([1, 2], [])
    """
    best = max(totals, default=0)
    if best < target:
        return []
    return [seat for seat, total in enumerate(totals) if total == best]


# -- payloads and C94 -------------------------------------------------------------------------

def check_payload(request: Any, deck: Deck | None = None) -> dict[str, Any]:
    """C6 through C94: ``{"text", "deck_id"}`` → foreign, ok with the card, or error."""
    if not isinstance(request, dict) or not isinstance(request.get("text"), str):
        return dict(BAD_INPUT)
    deck_id = request.get("deck_id", DEFAULT_DECK_ID)
    if not isinstance(deck_id, str) or not DECK_ID.fullmatch(deck_id):
        return dict(BAD_INPUT)
    tag = classify(request["text"], deck or default_deck(), deck_id)
    if isinstance(tag, Foreign):
        return {"kind": "foreign"}
    if isinstance(tag, TagOk):
        return {"kind": "ok", "card": tag.card.id}
    return {"kind": "error", "reason": tag.reason}


JUDGES = {"claim": check_claim, "action": check_action, "defence": check_defence,
          "manche": score_manche, "payload": check_payload}


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def parse_line(line: str) -> Any:
    r"""One JSON Lines line as Python data, or None when it is not JSON (C94).

    Stricter than :func:`json.loads`: ``NaN`` and ``Infinity`` are not JSON (RFC 8259), so they
    make the line unreadable. A leading byte-order mark is ignored.

    >>> parse_line('{"id": 1}'), parse_line('{"id": NaN}'), parse_line('\ufeff[-1e400]')
    ({'id': 1}, None, [-inf])
    """
    try:
        return json.loads(line.removeprefix("\ufeff"), parse_constant=_not_json)
    except (ValueError, RecursionError):
        return None


def _echoed(value: Any) -> Any:
    """``value`` if JSON can write it back, else None: a number too large for a double
    (``1e400``) is valid JSON but reads as infinity, which JSON cannot write."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return None
    return value


def verdict_text(verdict: dict[str, Any]) -> str:
    r"""A verdict as one line of JSON: UTF-8 text as is, but an echoed ``id`` or ``kind`` holding a
    lone surrogate (``"\ud800"`` is valid JSON, not valid UTF-8) escaped so it can be written.

    >>> verdict_text({"id": "é", "kind": None}), verdict_text({"id": "\ud800", "kind": None})
    ('{"id": "é", "kind": null}', '{"id": "\\ud800", "kind": null}')
    """
    text = json.dumps(verdict, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(verdict)
    return text


def judge_line(line: str, deck: Deck | None = None) -> dict[str, Any]:
    """C94: one input line's verdict object (the line must not be blank)."""
    request = parse_line(line)
    if not isinstance(request, dict):
        return {"id": None, "kind": None, "result": dict(BAD_INPUT)}
    line_id, kind = _echoed(request.get("id")), _echoed(request.get("kind"))
    judge = JUDGES.get(kind) if isinstance(kind, str) else None
    if judge is None:
        return {"id": line_id, "kind": kind, "result": dict(BAD_INPUT)}
    try:
        result = judge(request.get("input"), deck)
    except RecursionError:  # pragma: no cover - only absurdly nested input gets here
        result = dict(BAD_INPUT)
    return {"id": line_id, "kind": kind, "result": result}


def judge_lines(lines: Iterable[str], deck: Deck | None = None) -> Iterator[dict[str, Any]]:
    """C94 over a stream: one verdict per non-blank line, in order."""
    for line in lines:
        if line.strip():
            yield judge_line(line, deck)
