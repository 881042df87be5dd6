"""The public verbs: read, load, loads, dumps, write, validate, score and convert.

Everything goes through the format registry; the command line, batches, dask and the
upload service are thin layers over these functions. Only :class:`BridgeFileError`
leaves this module: bad input as :class:`UnreadableInputError` (or a diagnostic), a
wrong argument as :class:`UsageError`, a bug of ours as :class:`InternalError`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, Literal

from bridgefiles.errors import UsageError
from bridgefiles.files.output import Budget, output_charset, write_stream, write_text_file
from bridgefiles.files.reading import (
    SNIFF_BYTES,
    Source,
    bounded,
    caught,
    file_from_info,
    guarded,
    open_source,
    options_for,
    pick_format,
    stream_boards,
)
from bridgefiles.formats import registry
from bridgefiles.formats.decode import limited_text_lines
from bridgefiles.formats.registry import FileInfo, Format, Layout, ReadOptions, WriteOptions
from bridgefiles.formats.visitor import BoardVisitor
from bridgefiles.limits import Limits
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.model.file import BridgeFile

if TYPE_CHECKING:
    from bridgefiles.checks.validate import BoardReport
    from bridgefiles.scoring.settings import ScoreSettings

Laws = Literal["2017", "2007"]
Target = str | os.PathLike[str] | IO[str] | IO[bytes]
LAWS: tuple[str, ...] = ("2017", "2007")

__all__ = [
    "Laws",
    "Source",
    "Target",
    "adapted",
    "check_laws",
    "concat",
    "dumps",
    "file_from_info",
    "iter_dumps",
    "load",
    "loads",
    "read",
    "score",
    "validate",
    "write",
]


def read(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    limits: Limits | None = None,
    name: str | None = None,
    info: FileInfo | None = None,
    visitor: BoardVisitor[Board] | None = None,
) -> Iterator[Board]:
    """Stream the boards of a file, one at a time; problems ride on each board.

    ``source`` is a path, ``"-"`` for standard input, bytes, or an open file (binary,
    or text: then already decoded). The format comes from the name, else from the
    content; ``format`` overrides. ``name`` is the name to show (and to tell the
    format from) for bytes and streams. ``info``, when given, learns what the file
    says as a whole (directives, file diagnostics, encoding) as the boards go by.

    ``visitor`` (``bridgefiles.formats.visitor``) builds less than every board whole, in
    the same one pass: ``HeadersOnly()`` gives each board with its tags only (no auction,
    play or sections), ``PickBoards({0, 5})`` only the boards of those 0-based indexes,
    ``PickBoardNumbers({"3"})`` only the boards numbered so; the others are not built.
    Encoding findings of a skipped board ride on the next board handed over.

    >>> import io
    >>> data = b'[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
    >>> [board.board_number for board in read(io.BytesIO(data), "pbn")]
    ['1']
    >>> [board.dealer.value for board in read(io.StringIO(data.decode()), "pbn")]
    ['N']
    """
    if visitor is not None and not isinstance(visitor, BoardVisitor):
        raise UsageError(
            f"visitor must be a bridgefiles.formats.visitor.BoardVisitor, "
            f"not {type(visitor).__name__}"
        )
    opened = open_source(source, name)
    options = options_for(opened.path, strict, encoding, limits, text=opened.text)
    if visitor is not None:
        options = ReadOptions(
            strict=options.strict,
            path=options.path,
            encoding=options.encoding,
            limits=options.limits,
            visitor=visitor,
        )
    found = info if info is not None else FileInfo()
    try:
        yield from guarded(stream_boards(opened, format, options, found))
    finally:
        opened.close()


def _collect(boards: Iterator[Board], info: FileInfo, fmt_name: str) -> BridgeFile:
    collected = tuple(guarded(boards))
    with caught("building the file"):
        return file_from_info(collected, info, fmt_name)


def load(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    limits: Limits | None = None,
    name: str | None = None,
) -> BridgeFile:
    """A whole file: its boards, file-level directives and diagnostics.

    Takes what :func:`read` takes.

    >>> bridge_file = load(b'[Board "7"]\\n[Dealer "S"]\\n', "pbn", name="upload.pbn")
    >>> bridge_file.format, len(bridge_file.boards), bridge_file.path
    ('pbn', 1, 'upload.pbn')
    >>> load(12345)
    Traceback (most recent call last):
    ...
    bridgefiles.errors.UsageError: cannot read a int: give a path, '-', bytes or a binary stream
    """
    info = FileInfo()
    boards = read(source, format, strict=strict, encoding=encoding, limits=limits, name=name,
                  info=info)
    collected = tuple(boards)  # reading settles the format and the encoding
    return _collect(iter(collected), info, info.format or "unknown")


def loads(
    data: str | bytes,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    path: str | None = None,
    limits: Limits | None = None,
) -> BridgeFile:
    """A whole file from a str or bytes (handviewer URLs: ``format="url"``).

    >>> loads('[Board "2"]\\n[Dealer "E"]\\n').boards[0].dealer.value
    'E'
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        return load(bytes(data), format, strict=strict, encoding=encoding, limits=limits,
                    name=path)
    if not isinstance(data, str):
        raise UsageError(f"loads() takes str or bytes, not {type(data).__name__}")
    fmt = pick_format(format, path, data[:SNIFF_BYTES].encode("utf-8", "replace"))
    assert fmt.read is not None
    options = options_for(path, strict, None, limits, text=True)
    info = FileInfo(path=path, encoding="str", format=fmt.name)
    found: list[Diagnostic] = []
    with caught("reading"):
        lines = limited_text_lines(
            data, options.limits, found, path, options.strict, line_setting=fmt.line_limit
        )
        result = _collect(bounded(fmt.read(lines, options, info), options, info), info, fmt.name)
    if found:
        result = result.model_copy(update={"diagnostics": (*found, *result.diagnostics)})
    return result


