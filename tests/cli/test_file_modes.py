"""The modes of what the app makes, whatever the login's umask (issue 20.2): under ``umask 000``
nothing is others' to write (folders at most 0750, files 0640), the record 0600 in a 0700 folder.
"""

from __future__ import annotations

import stat
import subprocess
import sys
import textwrap

# One process as a login with umask 000 would start it: a PDF, a record, an export, Kivy's home.
SCRIPT = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    out = Path(sys.argv[1])
    from companion.cli import main
    assert main(["kit", "print", "-o", str(out / "kit.pdf")]) == 0
    from companion.session.store import GameStore
    with GameStore(out / "data" / "noah" / "games.sqlite") as store:
        store.create_game({"format": "noah-table-log", "version": 1, "players": ["A", "B"],
                           "options": {}})
    assert main(["export", "last", "--db", str(out / "data" / "noah" / "games.sqlite"),
                 "--out", str(out / "game.jsonl")]) == 0
    os.environ.update(KIVY_HOME=str(out / "kivy"), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1")
    import kivy  # makes its home, config.ini, logs/ and mods/
""")


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_under_umask_000_nothing_the_app_makes_is_others_to_write(tmp_path):
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], umask=0o000,
                         capture_output=True, text=True, timeout=120,
                         env={"NOAH_COMPANION_CONFIG": str(tmp_path / "none.ini"),
                              "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    made = [p for p in tmp_path.rglob("*") if p.name != "none.ini"]
    assert {p.name for p in made} >= {"kit.pdf", "game.jsonl", "games.sqlite", "mods", "kivy"}
    for path in made:  # (Kivy copies its icons with the modes they ship with: 0755)
        assert _mode(path) & 0o022 == 0, f"{path} is {oct(_mode(path))}"
    assert _mode(tmp_path / "kit.pdf") == _mode(tmp_path / "game.jsonl") == 0o640
    assert _mode(tmp_path / "kivy" / "mods") == 0o750
    record = tmp_path / "data" / "noah" / "games.sqlite"
    assert _mode(record) == 0o600
    assert _mode(record.parent) == _mode(record.parent.parent) == 0o700
