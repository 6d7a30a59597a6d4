"""The round-end hand scan from the overhead camera (issue 14, item 4, last point): players lay
their hands face up beside the mats and the codes read there are the hand scan (R37, R48).

The reader (rendered frames): the codes beside the mats are read, never a ferry's card, buried
or top, and only when asked. The observer (scripted readings and rendered frames): one hand at a
time, the awaited seat's missing count of new cards; too many cards or a card that cannot be in
a hand (R37: on a ferry or departed; not in this game) is one sentence and nothing is scanned;
nothing is inferred while a hand moves over the table."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

from companion.game.actions import ScanHands
from companion.session import GameStore, Session
from companion.session.table_observer import (
    CardBeside,
    HandSeen,
    RecordTable,
    TableObserver,
    TableSight,
    hand_findings,
    infer,
)
from companion.sim.autoplay import SimulatedTable
from companion.sim.table_demo import OverheadTable
from tests.table.test_observer import DECK, frame, text_of
from vision.table import FerryView, LooseCode, TableReader, TableReading
from vision.table_kit import FERRIES
from vision.table_render import (
    CardOnMat,
    CardOnTable,
    OverheadCamera,
    TableScene,
    Variation,
    hand_polygon,
    laid_out,
    render_table,
    row_layout,
    varied_scene,
)

CAMERA = OverheadCamera(width=3072, height=1728)  # 3 px per module, 974 × 548 mm of table
READER = TableReader()
HAND = tuple(f"NOAH1/BOX1/{code}" for code in ("CAF1", "LIM2", "ELF1", "GIM1", "BEF2", "PAM1"))


@functools.cache
def shot(scene: TableScene):
    return render_table(scene, CAMERA)


def stacked_mats() -> tuple:
    """Every mat loaded: squared, fanned down the mat, overhanging its long edges, turned round
    (the ferries' cards, buried and top, that must never be taken for loose ones)."""
    stacks = {
        1: (CardOnMat("NOAH1/BOX1/RHM1"), CardOnMat("NOAH1/BOX1/RHF1", 0, 0, 4)),
        2: (CardOnMat("NOAH1/BOX1/KAM1", 0, -4), CardOnMat("NOAH1/BOX1/KAF1", 1, 5),
            CardOnMat("NOAH1/BOX1/KAM2", 0, 14, 180)),
        3: (CardOnMat("NOAH1/BOX1/PAF1", -18, 0, 8), CardOnMat("NOAH1/BOX1/PAF2", 18, 2, -10)),
        4: (CardOnMat("NOAH1/BOX1/BEM1", 0, 0, 180),),
        5: (),
    }
    return tuple(replace(m, cards=stacks[m.ferry]) for m in row_layout())


def hand_below(texts=HAND, seed: int = 1) -> tuple[CardOnTable, ...]:
    """A hand laid face up below the row of mats, spaced, askew (a quarter turn, as a player
    across the table lays it)."""
    return laid_out(list(texts), (-250.0, 170.0), (250.0, 170.0), random.Random(seed),
                    angle_deg=90.0, askew_deg=10.0)


# -- the reader -------------------------------------------------------------------------------

def test_a_hand_laid_beside_the_mats_is_read():
    scene = TableScene(stacked_mats(), noah=(0.0, -110.0), loose=hand_below())
    rendered = shot(scene)
    assert set(rendered.truth.loose_visible) == set(HAND)
    reading = READER.read(rendered.frame, loose=True)
    assert reading.loose_texts == set(HAND)
    # where each lies: its centre in the frame's pixels, and the mat nearest to it
    cat = next(code for code in reading.loose if code.text.endswith("CAF1"))
    assert cat.centre[1] > CAMERA.height / 2 and cat.near == 1
    # the ferries read as in an ordinary reading
    ordinary = READER.read(rendered.frame)
    assert [reading.ferries[k].top for k in FERRIES] == [ordinary.ferries[k].top for k in FERRIES]
    assert reading.ferries[1].top == "NOAH1/BOX1/RHF1"


def test_the_codes_beside_the_mats_are_read_only_when_asked():
    scene = TableScene(stacked_mats(), loose=hand_below())
    reading = READER.read(shot(scene).frame)
    assert reading.loose is None and reading.loose_texts is None
    assert "loose" not in reading.to_json()  # `table scan --json` keeps the contract's keys


def test_a_ferrys_card_is_never_a_loose_one():
    """Buried, top, fanned, overhanging or turned round: a card on a mat is the ferry's."""
    reading = READER.read(shot(TableScene(stacked_mats())).frame, loose=True)
    assert reading.loose == ()


@pytest.mark.parametrize("layout", ["row", "arc", "board"])
def test_every_layout_beside_random_stacks(layout):
    """Random stacks (buried and top cards, fanned, askew) of every layout and a hand laid in
    an empty band of the table: exactly the hand is loose."""
    scene = varied_scene(5, Variation(layout=layout))
    row, y = {"row": (HAND[:4], 205.0), "arc": (HAND[:4], -215.0), "board": (HAND[:2], 250.0)}[
        layout]
    hand = laid_out(list(row), (-200.0 if layout != "board" else -420.0, y),
                    (200.0 if layout != "board" else -330.0, y), random.Random(2),
                    angle_deg=90.0)
    rendered = shot(replace(scene, loose=hand))
    assert set(rendered.truth.loose_visible) == set(row)
    reading = READER.read(rendered.frame, loose=True)
    assert reading.loose_texts == set(row)


def test_a_card_overlapping_a_mat_is_not_loose():
    """A card half on a mat, its code over the mat: it may be the ferry's, so it is not loose;
    the hand's other cards are."""
    across = CardOnTable("NOAH1/BOX1/GIF2", 0.0, 90.0, 0.0)  # ferry 3's bottom edge
    scene = TableScene(stacked_mats(), loose=(*hand_below(HAND[:3]), across))
    reading = READER.read(shot(scene).frame, loose=True)
    assert reading.loose_texts == set(HAND[:3])


def test_no_loose_codes_without_every_mat():
    """A mat not found: the cards on it could not be told from loose ones."""
    mats = tuple(m for m in stacked_mats() if m.ferry != 2)
    reading = READER.read(shot(TableScene(mats, loose=hand_below())).frame, loose=True)
    assert not reading.ferries[2].seen and reading.loose is None


def test_a_card_under_a_hand_is_not_read():
    hand = hand_below()
    under = hand[2]
    scene = TableScene(stacked_mats(), loose=hand,
                       hands=(hand_polygon(under.x_mm, under.y_mm + 20, 90.0),))
    rendered = shot(scene)
    reading = READER.read(rendered.frame, loose=True)
    assert HAND[2] not in rendered.truth.loose_visible
    assert reading.loose_texts is not None and HAND[2] not in reading.loose_texts
    assert reading.loose_texts <= set(HAND)


def test_two_readings_with_other_loose_codes_disagree():
    views = {k: FerryView(seen=True) for k in FERRIES}
    one = TableReading(views, 1, loose=(LooseCode(HAND[0], (10.0, 10.0), 1),))
    assert one.agrees_with(replace(one, loose=(LooseCode(HAND[0], (11.0, 10.0), 1),)))
    assert not one.agrees_with(replace(one, loose=()))
    assert not one.agrees_with(replace(one, loose=None))


# -- the observer -----------------------------------------------------------------------------

@pytest.fixture
def round_end(tmp_path):
    """A 3-player game whose round 1 was played by touch; the session awaits the hands."""
    with GameStore(tmp_path / "g.sqlite") as store:
        session = Session(store)
        table = SimulatedTable(session, ["Ana", "Ben", "Chloé"], seed=4)
        table.do(session.new_game, table.players, table.options)
        table.play_round(scan_hands=False)
        assert session.view.prompt.kind == "scan_hand"
        yield session, table


def hands_of(table: SimulatedTable) -> list[list[str]]:
    return [list(hand) for hand in table.truth.state()["hands"]]


class LooseReader:
    """A reader that reports five bare mats and the cards given as lying beside them."""

    def __init__(self) -> None:
        self.beside: list[str] = []
        self.asked: list[bool] = []

    def read(self, full, loose: bool = False) -> TableReading:
        self.asked.append(loose)
        codes = tuple(LooseCode(text_of(ref), (100.0 * i, 900.0), 1 + i % 5)
                      for i, ref in enumerate(self.beside)) if loose else None
        return TableReading({k: FerryView(seen=True) for k in FERRIES}, None, loose=codes)


def observer(session: Session, **more) -> tuple[TableObserver, LooseReader]:
    from companion.wiring import sticker_card

    reader = LooseReader()
    return TableObserver(session, sticker_card(session), reader=reader, **more), reader


def lay(obs: TableObserver, reader: LooseReader, refs) -> list:
    """The table changes (a moving frame), then stands still: two readings."""
    reader.beside = list(refs)
    value = getattr(obs, "_value", 0) + 60
    obs._value = value  # type: ignore[attr-defined]
    verdicts = []
    for _ in range(3):
        verdicts += obs.feed(frame(value % 250))
    return verdicts


def awaited(session: Session) -> int:
    return session.view.prompt.player


def test_each_hand_is_read_from_the_table_one_after_the_other(round_end):
    """R37: every hand is scanned, then the round is scored; earlier hands stay on the table."""
    session, table = round_end
    hands = hands_of(table)
    obs, reader = observer(session)
    laid: list[str] = []
    read = []
    while session.view.prompt.kind == "scan_hand":
        seat = awaited(session)
        laid += hands[seat]
        [verdict] = lay(obs, reader, laid)
        assert verdict.accepted, verdict.message
        assert verdict.inference == HandSeen(seat, tuple(sorted(hands[seat])))
        read.append(seat)
    assert read == [seat for seat, hand in enumerate(hands) if hand]
    assert reader.asked[:2 * len(read)] == [True] * 2 * len(read)  # beside the mats too
    assert session.view.state["scores"] == table.truth.state()["scores"]
    assert session.view.prompt.kind == "choose_noah_start"


def test_the_record_is_the_session_hand_scan(round_end):
    """The hands reach the record as one `scan_hands` line, as when shown by hand."""
    session, table = round_end
    hands = hands_of(table)
    obs, reader = observer(session)
    laid: list[str] = []
    while session.view.prompt.kind == "scan_hand":
        laid += hands[awaited(session)]
        lay(obs, reader, laid)
    last = session.game.history[-1]
    assert isinstance(last, ScanHands)
    assert [sorted(hand) for hand in last.hands] == [sorted(hand) for hand in hands]


def test_the_screen_says_whose_hand_to_lay_beside_the_ferries(round_end):
    from companion.i18n import Catalog
    from companion.wiring import table_observer

    session, table = round_end
    obs = table_observer(session)
    obs.feed(frame(10))
    seat = awaited(session)
    name, count = session.view.players[seat], len(hands_of(table)[seat])
    notice = session.view.notices[-1]
    assert notice.text == (f"{name}: lay your {count} cards face up beside the ferries, side "
                           "by side.")
    assert notice.level == "info"  # an instruction, not a warning: no light flashes
    assert "à côté des embarcations" in Catalog("fr").notice(notice)
    assert "駁船" in Catalog("zh").notice(notice)
    obs.feed(frame(10))
    assert session.view.notices[-1] is notice  # said once per hand


def test_a_hand_laid_before_its_scan_is_read_without_waiting_for_a_move(round_end):
    """The table settled (read without the codes beside the mats) before the scan was
    awaited: it is read again at once, with them."""
    session, table = round_end
    seat = awaited(session)
    obs, reader = observer(session)
    reader.beside = hands_of(table)[seat]
    for _ in range(3):
        obs.still.feed(frame(10))
    assert obs.still.settled and reader.asked == [False, False]
    verdicts = obs.feed(frame(10)) + obs.feed(frame(10))
    assert [v.inference for v in verdicts] == [HandSeen(seat, tuple(sorted(reader.beside)))]


def test_fewer_cards_than_the_hand_wait(round_end):
    session, table = round_end
    seat = awaited(session)
    obs, reader = observer(session)
    seq = session.view.seq
    assert lay(obs, reader, hands_of(table)[seat][:-1]) == []
    assert session.view.prompt.scanned == () and session.view.seq == seq
    assert obs.findings[-1].phrase.key == "audit.lay_hand"


def test_too_many_cards_is_one_sentence_and_nothing_is_scanned(round_end):
    session, table = round_end
    hands = hands_of(table)
    seat = awaited(session)
    other = next(s for s, hand in enumerate(hands) if s != seat and hand)
    flashes: list[int] = []
    obs, reader = observer(session, flash=flashes.append)
    assert lay(obs, reader, hands[seat] + hands[other][:1]) == []
    assert session.view.prompt.player == seat and session.view.prompt.scanned == ()
    name = session.view.players[seat]
    count = len(hands[seat])
    assert obs.findings[-1].text == (
        f"{name} holds {count} card{'s' if count > 1 else ''} but {count + 1} unread cards lie "
        f"beside the ferries: take away those that are not {name}'s.")
    assert flashes == []
    [verdict] = lay(obs, reader, hands[seat])  # the extra card taken away
    assert verdict.accepted and verdict.inference == HandSeen(seat, tuple(sorted(hands[seat])))


def test_a_card_on_a_ferry_cannot_be_in_a_hand(round_end):
    """R37: a card on a ferry is not in anyone's hand; swapped into the hand laid out (the count
    is right), nothing is scanned and the sentence says which card to take away."""
    session, table = round_end
    hands = hands_of(table)
    seat = awaited(session)
    on_ferry, ferry = next((cards[-1], k) for k, cards in enumerate(session.game.ferries)
                           if cards)
    from companion.session.table_observer import physical

    obs, reader = observer(session)
    laid = [*hands[seat][:-1], physical(on_ferry)]
    assert lay(obs, reader, laid) == []
    assert session.view.prompt.scanned == ()
    finding = obs.findings[-1]
    assert finding.phrase.key == "audit.hand_card.on_ferry"
    assert finding.phrase.params["home"] == ferry + 1
    assert finding.text.endswith(f"belongs to ferry {ferry + 1}, not to a hand: take it away.")
    assert finding.ferry == reader_near(laid, physical(on_ferry)) - 1


def reader_near(laid: list[str], ref: str) -> int:
    """The mat LooseReader puts nearest to ``ref``."""
    return 1 + laid.index(ref) % 5


def test_a_card_not_in_this_game_cannot_be_in_a_hand(round_end):
    """R43: the frog is a promo card, not in this game."""
    session, table = round_end
    hands = hands_of(table)
    seat = awaited(session)
    obs, reader = observer(session)
    assert lay(obs, reader, [*hands[seat][:-1], "frog:F#1"]) == []
    assert obs.findings[-1].phrase.key == "audit.hand_card.not_in_game"
    assert obs.findings[-1].text.endswith("is not used in this game: take it away and put it "
                                          "back in the box.")
    assert session.view.prompt.scanned == ()


def test_cancelling_the_scan_forgets_the_hands_read(round_end):
    """The session drops the scan (cancel): the table's earlier hands are new cards again, so
    the first hand alone must lie beside the mats."""
    session, table = round_end
    hands = hands_of(table)
    first = awaited(session)
    obs, reader = observer(session)
    [verdict] = lay(obs, reader, hands[first])
    assert verdict.accepted and awaited(session) != first
    assert session.cancel().accepted and awaited(session) == first
    other = next(seat for seat, hand in enumerate(hands) if seat != first and hand)
    assert lay(obs, reader, hands[first] + hands[other]) == []
    assert obs.findings[-1].phrase.key == "audit.hand_too_many"


def test_a_hand_scanned_in_part_by_the_hand_camera(round_end):
    """Cards already in the scan (shown to the hand camera) are not counted again."""
    session, table = round_end
    hands = hands_of(table)
    seat = awaited(session)
    assert session.choose_card(hands[seat][0]).accepted
    obs, reader = observer(session)
    [verdict] = lay(obs, reader, hands[seat])
    assert verdict.accepted and verdict.inference == HandSeen(seat, tuple(sorted(hands[seat][1:])))


def test_no_hand_scan_outside_the_round_end():
    record = RecordTable(step="play_card", noah=1, ferries=((), ("cat:F#1",), (), (), ()),
                         seat=0, hand_missing=1)
    sight = TableSight(1, (None, "cat:F#1", None, None, None), (True, False, True, True, True),
                       (CardBeside("bear:M#1", 0),))
    assert infer(record, sight) is None
    assert hand_findings(record, sight, lambda card: None) == []


# -- rendered frames: a hand over the table ----------------------------------------------------

def test_no_inference_while_a_hand_is_over_the_table(round_end):
    """Rendered frames of the demo's table: while a hand lays the cards, nothing is read; once
    it has gone and two still readings agree, the hand is scanned."""
    from companion.wiring import sticker_card

    session, table = round_end
    hands = hands_of(table)
    seat = awaited(session)
    overhead = OverheadTable(session.deck_id, DECK, seed=5)
    obs = TableObserver(session, sticker_card(session))
    places = overhead.hand_places(hands[seat])
    overhead.lay_beside(places)
    seq, scanned = session.view.seq, session.view.prompt.scanned
    # the hand lays the cards, then rests on the last one: still, but a card is hidden
    for card in (places[0], places[-1], places[-1], places[-1], places[-1]):
        assert obs.feed(overhead._frame((card.x_mm, card.y_mm))) == []
    assert session.view.seq == seq and session.view.prompt.scanned == scanned
    verdicts = [v for f in overhead.frames(None) for v in obs.feed(f)]
    assert [v.inference for v in verdicts] == [HandSeen(seat, tuple(sorted(hands[seat])))]


def test_the_demo_lays_every_hand_where_the_camera_reads_it():
    """The demo's table (1920 × 1080, 3.3 px per module): two hands laid out, a long one spread
    closer; every card of both is read beside the mats."""
    overhead = OverheadTable("BOX1", DECK, seed=2)
    refs = [card.id for card in DECK if not card.promo][:14]
    first, second = refs[:4], refs[4:]
    overhead.lay_beside(overhead.hand_places(first))
    overhead.lay_beside(overhead.hand_places(second))  # no room for 10 more: picked up first
    reading = READER.read(overhead._frame(None).full, loose=True)
    assert reading.loose_texts == {text_of(ref) for ref in second}


def test_table_scan_lists_the_cards_beside_the_mats(tmp_path, capsys, no_user_config):
    """`table scan --hands`: the readable line lists them; `--json` keeps the contract's keys."""
    import json

    import cv2

    from companion.cli import main

    cv2.imwrite(str(tmp_path / "a.png"),
                shot(TableScene(stacked_mats(), loose=hand_below(HAND[:2]))).frame)
    scan = ["table", "scan", "--source", str(tmp_path), "--hands"]
    assert main(scan) == 0
    assert f"beside the mats: {HAND[0]}, {HAND[1]}" in capsys.readouterr().out
    assert main([*scan, "--json"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"frame", "ferries", "noah", "ms"}
