"""``bf.convert``: read, check, optionally score, and write, reporting every finding.

Modelled on Biopython's ``SeqIO.convert(in, in_format, out, out_format)``: one call
from a source to a target, streaming a board at a time unless scoring or the
preserve layout needs the whole file. What it finds on the way (reading, the Laws,
what the target format cannot carry, scoring) is returned in a :class:`Conversion`
and passed to ``on_diagnostic`` as it is found, each naming its board.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, Any

from bridgefiles.api import (
    Laws,
    Target,
    adapted,
    check_laws,
    iter_dumps,
    validate,
    writable_format,
)
from bridgefiles.api import (
    score as score_file,
)
from bridgefiles.errors import BridgeFileError, UsageError
from bridgefiles.formats import registry
from bridgefiles.formats.registry import FileInfo, Format, Layout
from bridgefiles.limits import Limits
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.file import BridgeFile
from bridgefiles.output import (
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
from bridgefiles.reading import (
    Source,
    file_from_info,
    guarded,
    internal,
    open_source,
    options_for,
    stream_boards,
)
from bridgefiles.report import Counts

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
        counts = Counts()
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
    board is an error: nothing is written.

    >>> import io
    >>> out = io.BytesIO()
    >>> source = io.BytesIO(b'[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
    ...                     b'[Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n')
    >>> done = convert(source, out, to="lin", format="pbn")
    >>> done.boards, done.errors, out.getvalue()[:9]
    (1, 0, b'st||rh||a')
    """
    check_laws(laws)
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
    try:
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
        _write(stream, target, fmt, done, info, emit, score=score, layout=layout, laws=laws,
               replace=replace, method=method, verify=verify, encoding=encoding,
               through=through, budget=budget)
        for diag in info.diagnostics:
            emit(diag)
        return done
    except BridgeFileError:
        raise
    except Exception as exc:
        raise internal(exc, "converting") from exc
    finally:
        opened.close()


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
        done.boards += 1
        if on_board is not None:
            on_board()
        yield board


def _scored(boards: Iterable[Board], info: FileInfo, emit: Finding, laws: Laws,
            replace: bool, method: str | None) -> BridgeFile:
    """The whole file scored, and what scoring found beyond what reading had."""
    whole = file_from_info(list(boards), info, info.format or "pbn")
    scored = score_file(whole, method=method, laws=laws, replace=replace)
    for before, after in zip(whole.boards, scored.boards, strict=True):
        known = set(before.diagnostics)  # a set: a board may hold thousands of findings
        for diag in after.diagnostics:
            if diag not in known:
                emit(_named(diag, after))
    return scored


def _write(boards: Iterator[Board], target: Target, fmt: Format, done: Conversion,
           info: FileInfo, emit: Finding, *, score: bool, layout: Layout, laws: Laws,
           replace: bool, method: str | None, verify: bool, encoding: str | None,
           through: bool, budget: Budget) -> None:
    """Write to a temporary file, check it, then put it in place (or copy it to a stream).

    The output may not pass ``budget`` (``Limits.max_output_factor`` times the bytes
    read, plus ``max_output_base``): a header copied into every board must not turn a
    small upload into gigabytes. Over it, the temporary file is removed, nothing is put
    in place, and the conversion fails with a ``limit`` finding."""
    data: BridgeFile | Iterable[Board]
    if score or layout == "preserve":
        whole = (_scored(boards, info, emit, laws, replace, method) if score
                 else file_from_info(list(boards), info, info.format or "pbn"))
        data, known = whole, True
    else:
        data, known = file_from_info(boards, info, info.format or "pbn", stream=True), False
    digests: list[bytes] = []
    if verify and fmt.kind != "table":
        from bridgefiles.verify import recording

        source = data.boards if isinstance(data, BridgeFile) else data
        recorded = recording(source, digests, fmt.name)
        data = (data.model_copy(update={"boards": tuple(recorded)}) if known
                else file_from_info(recorded, info, info.format or "pbn", stream=True))
    to_path = done.target is not None
    final = temporary_beside(done.target) if done.target is not None else _scratch(".out")
    try:
        if fmt.kind == "table":
            from bridgefiles.table import write_table

            rows = data if not isinstance(data, BridgeFile) else data.boards
            write_table(_within(rows, final, budget), final, fmt.name, path=done.path)
            budget.spend(os.path.getsize(final))
            charset = fmt.charset
        else:
            named = adapted(data.boards if isinstance(data, BridgeFile) else data, fmt.name,
                            emit, labelled=True)
            out = (data.model_copy(update={"boards": named}) if isinstance(data, BridgeFile)
                   else named)
            pieces = iter_dumps(out, fmt.name, layout=layout)
            charset = _text_out(pieces, final, fmt, info, data if known else None, encoding,
                                layout, budget)
        if digests:
            from bridgefiles.verify import verify_output

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


def _text_out(pieces: Iterator[str], final: str, fmt: Format, info: FileInfo,
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
