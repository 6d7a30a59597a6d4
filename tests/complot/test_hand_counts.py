"""The hidden-hands table's hand counts and top of the «défausse» (C11, C13, C14, C17, C62–C68,
C82), checked against the engine that knows every card: the simulator plays seeded games with
the engine, and every action is told to a :class:`Table` as a real table would tell it."""

import json

import pytest

from companion.complot.engine import Game
from companion.complot.simulate import play_game
from companion.complot.table import Table
from tests.complot.hands import LEONARDS, NOTHING

ACTION_KINDS = ("controle", "descente", "hameconnage", "double_hameconnage", "bombe")


class Mirror:
    """A seeded simulated game played again, action by action, by the engine that knows the
    cards and by a hidden-hands table told what a real table would tell it."""

    def __init__(self, seed: int, players: int, level: int) -> None:
        log = play_game(str(seed), players, level, target=150).game.to_json()
        header, *lines = log.splitlines()
        self.actions = [json.loads(line) for line in lines]
        self.game = Game.from_json(header)
        options = json.loads(header)["options"]
        self.table = Table(self.game.players, level=level, dealer=options["dealer"],
                           target=150)
        self.drawn_from: str | None = None
        self.dealt = False
        self.descente: tuple[str, ...] = ()  # the last descente's cards (C63: one is on top)

    def step(self, action: dict) -> None:
        """One engine action, then what the table is told of it."""
        kind = action["type"]
        hand = self.game.hand(action.get("player", 0)) if kind == "claim" else ()
        assert self.game.push(action).changed, action
        for told in self.told(action, hand):
            verdict = self.table.push(told)
            assert verdict.changed, (told, verdict.code)

    def told(self, action: dict, hand: tuple[str, ...]) -> list[dict]:
        kind, seat = action["type"], action.get("player")
        if kind == "deal":
            again = [{"type": "next_manche"}] if self.dealt else []
            self.dealt = True
            return [*again, {"type": "defausse", "card": self.game.top_of_defausse}]
        if kind == "draw":
            self.drawn_from = action["from"]
            return []
        if kind == "discard":
            return [{"type": "turn", "player": seat, "from": self.drawn_from,
                     "discard": action["card"]}]
        if kind == "kill":  # C82: the victim's turn ends, the Attentat on top
            return [{"type": "turn", "player": self.table.current, "from": "pioche",
                     "discard": self.game.top_of_defausse}]
        if kind == "claim":
            return [{"type": "claim", "player": seat, "claim": action["claim"],
                     "cards": list(hand)}]
        assert kind in ACTION_KINDS, action
        self.descente = tuple(action["cards"]) if kind == "descente" else ()
        told = [{"type": "action", "player": seat, "kind": kind, "cards": action["cards"],
                 "targets": action["targets"]}]
        if "defence" in action:
            told.append({"type": "defence", "card": action["defence"]})
        return [*told, {"type": "turn", "player": seat}]

    def between_turns(self) -> bool:
        return self.game.phase == "turn" and not self.game.drawn


@pytest.mark.parametrize(("seed", "players", "level"),
                         [(1, 2, 1), (2, 6, 2), (3, 4, 3), (4, 3, 3), (11, 3, 3)])
def test_c14_counts_and_top_match_the_engines_hands_in_seeded_games(seed, players, level):
    """C14, C17, C62–C68, C82: between turns the table's counts are the engine's true hands
    (6, 0 once laid down), and the top of the «défausse» it was shown is the engine's, blocked
    alike (C68)."""
    mirror = Mirror(seed, players, level)
    checked = known = 0
    for action in mirror.actions:
        mirror.step(action)
        game, table = mirror.game, mirror.table
        if not mirror.between_turns():
            continue
        assert (table.current, table.scores) == (game.current_player, game.scores)
        assert table.hand_counts == tuple(len(game.hand(seat)) for seat in range(players))
        top = game.top_of_defausse
        if table.top_of_defausse is None:  # never a guess: which Enquêteur lies on top
            assert top in mirror.descente, (top, mirror.descente)
        else:
            assert table.top_of_defausse == top
            known += 1
        attentat = top is not None and game.deck[top].category == "AT"
        assert table.top_blocked == (game.top_blocked or attentat)
        checked += 1
    assert checked > 20 and known > checked // 2


