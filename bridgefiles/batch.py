"""Many inputs at once: walk files, directories and globs, and run work over a process pool.

The command line's ``validate``, ``convert`` and ``score`` are loops over files; this
module holds those loops so they are library functions (and so ``bridgefiles.dask``
can run the same per-file work on a cluster). Each unit of work is one file, read
as a stream: a worker never holds a whole file's boards, and what it has to print
goes to a temporary file that the parent copies out, so memory stays flat however
large a file is. Only :class:`BridgeFileError` leaves a worker; any other failure
of ours becomes a failed :class:`FileResult`.
"""

from __future__ import annotations

import codecs
import contextlib
import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import IO, Any, Literal

from bridgefiles import api
from bridgefiles.errors import BridgeFileError, UnreadableInputError
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo, Layout, ReadOptions
from bridgefiles.model.auction import AuctionEntry
from bridgefiles.model.board import Board
from bridgefiles.model.calls import PASS
from bridgefiles.model.content import game_content
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat

STDIN = "-"
BOARD_FORMATS = ("pbn", "lin", "json")
TABLE_FORMATS = ("csv", "parquet")
_EXTENSIONS = {"pbn": ".pbn", "lin": ".lin", "json": ".json", "csv": ".csv", "parquet": ".parquet"}
_PROGRESS_EVERY = 200  # boards between progress messages from a worker
_GLOB_CHARS = frozenset("*?[")


# -- inputs -------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """One input file, and the folder it was found under (so outputs can mirror the tree)."""

    path: str
    root: str | None = None

    @property
    def is_stdin(self) -> bool:
        return self.path == STDIN

    @property
    def display(self) -> str:
        return "<stdin>" if self.is_stdin else self.path

    @property
    def relative(self) -> Path:
        """Where the file sits below its root: the part an ``--out-dir`` mirrors."""
        if self.is_stdin:
            return Path("stdin")
        if self.root is not None:
            try:
                return Path(self.path).relative_to(self.root)
            except ValueError:
                pass
        return Path(Path(self.path).name)

    @property
    def size(self) -> int:
        if self.is_stdin:
            return 0
        try:
            return os.path.getsize(self.path)
        except OSError:
            return 0


def _known_extensions() -> tuple[str, ...]:
    exts: list[str] = []
    for name in registry.names():
        fmt = registry.get(name)
        if fmt.read is not None:
            exts.extend(fmt.extensions)
    return tuple(sorted(set(exts)))


def _glob_root(pattern: str) -> str:
    """The folder part of a glob before its first wildcard, which outputs mirror from."""
    parts = Path(pattern).parts
    fixed: list[str] = []
    for part in parts:
        if _GLOB_CHARS & set(part):
            break
        fixed.append(part)
    return str(Path(*fixed)) if fixed else "."


def expand(args: Iterable[str]) -> list[Input]:
    """Files, folders (searched recursively for known extensions), globs and ``-``.

    A plain file name is kept even when it does not exist, so reading it reports it
    as unreadable; a glob that matches nothing is a usage error (:class:`BridgeFileError`).
    """
    extensions = _known_extensions()
    out: list[Input] = []
    for arg in args:
        if arg == STDIN:
            out.append(Input(STDIN))
        elif os.path.isdir(arg):
            found = []
            for dirpath, dirnames, filenames in os.walk(arg):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for name in filenames:
                    if name.lower().endswith(extensions) and not name.startswith("."):
                        found.append(os.path.join(dirpath, name))
            out.extend(Input(p, arg) for p in sorted(found))
        elif _GLOB_CHARS & set(arg) and not os.path.exists(arg):
            matches = sorted(p for p in glob.glob(arg, recursive=True) if os.path.isfile(p))
            if not matches:
                raise UnreadableInputError(f"{arg}: no file matches")
            root = _glob_root(arg)
            out.extend(Input(p, root) for p in matches)
        else:
            out.append(Input(arg))
    return out


def output_path(item: Input, out_dir: str | os.PathLike[str], to: str) -> Path:
    """The output for ``item`` below ``out_dir``, mirroring the input tree."""
    return Path(out_dir) / item.relative.with_suffix(_EXTENSIONS[to])


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


# -- reading with the file's own information ---------------------------------------------


def read_file(
    path: str, format: str | None = None, *, strict: bool = False, info: FileInfo | None = None
) -> Iterator[Board]:
    """Like ``bf.read``, and fills ``info`` (directives, file diagnostics) as it goes."""
    if info is None:
        yield from api.read(path, format, strict=strict)
        return
    stream, shown, owned = api._open(path)
    options = ReadOptions(strict=strict, path=shown)
    try:
        yield from api._guard(api._read_stream(stream, shown, format, options, info))
    finally:
        if owned:
            stream.close()


