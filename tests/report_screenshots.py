"""Screenshots of a report in headless Chromium, for docs/img (the way tests/test_report.py opens it).

    python -m tests.report_screenshots OUTDIR/report.html docs/img/report-weather-after

writes ``…-top.png`` (tables and charts) and ``…-explorer.png`` (the first cards).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path


def screenshots(report: Path, stem: Path, width: int = 1280, height: int = 1600) -> list[Path]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import CHROMEDRIVER, CHROMIUM

    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                     "--disable-background-networking", f"--window-size={width},{height}", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        try:
            driver.get(report.resolve().as_uri())
            WebDriverWait(driver, 20).until(
                lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "true")
            written = [stem.with_name(stem.name + "-top.png"), stem.with_name(stem.name + "-explorer.png")]
            driver.save_screenshot(str(written[0]))
            driver.execute_script("document.getElementById('explorer').scrollIntoView()")
            driver.save_screenshot(str(written[1]))
            return written
        finally:
            driver.quit()


if __name__ == "__main__":
    for path in screenshots(Path(sys.argv[1]), Path(sys.argv[2])):
        print(path)
