"""Refereeing from the table (issue 14, items 4-6): every inference of the observer, every
audit sentence, no inference while a hand is over a ferry, one play per presentation across both
cameras. Readings are made by hand (fast); the hand and still-table tests render real frames."""

from __future__ import annotations

import json
import pathlib

import pytest

from companion.game.deck import default_deck
from companion.i18n import english
from companion.session import GameStore, Session
from companion.session.table_observer import (
    TABLE_KEYS,
    NoahSeen,
    NoahStartSeen,
    PlayLedger,
    PlaySeen,
    RecordTable,
    SetupCardSeen,
    StillTable,
    TableObserver,
    TableSight,
    TakeBackSeen,
    audit,
    infer,
    sight_of,
)
from companion.tags.payload import TagOk, classify, encode
from vision.table import FerryView, TableReading
from vision.table_kit import FERRIES

EMPTY = (True,) * 5
NONE5: tuple[str | None, ...] = (None,) * 5


def record(step: str = "play_card", noah: int = 1, ferries=((), ("cat:F#1",), (), (), ()),
           **more) -> RecordTable:
    return RecordTable(step=step, noah=noah, ferries=tuple(ferries), player="Ben", **more)


def sight(tops=NONE5, noah: int | None = 1, empty=None) -> TableSight:
    tops = tuple(tops)
    if empty is None:
        empty = tuple(top is None for top in tops)
    return TableSight(noah, tops, tuple(empty))


def tops(**by_position: str) -> tuple[str | None, ...]:
    """``tops(p1="cat:F#1")``: the top card of position 1 (0-4)."""
    return tuple(by_position.get(f"p{k}") for k in range(5))


# -- inference ------------------------------------------------------------------------------------

def test_a_new_top_card_on_noahs_ferry_is_the_play():
    """R12: the card goes on Noah's ferry; the observer reports it as if it had been shown."""
    assert infer(record(), sight(tops(p1="lion:M#2"))) == PlaySeen(1, "lion:M#2")


def test_the_record_top_card_still_on_top_is_no_play():
    assert infer(record(), sight(tops(p1="cat:F#1"))) is None


def test_a_top_card_on_another_ferry_is_not_a_play_but_an_audit_finding():
    """R12 `wrong_ferry`: a card laid on another ferry never becomes a play."""
    seen = sight(tops(p1="cat:F#1", p3="lion:M#2"))
    assert infer(record(), seen) is None
    [finding] = audit(record(), seen)
    assert finding.ferry == 3
    assert finding.text == ("Ferry 4 should be empty; it shows the ♂ lion: put the ♂ lion back "
                            "in Ben's hand.")


def test_nothing_read_on_noahs_ferry_is_no_inference():
    """A ferry whose top code cannot be read (glare, a hand) is not an empty ferry."""
    unreadable = sight(NONE5, empty=(True, False, True, True, True))
    assert infer(record(), unreadable) is None
    assert audit(record(), unreadable) == []


def test_noahs_marker_at_a_new_ferry_is_his_move():
    """R22: the move is judged by the engine; the observer only reports where he stands."""
    assert infer(record("move_noah"), sight(tops(p1="cat:F#1"), noah=3)) == NoahSeen(3)
    assert infer(record("move_noah"), sight(tops(p1="cat:F#1"), noah=1)) is None
    assert infer(record("move_noah"), sight(tops(p1="cat:F#1"), noah=None)) is None


def test_a_donkeys_noah_stays_needs_nothing():
    """R23: after a donkey the next player's turn comes at once: Noah where he was is fine."""
    after_donkey = record("play_card", ferries=((), ("cat:F#1", "donkey:M#1"), (), (), ()))
    seen = sight(tops(p1="donkey:M#1"), noah=1)
    assert infer(after_donkey, seen) is None and audit(after_donkey, seen) == []


def test_noahs_ferry_emptied_on_the_players_turn_is_the_take_back():
    """R25: the player takes every animal of Noah's ferry back."""
    loaded = record(ferries=((), ("cat:F#1", "bear:M#1"), (), (), ()))
    assert infer(loaded, sight(NONE5)) == TakeBackSeen(1)


