"""Many inputs at once: the library's batch verbs in one place.

The command line's ``validate``, ``convert`` and ``score`` are loops over files, and
``bridgefiles.dask`` runs the same per-file work on a cluster. The work is split by
concern: :mod:`bridgefiles.inputs` (files, folders, globs, output paths),
:mod:`bridgefiles.tasks` (validate, convert or count one file), :mod:`bridgefiles.pool`
(worker processes) and :mod:`bridgefiles.report` (the validate report); this module
gathers their public names, and puts the outputs of workers together.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import IO

from bridgefiles.api import read
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo
from bridgefiles.inputs import STDIN, Input, expand, glob_root, output_path, same_file
from bridgefiles.model.board import Board
from bridgefiles.output import temporary_beside
from bridgefiles.pool import default_jobs, run
from bridgefiles.report import JSON_HEAD, json_file_head, json_file_tail, json_tail
from bridgefiles.tasks import (
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
    "Progress",
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


# -- progress bar (the command line's) --------------------------------------------------


class Progress:
    """A one-line progress bar on standard error: boards, boards/s, files and ETA.

    Drawn only when the stream is a terminal and the run has lasted a second, so
    pipelines, logs and short runs stay quiet.
    """

    def __init__(self, total_files: int, total_bytes: int, stream: IO[str] | None = None,
                 *, enabled: bool | None = None, delay: float = 1.0,
                 interval: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = enabled if enabled is not None else bool(isatty and isatty())
        self.total_files = total_files
        self.total_bytes = total_bytes
        self.delay = delay
        self.interval = interval
        self.started = time.monotonic()
        self.boards = 0
        self.files = 0
        self.bytes_done = 0
        self.boards_in_done = 0
        self._drawn_at = 0.0
        self._drawn = False
        self.per_board_hint: float | None = None  # bytes a board, before any file is done

    def __call__(self, boards: int) -> None:
        self.boards += boards
        self._maybe_draw()

    def file_done(self, size: int, boards: int) -> None:
        self.files += 1
        self.bytes_done += size
        self.boards_in_done += boards
        self._maybe_draw()

    def text(self, now: float | None = None) -> str:
        elapsed = max((now if now is not None else time.monotonic()) - self.started, 1e-9)
        rate = self.boards / elapsed
        text = f"{self.boards:,} boards, {rate:,.0f} boards/s"
        text += f", {self.files}/{self.total_files} files"
        eta = self.eta(elapsed)
        if eta is not None:
            text += f", ETA {int(eta) // 60}:{int(eta) % 60:02d}"
        return text

    def eta(self, elapsed: float) -> float | None:
        """Seconds left, from the bytes done (boards in files not finished are
        estimated at the mean size of the boards seen so far)."""
        if not self.total_bytes or not self.boards:
            return None
        per_board = (self.bytes_done / self.boards_in_done if self.boards_in_done
                     else self.per_board_hint)
        done = self.bytes_done
        if per_board is not None:
            done += int((self.boards - self.boards_in_done) * per_board)
        if done <= 0:
            return None
        done = min(done, self.total_bytes)
        return elapsed * (self.total_bytes - done) / done

    def _maybe_draw(self) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.started < self.delay or now - self._drawn_at < self.interval:
            return
        self._drawn_at = now
        self._drawn = True
        self.stream.write("\r\x1b[K" + self.text(now))
        self.stream.flush()

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False


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
    bytes as :func:`bridgefiles.report.render_json` gives for the same files."""
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
    return replace(task, target=target)


# The command line's old names, until it uses registry.extension and output.temporary_beside.
_EXTENSIONS = {name: registry.extension(name) for name in registry.names()}
_temp_beside = temporary_beside
