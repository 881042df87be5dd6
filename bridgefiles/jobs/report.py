"""The validation report of whole inputs: one :class:`FileReport` per input, and the exact
text and JSON that ``bridgefiles validate`` prints (DESIGN.md's report).

The command line prints through these functions and the upload service returns
their JSON, so both give the same bytes. The JSON is built from small pieces
(:func:`json_file_head`, :func:`json_board`...) so that a batch can stream it a
board at a time, and :func:`render_json` puts the same pieces together in memory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol
from warnings import warn

from bridgefiles.api import Laws, check_laws, validate
from bridgefiles.errors import BridgeFileError, InternalError, UnreadableInputError
from bridgefiles.files.reading import Source, open_source
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo
from bridgefiles.limits import Limits
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.views.render import inert

Status = Literal["ok", "failed", "unreadable"]

if TYPE_CHECKING:
    from bridgefiles.checks.validate import BoardReport


class Tally(Protocol):
    """What a batch's totals take from one input (a :class:`bridgefiles.batch.FileResult`):
    a protocol, so that this layer need not import the batch's."""

    @property
    def boards(self) -> int: ...
    @property
    def errors(self) -> int: ...
    @property
    def warnings(self) -> int: ...
    @property
    def infos(self) -> int: ...
    @property
    def status(self) -> str: ...


@dataclass
class Summary:
    """Boards and findings by severity, and the inputs behind them: the one type for a
    file's counts, a batch's totals, the summary line and the JSON report's ``summary``,
    so that every command and the upload service count alike."""

    boards: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    files: int = 0
    failed: int = 0
    unreadable: int = 0
    seconds: float = 0.0

    def add(self, found: Iterable[Diagnostic] | Tally) -> None:
        """Count findings by severity, or one input's results (its boards, findings and
        whether it failed) into a batch's totals."""
        if not isinstance(found, Iterable):
            self.merge(Summary(found.boards, found.errors, found.warnings, found.infos, files=1,
                               failed=int(found.status == "failed"),
                               unreadable=int(found.status == "unreadable")))
            return
        for d in found:
            if d.severity is Severity.ERROR:
                self.errors += 1
            elif d.severity is Severity.WARNING:
                self.warnings += 1
            else:
                self.infos += 1

    def merge(self, other: Summary) -> None:
        """Another summary's counts added to these (a file's into its batch's)."""
        self.boards += other.boards
        self.errors += other.errors
        self.warnings += other.warnings
        self.infos += other.infos
        self.files += other.files
        self.failed += other.failed
        self.unreadable += other.unreadable

    def line(self, verb: str) -> str:
        """The summary line a command prints to standard error."""
        return summary_line(verb, self, self.files, self.failed + self.unreadable, self.seconds)

    def to_json(self) -> dict[str, int]:
        """The JSON report's ``summary`` object."""
        return summary_json(self, self.files)


def __getattr__(name: str) -> Any:
    """``Counts``, the old name of :class:`Summary`, still answers, with a warning."""
    if name == "Counts":
        warn("bridgefiles.jobs.report.Counts is now bridgefiles.jobs.report.Summary",
             DeprecationWarning, stacklevel=2)
        return Summary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class FileReport:
    """What validation found in one input: its file diagnostics and a report per board.

    ``status`` is "unreadable" when the input could not be read at all (a missing
    file, an unknown format) and "failed" when reading stopped part way (strict mode,
    a bug of ours: code ``internal``); the reason is then the last file diagnostic.
    """

    path: str
    format: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    boards: list[BoardReport] = field(default_factory=list)
    status: Status = "ok"

    @property
    def counts(self) -> Summary:
        """The input's boards and findings, as one file of a batch's summary."""
        counts = Summary(boards=len(self.boards), files=1, failed=int(self.status == "failed"),
                         unreadable=int(self.status == "unreadable"))
        counts.add(self.diagnostics)
        for board in self.boards:
            counts.add(board.diagnostics)
        return counts


