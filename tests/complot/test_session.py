"""The Complot referee session (companion.complot.session): the durable write path (stored
before it is shown), undo and redo with what to put back, resume, listeners and the view."""

from __future__ import annotations

import pytest

from companion.complot.session import ComplotSession, ComplotView
from companion.errors import UserError
from companion.session.store import GameStore
from tests.complot.hands import EMPIRES, LEONARDS, NOTHING


@pytest.fixture
def path(tmp_path):
    return tmp_path / "games.sqlite"


@pytest.fixture
def session(path):
    store = GameStore(path)
    yield ComplotSession(store)
    store.close()


def test_c10_a_wrong_setup_is_a_user_error_and_writes_nothing(session):
    """C10: 2 to 6 named players, a level 1–3, a positive target; nothing is stored."""
    for players, options in [(["Ana"], {}), ([f"P{n}" for n in range(7)], {}),
                             (["Ana", ""], {}), (["Ana", "Ben"], {"level": 4}),
                             (["Ana", "Ben"], {"target": 0})]:
        with pytest.raises(UserError):
            session.new_game(players, **options)
    assert session.store.games() == [] and not session.view.has_game


def test_c44_c52_the_view_follows_the_table_and_listeners_hear_every_change(session):
    """The view says whose turn it is, who must pass (C44), who is still in (C50), the manche's
    points (C52); each change reaches the listeners once, stored before it is shown."""
    seen: list[ComplotView] = []
    stop = session.subscribe(seen.append)
    session.new_game([" Ana ", "Ben", "Chloé"], level=2, target=300)
    view = session.view
    assert (view.players, view.level, view.target, view.current, view.manche) == (
        ("Ana", "Ben", "Chloé"), 2, 300, 0, 1)
    wrong = session.claim(0, "complot", NOTHING)
    assert (wrong.accepted, wrong.code, wrong.wrong_claim) == (False, "claim_not_met", True)
    assert session.view.must_pass == (0,) and session.view.current == 1
    assert wrong.sentence("en").endswith("you miss a turn. Ben's turn.")
    assert session.undo().sentence("en") == ("Undone: Ana's refused claim; Ana no longer "
                                             "misses a turn.")
    assert session.redo().wrong_claim and session.view.must_pass == (0,)
    stored = [line["type"] for line in session.store.lines(session.view.game_id)]
    assert stored == ["claim", "undo", "claim"] and seen[-1] is session.view
    refused = session.claim(2, "complot", LEONARDS)
    assert refused.code == "not_your_turn" and session.view.last == refused
    assert session.store.lines(session.view.game_id)[-1]["type"] == "claim"  # not stored
    stop()
    count = len(seen)
    session.next_turn()
    assert len(seen) == count


def test_c65_c92_an_action_waits_for_its_defence(session):
    """C65/C92: the view shows the pending contrôle and its target until a defence or the end
    of the turn; the sentence says who may stop it."""
    session.new_game(["Ana", "Ben"], level=2)
    outcome = session.action(0, "controle", ["enqueteurs:emma"], [1])
    assert outcome.accepted and session.view.pending_action == "controle"
    assert outcome.sentence("en") == ("Ana launches a «contrôle» against Ben. Ben may stop it "
                                      "by showing a higher-ranked General Staff card.")
    stopped = session.defence("etat-major:arthur")
    assert stopped.accepted and stopped.cards == ("etat-major:arthur",) and stopped.seat == 1
    assert outcome.seat == 0 and session.defence("etat-major:noe").seat is None
    assert session.view.pending_action is None
    assert "Arthur (État-Major)" in stopped.sentence("fr")


def test_undo_and_redo_say_what_to_put_back_and_survive_a_resume(path, session):
    """Undo takes the last action back (stored as an ``undo`` line) and says what the table
    puts back; redo applies it again; a new action clears the redo; resume rebuilds both."""
    session.new_game(["Ana", "Ben", "Chloé"])
    session.next_turn()
    session.claim(1, "complot", LEONARDS)
    undone = session.undo()
    assert undone.accepted and session.view.can_redo and session.view.still_in == (0, 1, 2)
    assert undone.sentence("zh") == "已復原：Ben 的宣告；Ben 收回攤出的牌。"
    game_id = session.view.game_id
    session.store.close()
    with GameStore(path) as store:
        again = ComplotSession(store)
        assert again.unfinished_games()[0].id == game_id
        again.resume()
        assert again.view.can_redo and again.view.current == 1
        redone = again.redo()
        assert redone.accepted and redone.points == 50 and not again.view.can_redo
        again.undo()
        again.next_turn()
        assert not again.view.can_redo and again.redo().code == "nothing_to_redo"
        lines = [line["type"] for line in store.lines(game_id)]
        assert lines == ["turn", "claim", "undo", "claim", "undo", "turn"]