def test_take_back_and_replay_of_one_of_those_cards_is_seen_as_the_take_back_first():
    """R25: "it may be one just taken back": the earlier card on top again."""
    loaded = record(ferries=((), ("cat:F#1", "bear:M#1"), (), (), ()))
    assert infer(loaded, sight(tops(p1="cat:F#1"))) == TakeBackSeen(1)
    after = record(ferries=((), (), (), (), ()))
    assert infer(after, sight(tops(p1="cat:F#1"))) == PlaySeen(1, "cat:F#1")


def test_an_empty_ferry_that_was_empty_is_no_take_back():
    assert infer(record(ferries=((),) * 5), sight(NONE5)) is None


def test_round_setup_noah_and_the_starting_animals_are_read_from_the_table():
    assert infer(record("choose_noah_start", noah=None, ferries=((),) * 5),
                 sight(noah=2)) == NoahStartSeen(2)
    setup = record("scan_setup_card", noah=None, ferries=((),) * 5, setup_ferry=3)
    assert infer(setup, sight(tops(p3="bear:M#1"), noah=2)) == SetupCardSeen(3, "bear:M#1")
    assert infer(setup, sight(tops(p2="bear:M#1"), noah=2)) is None


def test_no_inference_in_steps_the_camera_cannot_answer():
    """Targets, gifts, a snail's side: on the screen."""
    for step in ("choose_target", "give_cards", "choose_snail_side", "choose_frog_weight",
                 "scan_hand", "game_over"):
        assert infer(record(step), sight(tops(p1="lion:M#2"), noah=4)) is None


# -- the audit ------------------------------------------------------------------------------------

def test_the_issues_example_sentence():
    loaded = record(ferries=((), ("cat:F#1",), (), (), ()))
    [finding] = audit(loaded, sight(tops(p1="bear:M#1")))
    assert finding.text == ("Ferry 2 should show the ♀ cat on top; it shows the ♂ bear: put the "
                            "♂ bear back in Ben's hand.")
    assert finding.ferry == 1 and finding.phrase.key == "audit.wrong_top.hand"


def test_a_card_from_another_ferry_is_sent_back_there():
    loaded = record(ferries=(("lion:M#2",), ("cat:F#1",), (), (), ()))
    [finding] = audit(loaded, sight(tops(p0="lion:M#2", p1="lion:M#2")))
    assert finding.text == ("Ferry 2 should show the ♀ cat on top; it shows the ♂ lion: put the "
                            "♂ lion back on ferry 1.")


def test_a_departed_card_is_sent_back_to_the_departed_pile():
    loaded = record(ferries=((), ("cat:F#1",), (), (), ()), departed=("bear:M#1",))
    [finding] = audit(loaded, sight(tops(p1="cat:F#1", p4="bear:M#1")))
    assert finding.text == ("Ferry 5 should be empty; it shows the ♂ bear: put the ♂ bear back "
                            "with the departed animals.")


def test_cards_missing_from_a_ferry():
    loaded = record(ferries=(("cat:F#1", "bear:M#1"), ("lion:M#2",), (), (), ()))
    [finding] = audit(loaded, sight(tops(p1="lion:M#2")))
    assert finding.ferry == 0
    assert finding.text == ("Ferry 1 should hold the ♀ cat and the ♂ bear; it shows no card: "
                            "put them back (bottom first).")


def test_cards_taken_off_the_top_of_a_ferry():
    loaded = record(ferries=(("cat:F#1", "bear:M#1", "lion:M#2"),) + ((),) * 4, noah=0)
    [finding] = audit(loaded, sight(tops(p0="cat:F#1"), noah=0))
    assert finding.text == ("Ferry 1 should show the ♂ lion on top: put the ♂ bear and the ♂ "
                            "lion back on it (bottom first).")


def test_noah_at_another_ferry():
    [finding] = audit(record(), sight(tops(p1="cat:F#1"), noah=4))
    assert finding.ferry == 4
    assert finding.text == "Noah should be at ferry 2; he is at ferry 5: move him back to ferry 2."


def test_a_table_that_matches_the_record_says_nothing():
    assert audit(record(), sight(tops(p1="cat:F#1"))) == []


def test_the_audit_is_silent_while_something_is_half_entered_or_between_rounds():
    for step in ("choose_snail_side", "choose_frog_weight", "choose_card", "scan_hand",
                 "scan_setup_card", "choose_noah_start", "game_over"):
        assert audit(record(step), sight(tops(p1="bear:M#1"), noah=4)) == []


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_audit_sentence_is_in_the_catalogs(language):
    catalog = json.loads((pathlib.Path(__file__).parents[2] / "companion/locales"
                          / f"{language}.json").read_text("utf-8"))
    assert {key for key in TABLE_KEYS if key not in catalog} == set()