def _boards_and_info(obj: BridgeFile | Iterable[Board]) -> tuple[Iterable[Board], FileInfo | None]:
    if isinstance(obj, BridgeFile):
        info = FileInfo(
            path=obj.path,
            format=obj.format,
            encoding=obj.encoding,
            newline=obj.newline,
            directives=list(obj.directives),
            preamble=obj.preamble,
            trailer=obj.trailer,
        )
        return obj.boards, info
    if isinstance(obj, Board):
        return [obj], None
    if isinstance(obj, (str, bytes)) or not isinstance(obj, Iterable):
        raise UsageError(f"write a BridgeFile or boards, not a {type(obj).__name__}")
    return obj, None


def writable_format(format: str) -> Format:
    """The board format called ``format``; a :class:`UsageError` when it is unknown or
    cannot be written as text (tables are written by ``bridgefiles.views.table``)."""
    fmt = registry.get(format)
    if fmt.write is None:
        known = ", ".join(registry.names(kind="boards", writable=True))
        raise UsageError(f"format {fmt.name!r} cannot be written as text (choose: {known})")
    return fmt


def iter_dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> Iterator[str]:
    """The text of ``dumps`` in pieces, a board at a time, so large outputs stream.

    A board read in another format is first adapted to this one
    (:func:`bridgefiles.formats.convert.adapt`); what the target cannot carry
    becomes a ``lost-in-conversion`` diagnostic, passed to ``on_diagnostic``.

    >>> board = loads('[Board "3"]\\n[Dealer "S"]\\n').boards[0]
    >>> "".join(iter_dumps([board], "lin"))[:9]
    'st||md|1|'
    """
    fmt = writable_format(format)
    if layout not in ("export", "preserve"):
        raise UsageError(f"layout must be 'export' or 'preserve', not {layout!r}")
    boards, info = _boards_and_info(obj)
    options = WriteOptions(layout=layout)
    assert fmt.write is not None
    with caught("writing"):
        yield from fmt.write(adapted(boards, fmt.name, on_diagnostic), options, info)


