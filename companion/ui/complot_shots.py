"""Screenshots of every Complot screen at 800×480:
``python -m companion.ui.complot_shots --out docs/screenshots/complot``.

A scripted table goes through every screen, by the same calls the buttons make: the home
screen with Complot chosen, the new game, play (the hand counts and the top of the
«défausse»), the picker (an announcement, an action, a turn's discard), the
verdicts (accepted, refused, an action, a defence), the manche's end, the score track after
six manches, the game's end (shared between two players when more than two play), the
scores-only entry (its end with BG Stats' code, the LAN page off and on) and a damaged game's
choices. The picker is taken with a card just read by
the hand camera. Each table size is taken (``-2p``, ``-6p`` by default), each language in
its own folder (``en/``, ``fr/``, ``zh/``; one process each: Kivy has one window per process).

The layout test runs the same tour with :func:`tour` and a ``shoot`` that checks the screen
instead of saving it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from companion.ui.screenshots import LONG_NAMES

#: Long names, up to the six players of Complot.
NAMES = (*LONG_NAMES, "Françoise-Hélène")
COUNTS = (2, 6)
#: A six of Léonard (50 points as «Complot !»; a wrong «Prix Pulitzer !»).
LEONARDS = ("leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
            "leonard:sally", "leonard:sarah")
#: Two trios with two jokers (15 points, C25).
TWO_TRIOS = ("pompiers:camille", "pompiers:clara", "pompiers:etienne", "duron:jacquotte",
             "archange:gabrielle", "archange:igor")
DESCENTE = ("enqueteurs:max", "enqueteurs:emma", "enqueteurs:clara")
DEFENCE = "etat-major:sophie"  # Contre-Amirale outranks Max, the senior Enquêteur (C64)
TURNED_UP = "duron:noe"  # the first card of the «défausse» (C11)
DISCARDED = "espions:karl"  # a turn's discard, the top taken first (C13)
Shoot = Callable[[str], Any]


def tour(driver: Any, shoot: Shoot, players: Sequence[str]) -> None:
    """Every Complot screen for a table of ``players``, each handed to ``shoot(name)``."""
    from companion.ui.complot import complot_screens

    screens = complot_screens(driver.app)
    _home(driver, shoot)
    _new_game(driver, screens, shoot, players)
    _cards_game(driver, screens, shoot)
    _scores_only(driver, screens, shoot, players)
    _damaged(driver, screens, shoot, players)
    screens.leave()
    driver.pump(2)


def _home(driver: Any, shoot: Shoot) -> None:
    app = driver.app
    app.go("home")
    home = app.root.sm.get_screen("home")
    home.game = "complot"
    driver.pump()
    shoot("01-home")


def _new_game(driver: Any, screens: Any, shoot: Shoot, players: Sequence[str]) -> None:
    home = driver.app.root.sm.get_screen("home")
    home.new_game(score_only=False)
    screen = screens.screen("complot_new")
    while len(screen.rows()) < len(players):
        screen.add_player()
    while len(screen.rows()) > len(players):
        screen.remove_player(screen.rows()[-1])
    for row, name in zip(screen.rows(), players, strict=True):
        row.ids.name.text = name
    screen.level = 3
    driver.pump()
    shoot("02-new-game")
    screen.start()
    driver.pump()


def _cards_game(driver: Any, screens: Any, shoot: Shoot) -> None:
    """A level-3 manche: a wrong announcement, a descente stopped, a turn ended, two trios
    accepted."""
    session = screens.session
    screens.defausse(TURNED_UP, "top")  # the card turned up at the deal, shown (C11)
    driver.pump()
    shoot("03-play")
    _judge(driver, screens, "claim", LEONARDS, words="prix_pulitzer")
    shoot("07-verdict-refused")
    picker = _pick(driver, screens, "discard", (DISCARDED,))
    picker.take_top()
    driver.pump()
    shoot("17-pick-discard")
    picker.check()  # Next turn, the card discarded now on top of the «défausse»
    driver.pump()
    shoot("04-play-must-pass")
    picker = _pick(driver, screens, "action", DESCENTE)
    picker.aim(0)
    driver.pump()
    shoot("08-pick-action")
    picker.check()
    driver.pump()
    shoot("09-verdict-action")
    screens.table()  # the descente waits for its defence: its actor holds 4 cards (C63)
    driver.pump()
    shoot("18-play-action")
    _judge(driver, screens, "defence", (DEFENCE,))
    shoot("10-verdict-defence")
    session.next_turn()  # the one who has just ended a turn may still announce: who does?
    picker = _pick(driver, screens, "claim", TWO_TRIOS[:4])
    screens.add_card(TWO_TRIOS[4], read=True)  # read by the hand camera: "✓ … read"
    picker.show_category("PO")
    driver.pump()
    shoot("05-pick")
    picker.add_card(TWO_TRIOS[5])
    picker.check()
    driver.pump()
    shoot("06-verdict-accepted")
    if screens.session.view.phase == "manche":
        screens.request(session.end_manche)
    screens.table()
    driver.pump()
    shoot("11-manche-over")


def _pick(driver: Any, screens: Any, mode: str, cards: Sequence[str]) -> Any:
    screens.open_picker(mode)
    picker = screens.screen("complot_pick")
    for card in cards:
        picker.add_card(card)
    driver.pump()
    return picker


def _judge(driver: Any, screens: Any, mode: str, cards: Sequence[str],
           words: str = "complot") -> None:
    picker = _pick(driver, screens, mode, cards)
    picker.say(words)
    picker.check()
    driver.pump()


def _scores_only(driver: Any, screens: Any, shoot: Shoot, players: Sequence[str]) -> None:
    """Scores only to 400: the entry, six manches of Élysées, then two manches of 50 points
    for seats 0 and 1 (shared victory with three players or more)."""
    session = screens.session
    screens.start(list(players), level=1, target=400, scores_only=True)
    quick = screens.screen("complot_quick")
    quick.choose(1)
    driver.pump()
    shoot("12-quick")
    quick.record("six_leonards")
    driver.pump()
    shoot("13-quick-recorded")
    screens.request(session.undo)
    for manche in range(6):
        session.claim_points(manche % 2, "complot_elysee")
        session.next_manche()
    screens.table()
    screens.go("complot_scores")
    driver.pump()
    shoot("14-score-track")
    for _ in range(2):
        session.claim_points(0, "six_empires")
        if session.view.phase == "manche":
            session.claim_points(1, "six_leonards")
        if session.view.phase == "manche":
            session.end_manche()
        if session.view.phase != "game_over":
            session.next_manche()
    screens.table()
    driver.pump()
    shoot("15-game-end")
    _with_the_page_on(driver, screens, shoot)


def _with_the_page_on(driver: Any, screens: Any, shoot: Shoot) -> None:
    """The game's end as drawn when the LAN page is on: BG Stats' code is the page's short
    link (an example address; no server is started for a picture)."""
    from types import SimpleNamespace

    app = driver.app
    app.web_server = SimpleNamespace(host="192.168.1.23", port=8321, token="k3Vq9ZtL0aR7xWmN")
    try:
        screens.screen("complot_scores").code.refresh()
        driver.pump()
        shoot("19-game-end-page-on")
    finally:
        app.web_server = None
        screens.screen("complot_scores").code.refresh()


def _damaged(driver: Any, screens: Any, shoot: Shoot, players: Sequence[str]) -> None:
    """A game whose record breaks at its third line: Resume offers the three choices; the
    game is deleted afterwards (the app's record stays as it was)."""
    from kivy.core.window import Window

    from companion.ui.complot import resume
    from companion.ui.damaged import DamagedGamePopup
    from companion.ui.screenshots import damage

    app, session = driver.app, screens.session
    screens.start(list(players), level=1, target=400, scores_only=False)
    game = session.view.game_id
    screens.request(session.next_turn)
    screens.leave()
    damage(app, game, "not JSON at all")
    resume(app, game)
    driver.pump(2)
    shoot("16-damaged-game")
    for popup in [w for w in Window.children if isinstance(w, DamagedGamePopup)]:
        popup.dismiss()
    app.act(session.delete_game, game)
    driver.pump(2)


def take_all(out: Path, *, language: str = "en", counts: Sequence[int] = COUNTS) -> list[Path]:
    """Every Complot screen for each table size in ``counts``, saved in ``out``."""
    from companion.ui.driver import HeadlessApp

    taken: list[Path] = []
    out.mkdir(parents=True, exist_ok=True)
    with HeadlessApp(Path(tempfile.mkdtemp(prefix="complot-shots-")), simulate=True,
                     language=language) as driver:
        for count in counts:
            def shoot(name: str, suffix: str = f"-{count}p") -> None:
                taken.append(driver.screenshot(out / f"{name}{suffix}.png"))

            tour(driver, shoot, NAMES[:count])
    return taken


def main(argv: list[str] | None = None) -> int:
    from companion.i18n import languages

    parser = argparse.ArgumentParser(description="Save a PNG of every Complot screen, in "
                                                 "every language, one folder each.")
    parser.add_argument("--out", "-o", type=Path, default=Path("docs/screenshots/complot"))
    parser.add_argument("--language", choices=languages())
    parser.add_argument("--players", type=int, choices=range(2, 7), action="append",
                        help="only the tables of this size (repeatable; default: 2 and 6)")
    args = parser.parse_args(argv)
    counts = args.players or COUNTS
    if args.language is None:
        import subprocess

        for language in languages():
            subprocess.run([sys.executable, "-m", "companion.ui.complot_shots", "--out",
                            str(args.out), "--language", language,
                            *(f"--players={count}" for count in counts)], check=True)
        return 0
    folder = args.out / args.language
    taken = take_all(folder, language=args.language, counts=counts)
    print(f"{len(taken)} screenshots in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
