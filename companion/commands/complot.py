"""``noah-companion complot …``: the referee of «Noé, Complot à l'Élysée» on the command line.

- ``complot judge FILE.jsonl [--json]``: RULINGS-COMPLOT C94, one verdict per non-blank line.
- ``complot replay LOG [--json]``: judge a Complot table log line by line.
- ``complot simulate``: seeded random games with invariant checks (game ``i`` depends only on
  ``--seed`` and ``i``: the same games whatever ``--jobs`` was).
- ``complot demo``: a whole seeded game to 400, narrated.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from companion.commands._options import (
    add_json,
    add_out,
    add_quiet,
    progress_bar,
    shows_progress,
)
from companion.commands._pool import batches, in_order, job_count
from companion.errors import UserError

#: A judge line longer than this (1 MB) is judged bad_input without being parsed.
MAX_LINE = 1024 * 1024


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "complot", help="referee «Noé, Complot à l'Élysée»: judge, replay, simulate, demo",
        description="The second game: «Noé, Complot à l'Élysée» (RULINGS-COMPLOT.md).",
    )
    commands = parser.add_subparsers(dest="complot_command", metavar="COMMAND", required=True)
    judge = commands.add_parser(
        "judge", help="judge claims, actions, defences, manches and stickers (JSON Lines)",
        description="Read one request per line (RULINGS-COMPLOT C94) and print one verdict per "
        "line, in order. Use - to read standard input.")
    judge.add_argument("file", metavar="FILE.jsonl", help="requests, one JSON object a line")
    add_json(judge, "print the contract's JSON objects (the default prints sentences)")
    judge.set_defaults(func=run_judge)

    replay = commands.add_parser("replay", help="check a Complot table log line by line",
                                 description="Judge every line of a Complot table log.")
    replay.add_argument("log", metavar="LOG", help="table log (.jsonl), or - for stdin")
    add_json(replay, "one JSON object per line, then the final state")
    replay.add_argument("--strict", action="store_true",
                        help="exit with status 1 if any line is rejected")
    replay.set_defaults(func=run_replay)

    simulate = commands.add_parser(
        "simulate", help="play seeded random games and check the invariants",
        description="Play seeded games with simple players and check, after every action, that "
        "every card is accounted for and that scores come only from accepted claims.")
    simulate.add_argument("--games", type=_positive, default=100, help="games to play (100)")
    simulate.add_argument("--players", type=_players, default=4, help="2 to 6 players (4)")
    simulate.add_argument("--level", type=_level, default=1, help="level 1, 2 or 3 (1)")
    simulate.add_argument("--seed", default="1", help="seed of the run (1); any text works")
    simulate.add_argument("--target", type=_positive, default=400,
                          help="points that end a game (400, C55)")
    add_out(simulate, "write every game as a Complot table log in the folder DIR",
            metavar="DIR", type=Path)
    _add_deck(simulate)
    simulate.add_argument("--jobs", type=_positive, default=None,
                          help="processes to use (default: one per core)")
    add_quiet(simulate)
    simulate.set_defaults(func=run_simulate)

    demo = commands.add_parser("demo", help="a whole seeded game to 400, narrated",
                               description="Play a seeded game to 400 points and tell it.")
    demo.add_argument("--players", type=_players, default=4, help="2 to 6 players (4)")
    demo.add_argument("--level", type=_level, default=2, help="level 1, 2 or 3 (2)")
    demo.add_argument("--seed", default="1", help="seed of the game (1)")
    demo.add_argument("--target", type=_positive, default=400,
                      help="points that end the game (400, C55)")
    demo.add_argument("--language", choices=("fr", "en", "zh"), default="fr",
                      help="language of the narration (fr)")
    add_out(demo, "also write the game's table log there", metavar="LOG", type=Path)
    _add_deck(demo)
    demo.add_argument("--camera", action="store_true",
                      help="read every claim's six cards through the camera path: their "
                      "stickers rendered on a virtual table, decoded by the vision pipeline")
    demo.set_defaults(func=run_demo)


def _add_deck(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deck", type=Path, metavar="FILE",
                        help="deck file of a box that differs from the rulebook (one card a "
                        "line: CATEGORY,NAME[,First name]; see docs/complot.md)")


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"'{text}' is not a positive whole number")
    return int(text)


def _players(text: str) -> int:
    if not text.isdigit() or not 2 <= int(text) <= 6:
        raise argparse.ArgumentTypeError(f"'{text}': a game has 2 to 6 players")
    return int(text)


def _level(text: str) -> int:
    if text not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError(f"'{text}': the level is 1, 2 or 3")
    return int(text)


def _open_text(path: str) -> Any:
    if path == "-":
        return sys.stdin
    from companion.game.errors import shown
    from companion.game.inputs import require_regular_file

    file = Path(path)
    if not file.exists():
        raise UserError(f"There is no file '{shown(path)}'.", "Check the name and the folder.")
    require_regular_file(file, "a JSON Lines file", "Give a .jsonl file, or - for stdin.")
    try:
        return file.open(encoding="utf-8-sig", errors="replace", newline="")
    except OSError as error:
        raise UserError(f"'{path}' cannot be read ({error.strerror}).",
                        "Check its permissions.") from None


def run_judge(args: argparse.Namespace) -> int:
    """C94 over a file: one verdict per non-blank line; malformed lines are judged bad_input."""
    from companion.complot.judge import BAD_INPUT, judge_line, verdict_text

    source = _open_text(args.file)
    try:
        for line in _lines(source):
            if not line.strip():
                continue
            if len(line) > MAX_LINE:
                verdict = {"id": None, "kind": None, "result": dict(BAD_INPUT)}
            else:
                verdict = judge_line(line)
            print(verdict_text(verdict) if args.json else _said(verdict))
    finally:
        if source is not sys.stdin:
            source.close()
    return 0


def _lines(source: Any) -> Any:
    # Lines end at \n only: a \r or \u2028 inside a JSON string is part of its line.
    rest = ""
    while chunk := source.read(1 << 16):
        rest += chunk
        *lines, rest = rest.split("\n")
        yield from lines
    if rest:
        yield rest


def _said(verdict: dict[str, Any]) -> str:
    """One line a person reads: the id, the kind and the result's gist."""
    result = verdict["result"]
    if "error" in result:
        gist = f"✗ {result['error']}"
    elif "accepted" in result:
        gist = "✓" if result["accepted"] else f"✗ {result['code']}"
        if result.get("points"):
            gist += f" {result['combination']} {result['points']}"
    elif "verdicts" in result:
        gist = (f"manche points {result['manche_points']} totals {result['totals']}"
                f" end {result['end_reason']} winners {result['winners']}")
    else:
        gist = result.get("card") or result.get("reason") or result["kind"]
    from companion.game.errors import shown

    return f"{shown(str(verdict['id'])):>8} {shown(str(verdict['kind'])):<8} {gist}"