def adapted(
    boards: Iterable[Board],
    target: str,
    on_diagnostic: Callable[[Diagnostic], None] | None,
    *,
    labelled: bool = False,
) -> Iterator[Board]:
    """Boards made ready for the ``target`` writer; what it cannot carry is passed to
    ``on_diagnostic`` (``labelled``: with the board's label as its ``board``), a loss
    from the file's header once, not on every board that carries a copy of it."""
    from bridgefiles.formats.convert import LOST, adapt, family, once_per_file

    first = once_per_file()
    adapter = registry.get(target).adapter  # a format's own rule, fresh for each file
    own = adapter() if adapter is not None else None
    for board in boards:
        if not isinstance(board, Board):
            raise UsageError(f"write boards, not a {type(board).__name__}")
        fmt = board.format
        if (fmt is not None and family(fmt) != family(target)) or family(target) == "pbn":
            # (PBN: every board, whatever format it names, has its strings made safe)
            before = len(board.diagnostics)
            board = own(board) if own is not None else adapt(board, target)
            if on_diagnostic is not None:
                for diag in board.diagnostics[before:]:
                    if diag.code == LOST and first(diag):
                        on_diagnostic(diag.model_copy(update={"board": board.label})
                                      if labelled else diag)
        yield board


def dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
    max_size: int | None = None,
) -> str:
    """Text in ``format`` ("pbn" export format, "lin", "json"); ``layout="preserve"``
    gives back the text as read for boards that were not changed. ``max_size``: at
    most that many characters, else a ``limit`` BridgeFileError (for a file read from
    ``n`` bytes, ``Limits().output_budget(n)`` is the budget ``bf.convert`` applies).

    >>> bridge_file = loads('[Board "4"]\\n[Dealer "W"]\\n')
    >>> dumps(bridge_file, "pbn").splitlines()[:4]
    ['% PBN 2.1', '% EXPORT', '%', '[Event "?"]']
    >>> dumps(bridge_file, "html")
    Traceback (most recent call last):
    ...
    bridgefiles.errors.UsageError: unknown format 'html' (known: bri, csv, dge, ...)
    """
    pieces = iter_dumps(obj, format, layout=layout, on_diagnostic=on_diagnostic)
    budget = sized(max_size)
    return "".join(pieces if budget is None else budget.counted(pieces))


def sized(max_size: int | None) -> Budget | None:
    """The output budget of ``max_size`` bytes (``None``: none); a UsageError unless it is
    a positive int."""
    if max_size is None:
        return None
    if not isinstance(max_size, int) or isinstance(max_size, bool) or max_size < 1:
        raise UsageError(f"max_size must be a positive int or None, not {max_size!r}")
    return Budget(most=max_size)


def dumps_with_diagnostics(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
) -> tuple[str, list[Diagnostic]]:
    """``dumps``, and the ``lost-in-conversion`` diagnostics of a conversion."""
    found: list[Diagnostic] = []
    text = dumps(obj, format, layout=layout, on_diagnostic=found.append)
    return text, found


def write(
    obj: BridgeFile | Iterable[Board],
    target: Target,
    format: str | None = None,
    *,
    layout: Layout = "export",
    encoding: str | None = None,
    through: bool = False,
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
    max_size: int | None = None,
) -> None:
    """Write to a path (atomically: a temporary file, then a rename) or an open stream.

    A path's format comes from its extension unless ``format`` is given; a stream gets
    PBN unless told. Bytes go to a binary stream in the format's charset (the
    registry's, or the file's own for PBN). Only a regular file is ever replaced: a
    symbolic link, FIFO or device is refused unless ``through=True`` writes through it.
    ``max_size`` (bytes) bounds the output as in :func:`dumps`: over it, a path is left
    as it was; a stream keeps what it was given before.

    >>> import io
    >>> out = io.BytesIO()
    >>> write(loads('[Board "5"]\\n[Dealer "N"]\\n'), out, "lin")
    >>> out.getvalue()[:9]
    b'st||md|3|'
    """
    if not isinstance(target, (str, os.PathLike)):
        fmt = writable_format(format or "pbn")
        charset = output_charset(obj, fmt.name, encoding, layout)
        write_stream(iter_dumps(obj, fmt.name, layout=layout, on_diagnostic=on_diagnostic),
                     target, charset, budget=sized(max_size))
        return
    path = os.fspath(target)
    if format is None:
        guessed = registry.from_path(path)
        if guessed is not None and guessed.kind == "table":
            raise UsageError(f"{path}: tables are written by bf.convert(..., to={guessed.name!r})")
        format = guessed.name if guessed is not None and guessed.write is not None else "pbn"
    fmt = writable_format(format)
    charset = output_charset(obj, fmt.name, encoding, layout)
    pieces = iter_dumps(obj, fmt.name, layout=layout, on_diagnostic=on_diagnostic)
    write_text_file(pieces, path, charset, through=through, budget=sized(max_size))


