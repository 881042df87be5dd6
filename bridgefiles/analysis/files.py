"""Analysing whole files: ``bf.analyze`` and the per-file work of ``bridgefiles analyze``.

One file is solved in this process, its deals 40 to a solver call over all cores; many
files go to a process pool, a file per task, each worker's solver on one thread. A file
streams through: read a board at a time, held only while its solver batch is solved,
written to a temporary file that is put in place when whole.

>>> import bridgefiles as bf
>>> analysed = analyze(bf.load("event.pbn"))                  # doctest: +SKIP
>>> bf.dumps(analysed, layout="preserve")                     # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import chain

from pydantic import BaseModel

from bridgefiles.analysis import solver
from bridgefiles.analysis.annotate import with_analysis
from bridgefiles.analysis.check import (
    Analysis,
    analyse_boards,
    check_board,
    left_out,
    solvable_deal,
)
from bridgefiles.analysis.models import DDTable
from bridgefiles.api import iter_dumps, read
from bridgefiles.errors import BridgeFileError, InternalError, UnreadableInputError
from bridgefiles.files.output import Budget, check_target, replace_file, temporary_beside
from bridgefiles.files.reading import Source, file_from_info
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo, Layout
from bridgefiles.jobs.conversion import text_out
from bridgefiles.jobs.report import failure, finding_text
from bridgefiles.model.board import Board
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat

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
    analysis's, each naming its board), the output when it goes to standard output (a
    finished scratch file, for the caller to copy and remove), or the reason it failed
    (said as every command says it)."""

    path: str
    boards: int = 0
    analysed: int = 0
    unsolved: int = 0  # boards without a full, sound deal: not analysed
    changed: int = 0
    export_form: int = 0  # changed boards whose text could not be edited in place
    mismatches: int = 0
    findings: list[str] = []
    output_file: str | None = None
    error: str | None = None
    internal: bool = False  # the error is a bug of ours (exit status 3)


class FileTask(BaseModel):
    """One input of ``bridgefiles analyze``: where from (``path`` as shown; standard
    input with ``stdin``), where to (None: standard output), and whether only to compare."""

    path: str
    target: str | None = None
    check: bool = False
    stdin: bool = False
    data: bytes | None = None  # standard input, read by the parent for a worker process
    error: str | None = None  # why it cannot be read, known already (an unreadable folder)


def run_task(task: FileTask, progress: Callable[[int], None] | None = None) -> FileOutcome:
    """Read, analyse, compare and write one input, a board at a time (only a solver
    batch is held); never raises for a bad input. ``progress``: boards done so far."""
    outcome = FileOutcome(path=task.path)
    try:
        if task.error is not None:
            raise UnreadableInputError(task.error)
        if task.target not in (None, STDIN):
            check_target(task.target)  # a link or a device refused before the long work
        info = FileInfo()
        source: Source = task.data if task.data is not None else (
            STDIN if task.stdin else task.path)
        boards = read(source, info=info, name=task.path)
        analysed = _analysed(boards, task, outcome, progress)
        if task.check:
            deque(analysed, maxlen=0)
        else:
            _write(analysed, info, task, outcome)
        outcome.findings.extend(finding_text(d, task.path) for d in info.diagnostics)
    except UnreadableInputError as exc:  # said as every command says it
        outcome.error = finding_text(failure(task.path, exc), task.path)
    except BridgeFileError as exc:
        outcome.error = f"{task.path}: error: {exc}"
        outcome.internal = isinstance(exc, InternalError)
    except Exception as exc:  # our bug: say so, never as a finding about the file
        outcome.error = f"{task.path}: internal error (a bug of bridgefiles): {exc!r}"
        outcome.internal = True
    return outcome


def _analysed(boards: Iterable[Board], task: FileTask, outcome: FileOutcome,
              progress: Callable[[int], None] | None) -> Iterator[Board]:
    """The boards as read, each with its analysis written in (as read with ``check``),
    their findings and counts put in ``outcome``."""
    known = Recent()
    for batch in _batches(boards, known):
        for board, analysis in zip(batch, analyse_boards(batch, known=known), strict=True):
            yield _analysed_board(board, analysis, task, outcome)
        if progress is not None:
            progress(outcome.boards)