def run_replay(args: argparse.Namespace) -> int:
    from companion.complot.tablelog import replay_lines

    source = _open_text(args.log)
    try:
        return replay_lines(_lines(source), json_mode=args.json, strict=args.strict,
                            out=sys.stdout)
    finally:
        if source is not sys.stdin:
            source.close()


def run_simulate(args: argparse.Namespace) -> int:
    from companion.complot.cards import load_deck_file

    load_deck_file(args.deck)  # a bad deck file is told before any game is played
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
    jobs = job_count(args.jobs, args.games)
    tasks = [(start, games, args.seed, args.players, args.level, args.target, args.deck,
              args.out is not None) for start, games in batches(0, args.games, jobs)]
    failures = 0
    totals = {"manches": 0, "turns": 0, "claims": 0}
    started = time.perf_counter()
    with progress_bar(args.games, "Games", "game", shows_progress(args.quiet)) as bar:
        for index, game in enumerate(in_order(_play_complot_batch, tasks, jobs)):
            if args.out is not None:
                (args.out / f"complot-{index:05d}.jsonl").write_text(game["log"],
                                                                     encoding="utf-8")
            for key in totals:
                totals[key] += game[key]
            if game["problem"] is not None:
                failures += 1
                print(f"game {index}: {game['problem']}", file=sys.stderr)
            bar.update()
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {totals['manches']} manches, {totals['turns']} turns, "
          f"{totals['claims']} accepted claims; "
          + ("every invariant held." if failures == 0 else f"{failures} games FAILED."))
    print(f"{elapsed:.1f} s with {jobs} {'process' if jobs == 1 else 'processes'}: "
          f"{args.games / elapsed:.0f} games/s.")
    return 0 if failures == 0 else 1