def test_c44_a_record_that_cannot_be_written_leaves_the_table_as_it_was(session, monkeypatch):
    """An accepted event is stored before it is shown: when the write fails the table takes
    the action back (a wrong claim's lost turn too) and the error reaches the caller."""
    session.new_game(["Ana", "Ben"])
    before = session.table.state()

    def full_disk(game_id, line):
        raise UserError("The disk is full.", "Free some space.")

    monkeypatch.setattr(session.store, "append", full_disk)
    with pytest.raises(UserError):
        session.claim(0, "complot", NOTHING)
    with pytest.raises(UserError):
        session.next_turn()
    assert session.view.notices[-1].level == "problem" and "could not be saved" in \
        session.view.notices[-1].text  # the UserError itself ("disk is full") reaches the caller
    assert session.table.state() == before and not session.table.history
    assert session.view.current == 0 and not session.view.can_undo


def test_c51_c55_scores_and_the_end_of_the_game_reach_the_history_list(session):
    """C51/C53/C55: a finished manche and the game's end are in the record's summary; a
    finished game is no longer offered for resume; intents after it say game_over."""
    session.new_game(["Ana", "Ben"], target=50)
    game_id = session.view.game_id
    outcome = session.claim(0, "complot", EMPIRES)
    assert outcome.sentence("en") == ("Ana scores 50 points (six Empires) and is out of the "
                                      "manche. End of the manche (one player left): deal the "
                                      "next one. Game over! Won by Ana.")
    view = session.view
    assert (view.phase, view.winners, view.manches, view.scores) == (
        "game_over", (0,), ((50, 0),), (50, 0))
    entry = session.store.game(game_id)
    assert entry.finished and entry.summary["scores"] == [50, 0]
    assert session.unfinished_games() == [] and session.next_manche().code == "game_over"


def test_c31_score_only_games_and_the_record_shared_with_noah(session):
    """C31/C40: two taps per claim in a score-only game; the Complot session lists only
    Complot games of a record that also holds Noah's; no game open is a plain refusal."""
    assert session.next_turn().code == "no_game"
    session.store.create_game({"format": "noah-table-log", "version": 1,
                               "players": ["A", "B"], "options": {}})
    session.new_game(["Ana", "Ben", "Chloé"], scores_only=True)
    assert session.claim_points(2, "prix_pulitzer").points == 50
    assert session.next_turn().code == "scores_only_game"
    assert [game.id for game in session.unfinished_games()] == [session.view.game_id]
    session.close_game()
    assert not session.view.has_game and session.view.unfinished == (2,)
    with pytest.raises(UserError, match="not a Complot game"):
        session.resume(1)


def test_c6_c46_cards_read_by_the_camera_wait_for_the_claim(session):
    """C6: a Complot sticker read by the camera joins the cards shown (each once, C46: the
    claim is judged on the cards laid down); Noah and foreign codes are counted and ignored,
    a sticker of another box is said; judging an intent starts the next reading afresh; a
    camera lost is in the view."""
    session.new_game(["Ana", "Ben"])
    for text in ("CPLT1/BOX1/LEEM", "CPLT1/BOX1/LEAM", "CPLT1/BOX1/LEEM"):
        assert session.tag_seen(text).accepted
    assert session.view.cards_read == ("leonard:emma", "leonard:amelie")
    assert session.tag_seen("NOAH1/BOX1/CAF2").code == "foreign_code"
    assert session.tag_seen("CPLT1/BOX2/LEEM").code == "bad_sticker"
    assert session.view.foreign_codes == 1 and session.view.notices[-1].reason == "other_deck"
    session.claim(0, "complot", LEONARDS)
    assert session.view.cards_read == ()
    session.camera_status(False, "The hand camera is unplugged.")
    assert not session.view.camera_ok and "unplugged" in session.view.camera_message


def test_c53_a_resumed_game_is_the_game_left_with_its_undo_and_redo(path, session):
    """C53: after a seeded run of intents (undo and redo among them) the record, replayed by a
    fresh session, gives the same table, scores and redo stack as the session that wrote it."""
    import random

    from tests.complot.test_table_properties import random_action

    rng = random.Random(21)
    session.new_game(["Ana", "Ben", "Chloé", "Dan"], level=3, target=200)
    for _ in range(60):
        roll = rng.random()
        if roll < 0.1:
            session.undo()
        elif roll < 0.15:
            session.redo()
        else:
            by_intent(session, random_action(rng, session.table))
    left, can_redo = session.table.state(), session.view.can_redo
    game_id = session.view.game_id
    session.store.close()
    with GameStore(path) as store:
        again = ComplotSession(store)
        again.resume(game_id)
        assert again.table.state() == left and again.view.can_redo == can_redo
        if can_redo:
            assert again.redo().accepted