def format_name(item: Input, forced: str | None) -> str:
    if forced:
        return forced
    fmt = None if item.is_stdin else registry.from_path(item.path)
    return fmt.name if fmt else "unknown"


# -- results ------------------------------------------------------------------------------

Status = Literal["ok", "failed", "unreadable"]


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
    output: str | None = None  # a temporary file of text for the parent to copy out
    written: str | None = None  # the file written (convert, score)
    file_diagnostics: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # lines for standard error

    def add(self, diagnostics: Iterable[Diagnostic]) -> None:
        for d in diagnostics:
            if d.severity is Severity.ERROR:
                self.errors += 1
            elif d.severity is Severity.WARNING:
                self.warnings += 1
            else:
                self.infos += 1

    def fails(self, fail_on: str | None) -> bool:
        """Whether this file's findings reach ``--fail-on``."""
        if fail_on == "warning":
            return bool(self.errors or self.warnings)
        if fail_on == "error":
            return bool(self.errors)
        return False


@dataclass
class Summary:
    files: int = 0
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    failed: int = 0
    unreadable: int = 0
    seconds: float = 0.0

    def add(self, result: FileResult) -> None:
        self.files += 1
        self.boards += result.boards
        self.errors += result.errors
        self.warnings += result.warnings
        self.infos += result.infos
        if result.status == "failed":
            self.failed += 1
        elif result.status == "unreadable":
            self.unreadable += 1

    def line(self, verb: str) -> str:
        rate = f" ({self.boards / self.seconds:,.0f} boards/s)" if self.seconds > 0.5 else ""
        text = (
            f"{verb} {self.files} file(s), {self.boards} board(s){rate}: {self.errors} error(s), "
            f"{self.warnings} warning(s), {self.infos} info(s)"
        )
        if self.failed or self.unreadable:
            text += f"; {self.failed + self.unreadable} input(s) failed"
        return text

    def to_json(self) -> dict[str, int]:
        return {
            "files": self.files,
            "boards": self.boards,
            "errors": self.errors,
            "warnings": self.warnings,
            "infos": self.infos,
        }


# -- progress (from workers to the parent) ---------------------------------------------

Report = Callable[[int], None]


def _no_report(_: int) -> None:
    return None


class _Counted:
    """Passes boards through, counting them and telling ``report`` now and then."""

    def __init__(self, boards: Iterable[Board], report: Report) -> None:
        self.boards = boards
        self.report = report
        self.count = 0

    def __iter__(self) -> Iterator[Board]:
        pending = 0
        for board in self.boards:
            self.count += 1
            pending += 1
            if pending >= _PROGRESS_EVERY:
                self.report(pending)
                pending = 0
            yield board
        if pending:
            self.report(pending)


# -- the units of work -----------------------------------------------------------------


@dataclass(frozen=True)
class ValidateTask:
    item: Input
    source_format: str | None = None
    strict: bool = False
    report: Literal["text", "json", "none"] = "text"


def _temp_output() -> IO[str]:
    return tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", prefix="bridgefiles-", suffix=".out", delete=False
    )


def validate_file(task: ValidateTask, report: Report = _no_report) -> FileResult:
    """Replay every board of one file against the Laws; findings go to a temporary file.

    Text reports are compiler-style lines; JSON reports are the ``boards`` entries of
    DESIGN.md's report, one a line, which :func:`write_json_report` puts together.
    """
    from bridgefiles.validate import validate_board

    item = task.item
    result = FileResult(path=item.display, format=format_name(item, task.source_format))
    info = FileInfo()
    out = _temp_output() if task.report != "none" else None
    if out is not None:
        result.output = out.name
    first = True
    try:
        counted = _Counted(read_file(item.path, task.source_format, strict=task.strict, info=info),
                           report)
        for board in counted:
            board_report = validate_board(board)
            result.add(board_report.diagnostics)
            if out is None:
                continue
            if task.report == "json":
                out.write(("" if first else ",\n") + json.dumps(board_report.to_json(),
                                                                ensure_ascii=False))
                first = False
            else:
                for d in board_report.diagnostics:
                    out.write(d.format(item.display) + "\n")
        result.boards = counted.count
    except UnreadableInputError as exc:
        result.status, result.message = "unreadable", str(exc)
        result.errors += 1
    except BridgeFileError as exc:
        result.status, result.message = "failed", str(exc)
        result.errors += 1
    finally:
        if out is not None:
            out.close()
    file_diags = list(info.diagnostics)
    if result.message is not None:
        file_diags.append(Diagnostic(code="syntax", severity=Severity.ERROR,
                                     message=result.message))
    else:
        result.add(file_diags)
    result.file_diagnostics = [d.to_json() for d in file_diags]
    if task.report == "text":
        result.notes = [d.format(item.display) for d in info.diagnostics]
    if info.encoding is None and result.format == "unknown":
        result.format = "unknown"
    return result


