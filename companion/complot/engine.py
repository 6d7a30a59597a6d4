"""The Complot referee: a :class:`Game` that judges actions one by one, like python-chess's Board.

``push(action)`` judges and applies an action (a JSON-like dict, the table log's line), ``check``
judges without applying, ``pop`` takes back the last applied action exactly. The referee knows
every card (a simulation, a hand-entered table, or a table whose cards the cameras read).

>>> from companion.complot.cards import default_deck
>>> game = Game(["Ana", "Ben"], level=1, dealer=1)
>>> order = list(default_deck().ids()[:79])          # top of the pioche first
>>> game.push({"type": "deal", "order": order}).accepted
True
>>> game.current_player, game.hand(0)
(0, ('etat-major:abigail', 'etat-major:david', 'etat-major:karl', 'etat-major:noe', \
'etat-major:sophie', 'enqueteurs:arthur'))
>>> game.push({"type": "discard", "player": 0, "card": "etat-major:noe"}).code
'must_draw_first'
>>> game.push({"type": "draw", "player": 0, "from": "defausse"}).accepted
True
>>> verdict = game.push({"type": "claim", "player": 0, "claim": "complot"})
>>> verdict.code
'must_keep_six'
>>> game.push({"type": "discard", "player": 0, "card": "enqueteurs:david"}).accepted
True
>>> wrong = game.push({"type": "claim", "player": 0, "claim": "complot"})
>>> wrong.accepted, wrong.code, wrong.changed       # a wrong claim: player 0 misses a turn
(False, 'claim_not_met', True)
>>> game.pop()["type"], game.pop()["type"]
('claim', 'discard')
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any

from .actions import Action, CardAction, Claim, Deal, Discard, Draw, Kill, moves, parse, to_dict
from .cards import ATTENTAT, Deck, default_deck
from .combos import CLAIMS
from .judge import (
    ACTIONS,
    TARGET_SCORE,
    action_problem,
    claim_verdict,
    defence_problem,
    game_winners,
    hand_verdict,
    is_int,
)
from .messages import sentence
from .state import RefereeReads, State, replaced

HAND = 6
#: Refusal codes of a claim that are a wrong claim: the player showed their hand (C44a).
WRONG_CLAIM = frozenset({"claim_not_met", "joker_not_noe", "villain_not_allowed",
                         "elysee_must_wait", "claim_wrong_moment"})
ACTION_TYPES = ("deal", "draw", "kill", "discard", "claim", *ACTIONS)
#: Cards an action takes from its target(s) and discards from the actor's hand (C62–C86).
TAKEN = {"controle": 1, "descente": 3, "hameconnage": 1, "double_hameconnage": 2, "bombe": 3}
DISCARDED = {"controle": 1, "descente": 1, "hameconnage": 1, "double_hameconnage": 2,
             "bombe": 0}


@dataclass(slots=True)
class Verdict:
    """The referee's answer. ``changed`` is true when the table changed: every accepted action,
    and a wrong claim, whose refusal costs a turn (C44). ``events`` narrate what happened."""

    accepted: bool
    code: str | None = None
    changed: bool = False
    points: int = 0
    combination: str | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def reason(self) -> str | None:
        """The refusal code under the name Noah's verdicts and TABLE-LOG.md use."""
        return self.code

    @property
    def message(self) -> str:
        """The refusal's sentence in French (the game's own words); '' when accepted."""
        return "" if self.code is None else sentence(self.code, "fr")

    def sentence(self, language: str) -> str:
        """The refusal's sentence in ``language`` (fr, en, zh)."""
        return "" if self.code is None else sentence(self.code, language)


