"""RBN (Pavlicek's Bridge Notation): the labels read as the notation describes them, written
back, and PBN -> RBN -> PBN on every real file and on generated boards: what RBN carries
comes back, and what it cannot carry is reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import FIXTURES, REAL_PBN, files, needs_corpus
from strategies import boards

import bridgefiles as bf
from bridgefiles.exchange.rbn_labels import rbn_date
from bridgefiles.formats.convert import LOST
from bridgefiles.formats.lin.auction_play import chronological
from bridgefiles.model import Board, Seat
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.seats import ROTATION, Vulnerability

SAMPLE = FIXTURES / "rbn-sample.rbn"
REAL = files(REAL_PBN, ".pbn")


def test_the_labels_are_read_as_rbn_describes_them() -> None:
    first, second = bf.load(SAMPLE).boards
    assert first.format == "rbn" and not first.diagnostics
    expected = {
        "Date": "2026.11.30", "Time": "19:30:00", "Site": "Utrecht:Club house",
        "Event": "Sample Club Pairs", "Stage": "1", "Scoring": "MP", "North": "Ivanova",
        "South": "Mueller", "West": "Novak", "East": "Silva", "Board": "1", "Dealer": "N",
        "Vulnerable": "None", "Contract": "2D", "Declarer": "N", "Result": "8",
    }
    assert {k: first.tag(k) for k in expected} == expected
    # three hands and a colon: West holds the rest
    assert first.tag("Deal") == (
        "N:J3.53.KQJ852.J63 K976.9.AT6.AKQT4 AT8.KT764.74.752 Q542.AQJ82.93.98"
    )
    assert first.auction is not None
    assert [(s.value, c.text) for s, c in first.auction.calls()] == [
        ("N", "1D"), ("E", "X"), ("S", "1H"), ("W", "Pass"),
        ("N", "2D"), ("E", "Pass"), ("S", "Pass"), ("W", "Pass"),
    ]
    alerted, takeout = first.auction.entries[0], first.auction.entries[1]
    assert first.auction.note(alerted.annotations.note or 0).text == "Alert"  # type: ignore[union-attr]
    assert first.auction.note(takeout.annotations.note or 0).text == "takeout"  # type: ignore[union-attr]
    # the play in playing order, a suit letter only where the suit led is not followed
    assert first.play is not None and first.play.first is Seat.E
    cards = chronological(first.play.first, first.play.slots, first.contract.strain)  # type: ignore[union-attr]
    assert [c.code for c in cards] == [
        "CA", "C2", "C8", "C3", "CK", "C5", "C9", "C6", "CQ", "C7", "H2", "CJ",
    ]
    assert [(e.key, e.value) for e in first.extras] == [("T", "A sample record:bridgefiles")]
    assert [c.text for c in first.comments] == [
        "Written by hand for the tests: two records, the second one inherits."
    ]
    # D T L E S F N repeat into the next record; B and H were restated
    assert (second.tag("Event"), second.tag("North"), second.tag("Board")) == (
        "Sample Club Pairs", "Ivanova", "2"
    )
    assert second.outcome is not None and second.outcome.passed_out
    assert (second.tag("Dealer"), second.tag("Vulnerable")) == ("E", "NS")


def test_rbn_written_back_reads_the_same_and_preserve_gives_the_bytes() -> None:
    read = bf.load(SAMPLE)
    text = bf.dumps(read, "rbn")
    again = bf.loads(text.encode("utf-8"), format="rbn")
    assert [_facts(b) for b in again.boards] == [_facts(b) for b in read.boards]
    assert [b.extras for b in again.boards] == [b.extras for b in read.boards]
    assert text.count("\nE ") == 1  # the repeating labels are not written twice
    assert bf.dumps(read, "rbn", layout="preserve") == SAMPLE.read_text("utf-8")


def test_an_empty_label_stops_a_repeating_one() -> None:
    hands = "H N:AKQJ.AKQ.AKQ.AKQ:T987.JT9.JT9.JT9:6543.8765.876.87:"
    text = f"E Spring Teams\nB 1\n{hands}\n\nE\nB 2\n"
    one, two = bf.loads(text.encode(), format="rbn").boards
    assert (one.tag("Event"), two.tag("Event")) == ("Spring Teams", None)
    assert two.tag("Deal") == one.tag("Deal") is not None  # H repeats: the same deal again


def test_kept_labels_are_lost_in_conversion_to_pbn() -> None:
    found: list[Diagnostic] = []
    bf.dumps(bf.load(SAMPLE), "pbn", on_diagnostic=found.append)
    assert [(d.code, d.board) for d in found] == [(LOST, "1"), (LOST, "2")]  # T repeats
    assert "kept from rbn" in found[0].message


def test_bad_lines_are_findings_and_kept() -> None:
    text = "B 3\nH N:AKQJ.AKQ.AKQ.AKQ:T987.JT9.JT9.JT9:6543.8765.876.87:\nA NZ:1S2Q\nZZ top\n"
    board = bf.loads(text.encode(), format="rbn").boards[0]
    messages = [(d.line, d.message) for d in board.diagnostics]
    assert any(line == 3 and "'Q' where a call is expected" in m for line, m in messages)
    assert any(line == 4 and "not an RBN line" in m for line, m in messages)
    assert ("?", "ZZ top") in [(e.key, e.value) for e in board.extras]
    assert "ZZ top" not in bf.dumps([board], "rbn")  # not RBN: not written as if it were


def test_no_record_is_an_error_and_nothing_is_converted(tmp_path: Path) -> None:
    source = tmp_path / "empty.rbn"
    source.write_bytes(b"\n\n\n")
    with pytest.raises(bf.BridgeFileError, match="no board"):
        bf.convert(source, tmp_path / "out.pbn")
    assert not (tmp_path / "out.pbn").exists()


def test_the_content_says_rbn() -> None:
    data = SAMPLE.read_bytes()
    assert bf.loads(data).boards[0].format == "rbn"  # no name, no format given


def _facts(board: Board) -> dict[str, Any]:
    """What RBN carries of a board, in the model's terms."""
    def tag(name: str) -> str | None:
        v = board.tag(name)
        return v if v not in (None, "", "?") else None

    auction = board.auction
    play = board.play
    contract = board.contract
    deal = board.deal
    vul = board.vulnerable
    return {
        "calls": [(s, c.text) for s, c in auction.calls()] if auction else [],
        "play": (
            [c.code for c in chronological(play.first, play.slots, contract.strain)]
            if play is not None and contract is not None
            else []
        ),
        "hands": {s: h.pbn if (h := deal.hand(s)) else None for s in ROTATION} if deal else None,
        "contract": contract,
        "declarer": board.declarer,
        "tricks": board.declarer_tricks,
        "vulnerable": None if vul is None else Vulnerability(vul),
        **{k: tag(k) for k in ("Event", "Site", "Stage", "North", "South", "West", "East",
                               "Board", "HomeTeam", "VisitTeam", "Room")},
    }


