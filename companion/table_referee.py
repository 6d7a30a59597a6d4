"""``noah-companion table referee``: a whole recorded game refereed from its frames, no screen.

TABLE-KIT.md, "Refereeing a recording", is the contract. The frames of a folder (in file-name
order) or of a video go one by one, as camera frames, through what the app runs on a live
overhead camera: the table observer (still-table wait, two agreeing readings, inference, audit:
:func:`companion.wiring.table_observer`), the session (the rules engine, the durable record)
and the audit's sentences. What the camera cannot see — who starts, a snail's side, a frog's
weight, the crocodile's, lion's and giraffe's opponent, the gifts — comes from the answers file
(:class:`Answers`), asked exactly when the app would ask it on the screen; a question whose
answer the rules force (one legal choice) is answered without asking.

Every step comes out as one :class:`RefereeEvent` (``play``, ``noah``, ``take_back``,
``departure``, ``refusal``, ``audit``, ``asked``, ``round_end``, ``game_end``), in order, named
by the frame that led to it: accepted actions as the record has them (each new line of the
table log), the engine's departures and round ends from the same action, refusals with their
TABLE-LOG reason code, and each audit sentence shown.

>>> answers = Answers.parse('{"ask": "starter", "seat": 1}\\n', "answers.jsonl")
>>> answers.take("starter"), answers.take("starter")
({'ask': 'starter', 'seat': 1}, None)
>>> RefereeEvent("f1.jpg", "noah", {"to": 3}).to_json()
'{"frame": "f1.jpg", "event": "noah", "to": 3}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import UserError
from companion.game import Game
from companion.game.actions import Play
from companion.session.drafts import with_side
from companion.session.intents import Outcome
from companion.session.narrate import card_name, plural
from companion.session.prompts import (
    ChooseFrogWeight,
    ChooseSnailSide,
    ChooseStarter,
    ChooseTarget,
    GiveCards,
    MoveNoah,
    Prompt,
)
from companion.session.session import Session
from companion.session.table_observer import Finding, physical
from companion.session.view import SessionView

#: The exit status of a run stopped by a question the answers file does not answer.
UNANSWERED = 3

#: Each kind of answer: the fields it must carry (name → accepted JSON types), and whether it
#: names a card (matched on ``"card"``).
ANSWER_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "starter": {"seat": (int,)},
    "snail_side": {"card": (str,), "as": (str,)},
    "frog_weight": {"card": (str,), "frog_weight": (int,)},
    "croc_flee": {"card": (str,), "target": (int,)},
    "lion_swap": {"card": (str,), "target": (int,)},
    "giraffe_look": {"card": (str,), "target": (int, type(None))},
    "give": {"gifts": (list,)},
}
ANSWERS_FIX = ("Write one JSON object per line, e.g. {\"ask\": \"starter\", \"seat\": 0} "
               "(docs/table-view.md, \"Refereeing a recording\").")


# -- the answers file -----------------------------------------------------------------------------

class Answers:
    """The answers of a recording (TABLE-KIT.md): JSON lines ``{"ask": KIND, ...}``. A question
    about a card takes the first unused answer of its kind naming that card's sticker text; the
    others (``starter``, ``give``) the first unused answer of their kind.

    >>> answers = Answers.parse('{"ask": "snail_side", "card": "S1", "as": "M"}\\n'
    ...                         '{"ask": "snail_side", "card": "S2", "as": "F"}\\n', "a.jsonl")
    >>> answers.take("snail_side", "S2")["as"], answers.take("snail_side", "S2")
    ('F', None)
    """

    def __init__(self, lines: Sequence[Mapping[str, Any]] = ()) -> None:
        self.lines = list(lines)
        self._used = [False] * len(self.lines)

    @classmethod
    def parse(cls, text: str, name: str) -> Answers:
        """The answers in ``text`` (the file ``name``); a malformed line is a
        :class:`~companion.errors.UserError` naming it."""
        lines = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                lines.append(_answer(line, f"{name}, line {number}"))
        return cls(lines)

    @classmethod
    def read(cls, path: str | Path) -> Answers:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            why = getattr(error, "strerror", None) or "it is not UTF-8 text"
            raise UserError(f"The answers file {path} cannot be read: {why}.",
                            "Check the path given to --answers.") from None
        return cls.parse(text, str(path))

    def take(self, kind: str, card: str | None = None) -> dict[str, Any] | None:
        """The first unused answer of ``kind`` (naming ``card`` when given), now used."""
        for index, line in enumerate(self.lines):
            if not self._used[index] and line["ask"] == kind \
                    and (card is None or line.get("card") == card):
                self._used[index] = True
                return dict(line)
        return None

    @property
    def unused(self) -> int:
        return self._used.count(False)


def _answer(line: str, where: str) -> dict[str, Any]:
    """One answer line, checked (kind, fields and their types)."""
    try:
        answer = json.loads(line)
    except json.JSONDecodeError as error:
        raise UserError(f"{where} is not JSON ({error.msg}).", ANSWERS_FIX) from None
    if not isinstance(answer, dict) or answer.get("ask") not in ANSWER_FIELDS:
        kinds = ", ".join(ANSWER_FIELDS)
        raise UserError(f"{where} is not an answer: \"ask\" must be one of {kinds}.",
                        ANSWERS_FIX)
    for name, types in ANSWER_FIELDS[answer["ask"]].items():
        value = answer.get(name, ...)
        if value is ... or not isinstance(value, types) or isinstance(value, bool):
            raise UserError(f"{where}: the {answer['ask']} answer needs \"{name}\" "
                            f"({' or '.join(_type_name(t) for t in types)}).", ANSWERS_FIX)
    if answer["ask"] == "give" and not all(
            isinstance(gift, dict) and isinstance(gift.get("to"), int)
            and not isinstance(gift.get("to"), bool) for gift in answer["gifts"]):
        raise UserError(f"{where}: each gift is {{\"to\": seat}}.", ANSWERS_FIX)
    return answer


def _type_name(kind: type) -> str:
    return {int: "a whole number", str: "a text", list: "a list"}.get(kind, "null")


# -- events ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class RefereeEvent:
    """One event of the run: the frame that led to it, its kind and its contract fields;
    ``said`` is its sentence's detail for the text output (not in the JSON)."""

    frame: str
    event: str
    fields: dict[str, Any] = field(default_factory=dict)
    said: str = ""

    def to_json(self) -> str:
        return json.dumps({"frame": self.frame, "event": self.event, **self.fields},
                          ensure_ascii=False)

    def sentence(self, players: Sequence[str]) -> str:
        """One plain sentence (the text output)."""
        def name(seat: Any) -> str:
            return players[seat] if isinstance(seat, int) and seat < len(players) else "—"

        f = self.fields
        values = {**f, "said": self.said, "player": name(f.get("seat"))}
        if "scores" in f:
            values["scores"] = ", ".join(f"{name(s)} {n}" for s, n in enumerate(f["scores"]))
        if "winners" in f:
            values["winners"] = " and ".join(name(s) for s in f["winners"])
            values["win"] = "wins" if len(f["winners"]) == 1 else "win"
        what = SENTENCES[self.event].format(**values)
        return f"{self.frame}: {what[0].upper()}{what[1:].rstrip('.')}."


