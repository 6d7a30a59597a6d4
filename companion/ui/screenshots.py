"""Screenshots of every screen at 800×480: ``python -m companion.ui.screenshots --out DIR``.

Every screen that shows the players is taken for each table size, two to five players with
long names (:data:`LONG_NAMES`): a seeded simulated table
(:class:`~companion.sim.autoplay.SimulatedTable`) plays a whole game through the app's session,
headless, and the first time each screen or prompt appears the window is saved as
``NN-name-Np.png`` (``06-table-5p.png``). The table mid-round also gets its card tray, a long
refusal and an undo's "put back" card; a snail shown at set-up and the score-only round
(entry, then result) follow each game. The screens that do not depend on the table are taken
once, ``NN-name.png``: home, history, settings (both pages), the table camera's calibration
and a damaged game.
:data:`TABLE_SCREENS` and :data:`ONCE_SCREENS` list them all.

Every language the app has a catalog for is taken, each in its own folder: ``--out
docs/screenshots`` writes ``en/``, ``fr/`` and ``zh/`` (one process each: Kivy has one window
per process); ``--language fr`` takes one.

The same tour serves the layout test: :class:`Photographer` calls :meth:`Photographer.shoot`
at every screen, which a test overrides to check the screen instead of saving it
(:func:`tour_table`, :func:`tour_once`).
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.game.sizes import PLAYER_COUNTS

if TYPE_CHECKING:
    from companion.session.steps import Step

#: The tables of the screenshots (and of the layout test): long names, two to five players.
LONG_NAMES = ("Anne-Charlotte", "Bartholomew", "Chloé-Marguerite", "Dominique", "Éloïse-Amandine")
SEED = 2  # a seed whose game meets every prompt at every table size (the layout test checks)
SHOTS: dict[Step, str] = {  # prompt kind -> file name (taken the first time the prompt shows)
    "choose_noah_start": "03-setup-noah",
    "choose_starter": "05-setup-starter",
    "choose_frog_weight": "08-prompt-frog-weight",
    "choose_target": "09-prompt-target",
    "move_noah": "10-move-noah",
    "give_cards": "11-give-cards",
    "scan_hand": "12-round-end-scan",
    "game_over": "14-game-end",
}
#: The screens taken for each table size (``06-table`` is saved as ``06-table-5p.png``).
TABLE_SCREENS = ("02-new-game", "03-setup-noah", "04-setup-scan", "05-setup-starter",
                 "06-table", "07-prompt-snail-side", "08-prompt-frog-weight", "09-prompt-target",
                 "10-move-noah", "11-give-cards", "12-round-end-scan", "13-round-result",
                 "14-game-end", "17-card-tray", "18-refused", "19-undo", "20-score-only",
                 "21-score-only-result", "24-setup-snail-side", "25-redo", "27-took-back")
#: The screens that show no table, taken once.
ONCE_SCREENS = ("01-home", "15-history", "16-settings", "22-damaged-game", "28-new-score-only",
                "23-settings-technical", "29-table-camera")


class Photographer:
    """Follows the simulated table step by step and saves each screen once, with the table's
    size in its name (``suffix``, e.g. ``-5p``)."""

    frames_per_step = 1  # the window is drawn after each step of the table (0: only at shots)

    def __init__(self, driver: Any, out: Path, language: str = "en", suffix: str = "") -> None:
        self.driver, self.out, self.language, self.suffix = driver, out, language, suffix
        self.names: set[str] = set()
        self.taken: list[Path] = []
        self.plays = 0
        self.rounds = 0

    def for_table(self, count: int) -> None:
        """Start on a new table of ``count`` players: its screens get ``-Np``."""
        self.suffix, self.plays, self.rounds = f"-{count}p", 0, 0
        self.names = {name for name in self.names if name in ONCE_SCREENS}

    def shoot(self, name: str) -> None:
        """The screen as it is now: saved as ``name``.png (with the table's size if it shows
        a table)."""
        self.names.add(name)
        self.taken.append(self.driver.screenshot(self.out / f"{self.file_name(name)}.png"))

    def file_name(self, name: str) -> str:
        return name if name in ONCE_SCREENS else name + self.suffix

    def pause(self, seconds: float) -> None:
        """Let an animation (the tokens' move) finish before the next shot."""
        _wait(self.driver, seconds)

    def on_step(self, _step: Any) -> None:
        driver, app = self.driver, self.driver.app
        view = app.session.view
        names = self.names
        kind = view.prompt.kind
        if len(view.round_scores) > self.rounds:
            self.rounds = len(view.round_scores)
            driver.settle()
            if "13-round-result" not in names:
                self.pause(1.5)  # the tokens' move
                self.shoot("13-round-result")
            app.next_round()
        if kind == "scan_setup_card" and sum(r is not None for r in view.prompt.scanned) == 3 \
                and "04-setup-scan" not in names:
            driver.settle()
            self.shoot("04-setup-scan")
        if kind == "play_card":
            self.plays += 1
            if self.plays == 8:
                driver.settle()
                self.table_shots()
        shot = SHOTS.get(kind)
        if shot and shot not in names:
            driver.settle()
            self.prompt_shot(kind, shot)
        driver.pump(self.frames_per_step)
        if self.seen_every_step():
            raise TableDone

    def seen_every_step(self) -> bool:
        """Every screen of a game in play has been taken (the game's end comes from the
        score-only game, so the table need not play two more rounds for it)."""
        wanted = {*SHOTS.values(), "04-setup-scan", "06-table", "13-round-result"}
        return wanted - {"14-game-end"} <= self.names

    def prompt_shot(self, kind: str, name: str) -> None:
        from companion.ui.screens import GiftPopup

        if kind == "give_cards":
            popup = GiftPopup(self.driver.app.view)
            popup.open()
            self.driver.pump(2)
            self.shoot(name)
            popup.dismiss()
            self.driver.pump(2)
            return
        if kind == "game_over":
            self.driver.pump(10)
        self.shoot(name)

    def table_shots(self) -> None:
        """The table mid-round, its card tray, a refused play (red banner), and an undo's
        "put back" card (the move is then redone, so the game goes on as dealt)."""
        driver, app = self.driver, self.driver.app
        self.shoot("06-table")
        app.open_tray()
        driver.pump(3)
        self.shoot("17-card-tray")
        _close_popups(driver)
        _long_refusal(driver)
        self.shoot("18-refused")
        app.root.alert.hide()
        app.act(app.session.undo)
        driver.settle()
        driver.pump(10)  # the card's opening animation
        self.shoot("19-undo")
        _close_popups(driver)
        app.act(app.session.redo)
        driver.settle()
        driver.pump(10)
        self.shoot("25-redo")  # the same card: what to do again on the table
        _close_popups(driver)
        self.took_back_shot()

    def took_back_shot(self) -> None:
        """"I cannot play" touched: the animals are taken back at once, with Undo offered;
        its Undo then puts the game back as dealt."""
        driver, app = self.driver, self.driver.app
        assert app.view.prompt.kind == "play_card" and app.view.prompt.can_take_back
        app.take_back()
        driver.settle()
        self.shoot("27-took-back")
        app.act(app.session.undo)  # the lit Undo button
        driver.settle()
        _close_popups(driver)


class TableDone(Exception):
    """Every screen of the game in play has been taken: the simulated table stops."""


def _close_popups(driver: Any) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss()
    driver.pump(3)


def _wait(driver: Any, seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        driver.pump()
        time.sleep(0.01)


def take_all(out: Path, *, seed: int = SEED, language: str = "en",
             counts: Sequence[int] = PLAYER_COUNTS) -> list[Path]:
    """Every screen for every table size (``counts``), and the others once, saved in ``out``;
    the files."""
    from companion.ui.driver import HeadlessApp

    work = Path(tempfile.mkdtemp(prefix="noah-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    with HeadlessApp(work, simulate=True, language=language) as driver:
        photographer = Photographer(driver, out, language)
        driver.settle()
        photographer.shoot("01-home")
        for count in counts:
            tour_table(driver, photographer, LONG_NAMES[:count], seed=seed)
        tour_once(driver, photographer)
    return photographer.taken


def tour_table(driver: Any, photographer: Photographer, players: Sequence[str], *,
               seed: int = SEED) -> None:
    """Every screen of a table of ``players``, each handed to ``photographer.shoot``: the new
    game, a whole seeded game (set-up, every prompt, the tray, a refusal, an undo, round ends,
    game end), a snail's side at set-up and the score-only round. Five players take the frog
    only (the box has too few animals for both promo animals)."""
    from companion.game import Options
    from companion.sim.autoplay import SimulatedTable

    count = len(players)
    app = driver.app
    photographer.for_table(count)
    app.leave_game()
    _new_game_screen(driver, count, names=players)
    photographer.shoot("02-new-game")
    app.go("home")
    table = SimulatedTable(app.session, players, seed=seed,
                           options=Options(hidden=True, frog=True, crocodile=count < 5),
                           on_step=photographer.on_step)
    with contextlib.suppress(TableDone):
        table.play()
    driver.settle()
    _snail_side(driver, photographer, players)
    _score_only(driver, photographer, players)


def tour_once(driver: Any, photographer: Photographer) -> None:
    """The screens that show no table: history, both settings pages, the table camera's
    calibration, a damaged game."""
    app = driver.app
    app.leave_game()
    app.go("history")
    driver.pump(3)
    photographer.shoot("15-history")
    app.open_settings()
    driver.pump(3)
    photographer.shoot("16-settings")
    app.go("settings_technical")
    driver.pump(3)
    photographer.shoot("23-settings-technical")
    app.close_settings()
    app.open_new_game(score_only=True)
    driver.pump(3)
    photographer.shoot("28-new-score-only")  # no rules' options: only tears count
    app.go("home")
    from companion.ui.tablecam import photograph  # the calibration screen (29-table-camera)

    photograph(driver, photographer.shoot)
    _damaged_game(driver, photographer)


def _new_game_screen(driver: Any, count: int, names: Sequence[str] = ()) -> None:
    """The new-game screen with ``count`` players (named ``names`` if given)."""
    app = driver.app
    app.open_new_game(score_only=False)
    screen = app.root.sm.get_screen("new_game")
    while len(screen.rows()) < count:
        screen.add_player()
    while len(screen.rows()) > count:
        screen.remove_player(screen.rows()[-1])
    for row, name in zip(screen.rows(), names, strict=False):
        row.ids.name.text = name
    driver.pump(3)


def _long_refusal(driver: Any) -> None:
    """A refusal of three lines or more: an animal that is already on a ferry shown again (not
    a snail: that asks for its side first)."""
    app = driver.app
    state = app.session.view.state
    app.act(app.session.choose_card, next(ref for ferry in state["ferries"] if ferry
                                          for ref in ferry if not ref.startswith("snail")))
    driver.settle()


def _snail_side(driver: Any, photographer: Photographer, players: Sequence[str]) -> None:
    """A game without the frog (snails are in the box) set up by touch, then a snail shown:
    which side is up? (The frog replaces the snails.)"""
    from companion.ui import theme
    from companion.ui.application import tray_cards

    app = driver.app
    app.leave_game()
    app.start_game(list(players), list(theme.PLAYER_COLOURS)[:len(players)], {},
                   score_only=False)
    app.act(app.session.choose_noah_start, 0)
    cards = tray_cards(app.session.game.cards_in_play, {})
    snails = [ref for ref in cards if ref.startswith("snail")]
    app.act(app.session.choose_card, snails[1])  # a snail as ferry 1's starting animal: which side?
    driver.settle()
    photographer.shoot("24-setup-snail-side")
    app.act(app.session.choose_snail_side, "F")
    for ref in (ref for ref in cards if not ref.startswith("snail")):
        if app.session.view.prompt.kind != "scan_setup_card":
            break
        app.act(app.session.choose_card, ref)
    app.act(app.session.choose_starter, 0)
    app.act(app.session.choose_card, snails[0])
    driver.settle()
    app.root.alert.hide()
    photographer.shoot("07-prompt-snail-side")
    app.act(app.session.cancel)


def _score_only(driver: Any, photographer: Photographer, players: Sequence[str]) -> None:
    """The score-only round: the tears being entered, then the round's result; then two
    more rounds to the game's end, unless the camera game's end was taken."""
    from companion.ui import theme

    app = driver.app
    app.leave_game()
    app.start_game(list(players), list(theme.PLAYER_COLOURS)[:len(players)], {},
                   score_only=True)
    driver.settle()
    photographer.shoot("20-score-only")
    for round_number in range(1, 4):
        app.act(app.session.enter_tears, [(3 + 4 * seat) % 9 + round_number
                                          for seat in range(len(players))])
        driver.settle()
        if round_number == 1:
            photographer.pause(1.5)  # the tokens' move
            photographer.shoot("21-score-only-result")
        elif "14-game-end" in photographer.names:
            break
        app.next_round()
        driver.settle()
    if app.session.view.game_over and "14-game-end" not in photographer.names:
        photographer.prompt_shot("game_over", "14-game-end")
    app.leave_game()


def _damaged_game(driver: Any, photographer: Photographer) -> None:
    """A game whose record ends in a line that cannot be used: Resume offers the choices."""
    from companion.ui.damaged import resume

    app = driver.app
    game, _line = damaged_game(driver, LONG_NAMES[:2])
    resume(app, game)
    driver.pump(10)  # the popup's opening animation
    photographer.shoot("22-damaged-game")
    _close_popups(driver)
    app.act(app.session.delete_game, game)
    driver.settle()


def damaged_game(driver: Any, players: Sequence[str],
                 text: str = '{"type": "undo", "count": 9}') -> tuple[int, int]:
    """A score-only game of one round, left, whose record then ends in ``text`` (see
    :func:`damage`); its id and that line's table-log number."""
    app = driver.app
    app.start_game(list(players), ["red", "blue", "green", "yellow", "purple"][:len(players)],
                   {}, score_only=True)
    driver.settle()
    game = app.view.game_id
    app.act(app.session.enter_tears, [1 + seat for seat in range(len(players))])
    driver.settle()
    app.leave_game()
    driver.settle()
    return game, damage(app, game, text)


def damage(app: Any, game: int, text: str) -> int:
    """Write ``text`` as the last line of ``game``'s record behind the app's back (as a bad SD
    card or a second copy of the app could); its table-log line number."""
    with sqlite3.connect(app.session.store.path) as db:
        seq = db.execute("SELECT MAX(seq) + 1 FROM lines WHERE game_id = ?",
                         (game,)).fetchone()[0]
        db.execute("INSERT INTO lines VALUES (?, ?, ?, '2026-11-23T20:00:00+00:00')",
                   (game, seq, text))
    return seq + 1


def main(argv: list[str] | None = None) -> int:
    from companion.i18n import languages

    parser = argparse.ArgumentParser(description="Save a PNG of every screen of the app, in "
                                                 "every language, one folder each.")
    parser.add_argument("--out", "-o", type=Path, default=Path("docs/screenshots"),
                        help="the folder that gets one sub-folder per language")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--language", choices=languages(),
                        help="only this language (default: every language)")
    parser.add_argument("--players", type=int, choices=PLAYER_COUNTS, action="append",
                        help="only the tables of this size (repeatable; default: 2 to 5)")
    args = parser.parse_args(argv)
    counts = args.players or PLAYER_COUNTS
    if args.language is None:  # one process per language: Kivy has one window per process
        import subprocess

        for language in languages():
            subprocess.run([sys.executable, "-m", "companion.ui.screenshots", "--out",
                            str(args.out), "--seed", str(args.seed), "--language", language,
                            *(f"--players={count}" for count in counts)], check=True)
        return 0
    folder = args.out / args.language
    taken = take_all(folder, seed=args.seed, language=args.language, counts=counts)
    print(f"{len(taken)} screenshots in {folder}: " + ", ".join(p.name for p in taken))
    return 0


if __name__ == "__main__":
    sys.exit(main())