def test_c63_c67_a_descente_waiting_for_its_defence_leaves_the_actor_four_cards():
    """C63, C67: 6 + 1 drawn − 3 Enquêteurs laid before the target; stopped or not, the turn
    ends with everyone at 6 (C14). The top is blocked, which of the three unsaid (C68)."""
    table = Table(["Ana", "Ben", "Chloé"], level=2)
    used = ["enqueteurs:emma", "enqueteurs:clara", "enqueteurs:max"]
    table.push({"type": "action", "player": 0, "kind": "descente", "cards": used,
                "targets": [2]})
    assert table.hand_counts == (4, 6, 6)
    assert (table.top_of_defausse, table.top_blocked) == (None, True)
    assert table.push({"type": "defence", "card": "etat-major:noe"}).accepted
    table.push({"type": "turn", "player": 0})
    assert table.hand_counts == (6, 6, 6)
    refused = table.push({"type": "turn", "player": 1, "from": "defausse"})
    assert refused.code == "discard_top_blocked" and not refused.changed  # C68


def test_c17_c44_a_claim_lays_the_hand_down_a_wrong_one_takes_it_back_and_undo_restores():
    """C17: an accepted claim leaves 0 cards in hand; C44: a wrong one gives them back; undo,
    redo (push again) and a replayed log give the same counts and top."""
    table = Table(["Ana", "Ben", "Chloé"])
    table.push({"type": "turn", "player": 0, "discard": "espions:karl"})
    table.push({"type": "claim", "player": 1, "claim": "complot", "cards": LEONARDS})
    assert table.hand_counts == (6, 0, 6)
    assert table.top_of_defausse is None  # Ben discarded a card not shown, then laid down
    wrong = table.push({"type": "claim", "player": 2, "claim": "complot", "cards": NOTHING})
    assert wrong.code == "claim_not_met" and table.hand_counts == (6, 0, 6)
    again = Table.from_json(table.to_json())
    assert (again.hand_counts, again.top_of_defausse) == (table.hand_counts, None)
    table.pop()
    table.pop()
    assert table.hand_counts == (6, 6, 6) and table.top_of_defausse == "espions:karl"
    laid = table.push({"type": "turn", "player": 1, "discard": "leonard:emma"})
    assert laid.accepted  # not laid any more: undone
    table.pop()
    table.push({"type": "claim", "player": 1, "claim": "complot", "cards": LEONARDS})
    refused = table.push({"type": "turn", "player": 2, "discard": "leonard:emma"})
    assert refused.code == "card_not_in_hand"  # Emma lies on the table with Ben's hand


def test_c11_c13_the_top_is_known_only_when_shown_and_taking_it_keeps_it_honest():
    """C11: the card turned at the deal, shown; C13: a turn whose discard is not shown leaves
    the top unknown, never a guess; the top itself cannot be discarded again unless taken."""
    table = Table(["Ana", "Ben"])
    assert table.top_of_defausse is None and table.hand_counts == (6, 6)
    assert table.push({"type": "defausse", "card": "duron:noe"}).accepted
    assert table.top_of_defausse == "duron:noe"
    refused = table.push({"type": "turn", "player": 0, "discard": "duron:noe"})
    assert refused.code == "card_not_in_hand" and not refused.changed
    taken = table.push({"type": "turn", "player": 0, "from": "defausse",
                        "discard": "duron:noe"})
    assert taken.accepted and [event for event, _ in taken.events] == ["discarded", "turn"]
    table.push({"type": "turn", "player": 1})
    assert table.top_of_defausse is None
    for bad, code in (({"discard": "nobody:x"}, "unknown_card"),
                      ({"discard": "attentat:todorov"}, "card_not_in_play"),
                      ({"from": "table"}, "bad_input"), ({"discard": 7}, "bad_input")):
        assert table.push({"type": "turn", "player": 0, **bad}).code == code


def test_c82_an_attentat_ends_the_turn_on_top_of_the_defausse_and_no_claim_follows():
    """C82, C30, C68: a turn told with the Attentat as its card leaves it on top, blocked,
    and the victim has no claim window."""
    table = Table(["Ana", "Ben", "Chloé"], level=3)
    table.push({"type": "turn", "player": 0, "from": "pioche",
                "discard": "attentat:svetlana"})
    assert (table.top_of_defausse, table.top_blocked) == ("attentat:svetlana", True)
    assert table.claim_window is None and table.hand_counts == (6, 6, 6)
    assert table.push({"type": "turn", "player": 1, "from": "defausse"}).code == \
        "discard_top_blocked"


def test_a_score_only_game_and_the_end_of_a_manche_show_no_hands():
    """C52, C54: between manches the cards are gathered; a score-only game follows no hands."""
    quick = Table(["Ana", "Ben"], scores_only=True)
    assert quick.hand_counts == () and quick.state()["hand_counts"] == []
    table = Table(["Ana", "Ben"])
    table.push({"type": "end_manche", "reason": "pioche_empty"})
    assert table.hand_counts == () and table.top_of_defausse is None
