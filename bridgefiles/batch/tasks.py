"""The units of work of a batch: validate, convert (and score) or count one file.

Each unit reads one file as a stream: a worker never holds a whole file's boards
(unless scoring or the preserve layout needs them), and what it has to print goes to
a temporary file that the parent copies out, so memory stays flat however large a
file is. Results are small (:class:`FileResult`) since they cross process
boundaries. Only :class:`BridgeFileError` leaves the library; a bug of ours in one
file becomes that file's failure (code ``internal``), and the other files go on.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from bridgefiles.api import Laws, read, validate
from bridgefiles.batch.inputs import STDIN, Input
from bridgefiles.errors import BridgeFileError, UnreadableInputError
from bridgefiles.formats.registry import FileInfo, Layout
from bridgefiles.jobs.conversion import convert
from bridgefiles.jobs.report import Summary as Summary  # a batch's totals: the one type
from bridgefiles.jobs.report import (
    board_lines,
    failure,
    finding_text,
    format_of,
    json_board,
    no_board,
)
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic

Status = Literal["ok", "failed", "unreadable"]
Report = Callable[[int], None]
PROGRESS_EVERY = 200  # boards between progress messages from a worker


def no_report(_: int) -> None:
    """A progress callback that tells no one."""
    return None


@dataclass
class FileResult:
    """What one unit of work did to one file (small: it crosses process boundaries)."""

    path: str
    format: str = "unknown"
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    status: Status = "ok"
    message: str | None = None
    output: str | None = None  # a temporary file of bytes for the parent to copy out
    written: str | None = None  # the file written (convert, score)
    file_diagnostics: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)  # convert/score, with "board"
    notes: list[str] = field(default_factory=list)  # findings as text lines

    def add(self, diagnostics: Iterable[Diagnostic]) -> None:
        counts = Summary()
        counts.add(diagnostics)
        self.errors += counts.errors
        self.warnings += counts.warnings
        self.infos += counts.infos

    def fails(self, fail_on: str | None) -> bool:
        """Whether this file's findings reach ``--fail-on``."""
        if fail_on == "warning":
            return bool(self.errors or self.warnings)
        if fail_on == "error":
            return bool(self.errors)
        return False


class Counted:
    """Passes boards through, counting them and telling ``report`` now and then."""

    def __init__(self, boards: Iterable[Board], report: Report) -> None:
        self.boards = boards
        self.report = report
        self.count = 0
        self.pending = 0

    def tick(self) -> None:
        self.count += 1
        self.pending += 1
        if self.pending >= PROGRESS_EVERY:
            self.report(self.pending)
            self.pending = 0

    def flush(self) -> None:
        if self.pending:
            self.report(self.pending)
            self.pending = 0

    def __iter__(self) -> Iterator[Board]:
        for board in self.boards:
            self.tick()
            yield board
        self.flush()


def format_name(item: Input, forced: str | None) -> str:
    """The format an input is read as, as far as its name (or ``--from``) says."""
    return format_of(None if item.is_stdin else item.path, forced)


def temp_output() -> IO[bytes]:
    """A temporary file for a worker's output, which the parent copies out and deletes."""
    return tempfile.NamedTemporaryFile(prefix="bridgefiles-", suffix=".out", delete=False)


def _failed(result: FileResult, exc: BridgeFileError) -> Diagnostic:
    result.status = "unreadable" if isinstance(exc, UnreadableInputError) else "failed"
    diag = failure(result.path, exc)
    result.message = diag.message
    return diag


@dataclass(frozen=True)
class ValidateTask:
    item: Input
    source_format: str | None = None
    strict: bool = False
    report: Literal["text", "json", "none"] = "text"
    laws: Laws = "2017"


