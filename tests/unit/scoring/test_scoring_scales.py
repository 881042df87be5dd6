"""A Scoring tag naming a scale bridgefiles does not implement (EMP, IMP_1948, IMP_1961,
pbn.md 10) is scored on today's scale: the validator says so on the board, in the
scorer's words, and a board the scorer already warned about is not told twice (issue 24,
point 5)."""

from __future__ import annotations

import pytest
from shared import CONFORMANCE, FIXTURES, need

import bridgefiles as bf
from bridgefiles.model import Board
from bridgefiles.model.diagnostic import Diagnostic, Severity

SCALES = {"1": "EMP", "2": "IMP_1948", "3": "IMP_1961"}


def _fixture() -> tuple[Board, ...]:
    return bf.load(need(FIXTURES / "scoring-scales.pbn")).boards


def _scale_findings(diagnostics: tuple[Diagnostic, ...]) -> list[Diagnostic]:
    return [d for d in diagnostics if "not implemented" in d.message]


@pytest.mark.parametrize("number", ["1", "2", "3", "4"])
def test_the_validator_warns_on_the_board(number: str) -> None:
    (board,) = [b for b in _fixture() if b.board_number == number]
    report = bf.validate(board)
    found = _scale_findings(report.diagnostics)
    if number not in SCALES:  # plain IMP: nothing to say
        assert found == [] and report.diagnostics == ()
        return
    (said,) = found
    assert said.code == "score-mismatch" and said.severity is Severity.WARNING
    assert f"Scoring names {SCALES[number]}" in said.message
    # MP;EMP matchpointed, IMP;IMP_1948 IMPed; IMP_1961 alone (no basic system) either
    scale = {"1": "as ordinary matchpoints", "2": "on the current IMP scale"}.get(
        number, "on today's scales (IMPs on the current IMP scale, matchpoints as ordinary"
    )
    assert f"the board is scored {scale}" in said.message
    assert board.tag_pair("Scoring") is not None
    assert (said.line, said.column) == board.tag_where("Scoring") != (None, None)
    assert said.board == number
    assert report.score is not None and report.score.ns == 80  # Law 77 points are the same


def test_the_scorer_and_the_validator_say_it_once_in_the_same_words() -> None:
    scored = bf.score(bf.load(need(FIXTURES / "scoring-scales.pbn")))
    for board, plain in zip(scored.boards, _fixture(), strict=True):
        by_scorer = [d.message for d in _scale_findings(board.diagnostics)]
        by_validator = [d.message for d in _scale_findings(bf.validate(plain).diagnostics)]
        assert by_scorer == by_validator
        assert [d.message for d in _scale_findings(bf.validate(board).diagnostics)] == by_scorer
        assert len(by_scorer) == (1 if board.board_number in SCALES else 0)


def test_the_conformance_file_names_each_scale() -> None:
    """correct_10.pbn (PBN conformance): games with Scoring IMP_1948, EMP and IMP_1961."""
    boards = bf.load(need(CONFORMANCE / "correct_10.pbn")).boards
    named = {
        m
        for b in boards
        for d in _scale_findings(bf.validate(b).diagnostics)
        for m in ("EMP", "IMP_1948", "IMP_1961")
        if f"names {m} " in d.message
    }
    assert named == {"EMP", "IMP_1948", "IMP_1961"}
    plain = [b for b in boards if (b.tag("Scoring") or "") in ("IMP", "MP", "BAM", "OldMP")]
    assert plain and not any(_scale_findings(bf.validate(b).diagnostics) for b in plain)
