"""verdict.py: events are recorded as raw values and named when read (issue 13 point 9)."""

from __future__ import annotations

import random

from companion.game import Game, Options
from companion.game.deal import random_start_round
from companion.game.messages import EVENTS
from companion.game.verdict import EVENT_PARAMS, Event, Verdict


def test_every_kind_of_event_names_its_params():
    assert EVENT_PARAMS.keys() == EVENTS.keys()


def test_raw_and_named_events_read_alike():
    raw = Verdict(True, events=[("turn", (1, "Ben"))])
    named = Verdict(True, events=(("turn", {"player": 1, "name": "Ben"}),))
    assert raw.events == named.events == (Event("turn", {"player": 1, "name": "Ben"}),)
    assert raw.message == "Ben's turn."


def test_the_events_of_random_games_carry_their_named_params():
    seen = set()
    for index in range(6):
        game = Game(["Ana", "Ben", "Chloé"], Options(crocodile=True))
        rng = random.Random(f"events:{index}")
        while not game.is_over:
            action = (random_start_round(game, rng) if game.phase == "round_over"
                      else rng.choice(game.legal_actions()))
            verdict = game.push(action)
            for event in verdict.events:
                assert tuple(event.params) == EVENT_PARAMS[event.kind]
                assert event.message  # every placeholder of the sentence is there
                seen.add(event.kind)
    assert {"loaded", "noah_moved", "turn", "departure", "gifts", "round_scored"} <= seen
