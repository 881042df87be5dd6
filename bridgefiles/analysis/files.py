"""Analysing whole files: ``bf.analyze`` and the per-file work of ``bridgefiles analyze``.

One file is solved in this process, its deals 40 to a solver call over all cores; many
files go to a process pool, a file per task, each worker's solver on one thread.

>>> import bridgefiles as bf
>>> analysed = analyze(bf.load("event.pbn"))                  # doctest: +SKIP
>>> bf.dumps(analysed, layout="preserve")                     # doctest: +SKIP
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Literal

from pydantic import BaseModel

from bridgefiles.analysis import solver
from bridgefiles.analysis.annotate import with_analysis
from bridgefiles.analysis.check import analyse_boards, check_board
from bridgefiles.api import load, loads, write
from bridgefiles.errors import BridgeFileError, InternalError, UnreadableInputError
from bridgefiles.jobs.report import failure, finding_text
from bridgefiles.model.file import BridgeFile

STDIN = "-"


def analyze(bridge_file: BridgeFile, progress: Callable[[int], None] | None = None) -> BridgeFile:
    """A copy of the file with the double-dummy table and par written into every board
    that has a full deal (``DoubleDummyTricks``, ``OptimumScore``, ``ParContract``,
    ``OptimumResultTable``); values already there and right are kept as written, wrong
    ones replaced. ``progress`` gets the number of distinct deals solved so far."""
    analyses = analyse_boards(bridge_file.boards, progress)
    boards = [b if a is None else with_analysis(b, a)[0]
              for b, a in zip(bridge_file.boards, analyses, strict=True)]
    return bridge_file.model_copy(update={"boards": tuple(boards)})


class FileOutcome(BaseModel):
    """What one input gave: counts, the findings as text (the reading's and the
    analysis's, each naming its board), the output when it goes to standard output, or
    the reason it failed (said as every command says it)."""

    path: str
    boards: int = 0
    analysed: int = 0
    unsolved: int = 0  # boards without a full, sound deal: not analysed
    changed: int = 0
    export_form: int = 0  # changed boards whose text could not be edited in place
    mismatches: int = 0
    findings: list[str] = []
    output: bytes | None = None
    error: str | None = None
    internal: bool = False  # the error is a bug of ours (exit status 3)


class FileTask(BaseModel):
    """One input of ``bridgefiles analyze``: where from, where to (None: standard output),
    and whether only to compare."""

    path: str
    target: str | None = None
    check: bool = False
    data: bytes | None = None  # standard input, read by the parent
    error: str | None = None  # why it cannot be read, known already (an unreadable folder)


def run_task(task: FileTask, progress: Callable[[int], None] | None = None) -> FileOutcome:
    """Read, analyse, compare and write one input; never raises for a bad input."""
    outcome = FileOutcome(path=task.path)
    try:
        if task.error is not None:
            raise UnreadableInputError(task.error)
        bridge_file = (loads(task.data, path=task.path) if task.data is not None
                       else load(task.path))
        analyses = analyse_boards(bridge_file.boards, progress)
        boards = []
        for board, analysis in zip(bridge_file.boards, analyses, strict=True):
            outcome.boards += 1
            outcome.findings.extend(finding_text(d, task.path, board.label)
                                    for d in board.diagnostics)
            if analysis is None:
                outcome.unsolved += 1
                boards.append(board)
                continue
            outcome.analysed += 1
            for d in check_board(board, analysis):
                outcome.mismatches += 1
                outcome.findings.append(finding_text(d, task.path, board.label))
            if not task.check:
                new, edited = with_analysis(board, analysis)
                if edited:
                    outcome.changed += 1
                    outcome.export_form += new.source is None and board.source is not None
                boards.append(new)
        outcome.findings.extend(finding_text(d, task.path) for d in bridge_file.diagnostics)
        if not task.check:
            _write(bridge_file.model_copy(update={"boards": tuple(boards)}), task, outcome)
    except UnreadableInputError as exc:  # said as every command says it
        outcome.error = finding_text(failure(task.path, exc), task.path)
    except BridgeFileError as exc:
        outcome.error = f"{task.path}: error: {exc}"
        outcome.internal = isinstance(exc, InternalError)
    except Exception as exc:  # our bug: say so, never as a finding about the file
        outcome.error = f"{task.path}: internal error (a bug of bridgefiles): {exc!r}"
        outcome.internal = True
    return outcome


def _write(bridge_file: BridgeFile, task: FileTask, outcome: FileOutcome) -> None:
    """PBN in the layout read; other formats cannot carry the tags, so they become PBN
    (bytes in PBN's charset, also for standard output)."""
    layout: Literal["export", "preserve"] = (
        "preserve" if bridge_file.format == "pbn" else "export")
    if task.target is None or task.target == STDIN:
        buffer = io.BytesIO()
        write(bridge_file, buffer, "pbn", layout=layout)
        outcome.output = buffer.getvalue()
    else:
        try:  # --out-dir mirrors the input tree
            os.makedirs(os.path.dirname(task.target) or ".", exist_ok=True)
        except OSError as exc:
            raise BridgeFileError(f"{task.target}: cannot make its folder: "
                                  f"{exc.strerror or exc}") from exc
        write(bridge_file, task.target, "pbn", layout=layout)


def _worker_start() -> None:
    solver.set_threads(1)


def run_tasks(tasks: Sequence[FileTask], jobs: int,
              progress: Callable[[int], None] | None = None) -> Iterator[FileOutcome]:
    """Outcomes in input order. One input, or ``jobs`` 1, stays in this process (the
    solver still uses every core); otherwise a pool of ``jobs`` processes."""
    if jobs == 1 or len(tasks) == 1:
        for task in tasks:
            yield run_task(task, None if progress is None else Steps(progress))
        return
    with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start) as pool:
        for outcome in pool.map(run_task, tasks):
            if progress is not None:
                progress(outcome.analysed)
            yield outcome


class Steps:
    """The solver's running count (deals solved so far) as steps for a progress bar."""

    def __init__(self, progress: Callable[[int], None]) -> None:
        self.progress = progress
        self.done = 0

    def __call__(self, done: int) -> None:
        if done > self.done:
            self.progress(done - self.done)
            self.done = done


def read_stdin() -> bytes:
    """Standard input whole (a worker process cannot read it); closed: an error."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise BridgeFileError("standard input is closed: nothing to read")
    try:
        return stream.read()  # type: ignore[no-any-return]
    except OSError as exc:
        raise BridgeFileError(f"standard input cannot be read: {exc.strerror or exc}") from exc