@dataclass(frozen=True)
class ConvertTask:
    """Read ``item``, optionally score it, and write ``to`` at ``target`` (``-``: a temp file
    whose text the parent copies to standard output)."""

    item: Input
    to: str
    target: str
    source_format: str | None = None
    layout: Literal["export", "preserve"] = "export"
    score: bool = False
    verify: bool = False
    strict: bool = False
    replace: bool = False  # scoring: replace existing values that disagree


def _boards_with_info(
    task: ConvertTask, info: FileInfo, report: Report
) -> tuple[Iterable[Board], _Counted, BridgeFile | None]:
    """The boards to write, streaming unless scoring (which needs every table of a board)
    or preserving the layout (which needs the file's preamble and trailer) asks for all."""
    if task.score or task.layout == "preserve":
        loaded = api.load(task.item.path, task.source_format, strict=task.strict)
        settings = {"replace": True} if task.replace else {}
        whole = api.score(loaded, **settings) if task.score else loaded
        counted = _Counted(whole.boards, report)
        return counted, counted, whole
    counted = _Counted(read_file(task.item.path, task.source_format, strict=task.strict,
                                 info=info), report)
    return counted, counted, None


def _lazy_file(boards: Iterator[Board], info: FileInfo, fmt: str) -> BridgeFile:
    """A BridgeFile whose boards are still a stream, so writers see the file's directives
    and the boards are never all held at once."""
    return api.file_from_info(boards, info, fmt, stream=True)


def _content(board: Board) -> dict[str, Any]:
    """Game content less what a writer may normalise as layout (DESIGN invariant 1): the
    order of tags, tags that only say "unknown" (``?``, which export format adds), how a
    value is spelled (inherited, another spelling of the same deal), ``AP`` written out."""
    content = game_content(board)
    canonical = _canonical_values(board)
    tags = [t for t in content.get("tags", []) if t.get("value") not in ("?", "")]
    for t in tags:
        t.pop("raw", None)  # "#" and "##" inheritance are spelling; the value is the content
        t.pop("implied", None)  # so is leaving out a value an earlier game's "##" gives
        if t.get("name") in canonical:
            t["value"] = canonical[t["name"]]
    auction = content.get("auction")
    if isinstance(auction, dict) and auction.get("end") == "AP":
        _expand_all_pass(auction)
    content["tags"] = sorted(tags, key=lambda t: json.dumps(t, sort_keys=True))
    return content


_PASS_ENTRY = AuctionEntry(call=PASS).model_dump(mode="json", exclude={"line", "column"})


def _expand_all_pass(auction: dict[str, Any]) -> None:
    """``AP`` as the passes it stands for (export format writes them out)."""
    entries = auction.get("entries") or []
    trailing = 0
    for entry in reversed(entries):
        if entry.get("call") != "Pass":
            break
        trailing += 1
    bids = len(entries) > trailing
    missing = (3 - trailing) if bids else (4 - trailing)
    auction["entries"] = [*entries, *(dict(_PASS_ENTRY) for _ in range(max(0, missing)))]
    auction["end"] = ""


def _canonical_values(board: Board) -> dict[str, str]:
    """Tags whose spelling export format may normalise, as the values they stand for."""
    out: dict[str, str] = {}
    if board.deal is not None:
        out["Deal"] = board.deal.pbn(Seat.N)
    if board.vulnerable is not None:
        out["Vulnerable"] = board.vulnerable.value
    if board.dealer is not None:
        out["Dealer"] = board.dealer.value
    if board.contract is not None:
        out["Contract"] = board.contract.text
    return out


