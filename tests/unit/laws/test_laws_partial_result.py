"""A partial result (PBN 2.0, pbn.md 4.3): the play stops before the end without '*', and
Result counts declarer's tricks among those played. There is no final count, so the
board is not scored, and the report says why (issue 24, point 5)."""

from __future__ import annotations

from shared import FIXTURES, REAL_PBN, need

import bridgefiles as bf
from bridgefiles.checks.validate import BoardReport
from bridgefiles.model.diagnostic import Diagnostic, Severity

PARTIAL = "a partial result"


def _findings(report: BoardReport, code: str) -> list[Diagnostic]:
    return [d for d in report.diagnostics if d.code == code]


def test_the_real_board_says_why_it_is_not_scored() -> None:
    """pbntools__aba_17901_aba_pairs.pbn board 9 at line 1375: ten tricks, then '-', no
    '*', Result "9"."""
    (board,) = [
        b
        for b in bf.load(need(REAL_PBN / "pbntools__aba_17901_aba_pairs.pbn")).boards
        if b.line == 1375
    ]
    report = bf.validate(board)
    assert report.tricks is not None and report.tricks.final is None and report.score is None
    (said,) = [d for d in _findings(report, "result-mismatch") if PARTIAL in d.message]
    assert said.severity is Severity.INFO
    assert "after 10 of 13 tricks" in said.message and "Result 9" in said.message
    assert "not scored" in said.message
    assert board.tag_pair("Result") is not None
    assert (said.line, said.column) == board.tag_where("Result") == (1387, 1)
    assert report.to_json()["score"] is None


def test_partial_claimed_and_overcounted_results() -> None:
    partial, claimed, over = bf.load(need(FIXTURES / "laws-partial-result.pbn")).boards
    report = bf.validate(partial)
    assert report.to_json()["tricks"] == {"won": 4, "law64": 0, "final": None}
    assert report.score is None
    (said,) = _findings(report, "result-mismatch")
    assert PARTIAL in said.message and "after 4 of 13 tricks" in said.message
    assert said.severity is Severity.INFO
    report = bf.validate(claimed)  # '*': a claim, Result the final count
    assert report.diagnostics == () and report.score is not None and report.score.ns == 260
    report = bf.validate(over)  # Result beyond the tricks played: taken as final (said)
    (said,) = _findings(report, "result-mismatch")
    assert PARTIAL not in said.message and "taken as the final count" in said.message
    assert report.score is not None and report.score.ns == 170


def test_the_scorer_gives_no_score_to_a_partial_result() -> None:
    scored = bf.score(bf.load(need(FIXTURES / "laws-partial-result.pbn")))
    partial, claimed, _ = scored.boards
    assert partial.tag("Score") is None and claimed.tag("Score") is not None
    assert any(PARTIAL in d.message for d in bf.validate(partial).diagnostics)
