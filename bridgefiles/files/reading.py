"""From a source (path, ``-``, bytes, a binary or text stream) to a stream of boards.

The steps under ``bf.read`` and ``bf.load``, public so that batches, dask and the
upload service read exactly as the library does: :func:`open_source`,
:func:`pick_format`, :func:`stream_boards` (decode, parse, bound) and :func:`guarded`
(nothing but :class:`BridgeFileError` gets out; our own bugs as :class:`InternalError`).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

from bridgefiles.errors import (
    BridgeFileError,
    InternalError,
    StrictModeError,
    UnreadableInputError,
    UsageError,
)
from bridgefiles.files.output import is_text_stream, text_charset
from bridgefiles.formats import registry
from bridgefiles.formats.decode import LineDecoder
from bridgefiles.formats.lines import Lines
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions
from bridgefiles.limits import DEFAULT_LIMITS, Limits, limit_diagnostic
from bridgefiles.model.board import Board
from bridgefiles.model.file import BridgeFile

Source = str | os.PathLike[str] | bytes | IO[bytes] | IO[str]
STDIN = "-"
CHUNK = 1 << 16
SNIFF_BYTES = 8192


class _TextAsUtf8(io.RawIOBase):
    """A text handle read as UTF-8 bytes (the text is already decoded: its charset is moot)."""

    def __init__(self, text: IO[str]) -> None:
        self.text = text
        self.pending = b""

    def readable(self) -> bool:
        return True

    def _read_text(self, size: int = -1) -> str:
        try:
            return self.text.read(size)
        except UnicodeDecodeError as exc:
            raise UnreadableInputError(
                f"the text handle cannot decode this file ({exc.reason} at byte {exc.start}); "
                "open it in binary ('rb') and bridgefiles finds its charset"
            ) from exc

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            data = self.pending + self._read_text().encode("utf-8", "surrogatepass")
            self.pending = b""
            return data
        while len(self.pending) < size:
            piece = self._read_text(size)
            if not piece:
                break
            self.pending += piece.encode("utf-8", "surrogatepass")
        data, self.pending = self.pending[:size], self.pending[size:]
        return data


@dataclass
class Opened:
    """An open source: the bytes to read, the name to show, whether we close it, and
    whether it was text (already decoded, so read as UTF-8 whatever it declares)."""

    stream: IO[bytes]
    path: str | None
    owned: bool = False
    text: bool = False
    consumed: int = 0  # bytes read so far (the output budget grows with them)

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def _unread_buffer(text: Any) -> IO[bytes] | None:
    """The binary buffer under a text handle nothing has been read from (``open(p)``,
    ``sys.stdin``), so the file's own charset is found rather than the locale's assumed."""
    raw = getattr(text, "buffer", None)
    if raw is None or not callable(getattr(raw, "read", None)):
        return None
    try:
        if text.tell() != 0:
            return None
    except (OSError, ValueError):  # a pipe: nothing tells, nothing was read by us
        pass
    return raw  # type: ignore[no-any-return]


def open_source(source: Source, name: str | None = None) -> Opened:
    """Open a path (``-``: standard input), wrap bytes, or take a stream as it is.

    ``name`` is what diagnostics show and what the format is guessed from (an upload's
    file name); a path is its own name. Anything else is a :class:`UsageError`.
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if not isinstance(path, str):
            raise UsageError("give paths as str, not bytes")
        if path == STDIN:
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:  # the shell closed it (<&-): an error of this run, not ours
                raise BridgeFileError("standard input is closed: nothing to read")
            return Opened(stdin, name or "<stdin>")
        try:
            return Opened(open(path, "rb"), name or path, owned=True)
        except OSError as exc:
            raise UnreadableInputError(f"{path}: {exc.strerror or exc}") from exc
        except ValueError as exc:  # an embedded NUL
            raise UsageError(f"{path!r}: not a usable path: {exc}") from exc
    if isinstance(source, (bytes, bytearray, memoryview)):
        return Opened(io.BytesIO(bytes(source)), name)
    if not callable(getattr(source, "read", None)):
        raise UsageError(
            f"cannot read a {type(source).__name__}: give a path, '-', bytes or a binary stream"
        )
    shown = name or getattr(source, "name", None)
    shown = shown if isinstance(shown, str) else None
    if is_text_stream(source):
        raw = _unread_buffer(source)
        if raw is not None:  # a file opened in text mode, not read yet: its own bytes
            return Opened(raw, shown)
        return Opened(_TextAsUtf8(source), shown, text=True)  # type: ignore[arg-type]
    return Opened(source, shown)  # type: ignore[arg-type]


def read_head(opened: Opened) -> bytes:
    """The first bytes, to tell the format from; they are read again by the decoder."""
    try:
        head = opened.stream.read(SNIFF_BYTES)
    except OSError as exc:
        raise UnreadableInputError(f"{opened.path or 'input'}: {exc}") from exc
    if isinstance(head, str):
        raise UsageError("a text stream gave text where bytes were expected; open it with 'rb'")
    if not isinstance(head, (bytes, bytearray)):
        raise UsageError(f"the stream gave {type(head).__name__}, not bytes; open it with 'rb'")
    return bytes(head)


