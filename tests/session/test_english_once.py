"""English is worded once (issue 20 §4): a notice, an outcome and a prompt made anywhere in the
session are data (catalog keys and raw facts); their English is the English catalog's (or, for a
verdict, the rules engine's own), never an f-string written beside a phrase."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

import companion
from companion.i18n import LOCALES, Catalog, languages
from companion.session import GameStore, Session
from companion.session.intents import Outcome
from companion.session.notices import NOTICE_KEYS, said
from companion.session.prompts import ChooseTarget, GameOver, MoveNoah, NoGame, worded
from companion.session.view import Notice, Phrase
from companion.sim.autoplay import SimulatedTable

ROOT = Path(companion.__file__).parent
#: The files whose notices, outcomes and prompts are checked for English of their own.
SPEAKERS = [*sorted((ROOT / "session").glob("*.py")), ROOT / "complot" / "session.py"]
#: Calls that make what the table is told: their arguments must be data, not sentences.
SAYING = {"_notice", "_refused", "_refuse", "Outcome", "Notice", "table_finding"}
#: The prompt classes: built with an empty text, worded by the catalog (prompts.worded).
PROMPTS = {"ChooseNoahStart", "ScanSetupCard", "ChooseStarter", "PlayCard", "ChooseCard",
           "ChooseSnailSide", "ChooseFrogWeight", "ChooseTarget", "MoveNoah", "GiveCards",
           "ScanHand", "EnterTears", "GameOver", "NoGame"}


def _calls(path: Path) -> list[tuple[str, ast.Call]]:
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            calls.append((name, node))
    return calls


def _is_sentence(node: ast.expr) -> bool:
    """An f-string, a string of more than one word, or a sum or format holding one: English,
    not a key (``f"tag_{reason}"`` names a key: one word)."""
    if isinstance(node, ast.BinOp):
        return any(_is_sentence(side) or _is_text(side) for side in (node.left, node.right))
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(part, ast.Constant) and " " in str(part.value)
                   for part in node.values) or not node.values
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and " " in node.value


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str))


@pytest.mark.parametrize("path", SPEAKERS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_notice_outcome_or_refusal_carries_english_of_its_own(path):
    """No f-string or sentence is given to ``_notice``, ``_refused``, ``Outcome``..."""
    found = [f"{path.name}:{call.lineno} {name}" for name, call in _calls(path) if name in SAYING
             and any(_is_sentence(arg) for arg in [*call.args,
                                                   *(kw.value for kw in call.keywords)])]
    assert found == []


@pytest.mark.parametrize("path", SPEAKERS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_no_prompt_is_written_in_english_beside_the_catalog(path):
    """A prompt is built with ``text=""``: :func:`prompts.worded` words it from ``prompt.*``."""
    found = [f"{path.name}:{call.lineno} {name}" for name, call in _calls(path)
             if name in PROMPTS and any(kw.arg == "text" and not (
                 isinstance(kw.value, ast.Constant) and kw.value.value == "")
                 for kw in call.keywords)]
    assert found == []


def test_a_notice_and_an_outcome_hold_no_english_text_only_phrases():
    for kind in (Notice, Outcome):
        assert {field.name for field in dataclasses.fields(kind)} == {
            "phrases", "reason", "level" if kind is Notice else "accepted"}
    refused = Outcome(False, said("nothing_to_undo"))
    assert refused.message == Notice("refused", refused.phrases).text == \
        "There is nothing to undo."


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_every_notice_and_prompt_key_is_in_each_catalog(language):
    own = json.loads((LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    prompts = {f"prompt.{name}" for name in ("no_game", "no_game.unfinished",
                                             "choose_noah_start", "game_over",
                                             "choose_target.croc_flee")}
    assert ({f"notice.{name}" for name in NOTICE_KEYS} | prompts) - set(own) == set()
    assert languages() == ["en", "fr", "zh"]


def test_every_notice_key_is_worded_in_english_with_its_facts():
    facts = {"players": ["Ana", "Ben"], "game": 4, "count": 2, "line": 7, "card": "cat:F#2",
             "ferry": 3, "name": "Ana", "text": "'unicorn'", "deck": "ZOO7", "this_deck": "BOX1"}
    for key in sorted(NOTICE_KEYS):
        text = Notice("info", said(key, **facts)).text
        assert text and "{" not in text and not text.startswith("notice."), key


def test_the_prompts_say_the_fleeing_card_the_giraffes_look_and_the_winners():
    """R29 (the crocodile's fleeing card), R31 (the giraffe's look), R40-R41 (the end)."""
    players = ["Ana", "Ben", "Chloé"]
    flee = worded(ChooseTarget(player=0, text="", action="croc_flee", card="cat:F#1"), players)
    look = worded(MoveNoah(player=1, text="", choices=(1, 4), giraffe_targets=(0, 2)), players)
    won = worded(GameOver(player=None, text="", winners=(2,), scores=(5, 3, 1)), players)
    tie = worded(GameOver(player=None, text="", winners=(0, 1), scores=(2, 2, 6)), players)
    assert flee.text == "Ana: who takes the ♀ cat, fleeing from the crocodile?"
    assert look.text.startswith("Ben: the giraffe may look at an opponent's hand")
    assert won.text.replace("\xa0", " ") == (
        "Game over: Chloé wins with the fewest tears (Ana (5), Ben (3), Chloé (1)).")
    assert tie.text.startswith("Game over: Ana and Ben share the victory")
    assert "Chat ♀" in Catalog("fr").prompt(flee, players)
    assert "Chloé" in Catalog("zh").prompt(won, players)
    assert worded(NoGame(player=None, text="", unfinished=(3,)), ()).text.startswith("Resume")


def test_the_table_is_told_in_the_catalogs_english_through_a_whole_game(tmp_path):
    """Every notice and refusal of a game with mishaps, undos (R55) and a card of no deck is
    worded from the catalogs: no unfilled field, no key shown, no card id."""
    session = Session(GameStore(tmp_path / "games.sqlite"))
    seen: dict[int, Notice] = {}
    session.subscribe(lambda view: seen.update((id(n), n) for n in view.notices))
    SimulatedTable(session, ["Ana", "Ben"], seed=5, mishaps=True).play()
    outcomes = [session.choose_card("unicorn"), session.choose_card("cat:F#9"),
                session.tag_seen("NOAH1/ZOO7/CAM1"), session.undo(2), session.redo()]
    assert [outcome.accepted for outcome in outcomes] == [False, False, False, True, True]
    assert outcomes[0].message == "'unicorn' is not a card: choose a card of this game."
    assert "deck ZOO7" in outcomes[2].message and outcomes[4].message.startswith("Redo: ")
    assert {"info", "refused", "reconcile"} <= {notice.level for notice in seen.values()}
    for notice in seen.values():
        assert notice.text and "{" not in notice.text and "notice." not in notice.text, notice
        assert Catalog("en").notice(notice) == notice.text


def test_a_phrase_that_is_no_sentence_is_not_said_silently():
    with pytest.raises(KeyError):
        Notice("info", (Phrase("notice.no_such_sentence", {}),)).text  # noqa: B018
