"""The referee: :class:`Game` judges every action at the table and keeps an exact undo record.

The design follows python-chess: a game is a current state plus a stack of earlier states, and
``push``/``pop`` move along it. States are small records of immutable values (tuples, ints), so
an action copies one record and rebuilds only the tuples it changes; undo (R55) puts the previous
record back, exactly, across turn, departure and round boundaries alike. A rejected action never
touches the record (R53).

>>> from companion.game.actions import StartRound, Play, MoveNoah
>>> game = Game(["Ana", "Ben"], Options(hidden=True))
>>> game.push(StartRound(noah=0, ferries=("cat:F", "bear:M", "lion:M", "panda:F", "snail:M"),
...                      hand_counts=(8, 8), starter=1)).accepted
True
>>> verdict = game.push(Play(player=1, card="cat:F", ferry=2))
>>> verdict.reason, verdict.message
('wrong_ferry', 'Noah is on ferry 1: load your animal there, not on ferry 3.')
>>> game.push(Play(player=1, card="cat:M", ferry=0)).message
'Ben loaded the ♂ cat on ferry 1.'
>>> game.legal_noah_moves()
[2, 3]

Decisions where RULINGS.md is silent are listed in docs/rules-engine.md; the main ones:
an untagged card in a known hand stands for any copy of its species and gender; the round before
the first deal is phase ``round_over`` (round 0); ``current_player`` is None while no seat is
expected to act (``scan``, ``round_over``, ``game_over``).
"""

from __future__ import annotations

import itertools
import json
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias, cast

from . import legal
from .actions import (
    Action,
    CrocFlee,
    Gift,
    GiraffeLook,
    Give,
    LionSwap,
    MoveNoah,
    Play,
    Position,
    ScanHands,
    ScoreRound,
    StartRound,
    TakeBack,
    action_from_dict,
    action_to_dict,
)
from .deck import FERRY_CARDS, HAND_SIZE, Deck, default_deck, format_ref, parse_deck, parse_ref
from .errors import InputError
from .ferry import (
    CAPACITY,
    NOAH_MOVES,
    RESERVE,
    WOODPECKER_CAPACITY,
    FerryFacts,
    Loading,
    Placed,
    ferry_facts,
    new_loading,
)
from .options import Options
from .scoring import ROUNDS_PER_GAME, is_game_over, next_starter, winners
from .sizes import FERRY_COUNT, MAX_PLAYERS, MIN_PLAYERS, PLAYER_COUNTS, TEAR_TARGET
from .state import (
    IN_ROUND_PHASES,
    Hands,
    NamedCard,
    Phase,
    State,
    add_departed,
    cards_of,
    find_in_hand,
    hand_form,
    identity,
    initial_state,
    kind,
    place_on_table,
    placed_card,
    replace_at,
    set_ferries,
    set_ferry,
    visible_count,
)
from .verdict import Event, RawEvent, Verdict

__all__ = ["FERRY_COUNT", "NOAH_MOVES", "Event", "Game", "Placed", "Verdict"]

#: An accepted action's result: the new record and what happened.
Outcome: TypeAlias = tuple[State, list[RawEvent]]

CROCODILE_TEARS = 2  # R44
#: The reason given when an action of another kind arrives during a phase (R50).
AWAITED: dict[Phase, str] = {
    "play": "must_play",
    "croc_flee": "must_choose_flee_target",
    "lion_swap": "must_lion_swap",
    "move_noah": "must_move_noah",
    "give": "must_give_cards",
    "scan": "must_scan_hands",
    "round_over": "round_over",
    "game_over": "game_over",
}
_SYMBOL = {"M": "♂ ", "F": "♀ "}


def _is_int(value: Any) -> bool:
    return type(value) is int


def _animal(species: str, gender: str | None) -> str:
    """``♀ cat`` for people; a snail in hand has no symbol."""
    return _SYMBOL.get(gender or "", "") + species