#: The text output's sentence of each event (:meth:`RefereeEvent.sentence`).
SENTENCES = {
    "play": "{player} loads {said} on ferry {ferry}", "noah": "Noah moves to ferry {to}",
    "take_back": "{player} takes back the animals of ferry {ferry}",
    "departure": "ferry {ferry} departs", "refusal": "refused ({code}): {said}",
    "audit": "the table: {text}", "asked": "stopped: {said}",
    "round_end": "round {round} is over: {scores}",
    "game_end": "game over, {winners} {win}: {scores}",
}


class Unanswered(Exception):
    """A question the answers file does not answer: the run stops (exit status 3)."""


# -- the referee ----------------------------------------------------------------------------------

class Referee:
    """Referees frames for ``session`` (a game already open in it) with ``answers``; every
    event goes to ``emit``. ``reader``: the table reader (default :class:`vision.table.
    TableReader`). Feed it frames with :meth:`feed`; :class:`Unanswered` stops it."""

    MAX_ANSWERS_PER_FRAME = 32  # each answer is used once: a bound, never reached in play

    def __init__(self, session: Session, answers: Answers,
                 emit: Callable[[RefereeEvent], object], *, reader: Any = None) -> None:
        from companion.wiring import table_observer

        self.session, self.answers, self.emit = session, answers, emit
        self.frame = ""
        self._actions = self._history_length()
        intents = _Watched(session, self)
        self.observer = table_observer(session, reader=reader, intents=intents)
        shown = self.observer.on_finding

        def on_finding(finding: Finding) -> None:
            if shown is not None:
                shown(finding)  # the session's notice and the ferry's light, as in the app
            self._audit(finding)

        self.observer.on_finding = on_finding

    def feed(self, frame: Any) -> None:
        """One camera frame (:class:`vision.table_capture.TableFrame`): the observer's step,
        then the questions the screen would ask now, answered from the answers file."""
        self.frame = frame.name
        self.observer.feed(frame)
        for _ in range(self.MAX_ANSWERS_PER_FRAME):
            if not self._answer(self.session.view.prompt):
                return

    # -- intents: every one goes through here, so its events come out in order ------------------

    def intent(self, call: Callable[..., Outcome], *args: Any, card: str | None = None,
               ferry: int | None = None) -> Outcome:
        """Make one intent on the session; events for what the record gained, or the refusal
        (``card``, ``ferry``: what it was about, for the refusal's fields)."""
        seat = self.session.view.prompt.player
        outcome = call(*args)
        if outcome.accepted:
            self._recorded()
        else:
            self._refusal(outcome, seat, card, ferry)
        return outcome

    def _recorded(self) -> None:
        """Events for each line the record gained (the engine's new actions, each already
        written as that line), then the engine's departure and round end announced with the
        last one (the session's notice of that action)."""
        from companion.game.actions import action_to_dict

        game = self.session.game
        history = game.history if game is not None else ()
        new, self._actions = history[self._actions:], len(history)
        for action in new:
            self._line_event(action_to_dict(action))
        if new:
            view = self.session.view
            for phrase in view.notices[-1].phrases if view.notices else ():
                self._engine_event(phrase.key, phrase.params, view)

    def _line_event(self, line: Mapping[str, Any]) -> None:
        kind = line.get("type")
        if kind == "play":
            side = line.get("as")  # a snail: the side it shows on the ferry
            card = with_side(line["card"], side) if side else line["card"]
            self._event("play", {"seat": line["player"], "card": self.sticker(line["card"]),
                                 "ferry": line["ferry"] + 1}, said=card_name(card))
        elif kind == "move_noah":
            self._event("noah", {"to": line["to"] + 1})
        elif kind == "take_back":
            self._event("take_back", {"seat": line["player"], "ferry": line["ferry"] + 1})

    def _engine_event(self, key: str, params: Mapping[str, Any], view: SessionView) -> None:
        state = view.state or {}
        if key == "event.departure":
            self._event("departure", {"ferry": params["position"] + 1})
        elif key == "event.round_scored":
            self._event("round_end", {"round": params["round"],
                                      "scores": list(state.get("scores") or ())})
        elif key == "event.game_over":
            self._event("game_end", {"scores": list(state.get("scores") or ()),
                                     "winners": list(state.get("winners") or ())})

    def _refusal(self, outcome: Outcome, seat: int | None, card: str | None,
                 ferry: int | None) -> None:
        fields: dict[str, Any] = {"code": outcome.reason or _code_of(self.session.view),
                                  "seat": seat}
        if card is not None:
            fields["card"] = self.sticker(card)
        if ferry is not None:
            fields["ferry"] = ferry + 1
        self._event("refusal", fields, said=outcome.message)

    def _audit(self, finding: Finding) -> None:
        self._event("audit", {"ferry": None if finding.ferry is None else finding.ferry + 1,
                              "finding": finding.phrase.key, "text": finding.text})

    def _event(self, kind: str, fields: dict[str, Any], said: str = "") -> None:
        self.emit(RefereeEvent(self.frame, kind, fields, said))

    def _history_length(self) -> int:
        game = self.session.game
        return len(game.history) if game is not None else 0

    def sticker(self, ref: str) -> str:
        """The sticker text of a card of the session's deck (``snail:F#3`` → its sticker)."""
        from companion.tags.payload import encode

        return encode(self.session.deck_id, self.session.deck[physical(ref)])

    # -- the questions the camera cannot answer -------------------------------------------------

    def _answer(self, prompt: Prompt) -> bool:
        """Answer the question ``prompt`` asks, if it is one of those; False when it is not
        (the table's frames answer it). :class:`Unanswered` when the answers file has none."""
        asked = question(prompt, self.session.game)
        if asked is None:
            return False
        if asked.choices is not None and len(asked.choices) == 1:  # forced: nobody is asked
            self.intent(*answer_call(self.session, asked, asked.choices[0]))
            return True
        sticker = self.sticker(asked.card) if asked.card is not None else None
        answer = self.answers.take(asked.kind, sticker)
        game = self.session.game
        if answer is None and asked.kind == "croc_flee" and game is not None and game.fleeing:
            answer = self.answers.take(asked.kind, self.sticker(game.fleeing))  # named so too
        if answer is None:
            fields = {"ask": asked.kind, **({"card": sticker} if sticker is not None else {})}
            self._event("asked", fields, said=_asked_sentence(asked.kind, asked.card))
            raise Unanswered(asked.kind)
        self.intent(*answer_call(self.session, asked, answer_value(answer)))
        return True