def test_every_key_has_an_english_sentence():
    params = {"ferry": 2, "noah": 3, "card": "cat:F#1", "expected": "bear:M#1",
              "cards": ["cat:F#1"], "name": "Ana", "home": 4, "count": 2, "seen": 3, "near": 1}
    from companion.session.view import Phrase

    for key in TABLE_KEYS:
        assert english(Phrase(key, params)).endswith(".")


def test_a_french_audit_sentence_names_the_cards():
    from companion.i18n import Catalog

    loaded = record(ferries=((), ("cat:F#1",), (), (), ()))
    [finding] = audit(loaded, sight(tops(p1="bear:M#1")))
    text = Catalog("fr").phrase(finding.phrase)
    assert text is not None and "Ours ♂" in text and "Chat ♀" in text and "Ben" in text


# -- the observer with a real session -------------------------------------------------------------

DECK = default_deck()


def text_of(ref: str) -> str:
    return encode("BOX1", DECK[ref])


def card_of(text: str) -> str | None:
    tag = classify(text, DECK, "BOX1")
    return tag.card.id if isinstance(tag, TagOk) else None


def reading(top_by_ferry: dict[int, str], noah: int | None) -> TableReading:
    """A reading (ferries 1-5 as vision numbers them): these top cards, others empty."""
    views = {k: FerryView(seen=True, top=text_of(top_by_ferry[k]) if k in top_by_ferry else None,
                          codes=(text_of(top_by_ferry[k]),) if k in top_by_ferry else ())
             for k in FERRIES}
    return TableReading(views, noah)


class ScriptedReader:
    """A reader that returns the readings it is given, one per call."""

    def __init__(self) -> None:
        self.next: TableReading | None = None
        self.reads = 0

    def read(self, frame):
        self.reads += 1
        assert self.next is not None
        return self.next


@pytest.fixture
def session(tmp_path):
    with GameStore(tmp_path / "g.sqlite") as store:
        yield Session(store)


def started(session: Session) -> Session:
    """A 2-player round 1: Noah on ferry 2 (position 1), five starting animals."""
    session.new_game(["Ana", "Ben"])
    session.choose_noah_start(1)
    for ref in ("cat:F#1", "bear:M#1", "lion:M#1", "elephant:F#1", "rhino:M#1"):
        assert session.choose_card(ref).accepted
    session.choose_starter(0)
    return session


def frame(small_value: int):
    import numpy as np

    from vision.table_capture import TableFrame

    return TableFrame(np.zeros((90, 160), np.uint8), np.full((90, 160), small_value, np.uint8),
                      "f", 0.0)


def observe(observer: TableObserver, reader: ScriptedReader, table: TableReading) -> list:
    """The table changes (a moving frame), then two still frames are read."""
    reader.next = table
    verdicts = []
    for value in (observer._frame_value + 60, observer._frame_value + 60,
                  observer._frame_value + 60):
        verdicts += observer.feed(frame(value % 250))
    observer._frame_value = (observer._frame_value + 60) % 250
    return verdicts


def make_observer(session, **more):
    reader = ScriptedReader()
    obs = TableObserver(session, card_of, reader=reader, **more)
    obs._frame_value = 0  # type: ignore[attr-defined]
    return obs, reader


def setup_tops() -> dict[int, str]:
    return {1: "cat:F#1", 2: "bear:M#1", 3: "lion:M#1", 4: "elephant:F#1", 5: "rhino:M#1"}


def test_the_observer_plays_a_card_laid_on_noahs_ferry_then_moves_noah(session):
    """R12, R22: a play and Noah's move, read from the table, written to the record."""
    started(session)
    obs, reader = make_observer(session)
    laid = {**setup_tops(), 2: "cat:M#1"}  # Ana lays the ♂ cat on ferry 2 (Noah's)
    [verdict] = observe(obs, reader, reading(laid, noah=2))
    assert verdict.accepted and verdict.inference == PlaySeen(1, "cat:M#1")
    assert session.view.prompt.kind == "move_noah"
    [move] = observe(obs, reader, reading(laid, noah=4))  # a male: two steps (R22)
    assert move.accepted and session.view.noah == 3
    assert session.view.prompt.kind == "play_card" and obs.findings == []


