"""Validate a board: its read diagnostics, then the Laws' findings, tricks and score.

This is where the layers meet, at the top: ``laws.result.board_result`` rules on
the auction, the play and the tags that record them; the scorer gives the Law 77
score and checks the score tags. Imports go one way only: validate -> scoring ->
laws -> model. Nothing here raises on a board: however broken, it gets a report.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.laws.editions import Edition, check_edition
from bridgefiles.laws.result import Tricks, board_result
from bridgefiles.model.board import Board
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Diagnostic, count, error
from bridgefiles.model.fast import construct, shared_fields
from bridgefiles.model.seats import Seat, Side
from bridgefiles.scoring import contract_score
from bridgefiles.scoring.checks import board_diagnostics, score_diagnostics


class TrickCount(BaseModel):
    """Declarer's tricks: as played and claimed, the Law 64 transfer, and what is scored."""

    model_config = ConfigDict(frozen=True)

    won: int | None
    law64: int | None = 0  # None: the record does not fix the transfer
    final: int | None


class ScorePair(BaseModel):
    """The duplicate score from each side's view."""

    model_config = ConfigDict(frozen=True)

    ns: int
    ew: int


class BoardReport(BaseModel):
    """Everything validation found out about one board."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    board: Board = Field(exclude=True)
    diagnostics: tuple[Diagnostic, ...] = ()
    contract: Contract | None = None
    declarer: Seat | None = None
    tricks: TrickCount | None = None
    score: ScorePair | None = None

    def to_json(self) -> dict[str, Any]:
        """The board object of DESIGN.md's JSON report."""
        b = self.board
        return {
            "index": b.index,
            "board": b.board_number,
            "room": b.room,
            "line": b.line,
            "dealer": b.dealer.value if b.dealer is not None else None,
            "vulnerable": b.vulnerable.value if b.vulnerable is not None else None,
            "contract": self.contract.text if self.contract is not None else None,
            "declarer": self.declarer.value if self.declarer is not None else None,
            "tricks": self.tricks.model_dump() if self.tricks is not None else None,
            "score": self.score.model_dump() if self.score is not None else None,
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


# every field given: what validation would record as set
_TRICK_FIELDS = shared_fields(TrickCount.model_fields)
_SCORE_FIELDS = shared_fields(ScorePair.model_fields)
_REPORT_FIELDS = shared_fields(BoardReport.model_fields)


def report_json(
    files: list[tuple[str, str, list[Diagnostic], list[BoardReport]]],
) -> dict[str, Any]:
    """The whole JSON report of ``validate --format json`` (DESIGN.md, version 1)."""
    out_files: list[dict[str, Any]] = []
    totals = {"errors": 0, "warnings": 0, "infos": 0}
    nboards = 0
    for path, fmt, file_diags, reports in files:
        every = [*file_diags, *(d for r in reports for d in r.diagnostics)]
        for key, value in count(every).items():
            totals[key] += value
        nboards += len(reports)
        out_files.append(
            {
                "path": path,
                "format": fmt,
                "diagnostics": [d.to_json() for d in file_diags],
                "boards": [r.to_json() for r in reports],
            }
        )
    return {
        "version": 1,
        "files": out_files,
        "summary": {"files": len(files), "boards": nboards, **totals},
    }


def validate_board(board: Board, *, laws: Edition = "2017") -> BoardReport:
    """The report for one board: read diagnostics, then the Laws' findings and the score.

    ``laws`` is the edition ("2017" or "2007"); any other value is the caller's
    mistake (BridgeFileError), as is anything but a Board. A bug of ours never
    passes for a finding about the file: it becomes an ``internal`` error (an
    :class:`InternalError`) on the report.
    """
    check_edition(laws)
    if not isinstance(board, Board):  # misuse: only BridgeFileError leaves (DESIGN 3)
        raise BridgeFileError(f"validate_board needs a Board, not {type(board).__name__}")
    try:
        return _validate(board, laws)
    except Exception as exc:  # our own bug: said as such, never as a finding
        bug = InternalError(f"internal error while validating: {type(exc).__name__}: {exc}")
        bug.__cause__ = exc
        return BoardReport(
            board=board, diagnostics=(*board.diagnostics, error("internal", str(bug)))
        )


def _validate(board: Board, laws: Edition) -> BoardReport:
    result = board_result(board, laws=laws)
    out = list(result.diagnostics)
    tricks = result.tricks
    out.extend(board_diagnostics(board))
    final = tricks.final if tricks is not None else None
    out.extend(score_diagnostics(board, result.contract, result.declarer, final))
    # values of the right types by construction: built without validating them again
    trick_count = None
    if tricks is not None:
        trick_count = construct(
            TrickCount,
            {"won": tricks.won, "law64": tricks.law64, "final": tricks.final},
            _TRICK_FIELDS,
        )
    data = {
        "board": board,
        "diagnostics": (*board.diagnostics, *out),
        "contract": result.contract,
        "declarer": result.declarer,
        "tricks": trick_count,
        "score": _score(board, result.contract, result.declarer, tricks),
    }
    return construct(BoardReport, data, _REPORT_FIELDS)


def _score(
    board: Board, contract: Contract | None, declarer: Seat | None, tricks: Tricks | None
) -> ScorePair | None:
    if contract is None:
        return None
    if contract.passed_out:
        return construct(ScorePair, {"ns": 0, "ew": 0}, _SCORE_FIELDS)
    vul = board.vulnerable
    if declarer is None or tricks is None or tricks.final is None or vul is None:
        return None
    if contract.level is None:
        return None
    points = contract_score(contract, vul.is_vulnerable(declarer), max(0, min(13, tricks.final)))
    ns = points if declarer.side is Side.NS else -points
    return construct(ScorePair, {"ns": ns, "ew": -ns}, _SCORE_FIELDS)
