"""Every example log in examples/ replays as its lines say: a line with an ``expect`` field is
rejected with that reason, every other line is accepted; and every example is a well-formed log,
so ``noah-companion replay examples/*.jsonl`` exits 0 (non-JSON lines are covered by the replay
command's own tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.game.tablelog import replay

EXAMPLES_DIR = Path(__file__).parent.parent / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.jsonl"))
FULL_GAMES = ["three-players.jsonl", "five-players-crocodile.jsonl",
              "four-players-frog-crocodile.jsonl", "score-only.jsonl"]


def expected_reason(text: str) -> str | None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return "bad_action"
    return data.get("expect") if isinstance(data, dict) else "bad_action"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_example_replays_as_expected(path):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    results = list(replay(lines))
    assert len(results) == len(lines)
    for result, text in zip(results, lines, strict=True):
        assert result.reason == expected_reason(text), (result.line, result.message)


def test_the_examples_cover_what_the_documentation_promises():
    names = {path.name for path in EXAMPLES}
    assert {*FULL_GAMES, "rejections-and-undo.jsonl"} <= names
    lines = (EXAMPLES_DIR / "rejections-and-undo.jsonl").read_text(encoding="utf-8").splitlines()
    assert len({expected_reason(text) for text in lines} - {None}) >= 8
    assert any('"type":"undo"' in text for text in lines)


def test_replay_of_every_example_at_once_runs_clean(capsys):
    """Issue 2's check: `noah-companion replay examples/*.jsonl` from a fresh clone."""
    from companion.cli import main

    assert main(["replay", *map(str, EXAMPLES)]) == 0
    out = capsys.readouterr().out
    assert out.count("== ") == len(EXAMPLES) and "Winner: Ana." in out


@pytest.mark.parametrize("name", FULL_GAMES)
def test_full_examples_end_the_game(name):
    path = EXAMPLES_DIR / name
    final = list(replay(path.open("rb")))[-1].game
    assert final.is_over and final.winners


def test_the_three_player_example_is_what_a_real_table_records():
    path = EXAMPLES_DIR / "three-players.jsonl"
    objects = [json.loads(text) for text in path.open(encoding="utf-8")]
    assert objects[0]["options"]["hidden"] is True and len(objects[0]["players"]) == 3
    assert sum(o.get("type") == "scan_hands" for o in objects) == 3
    assert all("hands" not in o for o in objects if o.get("type") == "start_round")
    assert all("card" not in gift for o in objects if o.get("type") == "give"
               for gift in o["gifts"])


def test_the_log_shown_in_the_documentation_replays_clean():
    text = (EXAMPLES_DIR.parent / "docs" / "table-log.md").read_text(encoding="utf-8")
    block = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    results = list(replay(block.splitlines(keepends=True)))
    assert len(results) == 7 and all(result.accepted for result in results)