@dataclass(frozen=True)
class Question:
    """A question the screen asks because the camera cannot see the answer (TABLE-KIT.md):
    its ``kind`` (the answers file's ``ask``), the card it is about (a card id; ``None`` for
    ``starter`` and ``give``) and the answers the rules allow (``None``: too many to list,
    the gifts). With one answer only, the rules force it and nobody is asked.

    >>> from companion.session.prompts import ChooseTarget
    >>> question(ChooseTarget(player=0, text="", action="lion_swap", choices=(1,)), None).forced
    True
    """

    kind: str
    card: str | None
    choices: tuple[Any, ...] | None

    @property
    def forced(self) -> bool:
        return self.choices is not None and len(self.choices) == 1


def question(prompt: Prompt, game: Game | None) -> Question | None:
    """The question ``prompt`` asks the table, if it is one the camera cannot answer (``game``:
    the session's, for the card a target is chosen for: the last one played)."""
    if isinstance(prompt, ChooseStarter):
        return Question("starter", None, prompt.choices)
    if isinstance(prompt, ChooseSnailSide):
        return Question("snail_side", prompt.card, prompt.legal)
    if isinstance(prompt, ChooseFrogWeight):
        return Question("frog_weight", prompt.card, prompt.choices)
    if isinstance(prompt, ChooseTarget):
        return Question(prompt.action, _played_last(game), prompt.choices)
    if isinstance(prompt, MoveNoah) and prompt.giraffe_targets:
        return Question("giraffe_look", _played_last(game), (*prompt.giraffe_targets, None))
    if isinstance(prompt, GiveCards):
        opponents = prompt.opponents
        return Question("give", None, ({opponents[0]: prompt.count},)
                        if len(opponents) == 1 else None)
    return None