class _Refused(Exception):
    """Raised inside the judge to refuse with ``code``; never leaves :class:`Game`."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Game(RefereeReads[State, Any, Any]):
    """A game of Complot from its first deal to 400 points (C10–C87).

    Inside, a card is its position in ``deck`` (see :mod:`.state`); the actions, the verdicts'
    events, :meth:`hand` and :meth:`state` speak in card ids."""

    # _undo holds (the saved fields, the action) per applied action: the fields saved are all
    # of them (State.save) but for a typed draw or discard, which saves only those it changes.

    def __init__(self, players: Sequence[str], level: int = 1, dealer: int = 0,
                 seed: str = "1", deck: Deck | None = None, target: int = TARGET_SCORE,
                 scores: Sequence[int] | None = None) -> None:
        if not 2 <= len(players) <= 6:
            raise ValueError(sentence("setup_invalid", "en"))
        if level not in (1, 2, 3) or not 0 <= dealer < len(players):
            raise ValueError("The level is 1, 2 or 3 and the dealer a seat of the table.")
        self.players = tuple(players)
        self.level = level
        self.seed = seed
        self.target = target
        self.deck = deck or default_deck()
        #: Card ids by the cards' numbers inside the state, and the numbers by id.
        self.card_ids = self.deck.ids()
        self.card_numbers = {card_id: number for number, card_id in enumerate(self.card_ids)}
        self.in_play = tuple(card.id for card in self.deck.for_level(level))
        self._in_play = sorted(self.card_numbers[card_id] for card_id in self.in_play)
        self.is_attentat = tuple(card.category == ATTENTAT for card in self.deck)
        self.attentats = frozenset(number for number, card in enumerate(self.deck)
                                   if card.category == ATTENTAT)
        self._seats = len(players)
        self.moves = moves(len(players), len(self.deck))
        dealt = sum(1 for card in self.deck.for_level(level) if card.category != ATTENTAT)
        if dealt < HAND * len(players) + 1:
            from companion.game.errors import InputError

            raise InputError(f"This deck has {dealt} cards to deal at level {level}: too few "
                             f"for {len(players)} players (6 each and one turned up).")
        self.first_dealer = dealer
        self.start_scores = tuple(scores) if scores is not None else (0,) * len(players)
        if len(self.start_scores) != len(players) or min(self.start_scores) < 0:
            raise ValueError("Give one score of 0 or more per player.")
        self._state = State(len(players), self.start_scores, dealer)
        self._undo = []

    # -- typed reads ---------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``deal``, ``turn``, ``attentat`` (waiting for the kill, C82), ``manche_over`` or
        ``game_over``."""
        return self._state.phase

    @property
    def current_player(self) -> int | None:
        return self._state.current if self._state.phase in ("turn", "attentat") else None

    @property
    def drawn(self) -> bool:
        return self._state.drawn

    @property
    def pioche_count(self) -> int:
        return len(self._state.pioche)

    @property
    def top_of_defausse(self) -> str | None:
        return self.card_ids[self._state.defausse[-1]] if self._state.defausse else None

    @property
    def top_blocked(self) -> bool:
        """C68: the top of the «défausse» may not be taken."""
        return self._state.top_blocked

    @property
    def killer(self) -> int | None:
        """C82: who takes the victim's card while an Attentat is resolved (else None)."""
        s = self._state
        return s.previous_seat(s.current) if s.phase == "attentat" else None

    @property
    def table(self) -> State:
        """The table as the referee keeps it, cards as numbers (``card_ids[n]`` is the id):
        for players that read it all the time; never to be written."""
        return self._state

    def hand(self, seat: int) -> tuple[str, ...]:
        return self._ids_of(self._state.hands[seat]) if self._state.hands else ()

    def laid(self, seat: int) -> tuple[str, ...]:
        """The hand a claimant laid down this manche (C17), empty if none."""
        return self._ids_of(self._state.laid[seat]) if self._state.laid else ()

    def turns_done(self, seat: int) -> int:
        return self._state.turns_done[seat] if self._state.turns_done else 0

    def missing_cards(self) -> str | None:
        """None when all cards in play are accounted for, once each (simulation invariant)."""
        return self._state.missing_cards(self._in_play, self.card_ids)

    def _ids_of(self, cards: Sequence[int]) -> tuple[str, ...]:
        ids = self.card_ids
        return tuple([ids[card] for card in cards])

    # -- push, check, pop ----------------------------------------------------------------------
    def push(self, action: Any) -> Verdict:
        """Judge ``action`` and apply it if it changes the table (see :class:`Verdict`).

        The table's fields are saved first (immutable values, see :mod:`.state`): a refusal
        puts them back, and the saved values are kept for :meth:`pop`."""
        state = self._state
        saved = state.save()
        verdict = self._judge(state, action)
        if verdict.changed:
            self._undo.append((saved, dict(action)))
        else:
            state.restore(saved)
        return verdict

    def check(self, action: Any) -> Verdict:
        """The verdict ``push`` would give, without applying anything."""
        saved = self._state.save()
        try:
            return self._judge(self._state, action)
        finally:
            self._state.restore(saved)

    def pop(self) -> dict[str, Any]:
        """Take back the last applied action (exact undo); IndexError when there is none."""
        saved, action = self._undo.pop()
        s = self._state
        if type(action) is Draw:  # pushed by push_legal: the fields a draw changes
            (s.pioche, s.defausse, s.top_blocked, s.hands, s.window, s.drawn,
             s.phase) = saved
        elif type(action) is Discard:  # likewise for a discard
            (s.hands, s.defausse, s.top_blocked, s.turns_done, s.window_used, s.drawn,
             s.current, s.skip, s.window) = saved
        else:
            s.restore(saved)
        return action if type(action) is dict else to_dict(action, self.card_ids)

    # -- typed actions (python-chess's Move: see .actions) ----------------------------------------
    def push_legal(self, action: Action) -> None:
        """Apply ``action``, a typed action the referee accepts now (from :meth:`legal_draws`
        or :meth:`legal_discards`, or one that :meth:`is_legal` accepts), without judging it
        and without a :class:`Verdict`: python-chess's ``Board.push``, whose legality is the
        caller's. ``pop`` takes it back exactly.

        A draw and a discard (nine pushes in ten) save only the fields they change; the
        other actions save the whole table and apply through the same code as the judged
        path (a draw from an empty «pioche» is judged in its dict form).

        >>> from companion.complot.actions import Deal
        >>> game = Game(["Ana", "Ben"], level=1, dealer=1)
        >>> game.push_legal(Deal(tuple(range(79))))
        >>> draw = game.legal_draws()[0]
        >>> game.push_legal(draw)
        >>> game.push_legal(game.legal_discards()[2])
        >>> game.history[-1], game.current_player
        ({'type': 'discard', 'player': 0, 'card': 'etat-major:karl'}, 1)
        >>> game.pop()["type"], game.pop() == to_dict(draw, game.card_ids)
        ('discard', True)
        """
        s = self._state
        saved: Any
        if type(action) is Discard:
            saved = (s.hands, s.defausse, s.top_blocked, s.turns_done, s.window_used,
                     s.drawn, s.current, s.skip, s.window)
            self._discarded(s, action.seat, action.card)
        elif type(action) is Draw and (s.pioche or action.pile == "defausse"):
            saved = (s.pioche, s.defausse, s.top_blocked, s.hands, s.window, s.drawn,
                     s.phase)
            self._drawn(s, action.seat, action.pile)
        elif type(action) in _LEGAL:
            saved = s.save()
            _LEGAL[type(action)](self, s, action)
        else:  # a draw from an empty «pioche» (C16, C51c): judged, logged as its line
            self._push_judged(to_dict(action, self.card_ids))
            return
        self._undo.append((saved, action))

    def _push_judged(self, line: dict[str, Any]) -> None:
        """``push(line)``, which must apply it (ValueError, nothing changed, otherwise)."""
        if not self.push(line).changed:
            raise ValueError(f"push_legal: {line} is not legal here")

    def _legal_deal(self, s: State, action: Deal) -> None:
        self._start_manche(s, list(action.order))

    def _legal_kill(self, s: State, action: Kill) -> None:
        self._killed(s, action.card, [])

    def _legal_claim(self, s: State, action: Claim) -> None:
        seat, word = action
        moment = self._moment(s, seat, word)
        if moment == "mid_turn":  # an Élysée after drawing (C41): a wrong claim
            self._wrong_claim(s, seat, moment, "elysee_must_wait")
        else:  # the hand the referee knows: C47's card checks hold at a legal claim
            cards = self.deck.cards
            verdict = hand_verdict(self.level, [cards[card] for card in s.hands[seat]], word,
                                   *self._claim_moment(s, seat, moment))
            self._settle_claim(s, seat, word, moment, verdict)

    def _legal_card_action(self, s: State, action: CardAction) -> None:
        kind, seat, cards, targets, take, discard, defence = action
        used = list(self._ids_of(cards))
        if defence is not None:
            self._defended(s, seat, kind, used, targets[0], self.card_ids[defence])
        else:
            self._carry_out(s, seat, kind, used, list(targets), list(take), list(discard))

    def is_legal(self, action: Action) -> bool:
        """Whether the referee would apply ``action`` now (a wrong claim included: it
        costs a turn, C44), judged in its dict form.

        >>> from companion.complot.actions import Claim
        >>> Game(["Ana", "Ben"]).is_legal(Claim(0, "complot"))    # nothing dealt yet
        False
        """
        return self.check(to_dict(action, self.card_ids)).changed

    def legal_draws(self) -> tuple[Draw, ...]:
        """The draws of the current player: from the «pioche», then (when its top card may
        be taken, C13, C68, C83) from the «défausse»; none once they have drawn."""
        s = self._state
        if s.phase != "turn" or s.drawn:
            return ()
        draws = self.moves.draws[s.current]
        defausse = s.defausse
        if not defausse or s.top_blocked or self.is_attentat[defausse[-1]]:
            return draws[:1]
        return draws

    def legal_discards(self) -> tuple[Discard, ...]:
        """The discards of the current player once they have drawn, in the hand's order."""
        s = self._state
        if s.phase != "turn" or not s.drawn:
            return ()
        return tuple(map(self.moves.discards[s.current].__getitem__, s.hands[s.current]))

    def parse(self, line: Any) -> Action | None:
        """The typed form of a table log's line (its shape only; see :func:`.actions.parse`)."""
        return parse(line, self.card_numbers)

    def action_dict(self, action: Action) -> dict[str, Any]:
        """The table log's line of a typed action."""
        return to_dict(action, self.card_ids)

    @property
    def history(self) -> tuple[dict[str, Any], ...]:
        """The applied actions, first first (the table log's lines after the header)."""
        ids = self.card_ids
        return tuple(action if type(action) is dict else to_dict(action, ids)
                     for _, action in self._undo)

    def copy(self) -> Game:
        """An independent game in the same position, with the same history (undo included)."""
        twin = Game(self.players, self.level, self.first_dealer, self.seed, self.deck,
                    self.target, self.start_scores)
        twin._state = self._state.copy()
        twin._undo = list(self._undo)  # the saved values are immutable
        return twin

    def _judge(self, state: State, action: Any) -> Verdict:
        kind = action.get("type") if isinstance(action, dict) else None
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:  # not an object, or no type of ACTION_TYPES
            return Verdict(False, "bad_input")
        try:
            return handler(self, state, action)
        except _Refused as refusal:
            return Verdict(False, refusal.code)

    # -- gates ---------------------------------------------------------------------------------
    def _seat(self, action: dict[str, Any]) -> int:
        seat = action.get("player")
        # type(...) is int: the usual answer without a call (is_int: no bool, C94)
        if not (type(seat) is int or is_int(seat)) or not 0 <= seat < self._seats:
            raise _Refused("bad_input")
        return seat

    def _gate(self, s: State, action: dict[str, Any]) -> int:
        """The seat whose turn it is, after C47's referee checks (game, manche, turn)."""
        seat = self._seat(action)
        phase = s.phase
        if phase != "turn" or seat != s.current:
            if phase == "game_over":
                raise _Refused("game_over")
            if phase in ("manche_over", "deal"):
                raise _Refused("manche_over")
            raise _Refused("not_your_turn")
        if s.out[seat]:
            raise _Refused("player_out")
        return seat

    def _card_list(self, action: dict[str, Any], key: str) -> list[int]:
        """The cards of ``action[key]`` (a list of card ids) as numbers."""
        cards = action.get(key, [])
        if not isinstance(cards, list) or not all(map(isinstance, cards, repeat(str))):
            raise _Refused("bad_input")  # every card an id (map: no Python call per card)
        numbers = list(map(self.card_numbers.get, cards))
        if None in numbers:
            raise _Refused("unknown_card")
        return numbers  # type: ignore[return-value]  # no None left

    def _number(self, card_id: str) -> int:
        number = self.card_numbers.get(card_id)
        if number is None:
            raise _Refused("unknown_card")
        return number

    # -- the deal (C11, C12, C81) ----------------------------------------------------------------
    def _deal(self, s: State, action: dict[str, Any]) -> Verdict:
        if s.phase == "game_over":
            raise _Refused("game_over")
        if s.phase not in ("deal", "manche_over"):
            raise _Refused("setup_invalid")
        order = self._card_list(action, "order")
        if len(set(order)) != len(order):
            raise _Refused("duplicate_card")
        if self.level < 3 and any(self.deck.cards[card].is_villain for card in order):
            raise _Refused("card_not_in_play")
        if sorted(order) != self._in_play:
            raise _Refused("setup_invalid")
        self._start_manche(s, order)
        return Verdict(True, changed=True, events=[("dealt", {"manche": s.manche,
                                                             "dealer": s.dealer})])

    def _start_manche(self, s: State, order: list[int]) -> None:
        """Deal a new manche: every pile is dealt in lists, then kept as tuples."""
        n = s.players
        s.manche += 1
        s.phase, s.drawn, s.end_reason, s.window, s.window_used = "turn", False, None, None, False
        first = (s.dealer + 1) % n
        dealt = HAND * n
        # Six rounds of one card each, clockwise from the dealer's left (C11): the seat that
        # comes k places after the first gets the cards k, k + n, k + 2n… of the order.
        hands = [order[(seat - first) % n:dealt:n] for seat in range(n)]
        pioche = order[dealt:][::-1]  # its top card last, taken with pop()
        defausse: list[int] = []
        if self.level >= 3:
            seats = [(first + step) % n for step in range(n)]
            self._attentats_at_deal(hands, pioche, defausse, seats)
        defausse.append(pioche.pop())
        while self.is_attentat[defausse[-1]]:
            defausse.append(pioche.pop())
        s.pioche, s.defausse, s.top_blocked, s.claims = tuple(pioche), tuple(defausse), False, ()
        s.hands, s.laid = tuple(map(tuple, hands)), ((),) * n
        s.out, s.skip, s.turns_done = (False,) * n, (False,) * n, (0,) * n
        s.manche_points = (0,) * n
        s.current = first

    def _attentats_at_deal(self, hands: list[list[int]], pioche: list[int],
                           defausse: list[int], seats: list[int]) -> None:
        """C81: discard every Attentat, refill clockwise, until nobody holds one."""
        is_attentat, attentats = self.is_attentat, self.attentats
        while not attentats.isdisjoint(chain.from_iterable(hands)):  # (in C: every deal asks)
            for seat in seats:
                if not attentats.isdisjoint(hands[seat]):
                    defausse.extend(card for card in hands[seat] if is_attentat[card])
                    hands[seat] = [card for card in hands[seat] if not is_attentat[card]]
            for seat in seats:
                while len(hands[seat]) < HAND:
                    hands[seat].append(pioche.pop())

    # -- the pioche (C16, C83) -----------------------------------------------------------------
    def _from_pioche(self, s: State) -> int | None:
        """The top card of the «pioche», reshuffling the «défausse» under its top card when the
        «pioche» is empty (C16); None (and the manche ends, C51c) when there is still none."""
        if not s.pioche and len(s.defausse) > 1:
            rest = list(s.defausse[:-1])
            random.Random(f"{self.seed}/{s.manche}/{s.reshuffles}").shuffle(rest)
            s.pioche, s.defausse = tuple(rest), s.defausse[-1:]
            s.reshuffles += 1
        if not s.pioche:
            self._end_manche(s, "pioche_empty")
            return None
        return s.take_top_of_pioche()

    def _refill(self, s: State, seat: int, events: list[tuple[str, dict[str, Any]]]) -> None:
        """Back to 6 cards from the «pioche»; Attentats drawn are discarded (C83)."""
        while len(s.hands[seat]) < HAND and s.phase != "manche_over":
            card = self._from_pioche(s)
            if card is None:
                return
            if self.is_attentat[card]:
                s.discard(card)
                s.top_blocked = True
                events.append(("attentat_discarded", {"player": seat,
                                                      "card": self.card_ids[card]}))
            else:
                s.give(seat, card)

    # -- a turn (C13, C14, C82) ----------------------------------------------------------------
    def _draw(self, s: State, action: dict[str, Any]) -> Verdict:
        seat = self._gate(s, action)
        source = action.get("from")
        if source not in ("pioche", "defausse"):
            raise _Refused("bad_input")
        if s.drawn:
            raise _Refused("already_drawn")
        if source == "defausse":
            if not s.defausse:
                raise _Refused("discard_empty")
            if s.top_blocked or self.is_attentat[s.defausse[-1]]:
                raise _Refused("discard_top_blocked")
        card = self._drawn(s, seat, source)
        events: list[tuple[str, dict[str, Any]]] = [("drew", {"player": seat, "from": source})]
        if card is not None and self.is_attentat[card]:
            events.append(("attentat", {"player": seat, "by": s.previous_seat(seat)}))
        return Verdict(True, None, True, 0, None, events)

    def _drawn(self, s: State, seat: int, source: str) -> int | None:
        """Apply a legal draw; the card drawn, or None when the manche ended for want of one
        (C51c). An Attentat drawn waits for its kill (C82)."""
        if source == "defausse":
            defausse = s.defausse
            card: int | None = defausse[-1]
            s.defausse, s.top_blocked = defausse[:-1], False
        elif s.pioche:
            card = s.pioche[-1]  # s.take_top_of_pioche(), written out: half the pushes
            s.pioche = s.pioche[:-1]
        else:
            card = self._from_pioche(s)
        s.window, s.drawn = None, True
        if card is not None:
            hands = list(s.hands)  # replaced(...), written out: half the pushes come here
            hands[seat] += (card,)
            s.hands = tuple(hands)
            if self.is_attentat[card]:
                s.phase = "attentat"
        return card

    def _kill(self, s: State, action: dict[str, Any]) -> Verdict:
        """C82: the previous player takes one card blind from the victim's hand."""
        seat = self._seat(action)
        if s.phase != "attentat":
            raise _Refused("game_over" if s.phase == "game_over" else "not_your_turn")
        victim = s.current
        if seat != s.previous_seat(victim):
            raise _Refused("not_your_turn")
        card_id = action.get("card")
        if not isinstance(card_id, str):
            raise _Refused("bad_input")
        card = self._number(card_id)
        hand = s.hands[victim]
        if card not in hand or self.is_attentat[card]:
            raise _Refused("card_not_in_hand")
        events: list[tuple[str, dict[str, Any]]] = [
            ("killed", {"player": victim, "by": seat, "card": card_id})]
        self._killed(s, card, events)
        return Verdict(True, changed=True, events=events)

    def _killed(self, s: State, card: int, events: list[tuple[str, dict[str, Any]]]) -> None:
        """Apply a legal kill of ``card``: it and the Attentat to the «défausse», the victim
        back to 6 cards, their turn over (C82, C83)."""
        victim = s.current
        attentat = next(held for held in s.hands[victim] if self.is_attentat[held])
        s.take(victim, card)
        s.take(victim, attentat)
        s.discard(card, attentat)
        s.top_blocked = True
        s.phase = "turn"
        self._refill(s, victim, events)
        if s.phase == "turn":
            self._end_turn(s, victim, window=False)

    def _discard(self, s: State, action: dict[str, Any]) -> Verdict:
        seat = self._gate(s, action)
        card_id = action.get("card")
        if not isinstance(card_id, str):
            raise _Refused("bad_input")
        card = self.card_numbers.get(card_id)
        if card is None:
            raise _Refused("unknown_card")
        if not s.drawn:
            raise _Refused("must_draw_first")
        hand = s.hands[seat]
        if card not in hand:
            raise _Refused("card_not_in_hand")
        self._discarded(s, seat, card)
        return Verdict(True, None, True, 0, None,
                       [("discarded", {"player": seat, "card": card_id})])

    def _discarded(self, s: State, seat: int, card: int) -> None:
        """Apply a legal discard: the card on the «défausse», the turn to the next player."""
        hands = list(s.hands)  # replaced(hands, seat, without(hand, card)), written out
        hand = hands[seat]
        at = hand.index(card)
        hands[seat] = hand[:at] + hand[at + 1:]
        s.hands = tuple(hands)
        s.defausse += (card,)
        s.top_blocked = False
        self._end_turn(s, seat, window=True)

    def _end_turn(self, s: State, seat: int, window: bool) -> None:
        """Pass the turn clockwise, skipping players who must pass (C15, C44)."""
        done = list(s.turns_done)  # replaced(...), written out: every turn comes here
        done[seat] += 1
        s.turns_done = tuple(done)
        s.window_used = s.skip[seat]  # a wrong claim earlier in this turn used it (C45)
        s.drawn = False
        following = (seat + 1) % s.players  # the usual answer, without a call
        if s.out[following] or s.skip[following]:
            following = self._next_player(s, seat)
        s.current = following
        # Who plays again at once (every other player passed: a passed turn is a turn, C44)
        # has no late claim to make: their claim now is the end of this new turn (C30).
        s.window = seat if window and s.current != seat else None

    def _next_player(self, s: State, seat: int) -> int:
        """Who plays after ``seat``: the next seat still in, past those who must pass (each
        passed turn counted, C44)."""
        following = s.next_seat(seat)
        while s.skip[following]:
            s.skip = replaced(s.skip, following, False)
            s.turns_done = replaced(s.turns_done, following, s.turns_done[following] + 1)
            following = s.next_seat(following)
        return following

    # -- claims (C30–C47) ----------------------------------------------------------------------
    def _claim(self, s: State, action: dict[str, Any]) -> Verdict:
        seat = self._claimant(s, action)
        word = action.get("claim")
        moment = self._moment(s, seat, word)
        if moment == "mid_turn" and word != "complot_elysee":
            raise _Refused("must_keep_six")
        if "cards" in action:
            cards = self._card_list(action, "cards")
            ids = action["cards"]
        else:
            cards, ids = list(s.hands[seat]), list(self._ids_of(s.hands[seat]))
        if moment == "mid_turn":  # an Élysée after drawing (C41): a wrong claim
            return self._wrong_claim(s, seat, moment, "elysee_must_wait")
        verdict = self._claim_verdict(s, seat, str(word), moment, ids)
        code = verdict["code"]
        if code is not None and code not in WRONG_CLAIM:
            raise _Refused(code)
        if sorted(cards) != sorted(s.hands[seat]):
            raise _Refused("card_not_in_hand")
        return self._settle_claim(s, seat, str(word), moment, verdict)

    def _claim_verdict(self, s: State, seat: int, word: str, moment: str,
                       ids: Sequence[str]) -> dict[str, Any]:
        """C90 on the laid-down cards ``ids`` at ``moment`` (``window`` or ``turn_start``)."""
        return claim_verdict(self.level, ids, word, *self._claim_moment(s, seat, moment),
                             deck=self.deck)

    @staticmethod
    def _claim_moment(s: State, seat: int, moment: str) -> tuple[str, bool]:
        """C90's ``moment`` and ``first_turn`` of a claim by ``seat`` at ``moment``."""
        return ("turn_start" if moment == "turn_start" else "discard",
                s.turns_done[seat] == 0 and moment != "window")

    def _settle_claim(self, s: State, seat: int, word: str, moment: str,
                      verdict: dict[str, Any]) -> Verdict:
        """Apply a judged claim: accepted, or a wrong claim (its code one of WRONG_CLAIM)."""
        code = verdict["code"]
        if code is not None:
            return self._wrong_claim(s, seat, moment, code)
        return self._accept_claim(s, seat, word, verdict)

    def _claimant(self, s: State, action: dict[str, Any]) -> int:
        """The claiming seat, after C47's referee checks, which come before ``bad_input``
        (once the manche is over, every claim is ``manche_over`` whatever it holds, C93)."""
        if s.phase == "game_over":
            raise _Refused("game_over")
        if s.phase not in ("turn", "attentat"):
            raise _Refused("manche_over")
        seat = self._seat(action)
        if s.phase == "attentat":
            raise _Refused("not_your_turn")
        in_window = s.window == seat and not (
            action.get("claim") == "complot_elysee" and seat == s.current)
        if seat != s.current and not in_window:
            raise _Refused("not_your_turn")
        if s.out[seat]:
            raise _Refused("player_out")
        if (in_window and s.window_used) or (seat == s.current and s.drawn and s.skip[seat]):
            raise _Refused("one_claim_per_turn")
        if action.get("claim") not in CLAIMS:
            raise _Refused("bad_input")
        return seat

    @staticmethod
    def _moment(s: State, seat: int, word: Any) -> str:
        """``window`` (right after the discard), ``turn_start`` or ``mid_turn`` (drawn)."""
        if s.window == seat and not (word == "complot_elysee" and seat == s.current):
            return "window"
        return "mid_turn" if s.drawn else "turn_start"

    def _wrong_claim(self, s: State, seat: int, moment: str, code: str) -> Verdict:
        """C44: cards taken back; a turn passed (this one at a turn start, else the next)."""
        if moment == "turn_start":
            s.window = None
            self._end_turn(s, seat, window=False)
        else:
            s.skip = replaced(s.skip, seat, True)
            s.window_used = s.window == seat
        return Verdict(False, code, changed=True,
                       events=[("wrong_claim", {"player": seat, "code": code})])

    def _accept_claim(self, s: State, seat: int, word: str, verdict: dict[str, Any]) -> Verdict:
        points = verdict["points"]
        s.out = replaced(s.out, seat, True)
        s.laid = replaced(s.laid, seat, s.hands[seat])
        s.hands = replaced(s.hands, seat, ())
        s.manche_points = replaced(s.manche_points, seat, points)
        s.claims += ((seat, word, points),)
        s.window = None
        events: list[tuple[str, dict[str, Any]]] = [("claimed", {
            "player": seat, "combination": verdict["combination"], "points": points})]
        if verdict["combination"] == "complot_elysee":
            self._end_manche(s, "elysee")
        elif s.out.count(False) == 1:  # len(s.still_in()), without the list
            self._end_manche(s, "last_player")
        elif s.out[s.current]:
            s.drawn = False
            s.current = self._next_player(s, s.current)
        if s.phase != "turn":
            events.append(("manche_over", {"reason": s.end_reason,
                                           "points": list(s.manche_points)}))
        return Verdict(True, changed=True, points=points,
                       combination=verdict["combination"], events=events)

    def _end_manche(self, s: State, reason: str) -> None:
        """C51–C56: score the manche, pass the deal, and end the game at 400."""
        s.end_reason = reason
        s.scores = tuple([total + won for total, won in zip(s.scores, s.manche_points,
                                                            strict=True)])
        s.dealer = (s.dealer + 1) % s.players
        s.window = None
        s.phase = "game_over" if game_winners(s.scores, self.target) else "manche_over"

    # -- level 2 and 3 actions (C60–C87) ---------------------------------------------------------
    def _action(self, s: State, action: dict[str, Any]) -> Verdict:
        seat = self._gate(s, action)
        kind = action["type"]
        used = self._card_list(action, "cards")
        targets = action.get("targets")
        if not isinstance(targets, list) or not all(is_int(target) for target in targets):
            raise _Refused("bad_input")
        code = action_problem({
            "level": self.level, "action": kind, "hand": self._ids_of(s.hands[seat]),
            "cards": action["cards"], "actor": seat, "targets": targets,
            "active": s.still_in(), "drawn": s.drawn, "actions_this_turn": 0}, self.deck)
        if code is not None:
            raise _Refused(code)
        take = self._card_list(action, "take")
        discard = self._card_list(action, "discard")
        defence = action.get("defence")
        if defence is not None:
            self._check_defence(s, kind, action["cards"], targets[0], defence)
            return self._defended(s, seat, kind, action["cards"], targets[0], defence)
        self._check_taking(s, kind, targets, take)
        kept = [card for card in s.hands[seat] if card not in used] + take
        if len(discard) != DISCARDED[kind] or len(set(discard)) != len(discard):
            raise _Refused("must_keep_six")
        if any(card not in kept for card in discard):
            raise _Refused("card_not_in_hand")
        return self._carry_out(s, seat, kind, action["cards"], targets, take, discard)

    def _check_taking(self, s: State, kind: str, targets: list[int], take: list[int]) -> None:
        if len(take) != TAKEN[kind] or len(set(take)) != len(take):
            raise _Refused("wrong_card_count")
        sources = targets if kind == "double_hameconnage" else [targets[0]] * len(take)
        if any(card not in s.hands[source] for card, source in zip(take, sources, strict=True)):
            raise _Refused("card_not_in_hand")

    def _check_defence(self, s: State, kind: str, used: list[str], target: int,
                       defence: Any) -> None:
        """C65–C67: the target shows an État-Major card of a strictly higher grade."""
        if not isinstance(defence, str):
            raise _Refused("bad_input")
        code = defence_problem(kind, used, defence, self.deck)
        if code is None and self.card_numbers[defence] not in s.hands[target]:
            code = "card_not_in_hand"
        if code is not None:
            raise _Refused(code)

    def _defended(self, s: State, seat: int, kind: str, used: list[str], target: int,
                  defence: str) -> Verdict:
        """Apply a legal defence: the action's cards discarded, nothing taken (C65–C67)."""
        numbers = [self.card_numbers[card] for card in used]
        for card in numbers:
            s.take(seat, card)
        s.discard(*numbers)
        s.top_blocked = True
        events: list[tuple[str, dict[str, Any]]] = [("defended", {
            "player": seat, "action": kind, "target": target, "defence": defence})]
        self._refill(s, seat, events)  # C67: after a descente the player draws 2
        if s.phase == "turn":
            self._end_turn(s, seat, window=True)
        return Verdict(True, changed=True, events=events)

    def _carry_out(self, s: State, seat: int, kind: str, used: list[str], targets: list[int],
                   take: list[int], discard: list[int]) -> Verdict:
        numbers = [self.card_numbers[card] for card in used]
        for card in numbers:
            s.take(seat, card)
        sources = targets if kind == "double_hameconnage" else [targets[0]] * len(take)
        for card, source in zip(take, sources, strict=True):
            s.take(source, card)
        if kind == "bombe":
            s.discard(*take)  # C86: the three killed characters, face up
        else:
            s.hands = replaced(s.hands, seat, s.hands[seat] + tuple(take))
        events: list[tuple[str, dict[str, Any]]] = [("action", {
            "player": seat, "action": kind, "targets": targets, "cards": used})]
        for target in sorted(targets, key=lambda t: (t - seat) % s.players):
            self._refill(s, target, events)
        if s.phase != "turn":
            return Verdict(True, changed=True, events=events)
        for card in discard:
            s.take(seat, card)
        s.discard(*discard, *numbers)
        s.top_blocked = True
        self._end_turn(s, seat, window=True)
        return Verdict(True, changed=True, events=events)

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> Iterator[dict[str, Any]]:
        """Every accepted action of the current player (draws, discards, claims, actions)
        and of the claim window; at a manche's end, nothing (the next deal is the table's)."""
        s = self._state
        candidates = list(self._candidates(s))
        for action in candidates:
            if self.check(action).accepted:
                yield action

    def _candidates(self, s: State) -> Iterator[dict[str, Any]]:
        if s.phase == "attentat":
            killer = s.previous_seat(s.current)
            for card in self._ids_of(s.hands[s.current]):
                yield {"type": "kill", "player": killer, "card": card}
            return
        if s.phase != "turn":
            return
        seat = s.current
        claimants = [seat] + ([s.window] if s.window is not None else [])
        for claimant in claimants:
            for word in ("complot", "prix_pulitzer", "plan_etare", "complot_elysee"):
                yield {"type": "claim", "player": claimant, "claim": word}
        if not s.drawn:
            yield {"type": "draw", "player": seat, "from": "pioche"}
            yield {"type": "draw", "player": seat, "from": "defausse"}
            return
        for card in self._ids_of(s.hands[seat]):
            yield {"type": "discard", "player": seat, "card": card}
        yield from self._action_candidates(s, seat)

    def _action_candidates(self, s: State, seat: int) -> Iterator[dict[str, Any]]:
        """Actions with their first choices (seizing and discarding the first cards)."""
        if self.level < 2:
            return
        hand = self._ids_of(s.hands[seat])
        opponents = [other for other in s.still_in() if other != seat]
        for kind, (category, count, target_count) in ACTIONS.items():
            usable = [card for card in hand if self.deck[card].category == category]
            if len(usable) < count or len(opponents) < target_count:
                continue
            targets = opponents[:target_count]
            used = usable[:count]
            sources = targets if kind == "double_hameconnage" else [targets[0]] * TAKEN[kind]
            take = [self.card_ids[s.hands[source][i]] for i, source in enumerate(sources)]
            kept = [card for card in hand if card not in used] + take
            yield {"type": kind, "player": seat, "cards": used, "targets": targets,
                   "take": take, "discard": kept[:DISCARDED[kind]]}

    # -- state and JSON ------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The table as a JSON object (known cards)."""
        s = self._state
        return {
            "manche": s.manche, "phase": s.phase, "dealer": s.dealer,
            "current_player": self.current_player, "drawn": s.drawn,
            "hands": [list(self._ids_of(hand)) for hand in s.hands],
            "laid": [list(self._ids_of(cards)) for cards in s.laid],
            "pioche_count": len(s.pioche), "defausse": list(self._ids_of(s.defausse)),
            "top_blocked": s.top_blocked, "still_in": s.still_in() if s.out else [],
            "skip": list(s.skip), "claim_window": s.window, "scores": list(s.scores),
            "manche_points": list(s.manche_points), "end_reason": s.end_reason,
            "winners": list(self.winners),
        }

    def header(self) -> dict[str, Any]:
        """The table log's first line for this game."""
        return {"format": "complot-table-log", "version": 1, "players": list(self.players),
                "options": {"level": self.level, "dealer": self.first_dealer,
                            "seed": self.seed, "target": self.target,
                            "scores": list(self.start_scores)}}

    def to_json(self) -> str:
        """The game as a Complot table log (header, then every applied action)."""
        lines = [self.header(), *self.history]
        return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)

    @classmethod
    def from_json(cls, text: str, deck: Deck | None = None) -> Game:
        """The game a table log describes (ValueError when it is not one).

        >>> game = Game(["Ana", "Ben"])
        >>> Game.from_json(game.to_json()).to_json() == game.to_json()
        True
        """
        from .tablelog import game_from_header

        lines = [line for line in text.split("\n") if line.strip()]
        if not lines:
            raise ValueError("The table log is empty.")
        game = game_from_header(json.loads(lines[0]), deck)
        for number, line in enumerate(lines[1:], start=2):
            if not game.push(json.loads(line)).changed:
                raise ValueError(f"Line {number} of the table log is refused.")
        return game


_HANDLERS = {
    "deal": Game._deal, "draw": Game._draw, "kill": Game._kill, "discard": Game._discard,
    "claim": Game._claim, **{kind: Game._action for kind in ACTIONS},
}
#: The typed actions :meth:`Game.push_legal` applies through a path of their own, the fields
#: saved whole (the draw and the discard, most pushes, are written out in push_legal).
_LEGAL: dict[type, Callable[[Game, State, Any], None]] = {
    Deal: Game._legal_deal, Kill: Game._legal_kill, Claim: Game._legal_claim,
    CardAction: Game._legal_card_action,
}