def test_a_card_moved_from_another_ferry_is_never_a_play_and_the_audit_sends_it_back(session):
    """R12: loadings go on Noah's ferry only; the audit names where the card belongs and
    flashes the ferry it lies on; the record does not change (R53)."""
    started(session)
    flashes: list[int] = []
    obs, reader = make_observer(session, flash=flashes.append)
    seq = session.view.seq
    moved = {**setup_tops(), 2: "cat:F#1"}  # the ♀ cat of ferry 1 put on Noah's ferry 2
    assert observe(obs, reader, reading(moved, noah=2)) == []
    assert session.view.seq == seq
    assert obs.findings[-1].text == ("Ferry 2 should show the ♂ bear on top; it shows the ♀ "
                                     "cat: put the ♀ cat back on ferry 1.")
    assert flashes[-1] == 1


def test_an_illegal_play_is_refused_by_the_engine_and_not_tried_again(session):
    """R48 `unknown_card`: a frog in a game without frogs. The engine refuses (the usual
    refusal notice), nothing is written (R53), the audit says to take it back."""
    started(session)
    flashes: list[int] = []
    obs, reader = make_observer(session, flash=flashes.append)
    seq = session.view.seq
    table = {**setup_tops(), 2: "frog:F#1"}  # no frog in this game (R43 promo off)
    verdicts = observe(obs, reader, reading(table, noah=2))
    assert [v.accepted for v in verdicts] == [False]
    assert session.view.seq == seq
    assert session.view.notices[-1].level == "refused"
    assert obs.findings[-1].text.endswith("put the ♀ frog back in Ana's hand.")
    again = observe(obs, reader, reading(table, noah=2))
    assert again == []  # the same table is not submitted twice


def test_no_inference_while_a_hand_is_over_a_ferry(session):
    """Rendered frames: a hand over Noah's ferry hides the new card; nothing is inferred until
    the hand has gone and two still readings agree."""
    from companion.sim.table_demo import OverheadTable

    started(session)
    obs = TableObserver(session, card_of)
    table = OverheadTable("BOX1", DECK, seed=3)
    table.place_noah(1)
    for ferry, ref in enumerate(setup_tops().values()):
        table.lay(ferry, ref)
    for still in table.frames(None)[:2]:
        assert obs.feed(still) == []
    seq = session.view.seq
    table.lay(1, "cat:M#1")
    hand = table._frame(1)  # the hand still over ferry 2, the card under it
    assert obs.feed(hand) == [] and obs.feed(hand) == [] and obs.feed(hand) == []
    assert session.view.seq == seq, "no inference while a hand is over the ferry"
    verdicts = [v for f in table.frames(None) for v in obs.feed(f)]
    assert [v.inference for v in verdicts] == [PlaySeen(1, "cat:M#1")]
    assert session.view.seq == seq + 1


def test_a_still_table_is_read_twice_then_not_again():
    """TABLE-KIT.md: the first still frame counts once the second shows no motion against it
    and the two readings agree (a change followed by two still frames is always seen)."""
    class Reader:
        reads = 0

        def read(self, full):
            self.reads += 1
            return reading({}, None)

    reader = Reader()
    watch = StillTable(reader)
    assert watch.feed(frame(10)) is None and reader.reads == 0  # nothing to compare with yet
    assert watch.feed(frame(10)) is not None and reader.reads == 2  # both frames read
    assert watch.feed(frame(10)) is None and reader.reads == 2  # settled: no more readings
    assert watch.feed(frame(90)) is None and not watch.settled  # something moved
    assert watch.feed(frame(90)) is not None and reader.reads == 4


def test_the_still_time_is_the_first_still_frames():
    class Reader:
        def read(self, full):
            return reading({}, None)

    import dataclasses

    watch = StillTable(Reader())
    watch.feed(dataclasses.replace(frame(90), captured_at=1.0))  # a hand leaves
    assert watch.feed(dataclasses.replace(frame(10), captured_at=2.0)) is None
    assert watch.feed(dataclasses.replace(frame(10), captured_at=3.0))[1] == 2.0


