"""``bf.convert``: read, check, optionally score, and write, reporting every finding.

Modelled on Biopython's ``SeqIO.convert(in, in_format, out, out_format)``: one call
from a source to a target, streaming a board at a time. Scoring and the preserve
layout need facts of the whole file (every board's results; the charset, line ends
and trailer as read) before the first byte is written, so they read the input twice
(:class:`Rereading`): the first reading checks the boards and keeps only those facts,
the second writes. What it finds on the way (reading, the Laws, what the target
format cannot carry, scoring) is returned in a :class:`Conversion` and passed to
``on_diagnostic`` as it is found, each naming its board.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import IO, Any

from bridgefiles.api import (
    Laws,
    Target,
    adapted,
    check_laws,
    iter_dumps,
    score_options,
    validate,
    writable_format,
)
from bridgefiles.errors import BridgeFileError, UsageError
from bridgefiles.files.output import (
    Budget,
    charset_for,
    check_target,
    copy_file_to_stream,
    fitting_charset,
    is_text_stream,
    replace_file,
    temporary_beside,
    transcode,
)
from bridgefiles.files.reading import (
    Opened,
    Source,
    file_from_info,
    guarded,
    internal,
    open_source,
    options_for,
    stream_boards,
)
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo, Format, Layout
from bridgefiles.jobs.report import Summary
from bridgefiles.limits import Limits
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.file import BridgeFile
from bridgefiles.scoring.changes import Changes, apply_changes
from bridgefiles.scoring.fill import Scorer, settings_of

Finding = Callable[[Diagnostic], None]


@dataclass
class Conversion:
    """What :func:`convert` did: the boards written and every finding on the way."""

    path: str | None
    format: str
    to: str
    target: str | None = None  # the file written; None for a stream
    boards: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, diag: Diagnostic) -> None:
        counts = Summary()
        counts.add([diag])
        self.errors += counts.errors
        self.warnings += counts.warnings
        self.infos += counts.infos


def target_format(target: Target, to: str | None, source_format: str) -> Format:
    """``to``, else what the target's name says, else the source's own format."""
    if to is not None:
        fmt = registry.get(to)
    else:
        named = os.fspath(target) if isinstance(target, (str, os.PathLike)) else None
        guess = registry.from_path(named) if named and named != "-" else None
        fmt = guess if guess is not None else registry.get(source_format)
    if fmt.kind != "table":
        writable_format(fmt.name)
    return fmt


def convert(
    source: Source,
    target: Target,
    *,
    to: str | None = None,
    format: str | None = None,
    score: bool = False,
    layout: Layout = "export",
    laws: Laws = "2017",
    strict: bool = False,
    encoding: str | None = None,
    limits: Limits | None = None,
    replace: bool = False,
    method: str | None = None,
    verify: bool = False,
    check: bool = True,
    name: str | None = None,
    through: bool = False,
    on_diagnostic: Finding | None = None,
    on_board: Callable[[], None] | None = None,
    extra: Callable[[Board, dict[str, Any]], dict[str, Any]] | None = None,
    extra_types: dict[str, str] | None = None,
) -> Conversion:
    """Read ``source``, convert it to ``to`` and write it to ``target``; the findings.

    ``source`` is what :func:`bridgefiles.read` takes; ``target`` a path, ``"-"``
    (standard output) or an open stream (bytes in the format's charset to a binary
    one). ``to`` defaults to the target's extension, else the source's format:
    board formats ("pbn", "lin", "json", "url") and tables ("csv", "parquet").
    ``score`` fills in results and scores (``replace``: replacing values that
    disagree; ``method``: a Scoring value instead of each board's own); ``check``
    replays every board against the Laws (``laws``) so that the
    findings are those ``validate`` reports. ``verify`` reads the output back before
    it replaces anything. Findings are kept in the result unless ``on_diagnostic``
    takes them as they come (so memory stays flat on huge files). A file with no
    board is an error: nothing is written. ``extra`` and ``extra_types`` add columns
    to a table, as :func:`bridgefiles.views.table.write_table` takes them (the ``dd``
    columns of ``bridgefiles.analysis.ddscore``); for another format they are refused.

    >>> import io
    >>> out = io.BytesIO()
    >>> source = io.BytesIO(b'[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
    ...                     b'[Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n')
    >>> done = convert(source, out, to="lin", format="pbn")
    >>> done.boards, done.errors, out.getvalue()[:9]
    (1, 0, b'st||md|3|')
    """
    check_laws(laws)
    if extra is not None and to is not None and registry.get(to).kind != "table":
        raise UsageError(f"extra columns are a table's: convert to csv or parquet, not {to}")
    if layout not in ("export", "preserve"):
        raise UsageError(f"layout must be 'export' or 'preserve', not {layout!r}")
    to_path = isinstance(target, (str, os.PathLike)) and os.fspath(target) != "-"
    if to_path:
        check_target(target, through=through)  # type: ignore[arg-type]
    elif not isinstance(target, (str, os.PathLike)) and not callable(
        getattr(target, "write", None)
    ):
        raise UsageError(f"cannot write to a {type(target).__name__}: give a path or a stream")
    opened = open_source(source, name)
    options = options_for(opened.path, strict, encoding, limits, text=opened.text)
    info = FileInfo()
    twice: Rereading | None = None
    scorer: Scorer | None = None
    try:
        if score or layout == "preserve":
            twice = Rereading(opened)
        boards = guarded(stream_boards(opened, format, options, info))
        first = next(boards, None)  # settles the format
        fmt = target_format(target, to, info.format or "pbn")
        done = Conversion(path=opened.path, format=info.format or "unknown", to=fmt.name,
                          target=os.fspath(target) if to_path else None)  # type: ignore[arg-type]
        emit = _emitter(done, on_diagnostic)
        budget = Budget(options.limits, lambda: opened.consumed, strict=options.strict,
                        path=opened.path, on_limit=emit)
        if first is None:  # not a clean file: say what reading found, and write nothing
            for diag in info.diagnostics:
                emit(diag)
            raise BridgeFileError(f"{opened.path or 'input'}: no board found; nothing written")
        stream = _checked(chain([first], boards), done, emit, check, laws, on_board)
        if twice is None:
            data = file_from_info(stream, info, info.format or "pbn", stream=True)
        else:  # first reading: every board checked, only their scoring facts kept
            if score:
                chosen = score_options(method, laws, replace)
                chosen["limits"] = options.limits  # the file's limits bound scoring too
                scorer = Scorer(settings_of(chosen))
                count = _scored(stream, emit, scorer)
                changes: Iterator[Changes | None] = scorer.changes()
            else:
                count = sum(1 for _ in stream)
                changes = repeat(None, count)
            again = guarded(stream_boards(twice.again(), format, options, FileInfo()))
            data = file_from_info(_changed(again, changes, count), info, info.format or "pbn",
                                  stream=True)
        _write(data, target, fmt, done, info, emit, known=twice is not None, layout=layout,
               verify=verify, encoding=encoding, through=through, budget=budget,
               extra=extra, extra_types=extra_types)
        for diag in info.diagnostics:
            emit(diag)
        return done
    except BridgeFileError:
        raise
    except Exception as exc:
        raise internal(exc, "converting") from exc
    finally:
        opened.close()
        if twice is not None:
            twice.close()
        if scorer is not None:
            scorer.close()


class Rereading:
    """A way to read an opened input a second time: seek back where it started, or,
    for a source that cannot seek (standard input from a pipe, a text handle), read
    again what the first reading copied to a temporary file on disk as it went."""

    def __init__(self, opened: Opened) -> None:
        self.opened = opened
        self.start = _position(opened.stream) if not opened.text else None
        self.spool: str | None = None
        self.copy: IO[bytes] | None = None
        self.second: Opened | None = None
        if self.start is None:
            try:
                self.spool = _scratch(".input")
                self.copy = open(self.spool, "wb")  # noqa: SIM115 (closed by again or close)
            except OSError as exc:
                self.close()
                raise _no_copy(exc) from exc
            opened.stream = _Tee(opened.stream, self.copy)  # type: ignore[assignment]

    def again(self) -> Opened:
        """The input from its start, as the first reading had it."""
        first = self.opened
        if self.start is not None:
            try:
                first.stream.seek(self.start)
            except (OSError, ValueError) as exc:
                raise BridgeFileError(f"cannot read the input again (it is read twice): "
                                      f"{exc}; nothing was written") from exc
            self.second = Opened(first.stream, first.path, text=first.text)
        else:
            assert self.copy is not None and self.spool is not None
            self.copy.close()
            self.second = Opened(open(self.spool, "rb"), first.path, owned=True,  # noqa: SIM115
                                 text=first.text)
        return self.second

    def close(self) -> None:
        if self.second is not None:
            self.second.close()
        if self.copy is not None:
            self.copy.close()
        if self.spool is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.spool)


def _position(stream: IO[bytes]) -> int | None:
    """Where a stream that can seek back stands; None when it cannot."""
    try:
        return stream.tell() if stream.seekable() else None
    except (AttributeError, OSError, ValueError):
        return None


class _Tee(io.RawIOBase):
    """A stream read as it is, what is read copied to ``copy``."""

    def __init__(self, stream: IO[bytes], copy: IO[bytes]) -> None:
        self.stream = stream
        self.copy = copy

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        data = self.stream.read(-1 if size is None else size)
        if isinstance(data, (bytes, bytearray)):  # else the reader says what it got
            try:
                self.copy.write(data)
            except OSError as exc:  # a full disk: the input's conversion fails, not ours
                raise _no_copy(exc) from exc
        return data


def _no_copy(exc: OSError) -> BridgeFileError:
    return BridgeFileError(f"cannot keep a copy of the input to read it again (it cannot "
                           f"seek): {exc.strerror or exc}; nothing was written")


def _emitter(done: Conversion, on_diagnostic: Finding | None) -> Finding:
    def emit(diag: Diagnostic) -> None:
        done.add(diag)
        if on_diagnostic is not None:
            on_diagnostic(diag)
        else:
            done.diagnostics.append(diag)

    return emit


def _named(diag: Diagnostic, board: Board) -> Diagnostic:
    """The finding with its board's label (``board 7 (Open)``) as its ``board``."""
    return diag.model_copy(update={"board": board.label})


def _checked(boards: Iterable[Board], done: Conversion, emit: Finding, check: bool,
             laws: Laws, on_board: Callable[[], None] | None) -> Iterator[Board]:
    """Boards as they go by, their findings (reading and the Laws) emitted and counted."""
    for board in boards:
        found = validate(board, laws=laws).diagnostics if check else board.diagnostics
        for diag in found:
            emit(_named(diag, board))
        del found  # not kept while the board is written or scored (thousands, at times)
        done.boards += 1
        if on_board is not None:
            on_board()
        yield board


def _scored(boards: Iterable[Board], emit: Finding, scorer: Scorer) -> int:
    """The boards scored (let go as they pass: their records are kept on disk), and what
    scoring found beyond what reading had, emitted in order; how many boards."""
    for board in boards:
        scorer.add(board)
    for change in scorer.changes():
        if change is not None:
            for diag in change.new:
                emit(diag.model_copy(update={"board": change.label}))
    return len(scorer)


def _changed(boards: Iterable[Board], changes: Iterator[Changes | None],
             count: int) -> Iterator[Board]:
    """The second reading, each board with its ``count`` changes made (in order); it
    must give the boards the first reading gave."""
    given = 0
    for board in boards:
        if given == count:
            break
        yield apply_changes(board, next(changes))
        given += 1
    else:
        if given == count:
            return
    raise BridgeFileError("the input changed while it was read (it is read twice); "
                          "nothing was written")


def _write(data: BridgeFile, target: Target, fmt: Format, done: Conversion,
           info: FileInfo, emit: Finding, *, known: bool, layout: Layout, verify: bool,
           encoding: str | None, through: bool, budget: Budget,
           extra: Callable[[Board, dict[str, Any]], dict[str, Any]] | None = None,
           extra_types: dict[str, str] | None = None) -> None:
    """Write to a temporary file, check it, then put it in place (or copy it to a stream).

    ``data`` streams its boards; ``known``: the input was read once before, so what
    the file says of itself (charset, line ends) is known before writing starts.
    The output may not pass ``budget`` (``Limits.max_output_factor`` times the bytes
    read, plus ``max_output_base``): a header copied into every board must not turn a
    small upload into gigabytes. Over it, the temporary file is removed, nothing is put
    in place, and the conversion fails with a ``limit`` finding."""
    digests: list[bytes] = []
    if verify and not fmt.board_for_board:
        raise UsageError(f"verify compares the output board by board, and {fmt.name} gathers "
                         "the games of a board into one: convert without verify")
    if verify and fmt.kind != "table":
        from bridgefiles.jobs.verify import recording

        recorded = recording(data.boards, digests, fmt.name)
        data = file_from_info(recorded, info, info.format or "pbn", stream=True)
    to_path = done.target is not None
    final = temporary_beside(done.target) if done.target is not None else _scratch(".out")
    try:
        if fmt.kind == "table":
            from bridgefiles.views.table import write_table

            rows = data.boards
            write_table(_within(rows, final, budget), final, fmt.name, path=done.path,
                        extra=extra, extra_types=extra_types)
            budget.spend(os.path.getsize(final))
            charset = fmt.charset
        elif extra is not None:  # the target's name said a board format
            raise UsageError(f"extra columns are a table's: convert to csv or parquet, "
                             f"not {fmt.name}")
        else:
            named = adapted(data.boards, fmt.name, emit, labelled=True)
            pieces = iter_dumps(file_from_info(named, info, info.format or "pbn", stream=True),
                                fmt.name, layout=layout)
            charset = text_out(pieces, final, fmt, info, data if known else None, encoding,
                                layout, budget)
        if digests:
            from bridgefiles.jobs.verify import verify_output

            problem = verify_output(final, fmt.name, digests)
            if problem is not None:
                raise BridgeFileError(problem)
        if to_path:
            replace_file(final, done.target, through=through)  # type: ignore[arg-type]
        else:
            _to_stream(final, target, charset)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(final)


def _within(boards: Iterable[Board], final: str, budget: Budget) -> Iterator[Board]:
    """Boards for a table writer, the size of its file checked against ``budget`` as
    they go (the writer buffers, so a check lags by a buffer at most)."""
    for board in boards:
        yield board
        with contextlib.suppress(OSError):
            budget.spend(os.path.getsize(final))


def _scratch(suffix: str) -> str:
    fd, name = tempfile.mkstemp(prefix="bridgefiles-", suffix=suffix)
    os.close(fd)
    return name


def text_out(pieces: Iterator[str], final: str, fmt: Format, info: FileInfo,
             whole: BridgeFile | Iterable[Board] | None, asked: str | None,
             layout: Layout, budget: Budget) -> str:
    """The text into ``final`` in its charset: known up front for a whole file, else
    (streaming) settled by what the reader found, through a UTF-8 spool."""
    if whole is not None or asked is not None or (fmt.name != "pbn" and layout == "export"):
        read_as = whole.encoding if isinstance(whole, BridgeFile) else None
        charset = charset_for(fmt.name, read_as, asked, layout)
        transcode(pieces, final, charset, budget=budget)
        return charset
    spool = _scratch(".spool")
    try:
        transcode(pieces, spool, "utf-8", budget=budget)
        if info.format != "pbn" and info.encoding != "str":  # PBN from LIN or JSON
            charset = fitting_charset(spool, info.encoding)
        else:
            charset = charset_for(fmt.name, info.encoding, None, layout)
        transcode(_spooled(spool), final, charset, budget=budget)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(spool)
    return charset


def _spooled(path: str) -> Iterator[str]:
    with open(path, encoding="utf-8", newline="") as f:
        while piece := f.read(1 << 16):
            yield piece


def _to_stream(final: str, target: Target, charset: str | None) -> None:
    stream: IO[Any] = sys.stdout.buffer if isinstance(target, (str, os.PathLike)) else target
    if is_text_stream(stream):
        if charset is None:
            raise UsageError("a binary format (Parquet) needs a binary stream or a path")
        copy_file_to_stream(final, stream, charset, as_text=True)
    else:
        copy_file_to_stream(final, stream, charset, as_text=False)