def by_intent(session, action):
    """A table-log line sent through the session's public intent for it."""
    kind = action["type"]
    if kind == "turn":
        return session.next_turn(action.get("discard"), drawn_from=action.get("from"))
    if kind == "defausse":
        return session.show_top(action["card"])
    if kind == "claim":
        return session.claim(action["player"], action["claim"], action["cards"],
                             moment=action.get("moment"))
    if kind == "claim_points":
        return session.claim_points(action["player"], action["combination"])
    if kind == "action":
        return session.action(action["player"], action["kind"], action["cards"],
                              action["targets"])
    if kind == "defence":
        return session.defence(action["card"])
    if kind == "end_manche":
        return session.end_manche(action["reason"])
    return session.next_manche()


def test_c90_c91_malformed_requests_are_refused_and_nothing_is_stored(session):
    """C90/C91 (bad_input): whatever a screen or a wiring bug sends, the answer is a refusal
    with a sentence, never an exception, and the record is untouched."""
    session.new_game(["Ana", "Ben"], level=3)
    for outcome in [session.claim("Ana", "complot", LEONARDS),
                    session.claim(True, "complot", LEONARDS),
                    session.claim(0, None, LEONARDS),
                    session.claim(0, "complot", [None] * 6),
                    session.claim(0, "complot", LEONARDS, moment="later"),
                    session.claim_points(9, "two_trios"),
                    session.action(0, "controle", "enqueteurs:max", [1]),
                    session.action(0, "bombe", ["poseur-bombe:olga"], ["Ben"]),
                    session.defence(None),
                    session.end_manche("bored")]:
        assert not outcome.accepted and outcome.code is not None
        assert outcome.sentence("fr") and not outcome.wrong_claim
    assert session.store.lines(session.view.game_id) == []


def test_c44a_a_damaged_record_resumes_only_up_to_its_last_good_move(session):
    """A line the referee refuses (written by another program, or a bug) makes the game
    damaged: resume says where and changes nothing; resuming up to the last good move sets the
    rest aside (kept) and the game goes on from there."""
    session.new_game(["Ana", "Ben", "Chloé"])
    game_id = session.view.game_id
    session.next_turn()
    session.close_game()
    session.store.append(game_id, {"type": "turn", "player": 0})     # not Ana's turn: line 3
    session.store.append(game_id, {"type": "turn", "player": 1})
    with pytest.raises(UserError, match="damaged at line 3"):
        session.resume(game_id)
    assert len(session.store.lines(game_id)) == 3 and not session.view.has_game
    session.resume(game_id, to_last_good_move=True)
    assert session.view.current == 1 and session.view.notices[-1].reason == "set_aside"
    assert [entry["seq"] for entry in session.store.set_aside_lines(game_id)] == [2, 3]
    assert session.next_turn().accepted and session.view.current == 2


def test_c13_c14_the_top_of_the_defausse_and_the_hands_through_undo_redo_and_resume(path,
                                                                                   session):
    """C13, C14, C17, C30: a discard shown is the top, a claim at the discard (its card not
    shown) makes it unknown and empties a hand; undo puts both back, redo again, and a resumed
    game has them as left; a discard the table cannot take is refused in one sentence."""
    session.new_game(["Ana", "Ben", "Chloé"])
    assert session.show_top("duron:noe").sentence("en") == \
        "On top of the défausse: Noé (Famille Duron)."
    told = session.next_turn("leonard:emma", drawn_from="defausse")
    assert told.sentence("fr") == "Ana a défaussé Emma (Léonard). À Ben de jouer."
    assert session.view.top_of_defausse == "leonard:emma"
    session.claim(1, "complot", EMPIRES)  # Ben discarded a card not shown, then laid down
    assert (session.view.hand_counts, session.view.top_of_defausse) == ((6, 0, 6), None)
    session.undo()
    assert (session.view.hand_counts, session.view.top_of_defausse) == ((6, 6, 6),
                                                                          "leonard:emma")
    session.redo()
    refused = session.next_turn("empires:noe")  # laid down by Ben (C17)
    assert refused.code == "card_not_in_hand" and refused.sentence("zh")
    left, game_id = session.table.state(), session.view.game_id
    assert (left["hand_counts"], left["top_of_defausse"]) == ([6, 0, 6], None)
    session.store.close()
    with GameStore(path) as store:
        again = ComplotSession(store)
        again.resume(game_id)
        assert again.table.state() == left
        assert (again.view.hand_counts, again.view.top_of_defausse) == ((6, 0, 6), None)
        again.undo()
        assert again.view.top_of_defausse == "leonard:emma"
