"""``noah-companion demo``: narration, virtual buttons, and a round through the real pipeline."""

from __future__ import annotations

import io

from companion.session import GameStore, Session
from companion.session.notices import said
from companion.session.view import Notice
from companion.sim.demo import Narrator, _new_notices


def test_each_notice_is_narrated_once_even_when_the_list_is_trimmed():
    old = tuple(Notice("info", said("resumed", game=n)) for n in range(6))
    new = (*old[2:], Notice("info", said("resumed", game=6)),
           Notice("refused", said("noah_start", ferry=7), "weight"))
    assert [n.text for n in _new_notices(old, new)] == [
        "Game 6 resumed where it stopped.", "Noah starts on ferry 7."]
    assert [n.text for n in _new_notices((), new)] == [n.text for n in new]


def test_narration_shows_lights_refusals_and_prompts(tmp_path):
    from hardware.lights import FerryLights

    out = io.StringIO()
    with GameStore(tmp_path / "g.sqlite") as store, \
            FerryLights.from_section({}, virtual=True) as lights:
        session = Session(store, lights=lights)
        session.subscribe(Narrator(out))
        session.new_game(["Ana", "Ben"])
        session.choose_noah_start(1)
        session.choose_card("cat:F#1")
        session.choose_card("cat:F#1")
    lines = out.getvalue().splitlines()
    assert lines.index("── Round 1 " + "─" * 40) < next(
        n for n, line in enumerate(lines) if line.startswith("  ·····  ? Round 1: put Noah"))
    assert any(line.startswith("  ◌····  Noah starts on ferry 2.") for line in lines)
    assert any("✗ refused: The ♀ cat is already on ferry 1." in line for line in lines)
    assert sum("? Show the starting animal" in line for line in lines) == 1


def test_quiet_narration_says_nothing(tmp_path):
    out = io.StringIO()
    with GameStore(tmp_path / "g.sqlite") as store:
        session = Session(store)
        session.subscribe(Narrator(out, quiet=True))
        session.new_game(["Ana", "Ben"])
    assert out.getvalue() == ""


def test_a_round_through_the_camera_pipeline_and_the_ferry_buttons(tmp_path):
    from companion.sim.autoplay import SimulatedTable
    from companion.sim.demo import DemoReport, MockButtons, PipelineCamera
    from hardware.lights import FerryLights

    report = DemoReport()
    with GameStore(tmp_path / "g.sqlite") as store, \
            FerryLights.from_section({"buttons": "yes"}, virtual=True) as lights:
        session = Session(store, lights=lights)
        camera = PipelineCamera(session, report)
        try:
            table = SimulatedTable(session, ["Ana", "Ben"], seed=3, camera=camera,
                                   buttons=MockButtons(lights), mishaps=True)
            table.do(table.session.new_game, table.players, table.options)
            table.play_round()  # raises DriftError if the session and the table disagree
        finally:
            camera.close()
        assert session.view.round_scores == (tuple(table.truth.state()["round_scores"]),)
        assert {step.intent for step in table.steps} >= {"camera", "button"}
        # one event per presentation: the card held in view for 2 s and the card shown again
        # count once each, the foreign code never as a card
        presented = sum(len(step.args) for step in table.steps if step.intent == "camera")
        assert report.cards_seen == presented and report.foreign_codes == 1
