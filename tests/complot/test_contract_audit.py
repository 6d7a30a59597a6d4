"""An independent audit of ``complot judge`` against RULINGS-COMPLOT.md (C6, C20–C47, C55,
C61–C69, C84–C87, C90–C94).

``contract_audit.jsonl`` holds one scenario per line, written from the contract's text before
reading the code: ``id``, ``rules`` (the rulings it tests), ``kind``, ``input`` and ``expected``
(the exact output object the contract gives). The raw lines below are the C94 cases that a JSON
file cannot hold: lines that are not JSON objects, ``NaN``, lone surrogates, byte-order marks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.complot.judge import judge_line, judge_lines, verdict_text

SCENARIOS = Path(__file__).with_name("contract_audit.jsonl")


def _scenarios() -> list[dict[str, Any]]:
    return [json.loads(line) for line in SCENARIOS.read_text(encoding="utf-8").splitlines()]


def _strict_json(text: str) -> Any:
    """JSON as another program reads it: no NaN or Infinity, valid UTF-8."""
    def no_constant(name: str) -> Any:
        raise AssertionError(f"{name} is not JSON")

    text.encode("utf-8")
    return json.loads(text, parse_constant=no_constant)


@pytest.mark.parametrize("case", _scenarios(), ids=lambda case: case["id"])
def test_c90_c94_contract_scenario(case):
    """C20–C47, C55, C61–C69, C84–C93, C6 (the case's ``rules`` field names its rulings): the
    judge's output line is the contract's, field by field."""
    line = json.dumps({"id": case["id"], "kind": case["kind"], "input": case["input"],
                       "title": "ignored", "expected": "ignored"}, ensure_ascii=False)
    assert judge_line(line) == {"id": case["id"], "kind": case["kind"],
                                "result": case["expected"]}, case["rules"]


def test_c94_every_scenario_cites_a_ruling_and_ids_are_unique():
    """C94: the audit file itself is sound (each case names the C-n it tests)."""
    cases = _scenarios()
    assert len({case["id"] for case in cases}) == len(cases)
    assert all(case["rules"].startswith("C") for case in cases)
    assert {case["kind"] for case in cases} == {"claim", "action", "defence", "manche",
                                               "payload"}


BAD = {"error": "bad_input"}
RAW_LINES = [
    ("hello", {"id": None, "kind": None, "result": BAD}),
    ("[1, 2]", {"id": None, "kind": None, "result": BAD}),
    ('"a string"', {"id": None, "kind": None, "result": BAD}),
    ("null", {"id": None, "kind": None, "result": BAD}),
    ('{"id": "cut", "kind": "payload"', {"id": None, "kind": None, "result": BAD}),
    ('{"id": 5, "kind": "foo"}', {"id": 5, "kind": "foo", "result": BAD}),
    ('{"id": [1, {"a": 2}], "kind": "Claim"}',
     {"id": [1, {"a": 2}], "kind": "Claim", "result": BAD}),
    ('{"id": 7, "kind": 5}', {"id": 7, "kind": 5, "result": BAD}),
    ('{"kind": "payload"}', {"id": None, "kind": "payload", "result": BAD}),
    ('{"id": 1, "kind": "manche"}', {"id": 1, "kind": "manche", "result": BAD}),
    ('{"id": 1, "kind": "action"}',
     {"id": 1, "kind": "action", "result": {"accepted": False, "code": "bad_input"}}),
    ('{"id": 1, "kind": "claim"}', {"id": 1, "kind": "claim", "result": {
        "accepted": False, "points": 0, "combination": None, "code": "bad_input"}}),
    # NaN and Infinity are not JSON (RFC 8259): the line is not a JSON object.
    ('{"id": NaN, "kind": "payload", "input": {"text": "x"}}',
     {"id": None, "kind": None, "result": BAD}),
    ('{"id": 1, "kind": "claim", "input": {"level": Infinity}}',
     {"id": None, "kind": None, "result": BAD}),
    # 1e400 is valid JSON but no double: the line is judged, the id cannot be echoed.
    ('{"id": 1e400, "kind": "payload", "input": {"text": "x"}}',
     {"id": None, "kind": "payload", "result": {"kind": "foreign"}}),
    ('{"id": 2, "kind": "claim", "input": {"level": 1e400, "cards": [], "claim": "complot"}}',
     {"id": 2, "kind": "claim", "result": {
         "accepted": False, "points": 0, "combination": None, "code": "bad_input"}}),
    ('{"id": 123456789012345678901234567890, "kind": "payload", "input": {"text": ""}}',
     {"id": 123456789012345678901234567890, "kind": "payload", "result": {"kind": "foreign"}}),
    ('{"id": "\\ud800", "kind": "payload", "input": {"text": "\\udfffCPLT1/"}}',
     {"id": "\ud800", "kind": "payload", "result": {"kind": "foreign"}}),
    ('{"id": "dup", "kind": "claim", "kind": "payload", "input": {"text": "x"}}',
     {"id": "dup", "kind": "payload", "result": {"kind": "foreign"}}),
    ('\ufeff{"id": "bom", "kind": "payload", "input": {"text": "CPLT1/BOX1/EPNO"}}\r',
     {"id": "bom", "kind": "payload", "result": {"kind": "ok", "card": "empires:noe"}}),
    ("[" * 50_000, {"id": None, "kind": None, "result": BAD}),
]


@pytest.mark.parametrize(("line", "expected"), RAW_LINES)
def test_c94_raw_lines(line, expected):
    """C94: a line that is not a JSON object or has an unknown ``kind`` gives bad_input with the
    id and kind echoed when there are some; a known kind with no input gets its function's own
    refusal shape; every verdict can be written as strict JSON."""
    verdict = judge_line(line)
    assert verdict == expected
    assert _strict_json(verdict_text(verdict)) == json.loads(json.dumps(verdict))


def test_c94_judge_command_writes_every_line_as_json(tmp_path, capsys):
    """C94 through the CLI: blank lines give nothing, every other line exactly one strict JSON
    line in order, even after a lone surrogate or a NaN (which used to stop the run)."""
    from companion.cli import main

    lines = [line for line, _ in RAW_LINES[:-1]] + ["", "   \t"] + [
        json.dumps({"id": case["id"], "kind": case["kind"], "input": case["input"]})
        for case in _scenarios()[:5]]
    path = tmp_path / "audit.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    assert main(["complot", "judge", str(path), "--json"]) == 0
    out = [_strict_json(line) for line in capsys.readouterr().out.splitlines()]
    assert len(out) == len(lines) - 2
    assert [verdict["id"] for verdict in out[-5:]] == [case["id"] for case in _scenarios()[:5]]
    assert list(judge_lines(["", " ", RAW_LINES[5][0]])) == [RAW_LINES[5][1]]


def test_c47_c93_referee_checks_come_before_bad_input():
    """C47: in the full referee, ``game_over``, ``manche_over``, ``not_your_turn`` … come before
    ``bad_input``; once the manche is over every claim is ``manche_over`` whatever it holds
    (C93). The engine used to answer ``bad_input`` to a malformed claim after the manche."""
    from tests.complot.test_engine import LEONARDS, table

    game = table([LEONARDS, ["empires:henri", "empires:karl", "empires:marie", "empires:max",
                             "empires:noe", "empires:sarah"]])
    assert game.push({"type": "claim", "player": 1, "claim": "bogus"}).code == "not_your_turn"
    assert game.push({"type": "claim", "player": 0, "claim": "bogus"}).code == "bad_input"
    assert game.push({"type": "draw", "player": 0, "from": "pioche"}).accepted
    assert game.push({"type": "discard", "player": 0, "card": game.hand(0)[-1]}).accepted
    assert game.push({"type": "claim", "player": 0, "claim": "complot"}).points == 50
    assert game.end_reason == "last_player" and game.manche_points == (50, 0)  # C51a
    for claim in ({"player": 1, "claim": "bogus"}, {"player": 9, "claim": "complot"},
                  {"player": "one", "claim": None}):
        assert game.push({"type": "claim", **claim}).code == "manche_over"