def answer_call(session: Session, asked: Question, value: Any) -> tuple[Any, ...]:
    """The session intent (and its argument) answering ``asked`` with ``value``: a seat, a
    side, a weight, ``{seat: cards}`` for gifts, ``None`` to decline the giraffe's look."""
    if asked.kind == "starter":
        return session.choose_starter, value
    if asked.kind == "snail_side":
        return session.choose_snail_side, value
    if asked.kind == "frog_weight":
        return session.choose_frog_weight, value
    if asked.kind == "give":
        return session.give_cards, value
    if value is None:
        return (session.skip,)
    return session.choose_target, value


def answer_value(answer: Mapping[str, Any]) -> Any:
    """The value an answers-file line gives (see :func:`answer_call`)."""
    kind = answer["ask"]
    if kind == "starter":
        return answer["seat"]
    if kind == "snail_side":
        return answer["as"]
    if kind == "frog_weight":
        return answer["frog_weight"]
    if kind == "give":
        counts: dict[int, int] = {}
        for gift in answer["gifts"]:
            counts[gift["to"]] = counts.get(gift["to"], 0) + 1
        return counts
    return answer["target"]


def answer_line(asked: Question, value: Any, sticker: str | None) -> dict[str, Any]:
    """The answers-file line answering ``asked`` with ``value`` (``sticker``: its card's text),
    the inverse of :func:`answer_value` (a recording's answers are written with it).

    >>> answer_line(Question("give", None, None), {2: 1, 1: 1}, None)
    {'ask': 'give', 'gifts': [{'to': 1}, {'to': 2}]}
    """
    line: dict[str, Any] = {"ask": asked.kind}
    if sticker is not None:
        line["card"] = sticker
    if asked.kind == "give":
        line["gifts"] = [{"to": seat} for seat, count in sorted(value.items())
                         for _ in range(count)]
    else:
        line[{"starter": "seat", "snail_side": "as", "frog_weight": "frog_weight"}.get(
            asked.kind, "target")] = value
    return line


