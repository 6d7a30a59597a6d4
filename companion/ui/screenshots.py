"""Screenshots of every screen at 800×480: ``python -m companion.ui.screenshots --out DIR``.

A seeded simulated table (:class:`~companion.session.autoplay.SimulatedTable`) plays a whole
3-player game through the app's session, headless; the first time each screen or prompt
appears, the window is saved. Home, new game, history, settings, the card tray, a refusal and
the French table are taken around it. ``--language fr --out docs/screenshots/fr`` takes the
same screens with the app in French.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

PLAYERS = ("Ana", "Ben", "Chloé")
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

    def __init__(self, driver: Any, out: Path, language: str = "en") -> None:
        self.driver, self.out, self.language = driver, out, language
        self.taken: list[Path] = []
        self.plays = 0
        self.rounds = 0

    def shoot(self, name: str) -> None:
        self.taken.append(self.driver.screenshot(self.out / f"{name}.png"))

    def on_step(self, _step: Any) -> None:
        driver, app = self.driver, self.driver.app
        view = app.session.view
        names = {path.stem for path in self.taken}
        kind = view.prompt.kind
        if len(view.round_scores) > self.rounds:
            self.rounds = len(view.round_scores)
            driver.settle()
            if "13-round-result" not in names:
                _wait(driver, 1.5)  # the tokens' move
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
        driver.pump()

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

        for child in list(Window.children):
            if child is not app.root:
                child.dismiss()
        driver.pump(3)
        state = app.session.view.state
        wrong = next(k for k in range(5) if k != state["noah"] and state["ferries"][k])
        app.act("move_noah", wrong)
        driver.settle()
        self.shoot("18-refused")
        app.root.alert.hide()
        if self.language != "en":
            return
        app.lang = "fr"
        driver.pump(3)
        self.shoot("19-table-fr")
        app.act("move_noah", wrong)
        driver.settle()
        self.shoot("21-refused-fr")
        app.root.alert.hide()
        app.lang = "en"
        driver.pump(3)


def _wait(driver: Any, seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        driver.pump()
        time.sleep(0.01)


def take_all(out: Path, *, seed: int = 2, language: str = "en") -> list[Path]:
    """Play one seeded game and save every screen in ``out``; returns the files."""
    from companion.game import Options
    from companion.session.autoplay import SimulatedTable
    from companion.ui.driver import HeadlessApp

    work = Path(tempfile.mkdtemp(prefix="noah-shots-"))
    out.mkdir(parents=True, exist_ok=True)
    with HeadlessApp(work, simulate=True, language=language) as driver:
        app = driver.app
        photographer = Photographer(driver, out, language)
        driver.settle()
        photographer.shoot("01-home")
        app.open_new_game(score_only=False)
        driver.pump(3)
        photographer.shoot("02-new-game")
        app.go("home")
        table = SimulatedTable(app.session, PLAYERS, seed=seed,
                               options=Options(hidden=True, frog=True, crocodile=True),
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
        _snail_side(driver, photographer)
        _score_only(driver, photographer)
    return photographer.taken


def _snail_side(driver: Any, photographer: Photographer) -> None:
    """A 2-player game (snails are in the box) set up by touch, then a snail shown: which side
    is up? (With the promo animals a 3-player box has no snail.)"""
    from companion.ui.application import tray_cards

    app = driver.app
    app.leave_game()
    app.start_game(list(PLAYERS[:2]), ["red", "blue"], {}, score_only=False)
    app.act("choose_noah_start", 0)
    cards = tray_cards(app.session.game.cards_in_play, {})
    for ref in (ref for ref in cards if not ref.startswith("snail")):
        if app.session.view.prompt.kind != "scan_setup_card":
            break
        app.act("choose_card", ref)
    app.act("choose_starter", 0)
    app.act("choose_card", next(ref for ref in cards if ref.startswith("snail")))
    driver.settle()
    app.root.alert.hide()
    photographer.shoot("07-prompt-snail-side")
    app.act("cancel")


def _score_only(driver: Any, photographer: Photographer) -> None:
    app = driver.app
    app.leave_game()
    app.start_game(list(PLAYERS), ["red", "blue", "green"], {}, score_only=True)
    driver.settle()
    photographer.shoot("20-score-only-tears")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Save a PNG of every screen of the app.")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--language", default="en", help="the app's language (en, fr, zh)")
    args = parser.parse_args(argv)
    taken = take_all(args.out, seed=args.seed, language=args.language)
    print(f"{len(taken)} screenshots in {args.out}: " + ", ".join(p.name for p in taken))
    return 0


if __name__ == "__main__":
    sys.exit(main())
