"""Screenshots of the LAN page at 390×844 (a phone): ``python -m companion.web.screenshots``.

A record with a finished game (examples/three-players.jsonl) and a seeded four-player game
played with mishaps (refusals, an undo) up to round 2 through the referee session, whose views
feed the page as in the app; headless chromium (:mod:`companion.web.browser`) takes, per
language: the page without its token, the live table (the phone's first screen and the whole
page), and the end of the game with its BG Stats button. Then Complot à l'Élysée with 2 and 6
players (:func:`play_complot`: claims accepted and refused, a turn to pass): the live table
with the cards laid down, and the end with its winner (``complot-live|end-LANG-Np.png``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from companion.complot.session import ComplotSession
from companion.game import Options, default_deck
from companion.session import GameStore, Session
from companion.sim.autoplay import SimulatedTable
from companion.web.server import WebServer
from companion.web.settings import WebSettings

EXAMPLE = Path(__file__).parents[2] / "examples" / "three-players.jsonl"
PLAYERS = ("Ana", "Ben", "Chloé", "Dominique")
WIDTH, HEIGHT = 390, 844
COMPLOT_PLAYERS = ("Ana", "Ben", "Chloé", "Dominique", "Élise", "François")


class Enough(Exception):
    """Stops the seeded game where the screenshot wants it."""


def record(folder: Path) -> tuple[GameStore, Session]:
    store = GameStore(folder / "games.sqlite")
    header, *lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    game_id = store.create_game(json.loads(header))
    for line in lines:
        store.append(game_id, json.loads(line))
    return store, Session(store)


def play_until_round(session: Session, round_number: int, seed: int = 4) -> None:
    """A seeded game with mishaps, stopped in ``round_number`` just after a refusal."""

    steps = 0

    def step(_: Any) -> None:
        nonlocal steps
        view = session.view
        if view.state.get("round", 1) < round_number or view.prompt.kind != "play_card":
            return
        steps += 1
        if steps > 12 or any(notice.level == "refused" for notice in view.notices[-2:]):
            raise Enough

    table = SimulatedTable(session, PLAYERS, seed=seed, mishaps=True, on_step=step,
                           options=Options(hidden=True, frog=True))
    with contextlib.suppress(Enough):
        table.play()


@contextlib.contextmanager
def following(store: GameStore, session: Any, language: str) -> Iterator[tuple[str, Any]]:
    """A page server fed by ``session``'s views, as in the app, and a phone-sized chromium:
    the page's address (without its token) and the browser. The record is closed after."""
    from companion.web.browser import chromium

    server = WebServer(store.path, default_deck(), language=language, token="screenshot-token",
                       follow_record=False,
                       settings=WebSettings(enabled=True, port=0, host="127.0.0.1", mdns=False))
    server.start()
    unsubscribe = server.follow(session)
    try:
        with chromium(WIDTH, HEIGHT, language) as browser:
            yield f"http://127.0.0.1:{server.port}/", browser
    finally:
        unsubscribe()
        server.stop()
        store.close()


def take(out: Path, language: str) -> list[Path]:
    store, session = record(Path(tempfile.mkdtemp(prefix="noah-web-shots-")))
    taken = []
    with following(store, session, language) as (page, browser):
        browser.get(page)
        taken.append(_shot(browser, out / f"web-no-token-{language}.png"))
        play_until_round(session, 2)
        browser.get(f"{page}?token=screenshot-token")
        _wait(browser, "#ferries .ferry")
        taken.append(_shot(browser, out / f"web-live-{language}.png"))
        taken.append(_shot(browser, out / f"web-live-full-{language}.png", full=True))
        session.close_game()
        session.resume(1)
        _wait(browser, "#end:not([hidden])")
        taken.append(_shot(browser, out / f"web-end-{language}.png"))
    return taken


#: Claims a Complot table makes, in turn (C31: the classic combinations; one that is wrong).
CLAIMS = (
    ("leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma", "leonard:sally",
     "leonard:sarah"),
    ("alphas:karl", "alphas:naomie", "alphas:sally", "duron:camille", "leonard:amelie",
     "espions:elena"),  # no combination: refused, the claimant passes a turn (C44)
    ("duron:camille", "duron:clara", "duron:david", "espions:abigail", "espions:amelie",
     "espions:arthur"),  # two trios, 15
    ("alphas:karl", "alphas:naomie", "alphas:sally", "alphas:sandy", "alphas:sophie",
     "archange:noe"),  # five Alphas, 75
    ("empires:henri", "empires:karl", "empires:marie", "empires:max", "empires:noe",
     "empires:sarah"),  # six Empires, 50
)


def play_complot(session: ComplotSession, players: tuple[str, ...], *, target: int = 150,
                 claims: int | None = None) -> None:
    """A Complot game at a real table, scripted: each turn ends, then the next player claims
    the next of :data:`CLAIMS`; new manches are dealt until the target (or ``claims`` claims
    judged)."""
    session.new_game(list(players), target=target)
    judged = 0
    while session.view.phase != "game_over" and (claims is None or judged < claims):
        if session.view.phase == "manche_over":
            session.next_manche()
            continue
        session.next_turn()
        view = session.view
        if view.current is not None:
            session.claim(view.current, "complot", CLAIMS[judged % len(CLAIMS)])
            judged += 1


def take_complot(out: Path, language: str, players: tuple[str, ...]) -> list[Path]:
    """The page following a Complot table of ``players``: live, then at the game's end."""
    store = GameStore(Path(tempfile.mkdtemp(prefix="noah-web-shots-")) / "games.sqlite")
    session = ComplotSession(store)
    name = f"{language}-{len(players)}p"
    taken = []
    with following(store, session, language) as (page, browser):
        play_complot(session, players, claims=min(4, len(players)))
        if session.view.phase == "manche":  # a turn whose discard was shown: the top known
            session.next_turn("empires:marie")
        browser.get(f"{page}?token=screenshot-token")
        _wait(browser, "#seats .seat")
        taken.append(_shot(browser, out / f"complot-live-{name}.png", full=True))
        session.close_game()
        play_complot(session, players)
        _wait(browser, "#end:not([hidden])")
        taken.append(_shot(browser, out / f"complot-end-{name}.png"))
    return taken


def _wait(browser: Any, css: str, timeout: float = 20.0) -> None:
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + timeout
    while not browser.find_elements(By.CSS_SELECTOR, css):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page never showed {css}")
        time.sleep(0.05)
    time.sleep(0.3)  # the pictures of the animals finish loading


def _shot(browser: Any, path: Path, *, full: bool = False) -> Path:
    height = browser.execute_script("return document.documentElement.scrollHeight") if full \
        else HEIGHT
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": WIDTH, "height": height, "deviceScaleFactor": 1, "mobile": True})
    path.parent.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(path))
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": True})
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots/web"))
    parser.add_argument("--language", action="append", help="en, fr, zh (default: all three)")
    parser.add_argument("--game", choices=("noah", "complot"), action="append",
                        help="whose pages (default: both)")
    args = parser.parse_args(argv)
    games = args.game or ["noah", "complot"]
    for language in args.language or ["en", "fr", "zh"]:
        shots = take(args.out, language) if "noah" in games else []
        if "complot" in games:
            for players in (COMPLOT_PLAYERS[:2], COMPLOT_PLAYERS):
                shots += take_complot(args.out, language, players)
        for path in shots:
            print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
