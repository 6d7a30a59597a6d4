"""Debian's chromium, headless, through selenium: the page's tests and its screenshots.

Flags as PLATFORM-NOTES.md measured them (no sandbox as root, no GPU, nothing fetched in the
background) and a fresh profile per browser. Needs apt's ``chromium`` and ``chromium-driver``
(run.sh installs them) and selenium (the ``test`` extra).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.errors import UserError

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


@contextmanager
def chromium(width: int = 390, height: int = 844, language: str = "en") -> Iterator[Any]:
    """A headless chromium window of ``width``×``height`` CSS pixels (a phone by default)."""
    driver_path = shutil.which("chromedriver")
    if driver_path is None or shutil.which("chromium") is None:
        raise UserError("Debian's chromium and chromium-driver are not installed.",
                        "Run ./run.sh setup (or: sudo apt-get install chromium chromium-driver).")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="noah-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "chromium"
        for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
                     f"--lang={language}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        try:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": True})
            yield driver
        finally:
            driver.quit()