def _analysed_board(board: Board, analysis: Analysis | None, task: FileTask,
                    outcome: FileOutcome) -> Board:
    outcome.boards += 1
    outcome.findings.extend(finding_text(d, task.path, board.label) for d in board.diagnostics)
    if analysis is None:
        outcome.unsolved += 1
        why = left_out(board, "not analysed")
        if why is not None:
            outcome.findings.append(finding_text(why, task.path, board.label))
        return board
    outcome.analysed += 1
    for d in check_board(board, analysis):
        outcome.mismatches += 1
        outcome.findings.append(finding_text(d, task.path, board.label))
    if task.check:
        return board
    new, edited = with_analysis(board, analysis)
    if edited:
        outcome.changed += 1
        outcome.export_form += new.source is None and board.source is not None
    return new


_MOST_HELD = 4 * solver.BATCH  # boards held at once, whatever their deals


def _batches(boards: Iterable[Board], known: Mapping[str, object]) -> Iterator[list[Board]]:
    """The boards in runs that give the solver a full call (``solver.BATCH`` deals it
    has not solved yet), or fewer when boards without new deals pile up."""
    batch: list[Board] = []
    fresh: set[str] = set()
    for board in boards:
        batch.append(board)
        deal = solvable_deal(board)
        if deal is not None and (key := deal.pbn(Seat.N)) not in known:
            fresh.add(key)
        if len(fresh) >= solver.BATCH or len(batch) >= _MOST_HELD:
            yield batch
            batch, fresh = [], set()
    if batch:
        yield batch


class Recent(OrderedDict[str, DDTable]):
    """The tables of the deals solved last, by deal: a deal played at several tables
    (the rooms of a match, written near each other) is solved once, and the memory
    stays flat however long the stream."""

    def __init__(self, most: int = 4 * solver.BATCH) -> None:
        super().__init__()
        self.most = most

    def __setitem__(self, key: str, value: DDTable) -> None:
        super().__setitem__(key, value)
        if len(self) > self.most:
            self.popitem(last=False)


def _write(boards: Iterator[Board], info: FileInfo, task: FileTask,
           outcome: FileOutcome) -> None:
    """PBN in the layout read, streamed to a temporary file put in place when whole
    (standard output: a scratch file for the caller to copy); other formats cannot carry
    the tags, so they become PBN, in PBN's charset."""
    first = next(boards, None)  # reading settles the format and the preamble
    layout: Layout = "preserve" if info.format == "pbn" else "export"
    late = info.trailer is None  # the text after the last game, known at the end only
    data = file_from_info(chain(() if first is None else (first,), boards), info,
                          info.format or "pbn", stream=True)

    def pieces() -> Iterator[str]:
        yield from iter_dumps(data, "pbn", layout=layout)
        if layout == "preserve" and late and info.trailer:
            yield info.trailer

    target = task.target if task.target != STDIN else None
    if target is not None:
        try:  # --out-dir mirrors the input tree
            os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        except OSError as exc:
            raise BridgeFileError(f"{target}: cannot make its folder: "
                                  f"{exc.strerror or exc}") from exc
        final = temporary_beside(target)
    else:
        fd, final = tempfile.mkstemp(prefix="bridgefiles-", suffix=".pbn")
        os.close(fd)
    try:
        text_out(pieces(), final, registry.get("pbn"), info, None, None, layout, Budget())
        if target is not None:
            replace_file(final, target)
        else:
            outcome.output_file = final
    finally:
        if outcome.output_file != final:
            with contextlib.suppress(OSError):
                os.unlink(final)


def copy_output(outcome: FileOutcome, write: Callable[[bytes], None]) -> None:
    """The finished output of an input bound for standard output, to ``write``; then
    its scratch file is removed."""
    if outcome.output_file is None:
        return
    try:
        with open(outcome.output_file, "rb") as f:
            while chunk := f.read(1 << 16):
                write(chunk)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(outcome.output_file)


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
    tasks = [t.model_copy(update={"data": read_stdin()}) if t.stdin and t.data is None else t
             for t in tasks]  # a worker process cannot read standard input
    with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start) as pool:
        for outcome in pool.map(run_task, tasks):
            if progress is not None:
                progress(outcome.boards)
            yield outcome


class Steps:
    """A running count (boards done so far) as steps for a progress bar."""

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
