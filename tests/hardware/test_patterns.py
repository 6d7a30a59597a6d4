"""The pattern layer of the ferry lights, on a fake clock (no GPIO, no threads, no sleeping)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import patterns
from hardware.patterns import DARK, FERRIES, RED, Pattern, Player, Wave, wave


def levels(pattern: Pattern, t: float) -> list[float]:
    return [light.brightness for light in pattern.frame(t)]


def roles(pattern: Pattern, t: float = 0.0) -> list[str]:
    return [light.pattern for light in pattern.frame(t)]


def samples(pattern: Pattern, ferry: int, until: float, step: float = 0.01) -> list[float]:
    return [pattern.waves[ferry].level(i * step) for i in range(round(until / step))]


def flashes(levels_over_time: list[float]) -> int:
    """How many times a light went from dark to lit."""
    lit = [level > 0.5 for level in levels_over_time]
    return sum(1 for before, now in zip([False, *lit], lit, strict=False) if now and not before)


def test_wave_interpolates_and_holds_its_last_level():
    fade = wave("fade", [(1.0, 1.0, 1.0), (1.0, 0.0, 2.0)])
    assert [fade.level(t) for t in (0.0, 0.5, 1.0, 2.0, 3.0, 99.0)] == [1, 1, 1, 0.5, 0, 0]
    assert fade.next_change(0.5) == pytest.approx(0.5)  # until the fade begins
    assert fade.next_change(2.0) == 0.0  # fading: changes continuously
    assert fade.next_change(3.0) is None  # finished: never changes again


def test_looping_wave_repeats_and_reports_its_next_edge():
    blink = Wave("blink", ((0, 1), (0.3, 1), (0.3, 0), (0.5, 0)), loop=True)
    assert [blink.level(t) for t in (0.0, 0.29, 0.3, 0.49, 0.5, 1.05)] == [1, 1, 0, 0, 1, 1]
    assert blink.next_change(0.1) == pytest.approx(0.2)
    assert blink.next_change(0.6) == pytest.approx(0.2)  # second period


def test_noah_is_steady_on_one_ferry_only():
    pattern = patterns.noah(3)
    for t in (0.0, 0.37, 5.0, 1000.0):
        assert levels(pattern, t) == [0, 0, 0, 1, 0]
    assert roles(pattern) == ["off", "off", "off", "noah", "off"]
    assert pattern.lasting and pattern.next_change(0.0) is None  # nothing to redraw, ever


def test_destinations_blink_while_noah_stays_steady():
    pattern = patterns.destinations(noah=1, choices=(0, 4))
    assert roles(pattern) == ["destination", "noah", "off", "off", "destination"]
    over_two_seconds = [levels(pattern, i / 100) for i in range(200)]
    assert {frame[1] for frame in over_two_seconds} == {1.0}  # Noah: steady
    assert {frame[0] for frame in over_two_seconds} == {0.0, 1.0}  # destinations: on and off
    assert flashes(samples(pattern, 0, 2.0)) == 3  # a calm 1.4 Hz blink
    assert [frame[0] for frame in over_two_seconds] == [frame[4] for frame in over_two_seconds]


def test_noah_may_stay_shows_a_lit_light_with_dips_unlike_steady_and_blink():
    """R23: after a donkey Noah stays, so his own ferry can be a destination."""
    pattern = patterns.destinations(noah=2, choices=(2, 3))
    assert roles(pattern)[2] == "noah, destination"
    own = samples(pattern, 2, 2.0)
    assert min(own) > 0.0 and max(own) == 1.0 and len(set(own)) == 2


def test_scan_prompt_pulses_smoothly():
    pattern = patterns.scan_prompt(4)
    ramp = samples(pattern, 4, 1.2, step=0.1)
    assert ramp[0] == 0.0 and ramp[6] == pytest.approx(1.0) and ramp[3] == pytest.approx(0.5)
    assert len({round(level, 3) for level in ramp}) > 5  # many levels, not a blink
    assert pattern.next_change(0.3) == 0.0  # fading: the renderer draws frames
    assert levels(pattern, 0.3)[:4] == [0, 0, 0, 0]


def test_illegal_play_is_a_short_red_strobe_on_one_ferry():
    pattern = patterns.illegal(2)
    assert not pattern.lasting and pattern.duration == pytest.approx(0.72)
    strobe = samples(pattern, 2, 0.72, step=0.02)
    assert flashes(strobe) == 4 and strobe[0] == strobe[-1] == 0  # seen even on a lit ferry
    assert pattern.frame(0.0)[2].colour == RED
    assert all(levels(pattern, t)[k] == 0 for t in (0.0, 0.3) for k in (0, 1, 3, 4))


def test_departure_blinks_then_fades_out():
    pattern = patterns.departure(0)
    assert not pattern.lasting and not pattern.ends_dark
    light = samples(pattern, 0, pattern.duration, step=0.02)
    assert flashes(light) == 4  # three quick blinks, then the glow
    fade = light[-60:]  # the held glow, then the one-second fade
    assert fade == sorted(fade, reverse=True) and fade[0] == 1.0 and fade[-1] < 0.1
    assert levels(pattern, pattern.duration) == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("make", [patterns.round_end, patterns.game_end])
def test_end_sequences_chase_round_the_table_then_light_all_five_and_end_dark(make):
    pattern = make()
    assert not pattern.lasting and pattern.ends_dark
    step = pattern.waves[0].points[1][0] or pattern.waves[0].points[3][0]
    chase = [levels(pattern, (i + 0.5) * step) for i in range(2 * FERRIES)]
    lit = [frame.index(1.0) for frame in chase]
    assert all(sum(frame) == 1.0 for frame in chase)  # one light at a time …
    assert lit == [0, 1, 2, 3, 4] * 2  # … going round in ferry order
    finale = [levels(pattern, t) for t in (pattern.duration - 0.9, pattern.duration - 0.5)]
    assert any(len(set(frame)) == 1 and frame[0] > 0.5 for frame in finale)  # all five at once
    assert levels(pattern, pattern.duration) == [0, 0, 0, 0, 0]


def test_bad_positions_are_programming_errors():
    with pytest.raises(ValueError, match="0–4"):
        patterns.noah(5)
    with pytest.raises(ValueError, match="0–4"):
        patterns.destinations(0, [1, -1])
    with pytest.raises(ValueError, match="5 waves"):
        Pattern("short", (patterns.OFF,) * 4)


def test_player_shows_the_newest_pattern_at_once():
    player = Player()
    player.play(patterns.noah(0), now=0.0)
    player.play(patterns.scan_prompt(1), now=0.001)
    assert player.current(0.001).name == "scan prompt"


def test_transient_gives_way_to_the_last_lasting_pattern_restarted():
    player = Player()
    player.play(patterns.destinations(0, [3]), now=100.0)
    player.play(patterns.illegal(0), now=100.2)
    assert player.current(100.5).name == "illegal"
    assert player.current(100.93).name == "destinations"
    assert [light.brightness for light in player.frame(100.94)][3] == 1.0  # blink starts "on"
    assert player.next_change(100.94) == pytest.approx(0.33)


def test_a_lasting_call_during_a_transient_wins_for_good():
    player = Player()
    player.play(patterns.noah(0), now=0.0)
    player.play(patterns.departure(2), now=1.0)
    player.play(patterns.noah(4), now=1.5)
    assert player.current(10.0).name == "noah"
    assert [light.brightness for light in player.frame(10.0)] == [0, 0, 0, 0, 1]


def test_round_and_game_end_leave_the_lights_dark():
    player = Player()
    player.play(patterns.noah(1), now=0.0)
    player.play(patterns.round_end(), now=1.0)
    assert player.current(1.0 + patterns.round_end().duration).name == DARK.name
    assert player.next_change(50.0) is None


def test_speed_scales_every_duration():
    player = Player(speed=4.0)
    player.play(patterns.noah(1), now=0.0)
    player.play(patterns.illegal(1), now=0.0)
    assert player.current(0.17).name == "illegal"
    assert player.current(0.19).name == "noah"  # 0.72 s at four times the speed
    with pytest.raises(ValueError, match="positive"):
        Player(speed=0)


calls = st.sampled_from([
    patterns.noah(0), patterns.destinations(1, [2, 4]), patterns.illegal(3),
    patterns.departure(2), patterns.round_end(), patterns.game_end(), patterns.scan_prompt(4),
    DARK,
])


def test_every_light_role_is_a_published_role():
    every = [patterns.noah(0), patterns.destinations(1, [1, 2]), patterns.illegal(3),
             patterns.departure(2), patterns.round_end(), patterns.game_end(),
             patterns.scan_prompt(4), DARK]
    assert {w.name for pattern in every for w in pattern.waves} == set(patterns.ROLES)


@given(st.lists(st.tuples(calls, st.floats(0.0, 3.0)), min_size=1, max_size=12))
def test_newest_call_always_shows_first(sequence):
    """Whatever came before, the frame right after a call is that call's first frame."""
    player, now = Player(), 0.0
    for pattern, gap in sequence:
        now += gap
        player.play(pattern, now)
        assert player.current(now) is pattern
        assert player.frame(now) == pattern.frame(0.0)
