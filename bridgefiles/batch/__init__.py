"""Many inputs at once: the library's batch verbs in one place.

The command line's ``validate``, ``convert`` and ``score`` are loops over files, and
``bridgefiles.batch.dask`` runs the same per-file work on a cluster. The work is split by
concern: :mod:`bridgefiles.batch.inputs` (files, folders, globs, output paths),
:mod:`bridgefiles.batch.tasks` (validate, convert or count one file), :mod:`bridgefiles.batch.pool`
(worker processes) and :mod:`bridgefiles.jobs.report` (the validate report); this module
gathers their public names, and puts the outputs of workers together.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import IO

from bridgefiles.api import read
from bridgefiles.batch.inputs import STDIN, Input, expand, glob_root, output_path, same_file
from bridgefiles.batch.pool import default_jobs, run
from bridgefiles.batch.tasks import (
    ConvertTask,
    CountTask,
    FileResult,
    Report,
    Summary,
    ValidateTask,
    convert_file,
    count_file,
    format_name,
    no_report,
    validate_file,
)
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo
from bridgefiles.jobs.report import JSON_HEAD, json_file_head, json_file_tail, json_tail
from bridgefiles.model.board import Board

BOARD_FORMATS: tuple[str, ...] = tuple(registry.names(kind="boards", writable=True,
                                                      readable=True))
TABLE_FORMATS: tuple[str, ...] = tuple(registry.names(kind="table"))

__all__ = [
    "BOARD_FORMATS",
    "STDIN",
    "TABLE_FORMATS",
    "ConvertTask",
    "CountTask",
    "FileResult",
    "Input",
    "Report",
    "Summary",
    "ValidateTask",
    "bytes_per_board",
    "convert_file",
    "copy_output",
    "count_file",
    "default_jobs",
    "expand",
    "format_name",
    "glob_root",
    "no_report",
    "output_path",
    "read_file",
    "run",
    "same_file",
    "validate_file",
    "with_target",
    "write_json_report",
]


# -- a hint for progress bars ------------------------------------------------------------


_BOARD_MARKS = (b"[Board ", b"qx|", b"md|", b'{"tags"')


def bytes_per_board(items: Sequence[Input], sample: int = 1 << 18) -> float | None:
    """A guess of the bytes a board takes, from the head of the first input, so the
    progress bar can give an ETA before the first file is done."""
    for item in items:
        if item.is_stdin:
            continue
        try:
            with open(item.path, "rb") as f:
                head = f.read(sample)
        except OSError:
            continue
        marks = max(head.count(mark) for mark in _BOARD_MARKS)
        if marks >= 2:
            return len(head) / marks
    return None


# -- putting outputs together -----------------------------------------------------------------


def copy_output(result: FileResult, out: IO[str]) -> None:
    """Copy a worker's temporary output (bytes) to ``out`` and delete it: to its binary
    buffer when it has one (standard output), so text in any charset passes unchanged."""
    if result.output is None:
        return
    try:
        out.flush()
        binary = getattr(out, "buffer", None)
        with open(result.output, "rb") as f:
            while chunk := f.read(1 << 16):
                if binary is not None:
                    binary.write(chunk)
                else:
                    out.write(chunk.decode("utf-8", "surrogateescape"))
        if binary is not None:
            binary.flush()
    finally:
        with contextlib.suppress(OSError):
            os.unlink(result.output)
        result.output = None


def write_json_report(results: Iterable[FileResult], out: IO[str], summary: Summary) -> None:
    """DESIGN.md's JSON report, written a file at a time (boards one a line): the same
    bytes as :func:`bridgefiles.jobs.report.render_json` gives for the same files."""
    out.write(JSON_HEAD)
    files = 0
    for result in results:
        out.write(json_file_head(result.path, result.format, result.file_diagnostics,
                                 first=files == 0))
        copy_output(result, out)
        out.write(json_file_tail(result.boards))
        files += 1
        summary.add(result)
    out.write(json_tail(summary.to_json(), files))


def read_file(
    path: str, format: str | None = None, *, strict: bool = False, info: FileInfo | None = None
) -> Iterator[Board]:
    """``bf.read`` of one input of a batch (``info`` learns what the file says as a whole)."""
    return read(path, format, strict=strict, info=info)


def with_target(task: ConvertTask, target: str) -> ConvertTask:
    """The same conversion, written to another target (one input of many)."""
    return replace(task, target=target)

