"""BBO handviewer links, built from the corpus files that show LIN's URL quirks."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from shared import REAL_LIN as LIN_DIR

import bridgefiles as bf
from bridgefiles.formats.url import HANDVIEWER, lin_of_url, sniff
from bridgefiles.model import Seat
from bridgefiles.model.content import game_content


def corpus_text(name: str) -> str:
    path = LIN_DIR / name
    if not path.is_file():
        pytest.skip(f"shared corpus file {name} not found under {LIN_DIR}")
    return path.read_text("utf-8")


def test_percent_encoded_lin_parameter_is_decoded() -> None:
    # the probe file holds percent escapes exactly as a lin= parameter carries them
    lin = corpus_text("bridgeencodings__read-percent-encoding.lin").strip()
    url = f"{HANDVIEWER}?bbo=y&lin={lin}"
    assert sniff(url) >= 90
    loaded = bf.loads(url, format="url")
    board = loaded.boards[0]
    assert board.format == "url"
    assert board.player(Seat.S) == "a b"
    assert board.board_number == "10"
    assert board.auction is not None
    assert board.auction.entries[0].annotations.explanation == "15+ HCP"
    # sniffed without a format name too
    assert bf.loads(url).boards[0].player(Seat.S) == "a b"


def test_plus_for_space_in_a_link() -> None:
    lin = corpus_text("bridgeencodings__read-plus-alerts-claim.lin").strip()
    board = bf.loads(f"{HANDVIEWER}?lin={lin}", format="url").boards[0]
    assert board.player(Seat.W) == "West Player"
    assert board.board_number == "7"
    assert board.auction is not None
    assert board.auction.entries[3].annotations.explanation == "Four hearts"
    assert board.tag("Result") == "9"


@pytest.mark.parametrize(
    "name", ["pbntools__28190102.lin", "bridgebots__sample.lin", "pbntools__1047742261.lin"]
)
def test_fully_encoded_link_reads_like_the_file(name: str) -> None:
    lin = corpus_text(name)
    url = f"{HANDVIEWER}?lin=" + quote(lin.strip(), safe="")
    from_url = bf.loads(url, format="url").boards[0]
    from_file = bf.loads(lin, format="lin").boards[0]
    assert game_content(from_url) == game_content(from_file)


def test_bbo_javascript_popup_form() -> None:
    lin = corpus_text("pbntools__28190027.lin").strip()
    page = f"<a href=\"javascript:hv_popuplin('{quote(lin, safe=',')}')\">Board 17</a>"
    board = bf.loads(page, format="url").boards[0]
    assert board.board_number == "17" and board.tag("Result") == "5"


def test_hand_parameter_form() -> None:
    url = (
        f"{HANDVIEWER}?n=SKQ4HAKJ82DA96CK5&e=SAJ985H76D874C432&s=S732HQ4DKQJTCAJ76"
        "&w=S106HT953D532CQT98&d=n&v=b&b=7&a=1H1S2NP4HPPP&p=SAS2S3S10&nn=Norma&sn=Sam"
    )
    board = bf.loads(url, format="url").boards[0]
    assert board.deal is not None and board.deal.is_complete
    assert board.dealer is Seat.N and board.board_number == "7"
    assert board.player(Seat.N) == "Norma" and board.player(Seat.S) == "Sam"
    assert board.contract is not None and board.contract.text == "4H"
    assert board.declarer is Seat.N
    assert board.play is not None and len(board.play.slots) == 4


def test_written_links_read_back() -> None:
    boards = bf.loads(corpus_text("endplay__example1.lin"), format="lin").boards
    text = bf.dumps(boards, format="url")
    lines = text.splitlines()
    assert len(lines) == len(boards)
    assert all(line.startswith(HANDVIEWER + "?lin=") for line in lines)
    again = bf.loads(text, format="url").boards
    for a, b in zip(boards, again, strict=True):
        assert game_content(a)["auction"] == game_content(b)["auction"]
        assert game_content(a)["play"] == game_content(b)["play"]
        assert a.tags == b.tags
    assert bf.dumps(again, format="url", layout="preserve") == text


def test_line_without_link_is_reported() -> None:
    loaded = bf.loads("not a link\n", format="url")
    assert loaded.boards == () and loaded.diagnostics[0].code == "syntax"
    assert lin_of_url("https://example.org/?x=1") is None