class Game:
    """A game of Noah at one table: judge actions, undo them, report the state.

    ``players`` are the names in seat order (clockwise, 2-5); ``deck`` is the box's composition
    (default: the RULINGS appendix). Raises :class:`InputError` for a setup that cannot be played.

    >>> Game(["Ana", "Ben", "Chloé"])
    <Game Ana, Ben, Chloé: round 0, round_over>
    >>> Game(["Ana"])
    Traceback (most recent call last):
    ...
    companion.game.errors.InputError: Noah is played by 2 to 5 players, not 1: change the list ...
    """

    # Slots keep attribute access fast: CPython 3.11 stops specialising it on an instance
    # whose __dict__ has been read (as a copy would). The __dict__ slot still lets a test
    # patch a method on one game.
    __slots__ = (
        "__dict__", "_cards", "_copies", "_deck", "_handlers", "_history", "_ids", "_in_play",
        "_opponents", "_options", "_players", "_species_copies", "_state", "_tears", "_undo",
        "_weight",
    )

    def __init__(
        self, players: Sequence[str], options: Options | None = None, deck: Deck | None = None
    ) -> None:
        options = options if options is not None else Options()
        names = tuple(players)
        if len(names) not in PLAYER_COUNTS:
            raise InputError(f"Noah is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                             f"not {len(names)}: change the list of players.", field="players")
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise InputError("Every player needs a name: fill in the empty names.",
                             field="players")
        if len(set(names)) != len(names):
            raise InputError("Two players have the same name: make the names different.",
                             field="players")
        self._players = names
        self._options = options
        self._deck = deck if deck is not None else default_deck()
        self._cards = cards = cards_of(self._deck, self._deck.source, len(names), options)
        self._in_play = cards.in_play
        needed = FERRY_CARDS + HAND_SIZE * len(names)
        if not options.score_only and len(self._in_play) < needed:
            raise InputError(
                f"A {len(names)}-player deal needs {needed} animals but these options leave "
                f"{len(self._in_play)} in the deck: play without one of the promo options.",
                field="options",
            )
        # Read on every action: kept as attributes of their own (one lookup, not two).
        self._weight, self._tears, self._copies = cards.weight, cards.tears, cards.copies
        self._species_copies, self._ids = cards.species_copies, cards.ids
        seats = range(len(names))
        self._opponents = [tuple(other for other in seats if other != seat) for seat in seats]
        self._handlers = _SCORE_ONLY_HANDLERS if options.score_only else _PLAYED_HANDLERS
        self._state = initial_state(len(names))
        self._undo: list[State] = []
        self._history: list[Action] = []

    def __repr__(self) -> str:
        s = self._state
        who = "" if s.player is None else f", {self._players[s.player]} to act"
        return f"<Game {', '.join(self._players)}: round {s.round}, {s.phase}{who}>"

    # ----------------------------------------------------------------- properties

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def options(self) -> Options:
        return self._options

    @property
    def deck(self) -> Deck:
        """The whole deck given (use ``deck.for_game`` / :attr:`cards_in_play` for this game)."""
        return self._deck

    @property
    def cards_in_play(self) -> Deck:
        """The cards used in this game (R5, R6)."""
        return self._in_play

    @property
    def history(self) -> tuple[Action, ...]:
        """The accepted actions, in order."""
        return tuple(self._history)

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def current_player(self) -> int | None:
        return self._state.player

    @property
    def noah(self) -> int | None:
        return self._state.noah

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def scores(self) -> tuple[int, ...]:
        return self._state.scores

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats sharing the victory, once the game is over (else empty)."""
        return self._state.winners

    @property
    def is_over(self) -> bool:
        return self._state.phase == "game_over"

    # Typed reads of the state for the referee session (the same facts as :meth:`state`'s
    # keys of the same names, without building the whole dict).

    @property
    def ferries(self) -> tuple[tuple[str, ...] | None, ...]:
        """The references on each ferry, bottom first; None for a ferry gone for good."""
        return tuple(None if ferry is None else tuple(card.ref for card in ferry)
                     for ferry in self._state.ferries)

    @property
    def hand_counts(self) -> tuple[int, ...]:
        """Cards in each seat's hand."""
        return tuple(self._state.counts)

    @property
    def departed_cards(self) -> tuple[str, ...]:
        """The animals that left on a ferry this round."""
        return tuple(self._state.departed_cards)

    @property
    def round_scores(self) -> tuple[int, ...]:
        """Each seat's tears in the last scored round (empty before the first)."""
        return tuple(self._state.round_scores)

    @property
    def gifts_owed(self) -> int:
        """Cards the departing player still has to give (R20)."""
        return int(self._state.gifts_owed or 0)

    @property
    def giraffe_look(self) -> bool:
        """A giraffe was loaded this turn and its look is still possible (R31)."""
        return bool(self._state.giraffe)

    @property
    def fleeing(self) -> str | None:
        """The animal fleeing a crocodile, awaiting its receiver (R45)."""
        fleeing = self._state.fleeing
        return None if fleeing is None else str(fleeing.ref)

    @property
    def pending(self) -> dict[str, Any]:
        """What the step awaits: phase, seat, and the step's facts (gifts owed, Noah's choices...).

        >>> Game(["Ana", "Ben"]).pending
        {'phase': 'round_over', 'player': None, 'next_round': 1}
        """
        s = self._state
        pending: dict[str, Any] = {"phase": s.phase, "player": s.player}
        if s.phase == "give":
            pending["gifts_owed"] = s.gifts_owed
        elif s.phase == "move_noah":
            pending["noah_choices"] = self.legal_noah_moves()
            pending["giraffe_look"] = s.giraffe
        elif s.phase == "croc_flee" and s.fleeing is not None:
            pending["fleeing"] = s.fleeing.ref
        elif s.phase == "play":
            pending["ferry"] = s.noah
            pending["extra_turn"] = s.extra_turn
        elif s.phase == "scan":
            pending["hand_counts"] = s.counts
        elif s.phase == "round_over":
            pending["next_round"] = s.round + 1
        return pending

    # ----------------------------------------------------------------- judging

    def push(self, action: Action) -> Verdict:
        """Apply ``action`` if it is legal; a rejection changes nothing (R53)."""
        # _judge written out: every action of a game passes here.
        handler = self._handlers.get(type(action))
        if handler is None:
            return self._not_an_action(action)
        outcome = handler(self, self._state, action)
        if isinstance(outcome, Verdict):
            return outcome
        state, events = outcome
        self._undo.append(self._state)
        self._state = state
        self._history.append(action)
        return Verdict(True, None, None, None, events)

    def check(self, action: Action) -> Verdict:
        """The verdict ``push`` would give, without changing anything."""
        outcome = self._judge(action)
        if isinstance(outcome, Verdict):
            return outcome
        return Verdict(True, None, None, None, outcome[1])

    def pop(self) -> Action:
        """Undo the last accepted action exactly (R55) and return it; IndexError if none."""
        if not self._history:
            raise IndexError("pop from a game with no accepted action")
        self._state = self._undo.pop()
        return self._history.pop()

    def copy(self) -> Game:
        """An independent game with the same record (states are shared, being immutable)."""
        twin = Game.__new__(Game)
        for name in _GAME_FIELDS:
            setattr(twin, name, getattr(self, name))
        twin._undo = list(self._undo)
        twin._history = list(self._history)
        return twin

    def _judge(self, action: Action) -> Verdict | Outcome:
        # One dict look-up finds both the handler and whether this kind of game takes the
        # action (score-only games take ScoreRound alone): every action passes here.
        handler = self._handlers.get(type(action))
        if handler is None:
            return self._not_an_action(action)
        return handler(self, self._state, action)

    def _not_an_action(self, action: Action) -> Verdict:
        if type(action) not in _HANDLERS:
            return self._reject("bad_action", problem=f"{action!r} is not an action of Noah")
        problem = ("this is a score-only game: enter each round's tears"
                   if self._options.score_only
                   else "score_round is only for score-only games")
        return self._reject("bad_action", problem=problem)

    def _reject(self, code: str, action: Any = None, **params: Any) -> Verdict:
        s = self._state
        context: dict[str, Any] = {
            "current_name": self._name(s.player),
            "noah_ferry": None if s.noah is None else s.noah + 1,
            "choices": " or ".join(str(to + 1) for to in self.legal_noah_moves()),
            "owed": s.gifts_owed,
            "fleeing": _animal(s.fleeing.species, s.fleeing.gender) if s.fleeing else "",
            "fleeing_card": s.fleeing.ref if s.fleeing else None,
            "noah_choices": [to + 1 for to in self.legal_noah_moves()],
            "next_round": s.round + 1,
            "players": len(self._players),
        }
        player = getattr(action, "player", None)
        if _is_int(player):
            context["seat"] = player
            context["name"] = self._name(player)
        context.update(params)
        return Verdict(False, code, params=context)

    def _name(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if 0 <= seat < len(self._players):
            return self._players[seat]
        return f"seat {seat}"

    def _gate(self, s: State, phase: Phase, action: Any) -> Verdict | None:
        """R50: the kind of action first (the step awaited), then the actor."""
        if s.phase != phase:
            return self._reject(AWAITED[s.phase], action)
        if action.player != s.player:
            return self._reject("not_your_turn", action)
        return None

    def _target_error(self, action: Any, target: Any) -> Verdict | None:
        """R52: lion, giraffe, crocodile and gift targets are opponents."""
        if target == action.player:
            return self._reject("invalid_target", action, target=target, variant="self")
        if not _is_int(target) or not 0 <= target < len(self._players):
            return self._reject("invalid_target", action, target=target)
        return None

    # ----------------------------------------------------------------- loading

    def _play(self, s: State, a: Play) -> Verdict | Outcome:
        if not (type(a.player) is int and type(a.ferry) is int and isinstance(a.card, str)):
            return self._reject("bad_action", a, problem="play needs player, card and ferry")
        rejection = self._gate(s, "play", a)
        if rejection:
            return rejection
        noah = s.noah
        if a.ferry != noah:
            return self._reject("wrong_ferry", a, ferry=a.ferry + 1)
        chosen = self._card_to_load(s, a)
        if isinstance(chosen, Verdict):
            return chosen
        card, hand_index = chosen
        ferry = s.ferries[a.ferry]
        assert ferry is not None  # in the play step Noah stands on a ferry (R24)
        loading = self._loading(ferry, card, a.frog_weight, facts=s.facts[a.ferry])
        if isinstance(loading, tuple) and not isinstance(loading, Loading):
            return self._loading_rejection(a, ferry, card, *loading)
        return self._apply_loading(s, a.player, card, hand_index, loading)

    def _card_to_load(self, s: State, a: Play) -> Verdict | tuple[Placed, int | None]:
        """R51's card checks; the card as it will lie on the ferry and its place in the hand."""
        # The checks that depend on the action alone are memoised for the usual play (no side,
        # no frog weight) once passed: only accepted references are kept, so the memo is bounded
        # by the cards in play.
        plain = a.as_gender is None and a.frog_weight is None
        named = self._cards.cards_named.get(a.card) if plain else None
        if named is None:
            checked = self._card_named(a)
            if isinstance(checked, Verdict):
                return checked
            named = checked
            if plain:
                self._cards.cards_named[a.card] = named
        ref, gender, card_id = named
        species, printed, copy = ref  # unpacked: a NamedTuple's fields are slow to read
        if card_id is not None:
            where = place_on_table(s, identity(ref))
            if where is not None:  # R54; the advice depends on where the copy is
                return self._reject("card_already_on_table", a, card=card_id,
                                    animal=_animal(species, printed), variant=where[0],
                                    on_ferry=where[1])
        hand_index = None
        if s.hands is not None:
            hand = s.hands[a.player]
            hand_index = find_in_hand(hand, ref, a.card)
            if hand_index is None:
                return self._reject("card_not_in_hand", a, holder=self._name(a.player),
                                    card=a.card, animal=_animal(species, printed))
            if copy is None:
                _, _, copy = parse_ref(hand[hand_index])  # unpacked, as above
        elif visible_count(s, species) >= self._species_copies[species]:
            return self._reject("card_unavailable", a, species=species)
        return placed_card(self._cards, format_ref(species, gender, copy)), hand_index

    def _card_named(self, a: Play) -> Verdict | NamedCard:
        """R51's checks of the card named, whatever the table: (its reference, the gender it
        is loaded with, its copy's id if tagged)."""
        try:
            ref = parse_ref(a.card)
        except InputError as error:
            return self._reject("bad_action", a, problem=error.message)
        species = ref.species
        if species not in self._weight:
            return self._reject("unknown_card", a, card=species, animal=species,
                                why=self._why_absent(species))
        gender = self._loaded_gender(a, species, ref.gender)
        if isinstance(gender, Verdict):
            return gender
        if a.frog_weight is not None and species != "frog":
            return self._reject("bad_action", a, problem="only a frog takes a declared weight")
        printed = "H" if species == "snail" else gender
        animal = _animal(species, ref.gender)
        if (species, printed) not in self._copies:
            return self._reject("unknown_card", a, card=a.card, animal=animal, why="")
        card_id = None
        if ref.copy is not None:
            card_id = format_ref(species, printed, ref.copy)
            if card_id not in self._ids:
                return self._reject("unknown_card", a, card=a.card, why="",
                                    animal=f"{animal} #{ref.copy}")
        assert gender is not None  # only a snail in hand has none, and it was given above
        return ref, gender, card_id

    def _loaded_gender(self, a: Play, species: str, printed: str | None) -> Verdict | str | None:
        """R51: the gender a card is loaded with — a snail's chosen side (given once, M or F),
        else the printed one, which ``as`` may only repeat."""
        if species != "snail":
            if a.as_gender is not None and a.as_gender != printed:
                return self._reject("bad_action", a, problem=f"a {species} has a printed gender")
            return printed
        if a.as_gender is not None and printed is not None and a.as_gender != printed:
            return self._reject("bad_action", a, problem="the snail's side is given twice")
        gender = a.as_gender if a.as_gender is not None else printed
        if gender is None:
            return self._reject("snail_gender_required", a)
        if gender not in ("M", "F"):
            return self._reject("bad_action", a, problem="a snail is loaded as M or F")
        return gender

    def _why_absent(self, species: str) -> str:
        if species == "snail" and self._options.frog:
            return " (the frogs replace the snails)"
        if species == "donkey" and self._options.crocodile:
            return " (the crocodiles replace the donkeys)"
        if species in ("frog", "crocodile"):
            return f" (the {species} option is off)"
        return ""

    def _loading(
        self, ferry: tuple[Placed, ...], card: Placed, frog_weight: Any, flight: bool = True,
        facts: FerryFacts | None = None,
    ) -> Loading | tuple[str, dict[str, Any]]:
        """Golden rules in R51's order, after any crocodile flight (R45).

        ``facts`` are the ferry's, if known. Returns the :class:`Loading`, or (reason code,
        params) when the card cannot be loaded.
        """
        _, species, gender, weight = card  # unpacked: a NamedTuple's fields are slow to read
        fled = None
        if flight and species == "crocodile" and ferry:
            fled, ferry, facts = ferry[0], ferry[1:], None
        if facts is None:
            facts = ferry_facts(ferry)
        total, capacity, needed, _, aboard, below, _ = facts  # unpacked, as above
        if species == "woodpecker":
            if total > WOODPECKER_CAPACITY:
                return "woodpecker_over_13", {"weight": total}
            capacity = WOODPECKER_CAPACITY
            facts = facts._replace(capacity=capacity)
        if species == "frog" and frog_weight is not None and frog_weight != 1:
            if not (_is_int(frog_weight) and 2 <= frog_weight <= 5
                    and total + frog_weight == capacity):
                return "frog_weight_invalid", {"weight": total, "capacity": capacity}
            card, weight = card._replace(weight=frog_weight), frog_weight
        code = self._rule_broken(total + weight, capacity, needed, aboard, species, gender)
        if code:
            return code, self._broken_rule_params(code, facts, ferry)
        # R26, R27, R29: a pair is the same species as the card below (after a flight; none on
        # an empty ferry) and, as a variant, another gender.
        pair = (below is not None and below.species == species
                and not (self._options.pair_mf and below.gender == gender))
        return new_loading(((*ferry, card), fled, total + weight == capacity, pair,
                            facts.after(card)))

    def _broken_rule_params(self, code: str, facts: FerryFacts,
                            ferry: tuple[Placed, ...]) -> dict[str, Any]:
        if code == "weight":
            return {"weight": facts.total, "capacity": facts.capacity}
        if code == "gender":
            return {"variant": facts.pattern, "needed": facts.needed, "top": ferry[-1].gender}
        return {}

    def _rule_broken(self, weight: int, capacity: int, needed: str | None,
                     aboard: tuple[str, ...], species: str, gender: str) -> str | None:
        """The first golden rule broken by loading a card (``species``, ``gender``) on a ferry
        then weighing ``weight`` (weight, gender, roommates), or None."""
        if weight > capacity:
            return "weight"
        if needed is not None and gender != needed:
            return "gender"
        if self._options.roommates and species in aboard:
            return "roommates"
        return None

    def _loading_rejection(self, a: Play, ferry: tuple[Placed, ...], card: Placed, code: str,
                           params: dict[str, Any]) -> Verdict:
        words = {"M": "male", "F": "female"}
        extra: dict[str, Any] = {
            "ferry": a.ferry + 1, "species": card.species, "card_weight": card.weight,
            "card": card.ref, "animal": _animal(card.species, card.gender),
        }
        if code == "gender":
            extra["needed_word"] = words[params["needed"]]
            extra["top_word"] = words[params["top"]]
        if code == "frog_weight_invalid":
            room = params["capacity"] - params["weight"]
            extra["exact_hint"] = f", or {room} to fill it" if 2 <= room <= 5 else ""
        return self._reject(code, a, **params, **extra)

    def _apply_loading(self, s: State, player: int, card: Placed, hand_index: int | None,
                       loading: Loading) -> Outcome:
        ns = s.copy()
        noah = s.noah
        assert noah is not None
        # replace_at and set_ferry, written out: this runs for every loading.
        counts = list(s.counts)
        counts[player] -= 1
        ns.counts = tuple(counts)
        if hand_index is not None and s.hands is not None:
            hands = list(s.hands)
            hand = hands[player]
            hands[player] = hand[:hand_index] + hand[hand_index + 1 :]
            ns.hands = tuple(hands)
        ferry, fled, full, pair, new_facts = loading  # unpacked: faster than by name
        ferries, facts = list(s.ferries), list(s.facts)
        ferries[noah], facts[noah] = ferry, new_facts
        ns.ferries, ns.facts = tuple(ferries), tuple(facts)
        card = ferry[-1]
        ref, species, gender, _ = card  # unpacked: a NamedTuple's fields are slow to read
        name = self._players[player]
        # Events are (kind, values in verdict.EVENT_PARAMS order): named only when read.
        events: list[RawEvent] = [
            ("loaded", (player, name, ref, _animal(species, gender), noah + 1, noah))]
        if species == "crocodile":  # R44: tears at once, never below 0
            score = max(0, s.scores[player] - CROCODILE_TEARS)
            ns.scores = replace_at(s.scores, player, score)
            events.append(("crocodile_tears", (player, name, score)))
        playing_on = counts[player] > 0  # R34: the last card ends the round at once
        ns.fleeing = fled
        ns.loaded = card
        ns.extra_turn = pair  # from now on: whether this loading earned a bonus
        ns.departing = noah if full else None
        ns.lion_due = lion_due = playing_on and species == "lion"
        ns.giraffe = playing_on and species == "giraffe"
        ns.noah_due = noah_due = playing_on and species != "donkey"  # R23
        if noah_due and not lion_due and fled is None:
            ns.phase = "move_noah"  # what _advance decides, without the call (the usual case)
        else:
            self._advance(ns, events)
        return ns, events

    # ----------------------------------------------------------------- turn steps

    def _advance(self, ns: State, events: list[RawEvent]) -> None:
        """Move to the next step of the turn (R19, R32, R50) once the current one is done."""
        player = ns.player
        assert player is not None and ns.loaded is not None  # a turn is being played
        if ns.fleeing is not None:
            ns.phase = "croc_flee"
            return
        if ns.lion_due:
            ns.phase = "lion_swap"
            return
        if ns.noah_due:
            ns.phase = "move_noah"
            return
        if ns.departing is not None:
            self._depart(ns, events)
            if ns.gifts_owed:
                ns.phase = "give"
                return
        if ns.counts[player] == 0 or ns.departed > RESERVE:  # R33
            self._end_round(ns, events)
            return
        if ns.extra_turn:  # R26, R28: a whole new turn for the same player
            events.append(("pair_bonus", (player, self._players[player], ns.loaded.species)))
        else:
            ns.player = following = (player + 1) % len(self._players)  # R11
            events.append(("turn", (following, self._players[following])))
        ns.phase = "play"
        ns.loaded = None

    def _depart(self, ns: State, events: list[RawEvent]) -> None:
        """R19 (3)-(5): the ferry leaves, a reserve ferry replaces it, gifts are owed."""
        position, player = ns.departing, ns.player
        number = ns.departed + 1
        assert position is not None and player is not None
        ferry = ns.ferries[position]
        assert ferry is not None  # a full ferry departs (R18)
        ns.departed = number
        refs = tuple(card.ref for card in ferry)
        add_departed(ns, refs)
        set_ferry(ns, position, () if number <= RESERVE else None)
        ns.departing = None
        ns.gifts_owed = min(number, ns.counts[player])  # R20, R21 (R34: 0 with no card)
        events.append(("departure", (position, position + 1, number, refs)))
        if ns.gifts_owed:
            events.append(("gifts_owed", (player, self._players[player], ns.gifts_owed)))

    def _end_round(self, ns: State, events: list[RawEvent]) -> None:
        """R33-R35: nothing pending survives; score now with known hands, else await the scan."""
        ns.extra_turn = ns.lion_due = ns.noah_due = ns.giraffe = False
        ns.loaded = ns.fleeing = ns.departing = None
        ns.gifts_owed = 0
        events.append(("round_ended", (ns.round,)))
        if ns.hands is None:
            ns.phase, ns.player = "scan", None
            events.append(("scan_needed", (ns.counts,)))
        else:
            self._score_round(ns, [self._hand_tears(hand) for hand in ns.hands], events)

    def _hand_tears(self, hand: Iterable[str]) -> int:
        return sum(self._tears[parse_ref(ref).species] for ref in hand)

    def _score_round(self, ns: State, tears: Sequence[int], events: list[RawEvent]) -> None:
        """R36, R39-R42: add the tears, then end the game or name the next starter."""
        ns.round_scores = tuple(tears)
        ns.scores = tuple(score + add for score, add in zip(ns.scores, tears, strict=True))
        ns.player = None
        summary = ", ".join(f"{name} {score}" for name, score in zip(self._players, ns.scores,
                                                                     strict=True))
        events.append(("round_scored", (ns.round, ns.round_scores, ns.scores, summary)))
        if is_game_over(ns.round, ns.scores, self._options.end_rule):
            ns.phase = "game_over"
            ns.winners = winners(ns.scores)
            ns.next_starter = None
            names = tuple(self._players[seat] for seat in ns.winners)
            events.append(("game_over", (ns.winners, names, " and ".join(names))))
        else:
            ns.phase = "round_over"
            assert ns.starter is not None  # set by every deal, position and scored round
            ns.next_starter = next_starter(ns.scores, ns.starter)

    def _take_back(self, s: State, a: TakeBack) -> Verdict | Outcome:
        if not (_is_int(a.player) and _is_int(a.ferry)):
            return self._reject("bad_action", a, problem="take_back needs player and ferry")
        rejection = self._gate(s, "play", a)
        if rejection:
            return rejection
        if a.ferry != s.noah:
            return self._reject("wrong_ferry", a, ferry=a.ferry + 1, variant="take_back")
        ferry = s.ferries[s.noah]
        if not ferry:
            return self._reject("take_back_not_allowed", a, ferry=a.ferry + 1, variant="empty")
        if s.hands is not None and self.can_play():  # R25, R49
            return self._reject("take_back_not_allowed", a, ferry=a.ferry + 1, variant="can_play")
        ns = s.copy()
        set_ferry(ns, s.noah, ())
        ns.counts = replace_at(s.counts, a.player, s.counts[a.player] + len(ferry))
        if s.hands is not None:
            taken = tuple(hand_form(card.ref) for card in ferry)
            ns.hands = replace_at(s.hands, a.player, s.hands[a.player] + taken)
        return ns, [("took_back", (a.player, self._players[a.player], a.ferry + 1, len(ferry),
                                   tuple(card.ref for card in ferry)))]

    def _croc_flee(self, s: State, a: CrocFlee) -> Verdict | Outcome:
        if not (_is_int(a.player) and _is_int(a.target)):
            return self._reject("bad_action", a, problem="croc_flee needs player and target")
        rejection = self._gate(s, "croc_flee", a) or self._target_error(a, a.target)
        if rejection:
            return rejection
        ns = s.copy()
        fled = s.fleeing
        assert fled is not None  # the croc_flee step awaits its receiver (R45)
        ns.fleeing = None
        ns.counts = replace_at(s.counts, a.target, s.counts[a.target] + 1)
        if s.hands is not None:
            ns.hands = replace_at(s.hands, a.target, s.hands[a.target] + (hand_form(fled.ref),))
        events = [("fled", (a.player, a.target, fled.ref, _animal(fled.species, fled.gender),
                            self._players[a.target]))]
        self._advance(ns, events)
        return ns, events

    def _lion_swap(self, s: State, a: LionSwap) -> Verdict | Outcome:
        if not (_is_int(a.player) and _is_int(a.target)):
            return self._reject("bad_action", a, problem="lion_swap needs player and target")
        rejection = self._gate(s, "lion_swap", a) or self._target_error(a, a.target)
        if rejection:
            return rejection
        ns = s.copy()
        if s.hands is not None:
            swapped = self._swap_hands(s.hands, a)
            if isinstance(swapped, Verdict):
                return swapped
            ns.hands = swapped
        ns.lion_due = False
        events = [("lion_swap", (a.player, self._players[a.player], a.target,
                                 self._players[a.target]))]
        self._advance(ns, events)
        return ns, events

    def _swap_hands(self, hands: Hands, a: LionSwap) -> Hands | Verdict:
        """R30 with known hands: take ``take`` from the target, then give ``give`` back."""
        if not (isinstance(a.take, str) and isinstance(a.give, str)):
            return self._reject("bad_action", a, problem="with known hands a lion swap names "
                                "the card taken and the card given")
        own, theirs = hands[a.player], hands[a.target]
        taken = self._hand_index(theirs, a.take, a, self._players[a.target])
        if isinstance(taken, Verdict):
            return taken
        own = (*own, theirs[taken])
        theirs = theirs[:taken] + theirs[taken + 1 :]
        given = self._hand_index(own, a.give, a, self._players[a.player])
        if isinstance(given, Verdict):
            return given
        theirs = (*theirs, own[given])
        own = own[:given] + own[given + 1 :]
        return replace_at(replace_at(hands, a.player, own), a.target, theirs)

    def _hand_index(self, hand: tuple[str, ...], text: str, a: Any, holder: str) -> int | Verdict:
        try:
            ref = parse_ref(text)
        except InputError as error:
            return self._reject("bad_action", a, problem=error.message)
        index = find_in_hand(hand, ref, text)
        if index is None:
            return self._reject("card_not_in_hand", a, holder=holder, card=text,
                                animal=_animal(ref.species, ref.gender))
        return index

    def _giraffe_look(self, s: State, a: GiraffeLook) -> Verdict | Outcome:
        if not (_is_int(a.player) and _is_int(a.target)):
            return self._reject("bad_action", a, problem="giraffe_look needs player and target")
        if s.phase not in IN_ROUND_PHASES:
            return self._reject(AWAITED[s.phase], a)
        if not (s.phase == "move_noah" and s.giraffe):  # R31
            return self._reject("no_giraffe_effect", a)
        if a.player != s.player:
            return self._reject("not_your_turn", a)
        rejection = self._target_error(a, a.target)
        if rejection:
            return rejection
        ns = s.copy()
        ns.giraffe = False  # one look
        return ns, [("giraffe_look", (a.player, self._players[a.player], a.target,
                                      self._players[a.target]))]

    def _move_noah(self, s: State, a: MoveNoah) -> Verdict | Outcome:
        if not (type(a.player) is int and type(a.to) is int):
            return self._reject("bad_action", a, problem="move_noah needs player and to")
        if s.phase == "play":  # R50: e.g. after a donkey, a loading is awaited
            return self._reject("noah_move_illegal", a, variant="play")
        rejection = self._gate(s, "move_noah", a)
        if rejection:
            return rejection
        loaded, noah = s.loaded, s.noah
        assert loaded is not None and noah is not None  # Noah moves after a loading (R22)
        _, _, gender, _ = loaded  # unpacked: a NamedTuple's fields are slow to read
        if a.to not in NOAH_MOVES[gender][noah]:
            return self._reject("noah_move_illegal", a, to=a.to + 1,
                                variant="female" if gender == "F" else "male")
        ns = s.copy()
        ns.noah = a.to
        ns.noah_due = ns.giraffe = False
        events = [("noah_moved", (a.player, a.to, a.to + 1))]
        self._advance(ns, events)
        return ns, events

    def _give(self, s: State, a: Give) -> Verdict | Outcome:
        if not (_is_int(a.player) and isinstance(a.gifts, tuple)
                and all(isinstance(gift, Gift) for gift in a.gifts)):
            return self._reject("bad_action", a, problem="give needs player and a list of gifts")
        rejection = self._gate(s, "give", a)
        if rejection:
            return rejection
        if len(a.gifts) != s.gifts_owed:
            return self._reject("gift_count", a, given=len(a.gifts))
        for gift in a.gifts:
            rejection = self._target_error(a, gift.to)
            if rejection:
                return rejection
        ns = s.copy()
        counts = list(s.counts)
        for gift in a.gifts:
            counts[gift.to] += 1
        counts[a.player] -= len(a.gifts)
        ns.counts = tuple(counts)
        if s.hands is not None:
            hands = self._give_known(s.hands, a)
            if isinstance(hands, Verdict):
                return hands
            ns.hands = hands
        ns.gifts_owed = 0
        events = [("gifts", (a.player, self._players[a.player], len(a.gifts),
                             tuple(g.to for g in a.gifts)))]
        self._advance(ns, events)
        return ns, events

    def _give_known(self, known: Hands, a: Give) -> Hands | Verdict:
        hands = list(known)
        for gift in a.gifts:
            if not isinstance(gift.card, str):
                return self._reject("bad_action", a, problem="with known hands each gift names "
                                    "its card")
            index = self._hand_index(hands[a.player], gift.card, a, self._players[a.player])
            if isinstance(index, Verdict):
                return index
            own = hands[a.player]
            hands[gift.to] = (*hands[gift.to], own[index])
            hands[a.player] = own[:index] + own[index + 1 :]
        return tuple(hands)

    # ----------------------------------------------------------------- rounds

    def _start_round(self, s: State, a: StartRound) -> Verdict | Outcome:
        if s.phase != "round_over":
            return self._reject(AWAITED[s.phase], a)
        problem = self._deal_problem(s, a)
        if problem:
            return self._reject("setup_invalid", a, problem=problem)
        ns = initial_state(len(self._players))
        ns.scores, ns.round_scores = s.scores, s.round_scores
        ns.round = s.round + 1
        starter = a.starter if s.round == 0 else s.next_starter
        assert starter is not None  # checked by _deal_problem (R10, R39)
        ns.starter = ns.player = starter
        ns.noah = a.noah
        set_ferries(ns, tuple((placed_card(self._cards, ref),) for ref in a.ferries))
        ns.phase = "play"
        self._set_hands(ns, a.hands, a.hand_counts)
        return ns, [("round_started", (ns.round, starter, self._players[starter], a.noah,
                                       a.noah + 1))]

    def _set_hands(self, ns: State, hands: Any, counts: Any) -> None:
        if self._options.hidden:
            ns.counts = tuple(counts)
        else:
            ns.hands = tuple(tuple(map(hand_form, hand)) for hand in hands)
            ns.counts = tuple(map(len, hands))

    def _deal_problem(self, s: State, a: StartRound) -> str | None:
        """R7-R10, R39 for a deal; a sentence saying what is wrong, or None."""
        players = len(self._players)
        # Fields of an action are outside input until checked here, whatever their annotations.
        starter: Any = a.starter
        hands: Any = a.hands
        counts: Any = a.hand_counts
        if not (_is_int(a.noah) and 0 <= a.noah < FERRY_COUNT):
            return "Noah must stand on one of the 5 ferries (positions 0 to 4)"
        if s.round == 0:
            if not (_is_int(starter) and 0 <= starter < players):
                return "round 1 needs its starter, the shortest player (a seat number)"
        elif starter is not None and starter != s.next_starter:
            return (f"round {s.round + 1} is started by {self._name(s.next_starter)}, "
                    "the highest score (R39)")
        if not (isinstance(a.ferries, tuple) and len(a.ferries) == FERRY_COUNT):
            return "the deal lays exactly one animal on each of the 5 ferries"
        hands_problem = self._hands_shape_problem(a.hands, a.hand_counts)
        if hands_problem:
            return hands_problem
        hidden = self._options.hidden
        if any(count != HAND_SIZE for count in (counts if hidden else map(len, hands))):
            return f"every player is dealt {HAND_SIZE} animals (R9)"
        return self._cards_problem([a.ferries], () if hidden else hands, ())

    def _hands_shape_problem(self, hands: Any, counts: Any) -> str | None:
        players = len(self._players)
        if self._options.hidden:
            if not (isinstance(counts, tuple) and len(counts) == players
                    and all(_is_int(count) and count >= 0 for count in counts)):
                return f"with hidden hands give hand_counts, one number per player ({players})"
            return None
        if not (isinstance(hands, tuple) and len(hands) == players
                and all(isinstance(hand, tuple) for hand in hands)):
            return f"with known hands give hands, one list of cards per player ({players})"
        return None

    def _cards_problem(self, ferries: Iterable[Any], hands: Iterable[tuple[str, ...]],
                       departed: Sequence[str]) -> str | None:
        """Every card exists in this game, no more copies than the deck holds (R5, R6, R54)."""
        on_ferries = [ref for ferry in ferries for ref in ferry]
        in_hands = [ref for hand in hands for ref in hand]
        # The usual deal or scan, untagged cards of this game (snails on ferries with a side):
        # counted at C speed; anything else is looked at card by card below, for its sentence.
        kinds = list(map(self._cards.kinds.get, itertools.chain(on_ferries, in_hands, departed)))
        if None not in kinds and "snail" not in on_ferries:
            held = Counter(cast("list[tuple[str, str]]", kinds))  # no None: checked above
            # count <= copies for each kind held, at C speed (every kind here is in the deck)
            if all(map(operator.le, held.values(), map(self._copies.__getitem__, held))):
                return None
        seen: dict[tuple[str, str], int] = {}
        tagged: set[tuple[str, str, int | None]] = set()
        for where, refs in (("ferry", on_ferries), ("hand", in_hands), ("gone", departed)):
            for text in refs:
                problem = self._card_problem(where, text, seen, tagged)
                if problem:
                    return problem
        return None

    def _card_problem(self, where: str, text: str, seen: dict[tuple[str, str], int],
                      tagged: set[tuple[str, str, int | None]]) -> str | None:
        """One card of a position, counted in ``seen`` (and ``tagged`` for a tagged copy)."""
        try:
            ref = parse_ref(text)
        except InputError as error:
            return error.message.rstrip(".")
        if where == "ferry" and ref.species == "snail" and ref.gender is None:
            return "the snail on a ferry needs its side up, like snail:F (R8)"
        key = kind(ref)
        copies = self._copies.get(key)
        if copies is None:
            return f"there is no {text} in this game{self._why_absent(ref.species)}"
        seen[key] = count = seen.get(key, 0) + 1
        if count > copies:
            return f"this game holds only {copies} {format_ref(*key)}"
        if ref.copy is not None:
            card_identity = identity(ref)
            if format_ref(*card_identity) not in self._ids:
                return f"there is no {text} in this game"
            if card_identity in tagged:
                return f"card {format_ref(*card_identity)} appears twice"
            tagged.add(card_identity)
        return None

    def _scan_hands(self, s: State, a: ScanHands) -> Verdict | Outcome:
        if s.phase != "scan":
            return self._reject(AWAITED[s.phase], a)
        players = len(self._players)
        if not (isinstance(a.hands, tuple) and all(isinstance(h, tuple) for h in a.hands)):
            return self._reject("bad_action", a, problem="scan_hands needs one list per player")
        if len(a.hands) != players:
            return self._reject("scan_mismatch", a, variant="seats", got=len(a.hands))
        for seat, hand in enumerate(a.hands):
            if len(hand) != s.counts[seat]:
                return self._reject("scan_mismatch", a, variant="count", expected=s.counts[seat],
                                    got=len(hand), holder=self._players[seat])
        table = [card.ref for ferry in s.ferries if ferry for card in ferry]
        problem = self._cards_problem([table], a.hands, s.departed_cards)
        if problem:
            return self._reject("scan_mismatch", a, problem=problem)
        ns = s.copy()
        events: list[RawEvent] = []
        self._score_round(ns, [self._hand_tears(hand) for hand in a.hands], events)
        return ns, events

    def _score_only_round(self, s: State, a: ScoreRound) -> Verdict | Outcome:
        if s.phase == "game_over":
            return self._reject("game_over", a)
        players = len(self._players)
        if not (isinstance(a.tears, tuple) and len(a.tears) == players
                and all(_is_int(t) and t >= 0 for t in a.tears)):
            return self._reject("bad_action", a, problem=f"give {players} whole numbers of tears, "
                                "one per player in seat order")
        starter = s.next_starter
        if s.round == 0:
            starter = 0 if a.starter is None else a.starter
            if not (_is_int(starter) and 0 <= starter < players):
                return self._reject("setup_invalid", a, problem="the starter is a seat number")
        elif a.starter is not None and a.starter != starter:
            return self._reject("setup_invalid", a, problem=f"round {s.round + 1} is started by "
                                f"{self._name(starter)}, the highest score (R39)")
        ns = s.copy()
        ns.round, ns.starter = s.round + 1, starter
        events: list[RawEvent] = []
        self._score_round(ns, a.tears, events)
        return ns, events

    def _position(self, s: State, a: Position) -> Verdict | Outcome:
        if self._history or s.round != 0:
            return self._reject("setup_invalid", a, problem="a position can only open a log, "
                                "before any other action")
        problem = self._position_problem(a)
        if problem:
            return self._reject("setup_invalid", a, problem=problem)
        ns = initial_state(len(self._players))
        ns.round, ns.starter, ns.noah = a.round, a.round_starter, a.noah
        ns.player = a.current_player
        ferries: Any = a.ferries  # all five present: checked by _position_problem
        set_ferries(ns, tuple(tuple(placed_card(self._cards, ref) for ref in ferry)
                              for ferry in ferries))
        ns.departed = a.departed
        add_departed(ns, tuple(a.departed_cards))
        ns.scores = tuple(a.scores)
        ns.extra_turn = bool(a.extra_turn)
        ns.phase = "play"
        self._set_hands(ns, a.hands, a.hand_counts)
        return ns, [("position", (a.round, self._players[a.current_player], a.noah + 1))]

    def _position_problem(self, a: Position) -> str | None:
        return self._position_numbers_problem(a) or self._position_cards_problem(a)

    def _position_numbers_problem(self, a: Position) -> str | None:
        """A position's round, seats, Noah, departures and scores (R40-R42)."""
        players = len(self._players)
        seats = (a.round_starter, a.current_player)
        if not (_is_int(a.round) and a.round >= 1):
            return "the round is a number from 1"
        if not all(_is_int(seat) and 0 <= seat < players for seat in seats):
            return "round_starter and current_player are seat numbers"
        if not (_is_int(a.noah) and 0 <= a.noah < FERRY_COUNT):
            return "Noah must stand on one of the 5 ferries (positions 0 to 4)"
        if not (_is_int(a.departed) and 0 <= a.departed <= RESERVE):
            return "a position is a fresh turn in a round: 0 to 3 departures so far"
        if not (isinstance(a.scores, tuple) and len(a.scores) == players
                and all(_is_int(score) and score >= 0 for score in a.scores)):
            return f"give {players} scores of 0 or more"
        if is_game_over(a.round - 1, a.scores, self._options.end_rule):  # R40-R42
            if self._options.end_rule == "score26":
                return (f"a score of {TEAR_TARGET} or more ended the game at the last round's "
                        "scoring (R41)")
            return f"a game has {ROUNDS_PER_GAME} rounds, so there is no round {a.round} (R40)"
        return None

    def _position_cards_problem(self, a: Position) -> str | None:
        """A position's ferries, hands and departed cards."""
        # Fields of an action are outside input until checked here, whatever their annotations.
        ferries: Any = a.ferries
        hands: Any = a.hands
        counts: Any = a.hand_counts
        if not (isinstance(ferries, tuple) and len(ferries) == FERRY_COUNT
                and all(isinstance(ferry, tuple) for ferry in ferries)):
            return "give the 5 ferries, each a list of cards bottom first"
        if not isinstance(a.departed_cards, tuple):
            return "departed_cards is a list of cards"
        shape = self._hands_shape_problem(hands, counts)
        if shape:
            return shape
        sizes = counts if self._options.hidden else [len(hand) for hand in hands]
        if 0 in sizes:
            return "every player holds a card in the middle of a round (an empty hand ends it)"
        if a.departed_cards and not a.departed:
            return "departed_cards are given but no ferry has departed"
        cards = self._cards_problem(ferries, hands if not self._options.hidden else (),
                                    a.departed_cards)
        if cards:
            return cards
        for number, refs in enumerate(ferries, start=1):
            problem = self._ferry_problem(refs)
            if problem:
                return f"ferry {number} {problem}"
        return None

    def _ferry_problem(self, refs: tuple[str, ...]) -> str | None:
        """A ferry of a position must obey the golden rules card after card (R13, R15, R18)."""
        ferry: tuple[Placed, ...] = ()
        for ref in refs:
            loading = self._loading(ferry, placed_card(self._cards, ref), None, flight=False)
            if not isinstance(loading, Loading):
                return f"breaks the {loading[0]} rule at {ref}"
            if loading.full:
                return "is full: it would have departed"
            ferry = loading.ferry
        return None

    # ----------------------------------------------------------------- enumeration (legal.py)

    #: The actions accepted now, for the step awaited (R50): see :func:`.legal.legal_actions`.
    #: The function itself, not a method calling it: a random game asks before every action.
    legal_actions = legal.legal_actions

    def legal_noah_moves(self) -> list[int]:
        """Positions Noah may move to now (empty unless the step is ``move_noah``)."""
        return legal.noah_choices(self._state)

    def can_play(self) -> bool:
        """Whether the current player has a legal loading on Noah's ferry (R25, R46).

        With hidden hands: whether some card not yet all visible could be loaded there.
        """
        s = self._state
        return s.phase == "play" and bool(legal.loadings(self, s))

    # ----------------------------------------------------------------- state and storage

    def state(self) -> dict[str, Any]:
        """Every TABLE-LOG.md state key (and a few more), as plain JSON-ready values."""
        s = self._state
        ferries = [None if ferry is None else [card.ref for card in ferry] for ferry in s.ferries]
        weights: list[int | None] = []
        capacities: list[int | None] = []
        for ferry in s.ferries:
            if ferry is None:
                weights.append(None)
                capacities.append(None)
                continue
            weights.append(sum(card.weight for card in ferry))
            woodpecker = any(card.species == "woodpecker" for card in ferry)
            capacities.append(WOODPECKER_CAPACITY if woodpecker else CAPACITY)
        in_round = s.phase in IN_ROUND_PHASES
        state: dict[str, Any] = {
            "round": s.round,
            "phase": s.phase,
            "current_player": s.player,
            "round_starter": s.starter,
            "noah": s.noah,
            "ferries": ferries,
            "weights": weights,
            "capacities": capacities,
            "departed": s.departed,
            "departed_cards": list(s.departed_cards),
            "reserve": max(0, RESERVE - s.departed),
            "hand_counts": list(s.counts),
            "scores": list(s.scores),
            "round_scores": list(s.round_scores),
            "extra_turn": s.extra_turn,
            "gifts_owed": s.gifts_owed,
            "noah_choices": legal.noah_choices(s),
            "fleeing": s.fleeing.ref if s.fleeing else None,
            "giraffe_look": s.giraffe,
            "round_over": not in_round,
            "game_over": s.phase == "game_over",
            "winners": list(s.winners),
            "next_round_starter": s.next_starter,
        }
        if s.hands is not None:
            state["hands"] = [list(hand) for hand in s.hands]
        return state

    def to_json(self) -> str:
        """The game as JSON: players, options, deck (if not the default) and accepted actions."""
        return json.dumps({
            "format": "noah-game",
            "version": 1,
            "players": list(self._players),
            "options": self._options.to_dict(),
            "deck": None if self._deck == default_deck() else self._deck.to_csv(),
            "history": [action_to_dict(action) for action in self._history],
        }, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a game saved by :meth:`to_json` by replaying it (so ``pop`` works after)."""
        try:
            data = json.loads(text)
            deck = None if data.get("deck") is None else parse_deck(data["deck"], "saved deck")
            game = cls(data["players"], Options.from_dict(data["options"]), deck)
            actions = [action_from_dict(item) for item in data["history"]]
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise InputError(f"This saved game cannot be read ({error}): it is damaged.") from error
        for number, action in enumerate(actions, start=1):
            verdict = game.push(action)
            if not verdict.accepted:
                raise InputError(f"Saved action {number} is refused ({verdict.message}): the "
                                 "saved game is damaged.", line=number)
        return game


_GAME_FIELDS = tuple(name for name in Game.__slots__ if name != "__dict__")
#: The judge of each kind of action: (game, state, action) -> verdict or (new state, events).
_HANDLERS: dict[type[Any], Callable[[Game, State, Any], Verdict | Outcome]] = {
    Play: Game._play,
    TakeBack: Game._take_back,
    MoveNoah: Game._move_noah,
    CrocFlee: Game._croc_flee,
    LionSwap: Game._lion_swap,
    GiraffeLook: Game._giraffe_look,
    Give: Game._give,
    StartRound: Game._start_round,
    ScanHands: Game._scan_hands,
    ScoreRound: Game._score_only_round,
    Position: Game._position,
}
#: The handlers a game of each kind takes (``Game._judge``): a score-only game only scores.
_SCORE_ONLY_HANDLERS: dict[type[Any], Callable[[Game, State, Any], Verdict | Outcome]] = {
    ScoreRound: Game._score_only_round,
}
_PLAYED_HANDLERS = {kind: handler for kind, handler in _HANDLERS.items() if kind is not ScoreRound}
