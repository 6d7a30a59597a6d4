"""The command line: every sub-command is discovered and answers --help without a traceback."""

import pytest

from companion.cli import build_parser, main


def test_version_prints_and_exits_zero(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert "noah-companion" in capsys.readouterr().out


def test_every_subcommand_has_help(capsys):
    parser = build_parser()
    subcommands = parser._subparsers._group_actions[0].choices  # argparse keeps them here
    for name in subcommands:
        with pytest.raises(SystemExit) as exit_info:
            main([name, "--help"])
        assert exit_info.value.code == 0, name
    capsys.readouterr()


def test_a_bug_is_one_sentence_and_a_file_not_a_traceback(tmp_path, monkeypatch, capsys):
    """A command that fails inside (a bug, not the user's mistake) prints what happened, that
    the record is safe and the file to send; the traceback is in that file, not the terminal."""
    import companion.commands.replay as replay_command

    def broken(args):
        raise RuntimeError("the table view lost track")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(replay_command, "run", broken)
    log = tmp_path / "game.jsonl"
    log.write_text("", encoding="utf-8")
    assert main(["replay", str(log)]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err and "RuntimeError: the table view lost track" in err
    [report] = (tmp_path / "noah-companion" / "bugs").glob("bug-*.txt")
    assert "Traceback" in report.read_text() and str(report) in err