def test_two_readings_that_disagree_are_not_a_stable_table():
    readings = iter([reading({1: "cat:F#1"}, 1), reading({}, 1), reading({}, 1)])

    class Reader:
        def read(self, full):
            return next(readings)

    watch = StillTable(Reader())
    watch.feed(frame(10))
    assert watch.feed(frame(10)) is None  # the first two disagree
    assert watch.feed(frame(10)) is not None  # the second and the third agree


# -- both cameras ---------------------------------------------------------------------------------

def shown(ref: str):
    """The hand camera's event for one card held up alone."""
    from vision.events import CardShown

    return CardShown(text_of(ref), (text_of(ref),), 0.0, 0.0, 0)

def test_both_cameras_never_count_a_play_twice(session):
    """[camera] view = both: the hand camera and the table report the same presentation."""
    started(session)
    ledger = PlayLedger()
    obs, reader = make_observer(session, ledger=ledger)
    on_hand_event = ledger.hand_events(session, card_of)
    seq = session.view.seq
    on_hand_event(shown("cat:M#1"))
    assert session.view.seq == seq + 1
    assert observe(obs, reader, reading({**setup_tops(), 2: "cat:M#1"}, noah=2)) == []
    on_hand_event(shown("cat:M#1"))
    assert session.view.seq == seq + 1
    assert not any(n.level == "refused" for n in session.view.notices)


def test_both_cameras_table_first_then_hand(session):
    started(session)
    ledger = PlayLedger()
    obs, reader = make_observer(session, ledger=ledger)
    seq = session.view.seq
    [verdict] = observe(obs, reader, reading({**setup_tops(), 2: "cat:M#1"}, noah=2))
    assert verdict.accepted
    ledger.hand_events(session, card_of)(shown("cat:M#1"))
    assert session.view.seq == seq + 1 and ledger.dropped == 1
    assert not any(n.level == "refused" for n in session.view.notices)


def test_a_foreign_code_beside_the_card_is_not_several_cards(session):
    """'Several cards in view' is decided once (drafts.several_cards, on this deck's cards): a
    menu's QR code beside the card the table just played is still the same one play (before,
    the ledger counted raw texts and passed it on to be played a second time)."""
    from vision.events import CardShown

    started(session)
    ledger = PlayLedger()
    obs, reader = make_observer(session, ledger=ledger)
    seq = session.view.seq
    observe(obs, reader, reading({**setup_tops(), 2: "cat:M#1"}, noah=2))
    text = text_of("cat:M#1")
    ledger.hand_events(session, card_of)(
        CardShown(text, (text, "https://example.com/menu"), 0.0, 0.0, 0))
    assert session.view.seq == seq + 1 and ledger.dropped == 1
    assert not any(n.level == "refused" for n in session.view.notices)


def test_a_card_played_again_after_an_undo_is_a_new_play(session):
    """R55: after an undo the card is back in the hand; showing it again is a new play."""
    started(session)
    ledger = PlayLedger()
    assert ledger.report(session, "cat:M#1", "hand").accepted
    session.undo()
    assert ledger.report(session, "cat:M#1", "table").accepted


def test_sight_of_a_reading_names_cards_and_empty_ferries():
    seen = sight_of(reading({2: "snail#1"}, noah=3), card_of)
    assert seen.tops == (None, "snail#1", None, None, None)
    assert seen.noah == 2 and seen.empty == (True, False, True, True, True)
    unsure = TableReading({k: FerryView(seen=True, codes=("NOAH1/BOX1/CAF1",)) for k in FERRIES},
                          None)
    assert sight_of(unsure, card_of).empty == (False,) * 5


def test_the_audit_reaches_the_screen_and_flashes_the_ferry_through_the_lights(tmp_path):
    """wiring.table_observer: the sentence is a session notice (with its phrase for the app's
    language) and the ferry's light flashes; the record is not touched (R53)."""
    from companion.wiring import assemble, table_observer

    class Lights:
        def __init__(self):
            self.flashed: list[int] = []

        def __getattr__(self, name):
            return lambda *args: None

        def flash_illegal(self, k):
            self.flashed.append(k)

    lights = Lights()
    with GameStore(tmp_path / "g.sqlite") as store:
        session = started(assemble(store, lights=lights))
        reader = ScriptedReader()
        obs = table_observer(session, reader=reader)
        obs._frame_value = 0  # type: ignore[attr-defined]
        seq = session.view.seq
        observe(obs, reader, reading({**setup_tops(), 2: "cat:F#1"}, noah=2))
        notice = session.view.notices[-1]
        assert notice.level == "reconcile" and notice.phrases[0].key == "audit.wrong_top.ferry"
        assert notice.text.startswith("Ferry 2 should show the ♂ bear on top")
        assert lights.flashed == [1] and session.view.seq == seq