def pick_format(format: str | None, path: str | None, head: bytes) -> Format:
    """``format`` if given, else the name's extension, else the content's (sniffed)."""
    if format:
        given = registry.get(format)
        if given.read is None:
            raise UsageError(f"format {given.name!r} cannot be read")
        return given
    named = registry.from_path(path) if path else None
    if named is not None and named.read is not None:
        return named
    text = head.decode("utf-8", "replace").lstrip("\ufeff")
    fmt = registry.sniff(text)
    if fmt is None:
        where = path or "input"
        readable = " or ".join(repr(n) for n in registry.names(kind="boards", readable=True))
        raise UnreadableInputError(f"{where}: cannot tell the format (give the format: {readable})")
    return fmt


# Compressed inputs, told by their first bytes (never by their name): read through the
# standard library's decompressors, so an archive's ``.pbn.gz`` reads as its PBN.
COMPRESSIONS: dict[bytes, str] = {b"\x1f\x8b": "gzip", b"BZh": "bz2", b"\xfd7zXZ\x00": "xz"}
COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz")


def compression(head: bytes) -> str | None:
    """``gzip``, ``bz2`` or ``xz`` when the bytes start as such a file does."""
    for magic, kind in COMPRESSIONS.items():
        if head.startswith(magic):
            return kind
    return None


class _Prefixed(io.RawIOBase):
    """The bytes already read (the head), then the rest of the stream."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self.head = head
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


class _Decompressed(io.RawIOBase):
    """A compressed stream's bytes, unpacked as they are read; damaged data is the
    input's fault (:class:`UnreadableInputError`), never a crash."""

    def __init__(self, kind: str, head: bytes, stream: IO[bytes], where: str) -> None:
        import bz2
        import gzip
        import lzma

        raw = io.BufferedReader(_Prefixed(head, stream))
        self.kind = kind
        self.where = where
        self.inner: IO[bytes] = (
            gzip.GzipFile(fileobj=raw, mode="rb") if kind == "gzip"  # type: ignore[assignment]
            else bz2.BZ2File(raw) if kind == "bz2" else lzma.LZMAFile(raw))  # noqa: SIM115

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        import lzma
        import zlib

        try:
            return self.inner.read(size)
        except (OSError, EOFError, zlib.error, lzma.LZMAError) as exc:
            raise UnreadableInputError(
                f"{self.where}: its {self.kind} data cannot be unpacked: {exc}") from exc


def plain_name(path: str | None, kind: str | None) -> str | None:
    """The name without the compression's suffix (``x.pbn.gz``: ``x.pbn``), which the
    format is told from."""
    if path is None or kind is None:
        return path
    lower = path.lower()
    for suffix in COMPRESSED_SUFFIXES:
        if lower.endswith(suffix):
            return path[: -len(suffix)]
    return path


def unpacked(opened: Opened, head: bytes) -> tuple[IO[bytes], bytes, str | None]:
    """The stream to read the text from, its head, and the compression it was unpacked
    from (None: read as it is)."""
    kind = compression(head)
    if kind is None:
        return opened.stream, head, None
    stream: IO[bytes] = _Decompressed(  # type: ignore[assignment]
        kind, head, opened.stream, opened.path or "input")
    return stream, read_head(Opened(stream, opened.path)), kind


def refuse_binary(format: str | None, head: bytes, where: str | None) -> None:
    """A binary file is refused, unless the caller named the format to read it as."""
    if format is None and registry.binary(head):
        readable = " or ".join(repr(n) for n in registry.names(kind="boards", readable=True))
        raise UnreadableInputError(
            f"{where or 'input'}: a binary file, not PBN, LIN or JSON text: nothing was read "
            f"(give the format: {readable} to read it anyway)")


def binary_input(path: str) -> bool:
    """Whether the file at ``path`` is binary by :func:`refuse_binary`'s rule (a
    compressed file is judged by what it unpacks to): the upload service's 415."""
    opened = open_source(path)
    try:
        _, head, _ = unpacked(opened, read_head(opened))
    except UnreadableInputError:
        return True
    finally:
        opened.close()
    return registry.binary(head)


def chunks(stream: IO[bytes], first: bytes, limit: int | None = None) -> Iterator[bytes]:
    """The bytes of a stream a chunk at a time; no more than one byte past ``limit`` is
    read (enough for the decoder to report the limit)."""
    if first:
        yield first
    left = None if limit is None else limit + 1 - len(first)
    while left is None or left > 0:
        try:
            chunk = stream.read(CHUNK if left is None else min(CHUNK, left))
        except OSError as exc:
            raise UnreadableInputError(f"cannot read on: {exc}") from exc
        if not chunk:
            return
        if left is not None:
            left -= len(chunk)
        yield chunk


