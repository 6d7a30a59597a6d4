"""Screenshots of every screen at 800×480: ``python -m companion.ui.screenshots --out DIR``.

A seeded simulated table (:class:`~companion.sim.autoplay.SimulatedTable`) plays a whole
3-player game through the app's session, headless; the first time each screen or prompt
appears, the window is saved. Home, new game, history, settings, the card tray and a refusal
are taken around it, then the same screens for the other tables: new game, the table (with a
long refusal) and the score-only round with two, four and five players and long names
(``02-new-game-5p.png``, ``06-table-5p.png``, ``20-score-only-5p.png``). Every language the
app has a catalog for is taken, each in its own folder: ``--out docs/screenshots`` writes
``en/``, ``fr/`` (and ``zh/`` with the Chinese catalog); ``--language fr`` takes one.

The same tour serves the layout test: :class:`Photographer` calls :meth:`Photographer.shoot`
at every screen, which a test overrides to check the screen instead of saving it
(:func:`tour`).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PLAYERS = ("Ana", "Ben", "Chloé")
#: The crowded tables of the screenshots (and of the layout test): long names, four and five.
LONG_NAMES = ("Anne-Charlotte", "Bartholomew", "Chloé-Marguerite", "Dominique", "Éloïse-Amandine")
CROWDED = (2, 4, 5)  # the other tables' players, each with three shots
SHOTS = {  # prompt kind -> file name (taken the first time the prompt shows)
    "choose_noah_start": "03-setup-noah",
    "choose_starter": "05-setup-starter",
    "choose_snail_side": "07-prompt-snail-side",
    "choose_frog_weight": "08-prompt-frog-weight",
    "choose_target": "09-prompt-target",
    "move_noah": "10-move-noah",
    "give_cards": "11-give-cards",
    "scan_hand": "12-round-end-scan",
    "game_over": "14-game-end",
}


class Photographer:
    """Follows the simulated table step by step and saves each screen once."""

    frames_per_step = 1  # the window is drawn after each step of the table (0: only at shots)

    def __init__(self, driver: Any, out: Path, language: str = "en") -> None:
        self.driver, self.out, self.language = driver, out, language
        self.names: set[str] = set()
        self.taken: list[Path] = []
        self.plays = 0
        self.rounds = 0

    def shoot(self, name: str) -> None:
        """The screen as it is now: saved as ``name``.png."""
        self.names.add(name)
        self.taken.append(self.driver.screenshot(self.out / f"{name}.png"))

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
            if kind != "choose_snail_side" or app.root.sm.current == "table":
                self.prompt_shot(kind, shot)
        driver.pump(self.frames_per_step)

    def prompt_shot(self, kind: str, name: str) -> None:
        from companion.ui.screens import GiftPopup

        if kind == "give_cards":
            popup = GiftPopup(self.driver.app.view)
            popup.open()
            self.shoot(name)
            popup.dismiss()
            self.driver.pump(2)
            return
        if kind == "game_over":
            self.driver.pump(10)
        self.shoot(name)

    def table_shots(self) -> None:
        """The table mid-round, its card tray, a refused play (red banner), in French."""
        driver, app = self.driver, self.driver.app
        self.shoot("06-table")
        app.open_tray()
        driver.pump(3)
        self.shoot("17-card-tray")
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        for child in list(Window.children):
            if isinstance(child, ModalView):
                child.dismiss()
        driver.pump(3)
        state = app.session.view.state
        wrong = next(k for k in range(5) if k != state["noah"] and state["ferries"][k])
        app.act(app.session.move_noah, wrong)
        driver.settle()
        self.shoot("18-refused")
        app.root.alert.hide()


def _wait(driver: Any, seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        driver.pump()
        time.sleep(0.01)


def take_all(out: Path, *, seed: int = 2, language: str = "en") -> list[Path]:
    """Play one seeded game and save every screen in ``out`` (the other tables' screens too);
    returns the files."""
    from companion.ui.driver import HeadlessApp

    work = Path(tempfile.mkdtemp(prefix="noah-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    with HeadlessApp(work, simulate=True, language=language) as driver:
        photographer = Photographer(driver, out, language)
        tour(driver, photographer, seed=seed)
        for count in CROWDED:
            crowded(driver, photographer, LONG_NAMES[:count])
    return photographer.taken


def tour(driver: Any, photographer: Photographer, *, players: Sequence[str] = PLAYERS,
         seed: int = 2) -> None:
    """Every screen once, each handed to ``photographer.shoot``: home, new game, a whole seeded
    game of ``players`` (set-up, every prompt, the tray, a refusal, round ends, game end),
    history, settings, a snail's side at set-up, the score-only round."""
    from companion.game import Options
    from companion.sim.autoplay import SimulatedTable

    app = driver.app
    driver.settle()
    photographer.shoot("01-home")
    _new_game_screen(driver, len(players))
    photographer.shoot("02-new-game")
    app.go("home")
    promos = len(players) < 5  # five players need every card of the box
    table = SimulatedTable(app.session, players, seed=seed,
                           options=Options(hidden=True, frog=promos, crocodile=promos),
                           on_step=photographer.on_step)
    table.play()
    driver.settle()
    app.go("history")
    driver.pump(3)
    photographer.shoot("15-history")
    app.open_settings()
    driver.pump(3)
    photographer.shoot("16-settings")
    app.close_settings()
    from companion.ui.tablecam import photograph  # the calibration screen (29-table-camera)
    photograph(driver, photographer.shoot)
    _snail_side(driver, photographer)
    _score_only(driver, photographer, players)


def crowded(driver: Any, photographer: Photographer, players: Sequence[str]) -> None:
    """Another table (two, four or five players) with long names: the new game, the table
    mid-round with a long refusal in the banner, the score-only round, named with the number
    of players (``06-table-5p``)."""
    from companion.game import Options
    from companion.sim.autoplay import SimulatedTable

    count = len(players)
    app = driver.app
    app.leave_game()
    _new_game_screen(driver, count, names=players)
    photographer.shoot(f"02-new-game-{count}p")
    app.go("home")

    class Enough(Exception):
        """The table has been photographed: stop playing."""

    def on_step(_step: Any) -> None:
        view = app.session.view
        # Mid-round: a ferry gone, or (two players rarely see one before the round ends) a
        # dozen actions into the game.
        mid_round = view.state.get("departed") or len(app.session.game.history) >= 12
        if view.prompt.kind != "play_card" or not mid_round:
            return
        driver.settle()
        if app.root.sm.current == "table":  # not a round's result still showing
            _long_refusal(driver)
            photographer.shoot(f"06-table-{count}p")
            app.root.alert.hide()
            raise Enough

    table = SimulatedTable(app.session, players, seed=3, options=Options(hidden=True),
                           on_step=on_step)
    with contextlib.suppress(Enough):
        table.play()
    _score_only(driver, photographer, players, name=f"20-score-only-{count}p")


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


def _snail_side(driver: Any, photographer: Photographer) -> None:
    """A 2-player game (snails are in the box) set up by touch, then a snail shown: which side
    is up? (With the promo animals a 3-player box has no snail.)"""
    from companion.ui.application import tray_cards

    app = driver.app
    app.leave_game()
    app.start_game(list(PLAYERS[:2]), ["red", "blue"], {}, score_only=False)
    app.act(app.session.choose_noah_start, 0)
    cards = tray_cards(app.session.game.cards_in_play, {})
    snails = [ref for ref in cards if ref.startswith("snail")]
    app.act(app.session.choose_card, snails[1])  # a snail as ferry 1's starting animal: which side?
    driver.settle()
    photographer.shoot("28-setup-snail-side")
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


def _score_only(driver: Any, photographer: Photographer, players: Sequence[str] = PLAYERS,
                name: str = "20-score-only-tears") -> None:
    from companion.ui import theme

    app = driver.app
    app.leave_game()
    app.start_game(list(players), list(theme.PLAYER_COLOURS)[:len(players)], {},
                   score_only=True)
    driver.settle()
    photographer.shoot(name)


def main(argv: list[str] | None = None) -> int:
    from companion.ui.i18n import languages

    parser = argparse.ArgumentParser(description="Save a PNG of every screen of the app, in "
                                                 "every language, one folder each.")
    parser.add_argument("--out", "-o", type=Path, default=Path("docs/screenshots"),
                        help="the folder that gets one sub-folder per language")
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--language", choices=languages(),
                        help="only this language (default: every language)")
    args = parser.parse_args(argv)
    if args.language is None:  # one process per language: Kivy has one window per process
        import subprocess

        for language in languages():
            subprocess.run([sys.executable, "-m", "companion.ui.screenshots", "--out",
                            str(args.out), "--seed", str(args.seed), "--language", language],
                           check=True)
        return 0
    folder = args.out / args.language
    taken = take_all(folder, seed=args.seed, language=args.language)
    print(f"{len(taken)} screenshots in {folder}: " + ", ".join(p.name for p in taken))
    return 0


if __name__ == "__main__":
    sys.exit(main())