def _digest(board: Board) -> bytes:
    data = json.dumps(_content(board), sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(data.encode("utf-8"), digest_size=16).digest()


def _expressed(board: Board, to: str) -> Board:
    """The board as the target format says it (written alone and read back in memory):
    what reading the output file must give back. Normalisations of the writer (export
    format, what a format cannot carry) are in it, so verification checks the file that
    was written, board by board: nothing lost, cut short, garbled or out of place."""
    if to == "json":
        return board
    # Written alone, a board has no earlier game to inherit from: write its inherited
    # values out (the content compared leaves the spelling of inheritance out).
    if any(t.implied for t in board.tags):
        board = board.model_copy(
            update={"tags": tuple(t.model_copy(update={"implied": False}) for t in board.tags)}
        )
    again = list(api.loads(api.dumps([board], to), to).boards)
    return again[0] if len(again) == 1 else board


def _verify(target: str, to: str, digests: list[bytes]) -> str | None:
    """Read the written file back; None when every board has the content written."""
    n = 0
    try:
        for n, board in enumerate(api.read(target, to), start=1):
            if n > len(digests):
                return f"verify: {target} has more boards than were written ({n})"
            if _digest(board) != digests[n - 1]:
                return f"verify: board {n} read back from the output differs from what was written"
    except BridgeFileError as exc:
        return f"verify: cannot read the output back: {exc}"
    if n != len(digests):
        return f"verify: {len(digests)} board(s) written, {n} read back"
    return None


def convert_file(task: ConvertTask, report: Report = _no_report) -> FileResult:
    """Convert one file; the output appears only complete (temp file, then a rename)."""
    item = task.item
    result = FileResult(path=item.display, format=format_name(item, task.source_format))
    info = FileInfo()
    to_stdout = task.target == STDIN
    if to_stdout:
        out = _temp_output()
        out.close()
        target = out.name
        result.output = target
    else:
        target = task.target
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    tmp: str | None = None
    try:
        boards, counted, whole = _boards_with_info(task, info, report)
        digests: list[bytes] = []
        if task.verify:
            boards = _recording(boards, digests, task.to)
        if task.to in TABLE_FORMATS:
            tmp = _temp_beside(target)
            from bridgefiles.table import write_table

            write_table(boards, tmp, task.to, path=item.display)
        else:
            if whole is not None:
                data: BridgeFile | Iterable[Board] = whole.model_copy(
                    update={"boards": tuple(boards)}) if task.verify else whole
            else:
                stream = iter(boards)
                first = next(stream, None)
                rest = stream if first is None else chain([first], stream)
                data = _lazy_file(rest, info, result.format)
            charset = None
            if whole is None and task.to == "pbn":
                charset = _stream_charset(item)
            if task.verify or to_stdout:
                tmp = _temp_beside(target)
                _write_text(data, tmp, task.to, task.layout, charset)
            else:  # api.write is atomic itself, and cleans what a killed run left
                api.write(data, target, task.to, layout=task.layout, encoding=charset)
        # a whole file written as it stands is not counted on the way through
        result.boards = counted.count or (len(whole.boards) if whole is not None else 0)
        if task.verify and tmp is not None and task.to not in TABLE_FORMATS:
            problem = _verify(tmp, task.to, digests)
            if problem is not None:
                raise BridgeFileError(problem)
        if tmp is not None:
            os.replace(tmp, target)
            tmp = None
        result.written = None if to_stdout else target
        for d in info.diagnostics:
            result.add([d])
            result.notes.append(d.format(item.display))
    except UnreadableInputError as exc:
        result.status, result.message = "unreadable", str(exc)
    except BridgeFileError as exc:
        result.status, result.message = "failed", str(exc)
    except Exception as exc:  # a bug of ours must not stop the other files
        result.status = "failed"
        result.message = f"internal error: {type(exc).__name__}: {exc}"
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    if result.status != "ok" and to_stdout and result.output:
        with contextlib.suppress(OSError):
            os.unlink(result.output)
        result.output = None
    return result


def _stream_charset(item: Input) -> str | None:
    """The charset PBN output of a streamed file needs when ISO-8859-1 cannot hold its text
    (the reader settles the file's charset only at its end): UTF-8 for UTF-8 input,
    Windows-1252 for single-byte input, as ``bf.write`` does for a loaded file.
    One quick pass over the bytes, a chunk at a time; None when ISO-8859-1 will do."""
    if item.is_stdin:
        return None
    for charset in ("utf-8", "cp1252"):
        decoder = codecs.getincrementaldecoder(charset)("strict")
        try:
            with open(item.path, "rb") as f:
                while chunk := f.read(1 << 20):
                    decoder.decode(chunk).encode("latin-1")
        except OSError:
            return None
        except UnicodeDecodeError:
            continue
        except UnicodeEncodeError:
            return charset
        return None
    return None


def _recording(
    boards: Iterable[Board], digests: list[bytes], to: str
) -> Iterator[Board]:
    for board in boards:
        digests.append(_digest(_expressed(board, to)))
        yield board


def _temp_beside(target: str) -> str:
    """A temporary name in the target's folder, so the final rename is atomic.

    Named ``.NAME.<pid>.*.part`` like the library's own, so the next write to the same
    target removes what a killed run left; what this run leaves is removed first.
    """
    path = Path(target)
    api._remove_stale_temporaries(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".part",
                                   dir=path.parent or ".")
    except OSError as exc:
        raise BridgeFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    os.close(fd)
    with contextlib.suppress(OSError):  # mkstemp makes it 0600; give the usual mode
        os.chmod(tmp, api._new_file_mode(path))
    return tmp


def _write_text(data: BridgeFile | Iterable[Board], tmp: str, to: str, layout: Layout,
                charset: str | None) -> None:
    """The text of ``data`` into ``tmp`` in the charset ``bf.write`` would use."""
    encoding = api._output_charset(data, to, charset, layout)
    try:
        with open(tmp, "w", encoding=encoding, errors="strict", newline="") as out:
            for piece in api.iter_dumps(data, to, layout=layout):
                out.write(piece)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end][:1]
        raise BridgeFileError(
            f"character {bad!r} cannot be written in {encoding}; nothing was written") from exc
    except OSError as exc:
        raise BridgeFileError(f"cannot write: {exc.strerror or exc}") from exc


