"""The public verbs: read, load, loads, dumps, write (and validate, score).

Everything goes through the format registry; the command line is a thin layer
over these functions. Only :class:`BridgeFileError` leaves this module.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from bridgefiles.errors import BridgeFileError, UnreadableInputError
from bridgefiles.formats import registry
from bridgefiles.formats.decode import LineDecoder, split_lines, stream_lines, text_lines
from bridgefiles.formats.registry import FileInfo, Format, Layout, ReadOptions, WriteOptions
from bridgefiles.model.board import Board
from bridgefiles.model.file import BridgeFile

if TYPE_CHECKING:
    from bridgefiles.validate import BoardReport

Source = str | os.PathLike[str] | IO[bytes]
_CHUNK = 1 << 16
_SNIFF_BYTES = 8192


def _guard(boards: Iterator[Board]) -> Iterator[Board]:
    """Let nothing but BridgeFileError out of a reader (DESIGN invariant 3)."""
    try:
        yield from boards
    except BridgeFileError:
        raise
    except RecursionError as exc:
        raise BridgeFileError(f"input too deeply nested to read: {exc}") from exc
    except Exception as exc:  # a bug of ours must not become the caller's crash
        raise BridgeFileError(f"internal error while reading: {type(exc).__name__}: {exc}") from exc


def _pick_format(format: str | None, path: str | None, head: bytes) -> Format:
    if format:
        return registry.get(format)
    if path:
        fmt = registry.from_path(path)
        if fmt is not None:
            return fmt
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    fmt = registry.sniff(text)
    if fmt is None:
        where = path or "input"
        raise UnreadableInputError(f"{where}: cannot tell the format (use format='pbn' or 'lin')")
    return fmt


def _chunks(stream: IO[bytes], first: bytes) -> Iterator[bytes]:
    if first:
        yield first
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return
        yield chunk


def _open(source: Source) -> tuple[IO[bytes], str | None, bool]:
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == "-":
            return sys.stdin.buffer, "<stdin>", False
        try:
            return open(path, "rb"), path, True
        except OSError as exc:
            raise UnreadableInputError(f"{path}: {exc.strerror or exc}") from exc
    name = getattr(source, "name", None)
    return source, name if isinstance(name, str) else None, False


def _read_stream(
    stream: IO[bytes],
    path: str | None,
    format: str | None,
    options: ReadOptions,
    info: FileInfo,
) -> Iterator[Board]:
    try:
        head = stream.read(_SNIFF_BYTES)
    except OSError as exc:
        raise UnreadableInputError(f"{path}: {exc}") from exc
    fmt = _pick_format(format, path, head)
    if fmt.read is None:
        raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
    decoder = LineDecoder(path=path, declared=options.encoding)
    lines = decoder.lines(stream_lines(_chunks(stream, head)))

    def tracked() -> Iterator[str]:
        yield from lines
        info.encoding = decoder.encoding

    info.path = path
    boards = fmt.read(tracked(), options, info)
    yield from _with_decoder_diagnostics(boards, decoder, info)
    info.encoding = decoder.encoding or "ascii"


def _with_decoder_diagnostics(
    boards: Iterator[Board], decoder: LineDecoder, info: FileInfo
) -> Iterator[Board]:
    """Move encoding findings onto the board being read when they were found."""
    for board in boards:
        if decoder.diagnostics:
            found, decoder.diagnostics[:] = list(decoder.diagnostics), []
            board = board.model_copy(update={"diagnostics": (*found, *board.diagnostics)})
        yield board
    if decoder.diagnostics:
        info.diagnostics.extend(decoder.diagnostics)
        decoder.diagnostics.clear()


def read(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
) -> Iterator[Board]:
    """Stream the boards of a file, one at a time; problems ride on each board.

    ``source`` is a path, ``"-"`` for standard input, or a binary file object.
    The format comes from the name, else from the content; ``format`` overrides.
    """
    stream, path, owned = _open(source)
    options = ReadOptions(strict=strict, path=path, encoding=encoding)
    info = FileInfo(path=path)
    try:
        yield from _guard(_read_stream(stream, path, format, options, info))
    finally:
        if owned:
            stream.close()


def _collect(boards: Iterator[Board], info: FileInfo, fmt_name: str) -> BridgeFile:
    collected = tuple(_guard(boards))
    return BridgeFile(
        format=fmt_name,
        boards=collected,
        directives=tuple(info.directives),
        path=info.path,
        encoding=info.encoding,
        newline=info.newline,
        preamble=info.preamble,
        trailer=info.trailer,
        diagnostics=tuple(info.diagnostics),
    )


def load(
    source: Source,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
) -> BridgeFile:
    """A whole file: its boards, file-level directives and diagnostics."""
    stream, path, owned = _open(source)
    try:
        head = stream.read(_SNIFF_BYTES)
        fmt = _pick_format(format, path, head)
        data = head + stream.read()
    except OSError as exc:
        raise UnreadableInputError(f"{path}: {exc}") from exc
    finally:
        if owned:
            stream.close()
    return _loads_bytes(data, fmt, path, strict, encoding)


def loads(
    data: str | bytes,
    format: str | None = None,
    *,
    strict: bool = False,
    encoding: str | None = None,
    path: str | None = None,
) -> BridgeFile:
    """A whole file from a str or bytes (handviewer URLs: ``format="url"``)."""
    if isinstance(data, str):
        fmt = _pick_format(format, path, data[:_SNIFF_BYTES].encode("utf-8", "replace"))
        if fmt.read is None:
            raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
        options = ReadOptions(strict=strict, path=path, encoding=encoding)
        info = FileInfo(path=path, encoding="str")
        return _collect(fmt.read(text_lines(data), options, info), info, fmt.name)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise UnreadableInputError(f"loads() takes str or bytes, not {type(data).__name__}")
    raw = bytes(data)
    fmt = _pick_format(format, path, raw[:_SNIFF_BYTES])
    return _loads_bytes(raw, fmt, path, strict, encoding)


def _loads_bytes(
    data: bytes, fmt: Format, path: str | None, strict: bool, encoding: str | None
) -> BridgeFile:
    if fmt.read is None:
        raise UnreadableInputError(f"format {fmt.name!r} cannot be read")
    options = ReadOptions(strict=strict, path=path, encoding=encoding)
    info = FileInfo(path=path)
    decoder = LineDecoder(path=path, declared=encoding)
    boards = _with_decoder_diagnostics(
        fmt.read(decoder.lines(split_lines(data)), options, info), decoder, info
    )
    result = _collect(boards, info, fmt.name)
    return result.model_copy(update={"encoding": decoder.encoding or "ascii"})


def _boards_and_info(obj: BridgeFile | Iterable[Board]) -> tuple[Iterable[Board], FileInfo | None]:
    if isinstance(obj, BridgeFile):
        info = FileInfo(
            path=obj.path,
            encoding=obj.encoding,
            newline=obj.newline,
            directives=list(obj.directives),
            preamble=obj.preamble,
            trailer=obj.trailer,
        )
        return obj.boards, info
    if isinstance(obj, Board):
        return [obj], None
    return obj, None


def iter_dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
) -> Iterator[str]:
    """The text of ``dumps`` in pieces, a board at a time, so large outputs stream."""
    fmt = registry.get(format)
    if fmt.write is None:
        raise BridgeFileError(f"format {fmt.name!r} cannot be written")
    boards, info = _boards_and_info(obj)
    options = WriteOptions(layout=layout)
    try:
        yield from fmt.write(boards, options, info)
    except BridgeFileError:
        raise
    except Exception as exc:  # a bug of ours must not become the caller's crash
        raise BridgeFileError(f"internal error while writing: {type(exc).__name__}: {exc}") from exc


def dumps(
    obj: BridgeFile | Iterable[Board],
    format: str = "pbn",
    *,
    layout: Layout = "export",
) -> str:
    """Text in ``format`` ("pbn" export format, "lin", "json"); ``layout="preserve"``
    gives back the text as read for boards that were not changed."""
    return "".join(iter_dumps(obj, format, layout=layout))


def write(
    obj: BridgeFile | Iterable[Board],
    target: str | os.PathLike[str] | IO[str],
    format: str | None = None,
    *,
    layout: Layout = "export",
    encoding: str | None = None,
) -> None:
    """Write to a path (atomically: a temporary file, then a rename) or a text stream."""
    if not isinstance(target, (str, os.PathLike)):
        for piece in iter_dumps(obj, format or "pbn", layout=layout):
            target.write(piece)
        return
    path = Path(target)
    if format is None:
        guessed = registry.from_path(str(path))
        format = guessed.name if guessed else "pbn"
    charset = encoding or ("iso8859-1" if format == "pbn" else "utf-8")
    if isinstance(obj, BridgeFile) and format == "pbn" and obj.encoding and encoding is None:
        charset = obj.encoding if obj.encoding != "ascii" else "iso8859-1"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with open(fd, "w", encoding=charset, errors="strict", newline="") as out:
            for piece in iter_dumps(obj, format, layout=layout):
                out.write(piece)
        os.replace(tmp, path)
    except UnicodeEncodeError as exc:
        os.unlink(tmp)
        raise BridgeFileError(f"{path}: text cannot be written as {charset}: {exc}") from exc
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def validate(board: Board) -> BoardReport:
    """Replay a board against the Laws: the report of DESIGN.md for one board."""
    from bridgefiles.validate import validate_board

    return validate_board(board)


def score(bridge_file: BridgeFile, **settings: Any) -> BridgeFile:
    """A new BridgeFile with contracts, results and scores filled in."""
    from bridgefiles.scoring.fill import score_file

    scored: BridgeFile = score_file(bridge_file, **settings)
    return scored


def concat(*iterables: Iterable[Board]) -> Iterator[Board]:
    return chain.from_iterable(iterables)
