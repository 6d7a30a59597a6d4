"""Issue 15 item 9: the command line behaves alike in every sub-command.

No abbreviated long option, "did you mean …?" for a misspelled command or option, ``-o`` wherever
``--out`` is, ``--players`` a count or names everywhere, one camera default, a progress bar only on
a terminal, and a plain sentence (status 2) for inputs that used to crash or hang.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.commands import _options
from companion.doctor import ServiceState

ROOT = Path(__file__).resolve().parents[1]


def parsers(parser: argparse.ArgumentParser, path: str = "noah-companion"):
    """Every parser of the command line, with the words that reach it."""
    yield path, parser
    for action in parser._actions:  # argparse keeps sub-commands in its actions
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from parsers(child, f"{path} {name}")


def exit_status_and_error(capsys, argv) -> tuple[int, str]:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    return stopped.value.code, capsys.readouterr().err


@pytest.mark.parametrize(("argv", "meant"), [
    (["simulat"], "'simulate'"),
    (["replya", "x.jsonl"], "'replay'"),
    (["tags", "chek"], "'check'"),
    (["export", "1", "--format", "jsno"], "'json'"),
])
def test_a_misspelled_command_or_choice_gets_a_suggestion_and_status_2(capsys, argv, meant):
    status, err = exit_status_and_error(capsys, argv)
    assert status == 2
    assert f"Did you mean {meant}?" in err and "Traceback" not in err


@pytest.mark.parametrize(("argv", "meant"), [
    (["simulate", "--gams", "3"], "--games"),
    (["--simulat"], "--simulate"),
    (["replay", "x.jsonl", "--strikt"], "--strict"),
    (["bench", "rules", "--quik"], "--quick"),  # a bench target parses its own options
])
def test_a_misspelled_option_is_refused_with_the_closest_one(capsys, argv, meant):
    status, err = exit_status_and_error(capsys, argv)
    assert status == 2
    assert f"(did you mean {meant}?)" in err


@pytest.mark.parametrize("argv", [
    ["--simulat"],                               # the app's own option, abbreviated
    ["simulate", "--gam", "3", "--jobs", "1"],   # used to play 3 games
    ["history", "--fin"],
    ["bench", "rules", "--qui"],
])
def test_an_abbreviated_long_option_is_refused(capsys, argv):
    status, err = exit_status_and_error(capsys, argv)
    assert status == 2 and "unrecognized arguments" in err


def test_every_parser_refuses_abbreviations_and_pairs_out_with_o():
    for path, parser in parsers(build_parser()):
        assert not parser.allow_abbrev, path
        for action in parser._actions:
            if "--out" in action.option_strings:
                assert "-o" in action.option_strings, path
            if "--quiet" in action.option_strings:
                assert "-q" in action.option_strings, path
            assert not any(option in ("--as-json", "--JSON") for option in action.option_strings)


def test_o_is_accepted_wherever_out_is(tmp_path, capsys):
    assert main(["simulate", "--games", "1", "--players", "2", "--jobs", "1",
                 "-o", str(tmp_path / "logs")]) == 0
    assert (tmp_path / "logs" / "game-00000.jsonl").is_file()
    assert main(["tags", "print", "-o", str(tmp_path / "tags.pdf"), "--only", "frog"]) == 0
    assert (tmp_path / "tags.pdf").read_bytes().startswith(b"%PDF")


def test_old_option_names_are_still_understood(tmp_path, capsys):
    assert main(["simulate", "--games", "1", "--names", "Ana,Ben", "--jobs", "1",
                 "--write-logs", str(tmp_path)]) == 0
    assert '"Ana"' in (tmp_path / "game-00000.jsonl").read_text(encoding="utf-8")
    assert "of 2 players" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "seats"), [
    (["simulate", "--players", "3"], ("Player 1", "Player 2", "Player 3")),
    (["simulate", "--players", "Ana, Ben"], ("Ana", "Ben")),
    (["demo", "--players", "3"], ("Player 1", "Player 2", "Player 3")),
    (["demo", "--players", "Ana,Ben"], ("Ana", "Ben")),
    (["demo"], ("Ana", "Ben", "Chloé")),
    (["simulate"], ("Player 1", "Player 2", "Player 3", "Player 4")),
])
def test_players_is_a_count_or_names_in_every_command(argv, seats):
    assert build_parser().parse_args(argv).players == seats


@pytest.mark.parametrize("players", ["1", "6", "Ana", "Ana,,Ben", "²"])
@pytest.mark.parametrize("command", ["simulate", "demo"])
def test_players_out_of_range_is_refused_alike(capsys, command, players):
    status, err = exit_status_and_error(capsys, [command, "--players", players])
    assert status == 2 and "argument --players" in err


def test_scan_and_tags_check_read_the_same_camera_by_default():
    parser = build_parser()
    scan = parser.parse_args(["scan"])
    check = parser.parse_args(["tags", "check"])
    assert scan.source == check.source == _options.CONFIGURED_CAMERA


def test_replay_of_a_device_says_so_instead_of_reading_forever(capsys):
    assert main(["replay", "/dev/zero"]) == 2
    err = capsys.readouterr().err
    assert "/dev/zero is not a regular file (a pipe or a device)" in err
    assert "Traceback" not in err


def test_a_superscript_restart_count_is_no_number():
    assert ServiceState.parse("LoadState=loaded\nNRestarts=²").restarts == 0


def test_no_progress_bar_when_standard_error_is_not_a_terminal(capsys):
    assert main(["simulate", "--games", "3", "--players", "2", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "Simulated 3 games" in out


def test_shows_progress_only_at_a_terminal_and_never_quiet(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert _options.shows_progress() and not _options.shows_progress(quiet=True)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    assert not _options.shows_progress()


def _stderr_on_a_terminal(*argv: str) -> tuple[str, str]:
    """Run the command line with standard error on a pseudo-terminal: (its stdout, stderr)."""
    leader, follower = pty.openpty()
    # A new pseudo-terminal is 0 columns wide, and tqdm draws nothing in no room.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {**os.environ, "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
           "NOAH_COMPANION_CONFIG": str(ROOT / "tests" / "no-such-config.ini")}  # the defaults
    child = subprocess.Popen([sys.executable, "-m", "companion.cli", *argv], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        seen += chunk
    out = child.communicate()[0]
    os.close(leader)
    assert child.returncode == 0
    return out.decode(), seen.decode(errors="replace")


def test_progress_bar_on_a_terminal_and_not_with_quiet():
    out, err = _stderr_on_a_terminal("simulate", "--games", "30", "--players", "2",
                                     "--jobs", "1", "--no-check")
    assert "Games:" in err and "/30" in err and "Simulated 30 games" in out
    out, err = _stderr_on_a_terminal("simulate", "--games", "30", "--players", "2",
                                     "--jobs", "1", "--no-check", "--quiet")
    assert "Games:" not in err and "Simulated 30 games" in out


def test_scan_of_a_folder_draws_its_bar_on_the_terminal_and_keeps_the_json_clean(tmp_path):
    from PIL import Image

    for name in ("a.png", "b.png"):
        Image.new("L", (64, 48), 255).save(tmp_path / name)
    out, err = _stderr_on_a_terminal("scan", "--source", str(tmp_path))
    assert "Images:" in err
    assert [line.startswith('{"image"') for line in out.splitlines()] == [True, True]


def test_a_benchmark_shows_its_running_time_on_the_terminal_only():
    out, err = _stderr_on_a_terminal("bench", "rules", "--quick")
    assert "bench rules: running for" in err and "loading" in out.lower()
    out, err = _stderr_on_a_terminal("bench", "rules", "--quick", "--json")
    assert "running for" not in err and out.lstrip().startswith("{")
