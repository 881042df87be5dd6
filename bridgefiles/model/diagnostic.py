"""Diagnostics: every problem the readers, the Laws and the scorer find.

A diagnostic is a value: code (stable, DESIGN.md's table), severity, message,
the Law it relates to, and where it points. Text form reads like a compiler's:
``file:line:col: severity[code] message (Law N)``.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.seats import Seat


class Severity(str, Enum):
    """How bad a finding is: the file is wrong, doubtful, or just worth knowing."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value


# The contract codes of DESIGN.md; new codes may be added, none renamed.
CODES: frozenset[str] = frozenset(
    {
        "syntax",
        "encoding",
        "tag-value",
        "unknown-tag",
        "duplicate-tag",
        "missing-tag",
        "tag-order",
        "note",
        "nag",
        "table",
        "deal",
        "limit",
        "insufficient-bid",
        "inadmissible-call",
        "call-out-of-rotation",
        "call-after-auction",
        "auction-incomplete",
        "contract-mismatch",
        "declarer-mismatch",
        "card-not-held",
        "lead-out-of-turn",
        "revoke",
        "claim",
        "result-mismatch",
        "score-mismatch",
        "board-mismatch",
        "lost-in-conversion",
        "play",
        "laws-edition",
        "dd-mismatch",
        "dialect",  # a form outside the standard, unambiguous: read, warned; strict: an error
        "internal",
        "unreadable",  # an input that cannot be read at all (missing, a folder, no format)
    }
)


class Diagnostic(BaseModel):
    """One finding, with where it points and the Law it breaks (if any)."""

    model_config = ConfigDict(frozen=True)

    code: str
    severity: Severity
    message: str
    law: str | None = None
    line: int | None = None
    column: int | None = None
    trick: int | None = None
    seat: Seat | None = None
    path: str | None = None
    board: str | None = None

    def format(self, path: str | None = None) -> str:
        """The compiler-style line: ``file:line:col: severity[code] message (Law N)``."""
        where = path if path is not None else (self.path or "<input>")
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        text = f"{where}: {self.severity.value}[{self.code}] {self.message}"
        if self.law and f"(Law {self.law}" not in self.message:
            text += f" (Law {self.law})"
        return text

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> dict[str, Any]:
        """The diagnostic object of DESIGN.md's JSON report."""
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "law": self.law,
            "message": self.message,
            "line": self.line,
            "column": self.column,
        }
        if self.trick is not None:
            out["trick"] = self.trick
        if self.seat is not None:
            out["seat"] = self.seat.value
        return out


def error(code: str, message: str, **where: Any) -> Diagnostic:
    """An error: the file is wrong or contradicts itself."""
    return Diagnostic(code=code, severity=Severity.ERROR, message=message, **where)


def warning(code: str, message: str, **where: Any) -> Diagnostic:
    """A warning: an irregularity the Laws rectify, or a doubtful value."""
    return Diagnostic(code=code, severity=Severity.WARNING, message=message, **where)


def info(code: str, message: str, **where: Any) -> Diagnostic:
    """An info: worth knowing, nothing wrong."""
    return Diagnostic(code=code, severity=Severity.INFO, message=message, **where)


def count(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> dict[str, int]:
    """Errors, warnings and infos in a list, for summaries."""
    out = {"errors": 0, "warnings": 0, "infos": 0}
    for d in diagnostics:
        out[{"error": "errors", "warning": "warnings", "info": "infos"}[d.severity.value]] += 1
    return out
