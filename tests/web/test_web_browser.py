"""A person's visit, in a real headless Chromium (Debian's, driven by selenium through
Debian's chromedriver; nothing downloaded) against a real ``bridgefiles serve``: the form,
an upload of a corpus file, the report with its findings, diagrams and filters; a clean
pairs event's results; a vugraph match whose play does not fit its deals.

Screenshots of the form and of the reports (desktop and phone widths) are kept in
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
from shared import FIXTURES, REAL, REAL_LIN, REAL_PBN, ROOT
from web_server import serve

CORPUS_FILE = REAL_PBN / "ben__camrose2024_BEN.pbn"
PAIRS = REAL_PBN / "pbntools__wb120802.pbn"
VUGRAPH = REAL_LIN / "vugraph" / "bph__36910.lin"
FAULTY = REAL_PBN / "pybcdd__faulty.pbn"
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
    # (Lark keeps its parse tables in a cache file of the temporary folder: not a request's)
    left = [n for n in os.listdir(tmp / "server-tmp") if not n.startswith(".lark_cache")]
    assert left == [], f"the server left files behind: {left}"


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
    assert "warning" in severities and severities <= {"error", "warning"}
    first = next(b for b in browser.find_elements(By.CSS_SELECTOR, "article.board")
                 if b.is_displayed() and b.find_elements(By.CSS_SELECTOR, "li.finding"))
    diagram = first.find_element(By.CSS_SELECTOR, ".diagram")
    assert diagram.is_displayed()
    assert len(diagram.find_elements(By.CSS_SELECTOR, ".hand")) == 4
    assert first.find_elements(By.CSS_SELECTOR, "table.auction td.marked")
    text = first.text
    assert "warning" in text and "dialect" in text  # BEN's 1N, read as 1NT
    counts = browser.find_element(By.CSS_SELECTOR, "ul.counts").text
    assert "160 boards" in counts and "0 errors" in counts and "169 warnings" in counts
    browser.execute_script("window.scrollTo(0, 0)")
    _shot(browser, "report.png", 1280)
    _shot(browser, "report-phone.png", 390)
    browser.set_window_size(1280, 900)

    # the filters: warnings off and infos on, only errors and infos stay, and the boards
    # that have them (the file's findings are warnings and infos)
    warnings_box = browser.find_element(By.ID, "sev-warning")
    warnings_box.click()
    assert not warnings_box.is_selected()
    browser.find_element(By.ID, "sev-info").click()
    shown = [f for f in browser.find_elements(By.CSS_SELECTOR, "li.finding") if f.is_displayed()]
    severities = {f.get_attribute("data-severity") for f in shown}
    assert "info" in severities and severities <= {"error", "info"}
    assert any(b.is_displayed() for b in browser.find_elements(By.CSS_SELECTOR, "article.board"))
    warnings_box.click()
    assert all(f.is_displayed() for f in browser.find_elements(By.CSS_SELECTOR, "li.finding")[:20])
    # the downloads are links the browser can follow
    links = browser.find_elements(By.CSS_SELECTOR, "nav.downloads a")
    assert [a.text for a in links] == ["PBN", "LIN", "JSON report", "CSV", "Scored file",
                                       "USEBIO", "BRI", "DGE", "DUP", "DLM", "RBN"]


def test_an_error_page_in_the_browser(base: str, browser: Any) -> None:
    browser.get(base + "/no/such/page")
    assert "Not found" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "a.button").get_attribute("href") == base + "/"


def _upload(browser: Any, base: str, path: Path) -> None:
    browser.set_window_size(1280, 900)
    browser.get(base + "/")
    browser.find_element(By.NAME, "file").send_keys(str(path))
    browser.find_element(By.CSS_SELECTOR, "form.upload button[type=submit]").click()
    WebDriverWait(browser, 180).until(ec.presence_of_element_located((By.CSS_SELECTOR,
                                                                       "section.summary")))
    assert path.name in browser.find_element(By.TAG_NAME, "h1").text


def test_a_clean_pairs_event_shows_its_results(base: str, browser: Any) -> None:
    """``results-pairs.png`` shows the summary (216 boards, 0 errors, "0 boards with
    findings"), the Standings table (Rank, Pair, Names, Boards, MP, %: "1 Para-14 &
    Para-14 27 232 61.38" on top, 17 rows), then board 1 (the file records no auctions or
    play): "Score EW 50 · MP NS 12 EW 2 · % NS 85.71 EW 14.29", its diagram with the
    pairs' names, and the traveller of its 8 tables (NS, EW, contract, declarer, result,
    scores, MP and % of each side); board 2 below the same way."""
    _upload(browser, base, PAIRS)
    standings = browser.find_element(By.CSS_SELECTOR, "table.standings")
    assert standings.is_displayed()
    rows = standings.find_elements(By.CSS_SELECTOR, "tbody tr")
    assert len(rows) == 17 and rows[0].text.split()[:2] == ["1", "Para-14"]
    boards = browser.find_elements(By.CSS_SELECTOR, "article.board")
    assert len(boards) == 27 and all(b.is_displayed() for b in boards)
    traveller = boards[0].find_element(By.CSS_SELECTOR, "table.traveller")
    assert traveller.is_displayed()
    assert len(traveller.find_elements(By.CSS_SELECTOR, "tbody tr")) == 8
    assert "MP NS" in traveller.text and "85.71" in traveller.text
    assert "No findings" in browser.find_element(By.ID, "boards").text
    _shot(browser, "results-pairs.png", 1280)
    _shot(browser, "results-pairs-phone.png", 390)


def test_a_vugraph_whose_play_does_not_fit_its_deals(base: str, browser: Any) -> None:
    """``report-vugraph.png`` (also the README's ``docs/web-report.png``, its top) shows
    the summary (16 boards, 287 errors, 15 boards with findings), the match's standings
    (McIntosh 18 IMP 14.63 VP, Gillis 6 IMP 5.37 VP), and board 49 (Open):
    one finding "the play does not fit this deal from trick 1: West does not hold D6" with
    "30 more card(s) after it are not held either", the diagram, the auction, the play grid
    in N E S W columns with the ♦6 underlined as West's lead, the ♦A boxed in blue as
    East's win and "W · E" at the end of the row (the cards not held are also marked red),
    and the traveller of both rooms: Open 1SX S 4 -500 -8/+8 IMP, Closed 2S W 9."""
    _upload(browser, base, VUGRAPH)
    board = browser.find_element(By.CSS_SELECTOR, "article.board")
    findings = board.find_elements(By.CSS_SELECTOR, "li.finding")
    assert len(findings) == 1 and "does not fit this deal from trick 1" in findings[0].text
    grid = board.find_element(By.CSS_SELECTOR, "table.play")
    heads = [th.text for th in grid.find_elements(By.CSS_SELECTOR, "thead th")]
    assert heads[1:5] == ["N", "E", "S", "W"]
    first = grid.find_elements(By.CSS_SELECTOR, "tbody tr")[0]
    assert first.find_element(By.CSS_SELECTOR, "td.led").text == "♦6"
    assert first.find_element(By.CSS_SELECTOR, "td.won").text == "♦A"
    assert first.find_element(By.CSS_SELECTOR, "td.who-won").text == "W · E"
    assert "IMP NS" in board.find_element(By.CSS_SELECTOR, "table.traveller").text
    browser.execute_script("window.scrollTo(0, 0)")
    _shot(browser, "report-vugraph.png", 1280)
    _shot(browser, "report-top.png", 960, 1400)  # the README's picture (docs/web-report.png)


def test_a_faulty_deal_names_its_cards_in_the_browser(base: str, browser: Any) -> None:
    """``report-faulty.png`` shows board 1 clean (its diagram only) and board 2's deal
    error "hands hold different numbers of cards [10, 13, 13, 13]" with "missing (3): ♥A
    ♥J ♥9" below it, over North's diagram with an empty heart suit (—)."""
    _upload(browser, base, FAULTY)
    finding = browser.find_element(By.CSS_SELECTOR, "li.finding[data-code=deal]")
    assert "missing (3):" in finding.find_element(By.CSS_SELECTOR, ".detail").text
    _shot(browser, "report-faulty.png", 1280)


def test_the_report_offers_the_exchange_downloads(base: str, browser: Any) -> None:
    """``downloads-phone.png`` shows the summary of ``scoring-pairs.pbn`` and its download
    buttons, USEBIO, BRI, DGE, DUP, DLM and RBN among them, wrapped within a phone's width,
    and under them the line that says what those outputs keep and where their losses are
    counted. (Nothing is downloaded: the links are checked, the files are the API's.)"""
    _upload(browser, base, FIXTURES / "scoring-pairs.pbn")
    nav = browser.find_element(By.CSS_SELECTOR, "nav.downloads")
    links = {a.text: a for a in nav.find_elements(By.TAG_NAME, "a")}
    for label, kind in (("USEBIO", "usebio"), ("BRI", "bri"), ("DGE", "dge"), ("DUP", "dup"),
                        ("DLM", "dlm"), ("RBN", "rbn")):
        link = links[label]
        assert link.is_displayed()
        assert link.get_attribute("href").endswith(f"/{kind}")
        assert link.get_attribute("download") is not None
    assert "USEBIO 1.2 XML" in links["USEBIO"].get_attribute("title")
    losses = browser.find_element(By.CSS_SELECTOR, "p.losses")
    assert losses.is_displayed() and "lost-in-conversion" in losses.text
    browser.set_window_size(390, 900)
    assert browser.execute_script(
        "const n = document.querySelector('nav.downloads');"
        "return n.scrollWidth <= n.clientWidth && "
        "document.documentElement.scrollWidth <= window.innerWidth;")
    _shot(browser, "downloads-phone.png", 390, 900)
