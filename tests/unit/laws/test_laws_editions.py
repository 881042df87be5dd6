"""The editions outside the auction: Law 64 (2007 B7 vs 2017 B7) and the date finding."""

from __future__ import annotations

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.checks.validate import validate_board
from bridgefiles.laws import Revoke, apply_law64
from bridgefiles.model import Board, Seat, Suit
from bridgefiles.model.diagnostic import Severity

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
FIXTURE = FIXTURES / "laws-revokes.pbn"


def test_law_64b7_a_corrected_revoke_counts_in_2007_only() -> None:
    """2017 64B7: both sides revoked *and both revokes are established*; 2007 64B7: both
    sides revoked on the board. West's revoke at trick 3 is established, South's at trick
    9 was corrected (not established)."""
    winners = [S, S, S, W, S, S, E, S, S, S, W, S, S]
    revokes = [
        Revoke(trick=3, player=W, suit=Suit.H),
        Revoke(trick=9, player=S, suit=Suit.C, established=False),
    ]
    law17 = apply_law64(revokes, winners)
    law07 = apply_law64(revokes, winners, laws="2007")
    assert [r.rule for r in law17.rulings] == ["64A2", "62A"] and law17.to_ns == 1
    assert [r.rule for r in law07.rulings] == ["64B7", "62A"] and law07.to_ns == 0
    assert law07.director  # 64C: the Director looks at equity


def test_law_64_both_established_is_b7_in_both_editions() -> None:
    winners = [S, S, S, W, S, S, E, S, S, S, W, S, S]
    revokes = [Revoke(trick=3, player=W, suit=Suit.H), Revoke(trick=9, player=S, suit=Suit.C)]
    for laws in ("2017", "2007"):
        rules = [r.rule for r in apply_law64(revokes, winners, laws=laws).rulings]
        assert rules == ["64B7", "64B7"]


def _board(date: str | None) -> Board:
    text = FIXTURE.read_text(encoding="utf-8")
    start = text.index('[Event "laws-revokes R1"]')
    game = text[start : text.index("[Event ", start + 1)]
    if date is not None:
        game = game.replace('[Board "3"]', f'[Date "{date}"]\n[Board "3"]')
    return bf.loads(game, format="pbn").boards[0]


@pytest.mark.parametrize(
    ("date", "laws", "says"),
    [
        ("2016.05.01", "2017", "before the 2017 Laws came into force anywhere"),
        ("2007.03.01", "2017", "the 1997 Laws were still in force"),
        ("2017.08.15", "2017", "may have been ruled under the 2007 Laws"),
        ("2017.09.30", "2017", "may have been ruled under the 2007 Laws"),
        ("2017.10.01", "2007", "the 2007 edition did not apply"),
        ("2017.10.01", "2017", None),
        ("2016.05.01", "2007", None),
        ("2016.??.??", "2017", None),
        (None, "2017", None),
    ],
)
def test_an_info_finding_suggests_the_edition_of_the_date(
    date: str | None, laws: str, says: str | None
) -> None:
    report = validate_board(_board(date), laws=laws)  # type: ignore[arg-type]
    found = [d for d in report.diagnostics if d.code == "laws-edition"]
    if says is None:
        assert found == []
        return
    assert len(found) == 1 and found[0].severity is Severity.INFO and says in found[0].message
    assert found[0].line is not None


def test_validate_2007_differs_from_2017_only_in_the_date_finding_on_the_fixture() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    boards = bf.loads(text, format="pbn").boards
    for board in boards:  # no corrected revoke beside an established one: Law 64 agrees
        r17, r07 = validate_board(board), validate_board(board, laws="2007")
        assert r17.tricks == r07.tricks and r17.score == r07.score
        assert r17.diagnostics == r07.diagnostics
