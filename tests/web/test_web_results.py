"""The report page as a director reads it, on real files: each board's traveller and the
event's standings as ``bridgefiles score`` computes them, the play grid in N E S W order
with leader and winner of each trick, one finding for a play that does not fit its deal,
a faulty deal's cards named, and a hostile file's page within its output budget.
"""

from __future__ import annotations

import html
import itertools
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the upload service needs the 'web' extra")

with warnings.catch_warnings():  # starlette's note about httpx's successor, at import
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from shared import REAL_LIN, REAL_PBN, need

import bridgefiles as bf
from bridgefiles.limits import Limits
from bridgefiles.model.cards import ALL_CARDS
from bridgefiles.model.seats import Seat
from bridgefiles.web.app import Settings, create_app
from bridgefiles.web.downloads import DOWNLOADS

PAIRS = REAL_PBN / "pbntools__wb120802.pbn"  # a clean 216-record pairs event (MP)
VUGRAPH = REAL_LIN / "vugraph" / "bph__36910.lin"  # a teams match whose play fits no deal
FAULTY = REAL_PBN / "pybcdd__faulty.pbn"  # board 2: North holds 10 cards


@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("uploads")


@pytest.fixture(scope="module")
def client(uploads: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, temp_dir=str(uploads)))) as c:
        yield c
    assert os.listdir(uploads) == []


def _page(client: TestClient, path: Path, data: bytes | None = None, **fields: str) -> str:
    r = client.post("/report", files={"file": (path.name, data or need(path).read_bytes())},
                    data=fields)
    assert r.status_code == 200, r.text[:500]
    page: str = r.text
    return page


def _text(fragment: str) -> str:
    return " ".join(str(html.unescape(re.sub(r"<[^>]+>", " ", fragment))).split())


def _tables(page: str, cls: str) -> list[list[list[str]]]:
    """Every ``table.results.CLS`` of the page, as rows of cell texts (heading row first)."""
    found = []
    for table in re.findall(rf'<table class="results {cls}".*?</table>', page, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        found.append([[_text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)]
                      for r in rows])
    return found


def _scored(path: Path, tmp: Path) -> bf.BridgeFile:
    """The file as ``bridgefiles score`` writes it (through the library), read back."""
    target = tmp / "scored.pbn"
    bf.convert(path, target, to="pbn", score=True, check=False)
    return bf.load(target)


def test_a_clean_pairs_event_shows_travellers_and_standings(client: TestClient,
                                                            tmp_path: Path) -> None:
    page = _page(client, PAIRS)
    assert "No findings" in page
    scored = _scored(PAIRS, tmp_path)
    standings = _tables(page, "standings")
    assert len(standings) == 1
    total = scored.boards[-1].table("TotalScoreTable")
    assert total is not None
    heading, *rows = standings[0]
    assert heading == ["Rank", "Pair", "Names", "Boards", "MP", "%"]
    assert len(rows) == len(total.rows) == 17
    # the page's standings are the library's, row by row (pair names joined by "&")
    for shown, computed in zip(rows, total.rows, strict=True):
        assert shown[0] == computed[0] and shown[-1] == computed[-1]
        assert shown[2] == computed[2].strip('"').replace(";", " & ")
    assert rows[0][:2] == ["1", "Para-14 & Para-14"] and rows[0][-1] == "61.38"
    travellers = _tables(page, "traveller")
    deals = {(b.board_number, b.tag("Deal")) for b in scored.boards}
    assert len(travellers) == len(deals) == 27  # one traveller a deal, not one a record
    first = scored.boards[0].table("ScoreTable")
    assert first is not None
    assert travellers[0][0][-4:] == ["MP NS", "MP EW", "% NS", "% EW"]
    assert [r[-2:] for r in travellers[0][1:]] == [list(r[-2:]) for r in first.rows]
    assert "Para-1 &amp; Para-1" in page and "85.71" in page
    # this table's own score, matchpoints and percentage beside the traveller
    assert re.search(r"<dt>MP</dt><dd>NS 12 EW 2</dd>", page)


def test_the_play_grid_is_n_e_s_w_with_leader_and_winner(client: TestClient) -> None:
    page = _page(client, VUGRAPH)
    grids = re.findall(r'<table class="play".*?</table>', page, re.S)
    assert len(grids) == 14  # the boards drawn that have a play
    for grid in grids:
        heading = re.findall(r"<th[^>]*>(.*?)</th>", grid.split("</thead>")[0])
        assert heading[1:5] == ["N", "E", "S", "W"]  # the same order on every board
    rows = re.findall(r"<tr><th>(\d+)</th>(.*?)</tr>", grids[0], re.S)
    assert len(rows) >= 10
    # board 49 (Open), trick 1: West led the diamond six, East's ace won it (1S by South)
    first = rows[0][1]
    assert _text(first).endswith("W · E")
    cells = re.findall(r'<td class="([^"]*)"[^>]*>(.*?)</td>', first, re.S)
    led = [_text(c) for k, c in cells if "led" in k.split()]
    won = [_text(c) for k, c in cells if "won" in k.split()]
    assert led == ["♦ 6"] and won == ["♦ A"]
    # each trick's winner leads the next
    pairs = [_text(r[1]).rsplit(" ", 3)[-3::2] for r in rows]
    for (_, winner), (leader, _) in itertools.pairwise(pairs):
        if winner != "?":
            assert leader == winner


