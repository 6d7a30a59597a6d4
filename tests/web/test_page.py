"""The LAN page in a real browser (Debian's chromium, headless, on loopback)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.conftest import TOKEN, base, wait_for


def _text(browser, element_id: str) -> str:
    return browser.find_element(By.ID, element_id).text


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
