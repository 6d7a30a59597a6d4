"""A rendered table game saved as a recording for ``noah-companion table referee``.

``demo --table-view --frames DIR`` (and ``examples/table-recording.py``) hand every frame the
overhead camera gives to a :class:`GameRecording`, and every answer the players give on the
screen: it writes the frames as JPEG files in camera order (``00001.jpg`` …), the answers the
camera cannot see as ``answers.jsonl`` (TABLE-KIT.md, "Refereeing a recording": only the
questions that are asked, never one whose answer the rules force) and the game's true table log
as ``true-log.jsonl``. :func:`compare_logs` then says how a referee's log matches the true one.

>>> compare_logs([{"type": "play", "player": 0, "card": "cat:F#1", "ferry": 2}],
...              [{"type": "play", "player": 0, "card": "cat:F#1", "ferry": 2},
...               {"type": "move_noah", "player": 0, "to": 1}])["extra"]
{'noah': 1}
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.session.session import Session
from companion.table_referee import answer_line, question

ANSWERS = "answers.jsonl"
TRUE_LOG = "true-log.jsonl"
#: The lines a referee's log is compared on, by what they are called in the summary.
COMPARED = {"play": "plays", "move_noah": "noah", "take_back": "take_backs", "give": "gifts"}
#: The intent that answers each kind of question (``move_noah`` declines the giraffe's look).
ANSWERED_BY = {"starter": ("choose_starter",), "snail_side": ("choose_snail_side",),
               "frog_weight": ("choose_frog_weight",), "croc_flee": ("choose_target",),
               "lion_swap": ("choose_target",), "give": ("give_cards",),
               "giraffe_look": ("choose_target", "skip", "move_noah")}


class GameRecording:
    """Writes one game's frames and answers into ``folder`` (made if need be; it must hold no
    frames yet). ``quality``: the JPEG quality of the frames."""

    def __init__(self, folder: Path, *, quality: int = 85) -> None:
        from companion.errors import UserError
        from vision.sources import IMAGE_SUFFIXES

        self.folder, self.quality = folder, quality
        try:
            folder.mkdir(parents=True, exist_ok=True)
            taken = any(p.suffix.lower() in IMAGE_SUFFIXES for p in folder.iterdir())
        except OSError as error:
            raise UserError(f"Cannot write frames in {folder}: {error.strerror}.",
                            "Choose another folder for --frames.") from None
        if taken:
            raise UserError(f"The folder {folder} already holds images.",
                            "Give an empty or new folder for --frames: a recording's frames are "
                            "taken in file-name order.")
        self.frames = 0
        self.answers: list[dict[str, Any]] = []

    def frame(self, frame: Any) -> None:
        """One camera frame (:class:`vision.table_capture.TableFrame`): its full image."""
        import cv2

        self.frames += 1
        cv2.imwrite(str(self.folder / f"{self.frames:05d}.jpg"), frame.full,
                    [cv2.IMWRITE_JPEG_QUALITY, self.quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1])

    def answered(self, session: Session, intent: str, args: Sequence[Any]) -> None:
        """The players make ``intent(*args)`` on the screen: when it answers a question the
        screen asks (one the rules do not force), that answer goes into the answers file."""
        from companion.session.table_observer import physical
        from companion.tags.payload import encode

        asked = question(session.view.prompt, session.game)
        if asked is None or asked.forced or intent not in ANSWERED_BY[asked.kind]:
            return
        sticker = encode(session.deck_id, session.deck[physical(asked.card)]) \
            if asked.card is not None else None
        value = args[0] if intent == ANSWERED_BY[asked.kind][0] else None
        self.answers.append(answer_line(asked, value, sticker))

    def finish(self, session: Session) -> None:
        """Write the answers and the true table log (the game as the session recorded it)."""
        from companion.session.history import export_game

        (self.folder / ANSWERS).write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in self.answers),
            encoding="utf-8")
        game_id = session.view.game_id
        if game_id is not None:
            log, _ = export_game(session.store, game_id, session.deck, "log")
            (self.folder / TRUE_LOG).write_text(log, encoding="utf-8")


def read_log(text: str) -> list[dict[str, Any]]:
    """A table log's lines as JSON objects (the header included)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def compare_logs(truth: Iterable[Mapping[str, Any]],
                 refereed: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """How the lines of a referee's log match the true log's, per kind (plays, Noah moves,
    take-backs, gifts): ``right`` (the same line at the same place in the kind's sequence),
    ``wrong`` (a different one there), ``missing`` (the truth has more), ``extra`` (the
    referee has more). Extra fields (a snail's side the truth knows) are compared too."""
    true_lines, seen_lines = list(truth), list(refereed)
    summary: dict[str, Counter[str]] = {name: Counter() for name in
                                        ("right", "wrong", "missing", "extra")}
    for kind, name in COMPARED.items():
        true = [dict(line) for line in true_lines if line.get("type") == kind]
        seen = [dict(line) for line in seen_lines if line.get("type") == kind]
        for a, b in zip(true, seen, strict=False):
            summary["right" if a == b else "wrong"][name] += 1
        if len(true) > len(seen):
            summary["missing"][name] += len(true) - len(seen)
        if len(seen) > len(true):
            summary["extra"][name] += len(seen) - len(true)
    return {key: dict(counter) for key, counter in summary.items()}