def check_laws(laws: str) -> str:
    """``laws`` if it names an edition we know ("2017", "2007"); a UsageError otherwise."""
    if laws not in LAWS:
        raise UsageError(f"laws must be one of {', '.join(LAWS)}, not {laws!r}")
    return laws


def validate(board: Board, *, laws: Laws = "2017") -> BoardReport:
    """Replay a board against the Laws: the report of DESIGN.md for one board.

    >>> report = validate(loads('[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
    ...                         '[Contract "3NT"]\\n[Declarer "S"]\\n[Result "9"]\\n').boards[0])
    >>> report.contract.text, report.score.ns
    ('3NT', 400)
    """
    from bridgefiles.checks.validate import validate_board

    if not isinstance(board, Board):
        raise UsageError(f"validate() takes a Board, not {type(board).__name__}")
    check_laws(laws)
    with caught("validating"):
        return validate_board(board, laws=laws)


def score(
    bridge_file: BridgeFile,
    *,
    method: str | None = None,
    laws: Laws = "2017",
    replace: bool = False,
    settings: ScoreSettings | None = None,
) -> BridgeFile:
    """A new BridgeFile with contracts, results and scores filled in.

    ``method`` is a PBN Scoring value ("MP", "IMP", "Butler", "Cross-IMP", "Rubber"...)
    used instead of each board's own Scoring tag; ``laws`` the edition the boards are
    replayed under; ``replace`` replaces values already in the file that disagree with
    ours (otherwise they are reported, ``score-mismatch`` and the like, and kept).
    ``settings`` (:class:`bridgefiles.scoring.settings.ScoreSettings`) holds the rest,
    where organisers differ: matchpoint units, Neuberg, Butler discards, rounding...

    >>> scored = score(loads('[Board "1"]\\n[Dealer "N"]\\n[Vulnerable "None"]\\n'
    ...                      '[Contract "4S"]\\n[Declarer "N"]\\n[Result "10"]\\n'))
    >>> scored.boards[0].tag("Score")
    'NS 420'
    """
    from bridgefiles.scoring.fill import score_file

    if not isinstance(bridge_file, BridgeFile):
        raise UsageError(
            f"score() takes a BridgeFile (bf.load), not {type(bridge_file).__name__}")
    options = score_options(method, laws, replace, settings)
    with caught("scoring"):
        scored: BridgeFile = score_file(bridge_file, **options)
    return scored


def score_options(
    method: str | None, laws: Laws, replace: bool, settings: Any = None
) -> dict[str, Any]:
    """:func:`score`'s arguments as the scorer's settings (``score_file`` keywords),
    checked: a :class:`UsageError` for a wrong one (``convert --score`` checks the same)."""
    from bridgefiles.scoring.settings import ScoreSettings

    if settings is not None and not isinstance(settings, ScoreSettings):
        raise UsageError(f"settings must be a ScoreSettings, not {type(settings).__name__}")
    if method is not None and not isinstance(method, str):
        raise UsageError(f"method must be a Scoring value such as 'MP', not {method!r}")
    check_laws(laws)
    options: dict[str, Any] = settings.model_dump(exclude_unset=True) if settings else {}
    if method is not None:
        options["method"] = method
    options["laws"] = laws
    options["replace"] = bool(replace) or bool(options.get("replace"))  # either asks
    return options


def concat(*iterables: Iterable[Board]) -> Iterator[Board]:
    """The boards of several files, one after the other.

    >>> one = loads('[Board "1"]\\n[Dealer "N"]\\n').boards
    >>> [b.board_number for b in concat(one, one)]
    ['1', '1']
    """
    return chain.from_iterable(iterables)