def test_a_departing_ferry_gets_an_instruction_then_a_confirmation_never_a_warning():
    """R19, R24: the record empties a departed ferry at once; the table follows when the players
    take its cards off. Until then the audit says what to do, not that something is wrong."""

    class Intents:
        """A stand-in session whose record the test sets."""

        def __init__(self):
            self.view = self.make(("cat:F#1", "bear:F#1"), step="move_noah", seq=1)

        @staticmethod
        def make(ferry2, *, step, seq, noah=1):
            from companion.session.prompts import PROMPT_KINDS

            prompt = PROMPT_KINDS[step](player=0, text="")
            state = {"noah": noah, "ferries": [[], list(ferry2), [], [], []]}
            return type("View", (), {"seq": seq, "state": state, "prompt": prompt,
                                     "players": ("Ana", "Ben")})()

        def move_noah(self, ferry):
            self.view = self.make((), step="play_card", seq=2, noah=ferry)  # ferry 2 departed
            return type("Outcome", (), {"accepted": True, "message": ""})()

    intents = Intents()
    said: list[str] = []
    obs = TableObserver(intents, card_of, reader=ScriptedReader(),
                        on_finding=lambda f: said.append(f.phrase.key))
    still_there = TableSight(3, (None, "bear:F#1", None, None, None),
                             (True, False, True, True, True))
    obs._act(still_there, 0.0)
    assert said == ["audit.departing"]
    obs._check(TableSight(3, NONE5, EMPTY))
    assert said == ["audit.departing", "audit.departure_seen"]


def test_a_donkey_that_makes_its_ferry_depart_is_no_audit_warning():
    """R24: after a donkey Noah stays; its ferry may depart at once, on the play itself."""

    class Intents:
        def __init__(self):
            self.view = self.make(("cat:F#1", "bear:F#1"), step="play_card", seq=1)

        make = staticmethod(lambda ferry2, *, step, seq: type("View", (), {
            "seq": seq, "state": {"noah": 1, "ferries": [[], list(ferry2), [], [], []]},
            "prompt": __import__("companion.session.prompts", fromlist=["x"]).PROMPT_KINDS[
                step](player=0, text=""), "players": ("Ana", "Ben")})())

        def choose_card(self, ref):
            self.view = self.make((), step="play_card", seq=2)  # departed with the donkey
            return type("Outcome", (), {"accepted": True, "message": ""})()

    said: list[str] = []
    obs = TableObserver(Intents(), card_of, reader=ScriptedReader(),
                        on_finding=lambda f: said.append(f.phrase.key))
    obs._act(TableSight(1, (None, "donkey:M#1", None, None, None),
                        (True, False, True, True, True)), 0.0)
    assert said == ["audit.departing"]


def test_the_last_play_dealt_again_as_a_starting_animal_is_a_new_presentation():
    """Between two rounds the record still shows the last round's ferries; the card played last
    may be dealt as the next round's starting animal (R8). The ledger must pass it on, not drop
    it as the other camera's repeat (before: `demo --table-view --players 2` stopped there)."""

    class Table:  # a stand-in session: accepts the card each time it is chosen
        def __init__(self) -> None:
            self.chosen: list[str] = []
            self.phase = "play"

        @property
        def view(self):
            ferries = [["parrot:M#2"], [], [], [], []]
            state = {"phase": self.phase, "ferries": ferries}
            return type("V", (), {"seq": len(self.chosen), "state": state})()

        def choose_card(self, ref: str):
            self.chosen.append(ref)
            return type("O", (), {"accepted": True})()

    ledger, table = PlayLedger(), Table()
    assert ledger.report(table, "parrot:M#2", "table").accepted
    assert not ledger.report(table, "parrot:M#2", "hand").accepted  # the same presentation
    table.phase = "round_over"
    assert ledger.report(table, "parrot:M#2", "table").accepted
    assert table.chosen == ["parrot:M#2", "parrot:M#2"]
