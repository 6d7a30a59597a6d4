"""``noah-companion simulate`` and the invariants it checks (they must be able to fail)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from companion.cli import main
from companion.game import Game, Options
from companion.game import simulate as simulation
from companion.game.deal import random_start_round
from companion.game.simulate import InvariantError, check_invariants, run_game
from companion.game.tablelog import game_lines, loads, replay


def test_small_run_holds_every_invariant(capsys):
    assert main(["simulate", "--games", "4", "--players", "3", "--seed", "2", "--jobs", "1",
                 "--frog", "--crocodile"]) == 0
    out = capsys.readouterr().out
    assert "Simulated 4 games of 3 players (seed 2, options: frog, crocodile)" in out
    assert "Every game held every invariant." in out


def test_games_do_not_depend_on_the_number_of_processes(tmp_path, capsys):
    games = str(2 * 25)  # two worker chunks
    common = ["simulate", "--games", games, "--players", "2", "--no-check", "--seed", "x"]
    assert main([*common, "--jobs", "1", "--write-logs", str(tmp_path / "one")]) == 0
    # --jobs 2 forks its workers: from a fresh process, as the command runs, never from this
    # test process, where a Kivy app's threads may be running (pytest -n shares workers) and a
    # fork can inherit a lock another thread holds: the child then hangs forever (issue 20.2).
    two = subprocess.run([sys.executable, "-m", "companion.cli", *common, "--jobs", "2",
                          "--write-logs", str(tmp_path / "two")],
                         capture_output=True, text=True, timeout=600)
    assert two.returncode == 0, two.stderr
    for index in (0, 31, 49):
        name = f"game-{index:05d}.jsonl"
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    assert "with 2 processes" in two.stdout


def test_one_game_is_reproduced_alone(tmp_path):
    main(["simulate", "--games", "3", "--players", "4", "--seed", "7", "--jobs", "1",
          "--write-logs", str(tmp_path / "all")])
    main(["simulate", "--game", "2", "--players", "4", "--seed", "7",
          "--write-logs", str(tmp_path / "alone")])
    assert sorted(p.name for p in (tmp_path / "alone").iterdir()) == ["game-00002.jsonl"]
    assert ((tmp_path / "all" / "game-00002.jsonl").read_text()
            == (tmp_path / "alone" / "game-00002.jsonl").read_text())


def test_table_view_logs_are_hidden_hand_logs_that_replay_clean(tmp_path, capsys):
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "3", "--jobs", "1",
                 "--write-logs", str(tmp_path), "--table-view"]) == 0
    path = tmp_path / "game-00001.jsonl"
    header, entries = loads(path.read_text(encoding="utf-8"))
    assert header.options.hidden
    assert sum(entry.type == "scan_hands" for entry in entries) == 3
    assert main(["replay", str(path), "--strict"]) == 0


def test_a_deck_too_small_for_the_options_is_a_user_error(capsys):
    assert main(["simulate", "--players", "5", "--frog", "--crocodile"]) == 2
    assert "needs 45 animals" in capsys.readouterr().err


def test_a_broken_invariant_is_reported_with_how_to_reproduce(monkeypatch, capsys):
    calls = 0

    def flaky(game):
        nonlocal calls
        calls += 1
        if calls == 40:
            raise InvariantError("ferry 2 weighs 22 of 21")

    monkeypatch.setattr(simulation, "check_invariants", flaky)
    assert main(["simulate", "--games", "2", "--players", "2", "--seed", "5", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "FAILED game 0 after 40 accepted actions, in round 1: ferry 2 weighs 22 of 21" in out
    assert "--game 0 --seed 5" in out and "1 game broke an invariant" in out


def test_an_engine_crash_is_a_failure_not_a_crash_of_the_run(monkeypatch):
    real_push = Game.push

    def crashing_push(self, action):
        if len(self.history) == 10:
            raise KeyError("boom")
        return real_push(self, action)

    monkeypatch.setattr(Game, "push", crashing_push)
    result = run_game(0, seed=1, players=3, options=Options())
    assert not result.ok and "KeyError: 'boom'" in result.failure


def test_a_round_that_never_ends_is_a_failure(monkeypatch):
    monkeypatch.setattr(simulation, "MAX_ACTIONS_PER_ROUND", 5)
    result = run_game(0, seed=1, players=3, options=Options())
    assert "did not end within 5 actions" in result.failure


def _mid_round_game() -> Game:
    game = Game(["Ana", "Ben", "Chloé"], Options())
    rng = random.Random(4)
    game.push(random_start_round(game, rng))
    for _ in range(12):
        game.push(rng.choice(game.legal_actions()))
    return game


def _other_card(ref: str) -> str:
    return "bear:M" if ref != "bear:M" else "bear:F"


@pytest.mark.parametrize(("change", "words"), [
    (lambda s: s["scores"].__setitem__(0, -1), "negative"),
    (lambda s: s["hand_counts"].__setitem__(1, 99), "hand counts"),
    (lambda s: s["hands"][2].__setitem__(0, _other_card(s["hands"][2][0])), "not conserved"),
    (lambda s: s.update(current_player=7), "awaits seat 7"),
    (lambda s: s.update(departed=5), "5 departures"),
    (lambda s: s["ferries"].__setitem__(s["noah"], None), "Noah is at"),
    (lambda s: (s["hand_counts"].__setitem__(s["current_player"], 0),
                s["hands"].__setitem__(s["current_player"], [])), "holds none"),
])
def test_invariants_catch_a_broken_table(monkeypatch, change, words):
    game = _mid_round_game()
    check_invariants(game)  # the real table holds
    state = game.state()
    change(state)
    monkeypatch.setattr(game, "state", lambda: state)
    with pytest.raises(InvariantError, match=words):
        check_invariants(game)


@pytest.mark.parametrize(("cards", "weight", "options", "words"), [
    (["cat:M", "cat:M", "cat:F"], 6, Options(), "gender rule"),
    (["cat:F", "cat:M", "cat:M"], 6, Options(), "gender rule"),
    (["elephant:M", "elephant:M", "lion:M"], 25, Options(), "weighs 25 of 21"),
    (["cat:M", "bear:F", "cat:M"], 11, Options(roommates=True), "roommates"),
    (["snail", "cat:F"], 3, Options(), "snail without a side"),
])
def test_ferry_invariants(cards, weight, options, words):
    state = {"weights": [weight], "capacities": [21], "phase": "play"}
    with pytest.raises(InvariantError, match=words):
        simulation._check_ferry(0, cards, state, options)


def test_a_full_ferry_is_allowed_only_until_noah_moves():
    state = {"weights": [21], "capacities": [21], "phase": "move_noah"}
    simulation._check_ferry(0, ["elephant:M", "elephant:M", "cat:M"], state, Options())
    with pytest.raises(InvariantError, match="weighs 21 of 21"):
        simulation._check_ferry(0, ["elephant:M", "elephant:M", "cat:M"],
                                {**state, "phase": "play"}, Options())


def test_replaying_a_played_game_log_reaches_its_end():
    result = run_game(3, seed=9, players=5, options=Options(crocodile=True))
    final = list(replay(f"{line}\n" for line in game_lines(result.game)))[-1].game
    assert final.is_over and final.scores == result.game.scores


def test_rules_benchmark_reports_its_figures_with_machine_and_date(capsys):
    assert main(["bench", "rules", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["loading_us_median"] > 0 and figures["games_per_s"] > 0
    assert figures["replay_lines_per_s"] > 0 and figures["date"].startswith("20")
    assert {"platform", "cpu", "python"} <= set(figures["machine"])
    assert main(["bench", "rules", "--quick"]) == 0
    assert "target ≤ 30 µs" in capsys.readouterr().out


def test_the_cycle_collector_stays_paused_for_a_whole_run_and_comes_back_after():
    """A run pauses the collector once, not after each game (issue 20 §4: its pass over the
    finished game's records was a tenth of the run); it is back on when the run ends or is
    dropped half-way."""
    import gc

    from companion.game.simulate import simulate

    assert gc.isenabled()
    seen = [gc.isenabled() for _ in simulate(2, 2, Options(), seed=1, check=False)]
    assert seen == [False, False] and gc.isenabled()
    run = simulate(3, 2, Options(), seed=1, check=False)
    next(run)
    assert not gc.isenabled()
    run.close()
    assert gc.isenabled()