def _played_last(game: Game | None) -> str | None:
    """The card of the last play (the crocodile, lion or giraffe whose effect is asked)."""
    history = game.history if game is not None else ()
    return next((action.card for action in reversed(history) if isinstance(action, Play)),
                None)


def _asked_sentence(kind: str, card: str | None) -> str:
    what = {"starter": "who begins the first round", "snail_side": "the side the snail shows",
            "frog_weight": "the weight the frog declares",
            "croc_flee": "who takes the animal fleeing from the crocodile",
            "lion_swap": "the opponent the lion swaps with",
            "giraffe_look": "whose hand the giraffe looks at (or none)",
            "give": "who receives the departing player's gifts"}[kind]
    about = f" ({card_name(card)})" if card else ""
    return (f"the answers file does not say {what}{about}: add a {{\"ask\": \"{kind}\"}} line "
            "and run it again")


def _code_of(view: SessionView) -> str:
    """A refusal's TABLE-LOG code when the session's own check gave none (its notice's
    phrase): a card already laid at setup, a card already scanned."""
    phrases = view.notices[-1].phrases if view.notices else ()
    key = phrases[0].key if phrases else ""
    if key in ("notice.already_on_ferry", "notice.already_scanned"):
        return "card_already_on_table" if key.endswith("ferry") else "scan_mismatch"
    return "bad_action"


class _Watched:
    """The session as the table observer sees it, each intent through :meth:`Referee.intent`
    (an :class:`~companion.session.table_observer.ObservedSession`)."""

    def __init__(self, session: Session, referee: Referee) -> None:
        self.session, self.referee = session, referee

    @property
    def view(self) -> SessionView:
        return self.session.view

    @property
    def game(self) -> Any:
        return self.session.game

    def choose_card(self, ref: str) -> Outcome:
        view = self.session.view
        ferry = getattr(view.prompt, "ferry", None) if view.prompt.kind in (
            "play_card", "scan_setup_card") else None
        return self.referee.intent(self.session.choose_card, ref, card=ref, ferry=ferry)

    def move_noah(self, ferry: int) -> Outcome:
        return self.referee.intent(self.session.move_noah, ferry, ferry=ferry)

    def take_back(self) -> Outcome:
        return self.referee.intent(self.session.take_back, ferry=self.session.view.noah)

    def choose_noah_start(self, ferry: int) -> Outcome:
        return self.referee.intent(self.session.choose_noah_start, ferry, ferry=ferry)


# -- the command ----------------------------------------------------------------------------------

@dataclass
class RefereeRun:
    """What one run did: its events, the exit status, the table log's text."""

    events: list[RefereeEvent] = field(default_factory=list)
    status: int = 0
    log: str = ""
    frames: int = 0


