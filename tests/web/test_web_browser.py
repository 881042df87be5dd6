"""A person's visit, in a real headless Chromium (Debian's, driven by selenium through
Debian's chromedriver; nothing downloaded) against a real ``bridgefiles serve``: the form,
an upload of a corpus file, the report with its findings, diagrams and filters.

Screenshots of the form and of the report (desktop and phone widths) are kept in
``test-artifacts/`` at the top of the tree (gitignored), to be looked at.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the upload service needs the 'web' extra")
pytest.importorskip("selenium", reason="the browser test needs selenium (the 'dev' extra)")

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait
from shared import REAL, REAL_PBN, ROOT
from web_server import serve

CORPUS_FILE = REAL_PBN / "ben__camrose2024_BEN.pbn"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = Path(os.environ.get("BRIDGEFILES_TEST_ARTIFACTS", ROOT / "test-artifacts"))

pytestmark = [
    pytest.mark.skipif(
        not (CHROMIUM.exists() and CHROMEDRIVER.exists()),
        reason="Debian's chromium and chromium-driver are not installed "
               "(scripts/test installs them as root: apt-get install chromium chromium-driver)",
    ),
    pytest.mark.skipif(not CORPUS_FILE.exists(),
                       reason=f"shared corpus not found at {REAL} (tests read it in place)"),
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("browser")
    with serve(tmp, "--workers", "1") as url:
        yield url
    assert os.listdir(tmp / "server-tmp") == [], "the server left files behind"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix="bridgefiles-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)),
                              options=options)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _shot(driver: Any, name: str, width: int, height: int | None = None) -> Path:
    """A screenshot of the whole page at ``width`` (tall enough for the content)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    full = height or min(int(driver.execute_script(
        "return document.documentElement.scrollHeight")), 2400)
    driver.set_window_size(width, full)
    path = ARTIFACTS / name
    assert driver.save_screenshot(str(path))
    return path


def test_upload_a_corpus_file_and_read_its_report(base: str, browser: Any) -> None:
    browser.set_window_size(1280, 900)
    browser.get(base + "/")
    assert "Check a tournament file" in browser.find_element(By.TAG_NAME, "h1").text
    _shot(browser, "form.png", 1280, 900)
    _shot(browser, "form-phone.png", 390, 844)
    browser.set_window_size(1280, 900)

    browser.find_element(By.NAME, "file").send_keys(str(CORPUS_FILE))
    browser.find_element(By.CSS_SELECTOR, "select[name=laws]").send_keys("2017")
    browser.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]").click()
    WebDriverWait(browser, 180).until(ec.presence_of_element_located((By.CSS_SELECTOR,
                                                                       "section.summary")))
    assert CORPUS_FILE.name in browser.find_element(By.TAG_NAME, "h1").text
    findings = browser.find_elements(By.CSS_SELECTOR, "article.board li.finding")
    shown = [f for f in findings if f.is_displayed()]
    # infos are there but start hidden (the box is unchecked): errors and warnings show
    assert shown and len(shown) < len(findings)
    severities = {f.get_attribute("data-severity") for f in shown}
    assert "error" in severities and severities <= {"error", "warning"}
    first = next(b for b in browser.find_elements(By.CSS_SELECTOR, "article.board")
                 if b.is_displayed())
    diagram = first.find_element(By.CSS_SELECTOR, ".diagram")
    assert diagram.is_displayed()
    assert len(diagram.find_elements(By.CSS_SELECTOR, ".hand")) == 4
    assert first.find_elements(By.CSS_SELECTOR, "table.auction td.marked")
    text = first.text
    assert "error" in text and "syntax" in text
    counts = browser.find_element(By.CSS_SELECTOR, "ul.counts").text
    assert "160 boards" in counts and "169 errors" in counts
    browser.execute_script("window.scrollTo(0, 0)")
    _shot(browser, "report.png", 1280)
    _shot(browser, "report-top.png", 960, 1000)  # the README's picture (docs/web-report.png)
    _shot(browser, "report-phone.png", 390)
    browser.set_window_size(1280, 900)

    # the filters: errors off and infos on, only warnings and infos stay, and the boards
    # that have them (the file's findings are errors and infos)
    errors_box = browser.find_element(By.ID, "sev-error")
    errors_box.click()
    assert not errors_box.is_selected()
    browser.find_element(By.ID, "sev-info").click()
    shown = [f for f in browser.find_elements(By.CSS_SELECTOR, "li.finding") if f.is_displayed()]
    severities = {f.get_attribute("data-severity") for f in shown}
    assert "info" in severities and severities <= {"warning", "info"}
    assert any(b.is_displayed() for b in browser.find_elements(By.CSS_SELECTOR, "article.board"))
    errors_box.click()
    assert all(f.is_displayed() for f in browser.find_elements(By.CSS_SELECTOR, "li.finding")[:20])
    # the downloads are links the browser can follow
    links = browser.find_elements(By.CSS_SELECTOR, "nav.downloads a")
    assert [a.text for a in links] == ["PBN", "LIN", "JSON report", "CSV", "Scored file"]


def test_an_error_page_in_the_browser(base: str, browser: Any) -> None:
    browser.get(base + "/no/such/page")
    assert "Not found" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "a.button").get_attribute("href") == base + "/"