def test_a_play_that_does_not_fit_its_deal_is_one_finding(client: TestClient) -> None:
    page = _page(client, VUGRAPH)
    findings = re.findall(r'data-code="card-not-held"', page)
    # one on each of the 14 boards that have any (287 cards not held in the JSON report)
    assert len(findings) == 14
    assert "287 errors" in _text(page)
    assert "the play does not fit this deal from trick 1: West does not hold D6" in page
    assert "30 more card(s) after it are not held either" in page
    assert page.count("does not fit this deal") == 13  # board 51 (Open) has one card only
    assert page.count("Law 44: Sequence of play") == 14


def test_a_faulty_deal_names_its_missing_cards(client: TestClient) -> None:
    page = _page(client, FAULTY)
    deal = bf.load(need(FAULTY)).boards[1].deal
    assert deal is not None
    held = {c for seat in Seat for hand in [deal.hand(seat)] if hand for c in hand.cards}
    missing = sorted({c for c in ALL_CARDS if c not in held}, reverse=True)
    assert len(missing) == 3
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    named = " ".join(f"{symbols[c.suit.value]}{c.rank.char}" for c in missing)
    assert f"missing (3): {named}" in page


def test_a_hostile_page_stays_within_its_output_budget(client: TestClient) -> None:
    """20 boards of 2,000 insufficient bids each: every call and finding drawn would make
    a page of megabytes; drawn capped, it stays within the budget of a conversion."""
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    data = "".join(
        f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        f'[Auction "N"]\n1S {" ".join(["1C"] * 2000)}\n\n' for n in range(1, 21)).encode()
    page = _page(client, Path("flood.pbn"), data)
    budget = Limits().output_budget(len(data))
    assert budget is not None and len(page.encode()) <= budget
    assert "more call(s) not drawn" in page
    assert "more finding(s) on this board are not listed" in page
    assert page.count('<li class="finding sev-') == 20 * 50


def test_the_service_never_asks_for_a_format_the_form_has_no_field_for(
        client: TestClient) -> None:
    r = client.post("/report", files={"file": ("notes.txt", b"hello, director\n" * 3)})
    assert r.status_code == 422
    assert "give the format" not in r.text and "name the file .pbn or .lin" in r.text


def test_downloads_have_names_of_their_own(client: TestClient) -> None:
    page = _page(client, FAULTY)
    names = {}
    for link in set(re.findall(r'href="(/download/[^"]+)"', page)):
        r = client.get(link)
        assert r.status_code == 200
        names[link.rsplit("/", 1)[1]] = r.headers["content-disposition"]
    assert len(set(names.values())) == len(names) == len(DOWNLOADS)
    assert names["scored"] == 'attachment; filename="pybcdd__faulty-scored.pbn"'
    assert names["pbn"] == 'attachment; filename="pybcdd__faulty.pbn"'


def test_unknown_methods_and_editions_are_refused_as_the_cli_refuses_them(
        client: TestClient) -> None:
    from bridgefiles.cli.convert import METHODS as CLI_METHODS
    from bridgefiles.web.work import METHODS

    assert METHODS == CLI_METHODS  # the same names, standing for the same Scoring values
    sample = need(FAULTY).read_bytes()
    for url in ("/api/score?method=bogus", "/api/score?method=MP%3Bbogus"):
        r = client.post(url, files={"file": ("f.pbn", sample)})
        assert r.status_code == 422 and "unknown scoring method" in r.json()["error"]
    r = client.post("/report", files={"file": ("f.pbn", sample)}, data={"method": "bogus"})
    assert r.status_code == 422 and "unknown scoring method" in r.text
    r = client.post("/report", files={"file": ("f.pbn", sample)}, data={"laws": "1997"})
    assert r.status_code == 422 and "unknown Laws edition" in r.text
    for method in ("imp", "Cross-IMP", "IMP;Butler"):
        r = client.post(f"/api/score?method={method}", files={"file": ("f.pbn", sample)})
        assert r.status_code == 200, (method, r.text)


def test_the_api_reference_renders_its_markdown(client: TestClient) -> None:
    page = client.get("/docs").text
    text = _text(page)
    assert "`" not in text
    assert "<code>bridgefiles validate --format json</code>" in page


def test_a_long_name_keeps_its_extension(client: TestClient) -> None:
    """A name shortened for the page keeps ``.pbn``: the format is still told by it."""
    name = "é" * 300 + ".pbn"
    r = client.post("/api/validate", files={"file": (name, need(FAULTY).read_bytes())})
    assert r.status_code == 200, r.text
    path = r.json()["files"][0]["path"]
    assert path.endswith("é.pbn") and len(path) == 100
