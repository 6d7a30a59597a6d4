"""The LAN page in a real browser (Debian's chromium, headless, on loopback)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.conftest import TOKEN, base, wait_for


def _text(browser, element_id: str) -> str:
    """An element's text, read in one script call: the page redraws its parts at every event,
    so an element found first and read after may be gone (a stale reference)."""
    return browser.execute_script(
        "const e = document.getElementById(arguments[0]); return e ? e.innerText : '';",
        element_id)


def _texts(browser, css: str) -> list[str]:
    """The texts of every element ``css`` selects, read in one script call."""
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((e) => e.innerText);", css)


def _shown(browser, element_id: str) -> bool:
    return browser.execute_script(
        "const e = document.getElementById(arguments[0]);"
        "return !!e && e.getClientRects().length > 0;", element_id)


def test_without_the_token_the_page_says_to_scan_again_and_shows_no_game(table, browser):
    server = table.record
    for query in ("", "?token=wrong-token-000"):
        browser.get(base(server) + "/" + query)
        body = browser.find_element(By.TAG_NAME, "body").text
        assert "Scan the QR code" in body
        assert "Ana" not in body and "Ben" not in body


def test_the_page_shows_the_table_and_score_sheet_then_follows_an_action(table, browser):
    session, server = table.session, table.record
    browser.get(f"{base(server)}/?token={TOKEN}")
    wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#ferries .ferry"), "the ferries")
    ferries = browser.find_elements(By.CSS_SELECTOR, "#ferries .ferry")
    assert len(ferries) == 5
    assert browser.find_elements(By.CSS_SELECTOR, ".animal img")  # the animals' pictures
    sheet = _text(browser, "sheet")
    assert "Chloé" in sheet and "R3" in sheet and "Total" in sheet
    assert "Won by" in _text(browser, "winners")  # the end of game 1, with its winner
    version = int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-version"))

    session.new_game(["Zoé", "Yves", "Xavier"], score_only=True)  # an accepted action
    session.enter_tears([1, 2, 3])

    def followed() -> bool:
        body = browser.find_element(By.TAG_NAME, "body")
        return int(body.get_attribute("data-version") or 0) > version and "Zoé" in \
            _text(browser, "sheet") and "R1" in _text(browser, "sheet")

    wait_for(followed, "the page to follow the new game")
    assert "Game 1" in _text(browser, "past")  # the finished game moved to the past games


def test_a_complot_table_shows_its_claims_cards_and_end_in_the_same_browser(tmp_path, browser):
    """Complot on the page (C44, C55): the players to the target, a refused claim and an
    accepted one with their cards drawn, live after an action; at the end the winner, and no
    BG Stats button (its kind has no link) but a sentence saying to take the CSV."""
    from companion.complot.session import ComplotSession
    from companion.game import default_deck
    from companion.session import GameStore
    from companion.web.screenshots import play_complot
    from companion.web.server import WebServer
    from tests.web.conftest import LOOPBACK

    store = GameStore(tmp_path / "complot.sqlite")
    session = ComplotSession(store)
    server = WebServer(store.path, default_deck(), settings=LOOPBACK, token=TOKEN, language="fr",
                       follow_record=False)
    server.start()
    unsubscribe = server.follow(session)
    try:
        play_complot(session, ("Ana", "Ben", "Chloé"), target=100, claims=2)
        browser.get(f"{base(server)}/?token={TOKEN}")
        wait_for(lambda: len(_texts(browser, "#claims .claim")) == 2, "the two claims")
        seats = _text(browser, "seats")
        assert "a posé" in seats and "passe un tour" in seats and "sur 100" in seats
        leonard = _texts(browser, "#claims .claim.accepted .card.cat-LE")
        assert "Amélie" in leonard[0] and "Léonard" in leonard[0]
        assert _texts(browser, "#claims .claim.wrong .card")
        assert "M1" not in _text(browser, "sheet")  # no manche over yet

        session.close_game()
        play_complot(session, ("Ana", "Ben", "Chloé"), target=100)
        wait_for(lambda: _shown(browser, "end"), "the game's end")
        assert "gagne avec" in _text(browser, "winners")
        wait_for(lambda: _shown(browser, "bgstats"), "BG Stats' button (issue 21)")
        assert not _shown(browser, "bgstats-none")
        assert "/bgstats/" in browser.find_element(By.ID, "bgstats").get_attribute("href")
        assert "M2" in _text(browser, "sheet")
        past = _text(browser, "past")
        assert "Complot à l'Élysée" in past  # the first game, not finished, with its kind
    finally:
        unsubscribe()
        server.stop()
        store.close()