def _compare(sent: list[Board], back: list[Board], found: list[Diagnostic]) -> int:
    """Boards with no reported loss must come back with what RBN carries; returns how
    many were compared."""
    lossy = {d.board for d in found}
    compared = 0
    for a, b in zip(sent, back, strict=True):
        if a.board_number in lossy:
            continue
        fa, fb = _facts(a), _facts(b)
        if a.dealer is not None:
            assert b.dealer == a.dealer
        else:  # RBN gives the auction's first seat as the dealer
            fb["vulnerable"] = fa["vulnerable"] if fa["vulnerable"] is None else fb["vulnerable"]
        date = a.tag("Date")
        if date not in (None, "", "?") and rbn_date(date, a.tag("Time")) is not None:
            assert b.tag("Date") == date
        assert fb == fa, a.board_number
        compared += 1
    return compared


@needs_corpus
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_files_through_rbn_and_back(path: Path) -> None:
    read = bf.load(path)
    found: list[Diagnostic] = []
    text = bf.dumps(read, "rbn", on_diagnostic=found.append)
    back = bf.loads(text.encode("utf-8"), format="rbn")
    sent = [b for b in read.boards if b.board_number not in
            {d.board for d in found if "nothing it can write" in d.message}]
    assert len(back.boards) == len(sent)
    _compare(sent, list(back.boards), found)
    assert all(d.code == LOST for d in found)


@given(made=st.lists(boards(irregular=False, with_tables=False), min_size=1, max_size=3))
def test_generated_boards_through_rbn_and_back(made: list[Board]) -> None:
    numbered = [b.with_tag("Board", str(i)) for i, b in enumerate(made, start=1)]
    sent = [b.model_copy(update={"format": "pbn"}) for b in numbered]  # adapted like a read one
    found: list[Diagnostic] = []
    text = bf.dumps(sent, "rbn", on_diagnostic=found.append)
    back = bf.loads(text.encode("utf-8"), format="rbn").boards
    _compare(sent, list(back), found)


def test_percent_lines_before_the_records_are_the_files_own_and_written_back() -> None:
    hands = "H N:AKQJ.AKQ.AKQ.AKQ:T987.JT9.JT9.JT9:6543.8765.876.87:"
    text = f"% RBN 3.2\n% by hand\n\nB 1\n{hands}\n\n"
    read = bf.loads(text.encode(), format="rbn")
    assert [d.text for d in read.directives] == [" RBN 3.2", " by hand"]
    assert len(read.boards) == 1 and read.boards[0].tag("Board") == "1"
    assert bf.dumps(read, "rbn") == text


def test_an_auction_with_no_dealer_start_is_dealt_by_west() -> None:
    board = bf.loads(b"B 1\nA 1S2H:PPP\n", format="rbn").boards[0]  # RBN 3.2
    assert board.dealer is Seat.W and not board.diagnostics
    assert board.auction is not None
    assert [(s, c.text) for s, c in board.auction.calls()][:2] == [(Seat.W, "1S"), (Seat.N, "2H")]