def _play_complot_batch(task: tuple) -> list[dict[str, Any]]:
    """Games ``start`` … of a run, each as a small picklable summary (its log when asked)."""
    from companion.complot.cards import load_deck_file
    from companion.complot.simulate import collector_for_games, play_game

    start, count, seed, players, level, target, deck_file, with_log = task
    deck = load_deck_file(deck_file)
    games = []
    with collector_for_games():
        for index in range(start, start + count):
            report = play_game(f"{seed}/{index}", players, level, check=True, target=target,
                               deck=deck)
            games.append({"manches": report.manches, "turns": report.turns,
                          "claims": report.claims, "problem": report.problem,
                          "log": report.log if with_log else ""})
    return games


def run_demo(args: argparse.Namespace) -> int:
    from companion.complot.cards import load_deck_file
    from companion.complot.simulate import play_game

    deck = load_deck_file(args.deck)
    camera = _ClaimCamera() if args.camera else None
    try:
        report = play_game(str(args.seed), args.players, args.level, check=True,
                           narrate_in=args.language, tell=_tell, target=args.target, deck=deck,
                           read_cards=camera.read if camera is not None else None)
    finally:
        if camera is not None:
            camera.close()
    if camera is not None:
        print(f"Camera: {camera.cards_read} stickers of laid-down hands decoded by the vision "
              f"pipeline, median {camera.median_latency_ms():.0f} ms each.")
    if args.out is not None:
        args.out.write_text(report.log, encoding="utf-8")
    if report.problem is not None:
        print(f"Invariant broken: {report.problem}", file=sys.stderr)
    return 0 if report.problem is None else 1


def _tell(line: str) -> None:
    print(line, flush=True)


class _ClaimCamera:
    """A claimant's six cards laid on a virtual table, read by the real vision pipeline: each
    sticker (its C6 payload as a QR code) is rendered by :mod:`vision.synthetic`, decoded and
    tracked by :class:`vision.pipeline.Pipeline`, and classified by Complot's codec."""

    TIMEOUT = 10.0  # seconds for the pipeline to report a hand before giving up
    AT_ONCE = 3  # cards laid side by side in the camera's view (the six come in two goes)

    def __init__(self) -> None:
        import queue

        from companion.complot.payload import is_ours
        from vision.pipeline import Pipeline
        from vision.synthetic import Scene, SyntheticSource
        from vision.tracker import TrackerSettings

        self.events: queue.Queue[Any] = queue.Queue()
        # 640×360 from 20 cm above the cards, as in Noah's demo (2.5 px per millimetre)
        self.source = SyntheticSource(Scene(width=640, height=360, camera_height_mm=200.0,
                                            seed=11), fps=0)
        quick = TrackerSettings(confirm_seconds=0.0, gone_seconds=0.0)
        self.pipeline = Pipeline(self.source, is_ours=is_ours, on_event=self.events.put,
                                 tracker=quick)
        self.pipeline.start()
        self.cards_read = 0
        self.latencies: list[float] = []

    def read(self, hand: Any) -> list[str]:
        """The card ids the camera reads from the stickers of ``hand``, in the order seen."""
        from companion.complot.cards import default_deck
        from companion.complot.claim_reader import read_all
        from companion.complot.payload import encode

        deck = default_deck()
        seen: list[str] = []
        texts = [encode("BOX1", deck[card]) for card in hand]
        for start in range(0, len(texts), self.AT_ONCE):
            batch = texts[start:start + self.AT_ONCE]
            self.source.present(*batch)
            seen += self._wait("CardShown", set(batch))
            self.source.clear()
            self._wait("CardRemoved", set(batch))
        cards = read_all(seen, deck)
        self.cards_read += len(cards)
        return cards

    def _wait(self, kind: str, texts: set[str]) -> list[str]:
        import queue
        import time

        seen: list[str] = []
        deadline = time.monotonic() + self.TIMEOUT
        while set(seen) != texts:
            try:
                event = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise UserError(f"The camera pipeline read {len(seen)} of the "
                                f"{len(texts)} cards laid down.",
                                "Run 'noah-companion bench vision' to check it.") from None
            if type(event).__name__ == kind and event.text in texts and event.text not in seen:
                seen.append(event.text)
                if kind == "CardShown":
                    self.latencies.append(event.latency)
        return seen

    def median_latency_ms(self) -> float:
        import statistics

        return 1000 * statistics.median(self.latencies) if self.latencies else 0.0

    def close(self) -> None:
        self.pipeline.stop()