def validate_file(task: ValidateTask, report: Report = no_report) -> FileResult:
    """Replay every board of one file against the Laws; findings go to a temporary file
    (UTF-8): text lines, or the ``boards`` entries of the JSON report
    (:func:`bridgefiles.jobs.report.json_board`), which the parent puts together."""
    item = task.item
    result = FileResult(path=item.display, format=format_name(item, task.source_format))
    info = FileInfo()
    out = temp_output() if task.report != "none" else None
    if out is not None:
        result.output = out.name
    file_diags: list[Diagnostic] = []
    counted = Counted((), report)
    try:
        if item.error is not None:
            raise UnreadableInputError(item.error)
        counted = Counted(read(item.path, task.source_format, strict=task.strict, info=info),
                          report)
        for board in counted:
            board_report = validate(board, laws=task.laws)
            result.add(board_report.diagnostics)
            if out is None:
                continue
            if task.report == "json":
                out.write(json_board(board_report.to_json(), first=counted.count == 1).encode())
            else:
                out.write("".join(line + "\n" for line in board_lines(board_report, item.display))
                          .encode())
    except BridgeFileError as exc:
        file_diags.append(_failed(result, exc))
    finally:
        result.boards = counted.count  # the boards listed, also when reading stopped
        if out is not None:
            out.close()
    file_diags[:0] = info.diagnostics
    if result.status == "ok" and result.boards == 0:
        file_diags.extend(no_board(file_diags))
    result.add(file_diags)
    if info.format is not None:
        result.format = info.format
    result.file_diagnostics = [d.to_json() for d in file_diags]
    if task.report == "text":
        result.notes = [finding_text(d, item.display) for d in file_diags]
    return result


@dataclass(frozen=True)
class ConvertTask:
    """Read ``item``, optionally score it, and write ``to`` at ``target`` (``-``: a temp file
    whose bytes the parent copies to standard output)."""

    item: Input
    to: str
    target: str
    source_format: str | None = None
    layout: Layout = "export"
    score: bool = False
    verify: bool = False
    strict: bool = False
    replace: bool = False  # scoring: replace existing values that disagree
    laws: Laws = "2017"
    through: bool = False  # write through a symlink, FIFO or device target
    method: str | None = None  # scoring method instead of each board's Scoring tag
    # a table's added columns (bf.convert's extra, a module-level function so that it
    # pickles to the workers: the dd columns of analysis.ddscore) and their types
    extra: Callable[[Board, dict[str, Any]], dict[str, Any]] | None = None
    extra_types: dict[str, str] | None = None


def convert_file(task: ConvertTask, report: Report = no_report) -> FileResult:
    """Convert one file with :func:`bridgefiles.convert`; the output appears only complete."""
    item = task.item
    result = FileResult(path=item.display, format=format_name(item, task.source_format))
    to_stdout = task.target == STDIN
    counter = Counted((), report)

    def found(diag: Diagnostic) -> None:
        result.add([diag])
        result.notes.append(finding_text(diag, item.display))
        result.findings.append({**diag.to_json(), "board": diag.board})

    try:
        if item.error is not None:
            raise UnreadableInputError(item.error)
        if to_stdout:
            out = temp_output()
            out.close()
            target = result.output = out.name
        else:
            target = task.target
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BridgeFileError(f"{target}: cannot make its folder: "
                                      f"{exc.strerror or exc}") from exc
        done = convert(
            item.path, target, to=task.to or None, format=task.source_format, score=task.score,
            layout=task.layout, laws=task.laws, strict=task.strict, replace=task.replace,
            verify=task.verify, through=task.through and not to_stdout, method=task.method,
            on_diagnostic=found, on_board=counter.tick, extra=task.extra,
            extra_types=task.extra_types,
        )
        counter.flush()
        result.boards = done.boards
        result.format = done.format
        result.written = None if to_stdout else target
    except BridgeFileError as exc:  # the file fails: status and message, said once
        counter.flush()
        result.boards = counter.count
        diag = _failed(result, exc)
        if result.status == "unreadable":  # counted as validate counts it: one error
            result.add([diag])
            result.notes.append(finding_text(diag, item.display))
            result.file_diagnostics.append(diag.to_json())
    if result.status != "ok" and result.output is not None:
        _unlink(result.output)
        result.output = None
    return result


def _unlink(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


@dataclass(frozen=True)
class CountTask:
    item: Input
    source_format: str | None = None


def count_file(task: CountTask, report: Report = no_report) -> FileResult:
    """Read a file and count its boards (the benchmark's "read" over many files)."""
    result = FileResult(path=task.item.display, format=format_name(task.item, task.source_format))
    try:
        counted = Counted(read(task.item.path, task.source_format), report)
        for _ in counted:
            pass
        result.boards = counted.count
    except BridgeFileError as exc:
        _failed(result, exc)
    return result