@dataclass(frozen=True)
class CountTask:
    item: Input
    source_format: str | None = None


def count_file(task: CountTask, report: Report = _no_report) -> FileResult:
    """Read a file and count its boards (the benchmark's "read" over many files)."""
    result = FileResult(path=task.item.display, format=format_name(task.item, task.source_format))
    try:
        counted = _Counted(read_file(task.item.path, task.source_format), report)
        for _ in counted:
            pass
        result.boards = counted.count
    except BridgeFileError as exc:
        result.status, result.message = "failed", str(exc)
    return result


# -- running work over a pool ---------------------------------------------------------------


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


class _QueueReport:
    """A picklable progress callback that posts counts onto a manager queue."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue

    def __call__(self, n: int) -> None:
        self.queue.put(n)


def _call(func: Callable[[Any, Report], FileResult], task: Any, report: Report) -> FileResult:
    return func(task, report)


def run(
    func: Callable[[Any, Report], FileResult],
    tasks: Sequence[Any],
    jobs: int | None = None,
    progress: Report | None = None,
) -> Iterator[FileResult]:
    """Run ``func`` on every task, ``jobs`` at a time in worker processes, and yield the
    results in the order of ``tasks`` (so output is the same whatever the number of jobs).

    ``jobs=1`` (or a single task, or standard input among the inputs) works in this process.
    ``progress`` is told how many boards were done, now and then, from every worker.
    """
    jobs = default_jobs() if jobs is None or jobs < 1 else jobs
    in_process = jobs == 1 or len(tasks) <= 1 or any(
        getattr(t, "item", Input("")).is_stdin for t in tasks
    )
    if in_process:
        for task in tasks:
            yield func(task, progress or _no_report)
        return
    manager = None
    report: Report = _no_report
    if progress is not None:
        import multiprocessing

        manager = multiprocessing.Manager()
        queue = manager.Queue()
        report = _QueueReport(queue)
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            futures: list[Future[FileResult]] = [
                pool.submit(_call, func, task, report) for task in tasks
            ]
            for future in futures:
                while progress is not None and not future.done():
                    _drain(queue, progress, wait=0.1)
                if progress is not None:
                    _drain(queue, progress, wait=0)
                yield future.result()
    finally:
        if manager is not None:
            manager.shutdown()


def _drain(queue: Any, progress: Report, wait: float) -> None:
    import queue as queue_module

    try:
        n = queue.get(timeout=wait) if wait else queue.get_nowait()
        progress(n)
        while True:
            progress(queue.get_nowait())
    except queue_module.Empty:
        return


# -- progress bar ------------------------------------------------------------------------


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
    """Copy a worker's temporary text to ``out`` and delete it."""
    if result.output is None:
        return
    try:
        with open(result.output, encoding="utf-8", newline="") as f:
            shutil.copyfileobj(f, out)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(result.output)
        result.output = None


def write_json_report(results: Iterable[FileResult], out: IO[str], summary: Summary) -> None:
    """DESIGN.md's JSON report, written a file at a time (boards one a line)."""
    out.write('{"version": 1, "files": [')
    first = True
    for result in results:
        head = {"path": result.path, "format": result.format,
                "diagnostics": result.file_diagnostics}
        text = json.dumps(head, ensure_ascii=False)[:-1] + ', "boards": [\n'
        out.write(("\n" if first else ",\n") + text)
        copy_output(result, out)
        out.write("\n]}")
        first = False
        summary.add(result)
    out.write('\n], "summary": ' + json.dumps(summary.to_json()) + "}\n")


def with_target(task: ConvertTask, target: str) -> ConvertTask:
    return replace(task, target=target)