def failure(path: str, exc: BridgeFileError) -> Diagnostic:
    """An input that could not be read (on) as a file diagnostic, its path said once:
    ``unreadable`` when it could not be read at all (missing, a folder, no known format),
    the same error in every command's count."""
    message = str(exc)
    if message.startswith(f"{path}: "):
        message = message[len(path) + 2 :]
    code = ("internal" if isinstance(exc, InternalError)
            else "unreadable" if isinstance(exc, UnreadableInputError) else "syntax")
    diag = exc.diagnostic
    if diag is not None and diag.severity is Severity.ERROR:
        return diag
    return Diagnostic(code=code, severity=Severity.ERROR, message=message)


def format_of(name: str | None, forced: str | None = None) -> str:
    """The format an input is read as, as far as its name (or a given format) says."""
    if forced:
        return forced
    fmt = registry.from_path(name) if name and name not in ("-", "<stdin>") else None
    return fmt.name if fmt else "unknown"


def no_board(found: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
    """A file with no board is not a clean file: an error, unless the reader has
    already said why with an error of its own (one finding, not two)."""
    if any(d.severity is Severity.ERROR for d in found):
        return []
    return [Diagnostic(code="syntax", severity=Severity.ERROR,
                       message="no board found (an empty file, or not a bridge file)")]


def validate_input(
    source: Source,
    *,
    name: str | None = None,
    format: str | None = None,
    strict: bool = False,
    laws: Laws = "2017",
    encoding: str | None = None,
    limits: Limits | None = None,
) -> FileReport:
    """Validate one whole input (a path, ``-``, bytes or a binary stream) into a report.

    ``name`` is the name to show (an upload's file name). An input that cannot be read
    gives a report with status "unreadable" rather than an exception; a wrong argument
    is a :class:`bridgefiles.UsageError`.

    >>> report = validate_input(b'[Board "1"]\\n[Dealer "N"]\\n[Deal "N:AKQ"]\\n', name="x.pbn")
    >>> report.format, report.counts.boards, report.counts.errors
    ('pbn', 1, 1)
    >>> validate_input(b"", name="empty.pbn").diagnostics[0].message
    'no board found (an empty file, or not a bridge file)'
    """
    from bridgefiles.api import read

    check_laws(laws)
    try:
        opened = open_source(source, name)  # a wrong argument raises here, not in the report
    except UnreadableInputError as exc:
        shown = name or (str(source) if isinstance(source, (str, os.PathLike)) else "<input>")
        return FileReport(path=shown, format=format_of(shown, format), status="unreadable",
                          diagnostics=[failure(shown, exc)])
    shown = opened.path or "<input>"
    info = FileInfo()
    report = FileReport(path=shown, format="unknown")
    try:
        for board in read(opened.stream, format, strict=strict,
                          encoding="utf-8" if opened.text else encoding,
                          limits=limits, name=shown, info=info):
            report.boards.append(validate(board, laws=laws))
    except UnreadableInputError as exc:
        report.status = "unreadable"
        info.diagnostics.append(failure(shown, exc))
    except BridgeFileError as exc:
        report.status = "failed"
        info.diagnostics.append(failure(shown, exc))
    finally:
        opened.close()
    report.format = info.format or format_of(shown, format)
    report.diagnostics = list(info.diagnostics)
    if report.status == "ok" and not report.boards:
        report.diagnostics.extend(no_board(report.diagnostics))
    return report


# -- text ------------------------------------------------------------------------------


def finding_text(diag: Diagnostic, path: str, label: str | None = None) -> str:
    """A finding as a compiler would print it, naming its board:
    ``event.pbn:71:9: warning[revoke] board 4 (Open): West revoked... (Law 64A1)``.

    ``label`` is the board's (:attr:`Board.label`); without it the diagnostic's own
    ``board`` (a number, or a label) names it. The file's text in it is made inert
    (:func:`bridgefiles.views.render.inert`): a board label holding ESC or BEL reaches a
    terminal as ``\\x1b``, never as a command to it."""
    text = diag.format(path)
    name = label or diag.board
    if name and not name.startswith(("board ", "game ")):
        name = f"board {name}"
    if name:
        head = f"{diag.severity.value}[{diag.code}] "
        at = text.find(head)
        if at >= 0:
            cut = at + len(head)
            text = f"{text[:cut]}{name}: {text[cut:]}"
    return inert(text)


def board_lines(report: BoardReport, path: str) -> list[str]:
    """The text lines of one board's findings."""
    label = report.board.label
    return [finding_text(d, path, label) for d in report.diagnostics]


def render_text(reports: Sequence[FileReport]) -> str:
    """The text ``bridgefiles validate`` prints: each file's board findings, then its
    file findings, one a line.

    >>> report = validate_input(b'[Board "3"]\\n[Deal "N:AKQ"]\\n', name="a.pbn")
    >>> print(render_text([report]), end="")
    a.pbn:2:7: error[tag-value] board 3: Deal: deal 'N:AKQ' is not four hands ...
    """
    lines: list[str] = []
    for report in reports:
        for board in report.boards:
            lines.extend(board_lines(board, report.path))
        lines.extend(finding_text(d, report.path) for d in report.diagnostics)
    return "".join(line + "\n" for line in lines)


def summary_line(verb: str, counts: Summary, files: int, failed: int = 0,
                 seconds: float = 0.0) -> str:
    """``validated 3 file(s), 120 board(s): 2 error(s), 5 warning(s), 0 info(s)``."""
    rate = f" ({counts.boards / seconds:,.0f} boards/s)" if seconds > 0.5 else ""
    text = (
        f"{verb} {files} file(s), {counts.boards} board(s){rate}: {counts.errors} error(s), "
        f"{counts.warnings} warning(s), {counts.infos} info(s)"
    )
    if failed:
        text += f"; {failed} input(s) failed"
    return text


# -- JSON --------------------------------------------------------------------------------

JSON_HEAD = '{"version": 1, "files": ['


def json_file_head(path: str, format: str, diagnostics: Iterable[dict[str, Any]],
                   first: bool) -> str:
    """A file's entry up to its ``boards`` list (open)."""
    head = {"path": path, "format": format, "diagnostics": list(diagnostics)}
    return ("\n" if first else ",\n") + json.dumps(head, ensure_ascii=False)[:-1] + ', "boards": ['


def json_board(board: dict[str, Any], first: bool) -> str:
    """One board's entry, a line of its own."""
    return ("\n" if first else ",\n") + json.dumps(board, ensure_ascii=False)


def json_file_tail(boards: int) -> str:
    """Closes a file's entry (``"boards": []`` when it has none)."""
    return "\n]}" if boards else "]}"


def json_tail(summary: dict[str, int], files: int) -> str:
    """Closes the report with its summary."""
    return ("\n" if files else "") + '], "summary": ' + json.dumps(summary) + "}\n"


def summary_json(counts: Summary, files: int) -> dict[str, int]:
    """The JSON report's ``summary`` object (DESIGN.md's contract), from the counts."""
    return {"files": files, "boards": counts.boards, "errors": counts.errors,
            "warnings": counts.warnings, "infos": counts.infos}


def render_json(reports: Sequence[FileReport]) -> str:
    """The JSON report ``bridgefiles validate --format json`` prints (DESIGN.md).

    >>> print(render_json([validate_input(b"", name="empty.lin")]), end="")
    {"version": 1, "files": [
    {"path": "empty.lin", "format": "lin", "diagnostics": [{"code": "syntax", ...}], "boards": []}
    ], "summary": {"files": 1, "boards": 0, "errors": 1, "warnings": 0, "infos": 0}}
    """
    parts = [JSON_HEAD]
    total = Summary()
    for n, report in enumerate(reports):
        parts.append(json_file_head(report.path, report.format,
                                    (d.to_json() for d in report.diagnostics), first=n == 0))
        for i, board in enumerate(report.boards):
            parts.append(json_board(board.to_json(), first=i == 0))
        parts.append(json_file_tail(len(report.boards)))
        total.merge(report.counts)
    parts.append(json_tail(total.to_json(), len(reports)))
    return "".join(parts)