def counted(opened: Opened, pieces: Iterable[bytes]) -> Iterator[bytes]:
    """``pieces`` passed on, their bytes added to ``opened.consumed``."""
    for piece in pieces:
        opened.consumed += len(piece)
        yield piece


def stream_boards(
    opened: Opened, format: str | None, options: ReadOptions, info: FileInfo
) -> Iterator[Board]:
    """Decode, parse and bound the boards of an open source; ``info`` learns the file."""
    stream, head, kind = unpacked(opened, read_head(opened))
    refuse_binary(format, head, opened.path)
    fmt = pick_format(format, plain_name(opened.path, kind), head)
    assert fmt.read is not None
    decoder = LineDecoder(
        path=opened.path,
        declared=options.encoding,
        strict=options.strict,
        limits=options.limits,
        line_setting=fmt.line_limit,
    )
    batches = decoder.read_batches(
        counted(opened, chunks(stream, head, options.limits.max_file_size))
    )

    def tracked() -> Iterator[list[str]]:
        yield from batches
        info.encoding = decoder.encoding

    info.path = opened.path
    info.format = fmt.name
    boards = bounded(fmt.read(Lines(tracked()), options, info), options, info)
    yield from with_decoder_diagnostics(boards, decoder, info)
    info.encoding = "str" if opened.text else (decoder.encoding or "ascii")


def bounded(boards: Iterator[Board], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """Stop after ``limits.max_boards`` boards, with a ``limit`` diagnostic if more follow."""
    limit = options.limits.max_boards
    if limit is None:
        yield from boards
        return
    for n, board in enumerate(boards, start=1):
        yield board
        if n >= limit:
            extra = next(boards, None)
            if extra is not None:
                diag = limit_diagnostic(
                    "max_boards",
                    limit,
                    f"the input (more than {limit:,} boards)",
                    f"the boards from line {extra.line} on are not read"
                    if extra.line
                    else "the boards after it are not read",
                    line=extra.line,
                    path=options.path,
                )
                if options.strict:
                    raise StrictModeError(diag.format(), diag)
                info.diagnostics.append(diag)
            close = getattr(boards, "close", None)
            if close is not None:
                close()
            return


def with_decoder_diagnostics(
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


def internal(exc: Exception, doing: str) -> BridgeFileError:
    """The error for an exception that escaped our code: :class:`InternalError` (a bug of
    ours), except deep nesting, which is the input's (a too deeply nested file)."""
    if isinstance(exc, BridgeFileError):
        return exc
    if isinstance(exc, RecursionError):
        return BridgeFileError(f"input too deeply nested to read: {exc}")
    if isinstance(exc, MemoryError):
        return BridgeFileError(f"out of memory while {doing}")
    return InternalError(f"internal error while {doing}: {type(exc).__name__}: {exc}")


@contextlib.contextmanager
def caught(doing: str) -> Iterator[None]:
    """Inside it, any exception but BridgeFileError is ours (DESIGN invariant 3): it
    leaves as :func:`internal` makes it, so a bug of ours never becomes the caller's
    crash nor passes for a finding about the file."""
    try:
        yield
    except BridgeFileError:
        raise
    except Exception as exc:
        raise internal(exc, doing) from exc


def guarded(boards: Iterator[Board], doing: str = "reading") -> Iterator[Board]:
    """Let nothing but BridgeFileError out of a reader (DESIGN invariant 3)."""
    with caught(doing):
        yield from boards


def options_for(
    path: str | None,
    strict: bool,
    encoding: str | None,
    limits: Limits | None,
    text: bool = False,
) -> ReadOptions:
    """Read options, checking the arguments a caller may get wrong (:class:`UsageError`)."""
    if limits is not None and not isinstance(limits, Limits):
        raise UsageError(f"limits must be a bridgefiles.limits.Limits, not {type(limits).__name__}")
    if encoding is not None and not text:
        text_charset(encoding)
    return ReadOptions(
        strict=bool(strict),
        path=path,
        encoding="utf-8" if text else encoding,
        limits=limits or DEFAULT_LIMITS,
    )


def file_from_info(
    boards: Iterable[Board], info: FileInfo, fmt_name: str, *, stream: bool = False
) -> BridgeFile:
    """A BridgeFile from boards and what the reader learned about the file.

    ``stream=True`` keeps ``boards`` as the iterator it is (not validated, never held
    whole): for handing a file that is still being read straight to a writer.
    """
    fields: dict[str, Any] = {
        "format": fmt_name,
        "directives": tuple(info.directives),
        "path": info.path,
        "encoding": info.encoding,
        "newline": info.newline,
        "preamble": info.preamble,
        "trailer": info.trailer,
        "diagnostics": tuple(info.diagnostics),
    }
    if stream:
        lazy: Any = boards  # writers only iterate it; a tuple is not required of them
        return BridgeFile.model_construct(boards=lazy, **fields)
    return BridgeFile(boards=tuple(boards), **fields)
