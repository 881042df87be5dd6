"""JSON Schemas of what other programs read from us: the validate report and the board model.

The report's shape is DESIGN.md's contract; it is written out here as pydantic models
so its schema can be published (``bridgefiles schema report``) and so tests can check
that what ``validate --format json`` prints conforms to it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.board import Board

_SEAT = Literal["N", "E", "S", "W"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReportDiagnostic(_Strict):
    """One finding: stable code, severity, the Law it breaks and where it points."""

    code: str
    severity: Literal["error", "warning", "info"]
    law: str | None
    message: str
    line: int | None
    column: int | None
    trick: int | None = None
    seat: _SEAT | None = None


class ReportTricks(_Strict):
    """Declarer's tricks as played and claimed, the Law 64 transfer, and what is scored."""

    won: int | None
    law64: int
    final: int | None


class ReportScore(_Strict):
    """The duplicate score (Law 77) from each side's view."""

    ns: int
    ew: int


class ReportBoard(_Strict):
    """One board of a file, as the Laws make it out."""

    index: int
    board: str | None
    room: str | None
    line: int | None
    dealer: _SEAT | None
    vulnerable: Literal["None", "NS", "EW", "All"] | None
    contract: str | None
    declarer: _SEAT | None
    tricks: ReportTricks | None
    score: ReportScore | None
    diagnostics: list[ReportDiagnostic]


class ReportFile(_Strict):
    """One input file: its findings about the file as a whole, then its boards."""

    path: str
    format: str
    diagnostics: list[ReportDiagnostic]
    boards: list[ReportBoard]


class ReportSummary(_Strict):
    """The counts over every file, for a pipeline that only wants the totals."""

    files: int
    boards: int
    errors: int
    warnings: int
    infos: int


class Report(_Strict):
    """The JSON report of ``bridgefiles validate --format json`` (version 1)."""

    version: Literal[1]
    files: list[ReportFile]
    summary: ReportSummary


def report_schema() -> dict[str, Any]:
    """The JSON Schema of ``validate --format json``'s report, for programs that read it."""
    schema = Report.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "bridgefiles validate report"
    return schema


def board_schema() -> dict[str, Any]:
    """The JSON Schema of a board as our JSON format writes it."""
    schema = Board.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
