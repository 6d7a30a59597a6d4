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