def recording_frames(spec: str) -> Iterator[Any]:
    """The frames of a recording, as camera frames (:class:`vision.table_capture.TableFrame`):
    a folder's images in file-name order, or a video's frames in order. A missing or unreadable
    source, or an image that cannot be decoded, is a :class:`UserError`."""
    from vision.errors import VisionError
    from vision.sources import ImageFolder, ImageUnreadable, VideoFile
    from vision.table_capture import StillTableSource

    path = Path(spec).expanduser()

    def unreadable(problem: ImageUnreadable) -> None:
        raise UserError(f"Frame {problem.what}", "Remove it from the folder or export the "
                        "recording again: a frame left out would change what is still.")

    try:
        if path.is_dir():
            source = StillTableSource(ImageFolder(path, on_skip=unreadable))
        elif path.is_file():
            source = StillTableSource(VideoFile(path, realtime=False))
        else:
            raise UserError(f"The recording {spec!r} is neither a folder nor a video file.",
                            "Give the folder of its frames or its video (--source).")
        source.open()
        try:
            while (frame := source.read()) is not None:
                yield frame
        finally:
            source.close()
    except VisionError as error:
        raise UserError(error.what, error.fix or "Check the recording.") from None


def referee_recording(spec: str, players: Sequence[str], *, options: Mapping[str, Any] | None,
                      answers: Answers, emit: Callable[[RefereeEvent], object] = lambda e: None,
                      db: Path | None = None, reader: Any = None) -> RefereeRun:
    """Referee the recording ``spec`` for ``players`` (a new game in a fresh record, ``db``
    or a temporary file); see the module's docstring."""
    import tempfile

    from companion.session.history import export_game
    from companion.session.store import GameStore
    from companion.wiring import open_session

    run = RefereeRun()

    def collect(event: RefereeEvent) -> None:
        run.events.append(event)
        emit(event)

    with tempfile.TemporaryDirectory(prefix="noah-referee-") as folder, \
            GameStore(db or Path(folder) / "referee.sqlite") as store:
        session = open_session(store=store)
        session.new_game(players, options)
        referee = Referee(session, answers, collect, reader=reader)
        try:
            for frame in recording_frames(spec):
                run.frames += 1
                referee.feed(frame)
        except Unanswered:
            run.status = UNANSWERED
        finally:
            game_id = session.view.game_id
            if game_id is not None:
                run.log = export_game(store, game_id, session.deck, "log")[0]
    if run.frames == 0 and run.status == 0:
        raise UserError(f"The recording {spec} gave no frame.",
                        "Check that the video plays or that the folder holds its frames.")
    return run


def run_command(args: Any) -> int:
    """``noah-companion table referee`` (companion/commands/table.py parses it)."""
    import sys

    options = _options(args.options)
    answers = Answers.read(args.answers) if args.answers else Answers()

    def show(event: RefereeEvent) -> None:
        print(event.to_json() if args.json else event.sentence(args.players), flush=True)

    run = referee_recording(args.source, args.players, options=options, answers=answers,
                            emit=show)
    if args.log:
        try:
            Path(args.log).write_text(run.log, encoding="utf-8")
        except OSError as error:
            raise UserError(f"Cannot write the log {args.log}: {error.strerror}.",
                            "Choose another file name or folder.") from None
    if not args.json:
        ended = "stopped by a question the answers do not cover" if run.status else "refereed"
        print(f"{plural(run.frames, 'frame')} {ended}; {plural(len(run.events), 'event')}.",
              file=sys.stderr)
    return run.status


def _options(text: str | None) -> dict[str, Any] | None:
    """``--options``: the header's options object (TABLE-LOG.md)."""
    if text is None:
        return None
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"--options is not JSON ({error.msg}).",
                        "Give the header's options object, e.g. --options '{\"frog\": true}'."
                        ) from None
    if not isinstance(options, dict):
        raise UserError("--options must be a JSON object.",
                        "Give the header's options object, e.g. --options '{\"frog\": true}'.")
    return options
