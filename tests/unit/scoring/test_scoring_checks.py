"""board-mismatch and score-mismatch on boards built directly from tags."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bridgefiles.model.board import Board, TagPair
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.seats import Seat
from bridgefiles.scoring.checks import (
    board_diagnostics,
    rubber_history_diagnostics,
    score_diagnostics,
)
from bridgefiles.scoring.method import parse_scoring
from bridgefiles.scoring.values import SidedValue


def _board(**tags: str) -> Board:
    return Board(
        tags=tuple(
            TagPair(name=name, value=value, line=i + 1, column=1)
            for i, (name, value) in enumerate(tags.items())
        )
    )


@pytest.mark.parametrize(
    ("number", "dealer", "vul", "codes"),
    [
        ("1", "N", "None", 0),
        ("4", "W", "All", 0),
        ("20", "W", "Both", 0),  # 20 repeats board 4; Both is All
        ("33", "N", "-", 0),  # 33 repeats board 1; "-" is None
        ("2", "N", "NS", 1),  # dealer wrong
        ("2", "E", "EW", 1),  # vulnerability wrong
        ("7", "N", "None", 2),
        ("x", "N", "None", 0),  # no number: nothing to compare
    ],
)
def test_board_mismatch(number: str, dealer: str, vul: str, codes: int) -> None:
    found = board_diagnostics(_board(Board=number, Dealer=dealer, Vulnerable=vul))
    assert len(found) == codes
    for d in found:
        assert d.code == "board-mismatch"
        assert d.severity is Severity.WARNING
        assert d.law == "2"
        assert d.line in (2, 3)


def test_board_mismatch_message_names_both_values() -> None:
    (d,) = board_diagnostics(_board(Board="2", Dealer="N", Vulnerable="NS"))
    assert "Dealer N" in d.message and "gives E" in d.message
    (d,) = board_diagnostics(_board(Board="16", Dealer="W", Vulnerable="NS"))
    assert "Vulnerable NS" in d.message and "gives EW" in d.message


@pytest.mark.parametrize(
    ("score", "contract", "declarer", "tricks", "vul", "bad"),
    [
        ("NS 620", "4S", "N", 10, "All", False),
        ("620", "4S", "N", 10, "All", False),  # the bare form is declarer's side
        ("EW -620", "4S", "S", 10, "All", False),
        ("NS 620 EW -620", "4S", "S", 10, "All", False),
        ("EW -620 NS 620", "4S", "S", 10, "All", False),
        ("+620", "4S", "N", 10, "All", False),
        ("NS 420", "4S", "N", 10, "All", True),  # non-vulnerable score on a vulnerable board
        ("EW 620", "4S", "N", 10, "All", True),  # wrong side
        ("620", "4S", "E", 10, "NS", True),  # East is not vulnerable: 420
        ("EW 200", "4SX", "N", 9, "All", False),
        ("NS -200", "4SX", "N", 9, "All", False),
        ("NS 0", "Pass", "", 0, "All", False),
        ("0", "Pass", "", 0, "All", False),
        ("NS 50", "Pass", "", 0, "All", True),
        ("NS 620 EW 620", "4S", "N", 10, "All", True),  # not opposites
        ("NS 800", "4SX", "N", 6, "None", True),  # -4 doubled NV is EW 800
        ("EW 800", "4SX", "N", 6, "None", False),
    ],
)
def test_score_mismatch(
    score: str, contract: str, declarer: str, tricks: int, vul: str, bad: bool
) -> None:
    board = _board(Board="1", Vulnerable=vul, Contract=contract, Score=score)
    seat = Seat.parse(declarer) if declarer else None
    found = score_diagnostics(board, Contract.parse(contract), seat, tricks)
    assert bool(found) is bad
    for d in found:
        assert d.code == "score-mismatch"
        assert d.severity is Severity.ERROR
        assert d.law == "77"
        assert d.line == 4 and d.column == 1
        assert score in d.message


def test_score_mismatch_skipped_for_rubber_and_unknowns() -> None:
    rubber = _board(Vulnerable="None", Scoring="Rubber", Score="NS 9999")
    assert score_diagnostics(rubber, Contract.parse("4S"), Seat.N, 10) == []
    chicago = _board(Vulnerable="None", Scoring="Chicago", Score="NS 9999")
    assert score_diagnostics(chicago, Contract.parse("4S"), Seat.N, 10) == []
    no_vul = _board(Score="NS 9999")
    assert score_diagnostics(no_vul, Contract.parse("4S"), Seat.N, 10) == []
    no_tricks = _board(Vulnerable="None", Score="NS 9999")
    assert score_diagnostics(no_tricks, Contract.parse("4S"), Seat.N, None) == []
    unreadable = _board(Vulnerable="None", Score="lots")
    assert score_diagnostics(unreadable, Contract.parse("4S"), Seat.N, 10) == []
    imp = _board(Vulnerable="None", Scoring="IMP", Score="NS 9999")
    assert len(score_diagnostics(imp, Contract.parse("4S"), Seat.N, 10)) == 1


def test_old_mp_accepts_the_old_table() -> None:
    # 4SX down 5 not vulnerable: 1100 now, 900 under OldMP (200 from the 4th on).
    old = _board(Vulnerable="None", Scoring="MP;OldMP", Score="EW 900")
    assert score_diagnostics(old, Contract.parse("4SX"), Seat.N, 5) == []
    new = _board(Vulnerable="None", Scoring="MP", Score="EW 900")
    assert len(score_diagnostics(new, Contract.parse("4SX"), Seat.N, 5)) == 1


def test_parse_scoring() -> None:
    m = parse_scoring("IMP;Butler-2")
    assert m.base == "IMP" and m.modifiers == ("Butler-2",) and m.is_imps
    m = parse_scoring("Matchpoints;mp2;Whatever")
    assert m.base == "MP" and m.has("MP2") and m.unknown == ("Whatever",)
    m = parse_scoring("MP;IMP")
    assert m.base == "MP" and m.extra_bases == ("IMP",)
    assert parse_scoring("Rubber").is_rubber and parse_scoring("chicago").is_rubber
    assert parse_scoring(None).base is None and parse_scoring("").base is None


@pytest.mark.parametrize(
    ("text", "ns", "ew", "bare"),
    [
        ("620", None, None, "620"),
        ("NS -200", "-200", None, None),
        ("EW -2.5", None, "-2.5", None),
        ("NS 4 EW -4", "4", "-4", None),
        ("EW 3 NS 5", "5", "3", None),
        ("ns 100", "100", None, None),
    ],
)
def test_sided_values(text: str, ns: str | None, ew: str | None, bare: str | None) -> None:
    v = SidedValue.parse(text)
    assert (str(v.ns) if v.ns is not None else None) == ns
    assert (str(v.ew) if v.ew is not None else None) == ew
    assert (str(v.declarer) if v.declarer is not None else None) == bare


@pytest.mark.parametrize("text", ["", "NS", "NS 4 NS 5", "EW x", "4 5", "NS 1e5"])
def test_sided_values_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        SidedValue.parse(text)


@pytest.mark.parametrize(
    ("vul", "history", "wrong"),
    [
        ("None", "NS 0 0 / 0 EW 0 0 / 0", False),
        ("NS", "NS 0 0 / 100 0 EW 0 0 / 0 0", False),
        ("EW", "NS 0 0 / 0 0 EW 0 0 / 100 0", False),
        ("All", "NS 0 0 / 100 0 0 EW 0 0 / 0 100 0", False),
        ("Both", "NS 0 50 / 120 40 0 EW 0 0 / 60 100 20", False),
        ("All", "NS 0 0 / 100 0 EW 0 0 / 0 0", True),  # errors_20 games 3 and 4
        ("None", "NS 0 0 / 100 0 0 EW 0 0 / 0 100 0", True),  # errors_20 games 5 and 6
        ("NS", "NS 0 0 / 0 EW 0 0 / 0", True),
        ("NS", "NS 0 0 / 0 0 EW 0 0 / 100 0", True),
        ("?", "NS 0 0 / 100 0 EW 0 0 / 0 0", False),  # unknown: nothing to compare
    ],
)
def test_rubber_history_against_vulnerable(vul: str, history: str, wrong: bool) -> None:
    board = _board(Vulnerable=vul, ScoreRubberHistory=history)
    found = rubber_history_diagnostics(board)
    assert bool(found) is wrong
    assert board_diagnostics(board) == found  # no Board tag: only the history is judged
    for d in found:
        assert d.code == "score-mismatch"
        assert d.severity is Severity.ERROR
        assert d.law == "77"
        assert (d.line, d.column) == (2, 1)  # the tag read second, as the verifier
        assert "vulnerable" in d.message and f'Vulnerable is "{vul}"' in d.message


def test_rubber_history_vulnerability_not_judged_under_chicago() -> None:
    history = "NS 0 0 / 100 0 EW 0 0 / 0 0"
    chicago = _board(Vulnerable="All", Scoring="Chicago", ScoreRubberHistory=history)
    assert rubber_history_diagnostics(chicago) == []
    rubber = _board(Vulnerable="All", Scoring="Rubber", ScoreRubberHistory=history)
    assert len(rubber_history_diagnostics(rubber)) == 1


def test_rubber_history_mismatch_goes_on_the_later_tag() -> None:
    board = _board(ScoreRubberHistory="NS 0 0 / 100 0 EW 0 0 / 0 0", Vulnerable="None")
    (d,) = rubber_history_diagnostics(board)
    assert (d.line, d.column) == (2, 1)
    assert "NS vulnerable" in d.message


@pytest.mark.parametrize(
    ("history", "why"),
    [
        ("NS 0 0 / 35 EW 0 0 / 0", "multiple of 10"),
        ("NS 0 0 / 90 0 EW 0 0 / 60 0", "exactly one side"),  # nobody won game 1
        ("NS 0 0 / 100 0 EW 0 0 / 120 0", "exactly one side"),  # both did
        ("NS 0 0 / 100 EW 0 0 / 0", "in progress"),  # a won game with no next game
        ("NS 0 0 / 100 100 0 EW 0 0 / 0 0 0", "rubber was over"),  # 2-0 ends the rubber
    ],
)
def test_rubber_history_that_no_rubber_has(history: str, why: str) -> None:
    board = _board(Vulnerable="All", ScoreRubberHistory=history)
    found = rubber_history_diagnostics(board)
    assert [d.code for d in found] == ["score-mismatch"]
    assert why in found[0].message
    assert found[0].line == 2  # on the history itself, not on Vulnerable


@pytest.mark.parametrize("history", ["", "?", "NS 0 0 / 0 EW", "NS 0 0 / 100 0 EW 0 0 / 0"])
def test_rubber_history_unreadable_is_the_readers(history: str) -> None:
    board = _board(Vulnerable="All", ScoreRubberHistory=history)
    assert rubber_history_diagnostics(board) == []


def test_a_scoring_value_is_read_once() -> None:
    """A file says the same Scoring value on every board: each board gets the one value
    read for it, which is immutable."""
    assert parse_scoring("MP;Butler") is parse_scoring("MP;Butler")
    assert parse_scoring(None) is parse_scoring("")
    with pytest.raises(ValidationError):
        parse_scoring("IMP").base = "MP"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "imps"),
    [("IMP", True), ("MP;Butler", True), ("MP;cross1", True), ("BUTLER-2", True),
     ("MP", False), ("MP;MP2", False), ("Cavendish;Experts", True), ("", False)],
)
def test_what_scores_in_imps(text: str, imps: bool) -> None:
    assert parse_scoring(text).is_imps is imps
